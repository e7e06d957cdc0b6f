import warp as wp


@wp.kernel
def arith_b1d6d23a69(w: wp.array[int], u: wp.array[wp.int32], output: wp.array(dtype=int)):
    tid = wp.tid()
    output[tid] = ((u[tid] - tid) - (w[tid] / (-3))) + (w[tid] / 5)
