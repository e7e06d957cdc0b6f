import warp as wp


@wp.kernel
def nest_8cc4298b9a(feats: wp.array2d(dtype=float), weights: wp.array2d(dtype=wp.float32), b_hidden: wp.array[wp.float32], activations: wp.array2d(dtype=wp.float32)):
    tid = wp.tid()
    for o in range(4):
        acc = b_hidden[o]
        for c in range(feats.shape[1]):
            acc += feats[tid, c] * weights[o, c]
        h = wp.tanh(acc)
        activations[tid, o] = h
