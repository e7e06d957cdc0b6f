"""Validation speed: our batched, parallel nvcc validation vs one nvcc process per sample.

    python scripts/bench_validate.py [-n 6] [--workers 2]

Makes -n samples per category, then times, on the same samples in one run: (a) the baseline,
`nvcc -ptx` on each whole .cu, one after another; (b) `validate_samples` (device code of 16
samples per nvcc call, batches in parallel, plus ptxas -v for resource usage). Prints both rates.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cuda_production.compile_cuda import find_nvcc, full_ptx, validate_samples

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=6, help="samples per category")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if find_nvcc() is None:
        sys.exit("error: nvcc not found")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "samples"
        subprocess.run([sys.executable, str(ROOT / "cuda_production" / "production_pipeline.py"), "-n", str(args.n),
                        "-o", str(out), "--no-progress"], check=True, capture_output=True)
        samples = sorted(p for p in out.glob("sample_*"))
        items = [(next(s.glob("*.cu")), json.loads((s / "metadata.json").read_text())["kernel_name"]) for s in samples]
        t0 = time.perf_counter()
        base_ok = sum(full_ptx(cu)[0] for cu, _ in items)
        base = time.perf_counter() - t0
        t0 = time.perf_counter()
        ours = validate_samples(items, workers=args.workers)
        fast = time.perf_counter() - t0
    n = len(items)
    print(f"samples                         {n}")
    print(f"baseline: nvcc -ptx per sample  {base / n:.3f} s/sample ({n / base:.1f} samples/s), {base_ok}/{n} ok")
    print(f"batched + {args.workers} workers + ptxas -v  {fast / n:.3f} s/sample ({n / fast:.1f} samples/s), "
          f"{sum(v.status == 'ok' for v in ours)}/{n} ok, registers recorded for "
          f"{sum(v.registers is not None for v in ours)}")
    print(f"speed-up                        {base / fast:.1f}x (target >= 4x)")


if __name__ == "__main__":
    main()
