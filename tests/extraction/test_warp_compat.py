"""Starting Warp for code generation: off the GPU, quietly, and without changing the environment."""
from __future__ import annotations

import os
import subprocess
import sys

from extraction import warp_compat
from extraction.warp_compat import _native_stderr_filtered

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_expected_native_lines_are_held_back_and_others_passed_on(capfd):
    with _native_stderr_filtered(("Warp CUDA warning: no driver",)):
        os.write(2, b"Warp CUDA warning: no driver here\n")
        os.write(2, b"something else went wrong\n")
    err = capfd.readouterr().err
    assert "no driver here" not in err
    assert "something else went wrong" in err


LITERAL_WARNING = """/cache/wp_k.cpp:212:30: warning: implicit conversion from 'long' to 'const wp::int32' (aka 'const int') \
changes value from 2654435769 to -1640531527 [-Wconstant-conversion]
  212 |     const wp::int32 var_31 = 2654435769;
      |                     ~~~~~~   ^~~~~~~~~~
/cache/wp_k.cpp:360:9: note: in instantiation of function template specialization 'k_cpu_kernel_backward<false>' requested here
  360 |         k_cpu_kernel_backward<wp_linear_contiguous>(
      |         ^
"""
OTHER_WARNING = """/cache/wp_k.cpp:40:5: warning: unused variable 'var_2' [-Wunused-variable]
   40 |     wp::float32 var_2;
      |     ^~~~~
"""


def test_literal_conversion_warnings_are_dropped_with_their_count():
    text = LITERAL_WARNING + LITERAL_WARNING.replace("212", "213") + "2 warnings generated.\n"
    assert warp_compat.without_literal_conversion_warnings(text) == ""


def test_other_compiler_diagnostics_pass_with_their_count():
    text = LITERAL_WARNING + OTHER_WARNING + "2 warnings generated.\nerror: no such file\n"
    assert warp_compat.without_literal_conversion_warnings(text) == OTHER_WARNING + "1 warning generated.\nerror: no such file\n"


def test_the_cpu_compilers_literal_warnings_are_held_back(capfd):
    with warp_compat.cpu_compiler_quiet():
        os.write(2, (LITERAL_WARNING + OTHER_WARNING + "2 warnings generated.\n").encode())
    err = capfd.readouterr().err
    assert "changes value from" not in err and "unused variable 'var_2'" in err and "1 warning generated." in err


def test_init_restores_the_users_cuda_visible_devices():
    # the driver reads the variable once, at Warp's start; the process's environment (what nvcc and
    # other children inherit) must be the user's again afterwards
    code = ("import os; from extraction import warp_compat; warp_compat.init_warp(); "
            "print(repr(os.environ.get('CUDA_VISIBLE_DEVICES')))")
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="1", PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "'1'"


def test_init_for_code_generation_sees_no_gpu_and_prints_nothing():
    code = ("from extraction import warp_compat; warp_compat.init_warp(); import warp as wp; "
            "print([str(d) for d in wp.get_devices()])")
    env = {k: v for k, v in os.environ.items() if k != "CUDA_VISIBLE_DEVICES"}
    env["PYTHONPATH"] = ROOT
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['cpu']"
    assert "Warp CUDA" not in out.stderr


def _warp_code(specs) -> list:
    from extraction.ir_extractor import extract_ir_devices
    from extraction.loader import load_kernels, unload

    out = []
    for spec in specs:
        module_name = f"memo_{spec.name}"
        try:
            ir = extract_ir_devices(load_kernels(spec.source, module_name)[spec.name], ("cpu", "cuda"), True,
                                    spec.block_dim)
        finally:
            unload(module_name)
        out.append({d: (c.forward, c.backward, c.helpers) for d, c in ir.items()})
    return out


def test_memoized_overload_resolution_emits_the_same_code_as_warp():
    import warp._src.codegen as codegen

    from synthesis.categories import CATEGORY_NAMES, generate

    warp_compat.init_warp()
    memoized = codegen.Adjoint.resolve_func
    assert memoized._memoized
    specs = [generate(category, seed) for category in CATEGORY_NAMES for seed in (3, 4)]
    memoized.memo.clear()
    with_memo = _warp_code(specs)
    assert len(memoized.memo) > 20  # the memo was used, not bypassed
    codegen.Adjoint.resolve_func = memoized.__wrapped__
    try:
        as_warp = _warp_code(specs)
    finally:
        codegen.Adjoint.resolve_func = memoized
    assert with_memo == as_warp


def test_memo_keys_arrays_by_class_and_dtype_and_leaves_other_values_out():
    import warp as wp

    assert warp_compat._type_key(wp.float32) is wp.float32
    assert warp_compat._type_key(wp.array(dtype=wp.vec3)) == warp_compat._type_key(wp.array(dtype=wp.vec3))
    assert warp_compat._type_key(wp.array(dtype=wp.vec3)) != warp_compat._type_key(wp.array(dtype=wp.float32))
    assert warp_compat._type_key(wp.array2d(dtype=wp.float32)) != warp_compat._type_key(wp.array(dtype=wp.float32))
    assert warp_compat._type_key(wp.array(dtype=wp.float32)) != warp_compat._type_key(wp.indexedarray(dtype=wp.float32))
    assert warp_compat._type_key(3) is None
