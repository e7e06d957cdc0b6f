import warp as wp


@wp.kernel
def nest_5befb1b887(num: int, samples: wp.array2d(dtype=float), centers: wp.array2d(dtype=float), dims: int, n_clusters: int, assignment: wp.array(dtype=int)):
    tid = wp.tid()
    if tid >= num:
        return
    best_d = float(1.0e30)
    label = int(0)
    for c in range(n_clusters):
        dist = float(0.0)
        for d in range(dims):
            diff = samples[tid, d] - centers[c, d]
            dist = dist + wp.abs(diff)
        if dist < best_d:
            best_d = dist
            label = c
    assignment[tid] = label
