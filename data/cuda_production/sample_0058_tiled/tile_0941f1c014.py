import warp as wp


ROWS = 1
SIGNAL_LEN = 128


@wp.kernel
def tile_0941f1c014(samples: wp.array2d[wp.vec2d], freq_out: wp.array2d[wp.vec2d]):
    i = wp.tid()
    a = wp.tile_load(samples, shape=(ROWS, SIGNAL_LEN), offset=(i * ROWS, 0))
    wp.tile_fft(a)
    wp.tile_store(freq_out, a, offset=(i * ROWS, 0))
