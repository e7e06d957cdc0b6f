import warp as wp


@wp.func
def log_cosh(r: float) -> float:
    return wp.log(wp.cosh(r))

@wp.kernel
def math_8f2b435239(y: wp.array2d(dtype=float), output: wp.array2d(dtype=float), res: wp.array2d(dtype=float), res2: wp.array2d(dtype=float)):
    i, j = wp.tid()
    y_v = y[i, j]
    px = float(i) * 0.5
    output[i, j] = log_cosh(y_v)
    res[i, j] = y_v * wp.exp(-0.5 * px)
    res2[i, j] = y_v * wp.cos(3.0 * px + 0.25)
