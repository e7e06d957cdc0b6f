import warp as wp


@wp.kernel
def vec_ce0809dead(y: wp.array(dtype=wp.vec3), p: wp.array[wp.vec3], y_out: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    tid = wp.tid()
    t1 = wp.vec3(float(tid) + float(tid), float(tid), float(tid) + float(tid))
    s2 = t1.y
    t3 = wp.normalize(p[tid])
    y_out[tid] = p[tid]
    out[tid] = wp.dot(wp.normalize(p[tid]), wp.min(y[tid], t1))
