"""Kernels defined inside functions and generic kernels (`cuda_production.kernel_instances`): translated as
module-level kernels with unique names, proven equal to Warp, or refused with one line naming the cause."""
from __future__ import annotations

import ast
import re
import shutil

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda_production.translate import main
from cuda_production.translator import TranslationError, parse_module, translate_source
from cuda_production.user_inputs import InputsError, load_inputs_file

FACTORIES = '''import warp as wp
from typing import Any

SCALE = 2.0


def make_shift():
    print("factory code: never part of a sample")
    OFFSET = 3
    FACTOR = wp.constant(1.5)
    HALF = FACTOR * 0.5
    dt = wp.float32

    @wp.kernel
    def shift(a: wp.array(dtype=dt), b: wp.array(dtype=float)):
        i = wp.tid()
        b[i] = a[i] * HALF + float(OFFSET) * SCALE

    return shift


def make_other():
    OFFSET = 7

    @wp.kernel
    def shift(a: wp.array(dtype=float), b: wp.array(dtype=float)):
        i = wp.tid()
        b[i] = a[i] + float(OFFSET)

    return shift


def make_scaled(gain):
    @wp.kernel
    def scaled(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * gain

    return scaled


def make_gain(g, dtype):
    G2 = g * 2

    @wp.kernel
    def gained(a: wp.array(dtype=dtype), b: wp.array(dtype=dtype)):
        i = wp.tid()
        b[i] = a[i] * dtype(G2)

    return gained


@wp.kernel
def twice(a: wp.array(dtype=Any), b: wp.array(dtype=Any)):
    i = wp.tid()
    b[i] = a[i] + a[i]


wp.overload(twice, {"a": wp.array(dtype=wp.float32), "b": wp.array(dtype=wp.float32)})


@wp.overload
def twice(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3)):
    ...


@wp.kernel
def axpy(x: wp.array(dtype=Any), y: wp.array(dtype=Any), alpha: Any):
    i = wp.tid()
    y[i] = y[i] + alpha * x[i]


@wp.kernel
def undeclared(a: wp.array(dtype=Any)):
    i = wp.tid()
    a[i] = a[i] + a[i]
'''


def line_of(text: str) -> int:
    return next(k for k, line in enumerate(FACTORIES.splitlines(), 1) if text in line)


TYPES = ('[axpy]\ntypes = {x = "float32", y = "float32", alpha = "float32"}\n'
         '[gained]\ncaptures = {g = 1.25, dtype = "float32"}\n')


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    base = tmp_path_factory.mktemp("instances")
    (base / "user.py").write_text(FACTORIES)
    (base / "types.toml").write_text(TYPES)
    result = CliRunner().invoke(main, [str(base / "user.py"), "-o", str(base / "out"), "--inputs",
                                       str(base / "types.toml"), "--reference", "--check"])
    return result.exit_code, result.stdout, result.stderr, base / "out"


def test_nested_and_generic_kernels_are_written_and_equal_to_warp(run):
    _, out, _, _ = run
    written = {line.split(":")[0]: line for line in out.splitlines()}
    assert set(written) == {"make_shift_shift", "make_other_shift", "gained", "twice_float32", "twice_vec3", "axpy"}
    assert all(line.endswith(": equal to Warp (host emulation)") for line in written.values()), out


def test_runtime_capture_and_undeclared_generic_are_refused_one_line_each(run):
    code, _, err, out = run
    lines = err.splitlines()
    assert code == 2 and len(lines) == 2, err
    assert lines[0].startswith(f"{out.parent / 'user.py'}:{line_of('def scaled(')}:5: unsupported: kernel 'scaled' (inside 'make_scaled') "
                               "captures 'gain', a parameter of 'make_scaled'")
    assert re.search(r"user\.py:\d+:\d+: unsupported: parameter 'a' of kernel 'undeclared' has a generic type", lines[1])
    assert not (out / "scaled").exists() and not (out / "undeclared").exists()


