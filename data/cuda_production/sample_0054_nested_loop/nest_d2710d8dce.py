import warp as wp


@wp.kernel
def nest_d2710d8dce(positions: wp.array2d(dtype=float), epsilon: float, sigma_lj: float, potential: wp.array(dtype=float)):
    tid = wp.tid()
    energy = float(0.0)
    for a in range(8):
        for b in range(a + 1, 8):
            d = positions[tid, a] - positions[tid, b]
            r2 = d * d
            if r2 < 4.0:
                s2 = sigma_lj * sigma_lj / (r2 + 0.25)
                s6 = s2 * s2 * s2
                energy = energy + 4.0 * epsilon * (s6 * s6 - s6)
    potential[tid] = energy
