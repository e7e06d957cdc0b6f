"""Prints the shape of the CUDA the translator emits for generated tiled kernels: cooperative loops
(`for (int e = threadIdx.x; ...)`), loops doing two or more statements' work, values held in
per-thread registers (Warp's register tile) and the unrolled loops over them, `__shared__` buffers,
buffers with padded rows, `__syncthreads()` barriers, and the transposed reads of a 32-column
buffer that one bank serves (32-way conflicts). Static counts over the kernel text, summed.

    PYTHONPATH=. python scripts/tile_structure.py -n 100    # this checkout's translator
    PYTHONPATH=/path/to/other/checkout python scripts/tile_structure.py -n 100    # another one's
"""
from __future__ import annotations

import math
import re
import sys

import click

from cuda_production.bench import small_tables
from cuda_production.translator import TranslationError, translate_kernel
from synthesis.categories import generate

COOPERATIVE_LOOP = re.compile(r"for \(int \w+ = threadIdx\.x;")
# a loop over a thread's registers starts with its element: `const int e = threadIdx.x + k * TILE_THREADS;`
REGISTER_LOOP = re.compile(r"const int \w+ = threadIdx\.x \+ \w+ \* TILE_THREADS;")
REGISTER_TILE = re.compile(r"^\s*\w+ \w+_reg\d+\[\d+\];")
SHARED = re.compile(r"__shared__ \w+ (\w+)\[(\d+)\];\s*// tile \w+, shape ([\dx]+)")
# a transpose's read `buf[(e % m) * 32k + e / m]`: consecutive e, one column, rows 32k apart
CONFLICTED_TRANSPOSE = re.compile(r"\w+\[\(\w+ % \d+\) \* (\d+) \+ \w+ / \d+\]")


def kernel_counts(code: str) -> dict[str, int]:
    body = code[code.index("{", code.index("__global__")):]
    lines = [line.split("//")[0] for line in body.splitlines()]
    shared = [m for m in (SHARED.search(line) for line in body.splitlines()) if m]
    return {
        "loops": sum(bool(COOPERATIVE_LOOP.search(line)) for line in lines),
        "fused loops": body.count("// one loop for "),
        "register tiles": sum(bool(REGISTER_TILE.match(line)) for line in lines),
        "register loops": sum(bool(REGISTER_LOOP.search(line)) for line in lines),
        "shared buffers": len(shared),
        "padded buffers": sum(int(m.group(2)) != math.prod(map(int, m.group(3).split("x"))) for m in shared),
        "barriers": sum(line.strip() == "__syncthreads();" for line in lines),
        "conflicted transposed reads": sum(int(m.group(1)) % 32 == 0
                                           for line in lines for m in CONFLICTED_TRANSPOSE.finditer(line)),
    }


@click.command()
@click.option("-n", "count", default=100, show_default=True, help="tiled kernels (seeds 0..n-1)")
@click.option("--seed", default=0, show_default=True, help="first seed")
def main(count: int, seed: int) -> None:
    totals: dict[str, int] = {}
    failed = 0
    for s in range(seed, seed + count):
        spec = generate("tiled", s)
        try:
            kernel = translate_kernel(spec.source, spec.name, f"{spec.name}.py",
                                      small_tables(list(spec.args), spec.dim), spec.block_dim, len(spec.dim))
        except TranslationError as exc:
            failed += 1
            print(f"seed {s}: not translated: {exc}", file=sys.stderr)
            continue
        for key, value in kernel_counts(kernel.kernel_code).items():
            totals[key] = totals.get(key, 0) + value
    print(f"{count - failed} tiled kernels translated (seeds {seed}..{seed + count - 1}), {failed} not")
    for key, value in totals.items():
        print(f"{key:30s} {value}")


if __name__ == "__main__":
    main()
