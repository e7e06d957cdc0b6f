import warp as wp


BIAS_902A2F9874 = wp.constant(0.125)

@wp.func
def comb_902a2f9874_fn0(x: float, y: float) -> float:
    h = y * x
    return h * x

@wp.kernel
def comb_902a2f9874(vals: wp.array(dtype=float), inp: wp.array[wp.float32], indices: wp.array[wp.int32], x: wp.array(dtype=wp.vec3), y_out: wp.array[float]):
    tid = wp.tid()
    indices_v = indices[tid]
    inp_g = inp[indices_v]
    x_v = x[tid]
    vals_v = vals[tid]
    inp_v = inp[tid]
    s1 = wp.length(x_v)
    v2 = comb_902a2f9874_fn0(inp_v, vals_v * (-1.8125))
    r3 = float(0.0)
    if inp_g + vals_v >= inp_v:
        r3 = s1
    else:
        r3 = vals_v + s1
    y_out[tid] = ((wp.tanh((vals_v / 1.5) * vals_v) - BIAS_902A2F9874) + v2) - r3
