import warp as wp


HALF_WIDTH = wp.constant(2)


@wp.func
def sten_e3e9feff7c_at(f: wp.array2d(dtype=float), x: int, y: int) -> float:
    cx = wp.clamp(x, low=0, high=f.shape[0] - 1)
    cy = wp.clamp(y, low=0, high=f.shape[1] - 1)
    return f[cx, cy]

@wp.kernel
def sten_e3e9feff7c(field: wp.array2d(dtype=wp.float32), phi_next: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    acc = float(0.0)
    for di in range(-HALF_WIDTH, HALF_WIDTH + 1):
        for dj in range(-HALF_WIDTH, HALF_WIDTH + 1):
            acc += sten_e3e9feff7c_at(field, i + di, j + dj)
    phi_next[i, j] = acc / 25.0
