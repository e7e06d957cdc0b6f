import warp as wp


@wp.kernel
def nest_45c7dfcb78(count: wp.int32, xy: wp.array[wp.vec2], coef: wp.array2d[wp.float32], poly_out: wp.array[wp.float32]):
    tid = wp.tid()
    if tid >= count:
        return
    xy_v = xy[tid]
    val = float(0.0)
    for a in range(coef.shape[0] - 1, -1, -1):
        row = float(0.0)
        for b in range(3, -1, -1):
            row = row * xy_v[1] + coef[a, b]
        val = val * xy_v[0] + row
    poly_out[tid] = val
