"""The translate CLI on real users' kernels: every @wp.kernel under the installed Warp's examples.

    python scripts/translate_examples.py                 # share translated (the files are only parsed)
    python scripts/translate_examples.py --reference     # + share equal to Warp on the CPU (--reference --check)
    python scripts/translate_examples.py --large-file    # a 5 MB file with 5,000 kernels: time and output size

Each example file is given to `python -m cuda_production.translate` as a user would; the script
counts the kernels by parsing the files (at any nesting level), so a kernel the CLI skips silently
would show as missing. Nothing of the examples is copied into the project: outputs go to a
temporary folder (or --keep DIR). Every kernel not translated, or not equal, is listed with its reason.
An example whose inputs cannot be inferred (a lock that must start released) gets them declared, as a
user would, in `scripts/example_inputs/<its path>.toml`, passed with --inputs.
"""
from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
WRITTEN = re.compile(r"^(\w+): (\S+)")
INPUTS_DIR = ROOT / "scripts" / "example_inputs"  # declared inputs for examples whose inputs cannot be inferred


def examples_dir() -> Path:
    import warp

    return Path(os.path.dirname(warp.__file__)) / "examples"


def kernels_in(path: Path) -> list[str]:
    """Names of every function decorated with @wp.kernel (or @wp.kernel(...)) in the file, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if isinstance(target, ast.Attribute) and target.attr == "kernel":
                    names.append(node.name)
    return names


def run_cli(args: list[str], timeout: float) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "cuda_production.translate", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=ROOT)


def reason_of(line: str) -> str:
    """`file:line:col: unsupported: X` -> `unsupported: X` (for the tally)."""
    m = re.search(r"\b(unsupported|error|out-of-range access|Warp[^:]*|NOT equal)[^\n]*", line)
    return re.sub(r"'[^']*'", "'…'", m.group(0))[:90] if m else line[:90]


@click.command()
@click.option("--reference", is_flag=True, help="Also run --reference --check (executes the examples' kernels).")
@click.option("--nvcc", "use_nvcc", is_flag=True, help="Also compile every written .cu with nvcc -ptx and count rejections.")
@click.option("--large-file", is_flag=True, help="Only the 5 MB / 5,000-kernel timing.")
@click.option("--kernels", default=5000, help="Kernels in the --large-file file (5 MB whatever the count).")
@click.option("--keep", type=click.Path(path_type=Path), default=None, help="Keep the outputs here.")
@click.option("--timeout", default=1800.0, help="Seconds per example file.")
def main(reference: bool, use_nvcc: bool, large_file: bool, kernels: int, keep: Path | None, timeout: float) -> None:
    out_root = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="translate_examples_"))
    try:
        if large_file:
            large(out_root, kernels)
        else:
            examples(out_root, reference, timeout)
            if use_nvcc:
                nvcc_rejections(out_root / "translated")
    finally:
        if not keep:
            shutil.rmtree(out_root, ignore_errors=True)


def one_pass(f: Path, out: Path, extra: list[str], timeout: float) -> tuple[dict[str, str], list[str], bool]:
    """Run the CLI on one file: ({kernel: its stdout line}, stderr lines, traceback seen)."""
    try:
        proc = run_cli([str(f), "-o", str(out), *extra], timeout)
    except subprocess.TimeoutExpired:
        return {}, [f"{f}: timed out after {timeout} s"], False
    written = {m.group(1): line for line in proc.stdout.splitlines() if (m := WRITTEN.match(line))}
    return written, [l for l in proc.stderr.splitlines() if l.strip()], "Traceback" in proc.stderr


def examples(out_root: Path, reference: bool, timeout: float) -> None:
    files = sorted(p for p in examples_dir().rglob("*.py") if "@wp.kernel" in p.read_text(encoding="utf-8"))
    total = translated = tracebacks = unaccounted = 0
    checked = equal = 0
    lines: list[str] = []
    tally: Counter = Counter()
    proof: list[str] = []
    started = time.perf_counter()
    for f in files:
        names = kernels_in(f)
        total += len(names)
        out = out_root / "translated" / f.relative_to(examples_dir()).with_suffix("")
        declared = INPUTS_DIR / f.relative_to(examples_dir()).with_suffix(".toml")
        inputs = ["--inputs", str(declared)] if declared.exists() else []
        written, errors, traceback = one_pass(f, out, inputs, timeout)
        tracebacks += traceback
        translated += len(written)
        lines.extend(errors)
        tally.update(reason_of(l) for l in errors)
        if len(names) > len(written) + len(errors):
            unaccounted += len(names) - len(written) - len(errors)
            lines.append(f"{f}: {len(names) - len(written) - len(errors)} kernel(s) neither written nor refused")
        if reference and written:
            out = out_root / "reference" / f.relative_to(examples_dir()).with_suffix("")
            proven, errors, traceback = one_pass(f, out, [*inputs, "--reference", "--check"], timeout)
            tracebacks += traceback
            checked += len(written)
            equal += sum(1 for line in proven.values() if line.endswith("equal to Warp (host emulation)"))
            proof.extend(line for line in proven.values() if ": NOT " in line)
            proof.extend(l for l in errors if not any(l.startswith(e) for e in lines))
    elapsed = time.perf_counter() - started
    print(f"examples: {len(files)} files, {total} @wp.kernel definitions ({elapsed:.0f} s)")
    print(f"translated: {translated} / {total} = {100 * translated / max(total, 1):.1f}%")
    if reference:
        print(f"equal to Warp on the CPU (--reference --check): {equal} / {checked} = "
              f"{100 * equal / max(checked, 1):.1f}% of the translated; the others, each with its reason:")
        for line in proof:
            print("  " + line)
    print(f"tracebacks: {tracebacks}; kernels neither written nor refused with a line: {unaccounted}")
    print("not translated, by reason:")
    for reason, n in tally.most_common():
        print(f"  {n:4d}  {reason}")
    print("not translated, every line:")
    for line in lines:
        print("  " + line)


def nvcc_rejections(root: Path) -> None:
    """Every exit-0 output must compile: nvcc -ptx on each written .cu."""
    cus = sorted(root.rglob("*.cu"))
    rejected = []
    for cu in cus:
        proc = subprocess.run(["nvcc", "-ptx", "-arch=sm_75", "-std=c++17", str(cu), "-o", str(cu.with_suffix(".ptx"))],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            rejected.append(f"{cu}: {next((l for l in proc.stderr.splitlines() if 'error' in l), proc.stderr[:200])}")
    print(f"nvcc -ptx on the written .cu files: {len(cus) - len(rejected)} / {len(cus)} accepted, {len(rejected)} rejected")
    for line in rejected:
        print("  " + line)


LARGE_KERNEL = '''
@wp.func
def helper_{i}(x: float, y: float) -> float:
    return wp.sin(x) * y + SCALE_{i} * wp.cos(y) - x * x * {c}


@wp.kernel
def kernel_{i}(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float), s: float):
    i = wp.tid()
    x = a[i]
    y = b[i]
    acc = float(0.0)
    for k in range(4):
        acc = acc + helper_{i}(x + float(k), y) * s
        if acc > 10.0:
            acc = acc - 10.0
    c[i] = acc + {c} * x - y * {c}
'''


def large_source(kernels: int = 5000, target_bytes: int = 5_000_000) -> str:
    """A file of `kernels` kernels (each with a helper and a constant), padded by comments to the size."""
    parts = ["import warp as wp\n", "print('module-level side effect: never run by translate')\n"]
    for i in range(kernels):
        parts.append(f"SCALE_{i} = wp.constant({(i % 97) / 64.0})\n")
        parts.append(LARGE_KERNEL.format(i=i, c=f"{(i % 13) / 8.0}"))
    text = "".join(parts)
    filler = "# unrelated user code, comments and data\n"
    blob = "DATA = [" + ", ".join(str(k) for k in range(2000)) + "]\n"
    while len(text) < target_bytes:
        text += blob if len(text) % 2 else filler
    return text


def large(out_root: Path, kernels: int) -> None:
    src = out_root / "large_user_file.py"
    src.write_text(large_source(kernels))
    out = out_root / "out"
    started = time.perf_counter()
    proc = run_cli([str(src), "-o", str(out)], timeout=3600)
    elapsed = time.perf_counter() - started
    written = [p for p in out.iterdir() if p.is_dir()] if out.exists() else []
    sizes = [sum(f.stat().st_size for f in d.iterdir()) for d in written]
    py_sizes = [(d / f"{d.name}.py").stat().st_size for d in written]
    print(f"input: {src.stat().st_size / 1e6:.2f} MB, {len(kernels_in(src))} kernels; exit status {proc.returncode}; "
          f"{len(proc.stderr.splitlines())} stderr lines")
    print(f"translated {len(written)} kernels in {elapsed:.1f} s ({1000 * elapsed / max(len(written), 1):.1f} ms per kernel)")
    if sizes:
        print(f"output: {sum(sizes) / 1e6:.1f} MB in all, {sum(sizes) / len(sizes) / 1e3:.1f} kB per kernel "
              f"(max {max(sizes) / 1e3:.1f} kB); each .py {min(py_sizes)}..{max(py_sizes)} bytes")


if __name__ == "__main__":
    main()
