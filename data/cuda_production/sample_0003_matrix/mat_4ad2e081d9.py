import warp as wp


@wp.kernel
def mat_4ad2e081d9(num: wp.int32, factors: wp.array(dtype=wp.mat33), guess: wp.array(dtype=wp.vec3), eigvec: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    if tid >= num:
        return
    factors_v = factors[tid]
    guess_v = guess[tid]
    A = wp.transpose(factors_v) @ factors_v + wp.identity(n=3, dtype=wp.float32)
    v_it = wp.normalize(guess_v)
    for it in range(4):
        v_it = wp.normalize(A @ v_it)
    eigvec[tid] = v_it
