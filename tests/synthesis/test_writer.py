import errno
import os

import pytest

from synthesis.normalize import structure_hash
from synthesis.writer import OutputError, atomic_write, split_of, structure_counts


def test_a_full_disk_names_the_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    target = tmp_path / "shard_00000.jsonl"
    with pytest.raises(OutputError, match=f"cannot write {target}: No space left on device"):
        atomic_write(target, b"x" * 1000)
    assert list(tmp_path.iterdir()) == []


def test_split_depends_on_the_structure_alone():
    a = structure_hash("@wp.kernel\ndef k(x: wp.array(dtype=float)):\n    x[0] = 1.0\n")
    b = structure_hash("@wp.kernel\ndef other(y: wp.array(dtype=float)):\n    y[0] = 2.5\n")
    assert a == b and split_of(a, (0.5, 0.25, 0.25)) == split_of(b, (0.5, 0.25, 0.25))


def test_split_fractions_are_respected():
    hashes = [structure_hash("def f():\n" + "".join(f"    a.b{j} = 1\n" for j in range(i % 50)) + "    " + "x." * (i // 50) + "y\n")
              for i in range(2000)]
    names = [split_of(h, (0.9, 0.05, 0.05)) for h in hashes]
    assert 0.87 < names.count("train") / len(names) < 0.93
    assert names.count("validation") > 50 and names.count("test") > 50


def test_duplicates_count_every_repeat_of_a_structure():
    assert structure_counts(["a", "b", "a", "a", "c"]) == {"kernels": 5, "distinct": 3, "duplicates": 2}


def test_a_missing_part_is_one_line_naming_it(tmp_path):
    from synthesis.writer import PairFolder

    folder = PairFolder(tmp_path, {"format": "jsonl"})
    folder.state.mkdir()
    folder.save_part(0, 0, [])
    with pytest.raises(OutputError, match=r"cannot read .*shard_00000\.part_01\.pickle .*run the same command"):
        folder.load_parts(0, 2)


@pytest.mark.parametrize("folder", ["pairs", "cuda_production"])
def test_the_committed_data_folders_shards_are_done_as_their_markers_say(folder):
    """Every shard marker in data/ names its files' current digests, so a resume takes the committed
    shards as done and rewrites none of them (samples relabelled with GPU timings included)."""
    import json
    from pathlib import Path

    from synthesis.writer import RunFolder

    root = Path(__file__).resolve().parents[2] / "data" / folder
    markers = sorted((root / ".synth").glob("shard_*.json"))
    assert markers
    run = RunFolder(root, json.loads((root / ".synth" / "run.json").read_text()))
    assert [m.name for m in markers if not run.shard_done(int(m.stem.split("_")[1]))] == []
