import warp as wp


@wp.kernel
def atom_872d6f6891(src: wp.array[float], group: wp.array[int], remaining: wp.array[float], lowest: wp.array[float], improvement: wp.array[float]):
    tid = wp.tid()
    group_v = group[tid]
    src_v = src[tid]
    wp.atomic_sub(remaining, group_v, wp.abs(src_v))
    old = wp.atomic_min(lowest, tid, src_v)
    improvement[tid] = wp.max(old - src_v, 0.0)
