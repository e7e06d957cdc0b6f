import warp as wp


@wp.kernel
def vec_3ffcab7b8e(vals: wp.array[wp.vec3], w: wp.array[wp.vec3], b: wp.array(dtype=float), y_out: wp.array(dtype=wp.vec3), res: wp.array[float]):
    tid = wp.tid()
    vals_v = vals[tid]
    w_v = w[tid]
    b_v = b[tid]
    t1 = wp.vec3(b_v, wp.min(b_v, -1.9375), 1.4375)
    y_out[tid] = wp.max(vals_v, t1)
    res[tid] = wp.dot(wp.vec3(b_v, b_v, 1.9375), w_v)
