import warp as wp


@wp.kernel
def arith_b1d6d23a69(w: wp.array[int], u: wp.array[wp.int32], a: wp.array[wp.int32], output: wp.array(dtype=int)):
    tid = wp.tid()
    n1 = wp.abs(wp.max(a[tid], w[tid]) - (u[tid] * tid))
    n2 = n1
    output[tid] = ((u[tid] - tid) - (w[tid] / (-3))) + (w[tid] / 5)
