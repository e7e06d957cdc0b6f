import warp as wp


@wp.kernel(enable_backward=False)
def scal_0bc2fba399(q: wp.array[wp.float32], is_active: wp.array[wp.int32], scale: wp.float32, y_scaled: wp.array[wp.float32]):
    tid = wp.tid()
    if is_active[tid] == 0:
        return
    q_left = q[max(tid - 1, 0)]
    y_scaled[tid] = scale * q_left
