import warp as wp


@wp.func
def log_cosh(r: float) -> float:
    return wp.log(wp.cosh(r))

@wp.kernel
def math_8f2b435239(y: wp.array2d(dtype=float), log_cosh_loss: wp.array2d(dtype=float), attenuated: wp.array2d(dtype=float), wave: wp.array2d(dtype=float), relax: float):
    i, j = wp.tid()
    y_v = y[i, j]
    px = float(i) * 0.5
    log_cosh_loss[i, j] = log_cosh(y_v)
    attenuated[i, j] = y_v * wp.exp(-0.5 * px)
    wave[i, j] = (1.0 - relax) * wave[i, j] + relax * (y_v * wp.cos(3.0 * px + 0.25))
