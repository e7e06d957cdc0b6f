"""The production pipeline: samples that check themselves, validation, verification, and the slice
of generated kernels (20 per category) proven equal to Warp on the CPU."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cuda_production.compile_cuda import find_nvcc, validate_samples
from cuda_production.host_check import run_on_host
from synthesis.categories import CATEGORY_NAMES

ROOT = Path(__file__).resolve().parents[2]
PIPELINE = ROOT / "cuda_production" / "production_pipeline.py"
PER_CATEGORY = 20
needs_nvcc = pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed")


def first_sample(folder: Path, category: str) -> Path:
    """The run's first sample of `category` (indices are round-robin over however many categories)."""
    return sorted(folder.glob(f"sample_*_{category}"))[0]


def produce(out: Path, *args, env=None, check=True):
    proc = subprocess.run([sys.executable, str(PIPELINE), "-o", str(out), "--no-progress", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=1800)
    if check and proc.returncode != 0:
        raise AssertionError(proc.stdout + proc.stderr)
    return proc


@pytest.fixture(scope="module")
def slice_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("prod") / "samples"
    produce(out, "-n", PER_CATEGORY, "-s", 7)
    return out


def test_summary_counts_every_sample(slice_run):
    summary = json.loads((slice_run / "production_summary.json").read_text())
    assert summary["samples_written"] == PER_CATEGORY * len(CATEGORY_NAMES) and summary["failures"]["total"] == 0
    assert summary["per_category"] == {c: PER_CATEGORY for c in CATEGORY_NAMES}
    folders = sorted(p.name for p in slice_run.glob("sample_*"))
    last = f"sample_{len(CATEGORY_NAMES) * PER_CATEGORY - 1:04d}_{CATEGORY_NAMES[-1]}"
    assert folders[0] == "sample_0000_arithmetic" and folders[-1] == last


def test_a_sample_has_everything_the_check_needs(slice_run):
    sample = slice_run / "sample_0000_arithmetic"
    meta = json.loads((sample / "metadata.json").read_text())
    name = meta["kernel_name"]
    assert {p.name for p in sample.iterdir()} == {f"{name}.py", f"{name}.cu", "Makefile", "metadata.json", "expected.bin"}
    assert meta["tolerance"]["atol"] > 0 and meta["tolerance"]["rtol"] > 0 and meta["written_arrays"]
    cu = (sample / f"{name}.cu").read_text()
    assert "CUDA_CHECK(cudaMalloc" in cu and "cudaEventElapsedTime" in cu and "return ok ? 0 : 1;" in cu
    assert "sm_50" not in (sample / "Makefile").read_text()


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_generated_kernels_equal_warp_on_the_cpu(slice_run, category):
    failures = []
    for sample in sorted(slice_run.glob(f"sample_*_{category}")):
        run = run_on_host(sample)
        if not run.passed:
            failures.append((sample.name, run.output[-400:]))
    assert failures == []


def test_a_wrong_expected_value_fails_the_check(slice_run, tmp_path):
    sample = shutil.copytree(first_sample(slice_run, "arithmetic"), tmp_path / "s")
    data = bytearray((sample / "expected.bin").read_bytes())
    data[0:4] = b"\x00\x00\xc0\x7f" if data[0:4] != b"\x00\x00\xc0\x7f" else b"\x00\x00\x80\x3f"  # NaN or 1.0
    (sample / "expected.bin").write_bytes(bytes(data))
    run = run_on_host(sample)
    assert run.compiled and not run.passed and run.returncode == 1 and "FAIL" in run.output


def test_output_is_deterministic(tmp_path):
    runs = [tmp_path / "a", tmp_path / "b"]
    for out in runs:
        produce(out, "-n", 2, "-s", 7, "-c", "matrix", "-c", "atomic", "--shard-size", 1, "-j", 2 if out.name == "a" else 1)
    files = sorted(p.relative_to(runs[0]) for p in runs[0].rglob("*") if p.is_file())
    assert len([p for p in files if p.name == "metadata.json"]) == 4
    assert files == sorted(p.relative_to(runs[1]) for p in runs[1].rglob("*") if p.is_file())
    for rel in files:
        assert (runs[0] / rel).read_bytes() == (runs[1] / rel).read_bytes(), rel


def test_verify_passes_a_clean_folder_and_catches_tampering(slice_run, tmp_path):
    folder = tmp_path / "copy"
    folder.mkdir()
    for name in ("sample_0000_arithmetic", "sample_0005_atomic"):
        shutil.copytree(slice_run / name, folder / name)
    ok = produce(folder, "--verify", folder, check=False)
    assert ok.returncode == 0 and "2 samples: 0 problems" in ok.stdout
    cu = next((folder / "sample_0005_atomic").glob("*.cu"))
    text = cu.read_text()
    # an off-by-one bounds check, in the launch guard an early return or a block (a kernel with barriers)
    guard, wrong = ("if (tid >= n)", "if (tid > n)") if "if (tid >= n)" in text else ("if (tid < n) {", "if (tid <= n) {")
    assert guard in text
    cu.write_text(text.replace(guard, wrong, 1))
    bad = produce(folder, "--verify", folder, check=False)
    assert bad.returncode == 1 and "differs from a fresh translation" in bad.stderr


def test_verify_translates_a_tiled_sample_at_its_recorded_block_dim(slice_run, tmp_path):
    folder = tmp_path / "tiled"
    sample = first_sample(slice_run, "tiled")
    shutil.copytree(sample, folder / sample.name)
    ok = produce(folder, "--verify", folder, check=False)
    assert ok.returncode == 0 and "1 samples: 0 problems" in ok.stdout
    meta_path = folder / sample.name / "metadata.json"
    meta = json.loads(meta_path.read_text())
    assert meta["tiles"]["launch"] == "wp.launch_tiled"
    meta["tiles"]["block_dim"] = 2 * meta["tiles"]["block_dim"]  # metadata that no longer matches the .cu
    meta_path.write_text(json.dumps(meta))
    bad = produce(folder, "--verify", folder, check=False)
    assert bad.returncode == 1 and "differs from a fresh translation" in bad.stderr


ONE_D_TILED = """@wp.kernel
def tile_sum_rows(values: wp.array[float], accum: wp.array[float]):
    i, lane = wp.tid()
    s = wp.tile_sum(wp.tile(values[i * 64 + lane]))
    wp.tile_atomic_add(accum, s)
"""


def test_verify_translates_a_one_dimensional_tiled_launch_as_the_pipeline_does(tmp_path):
    # `i, lane = wp.tid()` of a 1-D wp.launch_tiled names the block and the lane: the .cu depends on
    # the launch's dimensions, which --verify must pass on as the pipeline does
    from cuda_production.templates import Tolerance, render_cu
    from cuda_production.sample import write_sample
    from cuda_production.translator import translate_kernel
    from synthesis.spec import ArgSpec

    args = [ArgSpec("values", "float32", "input", (256,), -1.0, 1.0, 8, None, 1.0),
            ArgSpec("accum", "float32", "output", (1,), 0.0, 0.0, 0, None, 256.0)]
    kernel = translate_kernel(ONE_D_TILED, "tile_sum_rows", "tile_sum_rows.py", frozenset(), 64, 1)
    program = render_cu(kernel, args, (4,), 5, Tolerance(), False, "tile sum")
    assert "blockIdx.x" in program
    write_sample(tmp_path / "s" / "sample_0000_tiled", kernel, ONE_D_TILED, args, (4,), 5, Tolerance(), None,
                 {"category": "tiled", "description": "tile sum"}, program)
    ok = produce(tmp_path / "s", "--verify", tmp_path / "s", check=False)
    assert ok.returncode == 0 and "1 samples: 0 problems" in ok.stdout, ok.stdout + ok.stderr


@needs_nvcc
def test_validate_records_ptx_success_and_resources(tmp_path):
    out = tmp_path / "v"
    produce(out, "-n", 1, "--validate", "-c", "vector", "-c", "matrix")
    for sample in out.glob("sample_*"):
        v = json.loads((sample / "metadata.json").read_text())["validation"]
        assert v["status"] == "ok" and v["registers"] > 0 and v["spill_stores_bytes"] == 0 and v["arch"] == "sm_75"
    assert json.loads((out / "production_summary.json").read_text())["validation"]["ok"] == 2


def test_validate_without_nvcc_is_skipped_with_a_warning(tmp_path):
    out = tmp_path / "nonvcc"
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin"}
    if shutil.which("nvcc", path=env["PATH"]):
        pytest.skip("nvcc lives in a system folder here")
    proc = produce(out, "-n", 1, "--validate", "-c", "math", env=env)
    assert "warning: nvcc not found" in proc.stderr
    meta = json.loads((next(out.glob("sample_*")) / "metadata.json").read_text())
    assert meta["validation"] == {"status": "skipped", "arch": "sm_75", "log": "nvcc not found on PATH"}


@needs_nvcc
def test_a_broken_sample_fails_alone_with_its_own_log(slice_run, tmp_path):
    good = shutil.copytree(first_sample(slice_run, "math"), tmp_path / "good")
    broken = shutil.copytree(first_sample(slice_run, "vector"), tmp_path / "broken")
    cu = next(broken.glob("*.cu"))
    cu.write_text(cu.read_text().replace("const int tid =", "const int tid = undefined_symbol +", 1))
    items = [(next(good.glob("*.cu")), json.loads((good / "metadata.json").read_text())["kernel_name"]),
             (cu, json.loads((broken / "metadata.json").read_text())["kernel_name"])]
    results = validate_samples(items, batch_size=2)
    assert results[0].status == "ok"
    assert results[1].status == "failed" and "undefined_symbol" in results[1].log


@needs_nvcc
def test_makefile_targets_work_without_a_gpu(slice_run, tmp_path):
    sample = shutil.copytree(first_sample(slice_run, "matrix"), tmp_path / "m")
    name = json.loads((sample / "metadata.json").read_text())["kernel_name"]
    ptx = subprocess.run(["make", "ptx"], cwd=sample, capture_output=True, text=True)
    assert ptx.returncode == 0 and (sample / f"{name}.ptx").read_text().count(".entry") == 1
    build = subprocess.run(["make", "ARCH=sm_90"], cwd=sample, capture_output=True, text=True)
    assert build.returncode == 0 and (sample / name).exists() and "-arch=sm_90" in build.stdout
    subprocess.run(["make", "clean"], cwd=sample, check=True, capture_output=True)
    assert not (sample / name).exists() and not (sample / f"{name}.ptx").exists()


def test_unknown_category_and_foreign_folder_are_refused(tmp_path):
    bad = produce(tmp_path / "x", "-n", 1, "-c", "bogus", check=False)
    assert bad.returncode == 2 and bad.stderr.strip() == (
        "error: unknown category 'bogus'; choose from " + ", ".join(CATEGORY_NAMES))
    assert not (tmp_path / "x").exists()
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "mine.txt").write_text("x")
    foreign = produce(tmp_path / "f", "-n", 1, check=False)
    assert foreign.returncode == 2 and "not empty and holds no production run" in foreign.stderr


