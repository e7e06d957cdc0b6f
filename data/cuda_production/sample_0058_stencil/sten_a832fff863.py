import warp as wp


STRENGTH = 0.9375


@wp.func
def at(f: wp.array3d(dtype=float), x: int, y: int, z: int) -> float:
    cx = wp.clamp(x, low=0, high=f.shape[0] - 1)
    cy = wp.clamp(y, low=0, high=f.shape[1] - 1)
    cz = wp.clamp(z, low=0, high=f.shape[2] - 1)
    return f[cx, cy, cz]

@wp.kernel
def sten_a832fff863(u: wp.array3d(dtype=float), forced: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    src = STRENGTH * wp.sin(wp.pi * float(i) / float(u.shape[0] - 1))
    center = u[i, j, k]
    forced[i, j, k] = center + src
