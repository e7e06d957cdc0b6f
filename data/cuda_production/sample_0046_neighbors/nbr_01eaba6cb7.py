import warp as wp


@wp.func
def falloff(r: float, h: float) -> float:
    q = 1.0 - r / h
    return q * q * q

@wp.kernel(enable_backward=False)
def nbr_01eaba6cb7(bvh_id: wp.uint64, x: wp.array(dtype=wp.vec3), cutoff: float, color: wp.array(dtype=float), interp: wp.array(dtype=float)):
    tid = wp.tid()
    x_i = x[tid]
    acc = float(0.0)
    weight_sum = float(0.0)
    candidates = wp.bvh_query_aabb(bvh_id, x_i, x_i)
    j = int(0)
    while wp.bvh_query_next(candidates, j):
        d = x_i - x[j]
        r_len = wp.length(d)
        if j != tid and r_len < cutoff:
            w = falloff(r_len, cutoff)
            acc += w * color[j]
            weight_sum += w
    result = color[tid]
    if weight_sum > 0.0:
        result = acc / weight_sum
    interp[tid] = result
