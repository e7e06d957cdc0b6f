"""The Warp language beyond the generators' first subset, each construct checked numerically against Warp.

Same method as test_translator_semantics.py: every kernel runs through Warp on the CPU and as its
translated .cu compiled with g++ (host emulation); the sample's own main() compares every written
array, struct members included, with Warp's values. By-value vectors, matrices, quats, transforms
and structs are built by main() from the argument descriptions, as in production samples.
"""
import pytest

from cuda_production.reference import warp_reference
from cuda_production.translator import translate_kernel
from tests.cuda_production.harness import arr, run_sample, scal, spec, struct, vec_value

F, I = "float32", "int32"

CASES = [
    spec("module_constants", '''
import math
import numpy as np

N_GRID = 64
DX = 2.0 * 1.5 / (N_GRID - 1)
DT = 0.95 * DX / math.sqrt(3.0)
H = 2 * np.pi / N_GRID
INV_H2 = 1.0 / (H * H)
HALF = round(N_GRID / 4.0)
RELAX = wp.constant(2.0 / 3.0)
USE_DT = wp.constant(True)
wptype = wp.float32
PI_T = wptype(math.pi)


@wp.kernel(enable_backward=False)
def module_constants(a: wp.array(dtype=float), out: wp.array(dtype=float), k: wp.array(dtype=int)):
    tid = wp.tid()
    x = a[tid] * DT + INV_H2 * 0.0001 - RELAX
    if USE_DT:
        x = x + PI_T
    out[tid] = x * wptype(2.0)
    k[tid] = tid % HALF + N_GRID
''', [arr("a"), arr("out", role="output", bound=8.0), arr("k", I, "output")]),
    spec("static_expressions", '''
import math

TAPS = (1.0 / 16.0, 0.25, 0.375, 0.25, 1.0 / 16.0)
OFFSETS = (-2, -1, 0, 1, 2)
H = 0.5
HALF = len(TAPS) // 2


@wp.kernel(enable_backward=False)
def static_expressions(a: wp.array(dtype=float), out: wp.array(dtype=float), k: wp.array(dtype=int)):
    tid = wp.tid()
    acc = float(0.0)
    for t in range(wp.static(len(TAPS))):
        j = wp.clamp(tid + wp.static(OFFSETS[t]), 0, a.shape[0] - 1)
        acc += wp.static(TAPS[t]) * a[j]
    out[tid] = acc * wp.static(1.0 / (3.0 * math.pi * H * H))
    k[tid] = tid % wp.static(HALF + 3) + wp.static(len(OFFSETS))
''', [arr("a"), arr("out", role="output", bound=4.0), arr("k", I, "output")]),
    spec("keywords_and_math", '''
@wp.func
def mix(x: float, y: float, t: float) -> float:
    return x * (1.0 - t) + y * t


@wp.kernel
def keywords_and_math(a: wp.array(dtype=float), b: wp.array(dtype=float), v: wp.array(dtype=wp.vec3),
                      o1: wp.array(dtype=float), o2: wp.array(dtype=float), ov: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    x = a[tid]
    y = b[tid]
    o1[tid] = wp.clamp(x, low=-0.5, high=0.75) + mix(y=y, x=x, t=0.25) + wp.lerp(x, y, 0.3) + wp.smoothstep(-1.0, 1.0, y)
    o2[tid] = wp.step(x) + wp.abs(y) ** 1.5 + wp.pi * x + wp.tau - wp.e + wp.radians(y * 90.0) + wp.mod(x, 0.75)
    ov[tid] = wp.lerp(v[tid], wp.vec3(x), t=0.5) + wp.vec3(wp.length(v[tid])) + wp.normalize(v[tid]) * wp.length_sq(v[tid])
''', [arr("a"), arr("b"), arr("v", "vec3"), arr("o1", role="output", bound=8.0), arr("o2", role="output", bound=16.0),
      arr("ov", "vec3", "output", bound=16.0)]),
    spec("matrix_functions", '''
@wp.kernel
def matrix_functions(m2: wp.array(dtype=wp.mat22), m3: wp.array(dtype=wp.mat33), m4: wp.array(dtype=wp.mat44),
                     det: wp.array(dtype=float), inv2: wp.array(dtype=wp.mat22), inv3: wp.array(dtype=wp.mat33)):
    tid = wp.tid()
    a = m2[tid] + wp.identity(n=2, dtype=float) * 2.0
    b = m3[tid] + wp.identity(n=3, dtype=float) * 3.0
    det[tid] = wp.determinant(a) + wp.determinant(b) + wp.determinant(m4[tid]) + wp.trace(b)
    inv2[tid] = wp.inverse(a)
    inv3[tid] = wp.inverse(b)
''', [arr("m2", "mat22", low=-1, high=1), arr("m3", "mat33", low=-1, high=1), arr("m4", "mat44", low=-1, high=1),
      arr("det", role="output", bound=64.0), arr("inv2", "mat22", "output", bound=8.0),
      arr("inv3", "mat33", "output", bound=8.0)]),
    spec("matrices_from_vectors", '''
@wp.kernel
def matrices_from_vectors(u: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), w2: wp.array(dtype=wp.vec2),
                          m3: wp.array(dtype=wp.mat33), rows: wp.array(dtype=wp.mat33), cols: wp.array(dtype=wp.mat22),
                          s: wp.array(dtype=float), c: wp.array(dtype=wp.vec3), rv: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    a = u[tid]
    b = v[tid]
    r = wp.matrix_from_rows(a, b, wp.cross(a, b))
    rows[tid] = r
    cols[tid] = wp.matrix_from_cols(w2[tid], wp.vec2(1.5, -0.5))
    s[tid] = wp.ddot(r, m3[tid]) + wp.ddot(cols[tid], cols[tid])
    c[tid] = wp.cw_mul(a, b) + wp.matrix_from_cols(a, b, a) @ b
    rv[tid] = b @ m3[tid] + wp.mul(a, r) - m3[tid] @ b  # row vectors times matrices, and a matrix times a column
''', [arr("u", "vec3"), arr("v", "vec3"), arr("w2", "vec2"), arr("m3", "mat33"),
      arr("rows", "mat33", "output", bound=2.0), arr("cols", "mat22", "output", bound=2.0),
      arr("s", role="output", bound=16.0), arr("c", "vec3", "output", bound=8.0), arr("rv", "vec3", "output", bound=16.0)]),
    spec("quaternions", '''
@wp.kernel
def quaternions(q: wp.array(dtype=wp.quat), p: wp.array(dtype=wp.vec3), angle: wp.array(dtype=float),
                oq: wp.array(dtype=wp.quat), ov: wp.array(dtype=wp.vec3), os: wp.array(dtype=float)):
    tid = wp.tid()
    r = wp.normalize(q[tid])
    axis = wp.normalize(p[tid] + wp.vec3(0.0, 0.0, 2.5))
    s = wp.quat_from_axis_angle(axis, angle[tid])
    t = r * s
    u = wp.mul(wp.quat_inverse(t), wp.quat_identity()) + wp.quat(0.5, -0.25, 0.125, 1.0) * 0.5 - -r
    oq[tid] = u
    ov[tid] = wp.quat_rotate(t, p[tid]) + wp.quat_rotate_inv(r, p[tid]) + wp.quat_rotate(wp.quat_rpy(0.1, angle[tid], -0.3), p[tid])
    os[tid] = t.x + t[3] + wp.length(u) + wp.dot(r, s)
''', [arr("q", "quat"), arr("p", "vec3"), arr("angle", low=-3, high=3), arr("oq", "quat", "output", bound=8.0),
      arr("ov", "vec3", "output", bound=16.0), arr("os", role="output", bound=8.0)]),
    spec("transforms", '''
@wp.kernel
def transforms(xf: wp.array(dtype=wp.transform), p: wp.array(dtype=wp.vec3), ot: wp.array(dtype=wp.transform),
               ov: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    a = wp.transform(wp.transform_get_translation(xf[tid]), wp.normalize(wp.transform_get_rotation(xf[tid])))
    b = wp.transform(p[tid], wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), 0.7))
    c = wp.transform_multiply(a, b)
    d = wp.mul(wp.transform_inverse(c), wp.transform_identity()) * a
    ot[tid] = d
    ov[tid] = wp.transform_point(c, p[tid]) + wp.transform_vector(d, p[tid]) + c.p + wp.quat_rotate(c.q, p[tid])
''', [arr("xf", "transform"), arr("p", "vec3"), arr("ot", "transform", "output", bound=8.0),
      arr("ov", "vec3", "output", bound=16.0)]),
    spec("by_value_params", '''
@wp.kernel
def by_value_params(a: wp.array(dtype=wp.vec3), g: wp.vec3, m: wp.mat33, r: wp.quat, x: wp.transform, flag: bool,
                    out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    v = m @ a[tid] + g + wp.vec3(1, 0, 2) * 0.5  # int literals: Warp converts them
    if flag:
        v = wp.quat_rotate(r, v)
    out[tid] = wp.transform_point(x, v)
''', [arr("a", "vec3"), vec_value("g", "vec3", (0.5, -0.25, 1.0)),
      vec_value("m", "mat33", (1.0, 0.5, 0.0, -0.5, 1.0, 0.25, 0.0, 0.125, 2.0)),
      vec_value("r", "quat", (0.0, 0.6, 0.0, 0.8)), vec_value("x", "transform", (1.0, 2.0, -1.0, 0.0, 0.0, 0.6, 0.8)),
      scal("flag", "bool", True), arr("out", "vec3", "output", bound=16.0)]),
    spec("funcs_arrays_tuples", '''
@wp.func
def sample(f: wp.array(dtype=float), x: int, width: int) -> float:
    x = wp.clamp(x, 0, width - 1)
    return f[x]


@wp.func
def laplacian(f: wp.array(dtype=float), x: int, width: int, scale: float):
    return (sample(f, x + 1, width) - 2.0 * sample(f, x, width) + sample(f, x - 1, width)) * scale


@wp.func
def split(v: wp.vec3, k: int):
    if k > 2:
        return v[0] + v[1], float(k) * v[2]
    return v[2], -v[0]


@wp.func
def deposit(out: wp.array(dtype=float), i: int, value: float):
    wp.atomic_add(out, i, value)


@wp.kernel
def funcs_arrays_tuples(f: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), lap: wp.array(dtype=float),
                        s: wp.array(dtype=float), acc: wp.array(dtype=float)):
    tid = wp.tid()
    lap[tid] = laplacian(f, tid, f.shape[0], 0.5)
    a, b = split(v[tid], tid % 5)
    a, b = b, a
    s[tid] = a - b * 2.0
    deposit(acc, tid % 4, f[tid])
''', [arr("f", low=-2, high=2, bits=4), arr("v", "vec3"), arr("lap", role="output", bound=8.0),
      arr("s", role="output", bound=16.0), arr("acc", role="output", shape=(4,), bound=64.0)]),
    spec("struct_params", '''
@wp.struct
class Particles:
    scale: float
    count: int
    offset: wp.vec3
    frame: wp.mat33
    pos: wp.array(dtype=wp.vec3)
    mass: wp.array(dtype=float)
    out: wp.array(dtype=wp.vec3)


@wp.func
def weight(ps: Particles, i: int) -> float:
    return ps.mass[i] * ps.scale


@wp.kernel
def struct_params(ps: Particles, energy: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= ps.count:
        return
    p = ps.frame @ ps.pos[tid] + ps.offset
    ps.out[tid] = p * weight(ps, tid)
    energy[tid] = wp.dot(p, p) * ps.mass[tid]
''', [struct("ps", "Particles", [
        scal("scale", F, 1.5), scal("count", I, 40), vec_value("offset", "vec3", (0.25, -0.5, 1.0)),
        vec_value("frame", "mat33", (1.0, 0.0, 0.5, 0.0, 2.0, 0.0, -0.5, 0.0, 1.0)),
        arr("pos", "vec3"), arr("mass", low=0, high=2), arr("out", "vec3", "output", bound=32.0)]),
      arr("energy", role="output", bound=64.0)]),
    spec("arrays_shape_inplace", '''
@wp.kernel
def arrays_shape_inplace(a: wp.array2d(dtype=float), scale: float, b: wp.array2d(dtype=float), hist: wp.array(dtype=int),
                         r: wp.array(dtype=int), w: wp.array(dtype=wp.vec2)):
    i, j = wp.tid()
    n = a.shape[0]
    m = a.shape[1]
    if 0 <= i + 1 < n and 0 < j < m - 1:
        b[i, j] = a[i + 1, j] + a[i, j - 1] + a[i, j + 1]
    b[i, j] *= scale
    b[i, j] /= 2.0
    hist[(i + j) % len(hist)] += 1
    hist[0] -= 1
    if a[i, j] < 1:
        r[i * m + j] = 1
    else:
        r[i * m + j] = 2
    w[i * m + j] *= scale
''', [arr("a", shape=(6, 8)), scal("scale", F, 0.75), arr("b", role="output", shape=(6, 8), bound=8.0),
      arr("hist", I, "output", shape=(5,)), arr("r", I, "output", shape=(48,)),
      arr("w", "vec2", "inout", shape=(48,))], dim=(6, 8)),
    spec("spin_lock", '''
@wp.func
def lock_acquire(lock: wp.array(dtype=int)):
    while wp.atomic_cas(lock, 0, 0, 1) == 1:
        pass


@wp.func
def exchange_read(ptr: wp.array(dtype=int), index: int):
    value = wp.atomic_exch(ptr, index, 0)
    wp.atomic_exch(ptr, index, value)
    return value


@wp.kernel
def spin_lock(counter: wp.array(dtype=int), lock: wp.array(dtype=int), held: wp.array(dtype=float), a: wp.array(dtype=float),
              out: wp.array(dtype=float)):
    tid = wp.tid()
    lock_acquire(lock)
    counter[0] = exchange_read(counter, 0) + 1
    wp.atomic_exch(lock, 0, 0)
    out[tid] = wp.atomic_exch(held, tid, a[tid] * 2.0)
''', [arr("counter", I, "output", shape=(1,)), arr("lock", I, "output", shape=(1,)),
      arr("held", role="inout", bound=4.0), arr("a"), arr("out", role="output")]),
    spec("main", '''
@wp.func
def dot(a: wp.vec3, b: wp.vec3) -> float:
    return a[0] * b[0] - a[1] * b[1]


@wp.kernel
def main(blockDim: wp.array(dtype=wp.vec3), threadIdx: wp.array(dtype=wp.vec3), x: wp.array(dtype=float), h_x: float,
         out: wp.array(dtype=float), n: int):
    tid = wp.tid()
    cross = wp.cross(blockDim[tid], threadIdx[tid])
    length = wp.length(cross)
    auto = dot(cross, threadIdx[tid]) + x[tid] * h_x
    out[tid] = length + auto + wp.float32(n)
''', [arr("blockDim", "vec3"), arr("threadIdx", "vec3"), arr("x"), scal("h_x", F, 0.25),
      arr("out", role="output", bound=16.0), scal("n", I, 3)]),
    # threads skipped by a flag bit and by a mask; a vector gathered from one array per component;
    # a scatter through an index array read in the target's subscript (the index array stays read-only)
    spec("flag_bit_and_scatter", '''
ACTIVE = wp.constant(2)


@wp.kernel
def flag_bit_and_scatter(flags: wp.array(dtype=int), mask: wp.array(dtype=int), px: wp.array(dtype=float),
                         py: wp.array(dtype=float), pz: wp.array(dtype=float), owner: wp.array(dtype=int),
                         total: wp.array(dtype=wp.vec3), own: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    if (flags[tid] & ACTIVE) == 0:
        return
    p = wp.vec3(px[tid], py[tid], pz[tid])
    total[owner[tid]] += p
    if mask[tid] == 0:
        return
    own[tid] = p * 2.0
''', [arr("flags", I, low=0, high=7), arr("mask", I, low=0, high=1), arr("px"), arr("py"), arr("pz"),
      arr("owner", I, "index", high=7), arr("total", "vec3", "output", shape=(8,), bound=256.0),
      arr("own", "vec3", "output", bound=8.0)]),
    # a local first assigned in a loop and read after it (hoisted), updated in place in an inner
    # loop: the two passes of a softmax reuse one name for the score
    spec("hoisted_in_place", '''
@wp.kernel
def hoisted_in_place(q: wp.array2d(dtype=float), keys: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    tid = wp.tid()
    m = float(-1.0e30)
    for j in range(4):
        score = float(0.0)
        for c in range(3):
            score += q[tid, c] * keys[j, c]
        m = wp.max(m, score)
    denom = float(0.0)
    for j in range(4):
        score = float(0.0)
        for c in range(3):
            score += q[tid, c] * keys[j, c]
        denom += wp.exp(score - m)
    out[tid] = m + wp.log(denom) + score
''', [arr("q", shape=(64, 3)), arr("keys", shape=(4, 3)), arr("out", role="output", bound=32.0)]),
]


