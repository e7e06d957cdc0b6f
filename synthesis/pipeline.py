"""`python synthesis/pipeline.py -n 10000 -d cuda -o out/`: Warp kernels -> Python/C++/CUDA pairs.

The CLI only checks its arguments and wires the run: a `RunPlan` (stages and output folders) that
`runner.execute` hands, shard by shard, to an executor (local processes, a job-array slice, Ray).
"""
from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which take a moment
    from synthesis.interrupt import quiet_interrupt

    quiet_interrupt()

import time
from functools import partial
from pathlib import Path

import click

from synthesis.categories import CATEGORY_NAMES
from synthesis.cli_common import check_folder, executor_options, fail, resolve_executor, run, slice_line, user_errors, warp_version
from synthesis.dataset_card import pairs_card, samples_card, write_card
from synthesis.runner import RunPlan
from synthesis.stages import SCHEMA_VERSION, canonical_categories
from synthesis.writer import SHARD_SIZE, PairFolder, SampleFolder

DEFAULT_TOLERANCE = (1e-4, 1e-4)


def parse_splits(text: str | None) -> list[float] | None:
    if text is None:
        return None
    try:
        fractions = [float(x) for x in text.split(",")]
    except ValueError:
        fail(f"--splits takes fractions like 0.9,0.05,0.05, got {text!r}")
    if not 1 <= len(fractions) <= 3 or any(f < 0 for f in fractions) or abs(sum(fractions) - 1) > 1e-9:
        fail(f"--splits takes one to three non-negative fractions (train, validation, test) summing to 1, got {text!r}")
    return fractions


def canonical_command(count, device, seed, cats, backward, fmt, shard_size, standalone, splits, samples) -> str:
    """The command that made a folder, without what never changes its bytes (-j, --shard, --executor)."""
    parts = ["python synthesis/pipeline.py", f"-n {count}", f"-d {device}", f"-s {seed}"]
    if len(cats) != len(CATEGORY_NAMES):
        parts += [f"-c {c}" for c in cats]
    if not backward:
        parts.append("--no-backward")
    if fmt != "jsonl":
        parts.append(f"--format {fmt}")
    if shard_size != SHARD_SIZE:
        parts.append(f"--shard-size {shard_size}")
    if standalone:
        parts.append("--standalone")
    if splits:
        parts.append("--splits " + ",".join(f"{f:g}" for f in splits))
    if samples:
        parts.append("--samples SAMPLES")
    return " ".join(parts) + " -o OUTPUT"


def write_cards(command: str, plan: RunPlan, manifests: dict) -> None:
    for folder in plan.folders:
        manifest = manifests[str(folder.root)]
        make = pairs_card if folder is plan.pairs else samples_card
        write_card(folder.root, make(folder.settings, manifest, command))


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-n", "--count", type=int, default=100, show_default=True, help="Kernels to generate.")
@click.option("-d", "--device", type=click.Choice(["cpu", "cuda", "all"]), default="cpu", show_default=True,
              help="Which Warp backend's code to record (all: one pair per device).")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("data/generated"), show_default=True)
@click.option("-s", "--seed", type=int, default=42, show_default=True)
@click.option("-c", "--category", "categories", multiple=True,
              help=f"Repeatable; default all: {', '.join(CATEGORY_NAMES)}.")
@click.option("--backward/--no-backward", default=True, show_default=True, help="Record the adjoint kernel too.")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "json"]), default="jsonl", show_default=True)
@click.option("--standalone", is_flag=True, help="Each pair also carries its standalone CUDA translation, "
              "Warp's reference outputs and its nvcc validation.")
@click.option("--samples", "samples_dir", type=click.Path(path_type=Path), default=None,
              help="Also write the self-checking sample folders of the same kernels into this folder.")
@click.option("--splits", "splits_text", default=None, metavar="TRAIN,VAL,TEST",
              help="Write train/validation/test by structure hash, e.g. 0.9,0.05,0.05.")
@executor_options
@click.option("--progress/--no-progress", default=True, help="tqdm progress bar on stderr.")
@click.option("--shard-size", type=int, default=SHARD_SIZE, hidden=True, help="Kernels per shard (tests).")
def main(count, device, output, seed, categories, backward, fmt, standalone, samples_dir, splits_text,
         workers, shard_text, executor, ray_address, progress, shard_size):
    """Generate random Warp kernels and the C++/CUDA that Warp's compiler emits for them."""
    with user_errors() as stop:
        _main(stop, count, device, output, seed, categories, backward, fmt, standalone, samples_dir, splits_text,
              workers, shard_text, executor, ray_address, progress, shard_size)


