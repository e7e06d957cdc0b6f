import warp as wp


KE = wp.constant(2.5)


@wp.func
def plane_distance(plane: wp.vec4, p: wp.vec3) -> float:
    return wp.dot(wp.vec3(plane[0], plane[1], plane[2]), p) + plane[3]

@wp.kernel(enable_backward=False)
def xform_7241938177(halfspace: wp.vec4, anchors: wp.array(dtype=wp.vec3), contact_force: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    p = anchors[tid]
    depth = wp.min(plane_distance(halfspace, p), 0.0)
    contact_force[tid] += -KE * depth * wp.vec3(halfspace[0], halfspace[1], halfspace[2])
