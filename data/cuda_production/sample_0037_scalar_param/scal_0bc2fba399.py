import warp as wp


@wp.kernel
def scal_0bc2fba399(q: wp.array[wp.float32], num: wp.int32, scale: wp.float32, dst: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= num:
        return
    q_right = q[min(tid + 1, 255)]
    scaled1 = scale * (-q_right)
    dst[tid] = scaled1
