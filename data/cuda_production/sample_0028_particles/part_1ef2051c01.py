import warp as wp


K = 8


@wp.struct
class ParticleData:
    pos: wp.vec3
    density: float


@wp.struct
class Params:
    radius: float


@wp.kernel(enable_backward=False)
def part_1ef2051c01(particles: wp.array(dtype=ParticleData), sim: Params, neighbors: wp.array(dtype=int)):
    tid = wp.tid()
    xi = particles[tid].pos
    h2 = sim.radius * sim.radius
    rho = float(0.0)
    for n in range(K):
        j = neighbors[tid * K + n]
        r2 = wp.length_sq(xi - particles[j].pos)
        if r2 < h2:
            rho += (h2 - r2) ** 3.0
    particles[tid].density = rho
