import warp as wp


FRICTION = 0.25


@wp.func
def split_normal_tangent(v: wp.vec3, normal: wp.vec3, mu: float) -> wp.vec3:
    n = wp.normalize(normal)
    v_n = wp.dot(v, n) * n
    v_t = v - v_n
    return v_t * (1.0 - mu) - v_n

@wp.kernel(enable_backward=False)
def vec_e0de3929cc(forces_x: wp.array(dtype=float), forces_y: wp.array(dtype=float), forces_z: wp.array(dtype=float), axis_dirs_x: wp.array(dtype=float), axis_dirs_y: wp.array(dtype=float), axis_dirs_z: wp.array(dtype=float), v_after_x: wp.array(dtype=float), v_after_y: wp.array(dtype=float), v_after_z: wp.array(dtype=float)):
    tid = wp.tid()
    forces_v = wp.vec3(forces_x[tid], forces_y[tid], forces_z[tid])
    axis_dirs_v = wp.vec3(axis_dirs_x[tid], axis_dirs_y[tid], axis_dirs_z[tid])
    v_after = split_normal_tangent(forces_v, axis_dirs_v, FRICTION)
    v_after_x[tid] = v_after[0]
    v_after_y[tid] = v_after[1]
    v_after_z[tid] = v_after[2]
