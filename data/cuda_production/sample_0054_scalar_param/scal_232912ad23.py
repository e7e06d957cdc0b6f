import warp as wp


@wp.kernel
def scal_232912ad23(data: wp.array(dtype=float), n: int, mean: float, std: float, normalized: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= n:
        return
    data_v = data[tid]
    z = (data_v - mean) / std
    normalized[tid] = z
