"""Each supported construct, checked numerically: the translated .cu run on the CPU vs Warp itself.

Every kernel below runs twice on the same inputs: through Warp on the CPU (the reference) and as
its translated .cu compiled with g++ through the host-emulation harness. The sample's own main()
compares all written arrays with Warp's values and prints PASS only if every element agrees.
"""
import pytest

from cuda_production.reference import warp_reference
from cuda_production.translator import translate_kernel
from tests.cuda_production.harness import arr, records, run_sample, scal, spec

F, I = "float32", "int32"

CASES = [
    spec("float_arith", '''
@wp.kernel
def float_arith(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    tid = wp.tid()
    out[tid] = (a[tid] + 1.5) * b[tid] - a[tid] / (wp.abs(b[tid]) + 0.5) - -a[tid]
''', [arr("a"), arr("b"), arr("out", role="output", bound=16.0)]),
    spec("int_div_mod", '''
@wp.kernel
def int_div_mod(a: wp.array(dtype=int), b: wp.array(dtype=int), q: wp.array(dtype=int), r: wp.array(dtype=int),
                f: wp.array(dtype=int)):
    tid = wp.tid()
    d = b[tid]
    if d == 0:
        d = 3
    q[tid] = a[tid] / d
    r[tid] = a[tid] % d
    f[tid] = a[tid] // d
''', [arr("a", I, low=-50, high=50), arr("b", I, low=-7, high=7), arr("q", I, "output"), arr("r", I, "output"),
      arr("f", I, "output")]),
    spec("range_bound_written_in_loop", '''
@wp.kernel
def range_bound_written_in_loop(counts: wp.array(dtype=int), trips: wp.array(dtype=float)):
    tid = wp.tid()
    acc = float(0.0)
    for k in range(counts[tid]):
        counts[tid] = counts[tid] - 1
        acc += 1.0
    trips[tid] = acc
''', [arr("counts", I, "inout", low=0, high=9), arr("trips", role="output", bound=9.0)]),
    spec("float_mod_floordiv", '''
@wp.kernel
def float_mod_floordiv(a: wp.array(dtype=float), m: wp.array(dtype=float), fd: wp.array(dtype=float)):
    tid = wp.tid()
    m[tid] = a[tid] % 0.75
    fd[tid] = a[tid] // 0.5
''', [arr("a", low=-4, high=4), arr("m", role="output"), arr("fd", role="output", bound=8.0)]),
    spec("casts", '''
@wp.kernel
def casts(a: wp.array(dtype=float), i: wp.array(dtype=int), to_int: wp.array(dtype=int), to_float: wp.array(dtype=float)):
    tid = wp.tid()
    to_int[tid] = int(a[tid] * 3.0) + wp.int32(-2.75)
    to_float[tid] = float(i[tid]) / 4.0 + wp.float32(tid)
''', [arr("a", low=-3, high=3), arr("i", I, low=-9, high=9), arr("to_int", I, "output"),
      arr("to_float", role="output", bound=80.0)]),
    spec("where_ifexp", '''
@wp.kernel
def where_ifexp(a: wp.array(dtype=float), b: wp.array(dtype=float), w: wp.array(dtype=float), t: wp.array(dtype=float)):
    tid = wp.tid()
    w[tid] = wp.where(a[tid] > b[tid], a[tid], b[tid] * 2.0)
    t[tid] = a[tid] if a[tid] < 0.0 else -b[tid]
''', [arr("a"), arr("b"), arr("w", role="output"), arr("t", role="output")]),
    spec("math_builtins", '''
@wp.kernel
def math_builtins(a: wp.array(dtype=float), b: wp.array(dtype=float), o1: wp.array(dtype=float), o2: wp.array(dtype=float),
                  o3: wp.array(dtype=float)):
    tid = wp.tid()
    x = a[tid]
    y = b[tid]
    o1[tid] = wp.sin(x) + wp.cos(y) + wp.tan(x * 0.5) + wp.tanh(y) + wp.exp(x) + wp.log(wp.abs(y) + 1.0)
    o2[tid] = wp.sqrt(wp.abs(x)) + wp.pow(wp.abs(y) + 1.0, 1.5) + wp.atan2(x, y + 3.0) + wp.floor(x) + wp.ceil(y)
    o3[tid] = wp.sign(x) + wp.sinh(y * 0.5) + wp.cosh(x * 0.5) + wp.atan(y) + wp.log2(wp.abs(x) + 1.0) + wp.trunc(y)
''', [arr("a"), arr("b"), arr("o1", role="output", bound=16.0), arr("o2", role="output", bound=16.0),
      arr("o3", role="output", bound=16.0)]),
    spec("min_max_clamp", '''
@wp.kernel
def min_max_clamp(a: wp.array(dtype=float), i: wp.array(dtype=int), fo: wp.array(dtype=float), io: wp.array(dtype=int)):
    tid = wp.tid()
    fo[tid] = wp.min(a[tid], 0.5) + max(a[tid], -0.25) + wp.clamp(a[tid], -1.0, 1.0) + abs(a[tid])
    io[tid] = wp.min(i[tid], 3) + max(i[tid], -2) + wp.clamp(i[tid], -4, 4) + abs(i[tid]) + wp.sign(i[tid])
''', [arr("a"), arr("i", I, low=-9, high=9), arr("fo", role="output", bound=8.0), arr("io", I, "output")]),
    spec("vector_ops", '''
@wp.kernel
def vector_ops(u: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), s: wp.array(dtype=float),
               ov: wp.array(dtype=wp.vec3), os: wp.array(dtype=float)):
    tid = wp.tid()
    a = u[tid]
    b = v[tid]
    c = wp.cross(a, b) + 2.0 * a - b * s[tid] + -a / 2.0
    c[1] = c[1] + 1.0
    c.z = c.z * 0.5
    ov[tid] = c + wp.normalize(a) + wp.vec3(s[tid], 1.0, -1.0) + wp.min(a, b) + wp.max(a, b)
    os[tid] = wp.dot(a, b) + wp.length(b) + wp.length_sq(a) + a[0] + b.y + c[2]
''', [arr("u", "vec3"), arr("v", "vec3"), arr("s"), arr("ov", "vec3", "output", bound=32.0),
      arr("os", role="output", bound=32.0)]),
    spec("vec2_vec4", '''
@wp.kernel
def vec2_vec4(p: wp.array(dtype=wp.vec2), q: wp.array(dtype=wp.vec4), o2: wp.array(dtype=wp.vec2), o4: wp.array(dtype=wp.vec4)):
    tid = wp.tid()
    o2[tid] = wp.normalize(p[tid]) * 3.0 + wp.vec2(wp.dot(p[tid], p[tid]), 0.0)
    o4[tid] = q[tid] - wp.vec4(1.0) + wp.normalize(wp.vec4(0.0, 0.0, 0.0, 0.0)) * q[tid].w
''', [arr("p", "vec2"), arr("q", "vec4"), arr("o2", "vec2", "output", bound=16.0),
      arr("o4", "vec4", "output", bound=8.0)]),
    spec("matrix_ops", '''
@wp.kernel
def matrix_ops(m: wp.array(dtype=wp.mat33), n: wp.array(dtype=wp.mat33), v: wp.array(dtype=wp.vec3),
               om: wp.array(dtype=wp.mat33), ov: wp.array(dtype=wp.vec3), oe: wp.array(dtype=float)):
    tid = wp.tid()
    a = m[tid]
    b = n[tid]
    om[tid] = a @ b + wp.transpose(a) * 2.0 - wp.outer(v[tid], v[tid]) + wp.mul(a, b) - -b
    ov[tid] = a @ v[tid] + b * v[tid] + a[1]
    oe[tid] = a[0, 1] + b[2][0] + wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)[1, 2]
''', [arr("m", "mat33", low=-1, high=1), arr("n", "mat33", low=-1, high=1), arr("v", "vec3", low=-1, high=1),
      arr("om", "mat33", "output", bound=16.0), arr("ov", "vec3", "output", bound=16.0),
      arr("oe", role="output", bound=16.0)]),
    spec("mat22_mat44", '''
@wp.kernel
def mat22_mat44(a: wp.array(dtype=wp.mat22), b: wp.array(dtype=wp.mat44), v: wp.array(dtype=wp.vec4),
                o2: wp.array(dtype=wp.mat22), o4: wp.array(dtype=wp.vec4)):
    tid = wp.tid()
    o2[tid] = a[tid] * a[tid] - wp.transpose(a[tid])
    o4[tid] = (b[tid] @ b[tid]) @ v[tid]
''', [arr("a", "mat22", low=-1, high=1), arr("b", "mat44", low=-1, high=1), arr("v", "vec4", low=-1, high=1),
      arr("o2", "mat22", "output", bound=8.0), arr("o4", "vec4", "output", bound=64.0)]),
    spec("branches", '''
@wp.kernel
def branches(a: wp.array(dtype=float), out: wp.array(dtype=float), code: wp.array(dtype=int)):
    tid = wp.tid()
    x = a[tid]
    if x < -1.0:
        y = -x
        code[tid] = 1
    elif x < 0.0 and not (x == -0.5):
        y = x * x
        code[tid] = 2
    elif -0.25 <= x < 0.5 or x > 1.75:
        y = 2.0
        code[tid] = 3
    else:
        y = x - 1.0
        code[tid] = 4
    out[tid] = y
''', [arr("a"), arr("out", role="output"), arr("code", I, "output")]),
    spec("loops", '''
@wp.kernel
def loops(a: wp.array(dtype=float), k: int, s: int, out: wp.array(dtype=float), cnt: wp.array(dtype=int)):
    tid = wp.tid()
    acc = float(0.0)
    for i in range(k):
        acc += a[tid] * float(i)
    for i in range(10, 2, -3):
        acc = acc + float(i)
    for i in range(2, 12, 3):
        if i == 5:
            continue
        acc -= float(i) * 0.5
    for i in range(k, -k, s):
        acc += 0.25
    n = int(0)
    while n < 20:
        n += 1
        if float(n) > a[tid] * 4.0 + 8.0:
            break
    for i in range(3):
        for j in range(i, 4):
            acc = acc + float(i * j)
    out[tid] = acc
    cnt[tid] = n
''', [arr("a"), scal("k", I, 5), scal("s", I, -2), arr("out", role="output", bound=64.0), arr("cnt", I, "output")]),
    spec("early_return", '''
@wp.kernel
def early_return(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    tid = wp.tid()
    out[tid] = 1.0
    if a[tid] < 0.0:
        return
    out[tid] = a[tid]
''', [arr("a"), arr("out", role="inout")]),
    spec("atomics_float", '''
@wp.kernel
def atomics_float(a: wp.array(dtype=float), idx: wp.array(dtype=int), sums: wp.array(dtype=float),
                  lo: wp.array(dtype=float), hi: wp.array(dtype=float), own: wp.array(dtype=float), old: wp.array(dtype=float)):
    tid = wp.tid()
    wp.atomic_add(sums, idx[tid], a[tid])
    wp.atomic_sub(sums, 0, a[tid] * 0.5)
    sums[1] += 1.0
    sums[2] -= a[tid]
    wp.atomic_min(lo, tid % 4, a[tid])
    wp.atomic_max(hi, idx[tid], a[tid])
    old[tid] = wp.atomic_add(own, tid, a[tid])
''', [arr("a", low=-4, high=4, bits=3), arr("idx", I, "index", high=7), arr("sums", role="output", shape=(8,), bound=600.0),
      arr("lo", role="output", shape=(4,)), arr("hi", role="inout", shape=(8,), low=-4, high=4, bits=3),
      arr("own", role="inout", low=-4, high=4, bits=3, bound=8.0), arr("old", role="output")]),
    spec("atomics_int_vec", '''
@wp.kernel
def atomics_int_vec(a: wp.array(dtype=int), v: wp.array(dtype=wp.vec3), ia: wp.array(dtype=int), ib: wp.array(dtype=int),
                    vs: wp.array(dtype=wp.vec3), vm: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    wp.atomic_add(ia, tid % 3, a[tid])
    wp.atomic_sub(ia, 3, a[tid])
    wp.atomic_min(ib, 0, a[tid])
    wp.atomic_max(ib, 1, a[tid])
    ib[2] += 1
    wp.atomic_add(vs, tid % 2, v[tid])
    wp.atomic_max(vm, 0, v[tid])
    wp.atomic_min(vm, 1, v[tid])
''', [arr("a", I, low=-50, high=50), arr("v", "vec3", low=-4, high=4, bits=3), arr("ia", I, "output", shape=(4,)),
      arr("ib", I, "output", shape=(3,)), arr("vs", "vec3", "output", shape=(2,), bound=200.0),
      arr("vm", "vec3", "output", shape=(2,))]),
    spec("grid_2d", '''
@wp.kernel
def grid_2d(a: wp.array2d(dtype=float), b: wp.array[float], out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    out[i, j] = a[i, j] * 2.0 + b[j] - float(i * 100 + j)
''', [arr("a", shape=(12, 20)), arr("b", shape=(20,)), arr("out", role="output", shape=(12, 20), bound=2000.0)],
        dim=(12, 20)),
    spec("grid_3d", '''
@wp.kernel
def grid_3d(a: wp.array3d(dtype=float), out: wp.array3d(dtype=float), flat: wp.array(dtype=int)):
    i, j, k = wp.tid()
    out[i, j, k] = a[i, j, k] + float(i) - float(j) * 0.5 + float(k) * 0.25
    flat[(i * 5 + j) * 6 + k] = i * 100 + j * 10 + k
''', [arr("a", shape=(4, 5, 6)), arr("out", role="output", shape=(4, 5, 6), bound=8.0),
      arr("flat", I, "output", shape=(120,))], dim=(4, 5, 6)),
    spec("grid_4d", '''
@wp.kernel
def grid_4d(a: wp.array4d(dtype=float), gain: wp.array(dtype=float), out: wp.array(dtype=float, ndim=4), flat: wp.array(dtype=int)):
    n, c, y, x = wp.tid()
    out[n, c, y, x] = a[n, c, y, x] * gain[c] + float(n) - float(c) * 0.5 + float(y) * 0.25 - float(x) * 0.125
    flat[((n * a.shape[1] + c) * a.shape[2] + y) * a.shape[3] + x] = ((n * 10 + c) * 10 + y) * 10 + x
''', [arr("a", shape=(3, 4, 5, 6)), arr("gain", shape=(4,)), arr("out", role="output", shape=(3, 4, 5, 6), bound=16.0),
      arr("flat", I, "output", shape=(360,))], dim=(3, 4, 5, 6)),
    spec("narrow_and_wide_ints", '''
@wp.kernel
def narrow_and_wide_ints(q: wp.array(dtype=wp.int8), u: wp.array(dtype=wp.uint8), ids: wp.array(dtype=wp.int64),
                         x: wp.array(dtype=float), s8: wp.array(dtype=wp.int8), s_u8: wp.array(dtype=wp.uint8),
                         s64: wp.array(dtype=wp.int64), out: wp.array(dtype=float)):
    tid = wp.tid()
    a = q[tid]
    b = wp.int8(100)
    s8[tid] = (a + b) / wp.int8(3) - -a * wp.int8(3) % wp.int8(7)
    s_u8[tid] = u[tid] * wp.uint8(3) + wp.uint8(200) ^ u[tid]
    s64[tid] = ids[tid] * wp.int64(300000) * wp.int64(30000) - wp.int64(tid) / wp.int64(7)
    v = wp.clamp(wp.round(x[tid] * 40.0), -127.0, 127.0)
    if a < 0 and u[tid] > wp.uint8(128):
        v = -v
    out[tid] = float(wp.int8(v)) + float(u[tid]) * 0.5 + float(int(ids[tid]) % 5) + float(wp.uint8(wp.int32(a) + 256))
''', [arr("q", "int8", low=-128, high=127), arr("u", "uint8", low=0, high=255), arr("ids", "int64", low=-9, high=9),
      arr("x", low=-4, high=4), arr("s8", "int8", "output"), arr("s_u8", "uint8", "output"),
      arr("s64", "int64", "output"), arr("out", role="output", bound=512.0)]),
    spec("narrow_and_wide_int_builtins", '''
@wp.kernel
def narrow_and_wide_int_builtins(q: wp.array(dtype=wp.int8), u: wp.array(dtype=wp.uint8), ids: wp.array(dtype=wp.int64),
                                 s8: wp.array(dtype=wp.int8), s_u8: wp.array(dtype=wp.uint8), s64: wp.array(dtype=wp.int64)):
    tid = wp.tid()
    a = q[tid]
    s8[tid] = wp.min(a + wp.int8(100), wp.abs(a)) - wp.clamp(a, wp.int8(-20), wp.int8(30)) + (a >> wp.int8(2)) + (a << wp.int8(3))
    s_u8[tid] = wp.max(u[tid], wp.uint8(40)) + wp.clamp(u[tid] << wp.uint8(1), wp.uint8(10), wp.uint8(200)) + wp.abs(u[tid])
    big = ids[tid] * wp.int64(300000) * wp.int64(30000)
    s64[tid] = wp.clamp(big, -big / wp.int64(3), big * wp.int64(2)) + wp.max(wp.abs(big), wp.int64(7)) + (big >> wp.int64(20))
''', [arr("q", "int8", low=-128, high=127), arr("u", "uint8", low=0, high=255), arr("ids", "int64", low=-9, high=9),
      arr("s8", "int8", "output"), arr("s_u8", "uint8", "output"), arr("s64", "int64", "output")]),
    spec("int_floor_division", '''
@wp.kernel
def int_floor_division(q: wp.array(dtype=wp.int8), d: wp.array(dtype=wp.int8), u: wp.array(dtype=wp.uint8),
                       pcm: wp.array(dtype=wp.int16), depth: wp.array(dtype=wp.uint16), ids: wp.array(dtype=wp.int64),
                       s8: wp.array(dtype=wp.int8), s_u8: wp.array(dtype=wp.uint8), s16: wp.array(dtype=wp.int16),
                       u16: wp.array(dtype=wp.uint16), s64: wp.array(dtype=wp.int64)):
    tid = wp.tid()
    s8[tid] = q[tid] // d[tid] + q[tid] // -d[tid] + q[tid] // wp.int8(-128) // wp.int8(-1)
    s_u8[tid] = u[tid] // wp.uint8(7) + u[tid] // wp.uint8(d[tid])
    s16[tid] = pcm[tid] // wp.int16(-300) + pcm[tid] // wp.int16(d[tid])
    u16[tid] = depth[tid] // wp.uint16(1000) + depth[tid] // wp.uint16(d[tid])
    s64[tid] = ids[tid] * wp.int64(300000) * wp.int64(30000) // wp.int64(-7) + ids[tid] // wp.int64(d[tid])
''', [arr("q", "int8", low=-128, high=127), arr("d", "int8", low=1, high=9), arr("u", "uint8", low=0, high=255),
      arr("pcm", "int16", low=-32768, high=32767), arr("depth", "uint16", low=0, high=65535),
      arr("ids", "int64", low=-9, high=9), arr("s8", "int8", "output"), arr("s_u8", "uint8", "output"),
      arr("s16", "int16", "output"), arr("u16", "uint16", "output"), arr("s64", "int64", "output")]),
    spec("sixteen_bit_ints", '''
@wp.kernel
def sixteen_bit_ints(pcm: wp.array(dtype=wp.int16), depth: wp.array(dtype=wp.uint16), s16: wp.array(dtype=wp.int16),
                     u16: wp.array(dtype=wp.uint16), out: wp.array(dtype=float)):
    tid = wp.tid()
    a = pcm[tid]
    s16[tid] = (a + wp.int16(30000)) - -a * wp.int16(3) + wp.abs(a) / wp.int16(7) + wp.clamp(a, wp.int16(-900), wp.int16(800))
    u16[tid] = depth[tid] * wp.uint16(3) + wp.max(depth[tid], wp.uint16(1000)) + (depth[tid] >> wp.uint16(2))
    out[tid] = float(a) / 32768.0 + float(depth[tid]) * 0.001 + float(wp.int16(float(a) * 0.5))
''', [arr("pcm", "int16", low=-32768, high=32767), arr("depth", "uint16", low=0, high=65535),
      arr("s16", "int16", "output"), arr("u16", "uint16", "output"), arr("out", role="output", bound=70000.0)]),
    spec("funcs_constants", '''
SCALE = wp.constant(1.5)
OFFSET = 3

@wp.func
def square(x: float) -> float:
    return x * x

@wp.func
def blend(x: float, y: float, t: float) -> float:
    if t < 0.0:
        return x
    return square(x) * (1.0 - t) + y * t

@wp.func
def bump(v: wp.vec3) -> wp.vec3:
    return v * SCALE

@wp.kernel
def funcs_constants(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float), ov: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    out[tid] = blend(a[tid], SCALE, a[tid] * 0.5) + float(OFFSET)
    ov[tid] = bump(v[tid])
''', [arr("a"), arr("v", "vec3"), arr("out", role="output", bound=16.0), arr("ov", "vec3", "output", bound=4.0)]),
    spec("bits_and_hoisting", '''
@wp.kernel
def bits_and_hoisting(i: wp.array(dtype=int), out: wp.array(dtype=int), f: wp.array(dtype=float)):
    tid = wp.tid()
    x = i[tid]
    y = (x & 12) | (x ^ 5) + (x << 2) - (x >> 1) + ~x
    if x > 0:
        first = y * 2
        z = 1.5
    else:
        first = y - 7
        z = -2.5
    total = int(0)
    for k in range(4):
        total += k * first
        last = k
    out[tid] = first + total + last
    f[tid] = z
''', [arr("i", I, low=-100, high=100), arr("out", I, "output"), arr("f", role="output")]),
    # a component at a runtime index assigned to (C reads it through a by-value helper: no lvalue)
    spec("vector_component_stores", '''
@wp.kernel
def vector_component_stores(a: wp.array(dtype=wp.vec4), s: wp.array(dtype=float), out: wp.array(dtype=wp.vec4)):
    tid = wp.tid()
    v = a[tid]
    for k in range(4):
        v[k] = v[k] * s[tid] + float(k)
    v[tid % 4] -= 1.0
    v.y += v[0]
    out[tid] = v
''', [arr("a", "vec4"), arr("s"), arr("out", "vec4", "output", bound=16.0)]),
    # matrix rows assigned to and updated in place (C has no lvalue for a row of float m[3][3])
    spec("matrix_row_stores", '''
@wp.kernel
def matrix_row_stores(a: wp.array(dtype=wp.vec3), s: wp.array(dtype=float), out: wp.array(dtype=wp.mat33)):
    tid = wp.tid()
    c = wp.mat33()
    x = a[tid]
    for r in range(3):
        for k in range(3):
            c[r, k] += x[r] * x[k]
    c[1] += x
    c[0] -= wp.cross(x, wp.vec3(0.0, 0.0, 1.0))
    c[2] = x * 2.0
    c[tid % 3] *= s[tid]
    c[(tid + 1) % 3] /= 2.0
    out[tid] = c
''', [arr("a", "vec3"), arr("s"), arr("out", "mat33", "output", bound=32.0)]),
    # a rotation from a quaternion, advanced by the cross-product matrix of an angular velocity, then
    # made orthonormal again row by row (Gram-Schmidt)
    spec("rotation_rows", '''
@wp.kernel
def rotation_rows(rot: wp.array(dtype=wp.quat), omega: wp.array(dtype=wp.vec3), dt: float, out: wp.array(dtype=wp.mat33)):
    tid = wp.tid()
    R = wp.quat_to_matrix(wp.normalize(rot[tid]))
    R = R + dt * wp.skew(omega[tid]) @ R
    R[0] = wp.normalize(R[0])
    R[1] = wp.normalize(R[1] - wp.dot(R[1], R[0]) * R[0])
    R[2] = wp.cross(R[0], R[1])
    out[tid] = R
''', [arr("rot", "quat"), arr("omega", "vec3"), scal("dt", F, 0.125), arr("out", "mat33", "output", bound=2.0)]),
    # a diagonal matrix from a vector (a body's principal moments of inertia), inverted and applied
    spec("diagonal_matrices", '''
@wp.kernel
def diagonal_matrices(moments: wp.array(dtype=wp.vec3), w: wp.array(dtype=wp.vec3), d: wp.array(dtype=wp.vec2), out: wp.array(dtype=wp.vec3), m2: wp.array(dtype=wp.mat22)):
    tid = wp.tid()
    I = wp.diag(moments[tid])
    out[tid] = wp.inverse(I) * w[tid] + I * w[tid]
    m2[tid] = wp.diag(d[tid] * 2.0)
''', [arr("moments", "vec3", low=1.0, high=2.0), arr("w", "vec3"), arr("d", "vec2"),
         arr("out", "vec3", "output", bound=8.0), arr("m2", "mat22", "output", bound=4.0)]),
    # arrays of records: a copy modified and stored whole, members read in place, atomics on members
    # of other threads' records (Warp adds `a[i].f += x` atomically), zeroed and keyword-built structs
    spec("record_copies", '''
@wp.struct
class Body:
    pos: wp.vec3
    vel: wp.vec3
    inv_mass: float
    hits: int

@wp.kernel
def record_copies(bodies: wp.array(dtype=Body), dt: float, out: wp.array(dtype=float)):
    tid = wp.tid()
    b = bodies[tid]
    b.vel = b.vel + wp.vec3(0.0, -9.75, 0.0) * dt * b.inv_mass
    b.pos += b.vel * dt
    out[tid] = bodies[tid].vel[1] + b.vel[1]
    if b.pos[1] < 0.0:
        b.pos = wp.vec3(b.pos[0], 0.0, b.pos[2])
        b.hits += 1
    bodies[tid] = b
''', [records("bodies", "Body", [arr("pos", "vec3", "inout"), arr("vel", "vec3", "inout"),
                                   arr("inv_mass", F, "inout", low=0.0, high=2.0, bits=2),
                                   arr("hits", I, "inout", low=0, high=3)]),
         scal("dt", F, 0.125), arr("out", role="output", bound=8.0)]),
    spec("record_members", '''
@wp.struct
class Contact:
    pos: wp.vec3
    force: wp.vec3
    count: int
    weight: float

@wp.kernel(enable_backward=False)  # Warp differentiates no `a[i].f *= x`
def record_members(recs: wp.array(dtype=Contact), pairs: wp.array(dtype=int), scratch: wp.array(dtype=Contact)):
    tid = wp.tid()
    j = pairs[tid]
    d = recs[j].pos - recs[tid].pos
    recs[j].force += d * 0.5
    recs[(tid + 3) % 64].force[1] -= 0.25
    recs[tid].count += 1
    recs[tid].weight *= 0.5
    r = Contact()
    r.force = d
    r.weight = wp.length(d)
    scratch[tid] = r
    c = Contact(pos=d, force=wp.vec3(1.0, 2.0, 3.0), count=2, weight=0.5)
    scratch[tid].pos = c.pos * 2.0
    scratch[tid].count += c.count
''', [records("recs", "Contact", [arr("pos", "vec3"), arr("force", "vec3", "inout", bound=64.0),
                                     arr("count", I, "inout", low=0, high=5), arr("weight", F, "inout")]),
         arr("pairs", I, "index", high=63),
         records("scratch", "Contact", [arr("pos", "vec3", "output", bound=16.0), arr("force", "vec3", "output"),
                                        arr("count", I, "output"), arr("weight", F, "output", bound=8.0)])]),
    # a record stored last in both branches of an if/else: one store after the branches
    spec("record_branch_stores", '''
@wp.struct
class Hit:
    point: wp.vec3
    depth: float
    side: int

@wp.kernel
def record_branch_stores(x: wp.array(dtype=wp.vec3), hits: wp.array(dtype=Hit), flags: wp.array(dtype=Hit)):
    tid = wp.tid()
    p = x[tid]
    depth = 0.5 - p[1]
    if depth > 0.0:
        h = Hit()
        h.point = wp.vec3(p[0], 0.5, p[2])
        h.depth = depth
        h.side = 1
        hits[tid] = h
    else:
        hits[tid] = Hit(point=p, depth=-depth, side=-1)
    if depth > 1.0:
        flags[tid].side = 2
    else:
        flags[tid] = Hit()
''', [arr("x", "vec3"), records("hits", "Hit", [arr("point", "vec3", "output"), arr("depth", F, "output", bound=4.0),
                                                 arr("side", I, "output")]),
         records("flags", "Hit", [arr("point", "vec3", "inout"), arr("depth", F, "inout"), arr("side", I, "inout", low=0, high=3)])]),
    spec("scalar_params", '''
@wp.kernel
def scalar_params(a: wp.array[float], alpha: float, shift: int, out: wp.array[float]):
    tid = wp.tid()
    out[tid] = alpha * a[tid] + float(shift)
''', [arr("a"), scal("alpha", F, -0.625), scal("shift", I, -3), arr("out", role="output", bound=8.0)]),
]


