import warp as wp


@wp.kernel
def arith_a5daebdab9(codes: wp.array(dtype=wp.uint32), shift: int, digit_counts: wp.array(dtype=int)):
    tid = wp.tid()
    digit = int((codes[tid] >> wp.uint32(shift)) & wp.uint32(0xF))
    wp.atomic_add(digit_counts, digit, 1)
