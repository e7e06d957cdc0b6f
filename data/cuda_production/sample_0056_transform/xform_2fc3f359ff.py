import warp as wp


@wp.kernel(enable_backward=False)
def xform_2fc3f359ff(frames: wp.array(dtype=wp.transform), anchors: wp.array(dtype=wp.vec3), shift: wp.vec3, x_world: wp.array(dtype=wp.vec3), w_body: wp.array(dtype=wp.vec3), v_com: wp.vec3, vel_out: wp.array(dtype=wp.vec3), mix_rate: wp.float32):
    tid = wp.tid()
    X = frames[tid]
    p_world = wp.transform_point(X, anchors[tid])
    x_world[tid] = p_world + shift
    arm = p_world - wp.transform_get_translation(X)
    vel_out[tid] = (1.0 - mix_rate) * vel_out[tid] + mix_rate * (v_com + wp.cross(w_body[tid], arm))
