import warp as wp


@wp.kernel
def nest_6549d79635(num: int, corner: wp.array(dtype=wp.vec2), spacing: float, cell_mass: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= num:
        return
    corner_v = corner[tid]
    integral = float(0.0)
    for a in range(8):
        px = corner_v[0] + (float(a) + 0.5) * spacing
        for b in range(8):
            py = corner_v[1] + (float(b) + 0.5) * spacing
            integral = integral + 1.0 / (1.0 + px * px + py * py)
    cell_mass[tid] = integral * spacing * spacing
