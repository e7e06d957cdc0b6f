import warp as wp


@wp.kernel
def mat_f324d3f444(tensors: wp.array[wp.mat22], sv: wp.array[wp.vec2]):
    tid = wp.tid()
    tensors_v = tensors[tid]
    S = 0.5 * (tensors_v + wp.transpose(tensors_v))
    center = 0.5 * (S[0, 0] + S[1, 1])
    d = 0.5 * (S[0, 0] - S[1, 1])
    radius = wp.sqrt(d * d + S[0, 1] * S[0, 1])
    sv[tid] = wp.vec2(center + radius, center - radius)