@pytest.fixture(scope="module")
def warp_results():
    return warp_reference(CASES, "test_translator_constructs")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_construct_matches_warp(case, warp_results, tmp_path):
    run = run_sample(tmp_path, case, warp_results[case.name])
    assert run.compiled, run.output
    assert run.passed, run.output


def test_an_index_array_read_in_a_stores_subscript_is_not_written():
    case = next(c for c in CASES if c.name == "flag_bit_and_scatter")
    kernel = translate_kernel(case.source, case.name, f"{case.name}.py")
    written = {p.name for p in kernel.params if p.kind == "array" and p.written}
    assert written == {"total", "own"}


def _static_case():
    return next(c for c in CASES if c.name == "static_expressions")


def test_a_wp_static_loop_is_unrolled_over_its_tuple_as_a_constant_array():
    """Warp unrolls `for t in range(wp.static(len(TAPS)))` and reads `wp.static(TAPS[t])` as one constant
    per trip; the .cu asks nvcc to unroll the loop and keeps the taps in constant memory."""
    case = _static_case()
    kernel = translate_kernel(case.source, case.name, f"{case.name}.py")
    lines = [line.strip() for line in kernel.kernel_code.splitlines()]
    loop = lines.index("for (int t = 0; t < 5; ++t) {")
    assert lines[loop - 1] == "#pragma unroll"
    assert "__constant__ float TAPS[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};" in kernel.device_code
    assert "__constant__ int OFFSETS[5] = {-2, -1, 0, 1, 2};" in kernel.device_code
    assert "acc += TAPS[t] * a[j];" in lines


