import warp as wp


@wp.func
def cplx_prod(a: wp.vec2f, b: wp.vec2f) -> wp.vec2f:
    return wp.vec2f(a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])


@wp.kernel
def tile_44825e6ddc(
    samples: wp.array2d[wp.vec2f],
    transfer: wp.array2d[wp.vec2f],
    filtered: wp.array2d[wp.vec2f],
):
    i = wp.tid()
    a = wp.tile_load(samples, shape=(2, 128), offset=(i * 2, 0))
    wp.tile_fft(a)
    g = wp.tile_broadcast(wp.tile_load(transfer, shape=(1, 128)), shape=(2, 128))
    c = wp.tile_map(cplx_prod, a, g)
    wp.tile_ifft(c)
    wp.tile_store(filtered, c, offset=(i * 2, 0))
