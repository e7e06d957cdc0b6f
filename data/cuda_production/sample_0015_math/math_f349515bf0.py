import warp as wp


@wp.kernel
def math_f349515bf0(src: wp.array[wp.float32], u: wp.array[wp.float32], q: wp.array[wp.float32], num: wp.int32, dst: wp.array[wp.float32], y_out: wp.array[wp.float32], dst2: wp.array[wp.float32]):
    tid = wp.tid()
    if tid >= num:
        return
    src_v = src[tid]
    u_v = u[tid]
    q_v = q[tid]
    cx = (float(tid) + 0.5) * 0.03125
    c = wp.clamp(src_v, 0.0, 1.0)
    dst[tid] = wp.pow(c, 0.4545)
    y_out[tid] = u_v * wp.cos(3.0 * cx + 1.0)
    dst2[tid] = wp.log(1.0 + q_v * q_v)
