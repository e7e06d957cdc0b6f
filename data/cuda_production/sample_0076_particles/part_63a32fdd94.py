import warp as wp


@wp.struct
class Hit:
    point: wp.vec3
    normal: wp.vec3
    depth: float
    active: int


@wp.struct
class Cloud:
    pos: wp.array(dtype=wp.vec3)


@wp.struct
class Params:
    ground: float


@wp.kernel
def part_63a32fdd94(particles: Cloud, cfg: Params, contact_out: wp.array(dtype=Hit)):
    tid = wp.tid()
    x = particles.pos[tid]
    depth = cfg.ground - x[1]
    if depth > 0.0:
        contact_out[tid] = Hit(point=wp.vec3(x[0], cfg.ground, x[2]), normal=wp.vec3(0.0, 1.0, 0.0), depth=depth, active=1)
