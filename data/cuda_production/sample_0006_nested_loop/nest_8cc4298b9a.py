import warp as wp


@wp.kernel(enable_backward=False)
def nest_8cc4298b9a(features: wp.array2d(dtype=float), W: wp.array2d(dtype=float), b_hidden: wp.array(dtype=float), activations: wp.array2d(dtype=float)):
    tid = wp.tid()
    for o in range(2):
        acc = b_hidden[o]
        for c in range(features.shape[1]):
            acc += features[tid, c] * W[o, c]
        h = wp.tanh(acc)
        activations[tid, o] = h
