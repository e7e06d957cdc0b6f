"""Output folders: shards written atomically by the worker that made them, resumable, and a manifest.

Pairs (jsonl): shard_00000.jsonl ... (or train/ validation/ test/ with --splits) + manifest.json +
README.md (the dataset card). Pairs (json): one <kernel>.json per pair. Samples: one
sample_NNNN_<category>/ folder per kernel + production_summary.json + README.md.
Run state lives in `.synth/` (run.json: the settings; shard_NNNNN.json: a finished shard's counts,
failures and checksums). A shard counts as done only when its state file exists and its files match
the recorded checksums. Every file is written under a temporary name (which carries the writer's
pid, so concurrent slices of one run never share one) and renamed; a write that fails removes its
temporary. The state file is written last: its presence is the shard's completion marker.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import jsonlines

from synthesis.record import KernelRecord
from synthesis.stages import pair_dicts

STATE_DIR = ".synth"
SHARD_SIZE = 100  # kernels per shard (one worker task); fixed, so the layout never depends on --workers
SPLIT_NAMES = ("train", "validation", "test")


class OutputError(RuntimeError):
    """A problem with an output folder or a write to it; the message is one line for the user."""


def temporary_name(path: Path, pid: int | None = None) -> Path:
    return path.with_name(f".{path.name}.{os.getpid() if pid is None else pid}.tmp")


def atomic_write(path: Path, data: bytes, sync: bool = True) -> None:
    """`data` to a temporary name, then renamed to `path`; synced to disk first unless `sync` is off
    (for files no later run trusts)."""
    tmp = temporary_name(path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            if sync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc
        raise


def dumps_stable(obj: dict) -> bytes:
    return (json.dumps(obj, indent=2, sort_keys=True) + "\n").encode()


def jsonl_bytes(objects: list[dict]) -> bytes:
    buffer = io.StringIO()
    with jsonlines.Writer(buffer) as out:  # ensure_ascii=False, like json.dumps(..., ensure_ascii=False)
        out.write_all(objects)
    return buffer.getvalue().encode()


def read_json(path: Path, what_to_do: str):
    """A state file's content; a corrupt one is a one-line OutputError that says what to do."""
    try:
        return json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError) as exc:
        raise OutputError(f"state file {path} is corrupt ({type(exc).__name__}); {what_to_do}") from exc
    except OSError as exc:
        raise OutputError(f"cannot read state file {path}: {exc.strerror}") from exc


def split_of(structure: str, fractions: tuple[float, ...]) -> str:
    """The split a structure belongs to: a function of its hash alone, so no structure is in two splits."""
    position = int(structure[:12], 16) / float(1 << 48)
    edge = 0.0
    for name, fraction in zip(SPLIT_NAMES, fractions):
        edge += fraction
        if position < edge:
            return name
    return SPLIT_NAMES[len(fractions) - 1]


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def structure_counts(hashes: list[str]) -> dict:
    distinct = len(set(hashes))
    return {"kernels": len(hashes), "distinct": distinct, "duplicates": len(hashes) - distinct}


