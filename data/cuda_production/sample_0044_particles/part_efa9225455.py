import warp as wp


@wp.struct
class Particles:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    mass: wp.array(dtype=float)


@wp.struct
class Params:
    ground: float
    restitution: float
    dt: float


@wp.func
def collide(prm: Params, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    return v + wp.vec3(0.0, prm.ground - x[1], 0.0) * prm.dt

@wp.kernel(enable_backward=False, module="unique")
def part_efa9225455(state: Particles, params: Params, total_ke: wp.array(dtype=float), owner: wp.array(dtype=int)):
    tid = wp.tid()
    v = collide(params, state.pos[tid], state.vel[tid])
    state.vel[tid] = v
    vi = state.vel[tid]
    ke = 0.5 * state.mass[tid] * wp.dot(vi, vi)
    total_ke[owner[tid]] += ke
