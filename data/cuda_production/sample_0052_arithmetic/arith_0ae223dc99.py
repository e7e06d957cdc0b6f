import warp as wp


@wp.kernel
def arith_0ae223dc99(x: wp.array[wp.float32], y: wp.array(dtype=wp.float32), y_out: wp.array[float], out: wp.array[wp.float32]):
    tid = wp.tid()
    x_v = x[tid]
    x_left = x[max(tid - 1, 0)]
    x_right = x[wp.min(tid + 1, 255)]
    y_v = y[tid]
    avg1 = (x_left + x_right) / 2.0
    v2 = (x_v * (y_v / (abs(avg1) + 2.0))) - ((y_v / (wp.abs(avg1) + 2.0)) - avg1)
    v3 = ((v2 * y_v) * (x_v * x_v)) * avg1
    y_out[tid] = v3
    out[tid] = avg1 * (v3 / (abs(v3 - avg1) + 1.0))
