import warp as wp


@wp.kernel
def atom_a38f335c82(vals: wp.array[float], hist: wp.array(dtype=float), hist2: wp.array(dtype=float), idx: wp.array[wp.int32], bins: wp.array[float], slots: wp.array(dtype=float), prev: wp.array[float]):
    tid = wp.tid()
    vals_v = vals[tid]
    idx_v = idx[tid]
    wp.atomic_max(hist, tid % 16, vals_v)
    hist2[idx_v] += -0.3125
    wp.atomic_min(bins, tid % 16, vals_v)
    old1 = wp.atomic_add(slots, tid, vals_v - 2.1875)
    prev[tid] = (vals_v - 2.1875) - old1
