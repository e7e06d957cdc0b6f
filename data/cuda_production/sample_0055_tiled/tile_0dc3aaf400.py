import warp as wp


@wp.func
def inv_rms(sum_sq: float) -> float:
    mean_sq = sum_sq / 16.0
    return 1.0 / wp.sqrt(mean_sq + 0.0625)


@wp.kernel
def tile_0dc3aaf400(
    hidden: wp.array2d(dtype=float),
    beta: wp.array2d(dtype=float),
    normalized: wp.array2d(dtype=float),
    row_stats: wp.array2d(dtype=float),
):
    i = wp.tid()
    t = wp.tile_load(hidden, shape=(8, 16), offset=(i * 8, 0))
    ones = wp.tile_ones(shape=(16, 1), dtype=float)
    sq = t * t
    ss = wp.tile_matmul(sq, ones)
    scale = wp.tile_map(inv_rms, ss)
    y = t * wp.tile_broadcast(scale, shape=(8, 16))
    z = wp.tile_map(wp.exp, y)
    z = z + wp.tile_broadcast(wp.tile_load(beta, shape=(1, 16)), shape=(8, 16))
    wp.tile_store(normalized, z, offset=(i * 8, 0))
    wp.tile_store(row_stats, ss, offset=(i * 8, 0))
