import warp as wp


@wp.kernel
def comb_768732ab37(src: wp.array(dtype=wp.float32), acc: wp.array[float], output: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    src_v = src[tid]
    r1 = float(0.0)
    if float(tid) * src_v > 0.375:
        r1 = src_v
    else:
        r1 = float(tid)
    wp.atomic_add(acc, tid % 8, r1)
    output[tid] = wp.atan2(0.375, src_v / 2.0)
