import warp as wp


@wp.kernel
def vec_3ffcab7b8e(layer: wp.array2d(dtype=wp.vec4), accum: wp.array2d(dtype=wp.vec4), rec709: wp.vec3, luminance: wp.array2d(dtype=float)):
    i, j = wp.tid()
    layer_v = layer[i, j]
    accum_v = accum[i, j]
    pre = wp.vec4(layer_v[0] * layer_v[3], layer_v[1] * layer_v[3], layer_v[2] * layer_v[3], layer_v[3])
    rgba = pre + accum_v * (1.0 - pre[3])
    accum[i, j] = rgba
    luminance[i, j] = wp.dot(wp.vec3(rgba[0], rgba[1], rgba[2]), rec709)
