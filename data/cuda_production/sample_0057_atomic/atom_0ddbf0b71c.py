import warp as wp


@wp.kernel
def atom_0ddbf0b71c(b: wp.array[float], total: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    b_v = b[tid]
    wp.atomic_sub(total, tid % 16, wp.min(b_v, 2.0) + (b_v + (-0.8125)))
