"""`wp.tile_matmul` of 16-bit float tiles into a float32 tile on tensor cores (nvcuda::wmma), and the
scalar loop where wmma does not apply; each against Warp on the host (host_check's emulated mma.h)."""
from __future__ import annotations

import shutil

import pytest

from cuda_production.compile_cuda import validate_samples
from cuda_production.cuda_types import required_arch
from cuda_production.reference import warp_reference
from synthesis.spec import KernelSpec
from tests.cuda_production.harness import arr, run_sample

FORWARD_ONLY = 'wp.set_module_options({"enable_backward": False})\n\n'


def gemm(name: str, dtype: str, tm: int, tk: int, tn: int, transposed: bool, k_tiles: int = 2) -> KernelSpec:
    """out32 = x @ w (w stored (N, K) and read through tile_transpose where `transposed`), K in
    `k_tiles` steps accumulated into a float32 tile, over 4 blocks of 64 threads."""
    load_b = (f"wp.tile_transpose(wp.tile_load(w, shape=({tn}, {tk}), offset=(0, k * {tk})))" if transposed
              else f"wp.tile_load(w, shape=({tk}, {tn}), offset=(k * {tk}, 0))")
    source = (FORWARD_ONLY if dtype == "bfloat16" else "") + f'''@wp.kernel
def {name}(x: wp.array2d(dtype=wp.{dtype}), w: wp.array2d(dtype=wp.{dtype}), out32: wp.array2d(dtype=float)):
    i = wp.tid()
    acc = wp.tile_zeros(shape=({tm}, {tn}), dtype=float)
    for k in range({k_tiles}):
        a = wp.tile_load(x, shape=({tm}, {tk}), offset=(i * {tm}, k * {tk}))
        b = {load_b}
        wp.tile_matmul(a, b, acc)
    wp.tile_store(out32, acc, offset=(i * {tm}, 0))
'''
    k = tk * k_tiles
    return KernelSpec(name, "test", f"a {dtype} GEMM", source,
                      (arr("x", dtype, shape=(4 * tm, k), low=-2.0, high=2.0, bits=4),
                       arr("w", dtype, shape=(tn, k) if transposed else (k, tn), low=-2.0, high=2.0, bits=4),
                       arr("out32", "float32", "output", shape=(4 * tm, tn), bound=4.0 * k)), (4,), 12345, block_dim=64)


def translated(tmp_path, spec: KernelSpec) -> tuple[str, str]:
    """The sample's .cu and Makefile, after checking that it equals Warp on the host."""
    run = run_sample(tmp_path, spec, warp_reference([spec], "t_" + spec.name)[spec.name])
    assert run.passed, run.output[-2000:]
    folder = tmp_path / spec.name
    return (folder / f"{spec.name}.cu").read_text(), (folder / "Makefile").read_text()


def test_a_bfloat16_product_runs_on_tensor_cores_and_builds_for_sm_80(tmp_path):
    cu, makefile = translated(tmp_path, gemm("bf16_wmma", "bfloat16", 16, 16, 32, False))
    assert "wmma::mma_sync(" in cu and "wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major>" in cu
    assert "wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major>" in cu
    assert "__shared__ __align__(32) __nv_bfloat16 a[" in cu  # wmma loads 256-bit aligned blocks
    assert "__bfloat162float(a[" not in cu  # no scalar inner product left
    assert "ARCH      ?= sm_80" in makefile and required_arch(cu, "sm_75") == "sm_80"


def test_weights_read_through_a_transpose_load_as_column_major_fragments_of_8_by_32(tmp_path):
    """m = 8 takes wmma's 8x32 shape; (N, K) weights through tile_transpose are a column-major b."""
    cu, _ = translated(tmp_path, gemm("bf16_wmma_t", "bfloat16", 8, 16, 32, True))
    assert "wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::col_major>" in cu
    assert "wmma::fragment<wmma::accumulator, 8, 32, 16, float>" in cu


