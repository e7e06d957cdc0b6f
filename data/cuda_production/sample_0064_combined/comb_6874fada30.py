import warp as wp


DAMPING_6874FADA30 = wp.constant(0.3125)

@wp.func
def comb_6874fada30_fn0(a: float, b: float, c: float) -> float:
    t = b - 0.625
    return (wp.abs(t) / (wp.abs(t * c) + 2.0)) + a

@wp.kernel
def comb_6874fada30(inp: wp.array[float], q: wp.array[float], y: wp.array(dtype=wp.float32), steps: int, taps: wp.array(dtype=wp.float32), acc: wp.array[float], res: wp.array(dtype=float)):
    tid = wp.tid()
    inp_v = inp[tid]
    inp_left = inp[wp.max(tid - 1, 0)]
    inp_right = inp[min(tid + 1, 63)]
    q_v = q[tid]
    y_v = y[tid]
    lap1 = inp_left + inp_right - 2.0 * inp_v
    acc2 = float(0.0)
    for k in range(steps):
        acc2 = acc2 + (taps[k] * wp.abs(y_v))
    v3 = comb_6874fada30_fn0(wp.clamp(acc2, -4.0, 4.0), wp.clamp(wp.abs(acc2), -4.0, 4.0), wp.clamp(wp.max(inp_v, acc2), -4.0, 4.0))
    wp.atomic_add(acc, tid % 8, inp_v)
    res[tid] = ((((1.75 - q_v) / (wp.abs((-1.25) * acc2) + 0.5)) * lap1) + DAMPING_6874FADA30) + v3
