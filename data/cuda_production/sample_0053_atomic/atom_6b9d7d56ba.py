import warp as wp


@wp.func
def deposit(grid: wp.array(dtype=float), node: int, weight: float, value: float):
    wp.atomic_add(grid, node, weight * value)

@wp.kernel(enable_backward=False, module="unique")
def atom_6b9d7d56ba(w: wp.array(dtype=float), pos: wp.array(dtype=float), grid: wp.array(dtype=float), node_weight: wp.array(dtype=float)):
    tid = wp.tid()
    v = wp.abs(w[tid])
    fx = pos[tid] * float(grid.shape[0] - 1)
    c = int(fx)
    t = fx - float(c)
    deposit(grid, c, 1.0 - t, v)
    deposit(grid, c + 1, t, v)
    deposit(node_weight, c, 1.0 - t, 1.0)
    deposit(node_weight, c + 1, t, 1.0)
