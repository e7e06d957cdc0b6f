import warp as wp


@wp.kernel
def math_f349515bf0(src: wp.array[wp.float32], is_active: wp.array[wp.int32], encoded: wp.array[wp.float32], loss: wp.array[wp.float32], alpha: wp.float32):
    tid = wp.tid()
    if is_active[tid] == 0:
        return
    src_v = src[tid]
    c = wp.clamp(src_v, 0.0, 1.0)
    encoded[tid] = wp.lerp(encoded[tid], wp.pow(c, 0.4545), alpha)
    loss[tid] = wp.log(1.0 + src_v * src_v)
