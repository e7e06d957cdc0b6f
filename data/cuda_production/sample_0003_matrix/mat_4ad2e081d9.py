import warp as wp


@wp.kernel
def mat_4ad2e081d9(inp: wp.array[wp.mat33], data: wp.array(dtype=wp.mat33), res: wp.array(dtype=float)):
    tid = wp.tid()
    inp_v = inp[tid]
    data_v = data[tid]
    m1 = inp_v @ data_v
    res[tid] = m1[1, 2]
