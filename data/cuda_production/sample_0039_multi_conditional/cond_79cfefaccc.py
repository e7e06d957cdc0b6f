import warp as wp


GROUND = wp.constant(0.0)

@wp.kernel(enable_backward=False)
def cond_79cfefaccc(q: wp.array(dtype=wp.float32), vel: wp.array(dtype=wp.float32), height: wp.array(dtype=wp.float32), stiffness: wp.float32, slope: wp.array(dtype=wp.float32), face_left: wp.array(dtype=wp.float32), face_right: wp.array(dtype=wp.float32), advected: wp.array(dtype=wp.float32), force: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    q_v = q[tid]
    q_left = q[wp.max(tid - 1, 0)]
    q_right = q[wp.min(tid + 1, q.shape[0] - 1)]
    vel_v = vel[tid]
    dl = q_v - q_left
    dr = q_right - q_v
    slope_val = float(0.0)
    if dl * dr > 0.0:
        if wp.abs(dl) < wp.abs(dr):
            slope_val = dl
        else:
            slope_val = dr
    du = float(0.0)
    if vel_v > 0.0:
        du = dl
    else:
        du = dr
    depth = GROUND - height[tid]
    force_val = float(0.0)
    if depth > 0.0:
        force_val = stiffness * depth - 2.0 * vel_v
    slope[tid] = slope_val
    face_left[tid] = q_v - 0.5 * slope_val
    face_right[tid] = q_v + 0.5 * slope_val
    advected[tid] = q_v - 0.25 * vel_v * du
    force[tid] += force_val
