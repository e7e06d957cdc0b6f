import warp as wp


SCALE = wp.constant(0.3125)


@wp.kernel
def tile_a4c868b14f(
    x: wp.array2d[float],
    xtx: wp.array2d[float],
    first_moment: wp.array2d[float],
):
    i = wp.tid()
    a = wp.tile_load(x, shape=(16, 16), offset=(i * 16, 0))
    at = wp.tile_transpose(a)
    g = wp.tile_matmul(at, a)
    g = g * SCALE
    wp.tile_atomic_add(xtx, g)
    wp.tile_atomic_add(first_moment, wp.tile_matmul(wp.tile_ones(shape=(1, 16), dtype=float), a))
