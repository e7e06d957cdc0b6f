"""Pipeline stages: plan -> generate -> extract -> translate -> reference -> validate -> serialise.

Each stage is a plain function over a `KernelRecord` (reference and validate take a batch, because
Warp compiles one CPU module per batch and nvcc one translation unit per batch: both cost seconds
per call, not per kernel). A stage leaves a failed record alone, and never raises for a bad kernel:
it records the failure. Which process runs a record, and how many there are, is the executor's
business (executors.py) and never changes the output.
"""
from __future__ import annotations

import base64
import hashlib
import tempfile
from pathlib import Path

from synthesis.categories import CATEGORY_NAMES
from synthesis.categories import generate as generate_kernel
from synthesis.normalize import structure_hash, take_module_tree
from synthesis.record import Failure, KernelRecord, Standalone, Task, WarpCode

__all__ = ["Failure", "KernelRecord", "Task"]

SCHEMA_VERSION = 2  # 2: metadata.structure_hash; optional cuda_standalone


# ---- plan --------------------------------------------------------------------------------------
def kernel_seed(run_seed: int, index: int) -> int:
    """Each kernel's seed depends only on the run's seed and its index: any slice stands alone."""
    return int(hashlib.sha256(f"{run_seed}:{index}".encode()).hexdigest()[:15], 16)


