import warp as wp


TILE_M = wp.constant(32)
DIM = wp.constant(8)
TARGETS = wp.constant(8)


@wp.kernel
def tile_eece0b513d(
    features: wp.array2d(dtype=float),
    mu: wp.array2d(dtype=float),
    sample_weights: wp.array2d(dtype=float),
    y: wp.array2d(dtype=float),
    xtx: wp.array2d(dtype=float),
):
    i = wp.tid()
    a = wp.tile_load(features, shape=(TILE_M, DIM), offset=(i * TILE_M, 0))
    m = wp.tile_load(mu, shape=(1, DIM))
    a = a - wp.tile_broadcast(m, shape=(TILE_M, DIM))
    wt = wp.tile_load(sample_weights, shape=(TILE_M, 1), offset=(i * TILE_M, 0))
    aw = a * wp.tile_broadcast(wt, shape=(TILE_M, DIM))
    b = wp.tile_load(y, shape=(TILE_M, TARGETS), offset=(i * TILE_M, 0))
    at = wp.tile_transpose(aw)
    g = wp.tile_matmul(at, b)
    wp.tile_atomic_add(xtx, g)
