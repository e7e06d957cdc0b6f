"""`python synthesis/pipeline.py -n 10000 -d cuda -o out/`: Warp kernels -> Python/C++/CUDA pairs.

The CLI only wires stages together: plan tasks, run `stages.process_chunk` over chunks (in a
process pool when --workers > 1, results taken back in index order), and hand each finished shard
to `writer.RunFolder`.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import time
from functools import partial
from pathlib import Path

import click

from synthesis.categories import CATEGORY_NAMES
from synthesis.stages import SCHEMA_VERSION, canonical_categories, process_chunk, task_for
from synthesis.writer import SHARD_SIZE, OutputError, RunFolder

CHUNK_SIZE = 25  # kernels per worker task: small enough to balance, large enough to amortise IPC


def fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def run_chunk(chunk: tuple[int, int], categories, devices, backward, run_seed):
    first, last = chunk
    tasks = [task_for(i, categories, run_seed) for i in range(first, last)]
    return process_chunk(tasks, devices, backward, run_seed)


def _warp_version() -> str:
    from extraction.warp_compat import WARP_VERSION

    return WARP_VERSION


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-n", "--count", type=int, default=100, show_default=True, help="Kernels to generate.")
@click.option("-d", "--device", type=click.Choice(["cpu", "cuda", "all"]), default="cpu", show_default=True,
              help="Which Warp backend's code to record (all: one pair per device).")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("data/generated"), show_default=True)
@click.option("-s", "--seed", type=int, default=42, show_default=True)
@click.option("-c", "--category", "categories", multiple=True,
              help=f"Repeatable; default all ten: {', '.join(CATEGORY_NAMES)}.")
@click.option("--backward/--no-backward", default=True, show_default=True, help="Record the adjoint kernel too.")
@click.option("-j", "--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "json"]), default="jsonl", show_default=True)
@click.option("--progress/--no-progress", default=True, help="tqdm progress bar on stderr.")
@click.option("--shard-size", type=int, default=SHARD_SIZE, hidden=True, help="Kernels per shard (tests).")
def main(count, device, output, seed, categories, backward, workers, fmt, progress, shard_size):
    """Generate random Warp kernels and the C++/CUDA that Warp's compiler emits for them."""
    if count <= 0:
        fail(f"--count must be positive, got {count}")
    unknown = [c for c in categories if c not in CATEGORY_NAMES]
    if unknown:
        fail(f"unknown category {unknown[0]!r}; choose from {', '.join(CATEGORY_NAMES)}")
    workers = workers or os.cpu_count() or 1
    if shard_size < 1:
        fail(f"--shard-size must be positive, got {shard_size}")
    if workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    cats = canonical_categories(categories)
    devices = ("cpu", "cuda") if device == "all" else (device,)
    settings = {"count": count, "seed": seed, "categories": list(cats), "devices": list(devices),
                "backward": backward, "format": fmt, "warp_version": _warp_version(),
                "schema_version": SCHEMA_VERSION, "shard_size": shard_size}
    folder = RunFolder(output, settings)
    try:
        folder.prepare()
    except OutputError as exc:
        fail(str(exc))

    shard_count = (count + shard_size - 1) // shard_size
    pending = [s for s in range(shard_count) if not folder.shard_done(s)]
    chunks, owner = [], []
    for shard in pending:
        first, last = shard * shard_size, min((shard + 1) * shard_size, count)
        for start in range(first, last, CHUNK_SIZE):
            chunks.append((start, min(start + CHUNK_SIZE, last)))
            owner.append(shard)
    todo = sum(b - a for a, b in chunks)
    work = partial(run_chunk, categories=cats, devices=devices, backward=backward, run_seed=seed)

    started = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=todo, unit="kernel", desc="synthesis", file=sys.stderr)
    pool = None
    if workers > 1 and len(chunks) > 1:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        pool = multiprocessing.get_context(method).Pool(min(workers, len(chunks)))
        results = pool.imap(work, chunks)
    else:
        results = map(work, chunks)
    try:
        collected: list = []
        for i, result in enumerate(results):
            collected.append(result)
            if bar:
                bar.update(chunks[i][1] - chunks[i][0])
            if i + 1 == len(chunks) or owner[i + 1] != owner[i]:
                shard = owner[i]
                folder.write_shard(shard, shard * shard_size, min((shard + 1) * shard_size, count) - 1, collected)
                collected = []
    finally:
        if bar:
            bar.close()
        if pool:
            pool.terminate()
    elapsed = time.perf_counter() - started
    manifest = folder.write_manifest(shard_count)

    failures = manifest["failures"]
    lines = [
        f"pairs written   {manifest['pairs']} ({', '.join(devices)}; {'forward+backward' if backward else 'forward'})",
        f"kernels         {count} requested, {todo} generated in this run, {count - todo} already done",
        f"failures        {failures['total']}",
    ]
    for stage, reasons in failures["by_stage"].items():
        for reason, n in reasons.items():
            lines.append(f"  {stage:8s} {n:6d}  {reason}")
    rate = todo / elapsed if elapsed > 0 and todo else 0.0
    lines.append(f"throughput      {rate:.0f} kernels/s ({workers} workers, {elapsed:.1f} s)")
    lines.append(f"per category    " + ", ".join(f"{k}={v}" for k, v in manifest["pairs_per_category"].items()))
    lines.append(f"output          {output} (manifest: {folder.manifest_path()})")
    click.echo("\n".join(lines))
    if failures["total"]:
        click.echo(f"error: {failures['total']} kernels failed; see 'failures' in {folder.manifest_path()}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
