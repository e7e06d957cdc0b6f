import warp as wp


K = wp.constant(8)


@wp.struct
class Cloud:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    density: wp.array(dtype=float)


@wp.struct
class Params:
    radius: float
    ground: float
    restitution: float


@wp.func
def collide(prm: Params, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    return v

@wp.kernel(enable_backward=False)
def part_68aee698c0(state: Cloud, params: Params, nbrs: wp.array(dtype=int)):
    tid = wp.tid()
    xi = state.pos[tid]
    h2 = params.radius * params.radius
    rho = float(0.0)
    for n in range(K):
        j = nbrs[tid * K + n]
        r2 = wp.length_sq(xi - state.pos[j])
        if r2 < h2:
            rho += (h2 - r2) ** 3.0
    state.density[tid] = rho
    v = collide(params, state.pos[tid], state.vel[tid])
    state.vel[tid] = v
