import warp as wp


@wp.kernel
def vec_880fa67388(b: wp.array[wp.vec4], result: wp.array[wp.float32]):
    tid = wp.tid()
    s2 = b[tid].w
    result[tid] = b[tid][3] - s2
