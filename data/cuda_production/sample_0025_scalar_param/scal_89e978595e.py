import warp as wp


@wp.kernel
def scal_89e978595e(data: wp.array(dtype=float), shift: int, scale: float, hi: float, lo: float, clipped: wp.array(dtype=float), scaled_out: wp.array(dtype=float), mix_rate: float):
    tid = wp.tid()
    data_next = data[(tid + shift) % data.shape[0]]
    scaled = scale * data_next
    scaled_out[tid] = scaled
    limited = wp.clamp(scaled, lo, hi)
    clipped[tid] = (1.0 - mix_rate) * clipped[tid] + mix_rate * limited
