import warp as wp


@wp.struct
class Particles:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    inv_mass: wp.array(dtype=float)


@wp.struct
class SimParams:
    dt: float
    gravity: wp.vec3
    damping: float


@wp.kernel(enable_backward=False)
def part_520d22580f(state: Particles, cfg: SimParams, radius_scale: wp.array(dtype=float)):
    tid = wp.tid()
    radius_scale_v = radius_scale[tid]
    w = state.inv_mass[tid]
    if w == 0.0:
        return
    v = state.vel[tid] + (cfg.gravity) * cfg.dt
    v_damped = v * cfg.damping
    v_new = v_damped * radius_scale_v
    state.vel[tid] = v_new
    state.pos[tid] += v_new * cfg.dt
