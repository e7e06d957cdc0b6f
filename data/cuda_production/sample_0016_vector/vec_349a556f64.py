import warp as wp


@wp.kernel
def vec_349a556f64(w: wp.array[wp.vec3], inp: wp.array[wp.vec3], a: wp.array[wp.vec3], y: wp.array(dtype=wp.float32), dst: wp.array(dtype=float)):
    tid = wp.tid()
    w_v = w[tid]
    inp_v = inp[tid]
    a_v = a[tid]
    y_v = y[tid]
    t1 = inp_v + a_v
    s2 = t1.x
    t3 = -w_v
    s4 = t3.x
    s5 = wp.length(inp_v)
    t6 = wp.max(wp.cross(wp.vec3(s4, y_v + 1.875, s2 - 0.375), t3), wp.cross(t3, a_v))
    dst[tid] = t6.x - s5
