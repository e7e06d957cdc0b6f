import warp as wp


TILE = 128


@wp.func
def relu(x: float) -> float:
    return wp.max(x, 0.0)


@wp.kernel
def tile_10df0b17d1(
    values: wp.array(dtype=float),
    partials: wp.array(dtype=float),
    result: wp.array(dtype=float),
):
    i = wp.tid()
    a = wp.tile_load(values, shape=TILE, offset=i * TILE)
    s = wp.tile_sum(wp.tile_map(relu, a))
    wp.tile_store(partials, s, offset=i)
    wp.tile_atomic_add(result, s)
