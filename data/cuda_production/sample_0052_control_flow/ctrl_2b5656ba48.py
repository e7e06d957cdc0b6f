import warp as wp


@wp.kernel(enable_backward=False)
def ctrl_2b5656ba48(row_ptr: wp.array(dtype=int), indices: wp.array(dtype=int), data: wp.array(dtype=float), vec: wp.array(dtype=float), d_inv: wp.array(dtype=float), y: wp.array(dtype=float)):
    tid = wp.tid()
    acc = float(0.0)
    for k in range(row_ptr[tid], row_ptr[tid + 1]):
        acc += data[k] * vec[indices[k]]
    acc = acc * d_inv[tid]
    y[tid] = acc
