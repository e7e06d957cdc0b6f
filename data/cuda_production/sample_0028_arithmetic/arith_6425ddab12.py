import warp as wp


GAIN_6425DDAB12 = wp.constant(1.1875)

@wp.kernel
def arith_6425ddab12(p: wp.array(dtype=wp.float32), a: wp.array[wp.float32], q: wp.array[wp.float32], dst: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    q_v = q[tid]
    q_left = q[max(tid - 1, 0)]
    q_right = q[min(tid + 1, 499)]
    p_v = p[tid]
    a_v = a[tid]
    lap1 = q_left + q_right - 2.0 * q_v
    v2 = wp.max(a_v, lap1)
    dst[tid] = (min(v2, p_v) / (wp.abs(lap1 + 1.75) + 0.5)) + GAIN_6425DDAB12
