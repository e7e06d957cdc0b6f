import warp as wp


@wp.kernel(module="unique")
def atom_19ac478aaa(u: wp.array2d(dtype=int), lowest: wp.array2d(dtype=int), gain: wp.array2d(dtype=int), segment: wp.array2d(dtype=int), remaining: wp.array(dtype=int), acc: wp.array(dtype=int)):
    i, j = wp.tid()
    u_v = u[i, j]
    segment_v = segment[i, j]
    old = wp.atomic_min(lowest, i, j, u_v)
    gain[i, j] = wp.where(u_v < old, old - u_v, 0)
    wp.atomic_sub(remaining, segment_v, wp.max(u_v, 0))
    wp.atomic_add(acc, segment_v, u_v * u_v)
