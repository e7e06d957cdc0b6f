import warp as wp


@wp.kernel
def arith_2b4de2d329(x: wp.array(dtype=int), sub_idx: wp.array(dtype=int), sub_idx2: wp.array(dtype=int)):
    tid = wp.tid()
    x_v = x[tid]
    sub_idx[tid] = x_v & 7
    sub_idx2[tid] += x_v & 3
