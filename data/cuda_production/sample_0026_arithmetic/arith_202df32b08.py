import warp as wp


@wp.kernel
def arith_202df32b08(b: wp.array[float], q: wp.array(dtype=wp.float32), data: wp.array[wp.float32], result: wp.array[wp.float32], out: wp.array[float]):
    tid = wp.tid()
    b_v = b[tid]
    q_v = q[tid]
    data_v = data[tid]
    v1 = ((b_v / (abs(q_v) + 2.0)) / (wp.abs(b_v - data_v) + 1.0)) - ((data_v - q_v) - wp.abs(b_v))
    result[tid] = wp.abs(v1 - 1.0625)
    out[tid] = wp.abs(b_v)
