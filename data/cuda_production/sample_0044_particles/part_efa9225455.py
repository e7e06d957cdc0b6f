import warp as wp


@wp.struct
class Point:
    pos: wp.vec3
    vel: wp.vec3
    inv_mass: float


@wp.struct
class Params:
    dt: float
    gravity: wp.vec3
    damping: float
    ground: float
    restitution: float


@wp.func
def collide(prm: Params, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    if x[1] < prm.ground:
        return wp.vec3(v[0], wp.max(v[1], (prm.ground - x[1]) / prm.dt), v[2])
    return v

@wp.kernel(enable_backward=False)
def part_efa9225455(points: wp.array(dtype=Point), params: Params):
    tid = wp.tid()
    p = points[tid]
    if p.inv_mass == 0.0:
        return
    v = p.vel + (params.gravity) * params.dt
    v_damped = v * params.damping
    p.vel = v_damped
    p.pos = p.pos + v_damped * params.dt
    points[tid] = p
    v = collide(params, points[tid].pos, points[tid].vel)
    points[tid].vel = v
