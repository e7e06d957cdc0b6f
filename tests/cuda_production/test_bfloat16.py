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
