import warp as wp


TIME_STEP = 0.1875
DECAY = wp.constant(0.625)


@wp.func
def at(f: wp.array3d(dtype=float), x: int, y: int, z: int) -> float:
    if x < 0 or x >= f.shape[0]:
        return 0.0
    if y < 0 or y >= f.shape[1]:
        return 0.0
    if z < 0 or z >= f.shape[2]:
        return 0.0
    return f[x, y, z]

@wp.kernel(enable_backward=False)
def sten_15d1155bac(density: wp.array3d(dtype=float), q_new: wp.array3d(dtype=float), v: wp.array3d(dtype=wp.vec3)):
    i, j, k = wp.tid()
    vc = v[i, j, k]
    px = float(i) - vc[0] * TIME_STEP
    lx = int(wp.floor(px))
    tx = px - float(lx)
    py = float(j) - vc.y * TIME_STEP
    ly = int(wp.floor(py))
    ty = py - float(ly)
    pz = float(k) - vc[2] * TIME_STEP
    lz = int(wp.floor(pz))
    tz = pz - float(lz)
    s000 = wp.lerp(at(density, lx, ly, lz), at(density, lx + 1, ly, lz), tx)
    s001 = wp.lerp(at(density, lx, ly, lz + 1), at(density, lx + 1, ly, lz + 1), tx)
    s010 = wp.lerp(at(density, lx, ly + 1, lz), at(density, lx + 1, ly + 1, lz), tx)
    s011 = wp.lerp(at(density, lx, ly + 1, lz + 1), at(density, lx + 1, ly + 1, lz + 1), tx)
    s10 = wp.lerp(s000, s010, ty)
    s11 = wp.lerp(s001, s011, ty)
    s2 = wp.lerp(s10, s11, tz)
    s2 *= DECAY
    q_new[i, j, k] += s2
