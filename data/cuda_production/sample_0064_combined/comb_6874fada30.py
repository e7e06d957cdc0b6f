import warp as wp


@wp.func
def blend_6874fada30(a: float, b: float, t: float) -> float:
    return a + t * (b - a)

@wp.kernel
def comb_6874fada30(inp: wp.array[float], coef: wp.array(dtype=wp.float32), t: float, max_value: wp.array[float], dst: wp.array[float]):
    tid = wp.tid()
    inp_v = inp[tid]
    y1 = float(0.0)
    dy2 = float(0.0)
    for k in range(5):
        dy2 = dy2 * inp_v + y1
        y1 = y1 * inp_v + coef[k]
    s3 = (2.5 * inp_v - 1.0625) * inp_v - 1.125
    blended4 = blend_6874fada30(y1, s3, t)
    wp.atomic_max(max_value, 0, blended4)
    dst[tid] = blended4
