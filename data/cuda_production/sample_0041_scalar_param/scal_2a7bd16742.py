import warp as wp


@wp.kernel
def scal_2a7bd16742(q: wp.array[wp.float32], shift: wp.int32, weight: wp.float32, blend_out: wp.array[wp.float32], mix_rate: wp.float32):
    tid = wp.tid()
    q_next = q[(tid + shift) % q.shape[0]]
    q_v = q[tid]
    blend_out[tid] = (1.0 - mix_rate) * blend_out[tid] + mix_rate * (q_next + weight * (q_v - q_next))
