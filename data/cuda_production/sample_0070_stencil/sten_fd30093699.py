import warp as wp


ALPHA = wp.constant(0.0625)
DT = wp.constant(0.5)


@wp.func
def sample(f: wp.array3d(dtype=float), x: int, y: int, z: int) -> float:
    cx = wp.clamp(x, low=0, high=f.shape[0] - 1)
    cy = wp.clamp(y, low=0, high=f.shape[1] - 1)
    cz = wp.clamp(z, low=0, high=f.shape[2] - 1)
    return f[cx, cy, cz]

@wp.kernel
def sten_fd30093699(u: wp.array3d(dtype=float), phi_next: wp.array3d(dtype=float), forcing: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    u0 = u[i, j, k]
    lap = sample(u, i - 1, j, k) + sample(u, i + 1, j, k) + sample(u, i, j - 1, k) + sample(u, i, j + 1, k) + sample(u, i, j, k - 1) + sample(u, i, j, k + 1)
    lap -= 6.0 * u0
    phi_next[i, j, k] = (u0 + ALPHA * lap) + DT * forcing[i, j, k]
