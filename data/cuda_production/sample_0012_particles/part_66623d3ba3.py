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
    center: wp.vec3
    sphere_radius: float


@wp.kernel(enable_backward=False)
def part_66623d3ba3(particles: wp.array(dtype=Particle), params: Config, contact_out: wp.array(dtype=Hit)):
    tid = wp.tid()
    p = particles[tid].pos
    d = p - params.center
    dist = wp.length(d)
    depth = params.sphere_radius - dist
    if depth > 0.0 and dist > 0.0:
        contact_out[tid] = Hit(point=params.center + d * (params.sphere_radius / dist), normal=d / dist, depth=depth)
