import warp as wp


NUM_NEIGHBORS = wp.constant(6)


@wp.struct
class Cloud:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    mass: wp.array(dtype=float)
    density: wp.array(dtype=float)


@wp.struct
class StepParams:
    radius: float


@wp.kernel
def part_803203a65d(particles: Cloud, params: StepParams, ke_sum: wp.array(dtype=float), owner: wp.array(dtype=int), adjacency: wp.array(dtype=int)):
    tid = wp.tid()
    vi = particles.vel[tid]
    ke = 0.5 * particles.mass[tid] * wp.length_sq(vi)
    ke_sum[owner[tid]] += ke
    xi = particles.pos[tid]
    h2 = params.radius * params.radius
    rho = float(0.0)
    for n in range(NUM_NEIGHBORS):
        j = adjacency[tid * NUM_NEIGHBORS + n]
        r2 = wp.length_sq(xi - particles.pos[j])
        if r2 < h2:
            diff = h2 - r2
            rho += diff * diff * diff
    particles.density[tid] = rho
