import warp as wp


@wp.kernel
def scal_74c84483d6(src: wp.array(dtype=float), freq: float, phase: float, iterations: int, output: wp.array(dtype=float)):
    tid = wp.tid()
    wave = wp.sin(freq * src[tid] + phase)
    a = 1.0 + wave * wave
    root = a
    for s in range(iterations):
        root = 0.5 * (root + a / root)
    output[tid] = root
