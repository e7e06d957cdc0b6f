"""Write one sample folder: <name>.py, <name>.cu, Makefile, metadata.json, expected.bin."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from cuda_production.bench import bench_metadata
from cuda_production.templates import Tolerance, render_cu, render_makefile
from cuda_production.translator import TranslatedKernel
from synthesis.spec import ArgSpec


def sample_dirname(index: int, category: str) -> str:
    return f"sample_{index:04d}_{category}"


def write_sample(folder: Path, kernel: TranslatedKernel, python_source: str, args: list[ArgSpec],
                 launch_dim: tuple[int, ...], input_seed: int, tolerance: Tolerance,
                 expected: bytes | None, metadata: dict, program: str | None = None) -> Path:
    """Write the sample under a temporary name and rename it into place: never half-written, and a
    write that fails (a full disk) leaves no temporary behind. `program`: the .cu when the pipeline
    has rendered it already."""
    folder = Path(folder)
    tmp = folder.with_name(f".{folder.name}.{os.getpid()}.tmp")
    try:
        _write_into(tmp, kernel, python_source, args, launch_dim, input_seed, tolerance, expected, metadata, program)
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return folder


def module_text(python_source: str) -> str:
    """A generated kernel's source as a module that runs: `import warp as wp` added after the imports
    the source begins with (`from typing import Any` for a generic function), standard library first."""
    lines = python_source.split("\n")
    top = 0
    while top < len(lines) and lines[top].startswith(("import ", "from ")):
        top += 1
    imports = "\n".join(lines[:top]) + "\n\n" if top else ""
    return imports + "import warp as wp\n\n\n" + "\n".join(lines[top:]).lstrip("\n")


def _write_into(tmp: Path, kernel: TranslatedKernel, python_source: str, args: list[ArgSpec],
                launch_dim: tuple[int, ...], input_seed: int, tolerance: Tolerance,
                expected: bytes | None, metadata: dict, program: str | None) -> None:
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    name = kernel.name
    title = metadata.get("description") or f"Kernel {name}"
    if program is None:
        program = render_cu(kernel, args, launch_dim, input_seed, tolerance, expected is not None, title)
    (tmp / f"{name}.py").write_text(module_text(python_source))
    (tmp / f"{name}.cu").write_text(program)
    (tmp / "Makefile").write_text(render_makefile(name, program))
    # arrays the kernel writes; an array of records by the members it writes (`bodies.vel`)
    written = [f"{p.name}.{f.name}" if p.fields else p.name for p in kernel.params if p.kind == "array" and p.written
               for f in (p.fields or (p,)) if f.written]
    bounds = {name: a.bound for a in args for name, a in
              ([(f"{a.name}.{f.name}", f) for f in a.fields] if a.is_records else [(a.name, a)]) if name in written}
    meta = {
        **metadata,
        "kernel_name": name,
        "launch_dim": list(launch_dim),
        "input_seed": input_seed,
        "arguments": [a.to_dict() for a in args],
        "written_arrays": written,
        "reference": ({"file": "expected.bin", "source": "Warp CPU execution of the .py kernel on the same inputs",
                       "layout": "written arrays in parameter order, little-endian float32/int32"}
                      if expected is not None else None),
        "tolerance": {"atol": tolerance.atol, "rtol": tolerance.rtol,
                      "rule": "|got - want| <= atol * bound + rtol * |want| per float element; int32 exact",
                      "bounds": bounds},
        **_wide_tolerances(args, bounds, tolerance),
        "bench": bench_metadata(args, tuple(launch_dim), kernel.block_dim if kernel.tiled else 1),
        "files": {"python": f"{name}.py", "cuda": f"{name}.cu", "makefile": "Makefile"},
    }
    if kernel.block_dim:  # a kernel using tiles: how Warp launches it
        meta["tiles"] = {"block_dim": kernel.block_dim, "block_dim_origin": kernel.block_dim_origin,
                         "launch": "wp.launch_tiled" if kernel.tiled else "wp.launch"}
    if expected is not None:
        (tmp / "expected.bin").write_bytes(expected)
    (tmp / "metadata.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")


def _wide_tolerances(args, written, tolerance: Tolerance) -> dict:
    """float64 / float16 / bfloat16 outputs are compared at their own precision: their (atol, rtol), when present.
    `written`: the written arrays' names (an array of records' members as `a.f`)."""
    from synthesis.dtypes import dtype as lookup_dtype

    named = [(f"{a.name}.{f.name}", f) for a in args if a.is_records for f in a.fields]
    named += [(a.name, a) for a in args if a.kind == "array" and not a.is_records]
    scalars = {lookup_dtype(a.dtype).scalar for name, a in named if name in written}
    return {f"tolerance_{s}": dict(zip(("atol", "rtol"), tolerance.for_dtype(s)))
            for s in sorted(scalars & {"float64", "float16", "bfloat16"})}
