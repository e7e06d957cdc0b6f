import warp as wp


@wp.func
def smooth_step(x: float, edge0: float, edge1: float) -> float:
    t = wp.clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)

@wp.kernel
def math_4b1c44e061(b: wp.array(dtype=float), smooth: wp.array(dtype=float), edge0: float, edge1: float, squashed: wp.array(dtype=float), octaves: wp.array(dtype=float)):
    tid = wp.tid()
    b_v = b[tid]
    smooth[tid] = smooth_step(b_v, edge0, edge1)
    squashed[tid] = 2.0 * wp.atan(b_v / 2.0)
    octaves[tid] = wp.log2(1.0 + wp.abs(b_v))
