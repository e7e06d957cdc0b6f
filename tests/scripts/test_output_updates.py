"""scripts/output_updates.py: which output updates it counts as meaning nothing."""
from __future__ import annotations

from scripts.output_updates import meaningless, updates

KERNEL = """@wp.kernel
def k(a: wp.array[float], b: wp.array[float], theta: wp.array[float], n: wp.array[wp.vec3], f: wp.array[float], rate: float):
    tid = wp.tid()
    u = wp.normalize(wp.vec3(a[tid], b[tid], 1.0))
    theta[tid] = wp.lerp(theta[tid], wp.atan2(a[tid], b[tid]), rate)
    n[tid] += u
    f[tid] += a[tid] * b[tid]
"""


def test_every_kind_of_update_line_is_found():
    assert updates(KERNEL) == [("blend", "wp.atan2(a[tid], b[tid])"), ("+=", "u"), ("+=", "a[tid] * b[tid]")]
    blended = "    m[tid] = (1.0 - rate) * m[tid] + rate * (a[tid] - b[tid])\n"
    assert updates(blended) == [("blend", "a[tid] - b[tid]")]


def test_a_blended_angle_and_a_summed_unit_vector_are_counted_a_summed_product_is_not():
    assert meaningless(KERNEL) == ["wp.atan2(a[tid], b[tid])", "u"]


def test_a_smoothed_unit_vector_is_not_counted():
    smoothed = KERNEL.replace("    n[tid] += u", "    n[tid] = wp.lerp(n[tid], u, rate)")
    assert meaningless(smoothed) == ["wp.atan2(a[tid], b[tid])"]
