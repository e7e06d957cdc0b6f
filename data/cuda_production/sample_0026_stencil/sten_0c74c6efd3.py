import warp as wp


FADE = 0.9375


@wp.func
def gradient(f: wp.array3d(dtype=float), x: int, y: int, z: int, h: float) -> tuple[float, float, float]:
    return (f[x + 1, y, z] - f[x - 1, y, z]) * h, (f[x, y + 1, z] - f[x, y - 1, z]) * h, (f[x, y, z + 1] - f[x, y, z - 1]) * h

@wp.kernel
def sten_0c74c6efd3(h: wp.array3d(dtype=float), grad_out: wp.array3d(dtype=float), half_inv_dx: float):
    i, j, k = wp.tid()
    if 0 < i < h.shape[0] - 1 and j > 0 and j < h.shape[1] - 1 and 0 < k < h.shape[2] - 1:
        gx, gy, gz = gradient(h, i, j, k, half_inv_dx)
        grad_out[i, j, k] *= FADE
        grad_out[i, j, k] += gx * gx + gy * gy + gz * gz
    else:
        grad_out[i, j, k] = 0.0