@pytest.mark.parametrize("content", ["[1, 2]", "{\"kernel_name\": ", "{}"])
def test_verify_reports_malformed_metadata_in_one_line(slice_run, tmp_path, content):
    folder = tmp_path / "bad"
    shutil.copytree(slice_run / "sample_0000_arithmetic", folder / "sample_0000_arithmetic")
    (folder / "sample_0000_arithmetic" / "metadata.json").write_text(content)
    proc = produce(folder, "--verify", folder, "--no-host-check", check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("sample_0000_arithmetic: metadata.json")


def test_an_interrupted_sample_run_resumes_to_the_same_folder(tmp_path):
    args = ("-n", 1, "-s", 9, "-c", "math", "-c", "vector", "-c", "matrix", "--shard-size", 1)
    produce(tmp_path / "whole", *args)
    partial = tmp_path / "partial"
    produce(partial, *args, "--shard", "0/2")  # what an interrupted run leaves: some shards done
    produce(partial, *args, "-j", 2)
    tree = lambda root: {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}  # noqa: E731
    assert tree(partial) == tree(tmp_path / "whole")


def test_a_sample_folder_holding_another_run_is_refused_untouched(tmp_path):
    out = tmp_path / "run"
    produce(out, "-n", 1, "-s", 9, "-c", "math")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    proc = produce(out, "-n", 1, "-s", 10, "-c", "math", check=False)
    assert proc.returncode == 2 and "holds a different run (differs in: seed)" in proc.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


SPLAT = """@wp.kernel
def splat(x: wp.array(dtype=wp.vec3), r: float):
    tid = wp.tid()
    x[tid] = wp.vec3(r) + wp.vec3(r, 0.0, 1.0) + wp.min(x[tid], wp.vec3(2.0 * r))
"""


@needs_nvcc
def test_a_helper_overloading_a_global_function_does_not_break_the_batch(tmp_path):
    # make_float3(float s) in a batch's namespace hid make_float3(x, y, z): the batch failed and every
    # sample in it fell back to a compile of its own ("full-file"), so the metadata depended on the batching
    from cuda_production.templates import Tolerance, render_cu
    from cuda_production.sample import write_sample
    from cuda_production.translator import translate_kernel
    from synthesis.spec import ArgSpec

    items = []
    for name, source in (("splat", SPLAT), ("tile_sum_rows", ONE_D_TILED)):
        args = ([ArgSpec("x", "vec3", "inout", (64,)), ArgSpec("r", "float32", "scalar", (), 0.5, 0.5, 0, 0.5)]
                if name == "splat" else
                [ArgSpec("values", "float32", "input", (256,)), ArgSpec("accum", "float32", "output", (1,))])
        kernel = translate_kernel(source, name, f"{name}.py", frozenset(), 64 if name != "splat" else 0,
                                  1 if name != "splat" else None)
        dim = (64,) if name == "splat" else (4,)
        program = render_cu(kernel, args, dim, 5, Tolerance(), False, name)
        folder = write_sample(tmp_path / name, kernel, source, args, dim, 5, Tolerance(), None, {"category": "t"}, program)
        items.append((folder / f"{name}.cu", name))
    assert "make_float3(float s)" in (tmp_path / "splat" / "splat.cu").read_text()
    results = validate_samples(items)
    assert [(v.status, v.method) for v in results] == [("ok", "batched-device")] * 2, [v.log for v in results]
