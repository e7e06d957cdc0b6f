import warp as wp


@wp.struct
class State:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    mass: wp.array(dtype=float)


@wp.struct
class Config:
    ground: float
    restitution: float


@wp.func
def part_68aee698c0_ground_contact(prm: Config, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    return v

@wp.kernel
def part_68aee698c0(state: State, params: Config, charge: wp.array[wp.float32], total_ke: wp.array[wp.float32], owner: wp.array[wp.int32]):
    tid = wp.tid()
    charge_v = charge[tid]
    mass_v = state.mass[tid]
    v = part_68aee698c0_ground_contact(params, state.pos[tid], state.vel[tid])
    v_out = v * (1.0 + 0.5 * wp.tanh(charge_v))
    state.vel[tid] = v_out
    vi = state.vel[tid]
    ke = 0.5 * state.mass[tid] * wp.length_sq(vi)
    g = owner[tid]
    total_ke[g] += ke + (-max(charge_v, mass_v))
