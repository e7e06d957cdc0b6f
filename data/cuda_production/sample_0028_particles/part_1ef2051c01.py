import warp as wp


K = wp.constant(6)


@wp.struct
class Cloud:
    pos: wp.array(dtype=wp.vec3)
    density: wp.array(dtype=float)


@wp.struct
class Params:
    radius: float


@wp.kernel
def part_1ef2051c01(pstate: Cloud, sim: Params, adjacency: wp.array(dtype=int), radius_scale: wp.array(dtype=float)):
    tid = wp.tid()
    radius_scale_v = radius_scale[tid]
    xi = pstate.pos[tid]
    h2 = sim.radius * sim.radius
    rho = float(0.0)
    for n in range(K):
        j = adjacency[tid * K + n]
        r2 = wp.length_sq(xi - pstate.pos[j])
        if r2 < h2:
            diff = h2 - r2
            rho += diff * diff * diff
    pstate.density[tid] = rho * radius_scale_v
