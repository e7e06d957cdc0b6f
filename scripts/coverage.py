"""Coverage of real Warp code: how much of Warp's own example kernels the generators and the translator reach.

    python scripts/coverage.py [-n 3000] [--seed 42] [--top 25] [--workers 2] [--no-nvcc]

Every `@wp.kernel` under the installed Warp's `warp/examples/` is parsed (never imported) and its
constructs inventoried by `synthesis.constructs` (builtins by name, syntax, parameter and array
types, helpers and their parameter kinds, module constants, struct fields...). Prints:

1. generators: the share of example kernels whose every construct appears somewhere in an `-n`
   kernel generator run (the pipeline's plan: categories round-robin, per-kernel seeds from the run
   seed), inventoried by the same code;
2. translator: the share that the translate CLI (`python -m cuda_production.translate`) turns into
   a sample whose .cu passes `nvcc -ptx` (batched), and the number it translates but nvcc rejects
   (target 0);
3. the constructs missing from the generators, by number of example kernels needing them, and the
   translator's refusals, by number of example kernels refused for them.

Exit status 1 when the translator writes a .cu that nvcc rejects.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from cuda_production.compile_cuda import find_nvcc, validate_samples
from cuda_production.translate import translate_file
from cuda_production.translator import TranslationError, parse_module, translate_source
from synthesis.categories import generate
from synthesis.constructs import KernelInventory, inventory_source
from synthesis.stages import canonical_categories, task_for


def warp_examples_dir() -> Path:
    """The installed Warp's examples folder, found without importing Warp."""
    spec = importlib.util.find_spec("warp")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("coverage: warp-lang is not installed")
    return Path(list(spec.submodule_search_locations)[0]) / "examples"


def example_kernels(root: Path) -> list[KernelInventory]:
    kernels = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "kernel" not in source:
            continue
        kernels.extend(inventory_source(source, str(path.relative_to(root))))
    return kernels


def generated_constructs(count: int, run_seed: int) -> set[str]:
    categories = canonical_categories(())
    emitted: set[str] = set()
    for i in range(count):
        task = task_for(i, categories, run_seed)
        for k in inventory_source(generate(task.category, task.seed).source):
            emitted |= k.constructs
    return emitted


def _refusal(err: TranslationError) -> str:
    """The refused construct, without the kernel-specific names, so that refusals group."""
    return re.sub(r"'[^']*'", "'…'", err.construct)


def translate_examples(root: Path, kernels: list[KernelInventory], out: Path, use_nvcc: bool) -> dict[tuple[str, int], str]:
    """(file, line of the kernel's def) -> "ok" | "refused: <construct>" | "nvcc rejected" | "cli error: ...", via
    the translate CLI. A generic kernel with several overloads is "ok" only if every instance is."""
    status: dict[tuple[str, str], str] = {}
    def_lines: dict[tuple[str, str], int] = {}
    written: list[tuple[Path, tuple[str, str]]] = []
    for rel in sorted({k.filename for k in kernels}):
        path = root / rel
        source = path.read_text(encoding="utf-8")
        try:
            results = translate_source(source, str(path))
            info = parse_module(source, str(path))
            def_lines.update({(rel, name): info.def_line(name) for name in results})
        except TranslationError as exc:
            results = {k.name: exc for k in kernels if k.filename == rel}
            def_lines.update({(rel, k.name): k.line for k in kernels if k.filename == rel})
        folder = out / rel.replace("/", "__").removesuffix(".py")
        sink = io.StringIO()
        with contextlib.redirect_stderr(sink), contextlib.redirect_stdout(sink):
            try:
                translate_file(path, folder)
                cli_error = None
            except Exception as exc:  # a crash of the CLI is a finding, reported per kernel
                cli_error = f"cli error: {type(exc).__name__}"
        for name, result in results.items():
            key = (rel, name)
            if isinstance(result, TranslationError):
                status[key] = f"refused: {_refusal(result)}"
            elif cli_error or not (folder / name / f"{name}.cu").exists():
                # the CLI refuses a kernel its inputs stage cannot describe in one line naming it
                refusal = next((line.split("unsupported: ", 1)[1] for line in sink.getvalue().splitlines()
                                if f"kernel '{name}'" in line and "unsupported: " in line), None)
                status[key] = cli_error or (f"refused: inputs: {refusal}" if refusal else "cli error: no .cu written")
            else:
                status[key] = "ok"
                written.append((folder / name / f"{name}.cu", key))
    if use_nvcc and written:
        if find_nvcc() is None:
            raise SystemExit("coverage: nvcc not found on PATH (use --no-nvcc to skip the nvcc check)")
        for (cu, key), v in zip(written, validate_samples([(cu, key[1]) for cu, key in written])):
            if v.status != "ok":
                status[key] = "nvcc rejected"
    by_def: dict[tuple[str, int], str] = {}
    for key, s in status.items():
        where = (key[0], def_lines[key])
        if by_def.get(where, "ok") == "ok":
            by_def[where] = s
    return by_def


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--count", type=int, default=3000, help="generated kernels to inventory")
    ap.add_argument("-s", "--seed", type=int, default=42)
    ap.add_argument("--top", type=int, default=25, help="missing constructs to list")
    ap.add_argument("--no-nvcc", action="store_true", help="count translated kernels without compiling them")
    ap.add_argument("--examples", type=Path, default=None, help="examples folder (default: the installed Warp's)")
    args = ap.parse_args()

    root = args.examples or warp_examples_dir()
    kernels = example_kernels(root)
    total = len(kernels)
    if total == 0:
        raise SystemExit(f"coverage: no @wp.kernel under {root}")
    print(f"Warp examples: {total} kernels in {len({k.filename for k in kernels})} files under {root}")

    emitted = generated_constructs(args.count, args.seed)
    covered = [k for k in kernels if k.constructs <= emitted]
    missing = Counter(c for k in kernels for c in k.constructs - emitted)
    print(f"generators: {len(covered)}/{total} = {len(covered) / total:.1%} of example kernels use only constructs "
          f"emitted by {args.count} generated kernels ({len(emitted)} distinct constructs emitted)")

    with tempfile.TemporaryDirectory(prefix="coverage_") as tmp:
        status = translate_examples(root, kernels, Path(tmp), not args.no_nvcc)
    per_kernel = [status.get((k.filename, k.line), "not found by the translator") for k in kernels]
    ok = sum(s == "ok" for s in per_kernel)
    rejected = sum(s == "nvcc rejected" for s in per_kernel)
    cli_errors = sum(s.startswith("cli error") for s in per_kernel)
    check = "nvcc -ptx clean" if not args.no_nvcc else "translated (nvcc not run)"
    print(f"translator: {ok}/{total} = {ok / total:.1%} of example kernels {check}; "
          f"translated but rejected by nvcc: {rejected}; CLI errors: {cli_errors}")

    print(f"\ntop {args.top} constructs the generators never emit, by example kernels needing them:")
    for construct, n in missing.most_common(args.top):
        print(f"  {n:4d}  {construct}")
    refusals = Counter(s.removeprefix("refused: ") for s in per_kernel if s != "ok")
    print(f"\ntop {args.top} reasons the translator gives no nvcc-clean .cu, by example kernels affected:")
    for reason, n in refusals.most_common(args.top):
        print(f"  {n:4d}  {reason}")
    for k, s in zip(kernels, per_kernel):
        if s == "nvcc rejected":
            print(f"  nvcc rejected the translation of {k.filename}:{k.line} {k.name}")
    sys.exit(1 if rejected else 0)


if __name__ == "__main__":
    main()
