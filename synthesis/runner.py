"""A run: which stages, which output folders, which shards; and the jobs that executors run.

Both CLIs build a `RunPlan` and call `execute`; neither runs a stage itself. A shard is a fixed
range of kernel indices (`shard_size` of them), so the layout depends on the arguments only. With
several workers a shard is computed in parts (PART_SIZE kernels each, any worker each) and written
by one job once its parts are in: a run's last shards then end together instead of leaving workers
idle while the slowest finishes a whole shard. The shard's files are the same bytes either way.
"""
from __future__ import annotations

import gc
import sys
from dataclasses import dataclass, field
from functools import partial

from synthesis.executors import Interrupted, JobFailed, ShardOutcome, run_shards
from synthesis.record import KernelRecord
from synthesis.stages import extract, generate, reference, short_reason, task_for, translate, validate
from synthesis.writer import OutputError, PairFolder, RunFolder, SampleFolder

REFERENCE_BATCH = 10  # kernels per Warp CPU module for the reference outputs (about 1.5 s to build)
# Kernels per part of a shard when workers share it (about 0.15 s of work for pairs): a multiple of
# REFERENCE_BATCH, so the reference batches are those of the whole shard.
PART_SIZE = REFERENCE_BATCH
WRITE = -1  # ShardJob.part of the job that writes a shard from its saved parts
# The collector's thresholds in a process that runs jobs. Python's default (700, 10, 10) collects
# the youngest generation every 700 allocations, and a kernel allocates tens of thousands (ASTs,
# Warp's adjoints and modules), nearly all freed by reference counting alone. At 10,000 a worker
# runs 0.9 M fewer instructions per kernel (2%; 50,000 saves no more), and the collector chases
# fewer pointers through memory. Cycles are still collected, each generation 14x less often.
WORKER_COLLECTOR_THRESHOLDS = (10_000, 10, 10)

__all__ = ["Interrupted", "JobFailed", "OutputError", "RunPlan", "RunReport", "ShardJob", "execute", "produce"]


@dataclass(frozen=True)
class RunPlan:
    count: int
    seed: int
    categories: tuple[str, ...]
    shard_size: int
    devices: tuple[str, ...] = ()  # Warp's code to record; () for none
    backward: bool = True
    standalone: bool = False  # translate + reference
    validate: bool = False  # nvcc on each standalone program
    tolerance: tuple[float, float] = (1e-4, 1e-4)
    pairs: PairFolder | None = None
    samples: SampleFolder | None = None

    @property
    def shard_count(self) -> int:
        return (self.count + self.shard_size - 1) // self.shard_size

    def shard_range(self, shard: int) -> tuple[int, int]:
        """First and last kernel index (inclusive) of `shard`."""
        return shard * self.shard_size, min((shard + 1) * self.shard_size, self.count) - 1

    def part_count(self, shard: int) -> int:
        first, last = self.shard_range(shard)
        return (last - first + PART_SIZE) // PART_SIZE

    def part_range(self, shard: int, part: int) -> tuple[int, int]:
        """First and last kernel index (inclusive) of part `part` of `shard`."""
        first, last = self.shard_range(shard)
        return first + part * PART_SIZE, min(first + (part + 1) * PART_SIZE - 1, last)

    @property
    def folders(self) -> list[RunFolder]:
        return [f for f in (self.pairs, self.samples) if f is not None]


@dataclass(frozen=True)
class ShardJob:
    """What an executor hands a worker: a whole shard (`part` None), part `part` of it, or (WRITE)
    the writing of a shard whose parts are all saved."""

    shard: int
    part: int | None = None

    def __str__(self) -> str:
        if self.part is None:
            return f"shard {self.shard}"
        return f"the writing of shard {self.shard}" if self.part == WRITE else f"part {self.part} of shard {self.shard}"


