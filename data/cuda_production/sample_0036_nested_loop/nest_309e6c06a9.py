import warp as wp


@wp.kernel
def nest_309e6c06a9(query: wp.array2d(dtype=float), k_rows: wp.array2d(dtype=float), values: wp.array(dtype=float), inv_sqrt_d: float, attended: wp.array(dtype=float), lse: wp.array(dtype=float)):
    tid = wp.tid()
    m = float(-1.0e30)
    denom = float(0.0)
    acc = float(0.0)
    for j in range(k_rows.shape[0]):
        score = float(0.0)
        for c in range(2):
            score += query[tid, c] * k_rows[j, c]
        score = score * inv_sqrt_d
        m_new = wp.max(m, score)
        corr = wp.exp(m - m_new)
        p = wp.exp(score - m_new)
        denom = denom * corr + p
        acc = acc * corr + p * values[j]
        m = m_new
    attended[tid] = acc / denom
    lse[tid] = m + wp.log(denom)
