import warp as wp


@wp.struct
class ParticleData:
    pos: wp.vec3


@wp.struct
class Params:
    jitter: float


@wp.kernel(enable_backward=False)
def part_1ef2051c01(particles: wp.array(dtype=ParticleData), sim: Params, seed: int):
    tid = wp.tid()
    rng_state = wp.rand_init(seed, tid)
    delta = wp.vec3(wp.randf(rng_state, -1.0, 1.0), wp.randf(rng_state, -1.0, 1.0), wp.randf(rng_state, -1.0, 1.0))
    particles[tid].pos = particles[tid].pos + sim.jitter * delta
