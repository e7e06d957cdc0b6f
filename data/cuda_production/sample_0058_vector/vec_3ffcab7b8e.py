import warp as wp


@wp.kernel(enable_backward=False)
def vec_3ffcab7b8e(fg: wp.array2d(dtype=wp.vec4), dst_rgba: wp.array2d(dtype=wp.vec4), rgba_out: wp.array2d(dtype=wp.vec4), luma_weights: wp.vec3, luminance: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    one = wp.vec4(1.0, 1.0, 1.0, 1.0)
    rgba = one - wp.cw_mul(one - fg[i, j], one - dst_rgba[i, j])
    rgba_out[i, j] = rgba
    luminance[i, j] = wp.dot(wp.vec3(rgba[0], rgba[1], rgba[2]), luma_weights)
