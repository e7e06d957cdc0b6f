import warp as wp


@wp.kernel
def tile_0dc3aaf400(samples: wp.array2d[wp.vec2d], spectrum: wp.array2d[wp.vec2d]):
    i = wp.tid()
    a = wp.tile_load(samples, shape=(2, 64), offset=(i * 2, 0))
    wp.tile_fft(a)
    wp.tile_store(spectrum, a, offset=(i * 2, 0))
