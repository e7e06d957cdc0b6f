import warp as wp


@wp.func
def pcg_hash(x: wp.uint32) -> wp.uint32:
    state = x * wp.uint32(747796405) + wp.uint32(2891336453)
    word = ((state >> ((state >> wp.uint32(28)) + wp.uint32(4))) ^ state) * wp.uint32(277803737)
    return (word >> wp.uint32(22)) ^ word

@wp.kernel
def arith_2b4de2d329(ids: wp.array(dtype=wp.uint32), load: wp.array(dtype=wp.int32)):
    tid = wp.tid()
    h = pcg_hash(ids[tid])
    b = int(h & wp.uint32(load.shape[0] - 1))
    wp.atomic_add(load, b, 1)
