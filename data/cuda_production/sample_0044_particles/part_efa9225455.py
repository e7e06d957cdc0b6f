import warp as wp


@wp.struct
class Point:
    pos: wp.vec3
    vel: wp.vec3
    mass: float


@wp.struct
class Params:
    ground: float
    restitution: float


@wp.func
def collide(prm: Params, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    return v

@wp.kernel
def part_efa9225455(points: wp.array(dtype=Point), params: Params, total_ke: wp.array(dtype=float), owner: wp.array(dtype=int)):
    tid = wp.tid()
    v = collide(params, points[tid].pos, points[tid].vel)
    points[tid].vel = v
    ke = 0.5 * points[tid].mass * wp.dot(v, v)
    total_ke[owner[tid]] += ke
