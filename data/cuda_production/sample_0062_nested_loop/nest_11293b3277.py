import warp as wp


@wp.kernel
def nest_11293b3277(inp: wp.array[float], table: wp.array2d(dtype=float), kern: wp.array2d(dtype=wp.float32), output: wp.array[wp.float32]):
    tid = wp.tid()
    inp_v = inp[tid]
    total1 = float(0.0)
    for r in range(5):
        acc2 = float(0.0)
        for c in range(3):
            acc2 += (table[tid, c] * kern[r, c]) * inp_v
        total1 = total1 + acc2
    output[tid] = total1
