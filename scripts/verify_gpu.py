"""Build and run every sample under a folder on this machine's GPU; record what happened.

    python scripts/verify_gpu.py data/cuda_production [--arch sm_90] [--jobs 16] [--run-jobs 1] [--bench [--bench-runs 2]]

Each sample is built with its own Makefile (`make ARCH=...`) and run (`./<kernel>`), each in its
own process with a timeout; builds run in parallel, runs one at a time by default so that the
timings are not disturbed by other kernels on the GPU. Writes <folder>/verify.jsonl (one line per
sample: compiled, passed, max errors, timing) and <sample>/compile_log.txt, <sample>/run_log.txt,
then prints the pass count and the median kernel time per category. Needs only Python 3, make and
the CUDA toolkit (no Warp, no project install).

--bench also runs `./<kernel> --bench` (the kernel at its bench size, timed over CUDA-graph replays;
see cuda_production/bench.py) --bench-runs times and stores the figures as labels: in the record of
the run (verify.jsonl: "bench") and in the sample's metadata.json ("bench": "measured"), with the
run-to-run spread of the medians, (max - min) / min.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def detect_arch() -> str:
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.split()
        major, minor = out[0].split(".")
        return f"sm_{major}{minor}"
    except (OSError, IndexError, ValueError, subprocess.TimeoutExpired):
        return "sm_75"


def build(sample: Path, arch: str, timeout: float) -> dict:
    meta = json.loads((sample / "metadata.json").read_text())
    name = meta["kernel_name"]
    try:
        proc = subprocess.run(["make", "-B", f"ARCH={arch}"], cwd=sample, capture_output=True, text=True, timeout=timeout)
        log, ok = proc.stdout + proc.stderr, proc.returncode == 0
    except subprocess.TimeoutExpired:
        log, ok = f"build timed out after {timeout} s\n", False
    (sample / "compile_log.txt").write_text(log)
    return {"sample": sample.name, "kernel": name, "category": meta.get("category"), "compiled": ok}


def run(sample: Path, record: dict, timeout: float) -> dict:
    if not record["compiled"]:
        return {**record, "passed": False, "error": "build failed"}
    try:
        proc = subprocess.run([f"./{record['kernel']}"], cwd=sample, capture_output=True, text=True, timeout=timeout)
        log, code = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired:
        (sample / "run_log.txt").write_text(f"run timed out after {timeout} s\n")
        return {**record, "passed": False, "error": "timeout"}
    (sample / "run_log.txt").write_text(log)
    timing = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            try:
                timing = json.loads(line)
            except json.JSONDecodeError:
                pass
    verdict = re.search(r"^(PASS|FAIL|RAN) ", proc.stdout, re.M)
    return {**record, "exit_code": code, "passed": code == 0 and verdict is not None and verdict.group(1) == "PASS",
            "verdict": verdict.group(1) if verdict else None,
            "max_abs_err": timing.get("max_abs_err"), "max_rel_err": timing.get("max_rel_err"),
            "tolerance_used": timing.get("tolerance_used"),
            **{k: timing[k] for k in ("mean_ms", "median_ms", "p95_ms", "min_ms", "trials") if k in timing}}


def run_bench(sample: Path, record: dict, runs: int, timeout: float) -> dict:
    """`./<kernel> --bench`, `runs` times; the first run's figures plus every run's median."""
    if not record["compiled"]:
        return record
    lines = []
    for _ in range(runs):
        try:
            proc = subprocess.run([f"./{record['kernel']}", "--bench"], cwd=sample, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return {**record, "bench_error": "timeout"}
        found = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        if proc.returncode != 0 or not found:
            return {**record, "bench_error": f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}"}
        lines.append(json.loads(found[-1]))
    medians = [b["median_us"] for b in lines]
    measured = {**lines[0], "runs_median_us": medians, "run_spread": (max(medians) - min(medians)) / min(medians)}
    store_measured(sample / "metadata.json", measured)
    return {**record, "bench": measured}


def store_measured(meta_path: Path, measured: dict) -> None:
    """Put the bench figures under metadata.json's "bench" entry (temp file, then rename)."""
    meta = json.loads(meta_path.read_text())
    meta.setdefault("bench", {})["measured"] = measured
    tmp = meta_path.with_name(meta_path.name + ".tmp")
    tmp.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, meta_path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--arch", default=None, help="default: this GPU's (nvidia-smi), else sm_75")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel builds")
    ap.add_argument("--run-jobs", type=int, default=1, help="parallel runs (1 keeps timings clean)")
    ap.add_argument("--build-timeout", type=float, default=300)
    ap.add_argument("--run-timeout", type=float, default=60)
    ap.add_argument("--bench", action="store_true", help="also time each kernel at its bench size and store the figures")
    ap.add_argument("--bench-runs", type=int, default=2, help="bench runs per sample (their spread is reported)")
    args = ap.parse_args()
    samples = sorted(p for p in args.folder.glob("sample_*") if (p / "metadata.json").exists())
    if not samples:
        samples = sorted(p for p in args.folder.iterdir() if (p / "metadata.json").exists())
    if not samples:
        sys.exit(f"error: no samples under {args.folder}")
    arch = args.arch or detect_arch()
    with ThreadPoolExecutor(args.jobs) as pool:
        built = list(pool.map(lambda s: build(s, arch, args.build_timeout), samples))
    with ThreadPoolExecutor(args.run_jobs) as pool:
        records = list(pool.map(lambda sr: run(sr[0], sr[1], args.run_timeout), zip(samples, built)))
    if args.bench:  # one at a time whatever --run-jobs says: these are the timings that become labels
        records = [run_bench(s, r, args.bench_runs, args.run_timeout) for s, r in zip(samples, records)]
    with open(args.folder / "verify.jsonl", "w") as fh:
        for r in records:
            fh.write(json.dumps({"arch": arch, **r}) + "\n")
    passed = sum(r["passed"] for r in records)
    compiled = sum(r["compiled"] for r in records)
    print(f"{arch}: {compiled}/{len(records)} compiled, {passed}/{len(records)} passed")
    per_cat = defaultdict(list)
    for r in records:
        if r.get("median_ms") is not None:
            per_cat[r["category"]].append(r["median_ms"])
    for cat, times in sorted(per_cat.items()):
        print(f"  {cat:18s} {len(times):4d} samples  median kernel time {statistics.median(times) * 1000:8.2f} us")
    if args.bench:
        print_bench(records)
    for r in records:
        if not r["passed"]:
            print(f"  not passed: {r['sample']} ({r.get('error') or r.get('verdict')})")
    sys.exit(0 if passed == len(records) else 1)


