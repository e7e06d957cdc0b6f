import warp as wp


ROWS = 8
COLS = 64


@wp.func
def axpy(x: float, y: float) -> float:
    return 1.625 * x + y


@wp.kernel
def tile_24f954bfb7(
    a: wp.array2d(dtype=float),
    y: wp.array2d(dtype=float),
    residual: wp.array2d(dtype=float),
    energy: wp.array(dtype=float),
):
    i = wp.tid()
    ta = wp.tile_load(a, shape=(ROWS, COLS), offset=(i * ROWS, 0))
    tb = wp.tile_load(y, shape=(ROWS, COLS), offset=(i * ROWS, 0))
    r = wp.tile_map(axpy, ta, tb)
    wp.tile_store(residual, r, offset=(i * ROWS, 0))
    wp.tile_atomic_add(energy, wp.tile_sum(r))
