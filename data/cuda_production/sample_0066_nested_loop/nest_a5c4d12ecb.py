import warp as wp


@wp.kernel
def nest_a5c4d12ecb(is_active: wp.array[int], chain: wp.array2d[wp.vec3], energy_out: wp.array[float]):
    tid = wp.tid()
    if is_active[tid] == 0:
        return
    energy = float(0.0)
    for a in range(8):
        for b in range(a + 1, 8):
            d = chain[tid, a] - chain[tid, b]
            r2 = wp.dot(d, d)
            r = wp.sqrt(r2) + 0.25
            energy += wp.exp(-r * r)
    energy_out[tid] += energy
