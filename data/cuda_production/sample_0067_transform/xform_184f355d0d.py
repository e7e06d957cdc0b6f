import warp as wp


DT = 0.0625
KE = wp.constant(6.6875)


@wp.func
def xform_184f355d0d_signed_distance(plane: wp.vec4, p: wp.vec3) -> float:
    normal = wp.vec3(plane.x, plane.y, plane.z)
    return wp.dot(normal, p) + plane.w

@wp.kernel
def xform_184f355d0d(body_rot: wp.array[wp.quat], omega: wp.array(dtype=wp.vec3), orient_out: wp.array[wp.quat], plane: wp.vec4, verts: wp.array[wp.vec3], f_contact: wp.array[wp.vec3]):
    tid = wp.tid()
    q = wp.normalize(body_rot[tid])
    v = omega[tid]
    dq = wp.quat(v, 0.0) * q
    q_new = wp.normalize(q + dq * (0.5 * DT))
    orient_out[tid] = q_new
    r = verts[tid]
    depth = wp.min(xform_184f355d0d_signed_distance(plane, r), 0.0)
    f_contact[tid] = -KE * depth * wp.vec3(plane[0], plane[1], plane[2])
