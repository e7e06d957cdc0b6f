import warp as wp


@wp.kernel
def scal_89e978595e(data: wp.array(dtype=float), shift: int, offset: float, scale: float, scaled_out: wp.array(dtype=float), iterations: int, sqrt_out: wp.array(dtype=float)):
    tid = wp.tid()
    data_next = data[(tid + shift) % data.shape[0]]
    data_v = data[tid]
    centered = data_next - offset
    scaled_out[tid] = scale * centered
    a = 1.0 + data_v * data_v
    root = a
    for s in range(iterations):
        root = 0.5 * (root + a / root)
    sqrt_out[tid] = root
