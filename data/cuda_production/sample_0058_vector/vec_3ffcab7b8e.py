import warp as wp


@wp.kernel
def vec_3ffcab7b8e(vals: wp.array[wp.vec3], b: wp.array(dtype=float), dst: wp.array(dtype=wp.vec3), dst2: wp.array[wp.float32]):
    tid = wp.tid()
    vals_v = vals[tid]
    b_v = b[tid]
    t1 = wp.vec3(b_v, wp.min(b_v, -1.9375), 0.875)
    dst[tid] = vals_v - t1
    t2 = wp.vec3(wp.abs(b_v), -1.0, b_v)
    dst2[tid] = 1.5 * t2[1]
