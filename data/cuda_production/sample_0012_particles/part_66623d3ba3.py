import warp as wp


@wp.struct
class Hit:
    point: wp.vec3
    normal: wp.vec3
    depth: float


@wp.struct
class Particle:
    pos: wp.vec3


@wp.struct
class Config:
    ground: float


@wp.kernel
def part_66623d3ba3(particles: wp.array(dtype=Particle), params: Config, contact_out: wp.array(dtype=Hit)):
    tid = wp.tid()
    p = particles[tid].pos
    depth = params.ground - p[1]
    if depth > 0.0:
        c = Hit()
        c.point = wp.vec3(p[0], params.ground, p[2])
        c.normal = wp.vec3(0.0, 1.0, 0.0)
        c.depth = depth
        contact_out[tid] = c
    else:
        contact_out[tid] = Hit()
