"""Constructs outside the supported language: a TranslationError at the right file:line:col."""
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda_production.translator import TranslationError, translate_kernel, translate_source
from synthesis.categories import CATEGORY_NAMES, generate

ROOT = Path(__file__).resolve().parents[2]

HEADER = "@wp.kernel\ndef k(a: wp.array(dtype=float), i: wp.array(dtype=int), out: wp.array(dtype=float)):\n    tid = wp.tid()\n"

# (kernel body line, expected construct text, column of the offending node (1-based))
UNSUPPORTED = [
    ("    v = [1.0, 2.0]", "unsupported: list", 9),
    ("    v = {'a': 1.0}", "unsupported: dict", 9),
    ("    out[tid], y = a[tid], a[tid]", "unsupported: assignment to tuple of anything but names", 5),
    ("    f = lambda q: q", "unsupported: lambda", 9),
    ("    print(a[tid])", "unsupported: call to 'print'", 5),
    ("    for x in a:\n        out[tid] = x", "unsupported: for-loop over anything but range(...), a hash grid query or a mesh box query "
     "(Warp iterates no BVH query: `while wp.bvh_query_next(query, j)`)", 14),
    ("    out[tid] = a[0:2]", "unsupported: slicing", 16),
    ("    out[tid] = wp.clamp(a[tid], lo=0.0, high=1.0)", "unsupported: keyword argument 'lo'", 33),
    ("    s = 'text'", "unsupported: str constant", 9),
    ("    assert a[tid] > 0.0", "unsupported: assert statement", 5),
    ("    with open('x') as f:\n        pass", "unsupported: with statement", 5),
    ("    try:\n        pass\n    except Exception:\n        pass", "unsupported: try statement", 5),
    ("    out[tid] = float(i[tid] ** 2)", "unsupported: integer power", 22),
    ("    while a[tid] > 0.0:\n        break\n    else:\n        pass", "unsupported: while ... else", 5),
    ("    out[tid] = wp.tile_view(a, 0)", "unsupported: builtin wp.tile_view", 16),
    ("    out[tid] = a[tid] if True else 1", "error: conditional expression: type int32 where float32 is expected", 16),
    ("    out[tid] = a[tid] * 2", "error: operands of '*' have types float32 and int32; Warp requires matching types", 16),
    ("    out[tid] = a[a[tid]]", "error: index of type float32; Warp requires int", 18),
    ("    a = a", "unsupported: assignment to array parameter 'a'", 5),
    ("    out[tid] = b", "error: unknown name 'b'", 16),
    # wp.static is evaluated when Warp builds the kernel: a value known only at run time cannot be
    ("    out[tid] = wp.static(a[tid])", "unsupported: wp.static of anything but module constants, or a tuple "
     "constant indexed by the variable of a wp.static loop", 16),
    ("    for t in range(wp.static(2), i[0]):\n        out[tid] = a[t]", "unsupported: range() mixing wp.static "
     "bounds with bounds known only at run time", 14),
]


@pytest.mark.parametrize("body,message,col", UNSUPPORTED, ids=[u[1] for u in UNSUPPORTED])
def test_unsupported_construct_is_located(body, message, col):
    source = HEADER + body + "\n"
    with pytest.raises(TranslationError) as info:
        translate_kernel(source, "k", "user.py")
    assert str(info.value) == f"user.py:4:{col}: {message}"


@pytest.mark.parametrize("annotation,message", [
    ("wp.array(dtype=wp.uint64)", "unsupported: type wp.uint64"),
    ("wp.array(dtype=wp.vec3h)", "unsupported: type wp.vec3h"),
    ("wp.array(dtype=float, ndim=5)", "unsupported: array ndim other than 1, 2, 3 or 4"),
    ("wp.uint64", "unsupported: wp.uint64 parameter 'x' that is no hash grid's, mesh's or BVH's id"),  # neither's
])
def test_unsupported_types(annotation, message):
    source = f"@wp.kernel\ndef k(x: {annotation}):\n    tid = wp.tid()\n"
    with pytest.raises(TranslationError, match=message):
        translate_kernel(source, "k", "user.py")


RECORD = "@wp.struct\nclass Rec:\n    pos: wp.vec3\n    mass: float\n\n"


