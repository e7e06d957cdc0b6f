"""Ctrl-C as a request the run answers at safe points, never as an exception in the middle of things.

Python turns SIGINT into a KeyboardInterrupt wherever the main thread happens to be; inside an import
or a finaliser it is printed as "Exception ignored ..." with a traceback, and swallowed, so the run
goes on. So: a CLI script installs `quiet_interrupt` as its very first statement (its imports take a
moment: Warp among them; nothing is written yet, so exiting at once is safe), and once its error
handling is in place (cli_common.user_errors) a `StopRequest`, which only records the request and
wakes the executor's wait; the executor stops the workers and raises `Interrupted`.
"""
from __future__ import annotations

import os
import signal
import sys

# `socket` (for StopRequest) is imported where it is used: importing it takes milliseconds, and this
# module is what a CLI imports first to take Ctrl-C over; until then a Ctrl-C is a traceback.

INTERRUPTED_STATUS = 130


def _exit_quietly(signum, frame) -> None:
    sys.stderr.write("interrupted; run the same command to resume\n")
    sys.stderr.flush()
    os._exit(INTERRUPTED_STATUS)


def quiet_interrupt() -> None:
    signal.signal(signal.SIGINT, _exit_quietly)


def ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class StopRequest:
    """Set by SIGINT; `reader` becomes readable then, so a wait on worker pipes wakes up at once."""

    def __init__(self) -> None:
        import socket

        self.requested = False
        self.reader, self._writer = socket.socketpair()
        for end in (self.reader, self._writer):
            end.setblocking(False)

    def install(self) -> "StopRequest":
        signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def _on_sigint(self, signum, frame) -> None:
        self.requested = True
        try:
            self._writer.send(b"\0")
        except OSError:  # the buffer is full of earlier requests: one is enough
            pass

    def close(self) -> None:
        self.reader.close()
        self._writer.close()
