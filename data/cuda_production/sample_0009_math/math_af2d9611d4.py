import warp as wp


@wp.kernel
def math_af2d9611d4(p: wp.array3d(dtype=float), data: wp.array3d(dtype=float), y: wp.array3d(dtype=float), y_out: wp.array3d(dtype=wp.float32), res: wp.array3d(dtype=wp.float32)):
    i, j, k = wp.tid()
    v1 = wp.clamp(p[i, j, k], -1.0, 2.0)
    v2 = wp.log(wp.abs(wp.clamp(wp.clamp(v1, -0.5, 0.5), -2.0, 1.0)) + 1.0)
    v3 = wp.log(wp.abs(y[i, j, k]) + 1.0)
    y_out[i, j, k] = (min(wp.log(wp.abs(v1) + 1.0), wp.clamp(y[i, j, k], -0.5, 1.0)) + v2) + v3
    res[i, j, k] = min(wp.min(wp.log(wp.abs(p[i, j, k]) + 1.0), data[i, j, k]), data[i, j, k])
