import warp as wp


@wp.func
def soft_clip(x: float, limit: float) -> float:
    return limit * wp.tanh(x / limit)

@wp.kernel
def comb_902a2f9874(field: wp.array[wp.vec3], axis: wp.array[wp.vec3], total: wp.array[float], clipped_out: wp.array[float]):
    tid = wp.tid()
    field_v = field[tid]
    axis_v = axis[tid]
    s = wp.dot(field_v, wp.normalize(axis_v))
    clipped = soft_clip(s, 1.0)
    wp.atomic_add(total, 0, clipped)
    clipped_out[tid] = clipped
