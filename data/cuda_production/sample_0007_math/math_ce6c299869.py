import warp as wp


@wp.kernel
def math_ce6c299869(inp: wp.array2d(dtype=float), result: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    v1 = wp.exp(wp.clamp(wp.floor(float(j) * inp[i, j]), -2.0, 2.0))
    v2 = wp.log(wp.abs(v1) + 1.0)
    v3 = v2 * inp[i, j]
    result[i, j] = wp.sqrt(wp.abs(wp.floor(inp[i, j]))) + v3
