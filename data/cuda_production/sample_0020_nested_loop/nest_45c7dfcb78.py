import warp as wp


@wp.kernel
def nest_45c7dfcb78(xy: wp.array[wp.vec2], poly2d: wp.array2d(dtype=wp.float32), poly_out: wp.array[wp.float32], dy_out: wp.array[float]):
    tid = wp.tid()
    xy_v = xy[tid]
    val = float(0.0)
    dval = float(0.0)
    for a in range(poly2d.shape[1]):
        row = float(0.0)
        for b in range(4):
            row = row * xy_v[0] + poly2d[b, a]
        dval = dval * xy_v[1] + val
        val = val * xy_v[1] + row
    poly_out[tid] = val
    dy_out[tid] = dval
