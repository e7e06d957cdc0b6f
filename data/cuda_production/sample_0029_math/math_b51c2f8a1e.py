import warp as wp


@wp.func
def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + wp.exp(-x))

@wp.kernel
def math_b51c2f8a1e(p: wp.array(dtype=float), gate: wp.array(dtype=float), signal: wp.array(dtype=float)):
    tid = wp.tid()
    p_v = p[tid]
    px = float(tid) * 0.0078125
    gate[tid] = sigmoid(p_v)
    signal[tid] += p_v * wp.cos(1.5 * px + 0.5)
