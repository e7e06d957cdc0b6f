import warp as wp


@wp.kernel
def nest_45c7dfcb78(count: wp.int32, xy: wp.array[wp.vec2], coef: wp.array2d[wp.float32], surface: wp.array[wp.float32]):
    tid = wp.tid()
    if tid >= count:
        return
    xy_v = xy[tid]
    val = float(0.0)
    for a in range(coef.shape[0]):
        row = float(0.0)
        for b in range(4):
            row = row * xy_v[1] + coef[a, b]
        val = val * xy_v[0] + row
    surface[tid] = val
