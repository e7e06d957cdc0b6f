import warp as wp


@wp.kernel
def vec_90052b7dc4(src_rgba: wp.array(dtype=wp.vec4), bg: wp.array(dtype=wp.vec4), rgba_out: wp.array(dtype=wp.vec4), luma_weights: wp.vec3, gray: wp.array(dtype=float)):
    tid = wp.tid()
    src_rgba_v = src_rgba[tid]
    bg_v = bg[tid]
    pre = wp.vec4(src_rgba_v[0] * src_rgba_v[3], src_rgba_v[1] * src_rgba_v[3], src_rgba_v[2] * src_rgba_v[3], src_rgba_v[3])
    rgba = pre + bg_v * (1.0 - pre[3])
    rgba_out[tid] = rgba
    gray[tid] = wp.dot(wp.vec3(rgba[0], rgba[1], rgba[2]), luma_weights)
