import warp as wp


@wp.kernel
def mat_4ad2e081d9(count: wp.int32, B: wp.array(dtype=wp.mat22), guess: wp.array(dtype=wp.vec2), dominant: wp.array(dtype=wp.vec2), eigval: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    if tid >= count:
        return
    B_v = B[tid]
    guess_v = guess[tid]
    A = wp.transpose(B_v) @ B_v + wp.identity(n=2, dtype=wp.float32)
    v_it = wp.normalize(guess_v)
    for it in range(4):
        v_it = wp.normalize(A @ v_it)
    dominant[tid] = v_it
    eigval[tid] = wp.dot(v_it, wp.mul(A, v_it))
