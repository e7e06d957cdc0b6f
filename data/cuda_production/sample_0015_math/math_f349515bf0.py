import warp as wp


@wp.kernel
def math_f349515bf0(src: wp.array[wp.float32], num: wp.int32, out: wp.array[wp.float32], dst: wp.array[wp.float32], result: wp.array[wp.float32]):
    tid = wp.tid()
    if tid >= num:
        return
    src_v = src[tid]
    cx = (float(tid) + 0.5) * 0.03125
    c = wp.clamp(src_v, 0.0, 1.0)
    out[tid] = wp.pow(c, 0.4545)
    dst[tid] = src_v * wp.cos(3.0 * cx + 1.0)
    result[tid] = wp.log(1.0 + src_v * src_v)
