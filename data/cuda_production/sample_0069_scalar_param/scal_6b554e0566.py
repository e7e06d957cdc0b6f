import warp as wp


OFFSET = wp.constant(-0.5625)

@wp.kernel
def scal_6b554e0566(inp: wp.array(dtype=float), x: wp.array(dtype=float), offset: float, scale: float, hi: float, lo: float, substeps: int, dt_sub: float, rate: float, relaxed: wp.array(dtype=float), smoothing: float):
    tid = wp.tid()
    inp_v = inp[tid]
    x_v = x[tid]
    u = max(OFFSET, x_v) / (abs(max(inp_v, OFFSET)) + 1.0)
    centered = u - offset
    scaled = scale * centered
    limited = wp.clamp(scaled, lo, hi)
    state = float(0.0)
    for s in range(substeps):
        state = state + dt_sub * (limited - rate * state)
    relaxed[tid] = (1.0 - smoothing) * relaxed[tid] + smoothing * state
