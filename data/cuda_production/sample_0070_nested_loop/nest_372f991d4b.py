import warp as wp


@wp.kernel
def nest_372f991d4b(points: wp.array2d(dtype=float), centers: wp.array2d(dtype=float), n_dims: int, labels: wp.array(dtype=int)):
    tid = wp.tid()
    best_d = float(1.0e30)
    label = int(0)
    for c in range(3):
        dist = float(0.0)
        for d in range(n_dims):
            diff = points[tid, d] - centers[c, d]
            dist = dist + wp.abs(diff)
        if dist < best_d:
            best_d = dist
            label = c
    labels[tid] = label
