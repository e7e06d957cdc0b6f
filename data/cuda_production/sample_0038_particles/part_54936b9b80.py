import warp as wp


@wp.struct
class Particles:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    inv_mass: wp.array(dtype=float)


@wp.struct
class Config:
    dt: float
    gravity: wp.vec3
    damping: float


@wp.kernel
def part_54936b9b80(pstate: Particles, sim: Config, forces: wp.array(dtype=wp.vec3), temperature: wp.array(dtype=float)):
    tid = wp.tid()
    temperature_v = temperature[tid]
    w = pstate.inv_mass[tid]
    if w == 0.0:
        return
    v = pstate.vel[tid] + (forces[tid] * w + sim.gravity) * sim.dt
    v *= sim.damping
    v_new = temperature_v * v
    pstate.vel[tid] = v_new
    pstate.pos[tid] += v_new * sim.dt
