import warp as wp


@wp.kernel
def tile_15c6830b70(
    x: wp.array[float],
    median: wp.array[float],
    iqr: wp.array[float],
    value_range: wp.array[float],
):
    i = wp.tid()
    v = wp.tile_load(x, shape=256, offset=i * 256)
    rank = wp.tile_arange(256, dtype=int)
    wp.tile_sort(v, rank)
    m = 0.5 * (wp.tile_extract(v, 127) + wp.tile_extract(v, 128))
    median[i] = m
    iqr[i] = wp.tile_extract(v, 192) - wp.tile_extract(v, 64)
    value_range[i] = wp.tile_extract(v, 255) - wp.tile_extract(v, 0)