def test_a_struct_built_from_some_of_its_members_is_refused_as_warp_refuses_it():
    source = RECORD + "@wp.kernel\ndef k(out: wp.array(dtype=Rec)):\n    tid = wp.tid()\n    out[tid] = Rec(mass=1.0)\n"
    with pytest.raises(TranslationError, match=r"struct 'Rec' built from 1 values; Warp takes none or all 2 \(pos, mass\)"):
        translate_kernel(source, "k", "user.py")


def test_an_array_of_structs_holding_arrays_is_refused():
    source = ("@wp.struct\nclass Bag:\n    items: wp.array(dtype=float)\n\n"
              "@wp.kernel\ndef k(bags: wp.array(dtype=Bag)):\n    tid = wp.tid()\n")
    with pytest.raises(TranslationError, match="array of struct 'Bag', whose member 'items' is an array"):
        translate_kernel(source, "k", "user.py")


def test_array_view_indexing_is_refused():
    source = "@wp.kernel\ndef k(a: wp.array2d(dtype=float), out: wp.array(dtype=float)):\n    i = wp.tid()\n    out[i] = a[i][0]\n"
    with pytest.raises(TranslationError, match="indexing a 2-D array with 1 indices"):
        translate_kernel(source, "k", "user.py")


def test_recursive_func_is_refused():
    source = ("@wp.func\ndef f(x: float) -> float:\n    return f(x)\n\n"
              "@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    tid = wp.tid()\n    a[tid] = f(a[tid])\n")
    with pytest.raises(TranslationError, match="recursive @wp.func 'f'"):
        translate_kernel(source, "k", "user.py")


def test_tid_in_a_func_is_refused():
    source = ("@wp.func\ndef f(x: float) -> float:\n    t = wp.tid()\n    return x\n\n"
              "@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    tid = wp.tid()\n    a[tid] = f(a[tid])\n")
    with pytest.raises(TranslationError, match="wp.tid\\(\\) in a @wp.func"):
        translate_kernel(source, "k", "user.py")


def test_kernel_returning_a_value_is_refused():
    with pytest.raises(TranslationError, match="a kernel cannot return a value"):
        translate_kernel(HEADER + "    return 1.0\n", "k", "user.py")


def test_each_kernel_of_a_file_gets_its_own_result():
    source = HEADER + "    out[tid] = a[tid]\n\n" + HEADER.replace("def k(", "def k2(") + "    v = [1]\n"
    results = translate_source(source, "two.py")
    assert not isinstance(results["k"], TranslationError)
    assert isinstance(results["k2"], TranslationError) and results["k2"].line == 9


