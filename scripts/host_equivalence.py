"""Equivalence without a GPU: generated kernels, translated, checked against Warp on the CPU.

    python scripts/host_equivalence.py [--per-category 100] [--out DIR] [--workers 2] [-c CATEGORY ...]

Produces samples with the production pipeline (Warp computes expected.bin on the CPU), then for
every sample: runs its own .cu on the CPU through the host-emulation harness (g++), and compiles
the whole .cu with `nvcc -ptx`. Prints, per category: samples, host PASS, nvcc -ptx OK, and the
largest fraction of the tolerance any element used.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cuda_production.compile_cuda import find_nvcc, full_ptx
from cuda_production.host_check import run_on_host

ROOT = Path(__file__).resolve().parents[1]


def check(sample: Path, nvcc: str | None) -> dict:
    meta = json.loads((sample / "metadata.json").read_text())
    run = run_on_host(sample)
    used = re.search(r"tolerance_used=([\d.e+-]+|nan|inf)", run.output)
    ptx_ok, ptx_log = full_ptx(sample / meta["files"]["cuda"], nvcc=nvcc) if nvcc else (None, "no nvcc")
    return {"sample": sample.name, "category": meta["category"], "host_pass": run.passed,
            "tolerance_used": float(used.group(1)) if used else None, "ptx_ok": ptx_ok,
            "log": None if run.passed and ptx_ok is not False else (run.output[-800:] + ptx_log[-800:])}


def sample_run_options(per_category: int) -> argparse.ArgumentParser:
    """The options of a check over freshly produced samples: how many per category, where, workers, seed,
    categories."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-category", type=int, default=per_category)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("-c", "--category", action="append", default=[], help="repeatable; default all")
    return ap


def produce_samples(args: argparse.Namespace, tool: str) -> tuple[Path, list[Path]]:
    """The production pipeline's samples for `args` (in --out, or a new temporary folder): the folder and
    its sample folders, sorted. A failed run ends `tool` with one line (the pipeline printed its failures,
    stage and reason, above)."""
    out = args.out or Path(tempfile.mkdtemp(prefix=f"{tool}_")) / "samples"
    produced = subprocess.run([sys.executable, str(ROOT / "cuda_production" / "production_pipeline.py"), "-n",
                               str(args.per_category), "-o", str(out), "-s", str(args.seed), "-j", str(args.workers),
                               "--no-progress"] + [x for c in args.category for x in ("-c", c)])
    if produced.returncode:
        sys.exit(f"{tool}: the production pipeline failed (exit {produced.returncode}); no samples checked")
    return out, sorted(p for p in out.glob("sample_*") if p.is_dir())


def main() -> None:
    args = sample_run_options(100).parse_args()
    t0 = time.perf_counter()
    out, samples = produce_samples(args, "host_equivalence")
    nvcc = find_nvcc()
    with ThreadPoolExecutor(args.workers) as pool:
        results = list(pool.map(lambda s: check(s, nvcc), samples))
    per = defaultdict(list)
    for r in results:
        per[r["category"]].append(r)
    print(f"{'category':18s} {'samples':>7s} {'host PASS':>9s} {'nvcc -ptx':>9s} {'max tolerance used':>19s}")
    for cat, rs in per.items():
        used = max((r["tolerance_used"] or 0.0) for r in rs)
        ptx = sum(1 for r in rs if r["ptx_ok"])
        print(f"{cat:18s} {len(rs):7d} {sum(r['host_pass'] for r in rs):9d} {ptx:9d} {used:19.3g}")
    total_pass = sum(r["host_pass"] for r in results)
    total_ptx = sum(1 for r in results if r["ptx_ok"])
    exact = sum(1 for r in results if r["tolerance_used"] == 0.0)
    print(f"total: {total_pass}/{len(results)} equal to Warp within tolerance ({exact} bit-exact), "
          f"{total_ptx}/{len(results)} nvcc -ptx OK ({'nvcc ' + nvcc if nvcc else 'nvcc missing'}), {time.perf_counter() - t0:.0f} s")
    for r in results:
        if r["log"]:
            print(f"--- {r['sample']}\n{r['log']}")
    (out.parent / "host_equivalence.json").write_text(json.dumps(results, indent=1))
    sys.exit(0 if total_pass == len(results) and total_ptx in (0, len(results)) and total_ptx == len(results) else 1)


if __name__ == "__main__":
    main()
