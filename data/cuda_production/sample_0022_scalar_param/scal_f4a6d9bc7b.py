import warp as wp


BIAS_F4A6D9BC7B = wp.constant(-0.875)

@wp.kernel
def scal_f4a6d9bc7b(u: wp.array(dtype=wp.float32), src: wp.array(dtype=float), bias: float, n: int, res: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= n:
        return
    src_v = src[tid]
    src_left = src[max(tid - 1, 0)]
    src_right = src[wp.min(tid + 1, 255)]
    u_v = u[tid]
    grad1 = 0.5 * (src_right - src_left)
    v2 = wp.max((bias / 0.5) / -2.0, wp.min(src_v, BIAS_F4A6D9BC7B) - u_v)
    v3 = wp.min(v2 / 0.5, bias)
    v4 = v3 + float(n)
    res[tid] = (v4 / 4.0) + grad1
