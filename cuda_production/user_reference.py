"""Expected values for a user's kernel: its .py run by Warp on the CPU, with Warp's bounds checks on.

Only with `translate --reference`: this executes the user's code (the sample's .py, which holds the
kernel and what it depends on, imported under its own module name, never as `__main__`). Each kernel
gets exactly the inputs its .cu builds (`reference.make_input`). Warp runs in debug mode, where an
out-of-range array access stops the process with an assertion, so kernels run in a child process;
after such a stop a second run of an instrumented copy of the kernel (a bounds test before every
array access, recording the first failure) names the array and the line.
"""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from synthesis.spec import ArgSpec

KERNEL_TIMEOUT_S = 300.0  # per kernel, Warp's compilation of its module included
REPORT = "oob_report__"


@dataclass
class ReferenceJob:
    name: str
    module_path: str  # the sample's .py
    args: list[ArgSpec]
    launch: tuple[int, ...]
    seed: int
    line_offset: int = 0  # user's line = line in module_path + line_offset
    source_file: str = ""
    block_dim: int = 0  # threads per block of a kernel using tiles (0: none), run with Warp's CPU blocks
    tiled: bool = False  # launched with wp.launch_tiled (block_dim appended to the launch)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["args"] = [a.to_dict() for a in self.args]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "ReferenceJob":
        return cls(**{**d, "args": [ArgSpec.from_dict(a) for a in d["args"]], "launch": tuple(d["launch"])})


@dataclass
class ReferenceResult:
    expected: bytes | None = None
    refusal: str | None = None  # one line
    raised: bool = False  # Warp (or the user's code) raised: worth retrying the kernel in a module of its own


# ---- parent side ---------------------------------------------------------------------------------

