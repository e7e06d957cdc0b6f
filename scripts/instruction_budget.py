"""Where a kernel's instructions go, counted (valgrind), not timed: a figure a shared machine cannot move.

Each figure is (I(N2) - I(N1)) / (N2 - N1): instructions of a run with N2 kernels less those of a run
with N1, per kernel, so Python's start, imports and Warp's initialisation cancel. Counted:

* the pipeline CLI, `synthesis/pipeline.py -d cuda -j 1` (its parent and its worker summed), here and,
  with `--baseline REV`, in a temporary worktree of REV (issue 6: throughput within 0.85 of 34f262e's);
* on the same kernels in one process: generation with its structure hash (ours), and Warp's floor on
  them (create the kernel from its source, build the module, emit CUDA forward and backward);
* the rest of the pipeline: extraction's cutting, records, JSON, files (the pipeline less both).

    python scripts/instruction_budget.py [--baseline 34f262e] [--small 14] [--large 84]

Needs valgrind. Each count runs the program under cachegrind (about 50 times slower): a few minutes.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scripts.bench_pipeline import revision_tree, tree_env  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
I_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")

# Run with a tree on PYTHONPATH: generate (and hash) the pipeline's first N kernels of the seed, then,
# in mode "floor", give each to Warp as the floor does.
SAME_KERNELS = r"""
import sys
from synthesis.categories import generate
from synthesis.normalize import structure_hash
from synthesis.stages import canonical_categories, task_for
count, seed, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
cats = canonical_categories(())
specs = []
for task in (task_for(i, cats, seed) for i in range(count)):
    spec = generate(task.category, task.seed)
    structure_hash(spec.source)
    specs.append(spec)
from extraction import warp_compat
from extraction.loader import load_kernels, unload
warp_compat.init_warp()
if mode == "floor":
    for spec in specs:
        kernel = load_kernels(spec.source, "f_" + spec.name)[spec.name]
        warp_compat.build_module(kernel, True, spec.block_dim).codegen("cuda")
        unload("f_" + spec.name)
"""


def instructions(args: list[str], root: Path) -> int:
    """Instructions a command executed, its child processes included (valgrind cachegrind)."""
    env = dict(tree_env(root), OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")  # threads' spin counts vary
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
                           "--cachegrind-out-file=/dev/null", *args], capture_output=True, text=True, cwd=root, env=env)
    counts = [int(m.group(1).replace(",", "")) for m in I_REFS.finditer(proc.stderr)]
    if proc.returncode or not counts:
        sys.exit(f"instruction_budget: {' '.join(args[:3])} failed under valgrind (status {proc.returncode})")
    return sum(counts)


def per_kernel(count_of, small: int, large: int) -> float:
    """Millions of instructions per kernel from runs of `small` and `large` kernels."""
    return (count_of(large) - count_of(small)) / (large - small) / 1e6


def pipeline_count(root: Path, seed: int):
    def count(n: int) -> int:
        with tempfile.TemporaryDirectory() as tmp:
            return instructions([sys.executable, str(root / "synthesis" / "pipeline.py"), "-n", str(n), "-d", "cuda",
                                 "-s", str(seed), "-j", "1", "-o", str(Path(tmp) / "out"), "--no-progress"], root)
    return count


def same_kernels_count(mode: str, seed: int):
    return lambda n: instructions([sys.executable, "-c", SAME_KERNELS, str(n), str(seed), mode], ROOT)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", metavar="REV", help="also count the pipeline of git revision REV")
    ap.add_argument("--small", type=int, default=14, help="kernels of the short runs (N1)")
    ap.add_argument("--large", type=int, default=84, help="kernels of the long runs (N2)")
    ap.add_argument("-s", "--seed", type=int, default=42)
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("instruction_budget: needs valgrind (apt install valgrind)")
    if not 0 < args.small < args.large:
        sys.exit("instruction_budget: needs 0 < --small < --large")
    if args.baseline:
        known = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{args.baseline}^{{commit}}"], cwd=ROOT,
                               capture_output=True)
        if known.returncode:
            sys.exit(f"instruction_budget: --baseline {args.baseline!r} is not a revision of this repository")
    small, large = args.small, args.large
    print(f"millions of instructions per kernel: (I({large}) - I({small})) / {large - small}, seed {args.seed}, "
          f"-d cuda, backward on")
    pipeline = per_kernel(pipeline_count(ROOT, args.seed), small, large)
    generation = per_kernel(same_kernels_count("gen", args.seed), small, large)
    with_floor = per_kernel(same_kernels_count("floor", args.seed), small, large)
    floor = with_floor - generation
    print(f"pipeline CLI -j 1 (parent and worker)     {pipeline:7.2f}")
    print(f"  generation + structure_hash (ours)     {generation:7.2f}")
    print(f"  Warp's floor on the same kernels       {floor:7.2f}   (create + build + emit CUDA)")
    print(f"  the rest (cutting, records, JSON)      {pipeline - generation - floor:7.2f}")
    print(f"pipeline / Warp's floor (kernels per instruction): {floor / pipeline:.3f}")
    if args.baseline:
        with revision_tree(args.baseline) as old_root:
            old = per_kernel(pipeline_count(old_root, args.seed), small, large)
        print(f"pipeline CLI -j 1 at {args.baseline}          {old:7.2f}")
        print(f"kernels per instruction, now / {args.baseline}: {old / pipeline:.3f}")


if __name__ == "__main__":
    main()
