import warp as wp


@wp.kernel
def vec_ed033ef7f2(layer: wp.array[wp.vec4], background: wp.array[wp.vec4], mix: wp.array[float], rgba_out: wp.array[wp.vec4]):
    tid = wp.tid()
    layer_v = layer[tid]
    background_v = background[tid]
    mix_v = mix[tid]
    rgba_out[tid] = wp.lerp(background_v, layer_v, mix_v)
