import warp as wp


@wp.kernel
def scal_74c84483d6(src: wp.array(dtype=float), freq: wp.float32, phase: float, iterations: wp.int32, output: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    src_v = src[tid]
    wave1 = wp.sin(freq * src_v + phase)
    a2 = 1.0 + wave1 * wave1
    root3 = a2
    for s in range(iterations):
        root3 = 0.5 * (root3 + a2 / root3)
    output[tid] = root3
