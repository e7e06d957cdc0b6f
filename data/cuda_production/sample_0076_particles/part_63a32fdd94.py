import warp as wp


K = 6


@wp.struct
class Hit:
    point: wp.vec3
    normal: wp.vec3
    depth: float
    active: int


@wp.struct
class ParticleState:
    pos: wp.array(dtype=wp.vec3)
    density: wp.array(dtype=float)


@wp.struct
class Params:
    ground: float
    radius: float


@wp.kernel
def part_63a32fdd94(particles: ParticleState, cfg: Params, contact_out: wp.array(dtype=Hit), nbrs: wp.array(dtype=int)):
    tid = wp.tid()
    x = particles.pos[tid]
    depth = cfg.ground - x[1]
    if depth > 0.0:
        contact_out[tid] = Hit(point=wp.vec3(x[0], cfg.ground, x[2]), normal=wp.vec3(0.0, 1.0, 0.0), depth=depth, active=1)
    h2 = cfg.radius * cfg.radius
    rho = float(0.0)
    for n in range(K):
        j = nbrs[tid * K + n]
        r2 = wp.length_sq(x - particles.pos[j])
        if r2 < h2:
            rho += (h2 - r2) ** 3.0
    particles.density[tid] = rho
