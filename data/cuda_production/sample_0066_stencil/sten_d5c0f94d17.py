import warp as wp


STEP = 0.1875
DT = 0.375


@wp.kernel(enable_backward=False)
def sten_d5c0f94d17(field: wp.array3d(dtype=wp.float32), u_new: wp.array3d(dtype=wp.float32), prev: wp.array3d(dtype=wp.float32), c: wp.float32, source: wp.array3d(dtype=wp.float32)):
    i, j, k = wp.tid()
    if i == 0 or i >= field.shape[0] - 1 or j == 0 or j >= field.shape[1] - 1 or k == 0 or k >= field.shape[2] - 1:
        return
    courant = (c * STEP) ** 2.0
    center = field[i, j, k]
    lap = field[i - 1, j, k] + field[i + 1, j, k] + field[i, j - 1, k] + field[i, j + 1, k] + field[i, j, k - 1] + field[i, j, k + 1] - 6.0 * center
    u_new[i, j, k] = (2.0 * center - prev[i, j, k] + courant * lap) + DT * source[i, j, k]
