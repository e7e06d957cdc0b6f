import warp as wp


BLOCK_ITEMS = 32


@wp.func
def sigmoid(x: float) -> float:
    e = wp.exp(-x)
    return 1.0 / (1.0 + e)


@wp.kernel
def tile_e0d91f5016(x: wp.array(dtype=float), accum: wp.array(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(x, shape=BLOCK_ITEMS, offset=i * BLOCK_ITEMS)
    s = wp.tile_sum(wp.tile_map(sigmoid, a))
    wp.tile_atomic_add(accum, s)
