import warp as wp


ACTIVE = wp.constant(1)

@wp.kernel(enable_backward=False)
def atom_75d8ee5e46(fraction: wp.array[wp.float64], point_flags: wp.array[int], dv: wp.float64, dx: wp.float64, first_moment: wp.array[wp.float64], loss: wp.array[wp.float64]):
    tid = wp.tid()
    if (point_flags[tid] & ACTIVE) == 0:
        return
    fraction_v = fraction[tid]
    wp.atomic_add(first_moment, 0, (wp.float64(tid) + wp.float64(0.5)) * dx * fraction_v * dv)
    wp.atomic_add(loss, 0, fraction_v * dv)
