import warp as wp


@wp.kernel
def atom_a38f335c82(vals: wp.array[float], total: wp.array[wp.float32], idx: wp.array(dtype=wp.int32), hist: wp.array(dtype=float), idx2: wp.array[wp.int32], bins: wp.array[float], idx3: wp.array(dtype=int), slots: wp.array(dtype=float), prev: wp.array[float]):
    tid = wp.tid()
    vals_v = vals[tid]
    idx_v = idx[tid]
    idx2_v = idx2[tid]
    idx3_v = idx3[tid]
    wp.atomic_max(total, idx_v, vals_v)
    hist[idx2_v] += -0.3125
    bins[idx3_v] += wp.min(vals_v, float(tid))
    old1 = wp.atomic_add(slots, tid, (-2.1875) + vals_v)
    prev[tid] = ((-2.1875) + vals_v) - old1