def test_same_named_kernels_get_distinct_folders_each_with_its_own_values(run):
    _, _, _, out = run
    first = (out / "make_shift_shift" / "make_shift_shift.cu").read_text()
    second = (out / "make_other_shift" / "make_other_shift.cu").read_text()
    assert "constexpr int OFFSET = 3;" in first and "constexpr int OFFSET = 7;" in second


def test_nested_kernels_py_holds_the_kernel_its_captured_values_and_module_constants_only(run):
    _, _, _, out = run
    text = (out / "make_shift_shift" / "make_shift_shift.py").read_text()
    assert "factory code" not in text and "make_other" not in text and "def make_shift(" not in text
    assigned = {n.targets[0].id for n in ast.parse(text).body if isinstance(n, ast.Assign)}
    assert assigned == {"SCALE", "HALF", "OFFSET", "dt"}


def test_generic_instance_py_is_the_kernel_with_concrete_types(run):
    _, _, _, out = run
    fn = next(n for n in ast.parse((out / "twice_vec3" / "twice_vec3.py").read_text()).body
              if isinstance(n, ast.FunctionDef))
    assert fn.name == "twice_vec3" and [ast.unparse(a.annotation) for a in fn.args.args] == ["wp.array(dtype=wp.vec3)"] * 2


def test_overloads_give_one_kernel_per_instance_with_its_types():
    results = translate_source(FACTORIES, "user.py")
    assert [p.dtype for p in results["twice_float32"].params] == ["float32", "float32"]
    assert [p.dtype for p in results["twice_vec3"].params] == ["vec3", "vec3"]
    assert "twice" not in results


def test_declared_types_instantiate_a_generic_kernel():
    results = translate_source(FACTORIES, "user.py", {"axpy": {"x": "float32", "y": "float32", "alpha": "float32"}})
    assert [(p.kind, p.dtype) for p in results["axpy"].params] == [("array", "float32"), ("array", "float32"),
                                                                     ("scalar", "float32")]


def test_generic_kernel_without_declaration_names_the_parameter():
    result = translate_source(FACTORIES, "user.py")["axpy"]
    assert isinstance(result, TranslationError)
    assert str(result).startswith(f"user.py:{line_of('def axpy(')}:13: unsupported: parameter 'x' of kernel 'axpy' has "
                                  "a generic type 'wp.array(dtype=Any)': declare its type with wp.overload")


def test_overload_with_the_wrong_number_of_types_is_refused():
    source = ("import warp as wp\nfrom typing import Any\n@wp.kernel\ndef k(a: wp.array(dtype=Any), b: float):\n"
              "    i = wp.tid()\n\nwp.overload(k, [wp.array(dtype=float)])\n")
    result = translate_source(source, "u.py")["k"]
    assert isinstance(result, TranslationError) and "gives 1 types for 2 parameters" in str(result)


@pytest.mark.parametrize("body, reason", [
    ("    K = 2\n    K = 3\n", "captures 'K', assigned 2 times in 'make'"),
    ("    for K in range(3):\n        pass\n", "which 'make' binds other than by one `K = value` statement"),
    ("    K = len(3.0)\n", "captures 'K' = 'len(3.0)' from 'make', which is not a literal, a constant or a type"),
])
def test_captured_local_that_is_not_static_is_refused_naming_it(body, reason):
    source = (f"import warp as wp\ndef make():\n{body}    @wp.kernel\n    def k(a: wp.array(dtype=int)):\n"
              "        i = wp.tid()\n        a[i] = K\n    return k\n")
    result = translate_source(source, "u.py")["k"]
    assert isinstance(result, TranslationError) and reason in str(result), str(result)


def test_local_assigned_after_the_kernel_is_refused():
    source = ("import warp as wp\ndef make():\n    @wp.kernel\n    def k(a: wp.array(dtype=int)):\n"
              "        i = wp.tid()\n        a[i] = K\n    K = 4\n    return k\n")
    assert "assigned in 'make' only after the kernel" in str(translate_source(source, "u.py")["k"])


