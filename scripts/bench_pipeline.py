"""Pipeline throughput vs Warp's own floor, measured in one run on this machine.

Floor: the same kernels, in a tight loop, with nothing but Warp's work: create the kernel from its
source (Warp's decorator parses it), build the module, emit CUDA (forward + backward). The strict
floor leaves out kernel creation too. End to end: `synthesis/pipeline.py -d cuda --backward` with
1 and 2 workers (and any other counts given with --workers, for a bigger machine), generation,
extraction, JSON and shard writing included; and `--standalone` (translation, Warp's CPU reference,
batched nvcc validation per kernel on top) on a smaller count. Beside the floor (which uses the
pipeline's overload memo, so the ratio measures the pipeline's own costs), the two-worker pipeline is
also set against Warp as shipped, the memo off (`without_overload_memo`): what stock Warp's own
codegen does with the same two cores.

    python scripts/bench_pipeline.py [-n 2000] [--standalone-count 200] [--workers 1,2,4,8,16] [--per-worker 1000]

Our own share of the work, and a comparison with another revision (issue 6: throughput within 0.85
of an earlier revision's): `--generation` prints the CPU time per kernel of generation
(`synthesis.categories.generate`) and of `structure_hash`, the two costs of ours in front of Warp's.
`--baseline REV` checks REV out in a temporary git worktree and measures the same figures and the
pipeline's throughput (`-j 1`) there and here, alternately, `--rounds` times (best of each: the
machine may be shared), and prints the ratios new / REV: in wall time, and in CPU time per kernel
(each run less a 28-kernel run of the same tree: start-up cancels). On a shared machine whose speed
moves within seconds, `--side-by-side K` runs K copies of each side at the same time instead, each
pinned to a physical core of its own (a process sharing a core with another busy one runs far
slower), so each round's ratio compares runs that saw the same machine.

    python scripts/bench_pipeline.py --baseline 34f262e -n 600 --rounds 5 --side-by-side 2

`--paired-floor K` measures the two-worker figure the same way: K pipelines with 2 workers and K pairs
of Warp floor processes at the same time, each process pinned to a core of its own.

    python scripts/bench_pipeline.py --paired-floor 3 -n 1200 --rounds 4

`--equal-load W` measures the scaling figure (W workers against W x one worker) with the machine
equally loaded on both sides: a core runs slower when all cores are busy (shared clock budget, memory
bandwidth, caches), so one worker alone on an idle machine sets a bar no W processes can reach, Warp's
own floor included. Rounds alternate W single-worker pipelines at once (each pinned to a core of its
own; their kernels/s summed: W x one worker on a loaded machine) and one pipeline with W workers on
the same cores; each W-worker round is set against the mean of the single-worker rounds either side
of it. What is left of the ratio is the executor's own cost: the parent, shard hand-out, the tail.

    python scripts/bench_pipeline.py --equal-load 16 --per-worker 600 --rounds 3

    python scripts/bench_pipeline.py --generation [-n 1300]
    python scripts/bench_pipeline.py --baseline 34f262e [-n 600] [--rounds 3]
"""
from __future__ import annotations

import argparse
import functools
import json
import math
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SMALL_RUN = 28  # kernels of the short run whose CPU time is subtracted (two of each category)


def floor_sources(count: int, seed: int) -> list[tuple[str, str, int]]:
    """(kernel name, module source, launch block_dim) of the run's first `count` kernels: all a floor
    keeps of them."""
    from synthesis.categories import generate
    from synthesis.stages import canonical_categories, task_for

    cats = canonical_categories(())
    return [(sp.name, sp.source, sp.block_dim) for sp in
            (generate(t.category, t.seed) for t in (task_for(i, cats, seed) for i in range(count)))]


def floor_rate(count: int, seed: int) -> tuple[float, float]:
    return floor_of(floor_sources(count, seed))


def settle_floor() -> None:
    """Before a floor is timed: what the process made to prepare it (kernels generated, Warp set up)
    is left out of garbage collection, so the floor pays only for Warp's own work. (Before session 23
    a floor process kept every generated spec and collected through them: 8% slower at 1,200
    kernels, 14% at 4,800, which flattered the pipeline.)"""
    import gc

    gc.collect()
    gc.freeze()


