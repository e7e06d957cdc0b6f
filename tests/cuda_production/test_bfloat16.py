"""bfloat16 values (`wp.bfloat16`, CUDA's `__nv_bfloat16`): converted and rounded as Warp converts them
(to nearest even), computed with in float one operation at a time, as Warp's operators do; the host
emulation of cuda_bf16.h, the reference inputs and Warp agree bit for bit."""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from cuda_production.host_check import BF16_HEADER
from synthesis.dtypes import bfloat16_bits, float_values
from tests.cuda_production.harness import check_line, translate_checked

BF16 = '''import warp as wp


@wp.kernel
def mixed(x: wp.array(dtype=wp.bfloat16), y: wp.array(dtype=wp.bfloat16), w: wp.array(dtype=float),
          o: wp.array(dtype=wp.bfloat16), f: wp.array(dtype=float), h: wp.array(dtype=wp.float16),
          d: wp.array(dtype=wp.float64)):
    i = wp.tid()
    a = x[i] * y[i] + x[i]
    o[i] = wp.max(a, wp.bfloat16(0.25)) - wp.min(y[i], x[i])
    f[i] = float(x[i]) * 3.0 + float(wp.bfloat16(w[i]))
    h[i] = wp.float16(x[i])
    d[i] = wp.float64(y[i]) * wp.float64(2.0)
'''

# ties between two bfloat16 values (odd and even below them), values just past a tie, large and
# tiny magnitudes, and negatives: where a rounding other than to nearest even shows
TRICKY = np.array([1.0 + 2.0**-8, 1.0 + 3 * 2.0**-8, 1.0 + 2.0**-8 + 2.0**-20, -(1.0 + 2.0**-8), 3.0e38, 1.0e-38,
                   0.1, -2.5, 65504.0, 1.0 - 2.0**-9], dtype=np.float32)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "bf16", BF16)


def test_bfloat16_arithmetic_and_conversions_are_equal_to_warp(run):
    code, _, err, _ = run
    assert code == 0, err
    assert check_line(run, "mixed").endswith(": equal to Warp (host emulation)"), check_line(run, "mixed")


def test_each_operation_is_computed_in_float_and_rounded_back(run):
    cu = (run[3] / "mixed" / "mixed.cu").read_text()
    assert "#include <cuda_bf16.h>" in cu
    assert "__float2bfloat16(__bfloat162float(x[i]) * __bfloat162float(y[i]))" in cu
    assert "h[i] = __float2half(__bfloat162float(x[i]));" in cu


def test_the_reference_rounding_is_warps():
    import warp as wp

    wp.init()
    warp_bits = wp.array(TRICKY, dtype=wp.bfloat16, device="cpu").numpy()
    assert np.array_equal(bfloat16_bits(TRICKY), warp_bits)
    assert float_values(bfloat16_bits(TRICKY[:1]), "bfloat16")[0] == 1.0  # the tie went to the even value


def test_the_host_emulation_rounds_as_warp(tmp_path):
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    (tmp_path / "cuda_bf16.h").write_text(BF16_HEADER)
    values = ", ".join(f"{float(v)!r}f" for v in TRICKY)
    (tmp_path / "main.cpp").write_text(
        '#include <cstdio>\n#include "cuda_bf16.h"\n'
        f"int main() {{ float v[] = {{{values}}};\n"
        "  for (float x : v) { __nv_bfloat16 b = __float2bfloat16(x);\n"
        '    std::printf("%u %.9g\\n", (unsigned)b.bits, __bfloat162float(b)); } }\n')
    subprocess.run(["g++", "-std=c++17", "-o", str(tmp_path / "main"), str(tmp_path / "main.cpp")], check=True)
    lines = subprocess.run([str(tmp_path / "main")], capture_output=True, text=True, check=True).stdout.split("\n")
    bits = [int(line.split()[0]) for line in lines if line]
    widened = [float(line.split()[1]) for line in lines if line]
    assert bits == bfloat16_bits(TRICKY).tolist()
    assert np.array_equal(np.array(widened, dtype=np.float32), float_values(bfloat16_bits(TRICKY), "bfloat16"))


