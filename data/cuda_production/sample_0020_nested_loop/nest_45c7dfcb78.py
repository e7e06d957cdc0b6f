import warp as wp


@wp.kernel
def nest_45c7dfcb78(count: wp.int32, xy: wp.array[wp.vec2], domain_scale: wp.float32, c2d: wp.array2d[wp.float32], poly_out: wp.array[wp.float32]):
    tid = wp.tid()
    if tid >= count:
        return
    xy_v = xy[tid]
    xs = xy_v[0] * domain_scale
    ys = xy_v[1] * domain_scale
    val = float(0.0)
    for a in range(c2d.shape[0]):
        row = float(0.0)
        for b in range(c2d.shape[1]):
            row = row * ys + c2d[a, b]
        val = val * xs + row
    poly_out[tid] = val
