import warp as wp


ACTIVE = wp.constant(2)

@wp.kernel
def arith_acfc1be357(a: wp.array[int], point_flags: wp.array[int], limited: wp.array[int], num_tiles: wp.array[int]):
    tid = wp.tid()
    if (point_flags[tid] & ACTIVE) == 0:
        return
    a_v = a[tid]
    limited[tid] = wp.clamp(a_v, 0, 63)
    num_tiles[tid] = (wp.abs(a_v) + 15) // 16
