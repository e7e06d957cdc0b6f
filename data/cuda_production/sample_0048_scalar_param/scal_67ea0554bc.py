import warp as wp


@wp.kernel
def scal_67ea0554bc(x: wp.array[float], threshold: wp.float32, indices: wp.array(dtype=int), result: wp.array(dtype=float), output: wp.array[wp.float32]):
    tid = wp.tid()
    x_left = x[wp.max(tid - 1, 0)]
    indices_v = indices[tid]
    x_g = x[indices_v]
    x_v = x[tid]
    v1 = x_v / -2.0
    v2 = threshold - v1
    result[tid] = max(x_g, v2)
    output[tid] = 0.5 * x_left
