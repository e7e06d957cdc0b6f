import warp as wp


TILE_M = 8
TILE_K = 8
BLOCK_N = 16
K_TILES = 2


@wp.func
def huber(x: float) -> float:
    a = wp.abs(x)
    if a < 0.5625:
        return 0.5 * x * x
    return 0.5625 * (a - 0.28125)


@wp.kernel
def tile_734f70635c(
    A: wp.array2d[float],
    B: wp.array2d[float],
    b0: wp.array2d[float],
    y_out: wp.array2d[float],
):
    i = wp.tid()
    for j in range(B.shape[0] // BLOCK_N):
        acc = wp.tile_zeros(shape=(TILE_M, BLOCK_N), dtype=float)
        for k in range(K_TILES):
            a = wp.tile_load(A, shape=(TILE_M, TILE_K), offset=(i * TILE_M, k * TILE_K))
            b = wp.tile_transpose(wp.tile_load(B, shape=(BLOCK_N, TILE_K), offset=(j * BLOCK_N, k * TILE_K)))
            wp.tile_matmul(a, b, acc)
        bt = wp.tile_load(b0, shape=(1, BLOCK_N), offset=(0, j * BLOCK_N))
        acc = acc + wp.tile_broadcast(bt, shape=(TILE_M, BLOCK_N))
        y = wp.tile_map(huber, acc)
        prev = wp.tile_load(y_out, shape=(TILE_M, BLOCK_N), offset=(i * TILE_M, j * BLOCK_N))
        wp.tile_store(y_out, prev + y, offset=(i * TILE_M, j * BLOCK_N))
