import warp as wp


ROWS = wp.constant(8)
TILE_N = wp.constant(8)
TILE_D = wp.constant(16)


@wp.func
def huber(x: float) -> float:
    a = wp.abs(x)
    if a < 0.6875:
        return 0.5 * x * x
    return 0.6875 * (a - 0.34375)


@wp.kernel
def tile_90ccbe1528(
    points: wp.array2d[float],
    w: wp.array2d[float],
    y: wp.array2d[float],
    moments: wp.array2d[float],
):
    i = wp.tid()
    a = wp.tile_load(points, shape=(ROWS, TILE_N), offset=(i * ROWS, 0))
    a = wp.tile_map(huber, a)
    wt = wp.tile_load(w, shape=(ROWS, 1), offset=(i * ROWS, 0))
    aw = a * wp.tile_broadcast(wt, shape=(ROWS, TILE_N))
    b = wp.tile_load(y, shape=(ROWS, TILE_D), offset=(i * ROWS, 0))
    g = wp.tile_matmul(wp.tile_transpose(aw), b)
    wp.tile_atomic_add(moments, g)
