"""`python -m cuda_production.translate FILE.py -o OUTDIR`: a user's Warp kernels -> CUDA samples.

The file is parsed, never imported or executed. Each @wp.kernel becomes OUTDIR/<kernel>/ with the
.cu, a Makefile and metadata.json; its main() builds deterministic inputs, runs and times the kernel
(there is no Warp reference for a user's kernel, so it prints a checksum instead of PASS/FAIL).
A kernel that cannot be translated gets one line on stderr, `file:line:col: unsupported: ...`,
nothing is written for it, and the exit status is 2.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from cuda_production.sample import write_sample
from cuda_production.templates import Tolerance
from synthesis.spec import ArgSpec
from cuda_production.translator import TranslatedKernel, TranslationError, translate_source

DEFAULT_1D = 1024
DEFAULT_ND = {2: (64, 64), 3: (16, 16, 16)}


def default_args(kernel: TranslatedKernel, launch_dim: tuple[int, ...]) -> list[ArgSpec]:
    """Inputs for a kernel nobody described: arrays shaped like the launch, ints as valid indices."""
    args = []
    size = 1
    for d in launch_dim:
        size *= d
    for p in kernel.params:
        if p.kind == "scalar":
            args.append(ArgSpec(p.name, p.dtype, "scalar", value=4 if p.dtype == "int32" else 0.5))
            continue
        shape = launch_dim if p.ndim == len(launch_dim) else ((size,) if p.ndim == 1 else tuple([16] * p.ndim))
        role = "inout" if (p.written and p.read) else ("output" if p.written else "input")
        if p.dtype == "int32":
            # Integers double as indices in most kernels: keep them inside the smallest array.
            args.append(ArgSpec(p.name, p.dtype, role, shape, 0, _min_extent(kernel, launch_dim) - 1, 0))
        else:
            args.append(ArgSpec(p.name, p.dtype, role, shape, -1.0, 1.0, 10))
    return args


def _min_extent(kernel: TranslatedKernel, launch_dim: tuple[int, ...]) -> int:
    return min(launch_dim) if len(launch_dim) > 1 else launch_dim[0]


def translate_file(path: Path, out: Path) -> int:
    try:
        source = path.read_text()
    except OSError as exc:
        click.echo(f"{path}: cannot read: {exc.strerror}", err=True)
        return 2
    try:
        results = translate_source(source, str(path))
    except TranslationError as exc:
        click.echo(str(exc), err=True)
        return 2
    if not results:
        click.echo(f"{path}: no @wp.kernel found", err=True)
        return 2
    status = 0
    for name, result in results.items():
        if isinstance(result, TranslationError):
            click.echo(str(result), err=True)
            status = 2
            continue
        launch = (DEFAULT_1D,) if result.launch_ndim == 1 else DEFAULT_ND[result.launch_ndim]
        try:
            write_sample(out / name, result, _kernel_source(source, name), default_args(result, launch), launch,
                         12345, Tolerance(), None,
                         {"description": f"Kernel {name} from {path.name}", "source_file": str(path)})
        except OSError as exc:
            click.echo(f"{out / name}: cannot write: {exc.strerror}", err=True)
            status = 2
            continue
        click.echo(f"{name}: {out / name}")
    return status


def _kernel_source(source: str, name: str) -> str:
    """The user's whole file minus its imports (the sample's .py adds `import warp as wp`)."""
    return "\n".join(l for l in source.splitlines() if not l.startswith(("import ", "from "))).strip() + "\n"


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Folder for the samples.")
def main(file: Path, output: Path) -> None:
    """Translate every @wp.kernel in FILE into OUTPUT/<kernel>/ (.cu, Makefile, metadata.json)."""
    sys.exit(translate_file(file, output))


if __name__ == "__main__":
    main()
