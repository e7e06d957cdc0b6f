"""Expected outputs: the same inputs the .cu builds, run through the Python kernel by Warp on the CPU.

Only kernels the pipeline generated itself are executed here. Many kernels share one Warp module,
because Warp compiles a whole module (about 1.5 s) on its first CPU launch.
"""
from __future__ import annotations

import numpy as np

from synthesis.dtypes import dtype as lookup_dtype
from synthesis.spec import ArgSpec, KernelSpec

M1, M2, GOLDEN = np.uint32(0x7FEB352D), np.uint32(0x846CA68B), np.uint32(0x9E3779B9)


def mix32(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.uint32, copy=True)
    x ^= x >> np.uint32(16)
    x *= M1
    x ^= x >> np.uint32(15)
    x *= M2
    x ^= x >> np.uint32(16)
    return x


def input_bits(seed: int, arg: int, count: int) -> np.ndarray:
    """numpy twin of the .cu's input_bits(seed, arg, i) for i in [0, count)."""
    with np.errstate(over="ignore"):
        key = mix32(np.array([np.uint32(seed) + GOLDEN * np.uint32(arg + 1)], dtype=np.uint32))[0]
        return mix32(np.arange(count, dtype=np.uint32) ^ key)


def make_input(arg: ArgSpec, position: int, seed: int) -> np.ndarray:
    """The host array main() builds for `arg` (flat, element-major: element i, then components)."""
    total = arg.count * arg.width
    if arg.role not in ("input", "inout", "index"):
        return np.zeros(total, dtype=np.int32 if arg.is_int else np.float32)
    lo, span, step = arg.fill
    bits = input_bits(seed, position, total) % np.uint32(span)
    if arg.is_int:
        return (np.int64(lo) + bits.astype(np.int64)).astype(np.int32)
    return (np.int64(lo) + bits.astype(np.int64)).astype(np.float32) * np.float32(step)


def sample_args(spec: KernelSpec) -> list[ArgSpec]:
    return list(spec.args)


def input_seed(spec: KernelSpec) -> int:
    return spec.seed % (2**32)


def warp_reference(specs: list[KernelSpec], module_name: str) -> dict[str, bytes]:
    """For each kernel, Warp's values of every written array, concatenated in parameter order."""
    import warp as wp

    from extraction.loader import load_kernels, unload

    kernels = load_kernels("\n\n".join(s.source for s in specs), module_name)
    try:
        results = {}
        for spec in specs:
            seed = input_seed(spec)
            launch_args, written = [], []
            for position, arg in enumerate(sample_args(spec)):
                if arg.kind == "scalar":
                    launch_args.append(float(arg.value) if arg.dtype == "float32" else int(arg.value))
                    continue
                host = make_input(arg, position, seed)
                t = lookup_dtype(arg.dtype)
                array = wp.array(host.reshape(arg.shape + t.shape), dtype=t.warp_type(), device="cpu")
                launch_args.append(array)
                if arg.role in ("output", "inout"):
                    written.append(array)
            wp.launch(kernels[spec.name], dim=spec.dim, inputs=launch_args, device="cpu")
            results[spec.name] = b"".join(a.numpy().tobytes() for a in written)
        return results
    finally:
        unload(module_name)
