import warp as wp


@wp.func
def rotation_step(q: wp.quat, omega: wp.vec3, dt: float) -> wp.mat33:
    R = wp.quat_to_matrix(wp.normalize(q))
    R = R + dt * R @ wp.skew(omega)
    R[0] = wp.normalize(R[0])
    proj = wp.dot(R[1], R[0])
    R[1] = wp.normalize(R[1] - proj * R[0])
    R[2] = wp.cross(R[0], R[1])
    return R

@wp.kernel
def mat_5ea53bacef(rot: wp.array(dtype=wp.quat), ang_vel: wp.array(dtype=wp.vec3), dt: float, body_R: wp.array(dtype=wp.mat33)):
    tid = wp.tid()
    rot_v = rot[tid]
    ang_vel_v = ang_vel[tid]
    body_R[tid] = rotation_step(rot_v, ang_vel_v, dt)
