import warp as wp


@wp.kernel
def ctrl_627f75deed(row_ptr: wp.array[wp.int32], cols: wp.array[wp.int32], positions: wp.array[wp.vec3], strength: wp.float32, new_points: wp.array[wp.vec3]):
    tid = wp.tid()
    start = row_ptr[tid]
    end = row_ptr[tid + 1]
    p = positions[tid]
    acc = wp.vec3(0.0)
    for e in range(start, end):
        j = cols[e]
        acc += positions[j]
    count = end - start
    q = p
    if count > 0:
        lap = acc / float(count) - p
        q = p + strength * lap
    new_points[tid] = q
