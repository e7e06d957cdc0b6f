import warp as wp


@wp.func
def sigmoid_b51c2f8a1e(x: float) -> float:
    return 1.0 / (1.0 + wp.exp(-x))

@wp.kernel
def math_b51c2f8a1e(p: wp.array(dtype=float), result: wp.array(dtype=wp.float32), out: wp.array[float]):
    tid = wp.tid()
    p_v = p[tid]
    px = float(tid) * 0.0078125
    result[tid] = sigmoid_b51c2f8a1e(p_v)
    out[tid] = p_v * wp.cos(1.5 * px + 0.5)
