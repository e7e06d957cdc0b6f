import warp as wp


BIAS_31924BD3F2 = wp.constant(-0.375)

@wp.kernel
def comb_31924bd3f2(vals: wp.array[float], indices: wp.array(dtype=wp.int32), x: wp.array(dtype=wp.vec3), acc: wp.array(dtype=wp.float32), res: wp.array[wp.float32]):
    tid = wp.tid()
    vals_v = vals[tid]
    vals_left = vals[max(tid - 1, 0)]
    vals_right = vals[wp.min(tid + 1, 999)]
    indices_v = indices[tid]
    vals_g = vals[indices_v]
    x_v = x[tid]
    grad1 = 0.5 * (vals_right - vals_left)
    f2 = 0.75 * vals_v + 0.25 * vals_g
    t3 = -x_v
    s4 = t3.x
    wp.atomic_add(acc, tid % 16, s4 - grad1)
    res[tid] = (wp.where(vals_v > 0.0, vals_v, 0.01 * vals_v) + BIAS_31924BD3F2) - f2
