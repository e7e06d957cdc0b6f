import warp as wp


@wp.func
def sigmoid(x: float) -> float:
    e = wp.exp(-x)
    return 1.0 / (1.0 + e)


@wp.kernel
def tile_0dc3aaf400(mats: wp.array2d(dtype=float), out_t: wp.array2d(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(mats, shape=(16, 16), offset=(i * 16, 0))
    r = wp.tile_matmul(wp.tile_transpose(a), a)
    z = wp.tile_map(sigmoid, r)
    wp.tile_store(out_t, z, offset=(i * 16, 0))
