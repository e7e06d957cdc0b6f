import warp as wp


@wp.struct
class State:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)


@wp.struct
class Config:
    ground: float
    restitution: float


@wp.func
def collide(prm: Config, x: wp.vec3, v: wp.vec3) -> wp.vec3:
    if x[1] < prm.ground and v[1] < 0.0:
        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])
    return v

@wp.kernel(enable_backward=False)
def part_17681ea6d1(state: State, cfg: Config, radius_scale: wp.array(dtype=float)):
    tid = wp.tid()
    radius_scale_v = radius_scale[tid]
    v = collide(cfg, state.pos[tid], state.vel[tid])
    v_out = v * radius_scale_v
    state.vel[tid] = v_out
