import warp as wp


@wp.func
def soft_clip(x: float, limit: float) -> float:
    return limit * wp.tanh(x / limit)

@wp.kernel
def comb_31924bd3f2(n: int, vel: wp.array[wp.vec3], max_value: wp.array[float], dst: wp.array[float]):
    tid = wp.tid()
    if tid >= n:
        return
    vel_v = vel[tid]
    s = wp.length(vel_v)
    clipped = soft_clip(s, 0.5)
    wp.atomic_max(max_value, 0, clipped)
    dst[tid] = clipped
