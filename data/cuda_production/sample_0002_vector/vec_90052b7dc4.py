import warp as wp


@wp.func
def over(src: wp.vec4, dst: wp.vec4) -> wp.vec4:
    pre = wp.vec4(src[0] * src[3], src[1] * src[3], src[2] * src[3], src[3])
    return pre + dst * (1.0 - pre[3])

@wp.kernel
def vec_90052b7dc4(layer: wp.array[wp.vec4], framebuffer: wp.array[wp.vec4], luminance: wp.array[float]):
    tid = wp.tid()
    layer_v = layer[tid]
    framebuffer_v = framebuffer[tid]
    rgba = over(layer_v, framebuffer_v)
    framebuffer[tid] = rgba
    luminance[tid] = wp.dot(wp.vec3(rgba[0], rgba[1], rgba[2]), wp.vec3(0.2126, 0.7152, 0.0722))
