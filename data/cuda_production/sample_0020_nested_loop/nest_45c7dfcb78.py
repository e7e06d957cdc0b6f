import warp as wp


@wp.kernel
def nest_45c7dfcb78(vals: wp.array[wp.float32], u: wp.array(dtype=wp.float32), kern: wp.array2d(dtype=wp.float32), dst: wp.array[wp.float32]):
    tid = wp.tid()
    vals_v = vals[tid]
    u_v = u[tid]
    total1 = float(0.0)
    for r in range(3):
        acc2 = float(0.0)
        for c in range(8):
            if min(vals_v, u_v) > kern[r, c]:
                break
            acc2 = acc2 + (kern[r, c] - wp.min(wp.abs(u_v), float(c)))
        total1 = total1 + acc2
    dst[tid] = total1
