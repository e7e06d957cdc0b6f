import importlib.util
import json
import re
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
        # a module: optional imports (`from typing import Any`), constants and @wp.struct classes,
        # @wp.func helpers, then the kernel
        body = re.sub(r"\A(?:from typing import \w+\n)+\n", "", rec["python_source"]).lstrip()
        assert body.startswith(("@wp.kernel", "@wp.func", "@wp.struct")) or re.match(r"[A-Z_][A-Z0-9_]* = ", body)
        meta = rec["metadata"]
        for key in ("kernel_name", "category", "description", "device", "seed", "warp_version"):
            assert meta[key] not in (None, "")
        assert f"def {meta['kernel_name']}(" in rec["python_source"]
        grid = "blockIdx" in rec["cpp_forward"]
        assert grid == (meta["device"] == "cuda")
        if "@wp.kernel(enable_backward=False)" in rec["python_source"]:
            assert rec["cpp_backward"] is None  # Warp emits no adjoint for it
        else:
            assert rec["cpp_backward"] and "_kernel_backward" in rec["cpp_backward"]
    manifest = json.loads((reference_run / "manifest.json").read_text())
    assert manifest["pairs"] == 120 and manifest["failures"]["total"] == 0
    per = manifest["pairs_per_category"]  # round-robin: 60 kernels spread evenly, 2 devices each
    assert sum(per.values()) == 120 and max(per.values()) - min(per.values()) <= 2


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


def processes_running(text: str) -> list[int]:
    """Pids of live processes whose command line contains `text` (zombies have none)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    pids.append(int(entry.name))
            except OSError:  # ended meanwhile
                pass
    return pids


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
def test_workers_end_when_the_parent_is_killed(tmp_path):
    out = tmp_path / "orphaned"
    proc = subprocess.Popen([sys.executable, str(SCRIPT), "--no-progress", "-n", "60", "-d", "cpu", "-o", str(out),
                             "-j", "2", "--shard-size", "10"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline and len(processes_running(str(out))) < 3:  # the parent and 2 workers
        time.sleep(0.05)
    assert len(processes_running(str(out))) >= 3, "the workers never started"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.time() + 10
    while time.time() < deadline and processes_running(str(out)):
        time.sleep(0.05)
    assert processes_running(str(out)) == []


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


def test_job_array_slices_merged_equal_one_run(reference_run, tmp_path):
    out = tmp_path / "slices"
    for i in range(3):
        proc = run("-n", 60, "-d", "all", "-o", out, "-s", 7, "-j", 1, "--shard-size", 20, "--shard", f"{i}/3")
        assert ("(manifest: " in proc.stdout) == (i == 2)  # only the slice that completes the run merges it
    assert tree_bytes(out) == tree_bytes(reference_run)


def test_slices_made_in_separate_folders_merge_by_copying(reference_run, tmp_path):
    merged = tmp_path / "merged"
    for i in range(2):
        run("-n", 60, "-d", "all", "-o", tmp_path / f"s{i}", "-s", 7, "--shard-size", 20, "--shard", f"{i}/2")
        shutil.copytree(tmp_path / f"s{i}", merged, dirs_exist_ok=True)
    proc = run("-n", 60, "-d", "all", "-o", merged, "-s", 7, "--shard-size", 20)
    assert "0 generated in this run" in proc.stdout
    assert tree_bytes(merged) == tree_bytes(reference_run)


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray not installed (pip install -e '.[ray]')")
def test_ray_executor_writes_the_same_bytes(reference_run, tmp_path):
    out = tmp_path / "ray"
    run("-n", 60, "-d", "all", "-o", out, "-s", 7, "-j", 2, "--shard-size", 20, "--executor", "ray")
    assert tree_bytes(out) == tree_bytes(reference_run)


def test_zero_workers_is_an_error(tmp_path):
    proc = run("-n", 5, "-o", tmp_path / "x", "-j", 0, check=False)
    assert proc.returncode == 2 and proc.stderr == "error: --workers must be at least 1, got 0\n"
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("state", ["run.json", "shard_00001.json"])
def test_a_corrupt_state_file_is_one_line_naming_it(reference_run, tmp_path, state):
    out = tmp_path / "corrupt"
    shutil.copytree(reference_run, out)
    (out / ".synth" / state).write_text('{"shard": 1, "fi')
    proc = run("-n", 60, "-d", "all", "-o", out, "-s", 7, "--shard-size", 20, check=False)
    assert proc.returncode != 0 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert f"state file {out / '.synth' / state} is corrupt" in proc.stderr
    assert ("delete it and run the same command" if state != "run.json" else "use a new output folder") in proc.stderr


def test_bad_shard_argument_is_rejected(tmp_path):
    proc = run("-n", 5, "-o", tmp_path / "x", "--shard", "3/3", check=False)
    assert proc.returncode == 2 and "0 <= I < N" in proc.stderr and not (tmp_path / "x").exists()


def own_stderr_lines(stderr: str) -> list[str]:
    return [l for l in stderr.splitlines() if l.strip() and not l.startswith("Warp CUDA warning")]


def test_ctrl_c_stops_cleanly_with_one_line_and_resumes(reference_run, tmp_path):
    """The small version of scripts/sigint_stress.py: SIGINT to the process group, as a terminal sends it."""
    out = tmp_path / "sigint"
    args = [sys.executable, str(SCRIPT), "--no-progress", "-n", "60", "-d", "all", "-o", str(out),
            "-s", "7", "-j", "1", "--shard-size", "20"]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and not (out / ".synth" / "shard_00000.json").exists():
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=30)  # a hang fails here
    assert proc.returncode == 130, stderr
    assert own_stderr_lines(stderr) == ["interrupted: 1 of 3 shards done; run the same command to resume"]
    assert not [p for p in out.rglob("*.tmp")]
    run("-n", 60, "-d", "all", "-o", out, "-s", 7, "-j", 2, "--shard-size", 20)
    assert tree_bytes(out) == tree_bytes(reference_run)


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_is_one_line_leaves_no_temporary_and_resumes(reference_run, small_disk):
    out = small_disk / "out"
    proc = run("-n", 60, "-d", "all", "-o", out, "-s", 7, "-j", 2, "--shard-size", 20, check=False)
    lines = own_stderr_lines(proc.stderr)
    assert proc.returncode == 1 and len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"error: cannot write {out}/") and lines[0].endswith(": No space left on device")
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    subprocess.run(["mount", "-o", "remount,size=16m", str(small_disk)], check=True)
    run("-n", 60, "-d", "all", "-o", out, "-s", 7, "-j", 2, "--shard-size", 20)
    assert tree_bytes(out) == tree_bytes(reference_run)