def floor_of(kernels: list[tuple[str, str, int]]) -> tuple[float, float]:
    """Warp's floor over (kernel name, module source, block_dim): kernels/s of create + build + emit,
    and of build + emit alone (kernels created beforehand)."""
    from extraction import warp_compat
    from extraction.loader import load_kernels, unload

    name, source, block_dim = kernels[0]
    warp_compat.build_module(load_kernels(source, "warm")[name], True, block_dim).codegen("cuda")
    settle_floor()
    t0 = time.perf_counter()
    for name, source, block_dim in kernels:
        k = load_kernels(source, "f_" + name)[name]
        warp_compat.build_module(k, True, block_dim).codegen("cuda")
        unload("f_" + name)
    with_load = len(kernels) / (time.perf_counter() - t0)
    created = [(load_kernels(source, "g_" + name)[name], block_dim) for name, source, block_dim in kernels]
    settle_floor()
    t0 = time.perf_counter()
    for k, block_dim in created:
        warp_compat.build_module(k, True, block_dim).codegen("cuda")
    strict = len(kernels) / (time.perf_counter() - t0)
    return with_load, strict


def without_overload_memo() -> None:
    """Warp as shipped in this process: the overload memo (warp_compat.memoize_overload_resolution),
    which the pipeline and the floor both use, taken off again."""
    from warp._src.codegen import Adjoint

    Adjoint.resolve_func = getattr(Adjoint.resolve_func, "__wrapped__", Adjoint.resolve_func)


def _timed_floor(count: int, seed: int, barrier, results, shipped: bool = False) -> None:
    """One process of `concurrent_floor`: prepare (untimed), wait for all, then time the floor."""
    from extraction import warp_compat
    from extraction.loader import load_kernels, unload

    kernels = floor_sources(count, seed)
    warm = load_kernels(kernels[0][1], "warm")[kernels[0][0]]
    warp_compat.build_module(warm, True, kernels[0][2]).codegen("cuda")
    if shipped:
        without_overload_memo()
    settle_floor()
    barrier.wait()
    t0 = time.monotonic()
    for name, source, block_dim in kernels:
        k = load_kernels(source, "f_" + name)[name]
        warp_compat.build_module(k, True, block_dim).codegen("cuda")
        unload("f_" + name)
    results.put((t0, time.monotonic(), count))


def concurrent_floor(count: int, seed: int, processes: int, shipped: bool = False) -> float:
    """The floor with `processes` copies running at once, `count` kernels each, from a common start
    (a barrier) to the last one's end: what this machine allows in parallel. `shipped`: Warp as
    shipped, without the overload memo (without_overload_memo)."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(processes), ctx.Queue()
    procs = [ctx.Process(target=_timed_floor, args=(count, seed + 7919 * p, barrier, results, shipped))
             for p in range(processes)]
    for proc in procs:
        proc.start()
    spans = [results.get() for _ in procs]
    for proc in procs:
        proc.join()
    return sum(n for _, _, n in spans) / (max(t1 for _, t1, _ in spans) - min(t0 for t0, _, _ in spans))


def tree_env(root: Path) -> dict[str, str]:
    """The environment with `root` first on PYTHONPATH (its code imported), the rest kept (a Warp
    installed outside site-packages)."""
    rest = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=str(root) + (os.pathsep + rest if rest else ""))


THROUGHPUT_LINE = re.compile(r"throughput\s+(\d+) kernels/s \(\d+ workers, ([\d.]+) s\)")


def printed_rate(output: str, count: int) -> float:
    """Kernels/s of a pipeline run from the time its throughput line prints (the rate there is rounded)."""
    return count / float(THROUGHPUT_LINE.search(output).group(2))


def pipeline_run(count: int, seed: int, workers: int, *extra: str, root: Path = ROOT) -> tuple[float, float, float]:
    """Kernels/s of `synthesis/pipeline.py -d cuda` in the tree at `root` (its own code imported), the
    kB of JSONL pairs (Python source, Warp's C++/CUDA) it wrote per kernel (how big the kernels are),
    and the CPU seconds the run took, its worker processes included (start-up included too)."""
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(
            [sys.executable, str(root / "synthesis" / "pipeline.py"), "-n", str(count), "-d", "cuda",
             "-o", str(Path(tmp) / "out"), "-s", str(seed), "-j", str(workers), "--no-progress", *extra],
            capture_output=True, text=True, check=True, cwd=root, env=tree_env(root))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        written = sum(f.stat().st_size for f in (Path(tmp) / "out").rglob("*.jsonl"))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return printed_rate(proc.stdout, count), written / 1000 / count, cpu


def one_cpu_per_core() -> list[int]:
    """One logical CPU of each physical core this process may run on (SMT siblings left out): two
    busy processes on siblings of one core each run far slower, which a timing must not depend on."""
    allowed = sorted(os.sched_getaffinity(0))
    seen, chosen = set(), []
    for cpu in allowed:
        topology = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology")
        try:
            core = ((topology / "physical_package_id").read_text().strip(), (topology / "core_id").read_text().strip())
        except OSError:
            core = ("", str(cpu))
        if core not in seen:
            seen.add(core)
            chosen.append(cpu)
    return chosen


def pipelines_at_once(runs: list[tuple[Path, int]], seed: int) -> list[tuple[float, float]]:
    """`pipeline.py -d cuda -j 1` for each (tree, kernel count) in `runs`, all started at once: each
    run's kernels/s (from its printed time) and CPU seconds (its own and its worker's, from wait4).
    Runs that share the machine's moments share its moods too, so their ratio is paired in time."""
    cpus = one_cpu_per_core()
    if len(cpus) < len(runs):
        sys.exit(f"bench_pipeline: {len(runs)} runs at once need as many physical cores; {len(cpus)} here")
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for k, (root, count) in enumerate(runs):
            log = open(Path(tmp) / f"{k}.out", "w+")
            # each run (its parent and worker) pinned to a core of its own
            pin = functools.partial(os.sched_setaffinity, 0, {cpus[k]})
            proc = subprocess.Popen(preexec_fn=pin, args=
                [sys.executable, str(root / "synthesis" / "pipeline.py"), "-n", str(count), "-d", "cuda",
                 "-o", str(Path(tmp) / f"out{k}"), "-s", str(seed), "-j", "1", "--no-progress"],
                stdout=log, stderr=subprocess.STDOUT, text=True, cwd=root, env=tree_env(root))
            procs.append((proc, log, count))
        results = []
        for proc, log, count in procs:
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            log.seek(0)
            text = log.read()
            log.close()
            if proc.returncode:
                raise subprocess.CalledProcessError(proc.returncode, proc.args, "", text)
            results.append((printed_rate(text, count), usage.ru_utime + usage.ru_stime))
        return results


