import warp as wp


@wp.kernel(enable_backward=False)
def nbr_01eaba6cb7(grid_id: wp.uint64, particle_x: wp.array(dtype=wp.vec3), radius: float, color: wp.array(dtype=float), smoothed: wp.array(dtype=float)):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid_id, tid)
    pos_i = particle_x[i]
    weighted = float(0.0)
    den = float(0.0)
    for j in wp.hash_grid_query(grid_id, pos_i, radius):
        if j == i:
            continue
        x_j = particle_x[j]
        d = pos_i - x_j
        r_len = wp.length(d)
        if r_len > radius:
            continue
        w = radius - r_len
        weighted += w * color[j]
        den += w
    value = color[i]
    if den > 0.0:
        value = weighted / den
    smoothed[i] = value
