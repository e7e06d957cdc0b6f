import warp as wp


@wp.struct
class State:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    force: wp.array(dtype=wp.vec3)


@wp.struct
class SimParams:
    stiffness: float
    rest_length: float
    ground: float
    restitution: float
    dt: float


@wp.func
def part_fc171a0bab_collide(prm: SimParams, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    return v + wp.vec3(0.0, prm.ground - x[1], 0.0) * prm.dt

@wp.kernel
def part_fc171a0bab(particles: State, sim: SimParams, edges: wp.array(dtype=wp.int32)):
    tid = wp.tid()
    i = edges[tid * 2]
    j = edges[tid * 2 + 1]
    d = particles.pos[j] - particles.pos[i]
    l = wp.length(d)
    fs = sim.stiffness * (l - sim.rest_length)
    f = wp.normalize(d) * fs
    particles.force[i] += f
    particles.force[j] -= f
    v = part_fc171a0bab_collide(sim, particles.pos[tid], particles.vel[tid])
    particles.vel[tid] = v
