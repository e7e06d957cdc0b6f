"""Executors: who runs which shard. Each shard job writes its own files and completion marker, so an
executor only hands out shard numbers and collects small outcomes; none of them changes a byte.

* `local`: worker processes fed one shard at a time over a pipe each (`-j N`). Workers leave the
  terminal's process group and ignore SIGINT, so Ctrl-C reaches only the parent, which stops them
  (SIGTERM, then SIGKILL after a grace period), removes what they were writing, and raises
  `Interrupted`. No queue threads or result handlers: nothing to hang on.
* `ray`: the same shard jobs as Ray tasks, on a running cluster (`address`) or a local Ray started
  with `workers` CPUs.

Job arrays need no executor: `--shard I/N` just selects the shards this process runs.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Callable

GRACE_SECONDS = 5.0


@dataclass(frozen=True)
class ShardOutcome:
    """What a shard job reports back: how many kernels it covered, or the one-line error that stopped it."""

    shard: int
    kernels: int
    error: str | None = None


class Interrupted(Exception):
    """The user pressed Ctrl-C; the workers are stopped and nothing half-written is left."""


class JobFailed(Exception):
    """A shard job could not finish (a full disk, a dead worker); the message is one line."""


Job = Callable[[int], ShardOutcome]


def parse_shard(text: str) -> tuple[int, int]:
    """'I/N' -> (I, N), 0 <= I < N."""
    try:
        index, total = (int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard must look like I/N (e.g. 0/4), got {text!r}") from None
    if total < 1 or not 0 <= index < total:
        raise ValueError(f"--shard I/N needs 0 <= I < N, got {text!r}")
    return index, total


def run_shards(job: Job, shards: list[int], on_outcome: Callable[[ShardOutcome], None], *, executor: str = "local",
               workers: int = 1, ray_address: str | None = None,
               cleanup: Callable[[list[int]], None] = lambda pids: None) -> None:
    """Run `job` over `shards`; `on_outcome` sees each outcome as it arrives. A failed outcome stops
    the run with `JobFailed`; Ctrl-C with `Interrupted`."""
    if not shards:
        return
    if executor == "ray":
        run_on_ray(job, shards, on_outcome, workers, ray_address)
    else:
        run_local(job, shards, on_outcome, workers, cleanup)


# ---- local processes ---------------------------------------------------------------------------
def _stop_on_sigterm(signum, frame):
    raise SystemExit(128 + signum)  # unwinds, so a write in progress removes its temporary


def _worker_main(job: Job, conn) -> None:
    try:
        os.setsid()  # off the terminal's process group: Ctrl-C is the parent's business, nvcc's too
    except OSError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    while True:
        try:
            shard = conn.recv()
        except (EOFError, OSError):
            return
        if shard is None:
            return
        conn.send(job(shard))


def run_local(job: Job, shards: list[int], on_outcome: Callable[[ShardOutcome], None], workers: int,
              cleanup: Callable[[list[int]], None]) -> None:
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    queue = list(shards)
    procs: list[tuple[multiprocessing.Process, object]] = []
    finished = False
    try:
        # SIGINT stays blocked while workers start, so none of them can see it before it ignores it;
        # one that arrives meanwhile is raised when it is unblocked, inside this try.
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for _ in range(min(workers, len(queue))):
                parent_end, child_end = ctx.Pipe()
                proc = ctx.Process(target=_worker_main, args=(job, child_end), daemon=True)
                proc.start()
                child_end.close()
                procs.append((proc, parent_end))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        busy: dict = {}
        for proc, conn in procs:
            conn.send(queue.pop(0))
            busy[conn] = proc
        while busy:
            for conn in wait(list(busy)):
                proc = busy[conn]
                try:
                    outcome = conn.recv()
                except (EOFError, OSError):
                    proc.join(1)
                    raise JobFailed(f"a worker process died (exit code {proc.exitcode}); "
                                    "run the same command to resume") from None
                on_outcome(outcome)
                if queue:
                    conn.send(queue.pop(0))
                else:
                    conn.send(None)
                    del busy[conn]
        finished = True
    except KeyboardInterrupt:
        raise Interrupted() from None
    finally:
        _stop_workers(procs, finished, cleanup)


def _stop_workers(procs, finished: bool, cleanup: Callable[[list[int]], None]) -> None:
    # A second Ctrl-C must not interrupt the clean-up itself.
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        if not finished:
            for proc, _ in procs:
                if proc.is_alive():
                    proc.terminate()
        for proc, conn in procs:
            proc.join(GRACE_SECONDS if not finished else None)
            if proc.is_alive():
                proc.kill()
                proc.join()
            conn.close()
        if not finished:
            cleanup([proc.pid for proc, _ in procs])
    finally:
        if finished:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        # Interrupted or failed: SIGINT stays blocked; the CLI prints its line and exits.


# ---- Ray ---------------------------------------------------------------------------------------
def _ray_call(job: Job, shard: int) -> ShardOutcome:
    return job(shard)


def run_on_ray(job: Job, shards: list[int], on_outcome: Callable[[ShardOutcome], None], workers: int,
               address: str | None) -> None:
    try:
        import ray
    except ImportError:
        raise JobFailed("--executor ray needs Ray: pip install -e '.[ray]'") from None
    import logging

    options = {"address": address} if address else {"num_cpus": workers, "include_dashboard": False}
    # Workers of a local Ray inherit this environment (PYTHONPATH included); a cluster needs the
    # package installed on its nodes.
    try:
        ray.init(logging_level=logging.WARNING, log_to_driver=False, **options)
    except Exception as exc:  # noqa: BLE001 - a cluster that cannot be reached is one line
        raise JobFailed(f"cannot start or reach Ray ({address or 'local'}): {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    pending: dict = {}
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(_ray_call)
        pending = {task.remote(job, s): s for s in shards}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                shard = pending.pop(ref)
                try:
                    outcome = ray.get(ref)
                except Exception as exc:  # noqa: BLE001
                    raise JobFailed(f"Ray task for shard {shard} failed: {type(exc).__name__}; "
                                    "run the same command to resume") from None
                on_outcome(outcome)
    except KeyboardInterrupt:
        raise Interrupted() from None
    finally:
        for ref in pending:
            try:
                ray.cancel(ref)  # a KeyboardInterrupt inside the task: its writes clean up
            except Exception:  # noqa: BLE001
                pass
        ray.shutdown()