def run_stages(plan: RunPlan, indices: range) -> list[KernelRecord]:
    """generate -> extract -> translate -> reference -> validate, for a range of kernel indices."""
    records = []
    for i in indices:
        record = generate(KernelRecord(task_for(i, plan.categories, plan.seed), plan.seed))
        if plan.devices:  # at once, while the generator's parse of the kernel is at hand for Warp
            record = extract(record, plan.devices, plan.backward)
        records.append(record)
    if plan.standalone:
        # imported here, not at the top: the translator's modules cost a worker ~0.2 s to import,
        # a pairs-only run never needs them, and its parent does not preload them
        from cuda_production.templates import Tolerance

        tolerance = Tolerance(*plan.tolerance)
        records = [translate(r, tolerance) for r in records]
        for start in range(0, len(records), REFERENCE_BATCH):
            batch = records[start:start + REFERENCE_BATCH]
            reference(batch, f"reference_{batch[0].task.index}")
    if plan.validate:
        records = validate(records)
    return records


def preload_stage_modules(plan: RunPlan) -> None:
    """Import what the plan's stages need, once, in the parent: forked workers then share the
    imported modules (importing Warp costs each fresh process about 0.6 s, most of a small shard's
    time on a machine with many cores). Warp is not initialised here; each worker does that."""
    # generation itself: the naming pass asks the translator which names it reserves (each worker
    # importing it on its first kernel cost 0.1 s there where no bytecode is cached)
    import cuda_production.translator  # noqa: F401
    if plan.devices:
        import extraction.ir_extractor  # noqa: F401
        import extraction.loader  # noqa: F401
    if plan.standalone:
        import cuda_production.reference  # noqa: F401
        import cuda_production.templates  # noqa: F401
    if plan.validate:
        import cuda_production.compile_cuda  # noqa: F401
    # Objects that exist now are never collected: the workers' collector then leaves the shared
    # pages alone instead of touching (and so copying) every inherited object.
    gc.freeze()


def settle_worker(plan: RunPlan) -> None:
    """Once per process that runs jobs, before its first: initialise Warp (when the plan records its
    code) and freeze what exists then (Warp's builtins and registries, the modules), so the collector
    never walks those objects again, and collect less often (WORKER_COLLECTOR_THRESHOLDS)."""
    if gc.get_threshold() == WORKER_COLLECTOR_THRESHOLDS:
        return
    if plan.devices:
        from extraction import warp_compat

        warp_compat.init_warp()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*WORKER_COLLECTOR_THRESHOLDS)


def produce(plan: RunPlan, job: ShardJob) -> ShardOutcome:
    """The job an executor runs: every stage for a shard (or a part of it) and the shard's files and
    completion markers (or the part saved for its writer); or the shard's files from its saved parts."""
    first, last = plan.shard_range(job.shard)
    try:
        settle_worker(plan)
        if job.part is None:
            records = run_stages(plan, range(first, last + 1))
            write_shard(plan, job.shard, records)
            return ShardOutcome(job.shard, last - first + 1)
        keeper = plan.folders[0]  # holds the parts of every folder's shards
        if job.part == WRITE:
            write_shard(plan, job.shard, keeper.load_parts(job.shard, plan.part_count(job.shard)))
            keeper.remove_parts(job.shard)
            return ShardOutcome(job.shard, 0, part=WRITE)
        lo, hi = plan.part_range(job.shard, job.part)
        keeper.save_part(job.shard, job.part, run_stages(plan, range(lo, hi + 1)))
        return ShardOutcome(job.shard, hi - lo + 1, part=job.part)
    except OutputError as exc:
        return ShardOutcome(job.shard, 0, str(exc), job.part)
    except Exception as exc:  # noqa: BLE001 - a bug is one line to the user, not a traceback
        return ShardOutcome(job.shard, 0, f"internal error in {job}: {short_reason(exc)}", job.part)


def write_shard(plan: RunPlan, shard: int, records: list[KernelRecord]) -> None:
    first, last = plan.shard_range(shard)
    for folder in plan.folders:
        folder.write_shard(shard, first, last, records)


def jobs_for(plan: RunPlan, shards: list[int], split: bool) -> list[ShardJob]:
    """Whole shards, or (`split`) every part of each shard in turn."""
    if not split:
        return [ShardJob(s) for s in shards]
    return [ShardJob(s, p) for s in shards for p in range(plan.part_count(s))]


