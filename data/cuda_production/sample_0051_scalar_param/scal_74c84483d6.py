import warp as wp


@wp.kernel
def scal_74c84483d6(src: wp.array(dtype=float), b: wp.array[float], alpha: float, out: wp.array(dtype=wp.float32), out2: wp.array[wp.float32]):
    tid = wp.tid()
    src_v = src[tid]
    b_v = b[tid]
    v1 = ((b_v / (wp.abs(src_v) + 0.5)) / (wp.abs(src_v) + 2.0)) * (-(b_v * src_v))
    v2 = v1 * b_v
    out[tid] = v2 - alpha
    out2[tid] = max(src_v, v1)
