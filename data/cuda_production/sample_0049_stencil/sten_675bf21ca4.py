import warp as wp


TIME_STEP = wp.constant(0.5)


@wp.func
def sten_675bf21ca4_fetch(f: wp.array2d(dtype=float), x: int, y: int) -> float:
    if x < 0 or x >= f.shape[0]:
        return 0.0
    if y < 0 or y >= f.shape[1]:
        return 0.0
    return f[x, y]

@wp.kernel(enable_backward=False)
def sten_675bf21ca4(p: wp.array2d(dtype=float), dst: wp.array2d(dtype=float), v: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    vc = v[i, j]
    px = float(i) - vc.x * TIME_STEP
    lx = int(wp.floor(px))
    tx = px - float(lx)
    py = float(j) - vc[1] * TIME_STEP
    ly = int(wp.floor(py))
    ty = py - float(ly)
    s00 = wp.lerp(sten_675bf21ca4_fetch(p, lx, ly), sten_675bf21ca4_fetch(p, lx + 1, ly), tx)
    s01 = wp.lerp(sten_675bf21ca4_fetch(p, lx, ly + 1), sten_675bf21ca4_fetch(p, lx + 1, ly + 1), tx)
    s1 = wp.lerp(s00, s01, ty)
    dst[i, j] = s1
