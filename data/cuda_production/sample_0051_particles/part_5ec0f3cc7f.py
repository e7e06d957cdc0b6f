import warp as wp


@wp.struct
class Cloud:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    inv_mass: wp.array(dtype=float)


@wp.struct
class Config:
    dt: float
    gravity: wp.vec3
    damping: float
    ground: float
    restitution: float


@wp.func
def part_5ec0f3cc7f_bounce(prm: Config, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    return v + wp.vec3(0.0, prm.ground - x[1], 0.0) * prm.dt

@wp.kernel
def part_5ec0f3cc7f(state: Cloud, cfg: Config, age: wp.array(dtype=float)):
    tid = wp.tid()
    inv_mass_v = state.inv_mass[tid]
    age_v = age[tid]
    w = state.inv_mass[tid]
    if w == 0.0:
        return
    v = state.vel[tid] + (cfg.gravity) * cfg.dt
    v *= cfg.damping
    v_new = v * (1.0 + 0.5 * wp.tanh((age_v / (wp.abs(float(tid) * cfg.dt) + 0.5)) - inv_mass_v))
    state.vel[tid] = v_new
    state.pos[tid] += v_new * cfg.dt
    v = part_5ec0f3cc7f_bounce(cfg, state.pos[tid], state.vel[tid])
    state.vel[tid] = v
