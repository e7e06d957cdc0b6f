import warp as wp


@wp.kernel
def ctrl_2b5656ba48(vals: wp.array(dtype=wp.float32), crossing: wp.array(dtype=wp.int32)):
    tid = wp.tid()
    crossed = bool(False)
    for k in range(8):
        if vals[wp.min(tid + k, vals.shape[0] - 1)] < -0.75:
            crossed = True
            break
    crossing[tid] = 1 if crossed else 0
