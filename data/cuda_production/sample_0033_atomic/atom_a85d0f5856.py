import warp as wp


@wp.kernel
def atom_a85d0f5856(fraction: wp.array(dtype=wp.float64), count: wp.float64, area: wp.array(dtype=wp.float32), objective: wp.array(dtype=wp.float64)):
    tid = wp.tid()
    fraction_v = fraction[tid]
    area_v = area[tid]
    contrib = wp.float64(area_v) * fraction_v
    objective[0] += contrib / count
