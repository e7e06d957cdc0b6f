import warp as wp


RADIUS = 1
K = 0.5
DECAY = wp.constant(0.8125)


@wp.func
def lookup(f: wp.array(dtype=float), x: int) -> float:
    if x < 0 or x >= f.shape[0]:
        return 0.0
    return f[x]

@wp.kernel
def sten_aea329f084(phi: wp.array(dtype=float), smoothed: wp.array(dtype=float)):
    tid = wp.tid()
    acc = float(0.0)
    for di in range(-RADIUS, RADIUS + 1):
        acc += lookup(phi, tid + di)
    center = phi[tid]
    smoothed[tid] *= DECAY
    smoothed[tid] += (acc / 3.0) - K * center
