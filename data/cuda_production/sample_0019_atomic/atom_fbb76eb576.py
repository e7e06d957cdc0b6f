import warp as wp


@wp.kernel
def atom_fbb76eb576(src: wp.array[wp.float32], total: wp.array[float]):
    tid = wp.tid()
    src_v = src[tid]
    wp.atomic_sub(total, tid % 32, src_v)
