import warp as wp


@wp.kernel(enable_backward=False)
def vec_b738b5b622(enabled: wp.array(dtype=int), normals: wp.array(dtype=wp.vec3), base_color: wp.array(dtype=float), positions: wp.array(dtype=wp.vec3), light_pos: wp.vec3, to_eye: wp.vec3, spec_power: float, color: wp.array(dtype=float)):
    tid = wp.tid()
    if enabled[tid] == 0:
        return
    n = wp.normalize(normals[tid])
    to_l = light_pos - positions[tid]
    dist2 = wp.dot(to_l, to_l)
    l = to_l / wp.sqrt(dist2)
    ndotl = wp.max(wp.dot(n, l), 0.0) * 16.0 / dist2
    h = wp.normalize(l + wp.normalize(to_eye))
    spec = wp.pow(wp.max(wp.dot(n, h), 0.0), spec_power)
    color[tid] = base_color[tid] * (0.125 + ndotl) + spec
