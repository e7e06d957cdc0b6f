import warp as wp


@wp.func
def soft_clip(x: float, limit: float) -> float:
    return limit * wp.tanh(x / limit)

@wp.kernel
def comb_871f05c354(velocity: wp.array[wp.vec3], peak: wp.array[float], clipped_out: wp.array[float]):
    tid = wp.tid()
    s = wp.length(velocity[tid])
    clipped = soft_clip(s, 2.0)
    wp.atomic_max(peak, 0, clipped)
    clipped_out[tid] = clipped
