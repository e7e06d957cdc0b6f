import warp as wp


K = 6


@wp.struct
class Particles:
    pos: wp.array(dtype=wp.vec3)
    density: wp.array(dtype=float)


@wp.struct
class SimParams:
    radius: float


@wp.kernel
def part_66623d3ba3(particles: Particles, params: SimParams, adjacency: wp.array[wp.int32], charge: wp.array(dtype=float)):
    tid = wp.tid()
    charge_v = charge[tid]
    xi = particles.pos[tid]
    h2 = params.radius * params.radius
    rho = float(0.0)
    for n in range(K):
        j = adjacency[tid * K + n]
        r2 = wp.length_sq(xi - particles.pos[j])
        if r2 < h2:
            diff = h2 - r2
            rho += diff * diff * diff
    particles.density[tid] = rho + (charge_v * charge_v)
