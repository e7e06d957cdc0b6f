"""One sha256 over the first N kernels of a run (all categories in turn, run seed 42): the spec of each
kernel (`repr`: source, arguments, launch, description) and its structure hash. A change meant to
make generation cheaper, not different, must leave it unchanged; compare it before and after.

    python scripts/generation_digest.py [-n 1400] [-s 42]
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from synthesis.categories import CATEGORY_NAMES, generate  # noqa: E402
from synthesis.normalize import structure_hash  # noqa: E402
from synthesis.stages import kernel_seed  # noqa: E402


def generation_digest(count: int, run_seed: int) -> str:
    digest = hashlib.sha256()
    for i in range(count):
        spec = generate(CATEGORY_NAMES[i % len(CATEGORY_NAMES)], kernel_seed(run_seed, i))
        digest.update(repr(spec).encode())
        digest.update(structure_hash(spec.source).encode())
    return digest.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--count", type=int, default=1400)
    ap.add_argument("-s", "--seed", type=int, default=42)
    args = ap.parse_args()
    if args.count < 1:
        sys.exit("generation_digest: -n must be at least 1")
    print(generation_digest(args.count, args.seed))


if __name__ == "__main__":
    main()
