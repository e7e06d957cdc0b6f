import warp as wp


@wp.kernel
def cond_d7c73459db(vals: wp.array[float], a: wp.array[float], quadrant_id: wp.array[int]):
    tid = wp.tid()
    vals_v = vals[tid]
    a_v = a[tid]
    quadrant = int(0)
    if vals_v >= -0.5:
        if a_v < 0.0:
            quadrant = 3
    else:
        if a_v >= 0.0:
            quadrant = 1
        else:
            quadrant = 2
    quadrant_id[tid] += quadrant
