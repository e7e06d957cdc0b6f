import warp as wp


@wp.struct
class Cloud:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)


@wp.struct
class Config:
    ground: float
    restitution: float
    jitter: float


@wp.func
def bounce(prm: Config, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    return v

@wp.kernel(enable_backward=False)
def part_1b182c2768(particles: Cloud, sim: Config, age: wp.array(dtype=float), step_seed: int):
    tid = wp.tid()
    v = bounce(sim, particles.pos[tid], particles.vel[tid])
    v_out = v * wp.exp(-age[tid])
    particles.vel[tid] = v_out
    rng_state = wp.rand_init(step_seed, tid)
    delta = wp.vec3(wp.randf(rng_state, -1.0, 1.0), wp.randf(rng_state, -1.0, 1.0), wp.randf(rng_state, -1.0, 1.0))
    particles.pos[tid] += delta * sim.jitter
