import warp as wp


@wp.func
def gaussian(x: float) -> float:
    r2 = x * x
    return wp.exp(-2.75 * r2)


@wp.kernel
def tile_e0d91f5016(
    samples: wp.array[float],
    block_sums: wp.array[float],
    accum: wp.array[float],
):
    i = wp.tid()
    a = wp.tile_load(samples, shape=128, offset=i * 128)
    s = wp.tile_sum(wp.tile_map(gaussian, a))
    wp.tile_store(block_sums, s, offset=i)
    wp.tile_atomic_add(accum, s)
