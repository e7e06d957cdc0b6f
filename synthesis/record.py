"""One record per kernel, which every stage of the pipeline adds to.

generate fills `spec` and `structure_hash`; extract fills `warp` (Warp's own code per device);
translate fills `standalone` (the kernel with its helpers, and the full self-checking program);
reference fills `reference` (Warp's CPU outputs for the program's inputs); validate fills
`validation` (nvcc). A stage that fails sets `failure` and every later stage leaves the record alone:
a failed kernel is carried to the writer and counted, never dropped.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from synthesis.spec import KernelSpec


@dataclass(frozen=True)
class Task:
    """What the planner decides for kernel `index` of a run: its category and its seed."""

    index: int
    category: str
    seed: int


@dataclass(frozen=True)
class Failure:
    """Why a kernel produced no output: the stage that failed and a one-line reason."""

    index: int
    category: str
    seed: int
    stage: str  # generate | load | extract | translate | reference | validate | write
    reason: str

    def to_dict(self) -> dict:
        return {"index": self.index, "category": self.category, "seed": self.seed,
                "stage": self.stage, "reason": self.reason}


@dataclass(frozen=True)
class WarpCode:
    """The code Warp's compiler emits for the kernel on one device."""

    device: str
    forward: str
    backward: str | None
    helpers: str
    forward_function: str
    backward_function: str | None
    warp_version: str


@dataclass(frozen=True)
class Standalone:
    """The translation: `kernel` compiles on its own (device code only), `program` is the whole .cu."""

    kernel: str
    program: str
    makefile: str
    arguments: tuple[Any, ...]  # synthesis.spec.ArgSpec, in parameter order
    input_seed: int
    written_arrays: tuple[str, ...]


@dataclass
class KernelRecord:
    task: Task
    run_seed: int
    spec: KernelSpec | None = None
    structure_hash: str | None = None
    warp: dict[str, WarpCode] = field(default_factory=dict)
    translated: Any = None  # cuda_production.translator.TranslatedKernel (not serialised)
    standalone: Standalone | None = None
    reference: bytes | None = None
    validation: dict | None = None
    failure: Failure | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None

    def failed(self, stage: str, reason: str) -> "KernelRecord":
        self.failure = Failure(self.task.index, self.task.category, self.task.seed, stage, reason)
        return self
