import warp as wp


@wp.kernel
def vec_349a556f64(fg: wp.array2d(dtype=wp.vec4), dst_rgba: wp.array2d(dtype=wp.vec4), composite: wp.array2d(dtype=wp.vec4), gray: wp.array2d(dtype=float)):
    i, j = wp.tid()
    fg_v = fg[i, j]
    dst_rgba_v = dst_rgba[i, j]
    rgba = wp.cw_mul(fg_v, dst_rgba_v)
    composite[i, j] = rgba
    gray[i, j] = wp.dot(wp.vec3(rgba[0], rgba[1], rgba[2]), wp.vec3(0.2126, 0.7152, 0.0722))
