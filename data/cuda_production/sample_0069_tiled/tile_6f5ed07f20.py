import warp as wp


BLOCK_ITEMS = 64


@wp.func
def gelu(x: float) -> float:
    inner = 0.7978846 * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + wp.tanh(inner))


@wp.kernel
def tile_6f5ed07f20(
    values: wp.array(dtype=float),
    y_out: wp.array(dtype=float),
    partial_sums: wp.array(dtype=float),
):
    i = wp.tid()
    a = wp.tile_load(values, shape=BLOCK_ITEMS, offset=i * BLOCK_ITEMS)
    v = wp.tile_map(gelu, a)
    s = wp.tile_sum(v)
    wp.tile_store(y_out, v, offset=i * BLOCK_ITEMS)
    wp.tile_store(partial_sums, s, offset=i)
