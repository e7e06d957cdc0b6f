import warp as wp


@wp.func
def wang_hash(seed: wp.uint32) -> wp.uint32:
    h = (seed ^ wp.uint32(61)) ^ (seed >> wp.uint32(16))
    h = h * wp.uint32(9)
    h = h ^ (h >> wp.uint32(4))
    h = h * wp.uint32(0x27D4EB2D)
    return h ^ (h >> wp.uint32(15))

@wp.kernel
def arith_64c0f1ebd3(samples: wp.array[wp.float32], frame: wp.int32, low: wp.float32, high: wp.float32):
    tid = wp.tid()
    h = wang_hash(wp.uint32(tid) + wp.uint32(frame) * wp.uint32(0x9E3779B9))
    u = float(h >> wp.uint32(8)) / 16777216.0
    samples[tid] = low + (high - low) * u
