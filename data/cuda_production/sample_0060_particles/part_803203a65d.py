import warp as wp


NUM_NEIGHBORS = wp.constant(6)


@wp.struct
class ParticleData:
    pos: wp.vec3
    density: float


@wp.struct
class StepParams:
    radius: float


@wp.kernel
def part_803203a65d(bodies: wp.array(dtype=ParticleData), params: StepParams, neighbors: wp.array(dtype=int)):
    tid = wp.tid()
    xi = bodies[tid].pos
    h2 = params.radius * params.radius
    rho = float(0.0)
    for n in range(NUM_NEIGHBORS):
        j = neighbors[tid * NUM_NEIGHBORS + n]
        r2 = wp.length_sq(xi - bodies[j].pos)
        if r2 < h2:
            diff = h2 - r2
            rho += diff * diff * diff
    bodies[tid].density = rho
