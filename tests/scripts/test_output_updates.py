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
    assert updates(KERNEL) == [
        ("blend", "theta", "wp.atan2(a[tid], b[tid])"), ("+=", "n", "u"), ("+=", "f", "a[tid] * b[tid]")]
    blended = "    m[tid] = (1.0 - rate) * m[tid] + rate * (a[tid] - b[tid])\n"
    assert updates(blended) == [("blend", "m", "a[tid] - b[tid]")]


def test_a_blended_angle_and_a_summed_unit_vector_are_counted_a_summed_product_is_not():
    assert meaningless(KERNEL) == ["wp.atan2(a[tid], b[tid])", "u"]


def test_a_unit_vector_smoothed_into_a_running_average_is_not_counted():
    smoothed = KERNEL.replace("n: wp.array", "n_ema: wp.array").replace(
        "    n[tid] += u", "    n_ema[tid] = wp.lerp(n_ema[tid], u, rate)")
    assert meaningless(smoothed) == ["wp.atan2(a[tid], b[tid])"]


def test_a_plain_value_blended_into_an_output_not_named_as_a_running_average_is_counted():
    """`f` holds no statistic or signal, so smoothing it over launches tracks nothing; `loss_ema` does."""
    blended = KERNEL.replace("    f[tid] += a[tid] * b[tid]", "    f[tid] = wp.lerp(f[tid], a[tid] * b[tid], rate)")
    assert meaningless(blended) == ["wp.atan2(a[tid], b[tid])", "u", "a[tid] * b[tid]"]
    named = blended.replace("f: wp.array", "loss_ema: wp.array").replace("f[tid]", "loss_ema[tid]")
    assert meaningless(named) == ["wp.atan2(a[tid], b[tid])", "u"]


FRAME = """@wp.func
def tangent_frame(normal: wp.vec3, tangent: wp.vec3) -> tuple[wp.vec3, wp.vec3]:
    n = wp.normalize(normal)
    q = wp.normalize(tangent - wp.dot(tangent, n) * n)
    return q, wp.cross(n, q)

@wp.kernel
def k(normals: wp.array(dtype=wp.vec3), tangents: wp.array(dtype=wp.vec3), t_out: wp.array(dtype=wp.vec3), b_out: wp.array(dtype=wp.vec3), s: wp.array(dtype=float)):
    tid = wp.tid()
    t, b = tangent_frame(normals[tid], tangents[tid])
    t_out[tid] += t
    b_out[tid] += b
    s[tid] += wp.length(t + b)
"""


def test_a_unit_vector_a_helper_returns_in_a_tuple_is_followed_into_the_helper():
    """`t, b = tangent_frame(...)`: the helper's normalized first value and the cross product of its unit
    vectors, summed, are counted; a length computed from them is not a unit value."""
    assert meaningless(FRAME) == ["t", "b"]