def _done_on_disk(plan: RunPlan, shard: int) -> bool:
    try:
        return all(f.shard_done(shard) for f in plan.folders)
    except (OSError, ValueError, KeyError):  # a marker being replaced as we read: not done
        return False


@dataclass
class RunReport:
    shards_total: int
    shards_selected: int
    kernels_done_before: int
    kernels_run: int = 0
    complete: bool = False  # every shard of the run is done: manifests and cards written
    manifests: dict = field(default_factory=dict)  # folder root -> manifest


def execute(plan: RunPlan, *, executor: str = "local", workers: int = 1, ray_address: str | None = None,
            shard_slice: tuple[int, int] = (0, 1), progress: bool = False, desc: str = "synthesis",
            write_cards=None, stop=None) -> RunReport:
    """Run the shards of `shard_slice` (I, N: shards s with s % N == I) that are not done yet. When
    every shard of the run is done, merge the manifests (and `write_cards(plan, manifests)`).
    `stop` (interrupt.StopRequest): Ctrl-C, answered between stages of the parent's work and at once
    while workers run. Raises OutputError, JobFailed, Interrupted (with `.done`, `.total` set)."""
    for folder in plan.folders:
        folder.prepare()
    index, total = shard_slice
    selected = [s for s in range(plan.shard_count) if s % total == index]
    pending = [s for s in selected if not all(f.shard_done(s) for f in plan.folders)]
    size = lambda s: plan.shard_range(s)[1] - plan.shard_range(s)[0] + 1  # noqa: E731
    report = RunReport(plan.shard_count, len(selected), sum(size(s) for s in selected if s not in pending))
    bar = None
    if progress and pending:
        from tqdm import tqdm

        bar = tqdm(total=sum(size(s) for s in pending), unit="kernel", desc=desc, file=sys.stderr)
    finished: list[int] = []
    # Parts pay off where several workers share the shards; one worker computes whole shards.
    split = (executor == "ray" or workers > 1) and plan.shard_size > PART_SIZE
    parts_left = {s: plan.part_count(s) for s in pending} if split else {}

    def on_outcome(outcome: ShardOutcome) -> list[ShardJob]:
        if outcome.error:
            raise JobFailed(outcome.error)
        report.kernels_run += outcome.kernels
        if bar and outcome.kernels:
            bar.update(outcome.kernels)
        if outcome.part is None or outcome.part == WRITE:
            finished.append(outcome.shard)
            return []
        parts_left[outcome.shard] -= 1
        return [ShardJob(outcome.shard, WRITE)] if parts_left[outcome.shard] == 0 else []

    def cleanup(pids: list[int]) -> None:
        for folder in plan.folders:
            folder.remove_temporaries(pids)

    try:
        if stop is not None and stop.requested:
            raise Interrupted()
        jobs = jobs_for(plan, pending, split)
        if executor == "local" and len(jobs) > 1:
            preload_stage_modules(plan)
        run_shards(partial(produce, plan), jobs, on_outcome, executor=executor, workers=workers,
                   ray_address=ray_address, stop=stop, cleanup=cleanup)
    except Interrupted as exc:
        # Counted on disk, not from the outcomes received: a worker may finish a shard (its marker
        # written) just before the stop reaches the parent, and the resume will skip that shard.
        exc.done = sum(1 for s in selected if s not in pending or s in finished or _done_on_disk(plan, s))
        exc.total = len(selected)
        raise
    finally:
        if bar:
            bar.close()
    # The other slices' shards (checked above for this slice's): done when their checksums say so.
    others = sorted(set(range(plan.shard_count)) - set(selected))
    if all(f.shard_done(s) for f in plan.folders for s in others):
        report.complete = True
        plan.folders[0].remove_parts()  # what an interrupted run left of shards written since
        for folder in plan.folders:
            report.manifests[str(folder.root)] = folder.write_manifest(plan.shard_count)
        if write_cards:
            write_cards(plan, report.manifests)
    return report
