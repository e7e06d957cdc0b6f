import warp as wp


@wp.kernel
def tile_10df0b17d1(
    A: wp.array2d(dtype=wp.float32),
    B: wp.array2d(dtype=wp.float32),
    y_out: wp.array2d(dtype=wp.float32),
):
    i = wp.tid()
    for j in range(B.shape[1] // 8):
        acc = wp.tile_zeros(shape=(32, 8), dtype=wp.float32)
        for k in range(A.shape[1] // 8):
            a = wp.tile_load(A, shape=(32, 8), offset=(i * 32, k * 8))
            b = wp.tile_load(B, shape=(8, 8), offset=(k * 8, j * 8))
            wp.tile_matmul(a, b, acc)
        wp.tile_store(y_out, acc, offset=(i * 32, j * 8))
