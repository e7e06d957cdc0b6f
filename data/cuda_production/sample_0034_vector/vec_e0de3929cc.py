import warp as wp


@wp.kernel
def vec_e0de3929cc(positions: wp.array[wp.vec3], vel: wp.array[wp.vec3], e: wp.float32, half_extent: wp.float32, pos_out: wp.array[wp.vec3], velocities_out: wp.array[wp.vec3]):
    tid = wp.tid()
    positions_v = positions[tid]
    vel_v = vel[tid]
    for k in range(3):
        if positions_v[k] < -half_extent:
            positions_v[k] = -half_extent
            vel_v[k] = wp.abs(vel_v[k]) * e
        elif positions_v[k] > half_extent:
            positions_v[k] = half_extent
            vel_v[k] = -wp.abs(vel_v[k]) * e
    pos_out[tid] = positions_v
    velocities_out[tid] = vel_v
