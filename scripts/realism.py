"""Realism: the share of generated kernels (or production samples) with code no person writes.

    python scripts/realism.py --kernels 10000 [--seed 42] [--show 3]
    python scripts/realism.py --samples DIR [--show 3]
    python scripts/realism.py --outputs N [--seed 42]      # quick: Warp on the CPU, no CUDA written

--kernels generates N kernels with the pipeline's own plan (categories round-robin) and looks for
every source pattern of `synthesis/realism.py` in each. --samples reads production sample folders:
the same source patterns in each `<kernel>.py`, and each written array of expected.bin (decoded
with metadata.json's argument list) checked for a constant, all-zero or copied-input output, the
inputs rebuilt exactly as the sample's main() builds them. --outputs runs the same output check on N
generated kernels through the reference stage alone (Warp on the CPU), without writing samples.

Prints the share per category and per pattern, plus figures that are not counted as degenerate
(repeated loads of one element, reads of other elements than the thread's own). Exits 1 when a
target is missed: <= 1% of kernels with any pattern in every category, <= 1% of samples with a
degenerate output.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from synthesis.dtypes import dtype as lookup_dtype, float_values
from synthesis.realism import (FIGURES, OUTPUT_PATTERNS, SOURCE_PATTERNS, ArgInfo, degenerate_outputs, figures,
                              find_patterns, reset_arrays)

TARGET = 0.01


def table(title: str, per_cat: dict[str, list[set[str]]], patterns: tuple[str, ...],
          figs: dict[str, list[dict[str, int]]] | None = None) -> float:
    """Print share with any pattern and per pattern, per category; return the worst share."""
    short = {p: p.replace("helper_", "h_").replace("_condition", "_cond").replace("_operands", "_ops")[:12] for p in patterns}
    fig_names = FIGURES if figs is not None else ()
    head = f"{'category':18s} {'n':>6s} {'any':>7s} " + " ".join(f"{short[p]:>12s}" for p in patterns)
    head += "".join(f" {f[:13]:>13s}" for f in fig_names)
    print(title)
    print(head)
    worst = 0.0
    rows = list(per_cat.items())
    total_sets = [s for _, sets in rows for s in sets]
    for cat, sets in rows + [("ALL", total_sets)]:
        n = len(sets)
        any_share = sum(1 for s in sets if s) / n
        if cat != "ALL":
            worst = max(worst, any_share)
        line = f"{cat:18s} {n:6d} {any_share:7.1%} " + " ".join(
            f"{sum(1 for s in sets if p in s) / n:12.1%}" for p in patterns)
        if figs is not None:
            fl = figs[cat] if cat != "ALL" else [f for v in figs.values() for f in v]
            line += "".join(f" {sum(f[k] for f in fl) / n:13.1%}" for k in fig_names)
        print(line)
    return worst


def show_examples(examples: dict[str, list[str]], count: int) -> None:
    for pattern, texts in sorted(examples.items()):
        for t in texts[:count]:
            print(f"  {pattern}: {t}")


def run_kernels(count: int, seed: int, show: int) -> bool:
    from synthesis.categories import generate
    from synthesis.stages import canonical_categories, task_for

    cats = canonical_categories(())
    per_cat: dict[str, list[set[str]]] = {c: [] for c in cats}
    figs: dict[str, list[dict[str, int]]] = {c: [] for c in cats}
    examples: dict[str, list[str]] = defaultdict(list)
    for i in range(count):
        t = task_for(i, cats, seed)
        spec = generate(t.category, t.seed)
        args = [ArgInfo(a.name, a.role, a.dtype, a.low, a.high, a.value) for a in spec.args]
        found = find_patterns(spec.source, spec.dim, args)
        per_cat[t.category].append({f.pattern for f in found})
        figs[t.category].append(figures(spec.source, {a.name for a in spec.args if a.is_array}))
        for f in found:
            if len(examples[f.pattern]) < show:
                examples[f.pattern].append(f"{spec.name} ({t.category}) line {f.line}: {f.text}")
    worst = table(f"{count} generated kernels (seed {seed}): share with each source pattern; figures at the right "
                  "are not counted", per_cat, SOURCE_PATTERNS, figs)
    show_examples(examples, show)
    ok = worst <= TARGET
    print(f"worst category: {worst:.2%} of kernels with any pattern (target <= {TARGET:.0%}): {'OK' if ok else 'MISSED'}")
    return ok


def stored_whole(source: str, records: str) -> bool:
    """Whether the kernel stores whole records into the array `records` (`particles[tid] = p`)."""
    return re.search(rf"^\s*{re.escape(records)}\[[^\n]*\]\s*=(?!=)", source, re.M) is not None


def decode_arrays(arg_specs, source: str, seed: int, blob: bytes, where: str):
    """(written arrays, read-only inputs, inout start values) of a kernel, shaped (elements, components),
    from its Warp results `blob` (expected.bin's layout) and its rebuilt inputs. A member of an array
    of records is named `array.member`; a member the kernel writes back as it was read, storing its
    records whole, has no start value to be compared with (unchanged is what the store means)."""
    from cuda_production.reference import make_input

    written, inputs, initial = {}, {}, {}
    offset, position = 0, 0
    for a in arg_specs:
        whole = a.is_records and stored_whole(source, a.name)
        for arg in a.flattened():
            name = f"{a.name}.{arg.name}" if a.is_records else arg.name
            position += 1
            if arg.kind != "array":
                continue
            dtype = np.dtype(arg.numpy_dtype).newbyteorder("<")
            scalar = lookup_dtype(arg.dtype).scalar
            if arg.role in ("output", "inout"):
                n = arg.count * arg.width
                raw = np.frombuffer(blob, dtype=dtype, count=n, offset=offset).astype(dtype.newbyteorder("="))
                written[name] = float_values(raw, scalar).reshape(arg.count, arg.width)  # bfloat16: widened
                offset += n * dtype.itemsize
            if arg.role in ("input", "index") or (arg.role == "inout" and not whole):
                values = float_values(make_input(arg, position - 1, seed), scalar).reshape(arg.count, arg.width)
                (initial if arg.role == "inout" else inputs)[name] = values
    if offset != len(blob):
        raise ValueError(f"{where}: expected.bin holds {len(blob)} bytes, the arguments describe {offset}")
    return written, inputs, initial


def decode_sample(folder: Path) -> tuple[dict, str, dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(metadata, source, written arrays, read-only inputs, inout start values), arrays shaped (elements, components)."""
    from synthesis.spec import ArgSpec

    meta = json.loads((folder / "metadata.json").read_text())
    source = (folder / meta["files"]["python"]).read_text()
    args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
    blob = (folder / meta["reference"]["file"]).read_bytes()
    written, inputs, initial = decode_arrays(args, source, meta["input_seed"], blob, str(folder))
    return meta, source, written, inputs, initial


def run_outputs(count: int, seed: int, show: int) -> bool:
    from cuda_production.reference import input_seed, sample_args, warp_reference
    from synthesis.categories import generate
    from synthesis.stages import canonical_categories, task_for

    cats = canonical_categories(())
    specs = [generate(t.category, t.seed) for t in (task_for(i, cats, seed) for i in range(count))]
    out_cat: dict[str, list[set[str]]] = {c: [] for c in cats}
    examples: dict[str, list[str]] = defaultdict(list)
    for start in range(0, count, 100):
        batch = specs[start:start + 100]
        blobs = warp_reference(batch, f"realism_outputs_{start}")
        for spec in batch:
            written, inputs, initial = decode_arrays(sample_args(spec), spec.source, input_seed(spec),
                                                     blobs[spec.name], spec.name)
            found = degenerate_outputs(written, inputs, initial, reset_arrays(spec.source))
            out_cat[spec.category].append({f.pattern for f in found})
            for f in found:
                if len(examples[f.pattern]) < show:
                    examples[f.pattern].append(f"{spec.name}: {f.text}")
    table(f"{count} generated kernels run by Warp on the CPU: degenerate outputs", out_cat, OUTPUT_PATTERNS)
    show_examples(examples, show)
    bad = sum(1 for sets in out_cat.values() for s in sets if s)
    ok = bad / count <= TARGET
    print(f"{bad}/{count} kernels ({bad / count:.1%}) with a degenerate output (target <= {TARGET:.0%}): "
          f"{'OK' if ok else 'MISSED'}")
    return ok


def run_samples(root: Path, show: int) -> bool:
    folders = sorted(p for p in root.glob("sample_*") if p.is_dir() and (p / "metadata.json").exists())
    if not folders:
        print(f"error: no sample folders (sample_*/metadata.json) under {root}", file=sys.stderr)
        sys.exit(2)
    src_cat: dict[str, list[set[str]]] = defaultdict(list)
    out_cat: dict[str, list[set[str]]] = defaultdict(list)
    examples: dict[str, list[str]] = defaultdict(list)
    only_degenerate = 0
    for folder in folders:
        try:
            meta, source, written, inputs, initial = decode_sample(folder)
        except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
            print(f"error: cannot read sample {folder.name}: {exc}", file=sys.stderr)
            sys.exit(2)
        cat = meta["category"]
        args = [ArgInfo(a["name"], a["role"], a["dtype"], a["low"], a["high"], a["value"]) for a in meta["arguments"]
                if a["role"] != "struct"]
        found = find_patterns(source, tuple(meta["launch_dim"]), args)
        src_cat[cat].append({f.pattern for f in found})
        outs = degenerate_outputs(written, inputs, initial, reset_arrays(source))
        out_cat[cat].append({f.pattern for f in outs})
        bad_arrays = {f.text.split(" ")[0] for f in outs}
        if written and bad_arrays >= set(written):
            only_degenerate += 1
        for f in found + outs:
            if len(examples[f.pattern]) < show:
                examples[f.pattern].append(f"{folder.name}: {f.text}")
    n = len(folders)
    table(f"{n} production samples under {root}: source patterns", dict(src_cat), SOURCE_PATTERNS)
    table("degenerate outputs (decoded expected.bin vs rebuilt inputs)", dict(out_cat), OUTPUT_PATTERNS)
    show_examples(examples, show)
    bad = sum(1 for sets in out_cat.values() for s in sets if s)
    ok = bad / n <= TARGET
    print(f"{bad}/{n} samples ({bad / n:.1%}) with a degenerate output, {only_degenerate} with only such outputs "
          f"(target <= {TARGET:.0%}): {'OK' if ok else 'MISSED'}")
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--kernels", type=int, metavar="N", help="generate N kernels and check their sources")
    mode.add_argument("--samples", type=Path, metavar="DIR", help="check production sample folders")
    mode.add_argument("--outputs", type=int, metavar="N", help="run N generated kernels in Warp (CPU), check outputs")
    ap.add_argument("-s", "--seed", type=int, default=42)
    ap.add_argument("--show", type=int, default=0, help="print up to this many examples per pattern")
    args = ap.parse_args()
    if args.kernels is not None:
        if args.kernels <= 0:
            ap.error("--kernels must be positive")
        ok = run_kernels(args.kernels, args.seed, args.show)
    elif args.outputs is not None:
        if args.outputs <= 0:
            ap.error("--outputs must be positive")
        ok = run_outputs(args.outputs, args.seed, args.show)
    else:
        if not args.samples.is_dir():
            print(f"error: {args.samples} is not a folder", file=sys.stderr)
            sys.exit(2)
        ok = run_samples(args.samples, args.show)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
