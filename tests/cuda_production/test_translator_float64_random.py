"""float64, float16, uint32, Warp's random numbers, noise and printf: each checked numerically against Warp.

Same method as test_translator_constructs.py: each kernel runs through Warp on the CPU and as its
translated .cu compiled with g++ (host emulation); the sample's main() compares every written array
with Warp's values (integers exactly, float64 at float64 precision). The random-number helpers
mirror warp/native/rand.h statement for statement, so their results are equal to Warp's bit for bit.
"""
import re

import pytest

from cuda_production.reference import warp_reference
from cuda_production.translator import TranslationError, translate_kernel
from tests.cuda_production.harness import arr, run_sample, scal, spec

F, I, D = "float32", "int32", "float64"

CASES = [
    spec("rand_integers", '''
@wp.kernel
def rand_integers(seed: int, out: wp.array(dtype=int), bits: wp.array(dtype=wp.uint32)):
    tid = wp.tid()
    stream = wp.rand_init(seed, tid)
    shared = wp.rand_init(seed)
    out[tid] = wp.randi(stream) + wp.randi(stream, -50, 75) + wp.randi(shared, 3, 9)
    bits[tid] = wp.randu(stream) ^ wp.randu(shared, wp.uint32(10), wp.uint32(1000))
''', [scal("seed", I, 20250), arr("out", I, "output"), arr("bits", "uint32", "output")]),
    spec("rand_floats", '''
@wp.kernel
def rand_floats(seed: int, scale: float, u: wp.array(dtype=float), g: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    u[tid] = wp.randf(state) + wp.randf(state, -scale, scale)
    g[tid] = wp.vec3(wp.randn(state), wp.randn(state), wp.randn(state))
''', [scal("seed", I, 7), scal("scale", F, 2.5), arr("u", F, "output", bound=4.0), arr("g", "vec3", "output", bound=6.0)]),
    spec("rand_state_by_value", '''
@wp.func
def draw(s: wp.uint32, scale: float) -> float:
    return wp.randf(s) * scale


@wp.kernel
def rand_state_by_value(seed: int, out: wp.array(dtype=float)):
    tid = wp.tid()
    s = wp.rand_init(seed, tid)
    copy = s
    a = draw(s, 2.0) + wp.randf(copy)
    b = wp.randf(s)
    c = draw(s, 3.0)
    out[tid] = a + 10.0 * b + 100.0 * c
    for k in range(3):
        out[tid] += wp.randf(s)
''', [scal("seed", I, 99), arr("out", F, "output", bound=512.0)]),
    spec("noise_fields", '''
@wp.kernel
def noise_fields(seed: int, x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float),
                 periodic: wp.array(dtype=float)):
    tid = wp.tid()
    state = wp.rand_init(seed)
    px = 3.0 * x[tid]
    py = 2.5 * y[tid]
    out[tid] = (wp.noise(state, px) + wp.noise(state, wp.vec2(px, py)) + wp.noise(state, wp.vec3(py, px, 0.5))
                + wp.noise(state, wp.vec4(px, -py, 0.25, py)))
    periodic[tid] = (wp.pnoise(state, px, 4) + wp.pnoise(state, wp.vec2(px, py), 3, 5)
                     + wp.pnoise(state, wp.vec3(py, px, 0.5), 2, 3, 4) + wp.pnoise(state, wp.vec4(px, py, px, py), 2, 3, 4, 5))
''', [scal("seed", I, 42), arr("x"), arr("y"), arr("out", F, "output", bound=4.0),
      arr("periodic", F, "output", bound=4.0)]),
    spec("float64_math", '''
@wp.kernel
def float64_math(a: wp.array(dtype=wp.float64), b: wp.array(dtype=float), k: int, penal: wp.float64,
                 out: wp.array(dtype=wp.float64), narrow: wp.array(dtype=float)):
    tid = wp.tid()
    x = a[tid]
    y = wp.float64(b[tid])
    rho = wp.max(wp.abs(x), wp.float64(1.0e-3))
    z = wp.sqrt(rho) + wp.sin(y) * wp.float64(0.1) - wp.exp(x) / wp.float64(k) + wp.pow(rho, penal)
    if x < y:
        z = z - wp.float64(k) * wp.floor(y)
    v = wp.vec3d(x, y, wp.float64(0.5))
    out[tid] = wp.clamp(z, wp.float64(-3.0), wp.float64(3.0)) + v[0] * v.z - v.y + x ** wp.float64(2.0)
    narrow[tid] = float(z) + float(k)
''', [arr("a", D), arr("b"), scal("k", I, 3), scal("penal", D, 3.0), arr("out", D, "output", bound=8.0),
      arr("narrow", F, "output", bound=16.0)]),
    spec("float64_atomics", '''
@wp.kernel
def float64_atomics(density: wp.array(dtype=wp.float64), count: wp.float64, loss: wp.array(dtype=wp.float64),
                    extremes: wp.array(dtype=wp.float64)):
    tid = wp.tid()
    d = density[tid]
    wp.atomic_add(loss, 0, d / count)
    loss[1] -= d * d
    wp.atomic_min(extremes, 0, d)
    wp.atomic_max(extremes, 1, d)
''', [arr("density", D), scal("count", D, 64.0), arr("loss", D, "output", shape=(2,), bound=256.0),
      arr("extremes", D, "inout", shape=(2,), low=-0.5, high=0.5)]),
    spec("float16_values", '''
@wp.kernel
def float16_values(a: wp.array(dtype=wp.float16), b: wp.array(dtype=wp.float16), s: float,
                   out: wp.array(dtype=wp.float16), wide: wp.array(dtype=float)):
    tid = wp.tid()
    out[tid] = a[tid] * b[tid] + a[tid] / (b[tid] + wp.float16(3.0))
    wide[tid] = float(a[tid]) * s
''', [arr("a", "float16"), arr("b", "float16"), scal("s", F, 1.5), arr("out", "float16", "output"),
      arr("wide", F, "output")]),
]


