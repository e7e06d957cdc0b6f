"""Ctrl-C at random moments, as a terminal sends it (SIGINT to the whole foreground process group).

Each trial starts a run (the pairs CLI and the samples CLI in turn, 2 workers), interrupts it after a
random delay, checks that it stopped within the grace period (no hang), printed no traceback and at
most one line of its own (status 130), then runs the same command again and compares the folder,
byte for byte, with an uninterrupted run.

    python scripts/sigint_stress.py [--trials 50] [--seed 1]

Prints: trials, hangs, tracebacks, extra lines, wrong statuses, resumed folders unequal, temporaries
left; and apart, the signals that fell into Python's own start-up (before any line of the script).
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANG_SECONDS = 30
DELAY_SHARE = 0.7  # delays spread over the first 70% of a clean run: most signals land mid-run
# Lines Warp itself prints (no CUDA driver here); not the CLI's.
FOREIGN = ("Warp CUDA warning",)

# Shards of 30 and 21 kernels: with 2 workers each is computed in parts (10 kernels each) and written
# by one job, so signals also land between a shard's parts and its writing.
COMMANDS = {
    "pairs": [sys.executable, str(ROOT / "synthesis" / "pipeline.py"), "--no-progress", "-n", "120", "-d", "cpu",
              "-s", "3", "--shard-size", "30", "-j", "2"],
    "samples": [sys.executable, str(ROOT / "cuda_production" / "production_pipeline.py"), "--no-progress", "-n", "3",
                "-s", "3", "--shard-size", "21", "-j", "2"],
}


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def own_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip() and not line.startswith(FOREIGN)]


def complete(kind: str, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(COMMANDS[kind] + ["-o", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=600)


def trial(kind: str, out: Path, delay: float, reference: dict[str, bytes]) -> dict[str, bool]:
    proc = subprocess.Popen(COMMANDS[kind] + ["-o", str(out)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(delay)
    try:
        os.killpg(proc.pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    hang = False
    try:
        _, stderr = proc.communicate(timeout=HANG_SECONDS)
    except subprocess.TimeoutExpired:
        hang = True
        os.killpg(proc.pid, signal.SIGKILL)
        _, stderr = proc.communicate()
    lines = own_lines(stderr)
    # Before the script's first statement runs, Ctrl-C meets Python's own start-up, which no program
    # can catch: site and .pth files ("Fatal Python error: init_import_site"), or the compilation of
    # the script (a bare "KeyboardInterrupt": no frame of the script exists yet). Counted apart.
    startup = "init_import_site" in stderr or stderr.strip() == "KeyboardInterrupt"
    result = {
        "hang": hang,
        "python_startup": startup,
        "traceback": "Traceback" in stderr and not startup,
        "extra_lines": proc.returncode == 130 and (len(lines) != 1 or not lines[0].startswith("interrupted")),
        "wrong_status": proc.returncode not in (0, 130) and not startup,
        "temporaries": any(p.name.endswith(".tmp") for p in out.rglob("*")) if out.exists() else False,
    }
    if any(result[k] for k in ("traceback", "extra_lines", "wrong_status")):
        print(f"--- stderr of the interrupted run (status {proc.returncode}):\n{stderr.strip()}\n---", flush=True)
    resumed = complete(kind, out)
    result["unequal"] = resumed.returncode != 0 or tree_bytes(out) != reference
    result["interrupted"] = proc.returncode == 130
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kinds", default="pairs,samples")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    kinds = args.kinds.split(",")
    totals = {k: 0 for k in ("hang", "traceback", "extra_lines", "wrong_status", "temporaries", "unequal", "interrupted",
                             "python_startup")}
    with tempfile.TemporaryDirectory(prefix="sigint_") as tmp:
        references, durations = {}, {}
        for kind in kinds:
            # Twice: the second run, with Warp's kernel cache warm, sets the range of the delays.
            for attempt in ("cold", "warm"):
                started = time.perf_counter()
                done = complete(kind, Path(tmp) / f"reference_{kind}_{attempt}")
                if done.returncode != 0:
                    sys.exit(f"reference run failed: {done.stderr.strip().splitlines()[-1:]}")
                durations[kind] = time.perf_counter() - started
            references[kind] = tree_bytes(Path(tmp) / f"reference_{kind}_warm")
        for t in range(args.trials):
            kind = kinds[t % len(kinds)]
            delay = rng.uniform(0.0, DELAY_SHARE * durations[kind])
            result = trial(kind, Path(tmp) / f"trial_{t}", delay, references[kind])
            for k, v in result.items():
                totals[k] += bool(v)
            bad = [k for k, v in result.items() if v and k not in ("interrupted", "python_startup")]
            print(f"trial {t:3d} {kind:7s} SIGINT at {delay:5.2f} s: "
                  f"{'interrupted' if result['interrupted'] else 'in Python start-up' if result['python_startup'] else 'had finished'}{'; ' + ', '.join(bad) if bad else ''}",
                  flush=True)
    print(f"trials {args.trials} (interrupted mid-run: {totals['interrupted']}): hangs {totals['hang']}, "
          f"tracebacks {totals['traceback']}, extra lines {totals['extra_lines']}, wrong status {totals['wrong_status']}, "
          f"temporaries left {totals['temporaries']}, resumed folders unequal {totals['unequal']}; "
          f"in Python's own start-up, before the script runs: {totals['python_startup']}")
    sys.exit(1 if any(totals[k] for k in totals if k not in ("interrupted", "python_startup")) else 0)


if __name__ == "__main__":
    main()
