import warp as wp


@wp.kernel
def scal_3fc76d003d(y: wp.array[wp.float32], shift: wp.int32, freq: wp.float32, phase: wp.float32, gain: wp.float32, bias: wp.float32, resp: wp.array[wp.float32]):
    tid = wp.tid()
    y_next = y[(tid + shift) % y.shape[0]]
    wave = wp.sin(freq * y_next + phase)
    response = gain * wave + bias
    resp[tid] = response
