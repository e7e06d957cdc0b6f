import warp as wp


@wp.kernel
def scal_8d9ee0a365(data: wp.array(dtype=float), threshold: float, gain: float, bias: float, response_out: wp.array(dtype=float)):
    tid = wp.tid()
    excess = wp.max(data[tid] - threshold, 0.0)
    response = gain * excess + bias
    response_out[tid] = response
