"""The sample's result check (templates.check_values): per float type, the tolerance rule
|got - want| <= atol * bound + rtol * |want|, the line a mismatch prints and the exit status.

One kernel copies a float32, a float64 and a float16 array: Warp's values are its inputs, so expected.bin
is built here with numpy, one element changed per case. The .cu is compiled once (g++, host emulation)
and run against each expected.bin."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from cuda_production.bench import small_tables
from cuda_production.host_check import CHECK_ARGS, compile_host
from cuda_production.reference import input_seed, sample_args
from cuda_production.sample import write_sample
from cuda_production.templates import Tolerance
from cuda_production.translator import translate_kernel
from tests.cuda_production.harness import arr, inputs, spec

COPIES = spec("copies", '''
@wp.kernel
def copies(a: wp.array(dtype=float), b: wp.array(dtype=wp.float64), h: wp.array(dtype=wp.float16),
           out_a: wp.array(dtype=float), out_b: wp.array(dtype=wp.float64), out_h: wp.array(dtype=wp.float16)):
    tid = wp.tid()
    out_a[tid] = a[tid]
    out_b[tid] = b[tid]
    out_h[tid] = h[tid]
''', [arr("a"), arr("b", "float64"), arr("h", "float16"),
      arr("out_a", role="output"), arr("out_b", "float64", "output"), arr("out_h", "float16", "output")])
OUTPUTS = {"out_a": ("a", np.float32, "float32", 9), "out_b": ("b", np.float64, "float64", 17),
           "out_h": ("h", np.float16, "float16", 9)}  # output -> (its input, numpy type, scalar, digits printed)
BOUND = 4.0  # arr()'s bound: the atol of each array is atol * bound
CHANGED = 5  # the element each case changes


@pytest.fixture(scope="module")
def copies_program(tmp_path_factory) -> tuple[Path, Path, dict[str, np.ndarray]]:
    """(the compiled check program, its sample folder, Warp's values per output)."""
    tmp = tmp_path_factory.mktemp("check")
    kernel = translate_kernel(COPIES.source, COPIES.name, "copies.py", small_tables(list(COPIES.args), COPIES.dim))
    values = {out: inputs(COPIES)[source].copy() for out, (source, *_rest) in OUTPUTS.items()}
    folder = write_sample(tmp / "copies", kernel, COPIES.source, sample_args(COPIES), COPIES.dim, input_seed(COPIES),
                          Tolerance(), b"".join(v.tobytes() for v in values.values()), {"category": "test"})
    (tmp / "build").mkdir()
    build = compile_host(folder / "copies.cu", tmp / "build" / "copies", tmp / "build")
    assert build.returncode == 0, build.stderr
    return tmp / "build" / "copies", folder, values


def run_with(copies_program, output: str, want) -> subprocess.CompletedProcess:
    """Run the check with element CHANGED of `output`'s expected values set to `want`."""
    binary, folder, values = copies_program
    changed = {name: v.copy() for name, v in values.items()}
    changed[output][CHANGED] = want
    (folder / "expected.bin").write_bytes(b"".join(v.tobytes() for v in changed.values()))
    return subprocess.run([str(binary), *CHECK_ARGS], cwd=folder, capture_output=True, text=True, timeout=60)


def test_warps_own_values_pass(copies_program):
    proc = run_with(copies_program, "out_a", copies_program[2]["out_a"][CHANGED])
    assert proc.returncode == 0 and proc.stdout.startswith("PASS copies: 0 mismatches"), proc.stdout + proc.stderr


@pytest.mark.parametrize("output", OUTPUTS)
def test_a_wrong_value_prints_the_first_mismatch_and_exits_1(copies_program, output):
    got = copies_program[2][output][CHANGED]
    digits = OUTPUTS[output][3]
    proc = run_with(copies_program, output, got + 1)
    want = OUTPUTS[output][1](got + 1)
    assert proc.returncode == 1 and proc.stdout.startswith("FAIL copies: 1 mismatches")
    assert proc.stderr == f"mismatch: {output}[{CHANGED}] = {float(got):.{digits}g}, Warp computed {float(want):.{digits}g}\n"


@pytest.mark.parametrize("output", OUTPUTS)
@pytest.mark.parametrize("deviation", [0.5, 0.98, 1.02, 3.0])  # in units of the allowed error
def test_a_value_passes_exactly_when_within_its_types_tolerance(copies_program, output, deviation):
    _, np_type, scalar, _ = OUTPUTS[output]
    atol, rtol = Tolerance().for_dtype(scalar)
    if scalar != "float64":  # float32 and float16 tolerances are float constants in the .cu
        atol, rtol = float(np.float32(atol * BOUND)), float(np.float32(rtol))
    else:
        atol *= BOUND
    got = float(copies_program[2][output][CHANGED])
    want = np_type(got + deviation * (atol + rtol * abs(got)))
    within = abs(got - float(want)) <= atol + rtol * abs(float(want))
    proc = run_with(copies_program, output, want)
    assert proc.returncode == (0 if within else 1), (float(want), proc.stderr)


@pytest.mark.parametrize("output", OUTPUTS)
def test_a_nan_where_the_program_has_a_number_is_a_mismatch(copies_program, output):
    got = copies_program[2][output][CHANGED]
    digits = OUTPUTS[output][3]
    proc = run_with(copies_program, output, np.nan)
    assert proc.returncode == 1
    assert proc.stderr == f"mismatch: {output}[{CHANGED}] = {float(got):.{digits}g}, Warp computed nan\n"
