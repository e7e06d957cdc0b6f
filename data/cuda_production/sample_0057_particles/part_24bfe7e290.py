import warp as wp


NUM_NEIGHBORS = wp.constant(8)


@wp.struct
class ParticleState:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    mass: wp.array(dtype=float)
    density: wp.array(dtype=float)


@wp.struct
class Params:
    radius: float


@wp.kernel
def part_24bfe7e290(pstate: ParticleState, sim: Params, neighbors: wp.array(dtype=int), energy: wp.array(dtype=float), owner: wp.array(dtype=int)):
    tid = wp.tid()
    xi = pstate.pos[tid]
    h2 = sim.radius * sim.radius
    rho = float(0.0)
    for n in range(NUM_NEIGHBORS):
        j = neighbors[tid * NUM_NEIGHBORS + n]
        r2 = wp.length_sq(xi - pstate.pos[j])
        if r2 < h2:
            rho += (h2 - r2) ** 3.0
    pstate.density[tid] = rho
    vi = pstate.vel[tid]
    ke = 0.5 * pstate.mass[tid] * wp.dot(vi, vi)
    g = owner[tid]
    wp.atomic_add(energy, g, ke)