def canonical_categories(categories: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Categories in the fixed registry order, so `-c a -c b` and `-c b -c a` plan the same run."""
    chosen = set(categories) if categories else set(CATEGORY_NAMES)
    return tuple(c for c in CATEGORY_NAMES if c in chosen)


def task_for(index: int, categories: tuple[str, ...], run_seed: int) -> Task:
    """The one planner of every CLI: round-robin spreads categories evenly over any slice of indices."""
    return Task(index, categories[index % len(categories)], kernel_seed(run_seed, index))


def short_reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    detail = next((line.strip(" ;") for line in reversed(text) if line.strip(" ;")), "")
    return f"{type(exc).__name__}: {detail}"[:300]


# ---- stages ------------------------------------------------------------------------------------
def generate(record: KernelRecord) -> KernelRecord:
    try:
        record.spec = generate_kernel(record.task.category, record.task.seed)
    except Exception as exc:  # noqa: BLE001 - every failure is counted, none is fatal
        return record.failed("generate", short_reason(exc))
    record.structure_hash = structure_hash(record.spec.source)
    return record


def extract(record: KernelRecord, devices: tuple[str, ...], backward: bool) -> KernelRecord:
    """Warp's own code for the kernel on each device (one module build serves all devices)."""
    if not record.ok:
        return record
    from extraction.ir_extractor import extract_ir_devices
    from extraction.loader import load_kernels, unload

    spec = record.spec
    module_name = f"synth_{spec.name}"
    try:
        # the generator's parse of the source, when it still holds it (just after generation): Warp
        # reads it instead of parsing the source again
        kernels = load_kernels(spec.source, module_name, take_module_tree(spec.source))
    except Exception as exc:  # noqa: BLE001
        return record.failed("load", short_reason(exc))
    try:
        irs = extract_ir_devices(kernels[spec.name], devices, backward, spec.block_dim)
    except Exception as exc:  # noqa: BLE001
        return record.failed("extract", short_reason(exc))
    finally:
        unload(module_name)
    record.warp = {d: WarpCode(d, ir.forward, ir.backward, ir.helpers, ir.forward_name, ir.backward_name,
                               ir.warp_version) for d, ir in irs.items()}
    return record


def translate(record: KernelRecord, tolerance) -> KernelRecord:
    """The standalone CUDA: the kernel with its helpers, and the program that checks it against Warp."""
    if not record.ok:
        return record
    from cuda_production.bench import small_tables
    from cuda_production.compile_cuda import device_includes, device_part
    from cuda_production.reference import input_seed, sample_args
    from cuda_production.templates import render_cu, render_makefile
    from cuda_production.translator import TranslationError, translate_kernel

    spec = record.spec
    try:
        kernel = translate_kernel(spec.source, spec.name, f"{spec.name}.py", small_tables(list(spec.args), spec.dim),
                                  spec.block_dim, len(spec.dim))
    except TranslationError as exc:
        return record.failed("translate", exc.construct)
    if (kernel.block_dim if kernel.tiled else 0) != spec.block_dim:
        return record.failed("translate", "the translation's launch differs from the generator's (tiles, block_dim)")
    written = tuple(p.name for p in kernel.params if p.kind == "array" and p.written)
    if set(written) != {a.name for a in spec.args if a.is_written}:
        return record.failed("translate", "written arrays differ from the generator's output roles")
    args = tuple(sample_args(spec))
    seed = input_seed(spec)
    program = render_cu(kernel, list(args), spec.dim, seed, tolerance, True, spec.description or f"Kernel {spec.name}")
    record.translated = kernel
    record.standalone = Standalone(kernel=device_includes(program) + device_part(program) + "\n", program=program,
                                   makefile=render_makefile(spec.name, program), arguments=args, input_seed=seed,
                                   written_arrays=written)
    return record


def reference(records: list[KernelRecord], module_name: str) -> list[KernelRecord]:
    """Warp's CPU outputs for every record's inputs: one Warp module for the batch, one per kernel
    only when the batch fails (so a failure is attributed to its kernel)."""
    from cuda_production.reference import warp_reference

    ready = [r for r in records if r.ok]
    if not ready:
        return records
    outputs: dict[str, bytes | BaseException] = {}
    try:
        outputs.update(warp_reference([r.spec for r in ready], module_name))
    except Exception:  # noqa: BLE001 - isolate the kernel that breaks the batch
        for r in ready:
            try:
                outputs.update(warp_reference([r.spec], f"{module_name}_{r.task.index}"))
            except Exception as exc:  # noqa: BLE001
                outputs[r.spec.name] = exc
    for r in ready:
        out = outputs.get(r.spec.name)
        if isinstance(out, bytes):
            r.reference = out
        else:
            r.failed("reference", short_reason(out) if isinstance(out, BaseException) else "no Warp result")
    return records


def validate(records: list[KernelRecord]) -> list[KernelRecord]:
    """nvcc (batched device code, ptxas for resources) on every standalone program; 'skipped' without nvcc."""
    from cuda_production.compile_cuda import validate_samples

    ready = [r for r in records if r.ok]
    if not ready:
        return records
    with tempfile.TemporaryDirectory(prefix="validate_") as tmp:
        items = []
        for r in ready:
            cu = Path(tmp) / f"{r.task.index}_{r.spec.name}.cu"
            cu.write_text(r.standalone.program)
            items.append((cu, r.spec.name))
        results = validate_samples(items, workers=1)
    for r, v in zip(ready, results):
        r.validation = v.to_dict()
    return records


# ---- serialise ---------------------------------------------------------------------------------
def pair_dicts(record: KernelRecord, run_seed: int, standalone: bool) -> list[tuple[str, dict]]:
    """One training pair per device (file stem, record) in the schema users load (python_source,
    cpp_forward, ...); with `standalone`, each also carries the translation and its validation."""
    spec = record.spec
    extra = {"cuda_standalone": standalone_dict(record)} if standalone else {}
    pairs = []
    for device, code in record.warp.items():
        stem = spec.name if len(record.warp) == 1 else f"{spec.name}_{device}"
        pairs.append((stem, {
            "python_source": spec.source,
            "cpp_forward": code.forward,
            "cpp_backward": code.backward,
            "cpp_helpers": code.helpers,
            **extra,
            "metadata": {
                "kernel_name": spec.name,
                "category": spec.category,
                "description": spec.description,
                "device": device,
                "seed": spec.seed,
                "run_seed": run_seed,
                "index": record.task.index,
                "launch_dim": list(spec.dim),
                "block_dim": spec.block_dim,
                "arguments": [{"name": a.name, "type": a.dtype, "array_ndim": a.ndim, "role": a.role}
                              for a in spec.args],
                "forward_function": code.forward_function,
                "backward_function": code.backward_function,
                "warp_version": code.warp_version,
                "schema_version": SCHEMA_VERSION,
                "structure_hash": record.structure_hash,
            },
        }))
    return pairs


def standalone_dict(record: KernelRecord) -> dict:
    sa = record.standalone
    return {
        "kernel": sa.kernel,
        "program": sa.program,
        "makefile": sa.makefile,
        "input_seed": sa.input_seed,
        "written_arrays": list(sa.written_arrays),
        "expected_base64": base64.b64encode(record.reference).decode(),
        "validation": record.validation,
    }
