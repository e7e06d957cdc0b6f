import warp as wp


@wp.func
def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + wp.exp(-x))

@wp.kernel
def comb_6923753868(pos: wp.array(dtype=wp.vec3), target_pos: wp.array(dtype=wp.vec3), g: wp.array(dtype=float), group: wp.array(dtype=int), per_group: wp.array(dtype=float), group_count: wp.array(dtype=int), gated_out: wp.array(dtype=float)):
    tid = wp.tid()
    pos_v = pos[tid]
    target_pos_v = target_pos[tid]
    g_v = g[tid]
    group_v = group[tid]
    d = pos_v - target_pos_v
    s = wp.length(d)
    gate = sigmoid(g_v)
    gated = gate * s
    wp.atomic_add(per_group, group_v, gated)
    wp.atomic_add(group_count, group_v, 1)
    gated_out[tid] = gated
