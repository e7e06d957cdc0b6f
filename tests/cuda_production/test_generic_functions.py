"""Generic `@wp.func` helpers (`Any` parameters, `wp.array(dtype=Any)`): translated once per argument
types at their calls, as Warp compiles one overload per types, each a C++ overload of the helper's
name; proven equal to Warp, or refused with one line naming the argument."""
from __future__ import annotations

import re

import pytest

from tests.cuda_production.harness import check_line, refusal, translate_checked

GENERIC = '''import warp as wp
from typing import Any


@wp.func
def square(x: Any):
    return x * x


@wp.func
def sum_of_squares(a: Any, b: Any):
    return square(a) + square(b)


@wp.func
def blend(a: Any, b: Any, t: float):
    return a + (b - a) * t


@wp.func
def scaled_at(values: wp.array(dtype=Any), i: int, scale: Any):
    return values[i] * scale


@wp.kernel
def mixed(xs: wp.array(dtype=float), vs: wp.array(dtype=wp.vec3), ds: wp.array(dtype=wp.float64),
          out: wp.array(dtype=float), vout: wp.array(dtype=wp.vec3), dout: wp.array(dtype=wp.float64)):
    i = wp.tid()
    out[i] = sum_of_squares(xs[i], 2.0) + blend(xs[i], 1.0, 0.25) + scaled_at(xs, i, 3.0)
    vout[i] = blend(vs[i], wp.vec3(1.0, 0.0, 0.0), 0.75) * square(xs[i]) + scaled_at(vs, i, 0.5)
    dout[i] = sum_of_squares(ds[i], ds[i]) + scaled_at(ds, i, wp.float64(2.0))


@wp.func
def total(a: Any, n: int):
    s = a[0]
    for k in range(1, n):
        s += a[k]
    return s


@wp.kernel
def arrays_as_any(xs: wp.array(dtype=float), vs: wp.array(dtype=wp.vec2), out: wp.array(dtype=float),
                  vout: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    out[i] = total(xs, 4) + xs[i]
    vout[i] = total(vs, 3)


@wp.func
def window_sum(values: wp.array(dtype=Any), start: int, count: int):
    s = values.dtype(0.0)
    for k in range(count):
        s += values[start + k]
    return s


@wp.func
def doubled_from_zero(x: Any):
    z = type(x)(0.0)
    return z + x * 2.0


@wp.kernel
def typed_zeros(xs: wp.array(dtype=float), vs: wp.array(dtype=wp.vec3), out: wp.array(dtype=float),
                vout: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = window_sum(xs, 0, 4) + doubled_from_zero(xs[i])
    vout[i] = window_sum(vs, 1, 3) + doubled_from_zero(vs[i])


@wp.kernel
def one_type(xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = blend(xs[i], 0.0, 0.5) + blend(out[i], xs[i], 0.125)
'''


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "generic", GENERIC)


def helper_signatures(out, kernel: str) -> list[str]:
    cu = (out / kernel / f"{kernel}.cu").read_text()
    return re.findall(r"^__device__ (?!__forceinline__)(.+\))$", cu, re.M)


def test_kernels_calling_generic_helpers_are_equal_to_warp(run):
    code, _, err, _ = run
    assert code == 0, err
    assert check_line(run, "mixed").endswith(": equal to Warp (host emulation)"), check_line(run, "mixed")
    for kernel in ("one_type", "arrays_as_any", "typed_zeros"):
        assert check_line(run, kernel).endswith(": equal to Warp (host emulation)"), check_line(run, kernel)


def test_each_generic_helper_has_one_overload_per_argument_types_side_by_side(run):
    assert helper_signatures(run[3], "mixed") == [
        "float square(float x)", "double square(double x)",
        "float sum_of_squares(float a, float b)", "double sum_of_squares(double a, double b)",
        "float blend(float a, float b, float t)", "float3 blend(float3 a, float3 b, float t)",
        "float scaled_at(const float* values, int values_dim0, int i, float scale)",
        "float3 scaled_at(const float3* values, int values_dim0, int i, float scale)",
        "double scaled_at(const double* values, int values_dim0, int i, double scale)",
    ]


def test_calls_with_the_same_types_share_one_instance(run):
    assert helper_signatures(run[3], "one_type") == ["float blend(float a, float b, float t)"]