def _main(stop, count, device, output, seed, categories, backward, fmt, standalone, samples_dir, splits_text,
          workers, shard_text, executor, ray_address, progress, shard_size):
    if count <= 0:
        fail(f"--count must be positive, got {count}")
    unknown = [c for c in categories if c not in CATEGORY_NAMES]
    if unknown:
        fail(f"unknown category {unknown[0]!r}; choose from {', '.join(CATEGORY_NAMES)}")
    if shard_size < 1:
        fail(f"--shard-size must be positive, got {shard_size}")
    spread = resolve_executor(workers, shard_text, executor, ray_address)
    splits = parse_splits(splits_text)
    if samples_dir is not None and Path(samples_dir).resolve() == Path(output).resolve():
        fail("--samples needs a folder of its own, not the pairs' output folder")
    cats = canonical_categories(categories)
    devices = ("cpu", "cuda") if device == "all" else (device,)
    version = warp_version()
    command = canonical_command(count, device, seed, cats, backward, fmt, shard_size, standalone, splits, samples_dir)
    settings = {"count": count, "seed": seed, "categories": list(cats), "devices": list(devices),
                "backward": backward, "format": fmt, "warp_version": version,
                "schema_version": SCHEMA_VERSION, "shard_size": shard_size, "standalone": standalone,
                "splits": splits}
    pairs = PairFolder(output, settings)
    samples = None
    if samples_dir is not None:
        samples = SampleFolder(samples_dir, {
            "count": count, "seed": seed, "categories": list(cats), "shard_size": shard_size,
            "tolerance": {"atol": DEFAULT_TOLERANCE[0], "rtol": DEFAULT_TOLERANCE[1]}, "validate": True,
            "splits": splits, "warp_version": version, "schema_version": SCHEMA_VERSION})
    for folder in (pairs, samples):
        if folder is not None:
            check_folder(folder)  # both folders are checked before either is touched
    plan = RunPlan(count, seed, cats, shard_size, devices=devices, backward=backward,
                   standalone=standalone or samples is not None, validate=standalone or samples is not None,
                   tolerance=DEFAULT_TOLERANCE, pairs=pairs, samples=samples)

    started = time.perf_counter()
    report = run(plan, spread, progress, "synthesis", partial(write_cards, command), stop)
    elapsed = time.perf_counter() - started
    rate = report.kernels_run / elapsed if elapsed > 0 and report.kernels_run else 0.0
    throughput = f"throughput      {rate:.0f} kernels/s ({spread['workers']} workers, {elapsed:.2f} s)"
    if not report.complete:
        click.echo(f"kernels         {report.kernels_run} generated in this run\n{throughput}")
        click.echo(slice_line(report, spread["shard_slice"]))
        return
    manifest = report.manifests[str(output)]
    failures = manifest["failures"]
    lines = [
        f"pairs written   {manifest['pairs']} ({', '.join(devices)}; {'forward+backward' if backward else 'forward'})",
        f"kernels         {count} requested, {report.kernels_run} generated in this run, "
        f"{count - report.kernels_run} already done",
        f"failures        {failures['total']}",
    ]
    for stage, reasons in failures["by_stage"].items():
        for reason, n in reasons.items():
            lines.append(f"  {stage:8s} {n:6d}  {reason}")
    lines.append(throughput)
    lines.append("per category    " + ", ".join(f"{k}={v}" for k, v in manifest["pairs_per_category"].items()))
    structures = manifest["structures"]
    lines.append(f"structures      {structures['distinct']} distinct, {structures['duplicates']} duplicates")
    if splits:
        lines.append("splits          " + ", ".join(f"{k}={v}" for k, v in manifest["pairs_per_split"].items()))
    if standalone:
        lines.append("nvcc            " + ", ".join(f"{k}={v}" for k, v in manifest["validation"].items()))
    lines.append(f"output          {output} (manifest: {pairs.manifest_path()})")
    if samples is not None:
        lines.append(f"samples         {samples_dir} ({report.manifests[str(samples_dir)]['samples_written']} folders)")
    click.echo("\n".join(lines))
    if failures["total"]:
        fail(f"{failures['total']} kernels failed; see 'failures' in {pairs.manifest_path()}", 1)
    if standalone and manifest["validation"].get("failed"):
        fail(f"{manifest['validation']['failed']} standalone programs failed nvcc; see cuda_standalone.validation "
             "in the pairs", 1)


if __name__ == "__main__":
    main()
