"""`python cuda_production/production_pipeline.py -n 5 -o data/cuda_production`: self-checking CUDA samples.

Stages per chunk of samples (in a worker): generate -> translate -> reference (Warp on the CPU,
one module per chunk) -> write. Then, over all samples: validate (nvcc, batched and parallel).
`--verify DIR` re-checks an existing folder: files and metadata, a fresh translation of each .py
against its .cu, the host-emulated check against expected.bin, and nvcc with --validate.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import click

from cuda_production.templates import Tolerance

CHUNK = 10  # samples per worker task: one Warp CPU module build per chunk


@dataclass
class SampleResult:
    index: int
    category: str
    seed: int
    folder: str | None = None
    kernel: str | None = None
    failure: tuple[str, str] | None = None  # (stage, reason)
    extra: dict = field(default_factory=dict)


def plan(count: int, categories: tuple[str, ...], run_seed: int) -> list[tuple[int, str, int]]:
    from synthesis.stages import kernel_seed

    tasks = []
    for c, cat in enumerate(categories):
        for k in range(count):
            index = c * count + k
            tasks.append((index, cat, kernel_seed(run_seed, index)))
    return tasks


def produce_chunk(tasks: list[tuple[int, str, int]], out: str, tolerance: Tolerance, run_seed: int) -> list[SampleResult]:
    from cuda_production.reference import input_seed, sample_args, warp_reference
    from cuda_production.sample import sample_dirname, write_sample
    from cuda_production.translator import TranslationError, translate_kernel
    from synthesis.categories import generate
    from synthesis.stages import short_reason

    results, ready = [], []
    for index, category, seed in tasks:
        r = SampleResult(index, category, seed)
        results.append(r)
        try:
            spec = generate(category, seed)
        except Exception as exc:  # noqa: BLE001 - counted, never fatal
            r.failure = ("generate", short_reason(exc))
            continue
        r.kernel = spec.name
        try:
            kernel = translate_kernel(spec.source, spec.name, f"{spec.name}.py")
        except TranslationError as exc:
            r.failure = ("translate", exc.construct)
            continue
        written = {p.name for p in kernel.params if p.kind == "array" and p.written}
        if written != {a.name for a in spec.args if a.is_written}:
            r.failure = ("translate", "written arrays differ from the generator's output roles")
            continue
        ready.append((r, spec, kernel))
    expected: dict[str, bytes] = {}
    if ready:
        specs = [s for _, s, _ in ready]
        try:
            expected = warp_reference(specs, f"prod_ref_{tasks[0][0]}")
        except Exception:  # noqa: BLE001 - isolate the kernel that breaks the batch
            for _, spec, _ in ready:
                try:
                    expected.update(warp_reference([spec], f"prod_ref_{spec.name}"))
                except Exception as exc:  # noqa: BLE001
                    expected[spec.name] = exc  # type: ignore[assignment]
    for r, spec, kernel in ready:
        ref = expected.get(spec.name)
        if not isinstance(ref, bytes):
            r.failure = ("reference", short_reason(ref) if isinstance(ref, BaseException) else "no Warp result")
            continue
        folder = Path(out) / sample_dirname(r.index, spec.category)
        meta = {"category": spec.category, "description": spec.description, "seed": spec.seed,
                "run_seed": run_seed, "index": r.index, "warp_version": _warp_version()}
        try:
            write_sample(folder, kernel, spec.source, sample_args(spec), spec.dim, input_seed(spec), tolerance, ref, meta)
        except OSError as exc:
            r.failure = ("write", short_reason(exc))
            continue
        r.folder = str(folder)
    return results


def _warp_version() -> str:
    from extraction.warp_compat import WARP_VERSION

    return WARP_VERSION


def fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def update_metadata(folder: Path, key: str, value: dict) -> None:
    path = folder / "metadata.json"
    meta = json.loads(path.read_text())
    meta[key] = value
    tmp = path.with_name(".metadata.json.tmp")
    tmp.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, path)


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


def summarise_validation(validations: dict[str, dict]) -> dict:
    statuses = Counter(v["status"] for v in validations.values())
    regs = [v["registers"] for v in validations.values() if "registers" in v]
    return {"ok": statuses.get("ok", 0), "failed": statuses.get("failed", 0), "skipped": statuses.get("skipped", 0),
            "failed_samples": sorted(k for k, v in validations.items() if v["status"] == "failed"),
            "skipped_reason": next((v.get("log") for v in validations.values() if v["status"] == "skipped"), None),
            "max_registers": max(regs) if regs else None,
            "spilling_samples": sorted(k for k, v in validations.items() if v.get("spill_stores_bytes"))}


def verify_folder(folder: Path, validate: bool, workers: int, host: bool) -> int:
    """Re-check every sample under `folder`; prints one line per problem, returns the exit status."""
    from cuda_production.host_check import run_on_host
    from cuda_production.reference import sample_args
    from cuda_production.templates import render_cu
    from synthesis.spec import ArgSpec
    from cuda_production.translator import TranslationError, translate_kernel

    samples = sorted(p for p in folder.glob("sample_*") if p.is_dir())
    if not samples:
        fail(f"no sample_* folders under {folder}")
    problems = Counter()
    for s in samples:
        try:
            meta = json.loads((s / "metadata.json").read_text())
            name = meta["kernel_name"]
            py = (s / f"{name}.py").read_text()
            cu = (s / f"{name}.cu").read_text()
            kernel = translate_kernel(py, name, str(s / f"{name}.py"))
            args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
            tol = Tolerance(meta["tolerance"]["atol"], meta["tolerance"]["rtol"])
            has_ref = meta.get("reference") is not None
            fresh = render_cu(kernel, args, tuple(meta["launch_dim"]), meta["input_seed"], tol, has_ref, meta.get("description") or f"Kernel {name}")
            if fresh != cu:
                raise ValueError(f"{name}.cu differs from a fresh translation of {name}.py")
            if not (s / "Makefile").exists():
                raise ValueError("Makefile missing")
        except (OSError, KeyError, ValueError, TranslationError) as exc:
            problems["files"] += 1
            click.echo(f"{s.name}: {exc}", err=True)
            continue
        if host and has_ref:
            run = run_on_host(s)
            if not run.passed:
                problems["host check"] += 1
                click.echo(f"{s.name}: host check failed: {run.output.strip().splitlines()[-1] if run.output.strip() else run.returncode}", err=True)
    validation = {}
    if validate:
        validation = run_validation(samples, workers)
        for k, v in validation.items():
            if v["status"] == "failed":
                problems["nvcc"] += 1
                click.echo(f"{k}: nvcc failed", err=True)
    total = sum(problems.values())
    click.echo(f"verified {len(samples)} samples: {total} problems" + (f" ({dict(problems)})" if total else "")
               + (f"; nvcc: {summarise_validation(validation)['ok']} ok" if validate else ""))
    return 1 if total else 0


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-n", "--count", type=int, default=5, show_default=True, help="Samples per category.")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("data/cuda_production"), show_default=True)
@click.option("-s", "--seed", type=int, default=42, show_default=True)
@click.option("-c", "--category", "categories", multiple=True, help="Repeatable; default all ten.")
@click.option("--validate/--no-validate", default=False, help="Compile every sample with nvcc (PTX + ptxas).")
@click.option("-j", "--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("--verify", "verify_dir", type=click.Path(path_type=Path), default=None,
              help="Re-check an existing folder instead of producing one.")
@click.option("--host-check/--no-host-check", default=True, help="With --verify: run each .cu on the CPU (g++).")
@click.option("--progress/--no-progress", default=True)
def main(count, output, seed, categories, validate, workers, verify_dir, host_check, progress):
    """Translate generated Warp kernels into standalone CUDA samples that check themselves against Warp."""
    from synthesis.categories import CATEGORY_NAMES
    from synthesis.stages import canonical_categories

    workers = workers or os.cpu_count() or 1
    if verify_dir is not None:
        sys.exit(verify_folder(verify_dir, validate, workers, host_check))
    if count <= 0:
        fail(f"--count must be positive, got {count}")
    unknown = [c for c in categories if c not in CATEGORY_NAMES]
    if unknown:
        fail(f"unknown category {unknown[0]!r}; choose from {', '.join(CATEGORY_NAMES)}")
    cats = canonical_categories(categories)
    summary_path = output / "production_summary.json"
    if output.exists() and (not output.is_dir() or (any(output.iterdir()) and not summary_path.exists())):
        fail(f"output folder {output} is not empty and holds no production run")
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot write to output folder {output}: {exc.strerror}")

    tolerance = Tolerance()
    tasks = plan(count, cats, seed)
    chunks = [tasks[i:i + CHUNK] for i in range(0, len(tasks), CHUNK)]
    work = partial(produce_chunk, out=str(output), tolerance=tolerance, run_seed=seed)
    t0 = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(tasks), unit="sample", desc="production", file=sys.stderr)
    pool = None
    if workers > 1 and len(chunks) > 1:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        pool = multiprocessing.get_context(method).Pool(min(workers, len(chunks)))
        stream = pool.imap(work, chunks)
    else:
        stream = map(work, chunks)
    results: list[SampleResult] = []
    try:
        for chunk_results in stream:
            results.extend(chunk_results)
            if bar:
                bar.update(len(chunk_results))
    finally:
        if bar:
            bar.close()
        if pool:
            pool.terminate()
    produced = [r for r in results if r.failure is None]
    t_produce = time.perf_counter() - t0

    validation = {}
    if validate:
        from cuda_production.compile_cuda import find_nvcc

        if find_nvcc() is None:
            click.echo("warning: nvcc not found; validation skipped for every sample", err=True)
        t1 = time.perf_counter()
        validation = run_validation([Path(r.folder) for r in produced], workers)
        t_validate = time.perf_counter() - t1

    failures = [r for r in results if r.failure]
    by_stage: dict[str, Counter] = {}
    for r in failures:
        by_stage.setdefault(r.failure[0], Counter())[r.failure[1]] += 1
    summary = {
        "settings": {"count_per_category": count, "seed": seed, "categories": list(cats), "validate": validate,
                     "tolerance": {"atol": tolerance.atol, "rtol": tolerance.rtol}, "warp_version": _warp_version()},
        "samples_requested": len(tasks),
        "samples_written": len(produced),
        "per_category": dict(sorted(Counter(r.category for r in produced).items())),
        "failures": {"total": len(failures),
                     "by_stage": {s: dict(sorted(c.items())) for s, c in sorted(by_stage.items())},
                     "records": [{"index": r.index, "category": r.category, "seed": r.seed, "stage": r.failure[0],
                                  "reason": r.failure[1]} for r in failures]},
        "validation": summarise_validation(validation) if validate else None,
        "samples": [{"folder": Path(r.folder).name, "kernel": r.kernel, "category": r.category} for r in produced],
    }
    tmp = summary_path.with_name(".production_summary.json.tmp")
    tmp.write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, summary_path)

    click.echo(f"samples written  {len(produced)}/{len(tasks)} in {t_produce:.1f} s ({workers} workers)")
    click.echo(f"failures         {len(failures)}")
    for stage, reasons in summary["failures"]["by_stage"].items():
        for reason, n in reasons.items():
            click.echo(f"  {stage:9s} {n:5d}  {reason}")
    if validate:
        v = summary["validation"]
        click.echo(f"nvcc validation  {v['ok']} ok, {v['failed']} failed, {v['skipped']} skipped in {t_validate:.1f} s")
    click.echo(f"summary          {summary_path}")
    if failures or (validate and summary["validation"]["failed"]):
        sys.exit(1)


if __name__ == "__main__":
    main()
