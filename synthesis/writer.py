"""The output folder: shards written atomically, resumable after kill -9, and a manifest.

Layout (jsonl): shard_00000.jsonl ... + manifest.json. Layout (json): one <kernel>.json per pair.
Run state lives in `.synth/` (run.json: the settings; shard_NNNNN.json: a finished shard's
counts, failures and checksum). A shard counts as done only when its state file exists and its
data matches the recorded checksum, and every file is written under a temporary name and
renamed, so a killed run leaves nothing half-written that a resumed run would keep.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from synthesis.stages import ChunkResult

STATE_DIR = ".synth"
SHARD_SIZE = 1000  # kernels per shard; fixed, so the layout never depends on --workers


class OutputError(RuntimeError):
    pass


def atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def dumps_stable(obj: dict) -> bytes:
    return (json.dumps(obj, indent=2, sort_keys=True) + "\n").encode()


@dataclass
class RunFolder:
    root: Path
    settings: dict

    @property
    def state(self) -> Path:
        return self.root / STATE_DIR

    @property
    def fmt(self) -> str:
        return self.settings["format"]

    # ---- set-up --------------------------------------------------------------------------------
    def prepare(self) -> None:
        """Check the folder before anything is written: writable, and empty or this same run."""
        root = self.root
        if root.exists() and not root.is_dir():
            raise OutputError(f"output path {root} exists and is not a folder")
        run_file = self.state / "run.json"
        if run_file.exists():
            previous = json.loads(run_file.read_text())
            if previous != self.settings:
                diff = sorted(k for k in set(previous) | set(self.settings) if previous.get(k) != self.settings.get(k))
                raise OutputError(
                    f"output folder {root} holds a different run (differs in: {', '.join(diff)}); "
                    "use another folder or the same arguments to resume")
        elif root.exists() and any(root.iterdir()):
            raise OutputError(f"output folder {root} is not empty and holds no pipeline run")
        try:
            self.state.mkdir(parents=True, exist_ok=True)
            if not run_file.exists():
                atomic_write(run_file, dumps_stable(self.settings))
        except OSError as exc:
            raise OutputError(f"cannot write to output folder {root}: {exc.strerror}") from exc

    # ---- shards --------------------------------------------------------------------------------
    def shard_state_path(self, shard: int) -> Path:
        return self.state / f"shard_{shard:05d}.json"

    def shard_data_path(self, shard: int) -> Path:
        return self.root / f"shard_{shard:05d}.jsonl"

    def shard_done(self, shard: int) -> bool:
        state_path = self.shard_state_path(shard)
        if not state_path.exists():
            return False
        state = json.loads(state_path.read_text())
        return all(
            (self.root / name).exists() and _sha256(self.root / name) == digest
            for name, digest in state["files"].items()
        )

    def write_shard(self, shard: int, first: int, last: int, results: list[ChunkResult]) -> dict:
        files: dict[str, str] = {}
        records = [r for res in results for r in res.records]
        if self.fmt == "jsonl":
            data = "".join(text + "\n" for _, text in records).encode()
            path = self.shard_data_path(shard)
            atomic_write(path, data)
            files[path.name] = hashlib.sha256(data).hexdigest()
        else:
            for stem, text in records:
                data = (text + "\n").encode()
                path = self.root / f"{stem}.json"
                atomic_write(path, data)
                files[path.name] = hashlib.sha256(data).hexdigest()
        categories = Counter(c for res in results for c in res.categories)
        state = {
            "shard": shard,
            "first_index": first,
            "last_index": last,
            "pairs": len(records),
            "pairs_per_category": dict(sorted(categories.items())),
            "failures": [f.to_dict() for res in results for f in res.failures],
            "files": files,
        }
        # The state file is written last: its presence is what marks the shard done.
        atomic_write(self.shard_state_path(shard), dumps_stable(state))
        return state

    # ---- manifest ------------------------------------------------------------------------------
    def manifest_path(self) -> Path:
        return (self.root if self.fmt == "jsonl" else self.state) / "manifest.json"

    def write_manifest(self, shard_count: int) -> dict:
        states = [json.loads(self.shard_state_path(s).read_text()) for s in range(shard_count)]
        per_category: Counter = Counter()
        by_stage: dict[str, Counter] = {}
        failures = []
        for st in states:
            per_category.update(st["pairs_per_category"])
            for f in st["failures"]:
                by_stage.setdefault(f["stage"], Counter())[f["reason"]] += 1
                failures.append(f)
        manifest = {
            "settings": self.settings,
            "warp_version": self.settings["warp_version"],
            "kernels_requested": self.settings["count"],
            "pairs": sum(st["pairs"] for st in states),
            "pairs_per_category": dict(sorted(per_category.items())),
            "failures": {
                "total": len(failures),
                "by_stage": {stage: dict(sorted(c.items())) for stage, c in sorted(by_stage.items())},
                "records": failures,
            },
            "shards": [
                {"shard": st["shard"], "first_index": st["first_index"], "last_index": st["last_index"],
                 "pairs": st["pairs"], **({"file": next(iter(st["files"])), "sha256": next(iter(st["files"].values()))}
                                          if self.fmt == "jsonl" else {"files": len(st["files"])})}
                for st in states
            ],
        }
        atomic_write(self.manifest_path(), dumps_stable(manifest))
        return manifest


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