def test_a_wp_static_expression_of_module_constants_becomes_one_literal():
    """`wp.static(1.0 / (3.0 * math.pi * H * H))` is Python arithmetic done when Warp builds the kernel: the
    .cu holds its value, rounded to float32 as Warp's constant is, and none of the arithmetic."""
    import math

    import numpy as np

    case = _static_case()
    code = translate_kernel(case.source, case.name, f"{case.name}.py").kernel_code
    stored = next(line for line in code.splitlines() if line.strip().startswith("out[tid] ="))
    literal = stored.split("acc * ")[1].rstrip(";").rstrip("f")
    assert np.float32(float(literal)) == np.float32(1.0 / (3.0 * math.pi * 0.5 * 0.5))
    assert "math" not in code and "3.0f" not in stored
    assert "tid % 5 + 5" in code  # wp.static(HALF + 3) and wp.static(len(OFFSETS))


UNROLL_SOURCE = '''import warp as wp

N_TAPS = wp.constant(6)


@wp.kernel
def loops(x: wp.array2d(dtype=float), n: int, out: wp.array(dtype=float)):
    tid = wp.tid()
    acc = float(0.0)
    for a in range(8):
        for b in range(a + 1, 8):
            acc += x[tid, a] * x[tid, b]
    for k in range(20):
        acc += x[tid, k % 8]
    for k in range(4):
        if x[tid, k] > 1.0:
            break
        acc += 1.0
    for k in range(n):
        acc -= x[tid, k % 8]
    for k in range(N_TAPS):
        acc += float(k)
    for k in range(2, 12, 3):
        acc *= 0.5
    out[tid] = acc
'''


def test_loops_are_unrolled_where_warp_unrolls_them():
    """`#pragma unroll` on the loops over literal bounds that Warp's codegen writes out (at most
    max_unroll trips, no break), none on the loops Warp keeps: its own CUDA has a loop label for each
    of those (the inner loop once per trip of the unrolled outer one). A module constant's loop,
    which Warp unrolls too, is left to nvcc (it knows the count as well)."""
    import re

    from extraction.ir_extractor import extract_ir_devices
    from extraction.loader import load_kernels, unload

    kernel = translate_kernel(UNROLL_SOURCE, "loops", "loops.py")
    lines = [line.strip() for line in kernel.kernel_code.splitlines()]
    unrolled = [lines[i - 1] == "#pragma unroll" for i, line in enumerate(lines) if line.startswith("for (")]
    assert unrolled == [True, False, False, False, False, False, True]
    try:
        warp_kernel = load_kernels(UNROLL_SOURCE.replace("import warp as wp\n", ""), "unroll_test")["loops"]
        forward = extract_ir_devices(warp_kernel, ("cuda",), False)["cuda"].forward
    finally:
        unload("unroll_test")
    assert len(set(re.findall(r"start_for_\d+", forward))) == 8 + 3
