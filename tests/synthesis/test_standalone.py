"""`--standalone` and `--samples`: one run, one kernel per index in every output, and the standalone
CUDA each pair carries compiles and equals Warp on the CPU."""
import base64
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import jsonlines
import pytest

from cuda_production.compile_cuda import HOST_MARKER, find_nvcc, full_ptx, validate_samples
from cuda_production.host_check import run_on_host

ROOT = Path(__file__).resolve().parents[2]
needs_nvcc = pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed")


def cli(script: str, *args):
    proc = subprocess.run([sys.executable, str(ROOT / script), "--no-progress", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


@pytest.fixture(scope="module")
def standalone_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("standalone")
    # two workers: the shard is computed in two parts (10 + 2 kernels) and written from them
    cli("synthesis/pipeline.py", "-n", 12, "-d", "cuda", "-s", 5, "--standalone", "--samples", root / "samples",
        "-o", root / "pairs", "-j", 2)
    with jsonlines.open(root / "pairs" / "shard_00000.jsonl") as reader:
        pairs = list(reader)
    return root, pairs


def test_pairs_and_sample_folders_name_the_same_kernels(standalone_run):
    root, pairs = standalone_run
    from_pairs = {p["metadata"]["index"]: p["metadata"]["kernel_name"] for p in pairs}
    from_samples = {}
    for folder in (root / "samples").glob("sample_*"):
        meta = json.loads((folder / "metadata.json").read_text())
        from_samples[meta["index"]] = meta["kernel_name"]
    assert len(from_pairs) == 12 and from_pairs == from_samples


def test_the_production_cli_makes_the_same_samples(standalone_run, tmp_path):
    root, _ = standalone_run
    # one worker: whole shards, against the fixture's shard written from parts
    cli("cuda_production/production_pipeline.py", "-n", 1, "-s", 5, "--validate", "-o", tmp_path / "prod", "-j", 1)
    for folder in (root / "samples").glob("sample_*"):
        twin = tmp_path / "prod" / folder.name
        assert {p.name: p.read_bytes() for p in folder.iterdir()} == {p.name: p.read_bytes() for p in twin.iterdir()}


@needs_nvcc
def test_every_standalone_kernel_compiles_alone(standalone_run, tmp_path):
    _, pairs = standalone_run
    assert all(p["cuda_standalone"]["validation"]["status"] == "ok" for p in pairs)
    first = tmp_path / "first.cu"
    first.write_text(pairs[0]["cuda_standalone"]["kernel"])
    assert full_ptx(first)[0] and "int main" not in first.read_text()  # its own includes suffice
    items = []
    for p in pairs:  # the kernel-with-helpers texts alone, batched as validation batches programs
        cu = tmp_path / f"{p['metadata']['kernel_name']}.cu"
        cu.write_text(p["cuda_standalone"]["kernel"] + HOST_MARKER + "\n")
        items.append((cu, p["metadata"]["kernel_name"]))
    assert [v.status for v in validate_samples(items, workers=2)] == ["ok"] * len(pairs)


def test_every_standalone_program_equals_warp_on_the_cpu(standalone_run, tmp_path):
    _, pairs = standalone_run
    folders = []
    for p in pairs:  # a pair is self-contained: its program and Warp's outputs make a sample
        folder = tmp_path / p["metadata"]["kernel_name"]
        folder.mkdir()
        (folder / f"{folder.name}.cu").write_text(p["cuda_standalone"]["program"])
        (folder / "expected.bin").write_bytes(base64.b64decode(p["cuda_standalone"]["expected_base64"]))
        folders.append(folder)
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(run_on_host, folders))
    assert [f.name for f, r in zip(folders, runs) if not r.passed] == []
