import warp as wp


@wp.struct
class ParticleState:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    inv_mass: wp.array(dtype=float)
    mass: wp.array(dtype=float)


@wp.struct
class Config:
    dt: float
    gravity: wp.vec3
    damping: float


@wp.kernel(enable_backward=False)
def part_54936b9b80(pstate: ParticleState, sim: Config, forces: wp.array(dtype=wp.vec3), temperature: wp.array(dtype=float), energy: wp.array[float], group: wp.array(dtype=wp.int32)):
    tid = wp.tid()
    inv_mass_v = pstate.inv_mass[tid]
    temperature_v = temperature[tid]
    w = pstate.inv_mass[tid]
    if w == 0.0:
        return
    v = pstate.vel[tid] + (forces[tid] * w + sim.gravity) * sim.dt
    v *= sim.damping
    v_new = temperature_v * v
    pstate.vel[tid] = v_new
    pstate.pos[tid] += v_new * sim.dt
    vi = pstate.vel[tid]
    ke = 0.5 * pstate.mass[tid] * wp.dot(vi, vi)
    g = group[tid]
    energy[g] += ke + wp.abs(inv_mass_v / 1.5)
