import warp as wp


@wp.func
def central_diff(f: wp.array2d(dtype=float), x: int, y: int, h: float) -> tuple[float, float]:
    return (f[x + 1, y] - f[x - 1, y]) * h, (f[x, y + 1] - f[x, y - 1]) * h

@wp.kernel(enable_backward=False)
def sten_a7efb99aff(field: wp.array2d(dtype=float), grad_energy: wp.array2d(dtype=float), scale: float):
    i, j = wp.tid()
    if i > 0 and i < field.shape[0] - 1 and j > 0 and j < field.shape[1] - 1:
        gx, gy = central_diff(field, i, j, scale)
        u0 = field[i, j]
        grad_energy[i, j] = u0 - gx - gy
    else:
        grad_energy[i, j] = field[i, j]