@pytest.fixture(scope="module")
def warp_results():
    return warp_reference(CASES, "test_translator_semantics")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_construct_matches_warp(case, warp_results, tmp_path):
    run = run_sample(tmp_path, case, warp_results[case.name])
    assert run.compiled, run.output
    assert run.passed, run.output


def _kernel_lines(name: str) -> list[str]:
    case = next(c for c in CASES if c.name == name)
    code = translate_kernel(case.source, case.name, f"{case.name}.py").kernel_code
    return [line.strip() for line in code.splitlines()]


def test_a_member_of_an_array_element_is_added_to_atomically_as_warp_adds_to_it():
    """Warp makes `a[i].f += x` and `a[i].f[k] -= y` atomic (array_atomic_add_slot): other threads
    may hold the same i. `*=` is a plain load and store in Warp, and in the .cu."""
    lines = _kernel_lines("record_members")
    assert "atomicAddFloat3(&recs[j].force, d * 0.5f);" in lines
    assert "atomicAdd(&recs[(tid + 3) % 64].force.y, -0.25f);" in lines
    assert "atomicAdd(&recs[tid].count, 1);" in lines
    assert "recs[tid].weight *= 0.5f;" in lines


def test_a_record_stored_last_in_both_branches_is_stored_once_after_them():
    """`if c: ...; hits[tid] = h` / `else: hits[tid] = Hit(...)`: a warp taking both branches would
    write each record twice, member by member; one store after the branches writes it once. Not
    where a branch ends with something else (`flags`)."""
    lines = _kernel_lines("record_branch_stores")
    assert [line for line in lines if line.startswith("hits")] == ["hits_value = h;", "hits_value = Hit{p, -depth, -1};",
                                                                    "hits[tid] = hits_value;"]
    assert "Hit hits_value;" in lines
    assert [line for line in lines if line.startswith("flags")] == ["flags[tid].side = 2;", "flags[tid] = Hit{};"]