@dataclass
class RunFolder:
    """What pair and sample folders share: settings, resume, shard completion markers."""

    root: Path
    settings: dict
    label: str = "pipeline"

    @property
    def state(self) -> Path:
        return self.root / STATE_DIR

    # ---- set-up --------------------------------------------------------------------------------
    def check(self) -> None:
        """Refuse a folder that is not this run's, before anything is written."""
        root = self.root
        if root.exists() and not root.is_dir():
            raise OutputError(f"output path {root} exists and is not a folder")
        run_file = self.state / "run.json"
        if run_file.exists():
            previous = read_json(run_file, "restore it, or use a new output folder")
            if not isinstance(previous, dict):
                raise OutputError(f"state file {run_file} is corrupt (not an object); restore it, or use a new output folder")
            if previous != self.settings:
                diff = sorted(k for k in set(previous) | set(self.settings) if previous.get(k) != self.settings.get(k))
                raise OutputError(
                    f"output folder {root} holds a different run (differs in: {', '.join(diff)}); "
                    "use another folder or the same arguments to resume")
        elif root.exists() and any(root.iterdir()):
            raise OutputError(f"output folder {root} is not empty and holds no {self.label} run")

    def prepare(self) -> None:
        self.check()
        run_file = self.state / "run.json"
        try:
            self.state.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot write to output folder {self.root}: {exc.strerror}") from exc
        if not run_file.exists():
            try:
                atomic_write(run_file, dumps_stable(self.settings))
            except OutputError as exc:
                raise OutputError(f"cannot write to output folder {self.root}: {exc}") from exc

    # ---- shards --------------------------------------------------------------------------------
    def shard_state_path(self, shard: int) -> Path:
        return self.state / f"shard_{shard:05d}.json"

    def shard_state(self, shard: int) -> dict:
        state = read_json(self.shard_state_path(shard), "delete it and run the same command to redo that shard")
        if not isinstance(state, dict) or not isinstance(state.get("files"), dict):
            raise OutputError(f"state file {self.shard_state_path(shard)} is corrupt (unexpected content); "
                              "delete it and run the same command to redo that shard")
        return state

    def shard_done(self, shard: int) -> bool:
        if not self.shard_state_path(shard).exists():
            return False
        state = self.shard_state(shard)
        return all((self.root / name).is_file() and _sha256(self.root / name) == digest
                   for name, digest in state["files"].items())

    def commit_shard(self, shard: int, state: dict) -> dict:
        # The state file is written last: its presence is what marks the shard done.
        atomic_write(self.shard_state_path(shard), dumps_stable({"shard": shard, **state}))
        return state

    # ---- parts of a shard (computed by several workers, written by one) -----------------------
    def part_path(self, shard: int, part: int) -> Path:
        return self.state / f"shard_{shard:05d}.part_{part:02d}.pickle"

    def save_part(self, shard: int, part: int, records: list[KernelRecord]) -> None:
        """A part's records for the job that writes the shard. Not synced to disk: a part is never
        reused by another run (a resumed run computes an unfinished shard's parts again)."""
        atomic_write(self.part_path(shard, part), pickle.dumps(records, protocol=pickle.HIGHEST_PROTOCOL), sync=False)

    def load_parts(self, shard: int, parts: int) -> list[KernelRecord]:
        records: list[KernelRecord] = []
        for part in range(parts):
            path = self.part_path(shard, part)
            try:
                with open(path, "rb") as fh:
                    records.extend(pickle.load(fh))
            except (OSError, pickle.UnpicklingError, EOFError) as exc:
                raise OutputError(f"cannot read {path} ({getattr(exc, 'strerror', None) or type(exc).__name__}); "
                                  "run the same command to redo that shard") from exc
        return records

    def remove_parts(self, shard: int | None = None) -> None:
        """The saved parts of `shard` (once it is written), or of every shard (once the run is done)."""
        if not self.state.is_dir():
            return
        pattern = f"shard_{shard:05d}.part_*.pickle" if shard is not None else "shard_*.part_*.pickle"
        for path in self.state.glob(pattern):
            path.unlink(missing_ok=True)

    def states(self, shard_count: int) -> list[dict]:
        return [self.shard_state(s) for s in range(shard_count)]

    def remove_temporaries(self, pids: list[int]) -> None:
        """Remove what workers that were stopped mid-write left (their temporaries carry their pid)."""
        suffixes = tuple(f".{pid}.tmp" for pid in pids)
        if not suffixes or not self.root.is_dir():
            return
        for folder in (self.root, self.state, *(p for p in self.root.iterdir() if p.is_dir() and not p.name.startswith("."))):
            if not folder.is_dir():
                continue
            for p in folder.iterdir():
                if p.name.startswith(".") and p.name.endswith(suffixes):
                    shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)


def _failure_summary(states: list[dict]) -> dict:
    by_stage: dict[str, Counter] = {}
    failures = []
    for st in states:
        for f in st["failures"]:
            by_stage.setdefault(f["stage"], Counter())[f["reason"]] += 1
            failures.append(f)
    return {"total": len(failures),
            "by_stage": {stage: dict(sorted(c.items())) for stage, c in sorted(by_stage.items())},
            "records": failures}


