import warp as wp


@wp.kernel
def arith_79a84dad80(inp: wp.array[wp.int32], res: wp.array(dtype=wp.int32)):
    tid = wp.tid()
    inp_v = inp[tid]
    res[tid] = inp_v * 2