@pytest.fixture(scope="module")
def warp_results():
    return warp_reference(CASES, "test_float64_random_module")


# integer results, and uniform floats (exact arithmetic on the hash), must equal Warp's bit for bit;
# a state passed to a helper or copied to another name is a copy in Warp too (by value)
BIT_EXACT = {"rand_integers", "rand_floats", "rand_state_by_value"}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_construct_matches_warp(case, warp_results, tmp_path):
    run = run_sample(tmp_path, case, warp_results[case.name])
    assert run.compiled, run.output
    assert run.passed, run.output
    if case.name in BIT_EXACT:
        assert re.search(r"max_abs_err=0 ", run.output), run.output


def test_printf_prints_through_the_c_library(tmp_path):
    case = spec("printer", '''
@wp.kernel
def printer(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    tid = wp.tid()
    out[tid] = a[tid] * 2.0
    if tid == 3:
        wp.printf("thread %d doubled: %.3f\\n", tid, out[tid])
''', [arr("a", low=1.0, high=1.0), arr("out", F, "output")], dim=(8,))
    run = run_sample(tmp_path, case, warp_reference([case], "test_printf_module")["printer"])
    assert run.passed, run.output
    assert "thread 3 doubled: 2.000" in run.output


def test_several_draws_in_one_expression_are_drawn_in_source_order():
    source = ("@wp.kernel\ndef k(seed: int, out: wp.array(dtype=wp.vec2)):\n    tid = wp.tid()\n"
              "    s = wp.rand_init(seed, tid)\n    out[tid] = wp.vec2(wp.randf(s), wp.randn(s))\n")
    code = translate_kernel(source, "k").kernel_code
    assert code.index("randf(s)") < code.index("randn(s)") < code.index("out[tid] =")


HEADER = "@wp.kernel\ndef k(seed: int, a: wp.array(dtype=float), h: wp.array(dtype=wp.float16), " \
         "v: wp.array(dtype=wp.vec3d), out: wp.array(dtype=float)):\n    tid = wp.tid()\n    s = wp.rand_init(seed)\n"

REFUSED = [
    ("    while wp.randf(s) < 0.5:\n        out[tid] = 1.0", "unsupported: wp.randf in a while condition"),
    ("    if a[tid] > 0.0:\n        out[tid] = 1.0\n    elif wp.randf(s) < 0.5:\n        out[tid] = 2.0",
     "unsupported: wp.randf in an elif condition"),
    ("    out[tid] = wp.randf(wp.rand_init(seed))", "unsupported: wp.randf with a state other than a local"),
    ("    fmt = 1\n    wp.printf(a[tid])", "unsupported: wp.printf other than (format string literal, values...)"),
    ("    wp.printf('%f', v[tid])", "unsupported: wp.printf of a vec3d"),
    ("    out[tid] = float(-h[tid])", "unsupported: unary minus on float16"),
    ("    w = v[tid] + v[tid]", "unsupported: operator '+' on vec3d and vec3d"),
    ("    out[tid] = a[tid] * wp.float64(2.0)", "error: operands of '*' have types float32 and float64"),
]


@pytest.mark.parametrize("body, message", REFUSED, ids=[m for _, m in REFUSED])
def test_unsupported_use_is_refused_with_one_clear_line(body, message):
    with pytest.raises(TranslationError) as exc:
        translate_kernel(HEADER + body + "\n", "k", "user.py")
    assert message in str(exc.value)
    assert "\n" not in str(exc.value)
