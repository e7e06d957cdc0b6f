import warp as wp


@wp.func
def sten_a9aaf7e289_lookup(f: wp.array(dtype=float), x: int) -> float:
    cx = wp.clamp(x, low=0, high=f.shape[0] - 1)
    return f[cx]

@wp.kernel(enable_backward=False)
def sten_a9aaf7e289(p: wp.array(dtype=wp.float32), u_new: wp.array(dtype=float), u_prev: wp.array[wp.float32], wave_speed: float, step: wp.float32):
    tid = wp.tid()
    courant = (wave_speed * step) ** 2.0
    u0 = p[tid]
    lap = sten_a9aaf7e289_lookup(p, tid - 1) + sten_a9aaf7e289_lookup(p, tid + 1) - 2.0 * u0
    u_new[tid] = 2.0 * u0 - u_prev[tid] + courant * lap
