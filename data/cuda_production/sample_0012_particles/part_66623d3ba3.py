import warp as wp


@wp.struct
class ParticleState:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    inv_mass: wp.array(dtype=float)


@wp.struct
class Config:
    dt: float
    gravity: wp.vec3
    damping: float


@wp.kernel
def part_66623d3ba3(particles: ParticleState, params: Config, external: wp.array(dtype=wp.vec3), drag: wp.array(dtype=float)):
    tid = wp.tid()
    w = particles.inv_mass[tid]
    if w == 0.0:
        return
    v = particles.vel[tid] + (external[tid] * w + params.gravity) * params.dt
    v_damped = v * params.damping
    v_new = v_damped * (1.0 - drag[tid])
    particles.vel[tid] = v_new
    particles.pos[tid] += v_new * params.dt
