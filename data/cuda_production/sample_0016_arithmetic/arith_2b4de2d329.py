import warp as wp


@wp.func
def fmix32(key: wp.uint32) -> wp.uint32:
    h = key ^ (key >> wp.uint32(16))
    h = h * wp.uint32(0x85EBCA6B)
    h = h ^ (h >> wp.uint32(13))
    h = h * wp.uint32(0xC2B2AE35)
    return h ^ (h >> wp.uint32(16))

@wp.kernel
def arith_2b4de2d329(hash_out: wp.array(dtype=wp.uint32), particle_ids: wp.array(dtype=wp.uint32), capacity: int, bucket_ids: wp.array(dtype=int)):
    tid = wp.tid()
    h = fmix32(particle_ids[tid])
    hash_out[tid] = h
    bucket_ids[tid] = int(h % wp.uint32(capacity))
