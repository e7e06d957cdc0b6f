import warp as wp


BLOCK_ITEMS = 32


@wp.func
def tile_e0d91f5016_sigmoid(x: float) -> float:
    e = wp.exp(-x)
    return 1.0 / (1.0 + e)


@wp.kernel
def tile_e0d91f5016(x: wp.array(dtype=wp.float32), accum: wp.array[float]):
    i = wp.tid()
    a = wp.tile_load(x, shape=BLOCK_ITEMS, offset=i * BLOCK_ITEMS)
    s = wp.tile_sum(wp.tile_map(tile_e0d91f5016_sigmoid, a))
    wp.tile_atomic_add(accum, s)
