import warp as wp


NUM_CELLS = wp.constant(8)

@wp.kernel
def atom_ec226e20cf(b: wp.array[int], pos_x: wp.array[float], acc: wp.array[int], counts: wp.array[int]):
    tid = wp.tid()
    pos_x_v = pos_x[tid]
    b_v = b[tid]
    cell = wp.clamp(int(pos_x_v * float(NUM_CELLS)), 0, NUM_CELLS - 1)
    wp.atomic_add(acc, cell, b_v)
    wp.atomic_add(counts, cell, 1)
