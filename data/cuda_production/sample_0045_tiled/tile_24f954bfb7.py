import warp as wp


ROWS = 8
WIDTH = 64


@wp.func
def gated(x: float, y: float) -> float:
    gate = 1.0 / (1.0 + wp.exp(-y))
    return x * gate


@wp.func
def sigmoid(x: float) -> float:
    e = wp.exp(-x)
    return 1.0 / (1.0 + e)


@wp.kernel
def tile_24f954bfb7(
    x: wp.array2d(dtype=float),
    b: wp.array2d(dtype=float),
    err_map: wp.array2d(dtype=float),
    total: wp.array(dtype=float),
):
    i = wp.tid()
    ta = wp.tile_load(x, shape=(ROWS, WIDTH), offset=(i * ROWS, 0))
    tb = wp.tile_load(b, shape=(ROWS, WIDTH), offset=(i * ROWS, 0))
    r = wp.tile_map(gated, ta, tb)
    z = wp.tile_map(sigmoid, r)
    wp.tile_store(err_map, wp.tile_load(err_map, shape=(ROWS, WIDTH), offset=(i * ROWS, 0)) + z, offset=(i * ROWS, 0))
    wp.tile_atomic_add(total, wp.tile_sum(z))
