import warp as wp


@wp.kernel
def ctrl_3d4c416ed4(u: wp.array[float], y: wp.array(dtype=wp.float32), indices: wp.array(dtype=wp.int32), profile: wp.array(dtype=float), out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    indices_v = indices[tid]
    y_g = y[indices_v]
    u_v = u[tid]
    y_v = y[tid]
    v1 = wp.where(y_v + u_v < u_v, y_v, u_v)
    acc2 = float(0.0)
    for k in range(0, 6, 2):
        acc2 = acc2 + (profile[k] * (y_v / (abs(u_v) + 1.0)))
    r3 = v1 * u_v
    if y_g + y_v >= y_v:
        r3 = (float(tid) * u_v) * (y_g / (abs(y_v) + 1.0))
    out[tid] = (0.1875 + acc2) - r3
