import warp as wp


@wp.struct
class Particles:
    pos: wp.array(dtype=wp.vec3)
    force: wp.array(dtype=wp.vec3)


@wp.struct
class Config:
    stiffness: float
    rest_length: float
    damping: float


@wp.kernel(enable_backward=False)
def part_177a719032(pstate: Particles, sim: Config, springs: wp.array(dtype=wp.int32)):
    tid = wp.tid()
    i = springs[tid * 2]
    j = springs[tid * 2 + 1]
    d = pstate.pos[j] - pstate.pos[i]
    l = wp.length(d)
    fs = sim.stiffness * (l - sim.rest_length) * sim.damping
    f = wp.normalize(d) * fs
    wp.atomic_add(pstate.force, i, f)
    wp.atomic_sub(pstate.force, j, f)
