import warp as wp


@wp.kernel
def math_443c2606d0(x: wp.array2d(dtype=wp.float32), cell_size: wp.float32, in_box: wp.array2d(dtype=wp.float32), snapped: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    x_v = x[i, j]
    wrapped = x_v - 0.5 * wp.floor(x_v / 0.5)
    in_box[i, j] = wrapped
    snapped[i, j] = wp.round(wrapped / cell_size) * cell_size