def run_references(jobs: list[ReferenceJob], workdir: Path, timeout: float = KERNEL_TIMEOUT_S) -> dict[str, ReferenceResult]:
    """Warp's values of every written array for each job; a refusal line where it cannot give them."""
    # The child runs in `workdir`: every path it is given is absolute (an output folder given as a
    # relative path would otherwise be looked for inside itself).
    workdir = Path(workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    jobs = [replace(j, module_path=str(Path(j.module_path).resolve())) for j in jobs]
    results: dict[str, ReferenceResult] = {}
    remaining = list(jobs)
    while remaining:
        crashed, detail = _run_child("run", remaining, workdir, timeout)
        for job in remaining:
            bin_path, err_path = workdir / f"{job.name}.bin", workdir / f"{job.name}.err"
            if bin_path.exists():
                results[job.name] = ReferenceResult(expected=bin_path.read_bytes())
            elif err_path.exists():
                results[job.name] = ReferenceResult(refusal=err_path.read_text().strip(), raised=True)
        if crashed is not None:
            job = next(j for j in remaining if j.name == crashed)
            results[crashed] = ReferenceResult(refusal=_diagnose(job, workdir, timeout, detail))
        remaining = [j for j in remaining if j.name not in results]
        if crashed is None:  # the child finished without reporting some kernels: say so, never loop
            for job in remaining:
                results[job.name] = ReferenceResult(refusal=f"{job.source_file}: {job.name}: Warp reference run "
                                                            f"ended without a result ({detail})")
            remaining = []
    return results


def _run_child(mode: str, jobs: list[ReferenceJob], workdir: Path, timeout: float) -> tuple[str | None, str]:
    """Run jobs in a child; (name of the job it died in, or None; a one-line reason)."""
    spec = workdir / f"{mode}_jobs.json"
    spec.write_text(json.dumps([j.to_dict() for j in jobs]))
    progress = workdir / f"{mode}_progress"
    progress.write_text("")
    root = str(Path(__file__).resolve().parents[1])
    code = (f"import sys; sys.path.insert(0, {root!r}); "
            f"from cuda_production.user_reference import child_main; child_main({mode!r}, {str(spec)!r})")
    stderr_path = workdir / f"{mode}_stderr.txt"
    with open(stderr_path, "wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=stderr, cwd=workdir)
        current, started = "", time.monotonic()
        try:
            while proc.poll() is None:
                time.sleep(0.05)
                now = progress.read_text()
                if now != current:
                    current, started = now, time.monotonic()
                elif time.monotonic() - started > timeout:
                    proc.kill()
                    proc.wait()
                    return (current or jobs[0].name), f"timed out after {timeout:.0f} s"
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    current = progress.read_text()
    if proc.returncode == 0:
        return None, "finished"
    tail = stderr_path.read_text(errors="replace").strip().splitlines()
    assertion = next((line.strip() for line in tail if line.startswith("Assertion failed")), None)
    reason = assertion or (tail[-1].strip() if tail else f"exit status {proc.returncode}")
    return (current or jobs[0].name), reason


def _diagnose(job: ReferenceJob, workdir: Path, timeout: float, detail: str) -> str:
    """The refusal line for a kernel whose Warp run stopped: the out-of-range access if found."""
    if detail.startswith("timed out"):
        return f"{job.source_file}: {job.name}: Warp did not finish on the CPU ({detail}); declare smaller inputs with --inputs"
    report_path = workdir / f"{job.name}.oob"
    crashed, _ = _run_child("diagnose", [job], workdir, timeout)
    if crashed is None and report_path.exists():
        line, arg, dim, value = json.loads(report_path.read_text())
        if line:
            array = job.args[arg]
            return (f"{job.source_file}:{line + job.line_offset}: out-of-range access: index {value} into "
                    f"'{array.name}' (dimension {dim}, extent {array.shape[dim]}) on the made-up inputs of "
                    f"'{job.name}'; declare its inputs with --inputs or a '# translate:' comment (see --help)")
    if detail.startswith("Assertion failed"):
        return (f"{job.source_file}: {job.name}: out-of-range array access in Warp's debug run ({detail}); "
                f"declare its inputs with --inputs or a '# translate:' comment (see --help)")
    return f"{job.source_file}: {job.name}: Warp's CPU run stopped ({detail})"


# ---- instrumentation ------------------------------------------------------------------------------

def instrument(source: str, kernel: str, arrays: dict[str, tuple[int, int]]) -> str:
    """`source` with a bounds test before every access to the kernel's arrays (name -> (position, ndim)).
    The first failing access stores (line, position, dimension, index) in the extra array `oob_report__`
    and ends the thread."""
    tree = ast.parse(source)
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == kernel)
    fn.args.args.append(ast.arg(REPORT, ast.parse("wp.array(dtype=wp.int32)", mode="eval").body))

    def accesses(node: ast.AST) -> list[tuple[str, int, ast.AST]]:
        found = []
        for n in ast.walk(node):
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in arrays:
                indices = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
                found.extend((n.value.id, d, i) for d, i in enumerate(indices[: arrays[n.value.id][1]]))
            elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr.startswith("atomic_")
                  and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id in arrays):
                ndim = arrays[n.args[0].id][1]
                found.extend((n.args[0].id, d, i) for d, i in enumerate(n.args[1: 1 + ndim]))
        return found[::-1]  # inner accesses (walked later) are tested first

    def checks(stmt: ast.stmt) -> list[ast.stmt]:
        if isinstance(stmt, (ast.If, ast.While)):
            heads = [stmt.test]
        elif isinstance(stmt, ast.For):
            heads = [stmt.iter]
        elif isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            heads = []
        else:
            heads = [stmt]
        out = []
        for head in heads:
            for array, dim, index in accesses(head):
                e = ast.unparse(index)
                position = arrays[array][0]
                out.extend(ast.parse(
                    f"if ({e}) < 0 or ({e}) >= {array}.shape[{dim}]:\n"
                    f"    if {REPORT}[0] == 0:\n"
                    f"        {REPORT}[0] = {stmt.lineno}\n"
                    f"        {REPORT}[1] = {position}\n"
                    f"        {REPORT}[2] = {dim}\n"
                    f"        {REPORT}[3] = ({e})\n"
                    f"    return\n").body)
        return out

    def rewrite(body: list[ast.stmt]) -> list[ast.stmt]:
        new = []
        for stmt in body:
            new.extend(checks(stmt))
            for attr in ("body", "orelse"):
                if isinstance(getattr(stmt, attr, None), list) and not isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
                    setattr(stmt, attr, rewrite(getattr(stmt, attr)))
            new.append(stmt)
        return new

    fn.body = rewrite(fn.body)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


