import warp as wp


@wp.kernel
def math_0d2b22a4d1(vals: wp.array[float], output: wp.array[float], output2: wp.array(dtype=float)):
    tid = wp.tid()
    vals_v = vals[tid]
    vals_left = vals[max(tid - 1, 0)]
    vals_right = vals[min(tid + 1, 999)]
    lap1 = vals_left + vals_right - 2.0 * vals_v
    v2 = wp.ceil(lap1)
    output[tid] = v2
    output2[tid] = wp.cos(wp.ceil(wp.max(vals_v, 1.25))) + vals_v
