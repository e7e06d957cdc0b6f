import warp as wp


@wp.kernel
def vec_3ffcab7b8e(inp: wp.array(dtype=wp.vec3), vals: wp.array[wp.vec3], b: wp.array(dtype=float), dst: wp.array(dtype=wp.vec3), dst2: wp.array[wp.float32]):
    tid = wp.tid()
    inp_v = inp[tid]
    vals_v = vals[tid]
    b_v = b[tid]
    t1 = wp.vec3(b_v, wp.min(b_v, -1.9375), 0.875)
    dst[tid] = vals_v - t1
    t2 = -inp_v
    dst2[tid] = 0.5 * t2[2]
