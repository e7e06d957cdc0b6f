"""The output folder as a dataset: the card, the splits by structure, loading with `datasets`."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

datasets = pytest.importorskip("datasets")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def split_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ds") / "pairs"
    proc = subprocess.run([sys.executable, str(ROOT / "synthesis" / "pipeline.py"), "--no-progress", "-n", "80",
                           "-d", "cpu", "--no-backward", "-s", "11", "--splits", "0.8,0.1,0.1", "--shard-size", "40",
                           "-j", "2", "-o", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return out


def load_splits(out: Path):
    files = {s: str(out / s / "*.jsonl") for s in ("train", "validation", "test")}
    return datasets.load_dataset("json", data_files=files, cache_dir=str(out.parent / "hf_cache"))


def test_no_structure_is_in_two_splits(split_run):
    ds = load_splits(split_run)
    hashes = {s: {m["structure_hash"] for m in ds[s]["metadata"]} for s in ds}
    assert hashes["train"] and hashes["validation"] and hashes["test"]
    assert not (hashes["train"] & hashes["validation"] or hashes["train"] & hashes["test"]
                or hashes["validation"] & hashes["test"])


def test_split_sizes_match_the_manifest_and_the_card(split_run):
    ds = load_splits(split_run)
    manifest = json.loads((split_run / "manifest.json").read_text())
    sizes = {s: ds[s].num_rows for s in ds}
    assert sizes == manifest["pairs_per_split"] and sum(sizes.values()) == 80
    header = yaml.safe_load((split_run / "README.md").read_text().split("---")[1])
    assert {s["name"]: s["num_examples"] for s in header["dataset_info"]["splits"]} == sizes
    assert [f["split"] for f in header["configs"][0]["data_files"]] == ["train", "validation", "test"]


def test_the_card_alone_loads_the_dataset_with_its_declared_features(split_run):
    ds = datasets.load_dataset(str(split_run), cache_dir=str(split_run.parent / "hf_cache_card"))
    assert {s: ds[s].num_rows for s in ds} == json.loads((split_run / "manifest.json").read_text())["pairs_per_split"]
    assert ds["train"][0]["cpp_backward"] is None and ds["train"][0]["metadata"]["device"] == "cpu"


def test_duplicates_in_the_manifest_are_counted_from_the_records(split_run):
    ds = load_splits(split_run)
    hashes = [m["structure_hash"] for s in ds for m in ds[s]["metadata"]]
    structures = json.loads((split_run / "manifest.json").read_text())["structures"]
    assert structures == {"kernels": 80, "distinct": len(set(hashes)), "duplicates": 80 - len(set(hashes))}
