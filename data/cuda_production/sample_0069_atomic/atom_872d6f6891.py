import warp as wp


@wp.func
def splat(grid: wp.array(dtype=float), node: int, weight: float, value: float):
    wp.atomic_add(grid, node, weight * value)

@wp.kernel
def atom_872d6f6891(src: wp.array(dtype=float), label: wp.array(dtype=int), scale: float, remaining: wp.array(dtype=float), pos: wp.array(dtype=float), rho_grid: wp.array(dtype=float)):
    tid = wp.tid()
    label_v = label[tid]
    src_v = src[tid]
    pos_v = pos[tid]
    wp.atomic_sub(remaining, label_v, src_v * scale)
    v = wp.abs(src_v)
    c = int(pos_v)
    t = pos_v - float(c)
    splat(rho_grid, c, 1.0 - t, v)
    splat(rho_grid, c + 1, t, v)
