import warp as wp


@wp.kernel(module="unique")
def atom_6599b53b54(src: wp.array[wp.float32], data: wp.array[wp.float32], hist: wp.array[wp.int32], weights_per_bin: wp.array[wp.float32]):
    tid = wp.tid()
    src_v = src[tid]
    mag = wp.abs(src_v)
    b = wp.min(int(mag * 2.0), 7)
    hist[b] += 1
    weights_per_bin[b] += src_v * data[tid]
