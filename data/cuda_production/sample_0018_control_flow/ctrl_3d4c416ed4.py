import warp as wp


@wp.kernel
def ctrl_3d4c416ed4(u: wp.array[float], y: wp.array(dtype=wp.float32), indices: wp.array(dtype=wp.int32), out: wp.array[float], res: wp.array(dtype=float)):
    tid = wp.tid()
    indices_v = indices[tid]
    y_g = y[indices_v]
    u_v = u[tid]
    y_v = y[tid]
    v1 = wp.where(y_g >= u_v, u_v, u_v * y_v)
    acc2 = float(0.0)
    for k in range(0, 3):
        acc2 = y_v + 0.5 * wp.sin(acc2)
    r3 = float(0.0)
    if not ((u_v < y_g) and (y_g * y_v > y_v)):
        r3 = max(v1, u_v)
    else:
        r3 = acc2 / (wp.abs(y_v) + 0.5)
    out[tid] = r3
    res[tid] = y_v * v1
