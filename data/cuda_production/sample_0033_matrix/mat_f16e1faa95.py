import warp as wp


@wp.kernel
def mat_f16e1faa95(ids: wp.array[int], B: wp.array[wp.mat33], v0: wp.array[wp.vec3], iterations: int, eigvec: wp.array[wp.vec3], rayleigh: wp.array[float]):
    tid = wp.tid()
    i = ids[tid]
    B_i = B[i]
    A = wp.transpose(B_i) @ B_i + wp.identity(n=3, dtype=float)
    v_it = wp.normalize(v0[i])
    for it in range(iterations):
        v_it = wp.normalize(A @ v_it)
    eigvec[i] = v_it
    rayleigh[i] = wp.dot(v_it, wp.mul(A, v_it))
