import warp as wp


@wp.func
def sten_c65a396a56_lookup(f: wp.array3d(dtype=float), x: int, y: int, z: int) -> float:
    cx = wp.clamp(x, 0, f.shape[0] - 1)
    cy = wp.clamp(y, 0, f.shape[1] - 1)
    cz = wp.clamp(z, 0, f.shape[2] - 1)
    return f[cx, cy, cz]

@wp.kernel
def sten_c65a396a56(rho: wp.array3d(dtype=float), phi_next: wp.array3d(dtype=wp.float32), amplitude: wp.float32):
    i, j, k = wp.tid()
    src = amplitude * wp.sin(wp.pi * wp.float32(i) / wp.float32(rho.shape[0] - 1))
    c = rho[i, j, k]
    phi_next[i, j, k] = c * (1.0 + src)
