import warp as wp


@wp.kernel
def nest_374d433ac4(p: wp.array(dtype=wp.float32), weights: wp.array2d(dtype=wp.float32), inner: int, result: wp.array[wp.float32]):
    tid = wp.tid()
    p_v = p[tid]
    total1 = float(0.0)
    for r in range(2):
        acc2 = float(0.0)
        for c in range(inner):
            acc2 += weights[r, c] - p_v
        total1 = total1 + acc2
    result[tid] = total1
