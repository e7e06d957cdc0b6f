import warp as wp


@wp.kernel
def nest_e7e77e4744(n: wp.int32, positions: wp.array2d(dtype=wp.float32), well_depth: wp.float32, sigma_lj: wp.float32, potential: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    if tid >= n:
        return
    energy = float(0.0)
    for a in range(positions.shape[1]):
        for b in range(a + 1, positions.shape[1]):
            d = positions[tid, a] - positions[tid, b]
            r2 = d * d
            if r2 < 2.25:
                s2 = sigma_lj * sigma_lj / (r2 + 0.5)
                s6 = s2 * s2 * s2
                energy += 4.0 * well_depth * (s6 * s6 - s6)
    potential[tid] += energy
