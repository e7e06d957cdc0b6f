"""Pipeline throughput vs Warp's own floor, measured in one run on this machine.

Floor: the same kernels, in a tight loop, with nothing but Warp's work: create the kernel from its
source (Warp's decorator parses it), build the module, emit CUDA (forward + backward). The strict
floor leaves out kernel creation too. End to end: `synthesis/pipeline.py -d cuda --backward` with
1 and 2 workers (and any other counts given with --workers, for a bigger machine), generation,
extraction, JSON and shard writing included; and `--standalone` (translation, Warp's CPU reference,
batched nvcc validation per kernel on top) on a smaller count.

    python scripts/bench_pipeline.py [-n 2000] [--standalone-count 200] [--workers 1,2,4,8,16] [--per-worker 1000]
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def floor_rate(count: int, seed: int) -> tuple[float, float]:
    from extraction import warp_compat
    from extraction.loader import load_kernels, unload
    from synthesis.categories import generate
    from synthesis.stages import canonical_categories, task_for

    cats = canonical_categories(())
    specs = [generate(t.category, t.seed) for t in (task_for(i, cats, seed) for i in range(count))]
    warm = load_kernels(specs[0].source, "warm")[specs[0].name]
    warp_compat.build_module(warm, True).codegen("cuda")
    t0 = time.perf_counter()
    for sp in specs:
        k = load_kernels(sp.source, "f_" + sp.name)[sp.name]
        warp_compat.build_module(k, True).codegen("cuda")
        unload("f_" + sp.name)
    with_load = count / (time.perf_counter() - t0)
    kernels = [load_kernels(sp.source, "g_" + sp.name)[sp.name] for sp in specs]
    t0 = time.perf_counter()
    for k in kernels:
        warp_compat.build_module(k, True).codegen("cuda")
    strict = count / (time.perf_counter() - t0)
    return with_load, strict


def _timed_floor(count: int, seed: int, barrier, results) -> None:
    """One process of `concurrent_floor`: prepare (untimed), wait for all, then time the floor."""
    from extraction import warp_compat
    from extraction.loader import load_kernels, unload
    from synthesis.categories import generate
    from synthesis.stages import canonical_categories, task_for

    cats = canonical_categories(())
    specs = [generate(t.category, t.seed) for t in (task_for(i, cats, seed) for i in range(count))]
    warm = load_kernels(specs[0].source, "warm")[specs[0].name]
    warp_compat.build_module(warm, True).codegen("cuda")
    barrier.wait()
    t0 = time.monotonic()
    for sp in specs:
        k = load_kernels(sp.source, "f_" + sp.name)[sp.name]
        warp_compat.build_module(k, True).codegen("cuda")
        unload("f_" + sp.name)
    results.put((t0, time.monotonic(), count))


def concurrent_floor(count: int, seed: int, processes: int) -> float:
    """The floor with `processes` copies running at once, `count` kernels each, from a common start
    (a barrier) to the last one's end: what this machine allows in parallel."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(processes), ctx.Queue()
    procs = [ctx.Process(target=_timed_floor, args=(count, seed + 7919 * p, barrier, results)) for p in range(processes)]
    for proc in procs:
        proc.start()
    spans = [results.get() for _ in procs]
    for proc in procs:
        proc.join()
    return sum(n for _, _, n in spans) / (max(t1 for _, t1, _ in spans) - min(t0 for t0, _, _ in spans))


def pipeline_rate(count: int, seed: int, workers: int, *extra: str) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [sys.executable, str(ROOT / "synthesis" / "pipeline.py"), "-n", str(count), "-d", "cuda",
             "-o", str(Path(tmp) / "out"), "-s", str(seed), "-j", str(workers), "--no-progress", *extra],
            capture_output=True, text=True, check=True, cwd=ROOT)
    match = re.search(r"throughput\s+(\d+) kernels/s \(\d+ workers, ([\d.]+) s\)", proc.stdout)
    return count / float(match.group(2))  # kernels/s from the printed time (the rate is rounded)


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
    args = ap.parse_args()
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
    main()
