import warp as wp


@wp.kernel
def comb_d6d1124ccc(y: wp.array(dtype=float), acc: wp.array(dtype=wp.float32), dst: wp.array[wp.float32]):
    tid = wp.tid()
    y_v = y[tid]
    v1 = wp.where(wp.ceil(y_v) >= 0.5, wp.sqrt(wp.abs(y_v)), float(tid))
    acc2 = float(0.0)
    for k in range(8):
        acc2 = acc2 + wp.clamp(v1, 0.0, 0.5)
    wp.atomic_add(acc, 0, float(tid) - (-0.3125))
    dst[tid] = wp.sqrt(wp.abs(float(tid))) - acc2