def print_bench(records: list[dict]) -> None:
    benched = [r["bench"] for r in records if "bench" in r]
    failed = [r for r in records if "bench_error" in r]
    print(f"bench: {len(benched)}/{len(records)} timed" + (f", {len(failed)} failed" if failed else "")
          + (f" on {benched[0]['device']}" if benched else ""))
    per_cat = defaultdict(list)
    for r in records:
        if "bench" in r:
            per_cat[r["category"]].append(r["bench"])
    for cat, bs in sorted(per_cat.items()):
        print(f"  {cat:18s} {len(bs):4d} samples  median {statistics.median(b['median_us'] for b in bs):9.2f} us/launch"
              f"  {statistics.median(b['gb_per_s'] for b in bs):7.0f} GB/s  {statistics.median(b['percent_of_peak'] for b in bs):5.1f}% of peak")
    spreads = sorted(b["run_spread"] for b in benched)
    if spreads and len(benched[0]["runs_median_us"]) > 1:
        print(f"  run-to-run spread of the median: median {100 * statistics.median(spreads):.2f}%, "
              f"90th percentile {100 * spreads[int(0.9 * (len(spreads) - 1))]:.2f}%, max {100 * spreads[-1]:.2f}%")
    for r in failed:
        print(f"  bench failed: {r['sample']} ({r['bench_error']})")


if __name__ == "__main__":
    main()
