"""Every sample within its arrays at any launch size: the check and the benchmark under AddressSanitizer.

    python scripts/bench_bounds.py [--per-category 10] [--workers 2] [--seed 42] [-c CATEGORY ...]

A sample's benchmark (`./kernel --bench --bench-dim N`) grows or shrinks the launch's outermost extent and
every array that grows with it (cuda_production/bench.py); an array that should keep its size (a grid
of cells written into the kernel, a table of bins) but is sized like the launch shrinks below the
indices the kernel computes, and the kernel reads and writes past it. compute-sanitizer finds that on a
GPU; this finds it on any machine: each sample's own .cu, built for the host (host emulation, g++)
with AddressSanitizer and UBSan, runs its check, then its benchmark at a quarter of the check launch,
a third plus one (not a multiple of any block), and twice plus one (refused, in one line, where the
kernel's code holds its launch's extents: bench.pinned_launch). At twice plus one the bench's results
are dumped too: an output that grew with the launch but whose grown rows no thread wrote is a table
sized like the launch by coincidence (its bench moves and counts bytes no thread touches), reported
as a problem as well. Prints per category the samples
and the runs that ended with a sanitizer report or a non-zero exit, with the first line of each.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cuda_production.bench import bench_args, pinned_launch, scales  # noqa: E402
from cuda_production.host_check import CHECK_ARGS, SANITIZED, compile_host  # noqa: E402
from scripts.host_equivalence import produce_samples, sample_run_options  # noqa: E402
from synthesis.spec import ArgSpec  # noqa: E402



def bench_dims(outer: int) -> list[int]:
    """Outermost bench extents below the check launch (a quarter; a third plus one) and above it."""
    return sorted({max(1, outer // 4), outer // 3 + 1, 2 * outer + 1})


def first_report(output: str) -> str:
    """The line that names what went wrong (a sanitizer's summary line, or the run's last line)."""
    lines = [x for x in output.splitlines() if x.strip()]
    named = next((x for x in lines if "ERROR: AddressSanitizer" in x or "runtime error" in x or "FAIL" in x), None)
    return (named or (lines[-1] if lines else "no output")).strip()[:240]


def unwritten_growth(meta: dict, dump: bytes, outer: int) -> list[str]:
    """The outputs that grew with the launch (bench.scales) but whose grown rows the kernel left as they
    started, zero, though it wrote some of their first rows: a table whose indices do not grow (cells
    from positions in a fixed range), sized like the launch by coincidence. Its benchmark moves bytes no
    thread touches and counts them. `dump`: the bench results at launch extent `outer` (--dump)."""
    args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
    launch = tuple(meta["launch_dim"])
    sized = dict(zip([a.name for a in args], bench_args(args, launch, (outer, *launch[1:]))))
    written = meta["written_arrays"]
    if any("." in name for name in written):  # members of an array of records: not looked into
        return []
    found, offset = [], 0
    for name in written:
        arg, grown = next(a for a in args if a.name == name), sized[name]
        dtype = np.dtype(arg.numpy_dtype)
        total = grown.count * grown.width
        values = np.frombuffer(dump, dtype=dtype, count=total, offset=offset)
        offset += total * dtype.itemsize
        if arg.role != "output" or not scales(arg, launch):
            continue
        first = values[:arg.count * arg.width]
        if np.count_nonzero(first) >= 5 and not np.count_nonzero(values[arg.count * arg.width:]):
            found.append(name)
    return found


def check(sample: Path) -> dict:
    meta = json.loads((sample / "metadata.json").read_text())
    outer = meta["launch_dim"][0]
    # a launch that keeps its size (bench.pinned_launch) refuses to grow, in one line, exit 2
    pinned = pinned_launch([ArgSpec.from_dict(a) for a in meta["arguments"]], tuple(meta["launch_dim"]))
    problems = []
    with tempfile.TemporaryDirectory(prefix="bench_bounds_") as tmp:
        runs = [("check", CHECK_ARGS)] + [
            (f"bench {d}", ("--bench", "--bench-dim", str(d), "--launches", "1", "--warmup", "0", "--trials", "1",
                            *(("--dump", str(Path(tmp) / "dump.bin")) if d > outer else ())))
            for d in bench_dims(outer)]
        binary = Path(tmp) / "sample"
        build = compile_host(sample / meta["files"]["cuda"], binary, Path(tmp), SANITIZED)
        if build.returncode:
            runs, problems = [], [("build", first_report(build.stderr))]
        for label, run_args in runs:
            try:
                run = subprocess.run([str(binary), *run_args], cwd=sample, capture_output=True, text=True, timeout=600)
            except subprocess.TimeoutExpired:
                problems.append((label, "timed out after 600 s"))
                continue
            output = run.stdout + run.stderr
            dump = Path(tmp) / "dump.bin"
            if run.returncode == 0 and dump.exists():
                grown = unwritten_growth(meta, dump.read_bytes(), int(run_args[2]))
                if grown:
                    problems.append((label, f"grew but never written past the check rows: {', '.join(grown)}"))
                dump.unlink()
            if label == "check":
                ok = run.returncode == 0 and "PASS" in run.stdout
            elif pinned and int(run_args[2]) > outer:
                ok = run.returncode == 2 and output.count("\n") == 1 and output.startswith(f"--bench-dim {run_args[2]}: ")
            else:
                ok = run.returncode == 0 and '"mode": "bench"' in run.stdout
            if not ok:
                problems.append((label, first_report(output)))
    return {"sample": sample.name, "category": meta["category"], "kernel": meta["kernel_name"],
            "launch_dim": meta["launch_dim"], "problems": problems}


def main() -> None:
    args = sample_run_options(10).parse_args()
    t0 = time.perf_counter()
    out, samples = produce_samples(args, "bench_bounds")
    with ThreadPoolExecutor(args.workers) as pool:
        results = list(pool.map(check, samples))
    per = defaultdict(list)
    for r in results:
        per[r["category"]].append(r)
    print(f"{'category':<20} {'samples':>7} {'clean':>6}")
    for cat in sorted(per):
        rs = per[cat]
        print(f"{cat:<20} {len(rs):>7} {sum(not r['problems'] for r in rs):>6}")
    bad = [r for r in results if r["problems"]]
    for r in bad:
        for label, line in r["problems"]:
            print(f"  {r['sample']} ({r['kernel']}, launch {r['launch_dim']}) {label}: {line}")
    print(f"all: {len(results) - len(bad)}/{len(results)} samples clean at the check and at bench sizes "
          f"{', '.join(['n/4', 'n/3+1', '2n+1'])} ({time.perf_counter() - t0:.0f} s; samples in {out})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
