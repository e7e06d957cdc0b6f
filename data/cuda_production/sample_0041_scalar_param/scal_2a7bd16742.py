import warp as wp


@wp.kernel
def scal_2a7bd16742(q: wp.array[wp.float32], shift: wp.int32, weight: wp.float32, iterations: wp.int32, root_out: wp.array[wp.float32]):
    tid = wp.tid()
    q_next = q[(tid + shift) % q.shape[0]]
    blended = q_next + weight * (q[tid] - q_next)
    a = 1.0 + blended * blended
    root = a
    for s in range(iterations):
        root = 0.5 * (root + a / root)
    root_out[tid] = root
