import warp as wp


@wp.kernel
def nest_11293b3277(inp: wp.array[float], u: wp.array(dtype=float), table: wp.array2d(dtype=float), kern: wp.array2d(dtype=wp.float32), profile: wp.array(dtype=wp.float32), dst: wp.array[wp.float32]):
    tid = wp.tid()
    inp_v = inp[tid]
    u_v = u[tid]
    total1 = float(0.0)
    for r in range(5):
        acc2 = float(0.0)
        for c in range(3):
            acc2 = acc2 + ((table[tid, c] * kern[r, c]) + (wp.max(inp_v, u_v) - max(float(r), float(c))))
        acc3 = acc2
        for d in range(2):
            acc3 = acc3 + (profile[d] * ((-1.4375) - inp_v))
        total1 = total1 + acc3
    dst[tid] = total1
