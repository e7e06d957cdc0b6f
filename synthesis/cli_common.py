"""What both CLIs share: one-line errors, Ctrl-C, the options that pick an executor, the run."""
from __future__ import annotations

import contextlib
import os
import sys

import click

from synthesis.interrupt import INTERRUPTED_STATUS, StopRequest, ignore_interrupt
from synthesis.executors import Interrupted, JobFailed, parse_shard
from synthesis.runner import RunPlan, RunReport, execute
from synthesis.writer import OutputError



def fail(message: str, status: int = 2) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(status)


@contextlib.contextmanager
def user_errors():
    """No traceback reaches the user: bad input and faults are one line and a non-zero status.
    Yields the run's `StopRequest` (Ctrl-C), which the run checks at safe points."""
    stop = StopRequest().install()
    try:
        yield stop
    except Interrupted as exc:
        progress = f": {exc.done} of {exc.total} shards done" if exc.total is not None else ""
        click.echo(f"interrupted{progress}; run the same command to resume", err=True)
        sys.exit(INTERRUPTED_STATUS)
    except KeyboardInterrupt:
        click.echo("interrupted; run the same command to resume", err=True)
        sys.exit(INTERRUPTED_STATUS)
    except (OutputError, JobFailed) as exc:
        fail(str(exc), 1)
    except OSError as exc:
        fail(f"{exc.filename or 'I/O'}: {exc.strerror or exc}", 1)
    finally:
        # Done, one way or the other: a Ctrl-C while the interpreter shuts down changes nothing.
        ignore_interrupt()
        stop.close()


def check_folder(folder) -> None:
    """A folder that is not this run's is bad input (status 2), refused before anything is written."""
    try:
        folder.check()
    except OutputError as exc:
        fail(str(exc))


def executor_options(command):
    """-j, --shard, --executor, --ray-address: how a run is spread out (never what it writes)."""
    options = [
        click.option("-j", "--workers", type=int, default=None, help="Worker processes [default: all cores]; at least 1."),
        click.option("--shard", "shard_text", default=None, metavar="I/N",
                     help="Run only slice I of N of the run (job arrays); slices share or are copied into one folder."),
        click.option("--executor", type=click.Choice(["local", "ray"]), default="local", show_default=True,
                     help="local: worker processes; ray: Ray tasks (pip install -e '.[ray]')."),
        click.option("--ray-address", default=None, help="With --executor ray: a running cluster [default: start a local Ray]."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def resolve_executor(workers: int | None, shard_text: str | None, executor: str, ray_address: str | None) -> dict:
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    if ray_address and executor != "ray":
        fail("--ray-address needs --executor ray")
    shard_slice = (0, 1)
    if shard_text is not None:
        try:
            shard_slice = parse_shard(shard_text)
        except ValueError as exc:
            fail(str(exc))
    return {"workers": workers or os.cpu_count() or 1, "executor": executor, "ray_address": ray_address,
            "shard_slice": shard_slice}


def run(plan: RunPlan, executor: dict, progress: bool, desc: str, write_cards, stop: StopRequest) -> RunReport:
    return execute(plan, progress=progress, desc=desc, write_cards=write_cards, stop=stop, **executor)


def slice_line(report: RunReport, shard_slice: tuple[int, int]) -> str:
    index, total = shard_slice
    return (f"slice {index}/{total}: {report.shards_selected} shards done; the manifest is written by the run that "
            "finds every shard done (run the command without --shard once all slices are in one folder)")


def warp_version() -> str:
    from extraction.warp_compat import WARP_VERSION

    return WARP_VERSION
