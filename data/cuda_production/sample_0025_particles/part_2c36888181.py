import warp as wp


@wp.struct
class Particles:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)


@wp.struct
class SimParams:
    ground: float
    restitution: float
    dt: float


@wp.func
def part_2c36888181_collide(prm: SimParams, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    return v + wp.vec3(0.0, prm.ground - x[1], 0.0) * prm.dt

@wp.kernel(enable_backward=False)
def part_2c36888181(state: Particles, sim: SimParams, drag: wp.array(dtype=float)):
    tid = wp.tid()
    drag_v = drag[tid]
    v = part_2c36888181_collide(sim, state.pos[tid], state.vel[tid])
    v_out = v * (1.0 + 0.5 * wp.tanh(drag_v))
    state.vel[tid] = v_out
