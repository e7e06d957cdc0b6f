import warp as wp


@wp.kernel(enable_backward=False)
def tile_e0d91f5016(
    values: wp.array(dtype=float),
    partials: wp.array(dtype=float),
    accum: wp.array(dtype=float),
):
    i = wp.tid()
    a = wp.tile_load(values, shape=128, offset=i * 128)
    s = wp.tile_sum(a * a) / 128.0
    wp.tile_store(partials, s, offset=i)
    wp.tile_atomic_add(accum, s)