def test_an_array_passed_as_any_is_a_pointer_parameter_of_its_element_type(run):
    assert helper_signatures(run[3], "arrays_as_any") == ["float total(const float* a, int a_dim0, int n)",
                                                          "float2 total(const float2* a, int a_dim0, int n)"]


@pytest.mark.parametrize("body, message", [
    ("out[i] = first(xs[i])", "argument 'values' of the generic @wp.func 'first': float32 where "
                              "wp.array(dtype=Any) is declared"),
    ("out[i] = first_row(xs)", "argument 'values' of the generic @wp.func 'first_row': type "),
])
def test_an_argument_the_placeholder_cannot_take_is_one_line_naming_it(body, message):
    source = GENERIC + f'''

@wp.func
def first(values: wp.array(dtype=Any)):
    return values[0]


@wp.func
def first_row(values: wp.array2d(dtype=Any)):
    return values[0, 0]


@wp.kernel
def k(xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    {body}
'''
    line = refusal(source)
    assert message in line, line
    assert "\n" not in line


def test_the_element_types_constructor_makes_each_instances_own_zero(run):
    """`values.dtype(0.0)` and `type(x)(0.0)`, generic code's zero of the type it was given."""
    cu = (run[3] / "typed_zeros" / "typed_zeros.cu").read_text()
    assert "float s = 0.0f;" in cu and "float3 s = make_float3(0.0f);" in cu
    assert "float z = 0.0f;" in cu and "float3 z = make_float3(0.0f);" in cu


def test_generic_parameters_renamed_for_c_keep_their_types():
    """A generic parameter named like a C++ keyword or CUDA type (`new`, `float3`) is renamed in C; its
    bound type follows it."""
    from cuda_production.translator import translate_source

    source = '''import warp as wp
from typing import Any


@wp.func
def twice(new: Any, float3: Any):
    return new * 2.0 + float3


@wp.kernel
def k(xs: wp.array(dtype=float), vs: wp.array(dtype=wp.vec3), out: wp.array(dtype=float), vout: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = twice(xs[i], 1.0)
    vout[i] = twice(vs[i], vs[i])
'''
    kernel = translate_source(source, "user.py")["k"]
    assert "__device__ float twice(float new_, float float3_)" in kernel.device_code
    assert "__device__ float3 twice(float3 new_, float3 float3_)" in kernel.device_code


TILED = '''import warp as wp
from typing import Any


@wp.func
def leaky(x: Any):
    return wp.max(x, x * type(x)(0.1))


@wp.kernel
def tiled_generic(x: wp.array2d(dtype=float), d: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=float),
                  dout: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(8, 16), offset=(i * 8, 0))
    u = wp.tile_load(d, shape=(8, 16), offset=(i * 8, 0))
    wp.tile_store(out, wp.tile_map(leaky, t), offset=(i * 8, 0))
    wp.tile_store(dout, wp.tile_map(leaky, u), offset=(i * 8, 0))


wp.launch_tiled(tiled_generic, dim=[4], inputs=[], block_dim=32)
'''


def test_a_generic_helper_mapped_over_tiles_is_instantiated_for_each_element_type(tmp_path_factory):
    run = translate_checked(tmp_path_factory, "tiled_generic", TILED)
    assert run[0] == 0, run[2]
    assert check_line(run, "tiled_generic").endswith(": equal to Warp (host emulation)"), check_line(run, "tiled_generic")
    assert helper_signatures(run[3], "tiled_generic") == ["float leaky(float x)", "double leaky(double x)"]


def test_a_generic_helper_reducing_a_tile_is_refused_in_one_line():
    """Warp 1.19 builds no CPU code for it (its build fails); the translator says so instead of guessing."""
    reducer = "@wp.func\ndef larger(a: Any, b: Any):\n    return wp.max(a, b)\n\n\n@wp.kernel"
    reduced = ("    wp.tile_store(dout, wp.tile_map(leaky, u), offset=(i * 8, 0))\n"
               "    m = wp.tile_reduce(larger, t)\n"
               "    wp.tile_store(out, wp.tile_broadcast(m, shape=(8, 16)), offset=(i * 8, 0))")
    source = TILED.replace("@wp.kernel", reducer).replace(
        "    wp.tile_store(dout, wp.tile_map(leaky, u), offset=(i * 8, 0))", reduced)
    line = refusal(source, "tiled_generic")
    assert "wp.tile_reduce with the generic @wp.func 'larger'" in line and "\n" not in line
