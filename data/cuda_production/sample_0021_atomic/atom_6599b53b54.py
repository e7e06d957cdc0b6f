import warp as wp


@wp.kernel
def atom_6599b53b54(src: wp.array[wp.float32], best_cost: wp.array[wp.float32], improvement: wp.array[wp.float32], global_lowest: wp.array[wp.float32], alpha: wp.float32):
    tid = wp.tid()
    src_v = src[tid]
    prev_best = best_cost[tid]
    improvement[tid] = wp.lerp(improvement[tid], wp.where(src_v < prev_best, prev_best - src_v, 0.0), alpha)
    if src_v < prev_best:
        best_cost[tid] = src_v
    wp.atomic_min(global_lowest, 0, src_v)
