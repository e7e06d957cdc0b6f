"""Warp-aggregated atomics (the translator's `warp_atomic_*` helpers) against plain atomics, on a GPU.

16.7M threads add into a table of 4, 32, 4,096 or 1M elements at random indices, or each into its own
slot; int and float; both kernels on the same device arrays, timed with CUDA events over 10 launches.
The int results of one launch each way are compared. This is the measurement behind
`cuda_production.bench.SMALL_TABLE`: aggregate only where the table is small.

    python scripts/bench_warp_atomics.py      # needs a CUDA GPU and CuPy
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cuda_production.cuda_types import snippet  # noqa: E402

N = 1 << 24


def helpers() -> str:
    done, out = set(), []

    def add(name: str) -> None:
        if name in done:
            return
        done.add(name)
        code, deps = snippet(name)
        for d in deps:
            add(d)
        out.append(code)

    for name in ("warp_atomic:add_int", "warp_atomic:add_float"):
        add(name)
    return "\n\n".join(out)


KERNELS = r'''
extern "C" __global__ void plain_i(const int* __restrict__ v, const int* __restrict__ idx, int* out, int n)
{ const int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= n) return; atomicAdd(&out[idx[t]], v[t]); }
extern "C" __global__ void agg_i(const int* __restrict__ v, const int* __restrict__ idx, int* out, int n)
{ const int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= n) return; warp_atomic_add(&out[idx[t]], v[t]); }
extern "C" __global__ void plain_f(const float* __restrict__ v, const int* __restrict__ idx, float* out, int n)
{ const int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= n) return; atomicAdd(&out[idx[t]], v[t]); }
extern "C" __global__ void agg_f(const float* __restrict__ v, const int* __restrict__ idx, float* out, int n)
{ const int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= n) return; warp_atomic_add(&out[idx[t]], v[t]); }
'''


def main() -> None:
    try:
        import cupy as cp
    except ImportError:
        raise SystemExit("bench_warp_atomics: needs CuPy and a CUDA GPU")
    module = cp.RawModule(code=helpers() + "\n" + KERNELS, options=("-std=c++17",))
    rng = np.random.default_rng(1)
    grid, block = ((N + 255) // 256,), (256,)

    def time_us(name: str, *args) -> float:
        f = module.get_function(name)
        f(grid, block, (*args, np.int32(N)))
        cp.cuda.Device().synchronize()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        for _ in range(10):
            f(grid, block, (*args, np.int32(N)))
        stop.record()
        stop.synchronize()
        return cp.cuda.get_elapsed_time(start, stop) / 10 * 1000

    print(f"device: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}; {N} threads, block 256")
    for label, targets in (("4 targets", 4), ("32 targets", 32), ("4096 targets", 4096), ("1M targets", 1 << 20),
                           ("own slot", N)):
        idx = (cp.arange(N, dtype=cp.int32) if targets == N
               else cp.asarray(rng.integers(0, targets, N, dtype=np.int32)))
        vi = cp.asarray(rng.integers(-9, 9, N, dtype=np.int32))
        vf = vi.astype(cp.float32) * 0.125
        oi, of = cp.zeros(targets, cp.int32), cp.zeros(targets, cp.float32)
        pi, ai = time_us("plain_i", vi, idx, oi), time_us("agg_i", vi, idx, oi)
        pf, af = time_us("plain_f", vf, idx, of), time_us("agg_f", vf, idx, of)
        once = [cp.zeros(targets, cp.int32) for _ in range(2)]
        for name, out in zip(("plain_i", "agg_i"), once):
            module.get_function(name)(grid, block, (vi, idx, out, np.int32(N)))
        equal = bool((once[0] == once[1]).all())
        print(f"{label:13s} int plain {pi:8.0f} us aggregated {ai:8.0f} us ({pi / ai:5.2f}x)   "
              f"float plain {pf:8.0f} us aggregated {af:8.0f} us ({pf / af:5.2f}x)   int results equal: {equal}")


if __name__ == "__main__":
    main()
