import warp as wp


@wp.kernel
def atom_bf1c4a3775(fraction: wp.array(dtype=wp.float64), count: wp.float64, target: wp.array(dtype=wp.float32), accum: wp.array(dtype=wp.float64), cell_term: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    err = fraction[tid] - wp.float64(target[tid])
    term = err * err / count
    accum[0] += term
    cell_term[tid] = float(term)
