import warp as wp


@wp.struct
class State:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    mass: wp.array(dtype=float)


@wp.struct
class Config:
    jitter: float


@wp.kernel
def part_0bc093828e(state: State, cfg: Config, ke_sum: wp.array(dtype=float), owner: wp.array(dtype=int), step_seed: int):
    tid = wp.tid()
    vi = state.vel[tid]
    ke = 0.5 * state.mass[tid] * wp.dot(vi, vi)
    ke_sum[owner[tid]] += ke
    rng = wp.rand_init(step_seed, tid)
    noise = wp.vec3((wp.randf(rng) - 0.5), (wp.randf(rng) - 0.5), (wp.randf(rng) - 0.5))
    state.pos[tid] += noise * cfg.jitter