def test_names_of_nested_kernels_are_the_same_on_every_parse():
    names = [list(parse_module(FACTORIES, "user.py").kernels) for _ in range(2)]
    assert names[0] == names[1] and names[0].count("make_shift_shift") == 1


@pytest.mark.parametrize("entry, message", [
    ('types = {x = "float128"}', "type of 'x' must be one of"),
    ("types = 3", "'types' must map parameter names to type names"),
    ('captures = {g = "fast"}', "captured 'g' must be a number, true/false or a type name, not 'fast'"),
])
def test_bad_declared_type_is_one_line(tmp_path, entry, message):
    path = tmp_path / "t.toml"
    path.write_text(f"[axpy]\n{entry}\n")
    with pytest.raises(InputsError, match=re.escape(message)):
        load_inputs_file(path)


@settings(max_examples=30, deadline=None)
@given(st.integers(-1000, 1000), st.integers(-1000, 1000), st.integers(1, 50))
def test_captured_constant_expression_is_folded_to_pythons_value(a, b, c):
    source = (f"import warp as wp\ndef make():\n    A = {a}\n    B = wp.constant({b})\n    K = (A * B + {c}) // {c}\n"
              "    @wp.kernel\n    def k(out: wp.array(dtype=int)):\n        i = wp.tid()\n        out[i] = K\n    return k\n")
    info = parse_module(source, "u.py")
    assert info.instances["k"].constants == {"K": ("int32", (a * b + c) // c)}


def test_kernel_redefined_at_module_level_refuses_the_replaced_definition():
    source = ("import warp as wp\n@wp.kernel\ndef k(a: wp.array(dtype=int)):\n    i = wp.tid()\n    a[i] = 1\n"
              "@wp.kernel\ndef k(a: wp.array(dtype=int)):\n    i = wp.tid()\n    a[i] = 2\n")
    results = translate_source(source, "u.py")
    assert str(results["k@3"]) == ("u.py:3:1: unsupported: kernel 'k' is defined again at line 7, which replaces "
                                   "this definition (as in Python); only the later one is translated")
    assert "a[i] = 2;" in results["k"].kernel_code


def test_kernel_in_a_nested_function_sees_every_enclosing_functions_constants():
    source = ("import warp as wp\ndef outer():\n    N = 4\n    def inner():\n        M = N * 2\n        @wp.kernel\n"
              "        def deep(a: wp.array(dtype=int)):\n            i = wp.tid()\n            a[i] = M + N\n"
              "        return deep\n    return inner()\n")
    assert parse_module(source, "u.py").instances["deep"].constants == {"N": ("int32", 4), "M": ("int32", 8)}


def test_helper_defined_inside_the_factory_is_refused_naming_it():
    source = ("import warp as wp\ndef make():\n    @wp.func\n    def h(x: int):\n        return x + 1\n    @wp.kernel\n"
              "    def k(a: wp.array(dtype=int)):\n        i = wp.tid()\n        a[i] = h(i)\n    return k\n")
    assert "captures 'h', a function or class defined inside 'make'" in str(translate_source(source, "u.py")["k"])


def test_declared_captures_stand_in_for_the_factorys_arguments():
    info = parse_module(FACTORIES, "user.py", declared_captures={"gained": {"g": 1.25, "dtype": "vec3"}})
    instance = info.instances["gained"]
    assert instance.constants == {"G2": ("float32", 2.5)} and instance.type_aliases == {"dtype": "vec3"}


def test_declared_capture_outside_int32_is_refused():
    result = translate_source(FACTORIES, "user.py", declared_captures={"gained": {"g": 2**40, "dtype": "float32"}})
    assert "captures 'G2' = 'g * 2' from 'make_gain', which reads 'g', declared as 1099511627776" in str(result["gained"])
