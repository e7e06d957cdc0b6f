"""`python cuda_production/production_pipeline.py -n 5 -o data/cuda_production`: self-checking CUDA samples.

A thin front to the one pipeline (synthesis/runner.py): the same planner as synthesis/pipeline.py
(round-robin over categories, so run seed and index name the same kernel in every output), and the
stages generate -> translate -> reference (Warp on the CPU) -> validate (nvcc, with --validate) ->
write, shard by shard, in worker processes, a job-array slice or Ray.
`--verify DIR` re-checks an existing folder: files and metadata, a fresh translation of each .py
against its .cu, the host-emulated check against expected.bin, and nvcc with --validate.
"""
from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which take a moment
    from synthesis.interrupt import quiet_interrupt

    quiet_interrupt()

import json
import os
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path

import click

from cuda_production.templates import Tolerance
from synthesis.executors import Interrupted
from synthesis.cli_common import check_folder, executor_options, fail, resolve_executor, run, slice_line, user_errors, warp_version
from synthesis.writer import summarise_validation

SHARD_SIZE = 10  # samples per shard: one Warp CPU module build for the reference outputs per shard


def update_metadata(folder: Path, key: str, value: dict) -> None:
    path = folder / "metadata.json"
    meta = json.loads(path.read_text())
    meta[key] = value
    tmp = path.with_name(f".metadata.json.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def run_validation(folders: list[Path], workers: int) -> dict[str, dict]:
    from cuda_production.compile_cuda import validate_samples

    items = []
    for f in folders:
        meta = json.loads((f / "metadata.json").read_text())
        items.append((f / meta["files"]["cuda"], meta["kernel_name"]))
    results = validate_samples(items, workers=workers)
    out = {}
    for f, v in zip(folders, results):
        update_metadata(f, "validation", v.to_dict())
        out[f.name] = v.to_dict()
    return out


def verify_folder(folder: Path, validate: bool, workers: int, host: bool, stop=None) -> int:
    """Re-check every sample under `folder`; prints one line per problem, returns the exit status."""
    from cuda_production.host_check import run_on_host
    from cuda_production.templates import render_cu
    from synthesis.spec import ArgSpec
    from cuda_production.translator import TranslationError, translate_kernel
    from cuda_production.bench import small_tables

    samples = sorted(p for p in folder.glob("sample_*") if p.is_dir())
    if not samples:
        fail(f"no sample_* folders under {folder}")
    problems = Counter()
    checked = []
    for s in samples:
        if stop is not None and stop.requested:
            raise Interrupted()
        try:
            try:
                meta = json.loads((s / "metadata.json").read_text())
            except ValueError as exc:
                raise ValueError(f"metadata.json is not valid JSON ({exc})") from None
            if not isinstance(meta, dict):
                raise ValueError(f"metadata.json holds a {type(meta).__name__}, not an object")
            name = meta["kernel_name"]
            py = (s / f"{name}.py").read_text()
            cu = (s / f"{name}.cu").read_text()
            args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
            tiles = meta.get("tiles") or {}
            block_dim = tiles["block_dim"] if tiles.get("launch") == "wp.launch_tiled" else 0
            kernel = translate_kernel(py, name, str(s / f"{name}.py"), small_tables(args, tuple(meta["launch_dim"])),
                                      block_dim, len(meta["launch_dim"]))  # as the pipeline translates it
            tol = Tolerance(meta["tolerance"]["atol"], meta["tolerance"]["rtol"])
            has_ref = meta.get("reference") is not None
            fresh = render_cu(kernel, args, tuple(meta["launch_dim"]), meta["input_seed"], tol, has_ref, meta.get("description") or f"Kernel {name}")
            if fresh != cu:
                raise ValueError(f"{name}.cu differs from a fresh translation of {name}.py")
            if not (s / "Makefile").exists():
                raise ValueError("Makefile missing")
        except KeyError as exc:
            problems["files"] += 1
            click.echo(f"{s.name}: metadata.json lacks {exc}", err=True)
            continue
        except (OSError, ValueError, TypeError, AttributeError, TranslationError) as exc:
            problems["files"] += 1
            click.echo(f"{s.name}: {exc}", err=True)
            continue
        checked.append(s)
        if host and has_ref:
            run_result = run_on_host(s)
            if stop is not None and stop.requested:  # g++ or the program got the Ctrl-C too
                raise Interrupted()
            if not run_result.passed:
                problems["host check"] += 1
                out = run_result.output.strip()
                click.echo(f"{s.name}: host check failed: {out.splitlines()[-1] if out else run_result.returncode}", err=True)
    validation = {}
    if validate:
        validation = run_validation(checked, workers)
        for k, v in validation.items():
            if v["status"] == "failed":
                problems["nvcc"] += 1
                click.echo(f"{k}: nvcc failed", err=True)
    total = sum(problems.values())
    click.echo(f"verified {len(samples)} samples: {total} problems" + (f" ({dict(problems)})" if total else "")
               + (f"; nvcc: {summarise_validation(validation)['ok']} ok" if validate else ""))
    return 1 if total else 0


def canonical_command(per_category: int, seed: int, cats: tuple[str, ...], validate: bool, shard_size: int) -> str:
    from synthesis.categories import CATEGORY_NAMES

    parts = ["python cuda_production/production_pipeline.py", f"-n {per_category}", f"-s {seed}"]
    if len(cats) != len(CATEGORY_NAMES):
        parts += [f"-c {c}" for c in cats]
    if validate:
        parts.append("--validate")
    if shard_size != SHARD_SIZE:
        parts.append(f"--shard-size {shard_size}")
    return " ".join(parts) + " -o OUTPUT"


def write_card(command: str, plan, manifests: dict) -> None:
    from synthesis.dataset_card import samples_card, write_card as write

    folder = plan.samples
    write(folder.root, samples_card(folder.settings, manifests[str(folder.root)], command))


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-n", "--count", type=int, default=5, show_default=True, help="Samples per category.")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("data/cuda_production"), show_default=True)
@click.option("-s", "--seed", type=int, default=42, show_default=True)
@click.option("-c", "--category", "categories", multiple=True, help="Repeatable; default all categories.")
@click.option("--validate/--no-validate", default=False, help="Compile every sample with nvcc (PTX + ptxas).")
@executor_options
@click.option("--verify", "verify_dir", type=click.Path(path_type=Path), default=None,
              help="Re-check an existing folder instead of producing one.")
@click.option("--host-check/--no-host-check", default=True, help="With --verify: run each .cu on the CPU (g++).")
@click.option("--progress/--no-progress", default=True)
@click.option("--shard-size", type=int, default=SHARD_SIZE, hidden=True, help="Samples per shard (tests).")
def main(count, output, seed, categories, validate, workers, shard_text, executor, ray_address, verify_dir,
         host_check, progress, shard_size):
    """Translate generated Warp kernels into standalone CUDA samples that check themselves against Warp."""
    with user_errors() as stop:
        _main(stop, count, output, seed, categories, validate, workers, shard_text, executor, ray_address, verify_dir,
              host_check, progress, shard_size)


def _main(stop, count, output, seed, categories, validate, workers, shard_text, executor, ray_address, verify_dir,
          host_check, progress, shard_size):
    from synthesis.categories import CATEGORY_NAMES
    from synthesis.runner import RunPlan
    from synthesis.stages import SCHEMA_VERSION, canonical_categories
    from synthesis.writer import SampleFolder

    spread = resolve_executor(workers, shard_text, executor, ray_address)
    if verify_dir is not None:
        sys.exit(verify_folder(verify_dir, validate, spread["workers"], host_check, stop))
    if count <= 0:
        fail(f"--count must be positive, got {count}")
    unknown = [c for c in categories if c not in CATEGORY_NAMES]
    if unknown:
        fail(f"unknown category {unknown[0]!r}; choose from {', '.join(CATEGORY_NAMES)}")
    if shard_size < 1:
        fail(f"--shard-size must be positive, got {shard_size}")
    cats = canonical_categories(categories)
    tolerance = Tolerance()
    total = count * len(cats)
    folder = SampleFolder(output, {
        "count": total, "seed": seed, "categories": list(cats), "shard_size": shard_size,
        "tolerance": {"atol": tolerance.atol, "rtol": tolerance.rtol}, "validate": validate, "splits": None,
        "warp_version": warp_version(), "schema_version": SCHEMA_VERSION}, label="production")
    check_folder(folder)
    if validate:
        from cuda_production.compile_cuda import find_nvcc

        if find_nvcc() is None:
            click.echo("warning: nvcc not found; validation skipped for every sample", err=True)
    plan = RunPlan(total, seed, cats, shard_size, standalone=True, validate=validate,
                   tolerance=(tolerance.atol, tolerance.rtol), samples=folder)
    command = canonical_command(count, seed, cats, validate, shard_size)
    t0 = time.perf_counter()
    report = run(plan, spread, progress, "production", partial(write_card, command), stop)
    elapsed = time.perf_counter() - t0
    if not report.complete:
        click.echo(f"samples made     {report.kernels_run} in this run in {elapsed:.1f} s")
        click.echo(slice_line(report, spread["shard_slice"]))
        return
    summary = report.manifests[str(output)]
    click.echo(f"samples written  {summary['samples_written']}/{total} in {elapsed:.1f} s "
               f"({spread['workers']} workers; {report.kernels_run} made in this run)")
    click.echo(f"failures         {summary['failures']['total']}")
    for stage, reasons in summary["failures"]["by_stage"].items():
        for reason, n in reasons.items():
            click.echo(f"  {stage:9s} {n:5d}  {reason}")
    if validate:
        v = summary["validation"]
        click.echo(f"nvcc validation  {v['ok']} ok, {v['failed']} failed, {v['skipped']} skipped")
    click.echo(f"summary          {folder.summary_path()}")
    if summary["failures"]["total"] or (validate and summary["validation"]["failed"]):
        sys.exit(1)


if __name__ == "__main__":
    main()
