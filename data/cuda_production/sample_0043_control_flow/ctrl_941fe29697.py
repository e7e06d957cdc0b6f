import warp as wp


@wp.kernel
def ctrl_941fe29697(x: wp.array(dtype=wp.float32), src: wp.array(dtype=wp.float32), vals: wp.array[wp.float32], num: int, result: wp.array(dtype=float), y_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    if tid >= num:
        return
    x_v = x[tid]
    src_v = src[tid]
    vals_v = vals[tid]
    r1 = float(0.0)
    if min(src_v, vals_v) <= src_v:
        r1 = src_v
    else:
        r1 = wp.min(x_v + vals_v, vals_v / (abs(float(num)) + 1.0))
    result[tid] = wp.abs(r1)
    y_out[tid] = wp.min(wp.abs(vals_v), (-1.0) + src_v)