# Run in a subprocess pinned to one core: Warp's floor (create + build + emit) over `count` kernels of
# seed `seed`, generated beforehand (untimed), after one warm-up kernel; prints kernels/s.
FLOOR_TIMER = r"""
import sys, time
sys.path.insert(0, "scripts")
from bench_pipeline import floor_sources, settle_floor
from extraction import warp_compat
from extraction.loader import load_kernels, unload
count, seed = int(sys.argv[1]), int(sys.argv[2])
kernels = floor_sources(count, seed)
warp_compat.build_module(load_kernels(kernels[0][1], "warm")[kernels[0][0]], True, kernels[0][2]).codegen("cuda")
settle_floor()
t0 = time.perf_counter()
for name, source, block_dim in kernels:
    k = load_kernels(source, "f_" + name)[name]
    warp_compat.build_module(k, True, block_dim).codegen("cuda")
    unload("f_" + name)
print(count / (time.perf_counter() - t0))
"""


def paired_floor_figures(args) -> None:
    """Issue 7's two-worker figure paired in time: K pipelines with 2 workers (each pinned to 2 cores
    of its own) and K pairs of Warp floor processes (each pinned to a core of its own, -n / 2 kernels
    each, seeds as `concurrent_floor`'s) all at the same time, `--rounds` times."""
    cpus = one_cpu_per_core()
    k = args.paired_floor
    if 4 * k > len(cpus):
        sys.exit(f"bench_pipeline: --paired-floor {k} needs {4 * k} physical cores, this machine has {len(cpus)}")
    ratios = []
    print(f"{k} pipeline(s) -j 2 and {k} pair(s) of Warp floor processes at the same time, each process on a "
          f"core of its own; {args.count} kernels per pipeline, {args.count // 2} per floor process")
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            procs = []
            for j in range(k):
                pipe_cpus, floor_cpus = cpus[4 * j:4 * j + 2], cpus[4 * j + 2:4 * j + 4]
                if round_ % 2:  # the two kinds swap cores every other round
                    pipe_cpus, floor_cpus = floor_cpus, pipe_cpus
                log = open(Path(tmp) / f"p{round_}_{j}.out", "w+")
                proc = subprocess.Popen(
                    [sys.executable, str(ROOT / "synthesis" / "pipeline.py"), "-n", str(args.count), "-d", "cuda",
                     "-o", str(Path(tmp) / f"out{round_}_{j}"), "-s", str(args.seed + round_), "-j", "2", "--no-progress"],
                    stdout=log, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=tree_env(ROOT),
                    preexec_fn=functools.partial(os.sched_setaffinity, 0, set(pipe_cpus)))
                procs.append(("pipeline", j, proc, log))
                for p, cpu in enumerate(floor_cpus):
                    log = open(Path(tmp) / f"f{round_}_{j}_{p}.out", "w+")
                    proc = subprocess.Popen(
                        [sys.executable, "-c", FLOOR_TIMER, str(args.count // 2), str(args.seed + round_ + 7919 * p)],
                        stdout=log, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=tree_env(ROOT),
                        preexec_fn=functools.partial(os.sched_setaffinity, 0, {cpu}))
                    procs.append(("floor", j, proc, log))
            pipeline_rates, floor_rates = [0.0] * k, [0.0] * k
            for kind, j, proc, log in procs:
                text = _finished(proc, log)
                if kind == "pipeline":
                    pipeline_rates[j] = printed_rate(text, args.count)
                else:
                    floor_rates[j] += float(text.strip().splitlines()[-1])
            pipe, floor = statistics.mean(pipeline_rates), statistics.mean(floor_rates)
            ratios.append(pipe / floor)
            print(f"  round {round_ + 1}: pipeline -j 2 {pipe:6.1f} kernels/s, Warp floor as 2 processes "
                  f"{floor:6.1f} kernels/s: {pipe / floor:.2f}")
    print(f"pipeline 2 workers / Warp's floor as 2 processes at once: median {statistics.median(ratios):.2f} "
          f"(range {min(ratios):.2f}-{max(ratios):.2f})")


def pinned_pipeline(root: Path, count: int, seed: int, workers: int, cpus: set[int], out: Path, log):
    """Start `pipeline.py -d cuda -j workers` in the tree at `root`, pinned (parent and workers) to `cpus`."""
    return subprocess.Popen(
        [sys.executable, str(root / "synthesis" / "pipeline.py"), "-n", str(count), "-d", "cuda", "-o", str(out),
         "-s", str(seed), "-j", str(workers), "--no-progress"],
        stdout=log, stderr=subprocess.STDOUT, text=True, cwd=root, env=tree_env(root),
        preexec_fn=functools.partial(os.sched_setaffinity, 0, cpus))


def equal_load_rates(workers: int, per_worker: int, seed: int, cpus: list[int], root: Path = ROOT) -> tuple[float, float]:
    """One round of `--equal-load`: kernels/s of `workers` single-worker pipelines at once (summed; each
    on a core of its own, `per_worker` kernels each), then of one pipeline with `workers` workers on
    the same cores (`workers * per_worker` kernels)."""
    with tempfile.TemporaryDirectory() as tmp:
        singles = []
        for k in range(workers):
            log = open(Path(tmp) / f"one{k}.out", "w+")
            singles.append((pinned_pipeline(root, per_worker, seed + k, 1, {cpus[k]}, Path(tmp) / f"one{k}", log), log))
        total_one = sum(printed_rate(_finished(proc, log), per_worker) for proc, log in singles)
        log = open(Path(tmp) / "many.out", "w+")
        proc = pinned_pipeline(root, workers * per_worker, seed, workers, set(cpus[:workers]), Path(tmp) / "many", log)
        many = printed_rate(_finished(proc, log), workers * per_worker)
    return total_one, many


def _finished(proc: subprocess.Popen, log) -> str:
    """Wait for `proc`; its output (from `log`, closed here), or CalledProcessError if it failed."""
    proc.wait()
    log.seek(0)
    text = log.read()
    log.close()
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, proc.args, "", text)
    return text


def equal_load_figures(args) -> None:
    """Issue 7's scaling figure with the machine equally loaded on both sides (see the module's text)."""
    cpus = one_cpu_per_core()
    w = args.equal_load
    if w < 2 or w > len(cpus):
        sys.exit(f"bench_pipeline: --equal-load needs 2 to {len(cpus)} workers (one physical core each here), got {w}")
    per_worker = args.per_worker or max(args.count // w, 1)
    print(f"{w} pipelines -j 1 at once ({per_worker} kernels each, each on a core of its own), then one pipeline "
          f"-j {w} ({w * per_worker} kernels) on the same cores; {args.rounds} rounds")
    ones, manys = [], []
    for round_ in range(args.rounds):
        one, many = equal_load_rates(w, per_worker, args.seed + round_, cpus)
        ones.append(one)
        manys.append(many)
        print(f"  round {round_ + 1}: {w} x one worker at once {one:7.1f} kernels/s; {w} workers {many:7.1f} kernels/s")
    ratios = equal_load_ratios(ones, manys)
    print(f"{w} workers / {w} x one worker, machine equally loaded: median {statistics.median(ratios):.2f} "
          f"(range {min(ratios):.2f}-{max(ratios):.2f})")


def equal_load_ratios(ones: list[float], manys: list[float]) -> list[float]:
    """Each W-worker round against the mean of the single-worker rounds just before and after it (the
    one before only, for the last round): the W-worker run sits between them in time."""
    ratios = []
    for r, many in enumerate(manys):
        around = ones[r:r + 2]
        ratios.append(many / statistics.mean(around))
    return ratios


def side_by_side_figures(args) -> None:
    """The pipeline here and at --baseline, `--side-by-side K` copies of each running at the same
    time (2K processes on as many cores), `--rounds` times; then the same with SMALL_RUN kernels, so
    that start-up cancels from the CPU time per kernel."""
    cores = len(one_cpu_per_core())
    if 2 * args.side_by_side > cores:  # one busy process per run (its worker; the parent waits)
        sys.exit(f"bench_pipeline: --side-by-side {args.side_by_side} needs {2 * args.side_by_side} physical cores, "
                 f"this machine has {cores}")
    rev, k = args.baseline, args.side_by_side
    with revision_tree(rev) as old_root:
        rounds = []
        for round_ in range(args.rounds):
            # old and new alternate in the start order, so neither side always starts first
            roots = [old_root, ROOT] * k if round_ % 2 == 0 else [ROOT, old_root] * k
            big = pipelines_at_once([(r, args.count) for r in roots], args.seed)
            small = pipelines_at_once([(r, SMALL_RUN) for r in roots], args.seed)
            side = lambda root, values: [v for r, v in zip(roots, values) if r == root]  # noqa: E731
            rate = {n: statistics.mean(x[0] for x in side(r, big)) for n, r in (("old", old_root), ("new", ROOT))}
            cpu = {n: statistics.mean(cpu_per_kernel(args.count, b[1], s[1]) for b, s in zip(side(r, big), side(r, small)))
                   for n, r in (("old", old_root), ("new", ROOT))}
            rounds.append((rate, cpu))
    print(f"{k} run(s) of {rev} and {k} of this tree at the same time, {args.count} kernels each, -d cuda -j 1; "
          f"{args.rounds} rounds; each run pinned to a physical core of its own ({cores} here)")
    for r, (rate, cpu) in enumerate(rounds):
        print(f"  round {r + 1}: kernels/s {rate['old']:6.1f} ({rev}) {rate['new']:6.1f} (now) = {rate['new'] / rate['old']:.2f}"
              f";  CPU ms/kernel {cpu['old']:5.2f} {cpu['new']:5.2f} -> throughput per core {cpu['old'] / cpu['new']:.2f}")
    wall = [rate["new"] / rate["old"] for rate, _ in rounds]
    core = [cpu["old"] / cpu["new"] for _, cpu in rounds]
    print(f"pipeline -d cuda -j 1, new / {rev}: kernels/s median {statistics.median(wall):.2f} "
          f"(range {min(wall):.2f}-{max(wall):.2f}); per core (CPU time, start-up excluded) median "
          f"{statistics.median(core):.2f} (range {min(core):.2f}-{max(core):.2f})")


def cpu_per_kernel(count: int, cpu: float, small_cpu: float) -> float:
    """CPU ms per kernel of a `count`-kernel run that took `cpu` seconds, less a SMALL_RUN-kernel run
    of the same seed and tree (`small_cpu`). Python's start, Warp's import and initialisation and the
    manifest cost the same in both and cancel; what is left is the per-kernel cost, which another
    tenant of the machine can slow (cache, memory bandwidth) but cannot inflate the way it inflates
    wall time (our process waiting for a core)."""
    return 1000 * (cpu - small_cpu) / (count - SMALL_RUN)


def pipeline_rate(count: int, seed: int, workers: int, *extra: str, root: Path = ROOT) -> float:
    return pipeline_run(count, seed, workers, *extra, root=root)[0]


# Run in a subprocess with the measured tree on PYTHONPATH: CPU ms per kernel of generation and of
# structure_hash ("nan" where the tree has none), over the categories in turn. The first kernel is
# made before the clock starts (imports, first-call set-up).
GENERATION_TIMER = r"""
import sys, time
from synthesis.categories import CATEGORY_NAMES, generate
try:
    from synthesis.normalize import structure_hash
except ImportError:
    structure_hash = None
count, seed = int(sys.argv[1]), int(sys.argv[2])
tasks = [(CATEGORY_NAMES[i % len(CATEGORY_NAMES)], seed + i) for i in range(count)]
generate(*tasks[0])
spent_generate = spent_hash = 0.0
for c, s in tasks:  # hashed right after generation, as the pipeline's generate stage does
    t0 = time.process_time()
    source = generate(c, s).source
    t1 = time.process_time()
    if structure_hash:
        structure_hash(source)
    spent_generate += t1 - t0
    spent_hash += time.process_time() - t1
print(1000 * spent_generate / count, 1000 * spent_hash / count if structure_hash else "nan")
"""


# Run in a subprocess with a tree on PYTHONPATH: the (name, source) of the kernels that tree's
# generators make, in the pipeline's order, as JSON to a file.
SOURCE_DUMP = r"""
import json, sys
from synthesis.categories import CATEGORY_NAMES, generate
count, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
specs = [generate(CATEGORY_NAMES[i % len(CATEGORY_NAMES)], seed + i) for i in range(count)]
json.dump([(sp.name, sp.source, getattr(sp, "block_dim", 0)) for sp in specs], open(out, "w"))
"""


def tree_sources(count: int, seed: int, root: Path) -> list[tuple[str, str, int]]:
    """(name, source, launch block_dim) of `count` kernels generated by the tree at `root`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sources.json"
        subprocess.run([sys.executable, "-c", SOURCE_DUMP, str(count), str(seed), str(out)], capture_output=True,
                       text=True, check=True, cwd=root, env=tree_env(root))
        return [tuple(pair) for pair in json.loads(out.read_text())]


def generation_cost(count: int, seed: int, root: Path = ROOT) -> tuple[float, float]:
    """CPU ms per kernel of generate and of structure_hash, in the tree at `root`."""
    proc = subprocess.run([sys.executable, "-c", GENERATION_TIMER, str(count), str(seed)], capture_output=True,
                          text=True, check=True, cwd=root, env=tree_env(root))
    gen, digest = proc.stdout.split()
    return float(gen), float(digest)


@contextmanager
def revision_tree(rev: str):
    """A temporary detached git worktree of `rev`, removed afterwards; `rev` a folder (a tree exported
    with `git archive`, for a machine without the repository's history): that folder, as it is."""
    if Path(rev).is_dir():
        yield Path(rev).resolve()
        return
    tmp = Path(tempfile.mkdtemp(prefix="bench_baseline_"))
    tree = tmp / "tree"
    try:
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), rev], cwd=ROOT, check=True, capture_output=True)
        yield tree
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