GEMM = '''wp.set_module_options({"enable_backward": False})

TM = 16
TK = 16
TN = 16


@wp.kernel
def bf16_gemm(x: wp.array2d(dtype=wp.bfloat16), w: wp.array2d(dtype=wp.bfloat16), out: wp.array2d(dtype=wp.bfloat16),
              out32: wp.array2d(dtype=float)):
    i = wp.tid()
    acc = wp.tile_zeros(shape=(TM, TN), dtype=float)
    for k in range(2):
        a = wp.tile_load(x, shape=(TM, TK), offset=(i * TM, k * TK))
        b = wp.tile_load(w, shape=(TK, TN), offset=(k * TK, 0))
        wp.tile_matmul(a, b, acc)
    wp.tile_store(out, wp.tile_astype(acc, wp.bfloat16), offset=(i * TM, 0))
    wp.tile_store(out32, acc, offset=(i * TM, 0))
'''


def test_a_tile_product_of_bfloat16_tiles_accumulates_in_float_and_equals_warp(tmp_path):
    """bfloat16 tiles as `tile_matmul` operands (Warp widens them to the float32 accumulator; it
    refuses a bfloat16 accumulator, and, unless the module is forward-only, bfloat16 operands), loaded,
    converted by `tile_astype` and stored: equal to Warp on the host."""
    from synthesis.spec import KernelSpec
    from tests.cuda_production.harness import arr, run_sample
    from cuda_production.reference import warp_reference

    spec = KernelSpec("bf16_gemm", "test", "a bfloat16 GEMM", GEMM,
                      (arr("x", "bfloat16", shape=(64, 32), low=-2.0, high=2.0, bits=4),
                       arr("w", "bfloat16", shape=(32, 16), low=-2.0, high=2.0, bits=4),
                       arr("out", "bfloat16", "output", shape=(64, 16), bound=128.0),
                       arr("out32", "float32", "output", shape=(64, 16), bound=128.0)), (4,), 12345, block_dim=64)
    run = run_sample(tmp_path, spec, warp_reference([spec], "t_bf16_gemm")[spec.name])
    assert run.passed, run.output[-2000:]
    cu = (tmp_path / "bf16_gemm" / "bf16_gemm.cu").read_text()
    assert "wmma::mma_sync(" in cu and "__float2bfloat16(acc[" in cu  # on tensor cores (test_tiles_tensor_cores)


def test_a_bfloat16_accumulator_is_refused_as_warp_refuses_it():
    from cuda_production.translator import TranslationError, translate_source

    source = "import warp as wp\n\n" + GEMM.replace("wp.tile_zeros(shape=(TM, TN), dtype=float)",
                                                   "wp.tile_zeros(shape=(TM, TN), dtype=wp.bfloat16)")
    result = translate_source(source, "user.py", block_dims={"bf16_gemm": 64})["bf16_gemm"]
    assert isinstance(result, TranslationError) and "bfloat16" in str(result)


def test_a_users_module_options_travel_with_the_kernel(tmp_path_factory):
    """`translate --reference --check` on a file that sets its module forward-only (as Warp asks for a
    product of bfloat16 tiles): the kernel's .py and Warp's reference module keep the options line."""
    run = translate_checked(tmp_path_factory, "bf16_gemm_file", "import warp as wp\n\n" + GEMM)
    code, _, err, out = run
    assert code == 0, err
    assert check_line(run, "bf16_gemm").endswith(": equal to Warp (host emulation)"), check_line(run, "bf16_gemm")
    assert 'wp.set_module_options({"enable_backward": False})' in (out / "bf16_gemm" / "bf16_gemm.py").read_text()
