"""Write one sample folder: <name>.py, <name>.cu, Makefile, metadata.json, expected.bin."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from cuda_production.templates import Tolerance, render_cu, render_makefile
from cuda_production.translator import TranslatedKernel
from synthesis.spec import ArgSpec


def sample_dirname(index: int, category: str) -> str:
    return f"sample_{index:04d}_{category}"


def write_sample(folder: Path, kernel: TranslatedKernel, python_source: str, args: list[ArgSpec],
                 launch_dim: tuple[int, ...], input_seed: int, tolerance: Tolerance,
                 expected: bytes | None, metadata: dict) -> Path:
    """Write the sample under a temporary name and rename it into place: never half-written."""
    folder = Path(folder)
    tmp = folder.with_name(f".{folder.name}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    name = kernel.name
    title = metadata.get("description") or f"Kernel {name}"
    (tmp / f"{name}.py").write_text("import warp as wp\n\n\n" + python_source)
    (tmp / f"{name}.cu").write_text(render_cu(kernel, args, launch_dim, input_seed, tolerance, expected is not None, title))
    (tmp / "Makefile").write_text(render_makefile(name))
    written = [p.name for p in kernel.params if p.kind == "array" and p.written]
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
                      "bounds": {a.name: a.bound for a in args if a.name in written}},
        "files": {"python": f"{name}.py", "cuda": f"{name}.cu", "makefile": "Makefile"},
    }
    if expected is not None:
        (tmp / "expected.bin").write_bytes(expected)
    (tmp / "metadata.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    if folder.exists():
        shutil.rmtree(folder)
    os.replace(tmp, folder)
    return folder
