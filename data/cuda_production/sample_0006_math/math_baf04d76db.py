import warp as wp


@wp.func
def math_baf04d76db_fn0(x: float, y: float) -> float:
    return wp.sin(wp.abs(y))

@wp.kernel
def math_baf04d76db(vals: wp.array[float], y_out: wp.array[float], result: wp.array[wp.float32]):
    tid = wp.tid()
    v1 = wp.cos(wp.clamp(wp.max(wp.ceil(vals[tid]), wp.pow(wp.abs(vals[tid]) + 1.0, 3.0)), -4.0, 4.0))
    v2 = math_baf04d76db_fn0(v1, wp.pow(wp.abs(0.4375) + 1.0, 2.0))
    y_out[tid] = v2
    result[tid] = wp.sin(max(0.875, vals[tid]))
