import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "synthesis" / "pipeline.py"


def run(*args, check=True):
    proc = subprocess.run([sys.executable, str(SCRIPT), "--no-progress", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(proc.stderr)
    return proc


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "out"
    run("-n", 60, "-d", "all", "-o", out, "-s", 7, "-j", 1, "--shard-size", 20)
    return out


def test_records_carry_the_schema_users_load(reference_run):
    lines = [json.loads(l) for f in sorted(reference_run.glob("shard_*.jsonl")) for l in f.read_text().splitlines()]
    assert len(lines) == 120  # 60 kernels x 2 devices
    for rec in lines:
        # module-level `NAME = wp.constant(...)` lines, then the @wp.funcs and the @wp.kernel
        body = [l for l in rec["python_source"].splitlines() if l and " = wp.constant(" not in l]
        assert body[0].startswith(("@wp.kernel", "@wp.func"))
        meta = rec["metadata"]
        for key in ("kernel_name", "category", "description", "device", "seed", "warp_version"):
            assert meta[key] not in (None, "")
        assert f"def {meta['kernel_name']}(" in rec["python_source"]
        grid = "blockIdx" in rec["cpp_forward"]
        assert grid == (meta["device"] == "cuda")
        assert rec["cpp_backward"] and "_kernel_backward" in rec["cpp_backward"]
    manifest = json.loads((reference_run / "manifest.json").read_text())
    assert manifest["pairs"] == 120 and manifest["failures"]["total"] == 0
    assert set(manifest["pairs_per_category"].values()) == {12}  # 6 kernels x 2 devices each


def test_output_is_identical_for_one_and_two_workers(reference_run, tmp_path):
    run("-n", 60, "-d", "all", "-o", tmp_path / "two", "-s", 7, "-j", 2, "--shard-size", 20)
    assert tree_bytes(tmp_path / "two") == tree_bytes(reference_run)


def test_resume_repairs_every_kind_of_interrupted_state(reference_run, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(reference_run, out)
    (out / ".synth" / "shard_00001.json").unlink()  # data renamed, state not yet written
    (out / "shard_00002.jsonl").write_bytes((out / "shard_00002.jsonl").read_bytes()[:500])  # corrupt
    (out / ".shard_00000.jsonl.tmp").write_text('{"half": ')  # a temp file from a killed write
    (out / "manifest.json").unlink()
    run("-n", 60, "-d", "all", "-o", out, "-s", 7, "-j", 2, "--shard-size", 20)
    (out / ".shard_00000.jsonl.tmp").unlink()  # stray temp files are never read
    assert tree_bytes(out) == tree_bytes(reference_run)


def test_kill_minus_nine_then_resume_equals_an_uninterrupted_run(reference_run, tmp_path):
    out = tmp_path / "killed"
    args = [sys.executable, str(SCRIPT), "--no-progress", "-n", "60", "-d", "all", "-o", str(out),
            "-s", "7", "-j", "1", "--shard-size", "20"]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline and not (out / ".synth" / "shard_00000.json").exists():
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (out / "manifest.json").exists(), "killed too late to test a resume"
    run("-n", 60, "-d", "all", "-o", out, "-s", 7, "-j", 1, "--shard-size", 20)
    got = {k: v for k, v in tree_bytes(out).items() if not Path(k).name.endswith(".tmp")}
    assert got == tree_bytes(reference_run)


def test_json_format_works_with_the_users_loader(tmp_path):
    out = tmp_path / "json"
    run("-n", 20, "-d", "cuda", "-o", out, "--format", "json", "-c", "math", "-c", "vector")
    data = []
    for file in Path(out).glob("*.json"):  # the loader users already have, unchanged
        pair = json.load(open(file))
        data.append({"input": pair["python_source"], "target": pair["cpp_forward"],
                     "device": pair["metadata"]["device"]})
    assert len(data) == 20
    assert {d["device"] for d in data} == {"cuda"}
    assert all("__global__" in d["target"] for d in data)


def test_unknown_category_is_a_one_line_error_and_writes_nothing(tmp_path):
    proc = run("-n", 5, "-o", tmp_path / "x", "-c", "bogus", check=False)
    assert proc.returncode != 0
    assert proc.stderr.strip().count("\n") == 0 and "unknown category 'bogus'" in proc.stderr
    assert not (tmp_path / "x").exists()


def test_zero_count_is_rejected(tmp_path):
    proc = run("-n", 0, "-o", tmp_path / "x", check=False)
    assert proc.returncode != 0 and "--count must be positive" in proc.stderr
    assert not (tmp_path / "x").exists()


def test_unwritable_output_is_rejected(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    proc = run("-n", 5, "-o", blocker / "sub", check=False)
    assert proc.returncode != 0 and proc.stderr.startswith("error: cannot write to output folder")


def test_a_folder_holding_another_run_is_refused_and_left_alone(reference_run, tmp_path):
    out = tmp_path / "other"
    shutil.copytree(reference_run, out)
    before = tree_bytes(out)
    proc = run("-n", 60, "-d", "all", "-o", out, "-s", 8, "-j", 1, "--shard-size", 20, check=False)
    assert proc.returncode != 0 and "holds a different run (differs in: seed)" in proc.stderr
    assert tree_bytes(out) == before


def test_a_foreign_non_empty_folder_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    proc = run("-n", 5, "-o", tmp_path, check=False)
    assert proc.returncode != 0 and "not empty and holds no pipeline run" in proc.stderr
