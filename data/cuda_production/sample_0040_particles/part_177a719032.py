import warp as wp


@wp.struct
class ParticleState:
    vel: wp.array(dtype=wp.vec3)
    mass: wp.array(dtype=float)


@wp.kernel(enable_backward=False)
def part_177a719032(pstate: ParticleState, ke_sum: wp.array(dtype=float), group: wp.array(dtype=int)):
    tid = wp.tid()
    vi = pstate.vel[tid]
    ke = 0.5 * pstate.mass[tid] * wp.length_sq(vi)
    g = group[tid]
    ke_sum[g] += ke
