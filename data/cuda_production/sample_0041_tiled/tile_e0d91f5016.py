import warp as wp


@wp.func
def smooth_abs(x: float) -> float:
    return wp.sqrt(x * x + 0.1875)


@wp.kernel
def tile_e0d91f5016(
    values: wp.array(dtype=float),
    block_sums: wp.array(dtype=float),
    total: wp.array(dtype=float),
):
    i = wp.tid()
    a = wp.tile_load(values, shape=128, offset=i * 128)
    s = wp.tile_sum(wp.tile_map(smooth_abs, a))
    wp.tile_store(block_sums, s, offset=i)
    wp.tile_atomic_add(total, s)
