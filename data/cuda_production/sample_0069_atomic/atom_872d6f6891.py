import warp as wp


@wp.func
def splat(grid: wp.array(dtype=float), node: int, weight: float, value: float):
    wp.atomic_add(grid, node, weight * value)

@wp.kernel
def atom_872d6f6891(src: wp.array(dtype=float), label: wp.array(dtype=int), scale: float, remaining: wp.array(dtype=float), particle_x: wp.array(dtype=float), rho_grid: wp.array(dtype=float)):
    tid = wp.tid()
    label_v = label[tid]
    src_v = src[tid]
    particle_x_v = particle_x[tid]
    wp.atomic_sub(remaining, label_v, src_v * scale)
    fx = particle_x_v * float(rho_grid.shape[0] - 1)
    c = int(fx)
    t = fx - float(c)
    splat(rho_grid, c, 1.0 - t, src_v)
    splat(rho_grid, c + 1, t, src_v)
