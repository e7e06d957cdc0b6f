import warp as wp


@wp.struct
class State:
    pos: wp.array(dtype=wp.vec3)
    force: wp.array(dtype=wp.vec3)


@wp.struct
class Config:
    stiffness: float
    rest_length: float


@wp.kernel
def part_17681ea6d1(state: State, cfg: Config, springs: wp.array[int]):
    tid = wp.tid()
    i = springs[tid * 2]
    j = springs[tid * 2 + 1]
    d = state.pos[j] - state.pos[i]
    l = wp.length(d)
    fs = cfg.stiffness * (l - cfg.rest_length)
    f = wp.normalize(d) * fs
    state.force[i] += f
    state.force[j] -= f
