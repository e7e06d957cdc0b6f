import warp as wp


@wp.kernel
def vec_880fa67388(b: wp.array[wp.vec4], y: wp.array[float], output: wp.array[float]):
    tid = wp.tid()
    s1 = wp.length(wp.min(b[tid], wp.vec4(y[tid] + float(tid), y[tid] / 4.0, y[tid], y[tid])))
    s2 = b[tid].w
    s3 = b[tid].z
    t4 = wp.vec4(s3, wp.min(s3, s2), 1.3125, float(tid) + (-2.0))
    output[tid] = t4.w
