import warp as wp


ROWS = 8
TILE_N = 32


@wp.kernel
def tile_0dc3aaf400(
    x: wp.array2d(dtype=wp.float32),
    column_totals: wp.array2d(dtype=wp.float32),
    block_totals: wp.array(dtype=wp.float32),
):
    i = wp.tid()
    t = wp.tile_load(x, shape=(ROWS, TILE_N), offset=(i * ROWS, 0))
    ones = wp.tile_ones(shape=(1, ROWS), dtype=wp.float32)
    col = wp.tile_matmul(ones, t)
    wp.tile_atomic_add(column_totals, col)
    wp.tile_store(block_totals, wp.tile_sum(col), offset=i)
