import warp as wp


@wp.kernel(enable_backward=False)
def xform_e3473b0000(X_wb: wp.array(dtype=wp.transform), owner: wp.array(dtype=int), x_local: wp.array(dtype=wp.vec3), offset: wp.vec3, world_pos: wp.array(dtype=wp.vec3), w_body: wp.array(dtype=wp.vec3), v0: wp.vec3, scale: wp.array(dtype=float), v_point: wp.array(dtype=wp.vec3), alpha: float):
    tid = wp.tid()
    X = X_wb[owner[tid]]
    p_world = wp.transform_point(X, x_local[tid])
    world_pos[tid] = wp.lerp(world_pos[tid], p_world + offset, alpha)
    w = w_body[tid]
    arm = p_world - wp.transform_get_translation(X)
    W = wp.mat33(0.0, -w[2], w[1], w[2], 0.0, -w[0], -w[1], w[0], 0.0)
    v_point[tid] = scale[tid] * (v0 + W * arm)