def test_a_record_store_whose_index_a_branch_changes_stays_in_its_branch():
    source = ("@wp.struct\nclass Hit:\n    depth: float\n\n@wp.kernel\ndef k(x: wp.array(dtype=float), "
              "hits: wp.array(dtype=Hit)):\n    tid = wp.tid()\n    i = tid\n    if x[tid] > 0.0:\n"
              "        hits[i] = Hit()\n    else:\n        i = 0\n        hits[i] = Hit(depth=x[tid])\n")
    lines = [line.strip() for line in translate_kernel(source, "k", "k.py").kernel_code.splitlines()]
    assert "hits[i] = Hit{};" in lines and "hits[i] = Hit{x[tid]};" in lines


def test_a_record_is_copied_and_stored_whole():
    lines = _kernel_lines("record_copies")
    assert "Body b = bodies[tid];" in lines and "bodies[tid] = b;" in lines
    assert "b.hits += 1;" in lines  # the local copy's member: no atomic


def test_a_matrix_row_is_read_and_assigned_through_named_helpers():
    """`R[1] = wp.normalize(R[1] - ...)` reads as one statement, not three component assignments of
    `make_float3(R.m[1][0], R.m[1][1], R.m[1][2])` spelled out again at every read."""
    lines = _kernel_lines("rotation_rows")
    assert "set_row(R, 2, cross(get_row(R, 0), get_row(R, 1)));" in lines
    assert not any("make_float3(R.m" in line or line.startswith("R.m[") for line in lines)


def test_a_row_updated_in_place_reads_the_row_it_writes():
    lines = _kernel_lines("matrix_row_stores")
    assert "set_row(c, 1, get_row(c, 1) + x);" in lines
    assert "set_row(c, tid % 3, get_row(c, tid % 3) * s[tid]);" in lines


def test_a_component_at_a_runtime_index_is_assigned_through_a_reference():
    lines = _kernel_lines("vector_component_stores")
    assert "component_ref(v, k) = component(v, k) * s[tid] + (float)k;" in lines
