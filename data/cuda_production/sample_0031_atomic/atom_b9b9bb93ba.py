import warp as wp


@wp.kernel
def atom_b9b9bb93ba(a: wp.array[wp.float32], u: wp.array(dtype=wp.float32), acc: wp.array[float], acc2: wp.array[float], idx: wp.array(dtype=int), hist: wp.array[float], slots: wp.array[float], prev: wp.array(dtype=float)):
    tid = wp.tid()
    a_v = a[tid]
    u_v = u[tid]
    idx_v = idx[tid]
    wp.atomic_sub(acc, 0, u_v)
    wp.atomic_min(acc2, idx_v, u_v)
    wp.atomic_sub(hist, 0, wp.min(float(tid), u_v))
    old1 = wp.atomic_min(slots, tid, a_v)
    prev[tid] = a_v - old1