def generation_figures(args) -> None:
    costs = [generation_cost(args.count, args.seed) for _ in range(args.rounds)]
    gen, digest = min(c[0] for c in costs), min(c[1] for c in costs)
    print(f"generation      {gen:6.2f} ms/kernel CPU  (synthesis.categories.generate, {args.count} kernels, "
          f"best of {args.rounds})")
    print(f"structure_hash  {digest:6.2f} ms/kernel CPU")
    print(f"both            {gen + digest:6.2f} ms/kernel CPU")


def baseline_figures(args) -> None:
    """Generation cost and pipeline throughput here and at --baseline, measured alternately."""
    with revision_tree(args.baseline) as old_root:
        # Warp's own floor on each tree's kernels (same Warp, this process): how much of a change in
        # throughput is Warp's work on different kernels rather than the pipeline's.
        sources = {"old": tree_sources(args.count, args.seed, old_root), "new": tree_sources(args.count, args.seed, ROOT)}
        floors: dict[str, list] = {"new": [], "old": []}
        costs: dict[str, list] = {"new": [], "old": []}
        rates: dict[str, list] = {"new": [], "old": []}
        cpu: dict[str, list] = {"new": [], "old": []}  # CPU ms per kernel (pipeline_cpu_per_kernel)
        for round_ in range(args.rounds):
            sides = (("old", old_root), ("new", ROOT))
            for side, root in sides if round_ % 2 == 0 else sides[::-1]:  # neither side always first
                costs[side].append(generation_cost(args.count, args.seed, root))
                if not args.generation:
                    floors[side].append(floor_of(sources[side])[0])
                if not args.generation:
                    rates[side].append(pipeline_run(args.count, args.seed, 1, root=root))
                    small = pipeline_run(SMALL_RUN, args.seed, 1, root=root)
                    cpu[side].append(cpu_per_kernel(args.count, rates[side][-1][2], small[2]))
    rev = args.baseline
    best = {side: tuple(min(c[k] for c in costs[side]) for k in (0, 1)) for side in costs}
    print(f"best of {args.rounds} alternate runs, {args.count} kernels; CPU ms per kernel; {rev} against this tree")
    for k, label in ((0, "generation    "), (1, "structure_hash")):
        old, new = best["old"][k], best["new"][k]
        gain = "(none there)" if math.isnan(old) else f"{old / new:.2f}x faster"
        print(f"{label}   {rev} {old:6.2f}   now {new:6.2f}   {gain}")
    old, new = sum(x for x in best["old"] if not math.isnan(x)), sum(best["new"])
    print(f"both             {rev} {old:6.2f}   now {new:6.2f}   {old / new:.2f}x faster")
    if rates["new"]:
        (new, new_kb, _), (old, old_kb, _) = max(rates["new"]), max(rates["old"])
        print(f"pipeline -d cuda -j 1  {rev} {old:6.1f} kernels/s   now {new:6.1f} kernels/s   "
              f"new / {rev} = {new / old:.2f}")
        print(f"pairs written          {rev} {old_kb:6.1f} kB/kernel    now {new_kb:6.1f} kB/kernel    "
              f"new / {rev} = {new_kb / old_kb:.2f}  (Python + Warp's C++/CUDA, forward and backward)")
        print(f"pipeline output        {rev} {old * old_kb:6.0f} kB/s         now {new * new_kb:6.0f} kB/s         "
              f"new / {rev} = {new * new_kb / (old * old_kb):.2f}")
        old_floor, new_floor = max(floors["old"]), max(floors["new"])
        print(f"Warp floor             {rev} kernels {old_floor:6.1f}/s   now {new_floor:6.1f}/s   "
              f"new / {rev} = {new_floor / old_floor:.2f}  (create + build + emit, forward and backward)")
        print(f"pipeline / Warp floor  {rev} {old / old_floor:.2f}   now {new / new_floor:.2f}")
        # The best run of each side is the figure above; the rounds show how far the machine moved
        # them. Each round ran both sides back to back, so its own ratio is a paired measurement.
        paired = [n[0] / o[0] for n, o in zip(rates["new"], rates["old"])]
        print("pipeline per round     " + ", ".join(f"{o[0]:.0f}/{n[0]:.0f}" for n, o in zip(rates["new"], rates["old"]))
              + f" kernels/s ({rev}/now); paired ratios {', '.join(f'{r:.2f}' for r in paired)}; "
              f"median {statistics.median(paired):.2f}")
        # CPU time per kernel: what a core does per kernel, start-up cancelled (a run of SMALL_RUN
        # kernels subtracted); a shared machine moves it far less than wall time.
        old_cpu, new_cpu = min(cpu["old"]), min(cpu["new"])
        paired_cpu = [o / n for n, o in zip(cpu["new"], cpu["old"])]
        print(f"CPU per kernel -j 1    {rev} {old_cpu:6.2f} ms      now {new_cpu:6.2f} ms      "
              f"new / {rev} throughput per core = {old_cpu / new_cpu:.2f} (best of each); start-up excluded")
        print("CPU per round          " + ", ".join(f"{o:.2f}/{n:.2f}" for n, o in zip(cpu["new"], cpu["old"]))
              + f" ms ({rev}/now); paired ratios {', '.join(f'{r:.2f}' for r in paired_cpu)}; "
              f"median {statistics.median(paired_cpu):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--count", type=int, default=2000)
    ap.add_argument("-s", "--seed", type=int, default=42)
    ap.add_argument("--standalone-count", type=int, default=200, help="kernels for the --standalone figure (0: skip)")
    ap.add_argument("--workers", default="1,2", help="worker counts for the scaling table")
    ap.add_argument("--standalone-only", action="store_true", help="only the --standalone figures")
    ap.add_argument("--per-worker", type=int, default=0,
                    help="scaling table with this many kernels per worker (n = workers x this; weak scaling), "
                         "so that start-up is the same share at every count; 0: -n kernels at every count")
    ap.add_argument("--generation", action="store_true",
                    help="only the CPU cost per kernel of generation and structure_hash")
    ap.add_argument("--baseline", metavar="REV", help="compare with git revision REV (its own worktree), or with "
                    "the tree in folder REV")
    ap.add_argument("--rounds", type=int, default=3, help="alternate runs for --generation/--baseline (best kept)")
    ap.add_argument("--side-by-side", type=int, default=0, metavar="K",
                    help="with --baseline: run K copies of each side at the same time, paired in time (a shared "
                         "machine's speed moves within seconds), each pinned to a physical core of its own; needs 2K cores")
    ap.add_argument("--paired-floor", type=int, default=0, metavar="K",
                    help="only the two-worker figure, paired in time: K pipelines -j 2 and K pairs of Warp floor "
                         "processes at once, each process on a core of its own; needs 4K cores")
    ap.add_argument("--equal-load", type=int, default=0, metavar="W",
                    help="only the scaling figure with the machine equally loaded: W single-worker pipelines at "
                         "once against one with W workers on the same cores, alternately; --per-worker kernels each")
    args = ap.parse_args()
    if args.count < 1 or args.rounds < 1:
        sys.exit("bench_pipeline: -n and --rounds must be at least 1")
    if args.baseline is not None and not args.generation and args.count <= 2 * SMALL_RUN:
        sys.exit(f"bench_pipeline: --baseline needs -n above {2 * SMALL_RUN} (a {SMALL_RUN}-kernel run is subtracted)")
    if args.baseline is not None and not Path(args.baseline).is_dir():
        known = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{args.baseline}^{{commit}}"], cwd=ROOT,
                               capture_output=True)
        if known.returncode:
            sys.exit(f"bench_pipeline: --baseline {args.baseline!r} is not a revision of this repository")
    if args.baseline is not None:
        return side_by_side_figures(args) if args.side_by_side else baseline_figures(args)
    if args.generation:
        return generation_figures(args)
    if args.paired_floor:
        return paired_floor_figures(args)
    if args.equal_load:
        return equal_load_figures(args)
    counts = sorted({1, 2, *(int(w) for w in args.workers.split(","))})
    cores = os.cpu_count() or 1
    if args.standalone_only:
        return standalone_figures(args)
    floor, strict = floor_rate(args.count, args.seed)
    floor2 = concurrent_floor(args.count // 2, args.seed, 2)
    sizes = {w: args.per_worker * w if args.per_worker else args.count for w in counts}
    rates = {w: pipeline_rate(sizes[w], args.seed, w) for w in counts}
    one, two = rates[1], rates[2]
    print(f"kernels                         {args.count} (all categories, -d cuda, backward on), {cores} cores")
    print(f"warp floor (create+build+emit)  {floor:7.0f} kernels/s  (1 process)")
    print(f"warp strict floor (build+emit)  {strict:7.0f} kernels/s  (1 process, kernels created beforehand)")
    print(f"pipeline end to end, 1 worker   {one:7.0f} pairs/s   = {one / floor:.2f} x floor  ({one / strict:.2f} x strict)")
    print(f"pipeline end to end, 2 workers  {two:7.0f} pairs/s   = {two / (2 * floor):.2f} x floor x 2  ({two / (2 * strict):.2f} x strict x 2)")
    print(f"warp floor, 2 processes at once {floor2:7.0f} kernels/s  (= {floor2 / floor:.2f} x floor: the machine's own scaling)")
    print(f"pipeline 2 workers / that       {two / floor2:.2f}")
    shipped2 = concurrent_floor(args.count // 2, args.seed, 2, shipped=True)
    print(f"warp as shipped (no overload memo), 2 processes at once {shipped2:7.0f} kernels/s; "
          f"pipeline 2 workers / that {two / shipped2:.2f}")
    print(f"scaling 2 workers / 1 worker    {two / one:.2f}x")
    # The machine's own scaling: Warp's floor as w processes at once, against w x the floor alone.
    floors = {w: floor if w == 1 else concurrent_floor(max(sizes[w] // w, 50), args.seed, w) for w in counts}
    print("scaling (pipeline: kernels/s and share of w x one worker; warp floor as w processes at once: same;"
          " pipeline against that floor)")
    for w in counts:
        print(f"  {w:3d} workers, {sizes[w]:6d} kernels  pipeline {rates[w]:7.0f}/s = {rates[w] / (w * one):.2f} x {w} x one"
              f"   floor {floors[w]:7.0f}/s = {floors[w] / (w * floor):.2f} x {w} x one"
              f"   pipeline / floor {rates[w] / floors[w]:.2f} (1 worker: {one / floor:.2f})")
    standalone_figures(args)


def standalone_figures(args) -> None:
    if args.standalone_count:
        for w in (1, 2):
            # A fresh seed per run: Warp caches the CPU modules of the reference stage by kernel, so a
            # second run of the same kernels would skip their compilation, which a real run never does.
            rate = pipeline_rate(args.standalone_count, args.seed + 1000 + w, w, "--standalone")
            print(f"--standalone, {w} worker{'s' if w > 1 else ' '}         {rate:7.1f} kernels/s  ({args.standalone_count} kernels; "
                  "translate + Warp CPU reference + nvcc, on top of the pairs)")


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as exc:  # a measured run failed: its own last line says why
        last = (exc.stderr or "").strip().splitlines()[-1:] or ["no output"]
        sys.exit(f"bench_pipeline: {Path(exc.cmd[1]).name if len(exc.cmd) > 1 else exc.cmd[0]} failed "
                 f"(exit {exc.returncode}): {last[0]}")
