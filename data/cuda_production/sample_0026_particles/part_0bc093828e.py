import warp as wp


@wp.struct
class ParticleState:
    vel: wp.array(dtype=wp.vec3)
    mass: wp.array(dtype=float)


@wp.kernel
def part_0bc093828e(state: ParticleState, ke_sum: wp.array[wp.float32], owner: wp.array(dtype=int)):
    tid = wp.tid()
    vi = state.vel[tid]
    ke = 0.5 * state.mass[tid] * wp.length_sq(vi)
    g = owner[tid]
    wp.atomic_add(ke_sum, g, ke)
