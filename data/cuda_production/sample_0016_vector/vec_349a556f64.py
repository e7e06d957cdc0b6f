import warp as wp


@wp.kernel
def vec_349a556f64(w: wp.array[wp.vec3], inp: wp.array[wp.vec3], a: wp.array[wp.vec3], y: wp.array(dtype=wp.float32), res: wp.array[wp.vec3], output: wp.array[wp.float32]):
    tid = wp.tid()
    w_v = w[tid]
    inp_v = inp[tid]
    a_v = a[tid]
    y_v = y[tid]
    t1 = inp_v + a_v
    s2 = t1[2]
    t3 = wp.normalize(t1)
    res[tid] = wp.cross(t3, t3 - w_v)
    t4 = t1 + (w_v - wp.vec3(y_v, wp.abs(s2), max(s2, y_v)))
    output[tid] = 0.5 * t4[1]
