import warp as wp


@wp.func
def soft_clip(x: float, limit: float) -> float:
    return limit * wp.tanh(x / limit)

@wp.kernel
def math_d7089d0ea3(data: wp.array[float], num: int, clipped: wp.array[float], limit: float, mapped: wp.array[float], lum_out: wp.array[float]):
    tid = wp.tid()
    if tid >= num:
        return
    data_v = data[tid]
    lum = wp.max(data_v, 0.0)
    lum_out[tid] = lum
    clipped[tid] = soft_clip(data_v, limit)
    mapped[tid] = lum / (1.0 + lum)
