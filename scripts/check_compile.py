"""Build every generated kernel with Warp (forward + backward, CUDA and CPU codegen).

    python scripts/check_compile.py [--per-category 1000] [-c CATEGORY ...]
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

from extraction import extract_ir_devices, load_kernels
from extraction.loader import unload
from synthesis.categories import CATEGORY_NAMES, generate


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-category", type=int, default=1000)
    ap.add_argument("-c", "--category", action="append", choices=CATEGORY_NAMES, help="repeatable; default all")
    args = ap.parse_args()
    categories = args.category or CATEGORY_NAMES
    failures: Counter = Counter()
    examples = {}
    t0 = time.perf_counter()
    for cat in categories:
        for seed in range(args.per_category):
            module = f"cc_{cat}_{seed}"
            try:
                spec = generate(cat, seed)
                extract_ir_devices(load_kernels(spec.source, module)[spec.name], ("cpu", "cuda"), True, spec.block_dim)
            except Exception as exc:  # noqa: BLE001
                failures[cat] += 1
                examples.setdefault(cat, f"seed {seed}: {str(exc)[:200]}")
            finally:
                unload(module)
        print(f"{cat:18s} {args.per_category - failures[cat]:5d}/{args.per_category} compile", flush=True)
    total = args.per_category * len(categories)
    print(f"total {total - sum(failures.values())}/{total} in {time.perf_counter() - t0:.0f} s")
    for cat, text in examples.items():
        print(f"  {cat}: {text}")


if __name__ == "__main__":
    main()
