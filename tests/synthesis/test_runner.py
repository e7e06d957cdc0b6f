"""The runner's jobs: shards computed whole or in parts, and parts written by one job."""
from __future__ import annotations

import subprocess
import sys

from hypothesis import given, strategies as st

from synthesis.runner import PART_SIZE, WRITE, RunPlan, ShardJob, execute, jobs_for
from synthesis.stages import canonical_categories
from synthesis.writer import PairFolder


def _plan(count: int, shard_size: int, root=None) -> RunPlan:
    pairs = None
    if root is not None:
        pairs = PairFolder(root, {"count": count, "seed": 3, "format": "jsonl", "shard_size": shard_size,
                                  "warp_version": "test"})
    return RunPlan(count, 3, canonical_categories(()), shard_size, devices=("cuda",), pairs=pairs)


@given(count=st.integers(1, 400), shard_size=st.integers(1, 120))
def test_the_parts_of_every_shard_cover_its_kernels_once_in_order(count, shard_size):
    plan = _plan(count, shard_size)
    for shard in range(plan.shard_count):
        parts = [plan.part_range(shard, p) for p in range(plan.part_count(shard))]
        indices = [i for lo, hi in parts for i in range(lo, hi + 1)]
        first, last = plan.shard_range(shard)
        assert indices == list(range(first, last + 1))
        assert all(hi - lo + 1 <= PART_SIZE for lo, hi in parts)


def test_split_jobs_are_every_part_of_each_shard_in_turn():
    plan = _plan(2 * (PART_SIZE + 3), PART_SIZE + 3)  # two shards of PART_SIZE + 3 kernels: 2 parts each
    assert jobs_for(plan, [0, 1], split=False) == [ShardJob(0), ShardJob(1)]
    assert jobs_for(plan, [0, 1], split=True) == [ShardJob(0, 0), ShardJob(0, 1), ShardJob(1, 0), ShardJob(1, 1)]


def test_a_shard_made_in_parts_equals_a_whole_one_and_leaves_no_part_behind(tmp_path):
    count = PART_SIZE + 5  # one shard, two parts
    whole, split = _plan(count, count, tmp_path / "whole"), _plan(count, count, tmp_path / "split")
    execute(whole, workers=1)
    split.pairs.prepare()
    stray = split.pairs.part_path(0, 7)  # what an interrupted run with another layout could leave
    stray.write_bytes(b"not a pickle")
    execute(split, workers=2)
    assert (tmp_path / "split" / "shard_00000.jsonl").read_bytes() == (tmp_path / "whole" / "shard_00000.jsonl").read_bytes()
    assert not list((tmp_path / "split").rglob("*.pickle"))


def test_the_writing_job_is_named_for_the_user():
    assert str(ShardJob(4, WRITE)) == "the writing of shard 4" and str(ShardJob(4, 1)) == "part 1 of shard 4"


def test_a_worker_freezes_what_exists_before_its_first_job_and_collects_less_often():
    # In a fresh interpreter: the collector's settings are the process's, not this test's to change.
    script = (
        "import gc\n"
        "from synthesis.runner import WORKER_COLLECTOR_THRESHOLDS, RunPlan, settle_worker\n"
        "from synthesis.stages import canonical_categories\n"
        "assert gc.get_threshold() != WORKER_COLLECTOR_THRESHOLDS and gc.get_freeze_count() == 0\n"
        "settle_worker(RunPlan(1, 3, canonical_categories(()), 1))\n"
        "print(gc.get_threshold() == WORKER_COLLECTOR_THRESHOLDS, gc.get_freeze_count() > 1000)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"]
