import warp as wp


K = wp.constant(4)


@wp.struct
class State:
    pos: wp.array(dtype=wp.vec3)
    force: wp.array(dtype=wp.vec3)
    density: wp.array(dtype=float)


@wp.struct
class Params:
    radius: float
    stiffness: float
    rest_length: float


@wp.kernel
def part_63a32fdd94(particles: State, cfg: Params, adjacency: wp.array(dtype=int), edges: wp.array(dtype=int), drag: wp.array(dtype=float)):
    tid = wp.tid()
    xi = particles.pos[tid]
    h2 = cfg.radius * cfg.radius
    rho = float(0.0)
    for n in range(K):
        j = adjacency[tid * K + n]
        r2 = wp.length_sq(xi - particles.pos[j])
        if r2 < h2:
            diff = h2 - r2
            rho += diff * diff * diff
    particles.density[tid] = rho
    i = edges[tid * 2]
    j = edges[tid * 2 + 1]
    d = particles.pos[j] - particles.pos[i]
    l = wp.length(d)
    fs = cfg.stiffness * (l - cfg.rest_length)
    f = wp.normalize(d) * fs
    f_total = f * (1.0 - drag[tid])
    particles.force[i] += f_total
    particles.force[j] -= f_total