def test_a_half_product_runs_on_tensor_cores_for_any_architecture(tmp_path):
    cu, makefile = translated(tmp_path, gemm("f16_wmma", "float16", 32, 16, 16, True))
    assert "wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major>" in cu
    assert "ARCH      ?= sm_75" in makefile and "__CUDA_ARCH__ < 800" not in cu


def test_a_k_step_under_16_keeps_the_scalar_loop(tmp_path):
    cu, makefile = translated(tmp_path, gemm("bf16_scalar", "bfloat16", 16, 8, 16, False, k_tiles=3))
    assert "wmma::" not in cu and "__bfloat162float(a[" in cu and "__align__" not in cu
    assert "ARCH      ?= sm_75" in makefile


def test_a_product_whose_blocks_would_start_off_32_bytes_keeps_the_scalar_loop(tmp_path):
    """n = 24 fits only 32x8 fragments; a row-major b's block at column 8 starts 16 bytes in, which
    wmma cannot load: the scalar loop. The same b read through a transpose is column-major: its blocks
    start at whole rows, and wmma takes it."""
    cu, _ = translated(tmp_path, gemm("bf16_unaligned", "bfloat16", 32, 16, 24, False))
    assert "wmma::" not in cu
    cu, _ = translated(tmp_path, gemm("bf16_aligned", "bfloat16", 32, 16, 24, True))
    assert "wmma::fragment<wmma::accumulator, 32, 8, 16, float>" in cu


def test_a_bfloat16_tensor_core_sample_compiles_for_the_architecture_it_needs(tmp_path):
    """Validation builds each program for the architecture its #error guard names (sm_80 here), not the
    default sm_75, which would stop at the guard."""
    if shutil.which("nvcc") is None or shutil.which("ptxas") is None:
        pytest.skip("nvcc not installed")
    spec = gemm("bf16_ptx", "bfloat16", 16, 16, 16, False)
    translated(tmp_path, spec)
    plain = gemm("f16_ptx", "float16", 16, 16, 16, False)
    translated(tmp_path, plain)
    results = validate_samples([(tmp_path / s.name / f"{s.name}.cu", s.name) for s in (spec, plain)])
    assert [(v.status, v.arch) for v in results] == [("ok", "sm_80"), ("ok", "sm_75")], [v.log for v in results]
    # batched with the headers their code includes (cuda_bf16.h, cuda_fp16.h, mma.h), not file by file
    assert [v.method for v in results] == ["batched-device", "batched-device"]


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_a_pairs_standalone_kernel_of_16_bit_tiles_compiles_alone(tmp_path, dtype):
    """The kernel-with-helpers text a pair carries (`--standalone`) brings the headers its code needs:
    before, a half or bfloat16 kernel's text lacked cuda_fp16.h / cuda_bf16.h and did not compile alone."""
    from cuda_production.compile_cuda import full_ptx
    from cuda_production.templates import Tolerance
    from synthesis.record import KernelRecord, Task
    from synthesis.stages import translate

    if shutil.which("nvcc") is None:
        pytest.skip("nvcc not installed")
    record = KernelRecord(Task(0, "tiled", 12345), 12345)
    record.spec = gemm(f"{dtype}_alone", dtype, 16, 16, 16, False)
    record = translate(record, Tolerance())
    assert record.ok, record.failure
    kernel = record.standalone.kernel
    header = "cuda_bf16.h" if dtype == "bfloat16" else "cuda_fp16.h"
    assert f"#include <{header}>" in kernel and "#include <mma.h>" in kernel and "int main" not in kernel
    (tmp_path / "alone.cu").write_text(kernel)
    ok, log = full_ptx(tmp_path / "alone.cu")
    assert ok, log


def test_required_arch_is_the_newest_of_the_default_and_the_guards():
    guard = "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800\n#error \"x\"\n#endif\n"
    assert required_arch("int x;\n", "sm_75") == "sm_75"
    assert required_arch(guard, "sm_75") == "sm_80"
    assert required_arch(guard, "sm_90") == "sm_90"
