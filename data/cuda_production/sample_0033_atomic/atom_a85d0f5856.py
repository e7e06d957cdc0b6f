import warp as wp


@wp.kernel
def atom_a85d0f5856(fraction: wp.array(dtype=wp.float64), normalization: wp.float64, volume: wp.array(dtype=wp.float32), objective: wp.array(dtype=wp.float64)):
    tid = wp.tid()
    fraction_v = fraction[tid]
    volume_v = volume[tid]
    contrib = wp.float64(volume_v) * fraction_v
    objective[0] += contrib / normalization
