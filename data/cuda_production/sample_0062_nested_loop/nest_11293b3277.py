import warp as wp


@wp.kernel
def nest_11293b3277(lhs: wp.array2d(dtype=float), rhs: wp.array2d(dtype=float), projected: wp.array2d(dtype=float), alpha: float, beta: float):
    tid = wp.tid()
    for j in range(4):
        s = float(0.0)
        for k in range(3):
            s = s + lhs[tid, k] * rhs[k, j]
        projected[tid, j] = alpha * s + beta * projected[tid, j]
