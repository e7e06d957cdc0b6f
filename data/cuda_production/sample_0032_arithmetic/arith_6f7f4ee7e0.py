import warp as wp


@wp.func
def squared_error(r: float) -> float:
    return 0.5 * r * r

@wp.kernel
def arith_6f7f4ee7e0(a: wp.array[float], inp: wp.array[float], indices: wp.array[int], sq_err: wp.array[float], gap: wp.array[float], rel_diff: wp.array[float], norm_diff: wp.array[float]):
    tid = wp.tid()
    a_g = a[indices[tid]]
    a_v = a[tid]
    inp_v = inp[tid]
    r = a_v - inp_v
    sq_err[tid] = squared_error(r)
    gap[tid] = wp.abs(a_v - a_g)
    rel_diff[tid] = (a_v - a_g) / (wp.abs(a_g) + 0.5)
    norm_diff[tid] = r / (wp.abs(a_v) + wp.abs(inp_v) + 0.25)
