import warp as wp


@wp.func
def soft_clip(x: float, limit: float) -> float:
    return limit * wp.tanh(x / limit)

@wp.kernel(enable_backward=False)
def comb_902a2f9874(velocity: wp.array[wp.vec3], m: wp.array[float], limit: float, max_value: wp.array[float], clipped_out: wp.array[float]):
    tid = wp.tid()
    velocity_v = velocity[tid]
    m_v = m[tid]
    s = 0.5 * m_v * wp.dot(velocity_v, velocity_v)
    clipped = soft_clip(s, limit)
    wp.atomic_max(max_value, 0, clipped)
    clipped_out[tid] = clipped
