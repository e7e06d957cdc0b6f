import warp as wp


@wp.kernel
def atom_8f90b8570e(starts: wp.array(dtype=wp.int32), positions: wp.array(dtype=wp.int32), tokens: wp.array(dtype=wp.float32), seg_scale: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32), param: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    positions_v = positions[tid]
    tokens_v = tokens[tid]
    s = wp.lower_bound(starts, positions_v + 1) - 1
    out[tid] = seg_scale[s] * tokens_v
    start = starts[s]
    param[tid] = float(positions_v - start) / float(wp.max(starts[s + 1] - start - 1, 1))
