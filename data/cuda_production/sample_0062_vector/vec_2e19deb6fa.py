import warp as wp


@wp.kernel
def vec_2e19deb6fa(layer: wp.array2d(dtype=wp.vec4), background: wp.array2d(dtype=wp.vec4), composite: wp.array2d(dtype=wp.vec4), luminance: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    layer_v = layer[i, j]
    background_v = background[i, j]
    one = wp.vec4(1.0, 1.0, 1.0, 1.0)
    rgba = one - wp.cw_mul(one - layer_v, one - background_v)
    composite[i, j] = rgba
    luminance[i, j] = wp.dot(wp.vec3(rgba[0], rgba[1], rgba[2]), wp.vec3(0.2126, 0.7152, 0.0722))