class PairFolder(RunFolder):
    """Python/C++/CUDA training pairs: JSONL shards or one JSON file per pair."""

    @property
    def fmt(self) -> str:
        return self.settings["format"]

    @property
    def splits(self) -> tuple[float, ...] | None:
        splits = self.settings.get("splits")
        return tuple(splits) if splits else None

    def relative_path(self, shard: int, stem: str, split: str | None) -> str:
        name = f"shard_{shard:05d}.jsonl" if self.fmt == "jsonl" else f"{stem}.json"
        return f"{split}/{name}" if split else name

    def write_shard(self, shard: int, first: int, last: int, records: list[KernelRecord]) -> dict:
        standalone = bool(self.settings.get("standalone"))
        run_seed = self.settings["seed"]
        groups: dict[str | None, list[tuple[str, dict]]] = {}
        per_category: Counter = Counter()
        per_split: Counter = Counter()
        validation: Counter = Counter()
        for r in records:
            if not r.ok:
                continue
            split = split_of(r.structure_hash, self.splits) if self.splits else None
            pairs = pair_dicts(r, run_seed, standalone)
            groups.setdefault(split, []).extend(pairs)
            per_category[r.spec.category] += len(pairs)
            if split:
                per_split[split] += len(pairs)
            if standalone:
                validation[r.validation["status"]] += 1
        if self.fmt == "jsonl" and not self.splits:
            groups.setdefault(None, [])  # a shard whose kernels all failed still has its (empty) file
        files: dict[str, str] = {}
        for split in sorted(groups, key=lambda s: "" if s is None else SPLIT_NAMES.index(s) + 1):
            if split:
                (self.root / split).mkdir(exist_ok=True)
            if self.fmt == "jsonl":
                data = jsonl_bytes([d for _, d in groups[split]])
                rel = self.relative_path(shard, "", split)
                atomic_write(self.root / rel, data)
                files[rel] = hashlib.sha256(data).hexdigest()
            else:
                for stem, d in groups[split]:
                    data = (json.dumps(d, ensure_ascii=False) + "\n").encode()
                    rel = self.relative_path(shard, stem, split)
                    atomic_write(self.root / rel, data)
                    files[rel] = hashlib.sha256(data).hexdigest()
        state = {
            "first_index": first,
            "last_index": last,
            "pairs": sum(len(g) for g in groups.values()),
            "pairs_per_category": dict(sorted(per_category.items())),
            "failures": [r.failure.to_dict() for r in records if not r.ok],
            "files": files,
            "structure_hashes": [r.structure_hash for r in records if r.ok],
        }
        if self.splits:
            state["pairs_per_split"] = {s: per_split[s] for s in SPLIT_NAMES[:len(self.splits)]}
        if standalone:
            state["validation"] = dict(sorted(validation.items()))
        return self.commit_shard(shard, state)

    def manifest_path(self) -> Path:
        return (self.root if self.fmt == "jsonl" else self.state) / "manifest.json"

    def write_manifest(self, shard_count: int) -> dict:
        states = self.states(shard_count)
        per_category: Counter = Counter()
        for st in states:
            per_category.update(st["pairs_per_category"])
        manifest = {
            "settings": self.settings,
            "warp_version": self.settings["warp_version"],
            "kernels_requested": self.settings["count"],
            "pairs": sum(st["pairs"] for st in states),
            "pairs_per_category": dict(sorted(per_category.items())),
            "failures": _failure_summary(states),
            "structures": structure_counts([h for st in states for h in st["structure_hashes"]]),
            "shards": [self._shard_entry(st) for st in states],
        }
        if self.splits:
            manifest["pairs_per_split"] = {s: sum(st["pairs_per_split"][s] for st in states)
                                           for s in SPLIT_NAMES[:len(self.splits)]}
        if self.settings.get("standalone"):
            total: Counter = Counter()
            for st in states:
                total.update(st["validation"])
            manifest["validation"] = dict(sorted(total.items()))
        atomic_write(self.manifest_path(), dumps_stable(manifest))
        return manifest

    def _shard_entry(self, st: dict) -> dict:
        entry = {"shard": st["shard"], "first_index": st["first_index"], "last_index": st["last_index"],
                 "pairs": st["pairs"]}
        if self.fmt == "jsonl" and not self.splits:
            name = f"shard_{st['shard']:05d}.jsonl"
            entry.update(file=name, sha256=st["files"].get(name))
        elif self.fmt == "jsonl":
            entry["files"] = st["files"]
        else:
            entry["files"] = len(st["files"])
        return entry


