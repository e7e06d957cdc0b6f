import warp as wp


@wp.kernel
def atom_6599b53b54(src: wp.array[wp.float32], best_cost: wp.array[wp.float32], improvement: wp.array[wp.float32], old_out: wp.array[wp.float32]):
    tid = wp.tid()
    src_v = src[tid]
    old = wp.atomic_min(best_cost, tid, src_v)
    old_out[tid] = old
    improvement[tid] = wp.where(src_v < old, old - src_v, 0.0)
