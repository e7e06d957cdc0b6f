"""Side-by-side with Warp on the GPU at bench size: equal results, and speed, per category.

    python scripts/compare_warp_gpu.py data/cuda_production [--arch sm_90] [--out FILE.jsonl]

For each sample folder: builds the .cu (`make ARCH=...`), runs `./<kernel> --bench --dump FILE`
(bench size from cuda_production/bench.py), runs the sample's own Python kernel with Warp on the
GPU on the same inputs (reference.make_input at the bench shapes), checks every written element
against the .cu's (the sample's tolerance rule; the bound of a fixed-size written array, which
accumulates over all threads, is scaled by bench threads / check threads), and times Warp the way
the .cu times itself: `--launches` back-to-back launches captured in one CUDA graph, each replay
between one event pair, `--trials` replays after `--warmup`, median microseconds per launch.

Prints, per category: samples, equal, median and lowest speed ratio (Warp time / CUDA time: above
1 means the translation is faster), the translation's median GB/s and % of the GPU's peak, and
the share of the measured device-to-device copy rate (timed in the same run, the same way) that
memory-bound samples reach. A sample is memory-bound when Warp's own kernel reaches half the copy
rate on it. Executes the samples' .py kernels (pipeline-generated code) through Warp.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cuda_production.bench import array_args, bench_args, bytes_moved, scales  # noqa: E402
from cuda_production.reference import warp_arguments  # noqa: E402
from synthesis.spec import ArgSpec  # noqa: E402

MEMORY_BOUND_SHARE = 0.5  # Warp at >= this share of the copy rate: the sample is memory-bound


def time_graph(wp, record, launches: int, warmup: int, trials: int) -> list[float]:
    """Microseconds per launch: `record()` called `launches` times inside one captured graph,
    each replay timed between one event pair."""
    with wp.ScopedCapture() as capture:
        for _ in range(launches):
            record()
    for _ in range(warmup):
        wp.capture_launch(capture.graph)
    wp.synchronize_device()
    start, stop = wp.Event(enable_timing=True), wp.Event(enable_timing=True)
    times = []
    for _ in range(trials):
        wp.record_event(start)
        wp.capture_launch(capture.graph)
        wp.record_event(stop)
        wp.synchronize_event(stop)
        times.append(1000.0 * wp.get_event_elapsed_time(start, stop) / launches)
    return times


def copy_rate_gb_s(wp, nbytes: int, launches: int, warmup: int, trials: int) -> float:
    """Device-to-device copy rate, bytes read plus bytes written per second, in GB/s: the better of
    the runtime's copy (a graph memcpy node) and a one-line copy kernel, both timed like the samples."""
    @wp.kernel
    def copy_kernel(src: wp.array(dtype=wp.vec4), dst: wp.array(dtype=wp.vec4)):
        i = wp.tid()
        dst[i] = src[i]

    src = wp.array(np.arange(nbytes // 4, dtype=np.float32).reshape(-1, 4), dtype=wp.vec4)
    dst = wp.empty_like(src)
    memcpy = time_graph(wp, lambda: wp.copy(dst, src), launches, warmup, trials)
    kernel = time_graph(wp, lambda: wp.launch(copy_kernel, dim=src.shape[0], inputs=[src, dst]), launches, warmup, trials)
    return 2 * nbytes / (min(statistics.median(memcpy), statistics.median(kernel)) * 1e3)


def build(sample: Path, arch: str) -> str | None:
    proc = subprocess.run(["make", "-B", f"ARCH={arch}"], cwd=sample, capture_output=True, text=True, timeout=600)
    return None if proc.returncode == 0 else (proc.stdout + proc.stderr)[-400:]


def run_cuda(sample: Path, kernel: str, outer: int, dump: Path, launches: int, warmup: int, trials: int) -> dict:
    proc = subprocess.run([f"./{kernel}", "--bench", "--bench-dim", str(outer), "--dump", str(dump), "--launches", str(launches),
                           "--warmup", str(warmup), "--trials", str(trials)],
                          cwd=sample, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"--bench exited {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-300:]}")
    return json.loads(next(line for line in proc.stdout.splitlines() if line.startswith("{")))


def warp_run(wp, kernel, module, args: list[ArgSpec], dim: tuple[int, ...], seed: int,
             launches: int, warmup: int, trials: int, block_dim: int = 0) -> tuple[list[np.ndarray], list[float]]:
    """Warp's results of one launch from fresh inputs (written arrays, flat), then its timing;
    arguments built as the reference stage builds them. `block_dim`: a kernel the sample launches
    with wp.launch_tiled (metadata.json's `tiles`), at that many threads per block."""
    launch_args, written = warp_arguments(args, module, seed)

    def launch():
        if block_dim:
            wp.launch_tiled(kernel, dim=dim, inputs=launch_args, block_dim=block_dim)
        else:
            wp.launch(kernel, dim=dim, inputs=launch_args)
    launch()
    results = [a.numpy().reshape(-1).copy() for a in written]  # before the timed launches change them
    times = time_graph(wp, launch, launches, warmup, trials)
    return results, times


def compare(cuda_dump: bytes, warp_results: list[np.ndarray], written: list[ArgSpec], bounds: dict[str, float],
            atol: float, rtol: float) -> tuple[int, float]:
    """(mismatched elements, largest |error| / allowed error) of the .cu's dump against Warp's."""
    offset, mismatches, used = 0, 0, 0.0
    for arg, want in zip(written, warp_results):
        got = np.frombuffer(cuda_dump, dtype=want.dtype, count=want.size, offset=offset)
        offset += want.nbytes
        if arg.is_int:
            mismatches += int(np.count_nonzero(got != want))
            continue
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        allowed = atol * bounds[arg.name] + rtol * np.abs(want.astype(np.float64))
        same_nan = np.isnan(got) & np.isnan(want)
        bad = ~same_nan & ~(diff <= allowed)
        mismatches += int(np.count_nonzero(bad))
        ratio = np.where(same_nan, 0.0, diff / allowed)
        used = max(used, float(np.nanmax(ratio)) if ratio.size else 0.0)
    if offset != len(cuda_dump):
        mismatches += 1  # sizes disagree: never equal
    return mismatches, used


def replay_plan(meta: dict, launches: int, trials: int) -> tuple[int, int]:
    """(launches per replay, timed replays): fewer for a kernel whose stored bench label says it
    runs for milliseconds (heavily contended atomics), so each sample takes about a second."""
    measured = meta.get("bench", {}).get("measured", {}).get("median_us")
    if not measured:
        return launches, trials
    launches = max(1, min(launches, round(2000 / measured)))
    return launches, max(3, min(trials, round(200_000 / (measured * launches))))


def compare_sample(wp, sample: Path, launches: int, warmup: int, trials: int) -> dict:
    from extraction.loader import load_kernels, unload

    meta = json.loads((sample / "metadata.json").read_text())
    launches, trials = replay_plan(meta, launches, trials)
    name, dim = meta["kernel_name"], tuple(meta["launch_dim"])
    args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
    bench_dim = tuple(meta["bench"]["launch_dim"])
    sized = bench_args(args, dim, bench_dim)
    record = {"sample": sample.name, "kernel": name, "category": meta["category"], "bench_launch_dim": list(bench_dim),
              "launches": launches, "trials": trials}
    with tempfile.TemporaryDirectory(prefix="cmpwarp_") as tmp:
        dump = Path(tmp) / "bench_results.bin"
        cuda = run_cuda(sample, name, bench_dim[0], dump, launches, warmup, trials)
        cuda_dump = dump.read_bytes()
    module = f"cmp_{name}"
    kernels = load_kernels((sample / f"{name}.py").read_text(), module)
    try:
        tiles = meta.get("tiles") or {}
        block_dim = tiles["block_dim"] if tiles.get("launch") == "wp.launch_tiled" else 0
        warp_results, warp_times = warp_run(wp, kernels[name], sys.modules[module], sized, bench_dim, meta["input_seed"],
                                            launches, warmup, trials, block_dim)
    finally:
        unload(module)
    threads_ratio = np.prod(bench_dim) / np.prod(dim)
    written = [a for a in array_args(sized) if a.is_written]
    bounds = {a.name: a.bound * (1.0 if scales(a, dim) else threads_ratio) for a in array_args(args) if a.is_written}
    tol = meta["tolerance"]
    mismatches, used = compare(cuda_dump, warp_results, written, bounds, tol["atol"], tol["rtol"])
    read, wrote = bytes_moved(sized)
    warp_us = statistics.median(warp_times)
    return {**record, "equal": mismatches == 0, "mismatches": mismatches, "tolerance_used": used,
            "cuda_us": cuda["median_us"], "warp_us": warp_us, "speed_ratio": warp_us / cuda["median_us"],
            "bytes_per_launch": read + wrote, "cuda_gb_per_s": cuda["gb_per_s"],
            "warp_gb_per_s": (read + wrote) / (warp_us * 1e3), "percent_of_peak": cuda["percent_of_peak"],
            "peak_gb_per_s": cuda["peak_gb_per_s"], "device": cuda["device"],
            "bytes_agree": (cuda["bytes_read"], cuda["bytes_written"]) == (read, wrote)}


def summarise(records: list[dict], copy_gb_s: float) -> list[str]:
    lines = [f"device-to-device copy: {copy_gb_s:.0f} GB/s (read + written)",
             f"{'category':18s} {'n':>3s} {'equal':>5s} {'ratio med':>9s} {'ratio min':>9s} "
             f"{'GB/s med':>8s} {'% peak':>6s} {'mem-bound':>9s} {'% copy min':>10s}"]
    by_cat = defaultdict(list)
    for r in records:
        by_cat[r["category"]].append(r)
    for cat, rs in sorted(by_cat.items()):
        ok = [r for r in rs if "speed_ratio" in r]
        ratios = [r["speed_ratio"] for r in ok]
        bound = [r for r in ok if r["warp_gb_per_s"] >= MEMORY_BOUND_SHARE * copy_gb_s]
        share = min((100 * r["cuda_gb_per_s"] / copy_gb_s for r in bound), default=float("nan"))
        lines.append(f"{cat:18s} {len(rs):3d} {sum(r.get('equal', False) for r in rs):5d} "
                     f"{statistics.median(ratios) if ratios else float('nan'):9.2f} {min(ratios, default=float('nan')):9.2f} "
                     f"{statistics.median([r['cuda_gb_per_s'] for r in ok]) if ok else float('nan'):8.0f} "
                     f"{statistics.median([r['percent_of_peak'] for r in ok]) if ok else float('nan'):6.1f} "
                     f"{len(bound):9d} {share:10.1f}")
    ratios = [r["speed_ratio"] for r in records if "speed_ratio" in r]
    bound = [r for r in records if "speed_ratio" in r and r["warp_gb_per_s"] >= MEMORY_BOUND_SHARE * copy_gb_s]
    streaming = [r for r in bound if r["warp_gb_per_s"] >= 0.85 * copy_gb_s]
    lines.append(f"streaming (Warp itself at >= 85% of copy): {len(streaming)} samples, translation under 85%: "
                 f"{sum(r['cuda_gb_per_s'] < 0.85 * copy_gb_s for r in streaming)}; memory-bound samples under 85% "
                 f"where Warp is too: {sum(max(r['cuda_gb_per_s'], r['warp_gb_per_s']) < 0.85 * copy_gb_s for r in bound)}")
    lines.append(f"all: {sum(r.get('equal', False) for r in records)}/{len(records)} equal; "
                 f"samples below 0.9x: {sum(x < 0.9 for x in ratios)}; memory-bound samples under 85% of copy: "
                 f"{sum(r['cuda_gb_per_s'] < 0.85 * copy_gb_s for r in bound)}/{len(bound)}; "
                 f"byte counts differing from bench.py: {sum(not r['bytes_agree'] for r in records if 'bytes_agree' in r)}")
    for r in records:
        if "error" in r:
            lines.append(f"  failed: {r['sample']}: {r['error']}")
        elif not r["equal"] or r["speed_ratio"] < 0.9:
            lines.append(f"  {r['sample']}: equal={r['equal']} ratio={r['speed_ratio']:.2f} "
                         f"cuda={r['cuda_us']:.1f}us warp={r['warp_us']:.1f}us")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--launches", type=int, default=20, help="launches per timed graph replay")
    ap.add_argument("--warmup", type=int, default=2, help="untimed replays")
    ap.add_argument("--trials", type=int, default=20, help="timed replays")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel builds")
    ap.add_argument("--out", type=Path, default=None, help="write one JSON record per sample here")
    ap.add_argument("--part", default="0/1", help="K/N: only every N-th sample from the K-th (to split a run)")
    args = ap.parse_args()
    k, n = (int(x) for x in args.part.split("/"))
    samples = sorted(p for p in args.folder.glob("sample_*") if (p / "metadata.json").exists())[k::n]
    if not samples:
        sys.exit(f"error: no samples under {args.folder}")
    import warp as wp

    wp.config.quiet = True
    wp.init()
    if not wp.is_cuda_available():
        sys.exit("error: Warp finds no CUDA device")
    with ThreadPoolExecutor(args.jobs) as pool:
        build_errors = list(pool.map(lambda s: build(s, args.arch), samples))
    copy_gb_s = copy_rate_gb_s(wp, 1 << 30, args.launches, args.warmup, args.trials)
    records = []
    for sample, error in zip(samples, build_errors):
        started = time.perf_counter()
        if error:
            records.append({"sample": sample.name, "category": sample.name.split("_", 2)[-1], "error": "build: " + error})
            continue
        try:
            records.append(compare_sample(wp, sample, args.launches, args.warmup, args.trials))
        except Exception as exc:  # noqa: BLE001 - counted and reported per sample
            records.append({"sample": sample.name, "category": sample.name.split("_", 2)[-1],
                            "error": f"{type(exc).__name__}: {exc}"[:300]})
        gc.collect()
        # a line per sample as it ends, so a run stopped by a time limit still shows its results
        r = records[-1]
        done = r.get("error") or f"equal={r['equal']} ratio={r['speed_ratio']:.2f}"
        print(f"{sample.name}: {done} ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    if args.out:
        tmp = args.out.with_name(args.out.name + ".tmp")
        tmp.write_text("".join(json.dumps({**r, "copy_gb_per_s": copy_gb_s}) + "\n" for r in records))
        os.replace(tmp, args.out)
    print("\n".join(summarise(records, copy_gb_s)))


if __name__ == "__main__":
    main()
