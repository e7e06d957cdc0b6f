import warp as wp


@wp.kernel
def ctrl_d8e54e0d92(w: wp.array(dtype=float), root_out: wp.array(dtype=float)):
    tid = wp.tid()
    w_v = w[tid]
    s = wp.abs(w_v) + 0.5
    root = s
    for it in range(5):
        root = 0.5 * (root + s / root)
    root_out[tid] = root
