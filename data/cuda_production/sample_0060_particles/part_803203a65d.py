import warp as wp


@wp.struct
class ParticleData:
    pos: wp.vec3
    vel: wp.vec3
    mass: float


@wp.struct
class StepParams:
    ground: float
    restitution: float
    dt: float


@wp.func
def bounce(prm: StepParams, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        v[1] = -v[1] * prm.restitution
        return v
    if x[1] < prm.ground:
        return wp.vec3(v[0], wp.max(v[1], (prm.ground - x[1]) / prm.dt), v[2])
    return v

@wp.kernel(enable_backward=False)
def part_803203a65d(bodies: wp.array(dtype=ParticleData), params: StepParams, ke_sum: wp.array(dtype=float), group: wp.array(dtype=int)):
    tid = wp.tid()
    vi = bodies[tid].vel
    ke = 0.5 * bodies[tid].mass * wp.dot(vi, vi)
    g = group[tid]
    ke_sum[g] += ke
    v = bounce(params, bodies[tid].pos, vi)
    bodies[tid].vel = v
