import warp as wp


ROWS = wp.constant(32)
FEATURES = wp.constant(8)
TILE_D = wp.constant(8)
INV_COUNT = wp.constant(0.375)


@wp.kernel
def tile_eece0b513d(
    samples: wp.array2d(dtype=wp.float32),
    targets: wp.array2d(dtype=wp.float32),
    xtx: wp.array2d(dtype=wp.float32),
):
    i = wp.tid()
    a = wp.tile_load(samples, shape=(ROWS, FEATURES), offset=(i * ROWS, 0))
    b = wp.tile_load(targets, shape=(ROWS, TILE_D), offset=(i * ROWS, 0))
    g = wp.tile_matmul(wp.tile_transpose(a), b)
    g = g * INV_COUNT
    wp.tile_atomic_add(xtx, g)
