import warp as wp


@wp.kernel
def vec_349a556f64(fg: wp.array2d(dtype=wp.vec4), accum: wp.array2d(dtype=wp.vec4), luma_weights: wp.vec3, gray: wp.array2d(dtype=float)):
    i, j = wp.tid()
    fg_v = fg[i, j]
    accum_v = accum[i, j]
    rgba = wp.cw_mul(fg_v, accum_v)
    accum[i, j] = rgba
    gray[i, j] = wp.dot(wp.vec3(rgba[0], rgba[1], rgba[2]), luma_weights)
