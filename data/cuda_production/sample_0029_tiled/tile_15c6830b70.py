import warp as wp


@wp.kernel
def tile_15c6830b70(
    embeddings: wp.array2d[float],
    bag_ids: wp.array[int],
    pooled: wp.array[float],
):
    i = wp.tid()
    ids = wp.tile_load(bag_ids, shape=32, offset=i * 32)
    rows = wp.tile_load_indexed(embeddings, indices=ids, shape=(32, 64), axis=0)
    wp.tile_store(pooled, wp.tile_sum(rows, axis=0), offset=i * 64)
