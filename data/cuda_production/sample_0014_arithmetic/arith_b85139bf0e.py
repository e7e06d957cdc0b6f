import warp as wp


@wp.kernel
def arith_b85139bf0e(y: wp.array2d(dtype=wp.float32), signed_sq: wp.array2d(dtype=wp.float32), mix_rate: wp.float32):
    i, j = wp.tid()
    y_v = y[i, j]
    signed_sq[i, j] = wp.lerp(signed_sq[i, j], y_v * wp.abs(y_v), mix_rate)
