import warp as wp


AMPLITUDE = 1.8125


@wp.func
def at(f: wp.array2d(dtype=float), x: int, y: int) -> float:
    if x < 0 or x >= f.shape[0]:
        return 0.0
    if y < 0 or y >= f.shape[1]:
        return 0.0
    return f[x, y]

@wp.kernel(enable_backward=False)
def sten_102a6ddae1(u: wp.array2d(dtype=float), u_src: wp.array2d(dtype=float)):
    i, j = wp.tid()
    src = AMPLITUDE * wp.sin(wp.pi * wp.float32(i) / wp.float32(u.shape[0] - 1))
    c = u[i, j]
    u_src[i, j] = c + src