def test_cli_reports_one_line_per_failure_and_writes_only_good_kernels(tmp_path):
    src = tmp_path / "mine.py"
    src.write_text("import warp as wp\n\n" + HEADER + "    out[tid] = a[tid] * 2.0\n\n"
                   + HEADER.replace("def k(", "def bad(") + "    out[tid] = [a[tid]]\n")
    proc = subprocess.run([sys.executable, "-m", "cuda_production.translate", str(src), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    err_lines = proc.stderr.strip().splitlines()
    assert err_lines == [f"{src}:11:16: unsupported: list"]
    assert (tmp_path / "out" / "k" / "k.cu").exists() and (tmp_path / "out" / "k" / "Makefile").exists()
    assert not (tmp_path / "out" / "bad").exists()


def test_cli_never_executes_the_users_file(tmp_path):
    marker = tmp_path / "executed"
    src = tmp_path / "side_effect.py"
    src.write_text(f"import warp as wp\nopen({str(marker)!r}, 'w').write('x')\nraise SystemExit(3)\n\n"
                   + HEADER + "    out[tid] = a[tid]\n")
    proc = subprocess.run([sys.executable, "-m", "cuda_production.translate", str(src), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists()


def test_syntax_error_is_one_line_with_location(tmp_path):
    src = tmp_path / "broken.py"
    src.write_text("@wp.kernel\ndef k(:\n    pass\n")
    proc = subprocess.run([sys.executable, "-m", "cuda_production.translate", str(src), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(f"{src}:2:") and "invalid Python syntax" in proc.stderr


@settings(max_examples=80, deadline=None)
@given(category=st.sampled_from(CATEGORY_NAMES), seed=st.integers(0, 2**62))
def test_every_generated_kernel_translates_consistently(category, seed):
    spec = generate(category, seed)
    kernel = translate_kernel(spec.source, spec.name, "gen.py", block_dim=spec.block_dim, launch_ndim=len(spec.dim))  # as the pipeline does
    assert translate_kernel(spec.source, spec.name, "gen.py", block_dim=spec.block_dim,
                            launch_ndim=len(spec.dim)).kernel_code == kernel.kernel_code
    assert [p.name for p in kernel.params] == [a.name for a in spec.args]
    written = {p.name for p in kernel.params if p.kind == "array" and p.written}
    assert written == {a.name for a in spec.args if a.is_written}
    assert kernel.launch_ndim == len(spec.dim)
    # never a decrement from a double negation (loop headers may count down with --k)
    assert not [line for line in kernel.kernel_code.splitlines() if "--" in line and "for (" not in line]


# ---- refusals of the extended language: one located line each ------------------------------------
@pytest.mark.parametrize("body,message,col", [
    ("    out[tid] = wp.clamp(a[tid], 0.0, high=1.0, low=0.5)", "error: argument 'low' given twice", 16),
    ("    out[tid] = float(a.shape[i[tid]])", "unsupported: .shape[k] of a 1-D array with k other than a literal 0..0", 22),
    ("    out[tid] = float(a.shape[1])", "unsupported: .shape[k] of a 1-D array with k other than a literal 0..0", 22),
    ("    s = a.shape", "unsupported: array .shape other than .shape[k] with a literal k", 9),
    ("    out[tid] = wp.inverse(wp.identity(n=4, dtype=float))[0, 0]", "error: wp.inverse() of ['mat44']", 16),
    ("    out[tid] = wp.quat_rotate(wp.quat_identity(), a[tid])", "error: wp.quat_rotate() of ['quat', 'float32']", 16),
    ("    out[tid] = a[tid] if 0.0 < a[tid] < tid else 0.0", "error: chained comparison of float32 and int32", 41),
    ("    x, y = 1.0", "error: 2 names assigned from a value of type float32", 5),
    ("    a[tid] %= 2.0", "unsupported: in-place '%=' on an array element", 5),
    ("    out[tid] = wp.identity(n=i[tid], dtype=float)[0, 0]", "error: wp.identity() needs n=2, 3 or 4 as a literal", 16),
])
def test_extended_construct_refusal_is_located(body, message, col):
    with pytest.raises(TranslationError) as info:
        translate_kernel(HEADER + body + "\n", "k", "user.py")
    assert str(info.value) == f"user.py:4:{col}: {message}"


def test_kernel_capturing_a_parameter_of_its_factory_is_refused_with_its_location():
    source = ("def make(s):\n    @wp.kernel\n    def inner(a: wp.array(dtype=float)):\n        tid = wp.tid()\n"
              "        a[tid] = s\n\n    return inner\n\n" + HEADER + "    out[tid] = a[tid]\n")
    results = translate_source(source, "nested.py")
    assert list(results) == ["inner", "k"]  # in source order
    assert str(results["inner"]).startswith("nested.py:3:5: unsupported: kernel 'inner' (inside 'make') captures 's', "
                                            "a parameter of 'make'")
    assert not isinstance(results["k"], TranslationError)


def test_kernel_inside_a_class_does_not_see_the_class_attributes():
    source = ("import warp as wp\nclass Sim:\n    GAIN = 2.0\n    @wp.kernel\n    def step(a: wp.array(dtype=float)):\n"
              "        tid = wp.tid()\n        a[tid] = GAIN\n")
    results = translate_source(source, "cls.py")
    assert isinstance(results["step"], TranslationError) and "unknown name 'GAIN'" in str(results["step"])


def test_struct_member_other_than_an_annotation_is_refused():
    source = ("@wp.struct\nclass S:\n    x: float = 1.0\n\n"
              "@wp.kernel\ndef k(s: S, out: wp.array(dtype=float)):\n    tid = wp.tid()\n    out[tid] = s.x\n")
    with pytest.raises(TranslationError, match=r"user.py:3:5: unsupported: struct 'S' member other than `name: type`"):
        translate_kernel(source, "k", "user.py")


def test_unknown_struct_member_is_refused():
    source = ("@wp.struct\nclass S:\n    x: float\n\n"
              "@wp.kernel\ndef k(s: S, out: wp.array(dtype=float)):\n    tid = wp.tid()\n    out[tid] = s.y\n")
    with pytest.raises(TranslationError, match=r"user.py:8:16: unsupported: attribute '.y' of S"):
        translate_kernel(source, "k", "user.py")


def test_module_global_that_is_not_a_number_is_unknown():
    source = "import numpy as np\nTABLE = np.zeros(4)\n\n" + HEADER + "    out[tid] = TABLE\n"
    with pytest.raises(TranslationError, match=r"user.py:7:16: error: unknown name 'TABLE'"):
        translate_kernel(source, "k", "user.py")


# ---- identifier hygiene ---------------------------------------------------------------------------
def test_colliding_names_are_renamed_consistently_in_kernel_and_host():
    from cuda_production.templates import render_cu, Tolerance
    from synthesis.spec import ArgSpec

    source = ("@wp.kernel\ndef main(threadIdx: wp.array(dtype=float), x: wp.array(dtype=float), h_x: float):\n"
              "    tid = wp.tid()\n    length = threadIdx[tid] * h_x\n    x[tid] = length\n")
    kernel = translate_kernel(source, "main", "user.py")
    assert kernel.cname == "main_" and [p.name for p in kernel.params] == ["threadIdx", "x", "h_x"]
    assert kernel.params[0].cname == "threadIdx_"
    assert "__global__ void main_(const float* __restrict__ threadIdx_, float* x, float h_x, int n)" in kernel.kernel_code
    assert "float length_ = threadIdx_[tid] * h_x;" in kernel.kernel_code
    args = [ArgSpec("threadIdx", "float32", "input", (8,)), ArgSpec("x", "float32", "output", (8,)),
            ArgSpec("h_x", "float32", "scalar", value=0.5)]
    cu = render_cu(kernel, args, (8,), 1, Tolerance(), False, "t")
    assert "const float arg_h_x = 0.5f;" in cu  # the host vector of array x is h_x
    assert "main_<<<grid, block>>>(d_threadIdx_, d_x, arg_h_x, n);" in cu


def test_a_helper_named_like_a_c_math_function_is_renamed_and_compiles(tmp_path):
    """`hypot`, `erf`, `exp2`... are overloaded in <cmath>: a __device__ function of that name is ambiguous."""
    source = ("@wp.func\ndef hypot(x: float, y: float) -> float:\n    return wp.sqrt(x * x + y * y)\n\n"
              "@wp.kernel\ndef k(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
              "    tid = wp.tid()\n    out[tid] = hypot(a[tid], 2.0)\n")
    from cuda_production.compile_cuda import DEVICE_INCLUDES

    kernel = translate_kernel(source, "k", "user.py")
    code = kernel.device_code + "\n" + kernel.kernel_code
    assert "hypot_(" in code and " hypot(" not in code
    cu = tmp_path / "k.cu"
    cu.write_text(DEVICE_INCLUDES + code)
    result = subprocess.run(["nvcc", "-ptx", "-arch=sm_90", str(cu), "-o", str(tmp_path / "k.ptx")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]


def test_local_named_like_a_helper_is_renamed():
    source = ("@wp.kernel\ndef k(u: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):\n"
              "    tid = wp.tid()\n    cross = wp.cross(u[tid], u[tid])\n    out[tid] = cross\n")
    code = translate_kernel(source, "k", "user.py").kernel_code
    assert "float3 cross_ = cross(u[tid], u[tid]);" in code and "out[tid] = cross_;" in code


def test_int_variable_in_a_vector_constructor_is_refused_like_warp():
    source = ("@wp.kernel\ndef k(i: wp.array(dtype=int), out: wp.array(dtype=wp.vec3)):\n"
              "    tid = wp.tid()\n    out[tid] = wp.vec3(1, i[tid], 3)\n")
    with pytest.raises(TranslationError, match=r"user.py:4:16: error: wp.vec3\(\) of \['float32', 'int32', 'float32'\]"):
        translate_kernel(source, "k", "user.py")
