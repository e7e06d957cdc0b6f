import warp as wp


@wp.kernel(module="unique")
def atom_6599b53b54(src: wp.array[wp.float32], data: wp.array[wp.float32], best_cost: wp.array[wp.float32], improvement: wp.array[wp.float32], best_at: wp.array[wp.float32], overall_min: wp.array[wp.float32]):
    tid = wp.tid()
    src_v = src[tid]
    data_v = data[tid]
    prev_best = best_cost[tid]
    improvement[tid] = wp.where(src_v < prev_best, prev_best - src_v, 0.0)
    if src_v < prev_best:
        best_cost[tid] = src_v
        best_at[tid] = data_v
    wp.atomic_min(overall_min, 0, src_v)