class SampleFolder(RunFolder):
    """Standalone CUDA samples: one self-checking sample folder per kernel."""

    def write_shard(self, shard: int, first: int, last: int, records: list[KernelRecord]) -> dict:
        from cuda_production.sample import sample_dirname, write_sample
        from cuda_production.templates import Tolerance

        tolerance = Tolerance(**self.settings["tolerance"])
        splits = tuple(self.settings["splits"]) if self.settings.get("splits") else None
        files: dict[str, str] = {}
        samples = []
        for r in records:
            if not r.ok:
                continue
            spec, sa = r.spec, r.standalone
            folder = self.root / sample_dirname(r.task.index, spec.category)
            meta = {"category": spec.category, "description": spec.description, "seed": spec.seed,
                    "run_seed": r.run_seed, "index": r.task.index, "warp_version": self.settings["warp_version"],
                    "structure_hash": r.structure_hash}
            if splits:
                meta["split"] = split_of(r.structure_hash, splits)
            if r.validation is not None:
                meta["validation"] = r.validation
            try:
                write_sample(folder, r.translated, spec.source, list(sa.arguments), spec.dim, sa.input_seed,
                             tolerance, r.reference, meta, program=sa.program)
            except OSError as exc:
                raise OutputError(f"cannot write {folder}: {exc.strerror or exc}") from exc
            for p in sorted(folder.iterdir()):
                files[f"{folder.name}/{p.name}"] = _sha256(p)
            samples.append({"folder": folder.name, "kernel": spec.name, "category": spec.category,
                            **({"validation": r.validation} if r.validation is not None else {})})
        state = {
            "first_index": first,
            "last_index": last,
            "samples": samples,
            "failures": [r.failure.to_dict() for r in records if not r.ok],
            "files": files,
            "structure_hashes": [r.structure_hash for r in records if r.ok],
        }
        return self.commit_shard(shard, state)

    def summary_path(self) -> Path:
        return self.root / "production_summary.json"

    def write_manifest(self, shard_count: int) -> dict:
        states = self.states(shard_count)
        samples = [s for st in states for s in st["samples"]]
        validate = self.settings["validate"]
        summary = {
            "settings": self.settings,
            "samples_requested": self.settings["count"],
            "samples_written": len(samples),
            "per_category": dict(sorted(Counter(s["category"] for s in samples).items())),
            "failures": _failure_summary(states),
            "structures": structure_counts([h for st in states for h in st["structure_hashes"]]),
            "validation": summarise_validation({s["folder"]: s["validation"] for s in samples}) if validate else None,
            "samples": [{k: s[k] for k in ("folder", "kernel", "category")} for s in samples],
        }
        atomic_write(self.summary_path(), dumps_stable(summary))
        return summary


def summarise_validation(validations: dict[str, dict]) -> dict:
    statuses = Counter(v["status"] for v in validations.values())
    regs = [v["registers"] for v in validations.values() if "registers" in v]
    return {"ok": statuses.get("ok", 0), "failed": statuses.get("failed", 0), "skipped": statuses.get("skipped", 0),
            "failed_samples": sorted(k for k, v in validations.items() if v["status"] == "failed"),
            "skipped_reason": next((v.get("log") for v in validations.values() if v["status"] == "skipped"), None),
            "max_registers": max(regs) if regs else None,
            "spilling_samples": sorted(k for k, v in validations.items() if v.get("spill_stores_bytes"))}
