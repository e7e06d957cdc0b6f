import warp as wp


@wp.func
def soft_clip(x: float, limit: float) -> float:
    return limit * wp.tanh(x / limit)

@wp.kernel
def comb_3bd815be04(velocity: wp.array[wp.vec3], mass: wp.array[float], limit: float, peak: wp.array[float], y_clipped: wp.array[float]):
    tid = wp.tid()
    velocity_v = velocity[tid]
    s = 0.5 * mass[tid] * wp.dot(velocity_v, velocity_v)
    clipped = soft_clip(s, limit)
    wp.atomic_max(peak, 0, clipped)
    y_clipped[tid] += clipped
