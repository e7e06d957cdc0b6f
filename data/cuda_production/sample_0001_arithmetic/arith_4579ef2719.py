import warp as wp


@wp.kernel
def arith_4579ef2719(w: wp.array[wp.float32], q: wp.array(dtype=wp.float32), data: wp.array[float], y: wp.array[float], result: wp.array(dtype=float)):
    tid = wp.tid()
    v1 = wp.abs(w[tid] - y[tid])
    v2 = wp.abs(q[tid] - (q[tid] * v1))
    v3 = wp.abs(q[tid] - data[tid])
    v4 = v3
    result[tid] = (v2 - v3) * wp.abs(v4)
