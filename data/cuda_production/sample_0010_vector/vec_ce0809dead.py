import warp as wp


@wp.kernel
def vec_ce0809dead(y: wp.array(dtype=wp.vec3), p: wp.array[wp.vec3], y_out: wp.array(dtype=wp.vec3), y_out2: wp.array[float]):
    tid = wp.tid()
    t1 = wp.vec3(float(tid) + float(tid), float(tid), float(tid) + float(tid))
    s2 = t1.y
    t3 = wp.normalize(p[tid])
    y_out[tid] = t1 + t3
    y_out2[tid] = wp.dot(wp.normalize(y[tid]), wp.cross(wp.normalize(wp.vec3((-2.4375) * (-2.5), -float(tid), float(tid))), p[tid])) - s2
