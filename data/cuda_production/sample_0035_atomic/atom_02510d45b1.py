import warp as wp


ENABLED = wp.constant(4)
BIN_WIDTH = wp.constant(0.5)

@wp.kernel
def atom_02510d45b1(flags: wp.array(dtype=wp.int32), u: wp.array(dtype=wp.float32), inp: wp.array(dtype=wp.float32), hist: wp.array(dtype=wp.int32), bin_sums: wp.array(dtype=wp.float32), group: wp.array(dtype=wp.int32), sums: wp.array(dtype=wp.float32), group_size: wp.array(dtype=wp.int32)):
    tid = wp.tid()
    if (flags[tid] & ENABLED) == 0:
        return
    u_v = u[tid]
    inp_v = inp[tid]
    group_v = group[tid]
    b = wp.min(int(wp.floor((u_v + 4.0) / BIN_WIDTH)), 15)
    wp.atomic_add(hist, b, 1)
    wp.atomic_add(bin_sums, b, inp_v)
    sums[group_v] += wp.max(u_v, 0.0)
    wp.atomic_add(group_size, group_v, 1)
