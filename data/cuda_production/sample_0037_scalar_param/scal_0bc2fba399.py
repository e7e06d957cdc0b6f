import warp as wp


@wp.kernel
def scal_0bc2fba399(q: wp.array[wp.float32], num: wp.int32, gain: wp.float32, bias: float, dst: wp.array[float], substeps: int, h: wp.float32, rate: float, output: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= num:
        return
    q_left = q[max(tid - 1, 0)]
    q_v = q[tid]
    response1 = gain * q_left + bias
    dst[tid] = response1
    state2 = float(0.0)
    for s in range(substeps):
        state2 = state2 + h * (q_v - rate * state2)
    output[tid] = state2
