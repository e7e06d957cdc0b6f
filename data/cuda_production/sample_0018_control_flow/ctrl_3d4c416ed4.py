import warp as wp


@wp.kernel
def ctrl_3d4c416ed4(u: wp.array[float], y: wp.array(dtype=wp.float32), out: wp.array[wp.float32]):
    tid = wp.tid()
    u_v = u[tid]
    y_v = y[tid]
    v1 = wp.where(y_v + u_v < u_v, y_v, u_v)
    acc2 = float(0.0)
    for k in range(0, 6, 2):
        acc2 += y_v / (abs(u_v) + 1.0)
    r3 = wp.max(acc2, 1.3125) if y_v <= u_v else y_v
    out[tid] = ((-y_v) - v1) + r3
