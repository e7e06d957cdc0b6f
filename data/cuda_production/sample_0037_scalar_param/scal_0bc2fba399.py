import warp as wp


@wp.kernel
def scal_0bc2fba399(q: wp.array[wp.float32], is_active: wp.array[wp.int32], gain: wp.float32, bias: wp.float32, dst: wp.array[wp.float32], substeps: wp.int32, h: wp.float32, rate: wp.float32, output: wp.array[wp.float32]):
    tid = wp.tid()
    if is_active[tid] == 0:
        return
    q_left = q[max(tid - 1, 0)]
    q_v = q[tid]
    response = gain * q_left + bias
    dst[tid] = response
    state = float(0.0)
    for s in range(substeps):
        state = state + h * (q_v - rate * state)
    output[tid] = state
