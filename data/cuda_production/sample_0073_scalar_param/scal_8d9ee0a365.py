import warp as wp


@wp.kernel
def scal_8d9ee0a365(a: wp.array[wp.float32], leak: wp.float32, hi: wp.float32, lo: wp.float32, clipped: wp.array[wp.float32]):
    tid = wp.tid()
    a_v = a[tid]
    activated = wp.where(a_v > 0.0, a_v, leak * a_v)
    clipped[tid] = wp.clamp(activated, lo, hi)
