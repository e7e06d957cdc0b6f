import warp as wp


@wp.kernel(enable_backward=False)
def math_f349515bf0(src: wp.array[wp.float32], is_active: wp.array[wp.int32], encoded: wp.array[wp.float32], gamma_out: wp.array[wp.float32]):
    tid = wp.tid()
    if is_active[tid] == 0:
        return
    c = wp.clamp(src[tid], 0.0, 1.0)
    encoded[tid] = wp.pow(c, 0.4545)
    gamma_out[tid] = wp.pow(c, 2.2)
