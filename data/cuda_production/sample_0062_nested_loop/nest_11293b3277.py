import warp as wp


@wp.kernel
def nest_11293b3277(lhs: wp.array2d(dtype=float), rhs: wp.array2d(dtype=float), offset: wp.array(dtype=float), C: wp.array2d(dtype=float)):
    tid = wp.tid()
    for j in range(rhs.shape[1]):
        s = offset[j]
        for k in range(3):
            s += lhs[tid, k] * rhs[k, j]
        C[tid, j] = s
