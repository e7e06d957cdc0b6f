import warp as wp


DT_COEF = wp.constant(0.125)


@wp.func
def at(f: wp.array2d(dtype=float), x: int, y: int) -> float:
    cx = wp.clamp(x, low=0, high=f.shape[0] - 1)
    cy = wp.clamp(y, low=0, high=f.shape[1] - 1)
    return f[cx, cy]

@wp.kernel(enable_backward=False, module="unique")
def sten_4bb7efaa30(temp: wp.array2d(dtype=float), u_new: wp.array2d(dtype=float), prev: wp.array2d(dtype=float), speed: float, dt: float, forcing: wp.array2d(dtype=float)):
    i, j = wp.tid()
    courant = (speed * dt) ** 2.0
    center = temp[i, j]
    lap = at(temp, i - 1, j) + at(temp, i + 1, j) + at(temp, i, j - 1) + at(temp, i, j + 1) - 4.0 * center
    u_new[i, j] = (2.0 * center - prev[i, j] + courant * lap) + DT_COEF * forcing[i, j]
