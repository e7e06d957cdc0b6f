import warp as wp


@wp.kernel
def arith_6f7f4ee7e0(w_q: wp.array2d(dtype=wp.int8), act_q: wp.array(dtype=wp.int8), weight_scale: wp.array(dtype=float), x_scale: float, out_scale: float, y_q: wp.array(dtype=wp.int8)):
    row = wp.tid()
    acc = int(0)
    for col in range(96):
        acc += int(w_q[row, col]) * int(act_q[col])
    y = float(acc) * weight_scale[row] * x_scale
    y_q[row] = wp.int8(wp.clamp(wp.floor(y / out_scale + 0.5), -127.0, 127.0))
