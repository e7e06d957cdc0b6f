"""Pipeline throughput vs Warp's own floor, measured in one run on this machine.

Floor: the same kernels, in a tight loop, with nothing but Warp's work: create the kernel from its
source (Warp's decorator parses it), build the module, emit CUDA (forward + backward). The strict
floor leaves out kernel creation too. End to end: `synthesis/pipeline.py -d cuda --backward` with
1 and 2 workers (and any other counts given with --workers, for a bigger machine), generation,
extraction, JSON and shard writing included; and `--standalone` (translation, Warp's CPU reference,
batched nvcc validation per kernel on top) on a smaller count.

    python scripts/bench_pipeline.py [-n 2000] [--standalone-count 200] [--workers 1,2,4,8,16]
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


def concurrent_floor(count: int, seed: int, processes: int) -> float:
    """The floor with `processes` copies running at once: what this machine allows in parallel."""
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(processes) as pool:
        rates = pool.starmap(floor_rate, [(count // processes, seed + p) for p in range(processes)])
    return sum(r[0] for r in rates)


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
    args = ap.parse_args()
    counts = sorted({1, 2, *(int(w) for w in args.workers.split(","))})
    cores = os.cpu_count() or 1
    if args.standalone_only:
        return standalone_figures(args)
    floor, strict = floor_rate(args.count, args.seed)
    floor2 = concurrent_floor(args.count, args.seed, 2)
    rates = {w: pipeline_rate(args.count, args.seed, w) for w in counts}
    one, two = rates[1], rates[2]
    print(f"kernels                         {args.count} (all categories, -d cuda, backward on), {cores} cores")
    print(f"warp floor (create+build+emit)  {floor:7.0f} kernels/s  (1 process)")
    print(f"warp strict floor (build+emit)  {strict:7.0f} kernels/s  (1 process, kernels created beforehand)")
    print(f"pipeline end to end, 1 worker   {one:7.0f} pairs/s   = {one / floor:.2f} x floor  ({one / strict:.2f} x strict)")
    print(f"pipeline end to end, 2 workers  {two:7.0f} pairs/s   = {two / (2 * floor):.2f} x floor x 2  ({two / (2 * strict):.2f} x strict x 2)")
    print(f"warp floor, 2 processes at once {floor2:7.0f} kernels/s  (= {floor2 / floor:.2f} x floor: the machine's own scaling)")
    print(f"pipeline 2 workers / that       {two / floor2:.2f}")
    print(f"scaling 2 workers / 1 worker    {two / one:.2f}x")
    for w in counts:
        print(f"  {w:3d} workers                   {rates[w]:7.0f} kernels/s = {rates[w] / (w * one):.2f} x {w} x one worker")
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
