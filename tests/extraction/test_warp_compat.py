"""Starting Warp for code generation: off the GPU, quietly, and without changing the environment."""
from __future__ import annotations

import os
import subprocess
import sys

from extraction.warp_compat import _native_stderr_filtered

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_expected_native_lines_are_held_back_and_others_passed_on(capfd):
    with _native_stderr_filtered(("Warp CUDA warning: no driver",)):
        os.write(2, b"Warp CUDA warning: no driver here\n")
        os.write(2, b"something else went wrong\n")
    err = capfd.readouterr().err
    assert "no driver here" not in err
    assert "something else went wrong" in err


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
