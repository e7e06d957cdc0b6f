import warp as wp


@wp.kernel
def mat_b8318ffa9b(sigma: wp.array2d(dtype=wp.mat22), principal_angle: wp.array2d(dtype=float)):
    i, j = wp.tid()
    sigma_v = sigma[i, j]
    S = 0.5 * (sigma_v + wp.transpose(sigma_v))
    principal_angle[i, j] = 0.5 * wp.atan2(2.0 * S[0, 1], S[0, 0] - S[1, 1])
