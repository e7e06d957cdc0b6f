"""Executors: who runs which job. Each job writes its own files (a shard job, its shard and completion
marker), so an executor only hands out small job descriptions and collects small outcomes; none of
them changes a byte. An outcome may call for follow-up jobs (`on_outcome` returns them): the last
part of a shard computed calls for the job that writes the shard.

* `local`: worker processes fed one job at a time over a pipe each (`-j N`). Workers leave the
  terminal's process group and ignore SIGINT, so Ctrl-C reaches only the parent (as a
  `StopRequest`, which wakes its wait), which kills them with their children (no Python code runs in
  them after that, so nothing they print), removes the temporaries that carry their pids, and raises
  `Interrupted`. No queue threads or result handlers: nothing to hang on.
* `ray`: the same shard jobs as Ray tasks, on a running cluster (`address`) or a local Ray started
  with `workers` CPUs.

Job arrays need no executor: `--shard I/N` just selects the shards this process runs.
"""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, Callable, Sequence

from synthesis.interrupt import StopRequest

RAY_POLL_SECONDS = 0.2


@dataclass(frozen=True)
class ShardOutcome:
    """What a job reports back: how many kernels it computed, or the one-line error that stopped it.
    `part`: None for a whole shard (computed and written); n >= 0 for part n of the shard (computed
    and saved for the shard's writer); runner.WRITE for a shard written from its saved parts."""

    shard: int
    kernels: int
    error: str | None = None
    part: int | None = None


class Interrupted(Exception):
    """The user pressed Ctrl-C; the workers are stopped and nothing half-written is left."""

    done: int | None = None  # shards of the selected ones that are done, when a run was interrupted
    total: int | None = None


class JobFailed(Exception):
    """A shard job could not finish (a full disk, a dead worker); the message is one line."""


Job = Callable[[Any], ShardOutcome]
# Sees each outcome as it arrives; returns the follow-up jobs it calls for (run before the rest).
OnOutcome = Callable[[ShardOutcome], "Sequence[Any] | None"]


def parse_shard(text: str) -> tuple[int, int]:
    """'I/N' -> (I, N), 0 <= I < N."""
    try:
        index, total = (int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard must look like I/N (e.g. 0/4), got {text!r}") from None
    if total < 1 or not 0 <= index < total:
        raise ValueError(f"--shard I/N needs 0 <= I < N, got {text!r}")
    return index, total


def run_shards(job: Job, units: list, on_outcome: OnOutcome, *, executor: str = "local",
               workers: int = 1, ray_address: str | None = None, stop: StopRequest | None = None,
               cleanup: Callable[[list[int]], None] = lambda pids: None) -> None:
    """Run `job` over `units` (job descriptions) and the follow-ups `on_outcome` returns. `on_outcome`
    raising (`JobFailed` for a failed outcome) stops the run; a `stop` request (Ctrl-C) stops it with
    `Interrupted`."""
    if not units:
        return
    if executor == "ray":
        run_on_ray(job, units, on_outcome, workers, ray_address, stop)
    else:
        run_local(job, units, on_outcome, workers, cleanup, stop)


def describe(unit: Any) -> str:
    return f"shard {unit}" if isinstance(unit, int) else str(unit)


# ---- local processes ---------------------------------------------------------------------------
def _die_with_parent(parent: int) -> None:
    """End this worker when the parent ends, even by SIGKILL. Since the fork the worker holds both
    ends of its pipe, so it would never see the parent's end close: an orphan would wait on it
    forever (found as processes left by the kill -9 resume test)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent was already gone before the line above
        os._exit(1)


def _worker_main(job: Job, conn, parent: int) -> None:
    _die_with_parent(parent)
    try:
        os.setsid()  # off the terminal's process group: Ctrl-C is the parent's business, nvcc's too
    except OSError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    while True:
        try:
            shard = conn.recv()
        except (EOFError, OSError):
            return
        if shard is None:
            return
        conn.send(job(shard))


def run_local(job: Job, units: list, on_outcome: OnOutcome, workers: int,
              cleanup: Callable[[list[int]], None], stop: StopRequest | None = None) -> None:
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    queue = list(units)
    procs: list[tuple[multiprocessing.Process, object]] = []
    finished = False
    try:
        # SIGINT stays blocked while workers start, so none of them can see it before it ignores it.
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for _ in range(min(workers, len(queue))):
                parent_end, child_end = ctx.Pipe()
                proc = ctx.Process(target=_worker_main, args=(job, child_end, os.getpid()), daemon=True)
                proc.start()
                child_end.close()
                procs.append((proc, parent_end))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        busy: dict = {}
        idle = [(conn, proc) for proc, conn in reversed(procs)]  # waiting for a job: one may follow
        wake = [stop.reader] if stop else []
        while True:
            while idle and queue:
                conn, proc = idle.pop()
                conn.send(queue.pop(0))
                busy[conn] = proc
            if not busy:
                break
            ready = wait(list(busy) + wake)
            if stop and stop.requested:
                raise Interrupted()
            for conn in ready:
                proc = busy.pop(conn)
                try:
                    outcome = conn.recv()
                except (EOFError, OSError):
                    proc.join(1)
                    raise JobFailed(f"a worker process died (exit code {proc.exitcode}); "
                                    "run the same command to resume") from None
                queue[:0] = on_outcome(outcome) or ()
                idle.append((conn, proc))
        for conn, _ in idle:
            conn.send(None)
        finished = True
    except KeyboardInterrupt:  # without a StopRequest (a caller of its own): the default handler
        raise Interrupted() from None
    finally:
        _stop_workers(procs, finished, cleanup)


def _stop_workers(procs, finished: bool, cleanup: Callable[[list[int]], None]) -> None:
    if finished:  # each was sent None and exits by itself
        for proc, conn in procs:
            proc.join()
            conn.close()
        return
    # Interrupted or failed: kill each worker with its process group (its nvcc children), at once.
    # Nothing it was writing counts (the completion marker is written last); its temporaries carry
    # its pid and are removed here.
    for proc, conn in procs:
        if proc.is_alive():
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:  # not yet its own group leader
                proc.kill()
    for proc, conn in procs:
        proc.join()
        conn.close()
    cleanup([proc.pid for proc, _ in procs])


# ---- Ray ---------------------------------------------------------------------------------------
def _ray_call(job: Job, unit: Any) -> ShardOutcome:
    return job(unit)


def run_on_ray(job: Job, units: list, on_outcome: OnOutcome, workers: int,
               address: str | None, stop: StopRequest | None = None) -> None:
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
        pending = {task.remote(job, u): u for u in units}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1, timeout=RAY_POLL_SECONDS)
            if stop and stop.requested:
                raise Interrupted()
            for ref in done:
                unit = pending.pop(ref)
                try:
                    outcome = ray.get(ref)
                except Exception as exc:  # noqa: BLE001
                    raise JobFailed(f"Ray task for {describe(unit)} failed: {type(exc).__name__}; "
                                    "run the same command to resume") from None
                for follow_up in on_outcome(outcome) or ():
                    pending[task.remote(job, follow_up)] = follow_up
    except KeyboardInterrupt:
        raise Interrupted() from None
    finally:
        for ref in pending:
            try:
                ray.cancel(ref)  # a KeyboardInterrupt inside the task: its writes remove their temporaries
            except Exception:  # noqa: BLE001
                pass
        ray.shutdown()
