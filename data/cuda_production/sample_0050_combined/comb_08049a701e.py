import warp as wp


@wp.kernel
def comb_08049a701e(vals: wp.array(dtype=float), y: wp.array[wp.float32], inp: wp.array(dtype=wp.float32), w: wp.array[wp.vec3], steps: wp.int32, result: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    w_v = w[tid]
    vals_v = vals[tid]
    y_v = y[tid]
    inp_v = inp[tid]
    s1 = wp.dot(-w_v, wp.cross(w_v, wp.vec3(vals_v + y_v, inp_v, y_v)))
    acc2 = float(0.0)
    for k in range(steps):
        acc2 += vals_v
    result[tid] = (wp.cos(wp.clamp(inp_v + s1, -4.0, 4.0)) / 2.0) + acc2
