import os
import select
import signal
import threading
import time

import pytest

from synthesis.executors import Interrupted, JobFailed, ShardOutcome, parse_shard, run_local
from synthesis.interrupt import StopRequest


def test_parse_shard_accepts_a_slice_of_a_run():
    assert parse_shard("2/5") == (2, 5)


@pytest.mark.parametrize("text", ["5/5", "-1/3", "1", "a/b", "1/0"])
def test_parse_shard_rejects_what_is_not_a_slice(text):
    with pytest.raises(ValueError):
        parse_shard(text)


def square_job(shard: int) -> ShardOutcome:
    return ShardOutcome(shard, shard * shard)


def test_local_executor_runs_every_shard_once():
    seen = []
    run_local(square_job, list(range(7)), seen.append, workers=3, cleanup=lambda pids: None)
    assert sorted(o.shard for o in seen) == list(range(7))
    assert all(o.kernels == o.shard ** 2 for o in seen)


def failing_job(shard: int) -> ShardOutcome:
    return ShardOutcome(shard, 1, "cannot write x: No space left on device" if shard == 2 else None)


def test_a_failed_shard_stops_the_run_and_cleans_up_after_the_workers():
    pids = []

    def on_outcome(outcome):
        if outcome.error:
            raise JobFailed(outcome.error)

    with pytest.raises(JobFailed, match="No space left"):
        run_local(failing_job, list(range(6)), on_outcome, workers=2, cleanup=pids.extend)
    assert len(pids) == 2 and all(p > 0 for p in pids)


def dying_job(shard: int) -> ShardOutcome:
    os._exit(3)


def test_a_worker_that_dies_is_one_error_not_a_hang():
    with pytest.raises(JobFailed, match="worker process died"):
        run_local(dying_job, [0, 1], lambda o: None, workers=1, cleanup=lambda pids: None)


def test_ctrl_c_is_a_request_not_an_exception():
    stop = StopRequest().install()
    try:
        os.kill(os.getpid(), signal.SIGINT)  # would raise KeyboardInterrupt under Python's handler
        assert stop.requested and select.select([stop.reader], [], [], 1)[0] == [stop.reader]
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        stop.close()


def slow_job(shard: int) -> ShardOutcome:
    time.sleep(60)
    return ShardOutcome(shard, 1)


def test_a_stop_request_kills_busy_workers_at_once():
    stop = StopRequest().install()
    pids = []
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    try:
        with pytest.raises(Interrupted):
            run_local(slow_job, [0, 1, 2], lambda o: None, workers=2, cleanup=pids.extend, stop=stop)
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        stop.close()
    assert time.monotonic() - started < 10 and len(pids) == 2
    assert not any(os.path.exists(f"/proc/{pid}") and open(f"/proc/{pid}/stat").read().split()[2] != "Z" for pid in pids)
