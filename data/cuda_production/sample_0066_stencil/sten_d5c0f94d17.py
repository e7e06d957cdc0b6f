import warp as wp


DAMPING = 0.8125


@wp.kernel(enable_backward=False)
def sten_d5c0f94d17(field: wp.array3d(dtype=wp.float32), dst: wp.array3d(dtype=wp.float32), old: wp.array3d(dtype=wp.float32), wave_speed: wp.float32, dt: wp.float32, source: wp.array3d(dtype=wp.float32), dt_coef: wp.float32):
    i, j, k = wp.tid()
    if i == 0 or i >= field.shape[0] - 1 or j == 0 or j >= field.shape[1] - 1 or k == 0 or k >= field.shape[2] - 1:
        return
    courant = (wave_speed * dt) ** 2.0
    u0 = field[i, j, k]
    lap = field[i - 1, j, k] + field[i + 1, j, k] + field[i, j - 1, k] + field[i, j + 1, k] + field[i, j, k - 1] + field[i, j, k + 1] - 6.0 * u0
    dst[i, j, k] = (2.0 * u0 - old[i, j, k] + courant * lap) + dt_coef * source[i, j, k]
    dst[i, j, k] *= DAMPING
