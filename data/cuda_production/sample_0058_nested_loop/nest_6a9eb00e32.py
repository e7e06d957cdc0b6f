import warp as wp


@wp.kernel
def nest_6a9eb00e32(vals: wp.array[float], p: wp.array[wp.float32], table: wp.array2d(dtype=wp.float32), kern: wp.array2d(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    vals_v = vals[tid]
    p_v = p[tid]
    total1 = float(0.0)
    for r in range(6):
        acc2 = float(0.0)
        for c in range(16):
            acc2 = acc2 + ((table[tid, c] * kern[r, c]) - ((vals_v - p_v) - vals_v))
        total1 = total1 + acc2
    out[tid] = total1
