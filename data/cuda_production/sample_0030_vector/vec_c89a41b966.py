import warp as wp


@wp.kernel
def vec_c89a41b966(b: wp.array(dtype=wp.vec4), y: wp.array(dtype=wp.vec4), b2: wp.array(dtype=float), res: wp.array(dtype=wp.vec4), y_out: wp.array[float]):
    tid = wp.tid()
    b_v = b[tid]
    y_v = y[tid]
    b2_v = b2[tid]
    t1 = wp.max(wp.max(b2_v * y_v, y_v), b2_v * (y_v - wp.vec4(b2_v, -0.625, b2_v * b2_v, float(tid))))
    t2 = wp.normalize(t1)
    s3 = t2[0]
    s4 = wp.dot(b_v, b_v)
    res[tid] = wp.min(t2, t1 + y_v)
    y_out[tid] = (b_v[3] + s3) + s4
