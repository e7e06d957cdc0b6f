import warp as wp


@wp.kernel(enable_backward=False)
def nest_c88e7f3b2b(src_img: wp.array2d(dtype=float), sigma: float, blurred_avg: wp.array2d(dtype=float), alpha: float):
    i, j = wp.tid()
    acc = float(0.0)
    wsum = float(0.0)
    for di in range(-1, 2):
        for dj in range(-1, 2):
            ii = wp.clamp(i + di, 0, src_img.shape[0] - 1)
            jj = wp.clamp(j + dj, 0, src_img.shape[1] - 1)
            v = src_img[ii, jj]
            wt = wp.exp(-float(di * di + dj * dj) / (2.0 * sigma * sigma))
            acc += wt * v
            wsum += wt
    blurred_avg[i, j] = (1.0 - alpha) * blurred_avg[i, j] + alpha * (acc / wsum)
