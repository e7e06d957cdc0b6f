"""Pipeline stages: plan -> generate -> extract -> serialise. Plain functions over records.

A chunk of tasks goes through every stage inside one worker; which worker runs a chunk, and how
many workers there are, is the executor's business (pipeline.py) and never changes the output.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from synthesis.categories import CATEGORY_NAMES, generate
from synthesis.spec import KernelSpec

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Task:
    index: int
    category: str
    seed: int


@dataclass(frozen=True)
class Failure:
    index: int
    category: str
    seed: int
    stage: str  # generate | load | extract
    reason: str

    def to_dict(self) -> dict:
        return {"index": self.index, "category": self.category, "seed": self.seed,
                "stage": self.stage, "reason": self.reason}


@dataclass
class ChunkResult:
    """What a worker hands back: serialised records in index order, and the failures."""

    records: list[tuple[str, str]] = field(default_factory=list)  # (kernel file stem, JSON text)
    categories: list[str] = field(default_factory=list)  # category of each record
    failures: list[Failure] = field(default_factory=list)


def kernel_seed(run_seed: int, index: int) -> int:
    """Each kernel's seed depends only on the run's seed and its index: any slice stands alone."""
    return int(hashlib.sha256(f"{run_seed}:{index}".encode()).hexdigest()[:15], 16)


def canonical_categories(categories: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Categories in the fixed registry order, so `-c a -c b` and `-c b -c a` plan the same run."""
    chosen = set(categories) if categories else set(CATEGORY_NAMES)
    return tuple(c for c in CATEGORY_NAMES if c in chosen)


def task_for(index: int, categories: tuple[str, ...], run_seed: int) -> Task:
    # Round-robin spreads categories evenly over any contiguous slice of indices.
    return Task(index, categories[index % len(categories)], kernel_seed(run_seed, index))


def short_reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    detail = next((line.strip(" ;") for line in reversed(text) if line.strip(" ;")), "")
    return f"{type(exc).__name__}: {detail}"[:300]


def pair_records(spec: KernelSpec, irs: dict, run_seed: int, index: int) -> list[dict]:
    """One training pair per device, in the schema users already load (python_source, cpp_forward)."""
    records = []
    for device, ir in irs.items():
        records.append({
            "python_source": spec.source,
            "cpp_forward": ir.forward,
            "cpp_backward": ir.backward,
            "cpp_helpers": ir.helpers,
            "metadata": {
                "kernel_name": spec.name,
                "category": spec.category,
                "description": spec.description,
                "device": device,
                "seed": spec.seed,
                "run_seed": run_seed,
                "index": index,
                "launch_dim": list(spec.dim),
                "arguments": [{"name": a.name, "type": a.dtype, "array_ndim": a.ndim, "role": a.role}
                              for a in spec.args],
                "forward_function": ir.forward_name,
                "backward_function": ir.backward_name,
                "warp_version": ir.warp_version,
                "schema_version": SCHEMA_VERSION,
            },
        })
    return records


def process_chunk(tasks: list[Task], devices: tuple[str, ...], backward: bool, run_seed: int) -> ChunkResult:
    """Run every stage for a chunk of tasks. Never raises for a bad kernel: it is a Failure."""
    from extraction.ir_extractor import extract_ir_devices
    from extraction.loader import load_kernels, unload

    result = ChunkResult()
    for task in tasks:
        try:
            spec = generate(task.category, task.seed)
        except Exception as exc:  # noqa: BLE001 - every failure is counted, none is fatal
            result.failures.append(Failure(task.index, task.category, task.seed, "generate", short_reason(exc)))
            continue
        module_name = f"synth_{spec.name}"
        try:
            kernels = load_kernels(spec.source, module_name)
        except Exception as exc:  # noqa: BLE001
            result.failures.append(Failure(task.index, task.category, task.seed, "load", short_reason(exc)))
            continue
        try:
            irs = extract_ir_devices(kernels[spec.name], devices, backward)
        except Exception as exc:  # noqa: BLE001
            result.failures.append(Failure(task.index, task.category, task.seed, "extract", short_reason(exc)))
            continue
        finally:
            unload(module_name)
        for record in pair_records(spec, irs, run_seed, task.index):
            stem = spec.name if len(devices) == 1 else f"{spec.name}_{record['metadata']['device']}"
            result.records.append((stem, json.dumps(record, ensure_ascii=False)))
            result.categories.append(spec.category)
    return result
