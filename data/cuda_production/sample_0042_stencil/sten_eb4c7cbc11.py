import warp as wp


R = 2


@wp.func
def fetch(f: wp.array2d(dtype=float), x: int, y: int) -> float:
    cx = wp.clamp(x, low=0, high=f.shape[0] - 1)
    cy = wp.clamp(y, low=0, high=f.shape[1] - 1)
    return f[cx, cy]

@wp.kernel(module="unique")
def sten_eb4c7cbc11(temp: wp.array2d(dtype=float), smoothed: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = float(0.0)
    for di in range(-R, R + 1):
        for dj in range(-R, R + 1):
            acc += fetch(temp, i + di, j + dj)
    smoothed[i, j] = acc / 25.0
