import warp as wp


@wp.kernel
def comb_1fa894b385(q: wp.array[float], y: wp.array(dtype=wp.float32), acc: wp.array[wp.float32], dst: wp.array[wp.float32]):
    tid = wp.tid()
    q_v = q[tid]
    y_v = y[tid]
    s1 = wp.length(q_v * wp.vec3(0.5625, wp.abs(q_v), q_v))
    wp.atomic_add(acc, tid % 16, y_v)
    dst[tid] = (wp.sqrt(wp.abs(0.8125 + float(tid))) / -2.0) + s1
