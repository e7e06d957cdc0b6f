import warp as wp


@wp.kernel
def atom_a85d0f5856(u: wp.array(dtype=int), src: wp.array(dtype=int), hist: wp.array[int], total: wp.array(dtype=wp.int32), idx: wp.array[int], total2: wp.array[int], slots: wp.array[int], prev: wp.array(dtype=int)):
    tid = wp.tid()
    u_v = u[tid]
    src_v = src[tid]
    idx_v = idx[tid]
    wp.atomic_add(hist, tid % 32, src_v)
    wp.atomic_sub(total, idx_v, src_v * u_v)
    wp.atomic_sub(total2, tid % 32, src_v / 3)
    old1 = wp.atomic_sub(slots, tid, src_v // 7)
    prev[tid] = (src_v // 7) - old1
