import warp as wp


@wp.struct
class Cloud:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)


@wp.struct
class SimParams:
    jitter: float
    ground: float
    restitution: float
    dt: float


@wp.func
def bounce(prm: SimParams, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    return v + wp.vec3(0.0, prm.ground - x[1], 0.0) * prm.dt

@wp.kernel(enable_backward=False, module="unique")
def part_9356b33eb3(particles: Cloud, params: SimParams, rng_seed: int):
    tid = wp.tid()
    rng_state = wp.rand_init(rng_seed, tid)
    offset = wp.vec3(wp.randn(rng_state), wp.randn(rng_state), wp.randn(rng_state))
    particles.pos[tid] += offset * params.jitter
    v = bounce(params, particles.pos[tid], particles.vel[tid])
    particles.vel[tid] = v
