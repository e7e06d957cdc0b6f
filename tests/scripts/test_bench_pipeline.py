"""The benchmark's own machinery: core choice for pinned runs, and per-run CPU time of runs at once."""
from __future__ import annotations

import os
from pathlib import Path

from scripts.bench_pipeline import (SMALL_RUN, cpu_per_kernel, equal_load_rates, equal_load_ratios, floor_of,
                                    one_cpu_per_core, pipelines_at_once)

# A stand-in for a tree's synthesis/pipeline.py: burns CPU for about as long as its -n says (in tenths
# of a second), in a child process as the real pipeline's worker does, then prints the throughput
# line the benchmark reads.
FAKE_PIPELINE = '''
import os, sys, time
n = int(sys.argv[sys.argv.index("-n") + 1])
pid = os.fork()
if pid == 0:
    end = time.process_time() + n / 10
    while time.process_time() < end:
        pass
    os._exit(0)
os.waitpid(pid, 0)
print(f"throughput      {n} kernels/s (1 workers, 2.0 s)")
'''


def _fake_tree(root: Path) -> Path:
    (root / "synthesis").mkdir(parents=True)
    (root / "synthesis" / "pipeline.py").write_text(FAKE_PIPELINE)
    return root


def test_one_cpu_per_core_picks_allowed_cpus_on_distinct_cores():
    chosen = one_cpu_per_core()
    assert chosen and set(chosen) <= os.sched_getaffinity(0)
    cores = set()
    for cpu in chosen:
        topology = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology")
        if topology.exists():
            core = ((topology / "physical_package_id").read_text(), (topology / "core_id").read_text())
            assert core not in cores
            cores.add(core)


def test_runs_at_once_report_each_runs_own_cpu_time_worker_included(tmp_path):
    tree = _fake_tree(tmp_path / "tree")
    cpus = len(one_cpu_per_core())
    runs = [(tree, 3), (tree, 6)][:max(cpus, 1)]
    results = pipelines_at_once(runs, seed=1)
    assert [rate for rate, _ in results] == [n / 2.0 for _, n in runs]
    # the worker (a forked child the run waits for) burns n/10 s: counted for its run, not the other
    for (_, n), (_, cpu) in zip(runs, results):
        assert n / 10 - 0.05 <= cpu <= n / 10 + 0.5


def test_cpu_per_kernel_subtracts_the_short_run():
    assert cpu_per_kernel(SMALL_RUN + 100, cpu=3.0, small_cpu=2.0) == 10.0  # 1 s over 100 more kernels


def test_equal_load_sets_each_many_worker_round_between_the_single_worker_rounds_around_it():
    ratios = equal_load_ratios(ones=[100.0, 80.0, 60.0], manys=[90.0, 35.0, 30.0])
    assert ratios == [90.0 / 90.0, 35.0 / 70.0, 30.0 / 60.0]


def test_equal_load_sums_the_single_worker_runs_rates_and_reads_the_many_worker_runs_own(tmp_path):
    tree = _fake_tree(tmp_path / "tree")
    cpus = one_cpu_per_core()
    workers = min(2, len(cpus))
    total_one, many = equal_load_rates(workers, 3, seed=1, cpus=cpus, root=tree)
    # the fake prints n kernels/s over 2.0 s: each single run 3 / 2.0, the many-worker run (3 * workers) / 2.0
    assert total_one == workers * 3 / 2.0
    assert many == workers * 3 / 2.0


def test_the_floor_builds_a_forward_only_module_as_extraction_does():
    """A product of bfloat16 tiles needs a forward-only module (Warp refuses its adjoint): the floor
    builds the kernel without one, as extraction does (it raised Warp's TypeError before, on the first
    bfloat16 linear layer of a run)."""
    from tests.cuda_production.test_tiles_tensor_cores import gemm

    spec = gemm("bf16_floor", "bfloat16", 16, 16, 16, False)
    with_load, strict = floor_of([(spec.name, spec.source, spec.block_dim)])
    assert with_load > 0 and strict > 0

