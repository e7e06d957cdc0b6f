import warp as wp


@wp.kernel
def vec_3ffcab7b8e(inp: wp.array(dtype=wp.vec3), b: wp.array(dtype=float), dst: wp.array(dtype=wp.vec3), dst2: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    inp_v = inp[tid]
    b_v = b[tid]
    t1 = wp.vec3(b_v, wp.min(b_v, -1.9375), 0.875)
    dst[tid] = t1
    dst2[tid] = wp.length(wp.cross(wp.vec3(wp.abs(b_v), -1.0, b_v), inp_v))
