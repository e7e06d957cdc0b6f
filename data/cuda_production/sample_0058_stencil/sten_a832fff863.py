import warp as wp


STRENGTH = 0.9375


@wp.kernel
def sten_a832fff863(u: wp.array3d(dtype=float), forced: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    src = STRENGTH * wp.sin(wp.pi * float(i) / float(u.shape[0] - 1))
    center = u[i, j, k]
    forced[i, j, k] = center + src