# ---- child side -----------------------------------------------------------------------------------

def _launch_inputs(job: ReferenceJob, module):
    """Warp values for the job's arguments, built as the .cu builds them (reference.warp_arguments:
    hash positions over the flattened list; a hash grid, mesh or BVH from its description), and the
    written arrays in that order (expected.bin's layout)."""
    from cuda_production.reference import warp_arguments

    return warp_arguments(list(job.args), module, job.seed, "cpu")


def _import(path: Path, module_name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".strip()


def _launch(wp, job: ReferenceJob, kernel, inputs: list) -> None:
    """The launch the .cu makes: a kernel using tiles runs with its block_dim on Warp's CPU blocks
    (`wp.config.enable_cpu_blocks`; without it Warp's CPU blocks are one thread wide)."""
    if not job.block_dim:
        wp.launch(kernel, dim=job.launch, inputs=inputs, device="cpu")
        return
    wp.config.enable_cpu_blocks = True
    launch = wp.launch_tiled if job.tiled else wp.launch
    launch(kernel, dim=list(job.launch), inputs=inputs, device="cpu", block_dim=job.block_dim)


def child_main(mode: str, spec_path: str) -> None:
    import warp as wp

    from cuda_production.reference import cache_safe_module_name

    wp.config.mode = "debug"  # bounds-checked array access: an out-of-range index stops the process
    wp.config.quiet = True
    workdir = Path(spec_path).parent
    jobs = [ReferenceJob.from_dict(d) for d in json.loads(Path(spec_path).read_text())]
    wp.init()
    progress = workdir / f"{mode}_progress"
    modules: dict[str, object] = {}  # kernels sharing a file share its module: one Warp build
    for k, job in enumerate(jobs):
        progress.write_text(job.name)
        try:
            path = Path(job.module_path)
            if mode == "diagnose":
                positions = {a.name: (i, a.ndim) for i, a in enumerate(job.args) if a.is_array}
                path = workdir / f"diagnose_{k}_{job.name}.py"
                path.write_text(instrument(Path(job.module_path).read_text(), job.name, positions))
            if str(path) not in modules:
                # the file's digest in the name: an edited file never runs an older build (cache_safe_module_name)
                name = cache_safe_module_name(f"translate_reference_{mode}_{len(modules)}_{path.stem}",
                                              path.read_text(encoding="utf-8", errors="replace"))
                modules[str(path)] = _import(path, name)
            module = modules[str(path)]
            kernel = getattr(module, job.name)
            inputs, written = _launch_inputs(job, module)
            if mode == "diagnose":
                report = wp.zeros(4, dtype=wp.int32, device="cpu")
                _launch(wp, job, kernel, [*inputs, report])
                wp.synchronize_device("cpu")
                (workdir / f"{job.name}.oob").write_text(json.dumps([int(x) for x in report.numpy()]))
                continue
            _launch(wp, job, kernel, inputs)
            wp.synchronize_device("cpu")
            data = b"".join(a.numpy().tobytes() for a in written)
            tmp = workdir / f"{job.name}.bin.tmp"
            tmp.write_bytes(data)
            os.replace(tmp, workdir / f"{job.name}.bin")
        except Exception as exc:  # noqa: BLE001 - the user's code may raise anything: one line per kernel
            (workdir / f"{job.name}.err").write_text(
                f"{job.source_file}: {job.name}: Warp could not run the kernel on the CPU ({_one_line(exc)})\n")
