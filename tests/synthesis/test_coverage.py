"""The construct inventory behind scripts/coverage.py, on planted sources."""
from __future__ import annotations

import textwrap

from synthesis.constructs import inventory_source


def constructs(source: str, kernel: str | None = None) -> frozenset[str]:
    kernels = inventory_source(textwrap.dedent(source))
    if kernel is None:
        assert len(kernels) == 1
        return kernels[0].constructs
    return next(k.constructs for k in kernels if k.name == kernel)


def test_small_kernel_reports_exactly_its_constructs():
    found = constructs("""
        @wp.kernel
        def scale(a: wp.array(dtype=float), out: wp.array[wp.float32], s: float):
            tid = wp.tid()
            out[tid] = wp.sin(a[tid]) * s
    """)
    assert found == {
        "param array ndim 1", "array dtype float32", "param float32", "wp.tid 1d", "store array element",
        "array index 1d", "load array element", "call wp.sin", "operator *",
    }


def test_syntax_constructs_are_named():
    found = constructs("""
        @wp.kernel(enable_backward=False)
        def k(a: wp.array(dtype=float), out: wp.array(dtype=float)):
            tid = wp.tid()
            if tid >= a.shape[0]:
                return
            x = a[tid]
            if 0.0 < x <= 1.0:
                x = x ** 2.0
            elif x > 2.0:
                x = wp.pi
            out[tid] += x
            out[tid] -= wp.clamp(x, low=0.0, high=1.0)
            s = (x, x)
    """)
    for c in ("@wp.kernel option enable_backward", ".shape", "early return", "chained comparison", "operator **",
              "elif", "wp.pi", "augmented assign array element +=", "augmented assign array element -=",
              "keyword argument to builtin", "tuple literal"):
        assert c in found, c


def test_constructs_not_present_are_not_reported():
    found = constructs("""
        @wp.kernel
        def k(a: wp.array(dtype=float), out: wp.array(dtype=float)):
            tid = wp.tid()
            out[tid] = a[tid] + 1.0
    """)
    absent = {"for range", "while", "if", "early return", "chained comparison", "operator **", ".shape", "wp.pi",
              "tuple literal", "keyword argument to builtin", "call @wp.func helper", "param struct",
              "augmented assign array element +=", "module global numeric", "module constant wp.constant"}
    assert not found & absent


def test_helper_constructs_count_for_the_calling_kernel():
    found = constructs("""
        @wp.func
        def split(v: wp.vec3, n: int, w: wp.array(dtype=float)):
            return v[0] * w[n], v[1]

        @wp.kernel
        def k(a: wp.array(dtype=wp.vec3), w: wp.array(dtype=float), out: wp.array(dtype=float)):
            tid = wp.tid()
            p, q = split(a[tid], tid, w)
            out[tid] = p - q
    """)
    for c in ("call @wp.func helper", "helper params 3+", "helper param by-value vec3", "helper param int32",
              "helper param array ndim 1", "helper returns tuple", "tuple unpacking", "component by index"):
        assert c in found, c
    assert "tuple literal" not in found  # a tuple return is its own construct


def test_helper_of_another_kernel_is_not_counted():
    source = """
        @wp.func
        def cube(x: float):
            return x * x * x

        @wp.kernel
        def uses(a: wp.array(dtype=float)):
            tid = wp.tid()
            a[tid] = cube(a[tid])

        @wp.kernel
        def plain(a: wp.array(dtype=float)):
            tid = wp.tid()
            a[tid] = a[tid] + 1.0
    """
    assert "call @wp.func helper" in constructs(source, "uses")
    assert "call @wp.func helper" not in constructs(source, "plain")


def test_struct_parameter_fields_and_access():
    found = constructs("""
        @wp.struct
        class Body:
            mass: float
            com: wp.vec3
            inertia: wp.mat33
            forces: wp.array(dtype=wp.vec3)

        @wp.kernel
        def k(body: Body, out: wp.array(dtype=wp.vec3)):
            tid = wp.tid()
            out[tid] = body.inertia * body.forces[tid] / body.mass
    """)
    for c in ("param struct", "struct field float32", "struct field vec3", "struct field mat33",
              "struct field array ndim 1", "array dtype vec3", "struct field read"):
        assert c in found, c
    assert "load array element" in found  # body.forces is an array field


def test_array_types_are_normalised():
    found = constructs("""
        @wp.kernel
        def k(a: wp.array2d(dtype=wp.vec3f), b: wp.array3d[wp.float64], c: wp.array(dtype=wp.uint32, ndim=2)):
            i, j = wp.tid()
            a[i, j] = wp.vec3f(float(b[i, j, 0]), 0.0, float(c[i, j]))
    """)
    for c in ("param array ndim 2", "param array ndim 3", "array dtype vec3", "array dtype float64",
              "array dtype uint32", "wp.tid 2d", "array index 2d", "array index 3d", "call wp.vec3"):
        assert c in found, c
    assert "array dtype vec3f" not in found and "param array ndim 1" not in found


def test_gathers_and_neighbour_offsets():
    found = constructs("""
        @wp.kernel
        def k(a: wp.array(dtype=float), idx: wp.array(dtype=int), out: wp.array(dtype=float)):
            tid = wp.tid()
            out[tid] = a[idx[tid]] + a[tid + 1]
    """)
    assert {"gather through index array", "index offset (neighbour)"} <= found


def test_module_level_constants_by_kind():
    source = """
        SCALE = wp.constant(2.0)
        STEPS = 8
        DT = 1.0 / STEPS
        TABLE = load_table()

        @wp.kernel
        def k(a: wp.array(dtype=float)):
            tid = wp.tid()
            a[tid] = a[tid] * SCALE + DT * float(STEPS)

        @wp.kernel
        def t(a: wp.array(dtype=float)):
            tid = wp.tid()
            a[tid] = TABLE
    """
    found = constructs(source, "k")
    assert {"module constant wp.constant", "module global numeric"} <= found
    assert "module global other" not in found
    assert "module global other" in constructs(source, "t")


def test_by_value_parameters_and_scalar_dtypes():
    found = constructs("""
        @wp.kernel
        def k(q: wp.quat, xf: wp.transform, m: wp.mat44, n: wp.int64, out: wp.array(dtype=wp.vec3)):
            tid = wp.tid()
            out[tid] = wp.transform_point(xf, wp.quat_rotate(q, out[tid]))
    """)
    for c in ("param by-value quat", "param by-value transform", "param by-value mat44", "param int64",
              "call wp.transform_point", "call wp.quat_rotate"):
        assert c in found, c


def test_loops_and_control_flow():
    found = constructs("""
        @wp.kernel
        def k(a: wp.array(dtype=float)):
            tid = wp.tid()
            acc = float(0.0)
            for i in range(0, 10, 2):
                if a[i] < 0.0:
                    continue
                while acc < 4.0:
                    acc += 1.0
                    break
            a[tid] = acc
    """)
    for c in ("for range", "range with step", "while", "continue", "break", "nested loop", "augmented assign local +="):
        assert c in found, c
    assert "augmented assign array element +=" not in found
