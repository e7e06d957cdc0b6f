import warp as wp


@wp.kernel
def ctrl_3d4c416ed4(u: wp.array[float], y: wp.array(dtype=wp.float32), indices: wp.array(dtype=wp.int32), res: wp.array[wp.float32], out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    indices_v = indices[tid]
    y_g = y[indices_v]
    u_v = u[tid]
    y_v = y[tid]
    v1 = wp.where(y_v + u_v < u_v, y_v, u_v)
    acc2 = float(0.0)
    for k in range(0, 6, 2):
        acc2 += (y_v / (abs(u_v) + 1.0)) * float(k)
    r3 = max(y_g, float(tid))
    if tid <= 5:
        r3 = acc2 / (wp.abs(u_v) + 1.0)
    res[tid] = r3 + v1
    out[tid] = -0.5 * u_v
