import warp as wp


@wp.kernel
def cond_61dcda9db0(src: wp.array2d(dtype=float), inp: wp.array2d(dtype=float), u: wp.array2d(dtype=float), slope: wp.array2d(dtype=float), masked: wp.array2d(dtype=float)):
    i, j = wp.tid()
    u_v = u[i, j]
    u_left = u[i, wp.max(j - 1, 0)]
    u_right = u[i, min(j + 1, 19)]
    src_v = src[i, j]
    inp_v = inp[i, j]
    dl1 = u_v - u_left
    dr2 = u_right - u_v
    slope3 = float(0.0)
    if dl1 * dr2 > 0.0:
        if wp.abs(dl1) < wp.abs(dr2):
            slope3 = dl1
        else:
            slope3 = dr2
    masked4 = float(0.0)
    if -1.0 <= src_v <= 0.0:
        masked4 = inp_v
    slope[i, j] = slope3
    masked[i, j] = masked4
