import warp as wp


@wp.kernel
def scal_3fc76d003d(y: wp.array[wp.float32], freq: wp.float32, phase: wp.float32, wave_out: wp.array[wp.float32], n_substeps: wp.int32, dt_sub: wp.float32, rate: wp.float32, relaxed: wp.array[wp.float32]):
    tid = wp.tid()
    y_v = y[tid]
    wave_out[tid] = wp.sin(freq * y_v + phase)
    state = float(0.0)
    for s in range(n_substeps):
        state = state + dt_sub * (y_v - rate * state)
    relaxed[tid] = state
