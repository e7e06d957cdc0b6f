"""Warp-aggregated atomics (the translator's `warp_atomic_*` helpers) against plain atomics, on a GPU.

16.7M threads add (or min, max) into a table of 4, 32, 4,096 or 1M elements at random indices, or each into its own
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


OPS = ("add", "min", "max")
# The plain atomic per (op, type), as the translator writes it without aggregation.
PLAIN = {("add", "int"): "atomicAdd", ("min", "int"): "atomicMin", ("max", "int"): "atomicMax",
         ("add", "float"): "atomicAdd", ("min", "float"): "atomicMinFloat", ("max", "float"): "atomicMaxFloat"}


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

    for op in OPS:
        for t in ("int", "float"):
            add(f"warp_atomic:{op}_{t}")
    return "\n\n".join(out)


# Integer min/max with Warp's float early exit: skip the atomic when the stored value already wins.
EARLY_INT = r'''
__device__ __forceinline__ void early_min(int* address, int val) { if (val < *address) atomicMin(address, val); }
__device__ __forceinline__ void early_max(int* address, int val) { if (val > *address) atomicMax(address, val); }
'''


def kernels() -> str:
    out = [EARLY_INT]
    for op in ("min", "max"):
        out.append(f'extern "C" __global__ void early_{op}_int(const int* __restrict__ v, '
                   "const int* __restrict__ idx, int* out, int n)\n"
                   "{ const int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= n) return; "
                   f"early_{op}(&out[idx[t]], v[t]); }}")
    for (op, t), plain in PLAIN.items():
        for kind, call in (("plain", plain), ("agg", f"warp_atomic_{op}")):
            out.append(f'extern "C" __global__ void {kind}_{op}_{t}(const {t}* __restrict__ v, '
                       f"const int* __restrict__ idx, {t}* out, int n)\n"
                       "{ const int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= n) return; "
                       f"{call}(&out[idx[t]], v[t]); }}")
    return "\n".join(out)


def main() -> None:
    try:
        import cupy as cp
    except ImportError:
        raise SystemExit("bench_warp_atomics: needs CuPy and a CUDA GPU")
    module = cp.RawModule(code=helpers() + "\n" + kernels(), options=("-std=c++17",))
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

    print(f"device: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}; {N} threads, block 256; "
          "values in [-1.125, 1.125], tables start at 0")
    for label, targets in (("4 targets", 4), ("32 targets", 32), ("256 targets", 256), ("4096 targets", 4096),
                           ("1M targets", 1 << 20), ("own slot", N)):
        idx = (cp.arange(N, dtype=cp.int32) if targets == N
               else cp.asarray(rng.integers(0, targets, N, dtype=np.int32)))
        vi = cp.asarray(rng.integers(-9, 9, N, dtype=np.int32))
        values = {"int": vi, "float": vi.astype(cp.float32) * 0.125}
        for op in OPS:
            line = [f"{label:13s} {op}"]
            for t, dtype in (("int", cp.int32), ("float", cp.float32)):
                p = time_us(f"plain_{op}_{t}", values[t], idx, cp.zeros(targets, dtype))
                a = time_us(f"agg_{op}_{t}", values[t], idx, cp.zeros(targets, dtype))
                once = [cp.zeros(targets, dtype) for _ in range(2)]
                for kind, out in zip(("plain", "agg"), once):
                    module.get_function(f"{kind}_{op}_{t}")(grid, block, (values[t], idx, out, np.int32(N)))
                same = bool((once[0] == once[1]).all()) if t == "int" or op != "add" else "n/a"
                line.append(f"{t} plain {p:8.0f} us aggregated {a:8.0f} us ({p / a:5.2f}x, equal {same})")
                if t == "int" and op != "add":
                    e = time_us(f"early_{op}_int", values[t], idx, cp.zeros(targets, dtype))
                    out = cp.zeros(targets, dtype)
                    module.get_function(f"early_{op}_int")(grid, block, (values[t], idx, out, np.int32(N)))
                    line.append(f"early exit {e:8.0f} us ({p / e:5.2f}x, equal {bool((out == once[0]).all())})")
            print("   ".join(line), flush=True)


if __name__ == "__main__":
    main()
