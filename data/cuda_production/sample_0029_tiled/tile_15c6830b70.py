import warp as wp


@wp.kernel
def tile_15c6830b70(
    features: wp.array2d(dtype=float),
    col_sums: wp.array2d(dtype=float),
    col_sq_sums: wp.array2d(dtype=float),
):
    i = wp.tid()
    ones = wp.tile_ones(shape=(1, 16), dtype=float)
    col = wp.tile_zeros(shape=(1, 16), dtype=float)
    col_sq = wp.tile_zeros(shape=(1, 16), dtype=float)
    for p in range(4):
        t = wp.tile_load(features, shape=(16, 16), offset=((i * 4 + p) * 16, 0), storage="shared")
        wp.tile_matmul(ones, t, col)
        wp.tile_matmul(ones, t * t, col_sq)
    wp.tile_atomic_add(col_sums, col)
    wp.tile_atomic_add(col_sq_sums, col_sq)
