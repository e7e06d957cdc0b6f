"""Ctrl-C before a CLI's error handling is in place: one line and status 130, never a traceback.

A CLI script installs `quiet_interrupt` as its very first statement (before its imports, which take
a moment: Warp among them), and `raising_interrupt` once its own handler (cli_common.user_errors)
is there to turn KeyboardInterrupt into the resume message.
"""
from __future__ import annotations

import os
import signal
import sys

INTERRUPTED_STATUS = 130


def _exit_quietly(signum, frame) -> None:
    sys.stderr.write("interrupted; run the same command to resume\n")
    sys.stderr.flush()
    os._exit(INTERRUPTED_STATUS)


def quiet_interrupt() -> None:
    signal.signal(signal.SIGINT, _exit_quietly)


def raising_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
