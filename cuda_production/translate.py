"""`python -m cuda_production.translate FILE.py -o OUTDIR`: a user's Warp kernels -> CUDA samples.

The file is parsed, never imported or executed (unless `--reference` asks for it). Each @wp.kernel
becomes OUTDIR/<kernel>/ with the .cu, a Makefile, metadata.json, the kernel's own .py (the kernel
and only what it depends on) and a stamp file marking the folder as this tool's. A kernel that
cannot be translated gets one line on stderr, `file:line:col: unsupported: ...`, nothing is
written for it, and the exit status is 2. Everything is written under a temporary folder inside
OUTDIR and renamed into place; the temporary folder is removed on every exit, Ctrl-C included.
"""
from __future__ import annotations

import ast
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

import click

from cuda_production.kernel_instances import free_names, is_overload_statement, nested_kernel_defs
from cuda_production.sample import write_sample
from cuda_production.templates import Tolerance
from cuda_production.tiles import LaunchCall, launch_calls, tile_launches
from cuda_production.translator import (
    ModuleInfo, TranslatedKernel, TranslationError, _constant_value, _fold, parse_module, translate_module,
)
from cuda_production.user_inputs import (
    MAX_ELEMENTS, InputsError, KernelDeclaration, comment_declaration, file_launches, infer_inputs, load_inputs_file,
    module_int_constants,
)
from cuda_production.user_source import (
    MAX_NESTING, MAX_SOURCE_BYTES, SourceError, SourceIndex, decode_source, decorated_start, nesting_depth,
    parse_source,
)
from synthesis.warp_hazards import global_first_read_in_branch

INPUT_SEED = 12345
STAMP = ".cuda_production_translate.json"  # marks a folder this tool wrote, listing the files it wrote
BUILD_PRODUCTS = ("{name}", "{name}.ptx")  # what `make` adds to a sample folder (replaced with it)
TRANSLATE_STACK_BYTES = 512 * 1024 * 1024  # the translator recurses once per AST level: MAX_NESTING fits


@dataclass
class Report:
    """What happened to each kernel, for the exit status."""

    refused: int = 0
    written: list[str] = field(default_factory=list)
    not_equal: int = 0

    def refuse(self, line: str) -> None:
        click.echo(line, err=True)
        self.refused += 1

    @property
    def status(self) -> int:
        return 2 if self.refused else (1 if self.not_equal else 0)


# Names the .cu cannot use for the user's own identifiers: C++ keywords, CUDA's built-in variables and
# vector types, the sample's own types, and `main`. The translator renames what it can; this check on
# its output refuses whatever would still reach nvcc as a clash (never exit 0 with a .cu nvcc rejects).
CUDA_RESERVED = frozenset("""
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class
compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline
int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public register
reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template
this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t
while xor xor_eq threadIdx blockIdx blockDim gridDim warpSize dim3 size_t uint32_t int32_t int64_t uint64_t
float2 float3 float4 int2 int3 int4 mat22 mat33 mat44 quat transform main std NULL
""".split())
_DECLARED = re.compile(r"^\s*(?:const\s+)?[A-Za-z_]\w*\s*\*?\s+([A-Za-z_]\w*)\s*(?:=|;)", re.M)
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_SIGNATURE = re.compile(r"^(?:__global__|__device__)[^(]*?\b([A-Za-z_]\w*)\s*\(([^)]*)\)", re.M)


def cuda_name_clash(kernel: TranslatedKernel) -> str | None:
    """The first identifier of the translated code that nvcc would reject or misread, if any."""
    code = kernel.device_code + "\n" + kernel.kernel_code
    user_code = code[code.find("__global__"):] if not kernel.device_code else code
    declared = set(_DECLARED.findall(kernel.kernel_code))
    for fn, params in _SIGNATURE.findall(user_code):
        declared.add(fn)
        declared |= {p.split()[-1].lstrip("*") for p in params.split(",") if p.strip()}
    for name in sorted(declared & CUDA_RESERVED):
        return f"name '{name}' is reserved in CUDA C++"
    called = set(_CALLED.findall(kernel.kernel_code)) - {kernel.name}
    for name in sorted(set(_DECLARED.findall(kernel.kernel_code)) & called):
        return f"local '{name}' hides the function {name}() it calls in CUDA C++"
    arrays = {p.cname for p in kernel.params if p.kind == "array"}
    for p in kernel.params:
        if p.kind == "scalar" and any(p.cname == f"{prefix}{a}" for a in arrays for prefix in ("h_", "d_", "bytes_")):
            return f"parameter '{p.name}' clashes with the host code's name for array '{p.cname.split('_', 1)[1]}'"
    return None


def _translate_deep(source: str, filename: str, declared_types: dict[str, dict[str, str]],
                    declared_captures: dict[str, dict[str, object]], block_dims: dict[str, int] | None = None,
                    launches: dict | None = None) -> tuple[dict, ModuleInfo]:
    """The parsed module and its kernels' translations, on a thread with a stack deep enough for MAX_NESTING levels.
    `launches`: how the whole file launches its kernels (the source given here is only the kernels' own code)."""
    result: dict = {}

    def work() -> None:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 40 * MAX_NESTING))
        try:
            info = parse_module(source, filename, declared_types, declared_captures)
            info.block_dims = dict(block_dims or {})
            info.launches = {**info.launches, **(launches or {})}
            result["value"] = (translate_module(info), info)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            result["error"] = exc
        finally:
            sys.setrecursionlimit(old)

    previous = threading.stack_size(TRANSLATE_STACK_BYTES)
    try:
        worker = threading.Thread(target=work, name="translate", daemon=True)  # Ctrl-C need not wait for it
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


def _destination_problem(folder: Path, force: bool) -> str | None:
    """Why `folder` must not be (re)placed, or None if it is free or a folder of ours that --force replaces."""
    if not folder.exists() and not folder.is_symlink():
        return None
    if folder.is_symlink() or not folder.is_dir():
        return f"{folder}: exists and is not a folder; not touched"
    stamp = folder / STAMP
    try:
        written = set(json.loads(stamp.read_text())["files"])
    except (OSError, ValueError, KeyError, TypeError):
        return f"{folder}: exists and was not written by translate; not touched (choose another -o)"
    if not force:
        return f"{folder}: exists (written by an earlier translate); --force replaces it"
    name = folder.name
    allowed = written | {STAMP} | {p.format(name=name) for p in BUILD_PRODUCTS}
    foreign = sorted(p.name for p in folder.iterdir() if p.name not in allowed)
    if foreign:
        return f"{folder}: holds files translate did not write ({', '.join(foreign[:3])}); not replaced"
    return None


def _stamp(folder: Path, kernel: str, source_file: Path) -> None:
    files = sorted(p.name for p in folder.iterdir())
    (folder / STAMP).write_text(json.dumps({"written_by": "cuda_production.translate", "kernel": kernel,
                                            "source_file": str(source_file), "files": files}, indent=2) + "\n")


def _commit(staged: Path, folder: Path, trash: Path) -> None:
    """Move a finished folder into place; an old folder of ours goes to `trash` first (removed with it)."""
    if folder.exists():
        os.replace(folder, trash / folder.name)
    os.replace(staged, folder)


def _what_to_translate(index: SourceIndex, kernels: list[str], filename: str,
                       tree: ast.Module) -> tuple[dict[str, str], str]:
    """The source the translator needs: the kernels and what they use, every other line blanked (line
    numbers kept), so a large file's other code costs nothing. Kernels defined inside a function or
    block bring the whole top-level statement around them, generic kernels their wp.overload
    statements. Kernels using a function nested deeper than MAX_NESTING are left out too, each with
    its refusal line."""
    deep: dict[int, str] = {}
    for k, stmt in enumerate(index.statements):
        # Every AST level takes at least one character: a short function cannot be too deep.
        if isinstance(stmt, ast.FunctionDef) and index.span_chars(k) + 16 > MAX_NESTING:
            depth = nesting_depth(stmt)
            if depth > MAX_NESTING:
                deep[k] = (f"{filename}:{stmt.lineno}:{stmt.col_offset + 1}: unsupported: '{stmt.name}' is nested "
                           f"{depth} levels deep (limit {MAX_NESTING})")
    refused, keep = {}, set()
    for name in kernels:
        needs = index.closure(name)
        hit = sorted(needs & set(deep))
        if hit:
            refused[name] = deep[hit[0]]
        else:
            keep |= needs
    for fn, _ in nested_kernel_defs(tree, _is_kernel):
        needs = index.closure_of([index.statement_at(fn.lineno)])
        hit = sorted(needs & set(deep))
        if hit:
            refused[fn.name] = deep[hit[0]]
        else:
            keep |= needs
    keep |= index.closure_of([k for k, stmt in enumerate(index.statements) if is_overload_statement(stmt)])
    return refused, index.only(keep)


def _python_text(index: SourceIndex, info, name: str) -> tuple[str, str | None]:
    """The kernel's own Python (without `import warp as wp`): the kernel and what it depends on; and why
    it cannot be written that way (None if it can). A nested kernel or generic instance is written as a
    module-level kernel after the statements it needs, its captured values as module-level names."""
    instance = info.instances.get(name)
    if instance is None:
        return index.kernel_source(name), None
    own, _ = instance.python_text(index.lines)
    captured = set(instance.constants) | set(instance.type_aliases)
    deps = index.needed_by(set(free_names(instance.node)) - captured)
    deps.discard(index.statement_at(instance.original.lineno))
    shadowed = sorted(captured & set().union(set(), *(index.reads(k) for k in deps)))
    if shadowed:
        return "", (f"kernel '{name}' captures '{shadowed[0]}' while the module-level code it uses reads the "
                    f"module's own '{shadowed[0]}' (rename one of them)")
    head = index.statements_source(deps)
    return (head + "\n\n" + own) if head else own, None


def _def_line(text: str, name: str) -> int:
    """Line of `def name` in the module text."""
    return next(n.lineno for n in ast.parse(text).body if isinstance(n, ast.FunctionDef) and n.name == name)


def stand_ins(args) -> str:
    """What the .cu builds for each hash grid, mesh or BVH argument (the user's code builds the real one),
    for the sample's description: "" when there is none."""
    from synthesis.mesh_geometry import rock_triangle_count

    said = []
    for a in args:
        if a.role == "hash_grid":
            said.append(f"{a.name}: a stand-in hash grid of {'x'.join(map(str, a.shape))} cells {a.value:g} wide over {a.points}")
        elif a.role == "bvh":
            said.append(f"{a.name}: a stand-in BVH over boxes of half width {a.value:g} around {a.points}")
        elif a.role == "mesh":
            said.append(f"{a.name}: a stand-in rock mesh of {rock_triangle_count(a.shape[0])} triangles, "
                        f"{a.shape[0]} cells {a.value:g} wide")
    return f" ({'; '.join(said)})" if said else ""


def translate_file(path: Path, out: Path, inputs_file: Path | None = None, force: bool = False,
                   reference: bool = False, check: bool = False) -> int:
    report = Report()
    try:
        data = path.read_bytes()
    except OSError as exc:
        click.echo(f"{path}: error: cannot read: {exc.strerror}", err=True)
        return 2
    try:
        source = decode_source(data, str(path))
        tree = parse_source(source, str(path))
        declarations = load_inputs_file(inputs_file) if inputs_file else {}
    except (SourceError, InputsError) as exc:
        click.echo(str(exc), err=True)
        return 2
    index = SourceIndex.build(source, tree)
    top_kernels = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and _is_kernel(n)}
    declared_types = {name: decl.types for name, decl in declarations.items() if decl.types}
    declared_captures = {name: decl.captures for name, decl in declarations.items() if decl.captures}
    refused_deep, translatable = _what_to_translate(index, list(top_kernels), str(path), tree)
    try:
        calls = file_launch_calls(tree)  # folding may recurse as deep as the file nests
        results, info = _translate_deep(translatable, str(path), declared_types, declared_captures,
                                         _declared_block_dims(index, top_kernels, declarations, path),
                                         tile_launches(calls))
    except TranslationError as exc:
        click.echo(str(exc), err=True)
        return 2
    except (RecursionError, MemoryError):
        click.echo(f"{path}: error: too large or too deeply nested to translate (limit {MAX_NESTING} levels)", err=True)
        return 2
    if not results and not refused_deep:
        click.echo(f"{path}: error: no @wp.kernel found", err=True)
        return 2
    known = set(results) | set(refused_deep) | {i.original.name for i in info.instances.values()} | set(top_kernels)
    for name, decl in declarations.items():
        if name not in known:
            click.echo(f"{decl.origin}: error: no @wp.kernel named '{name}' in {path}", err=True)
            return 2
    kernel_nodes = {**top_kernels, **info.kernels}
    lines = {**{n: top_kernels[n].lineno for n in refused_deep if n in top_kernels},
             **{n: (r.line if isinstance(r, TranslationError) else kernel_nodes[n].lineno) for n, r in results.items()}}

    # Inputs and destinations first: nothing is written for a kernel refused here.
    constants = module_int_constants(tree)
    launches = file_launches(calls)
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and not _is_kernel(n)}
    ready: list[tuple[TranslatedKernel, tuple[int, ...], list, str, str]] = []
    for name in sorted({*results, *refused_deep}, key=lambda n: (lines.get(n, 0), n)):
        if name in refused_deep:
            report.refuse(refused_deep[name])
            continue
        result = results[name]
        if isinstance(result, TranslationError):
            report.refuse(str(result))
            continue
        fn = kernel_nodes[name]
        clash = cuda_name_clash(result)
        if clash:
            report.refuse(f"{path}:{fn.lineno}:{fn.col_offset + 1}: unsupported: in '{name}': {clash} (rename it)")
            continue
        python_source, why_not = _python_text(index, info, name)
        if why_not:
            report.refuse(f"{path}:{fn.lineno}:{fn.col_offset + 1}: unsupported: {why_not}")
            continue
        instance = info.instances.get(name)
        try:
            original = instance.original.name if instance else name
            file_decl = declarations.get(name) or declarations.get(original)
            declared = _merge(comment_declaration(index.lines, fn, str(path)), file_decl)
            launch, args = infer_inputs(result, fn, declared, {**constants, **(instance.int_constants() if instance else {})},
                                        funcs, launches.get(name) or launches.get(original))
        except InputsError as exc:
            report.refuse(str(exc))
            continue
        problem = _destination_problem(out / name, force)
        if problem:
            report.refuse(problem)
            continue
        origin = declared.origin if declared else "inferred from the kernel's use of its arguments"
        if instance is not None:
            origin += f"; kernel {instance.origin}"
        ready.append((result, launch, args, origin, python_source))
    if not ready:
        return report.status

    created_out = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        click.echo(f"{out}: error: cannot create the output folder: {exc.strerror or exc}", err=True)
        return 2
    staging = Path(tempfile.mkdtemp(prefix=".translate-", dir=out))
    try:
        _write_all(path, source, index, kernel_nodes, ready, out, staging, reference, check, report, info.instances)
    except OSError as exc:
        click.echo(f"{out}: error: cannot write: {exc.strerror or exc}", err=True)
        report.refused += 1
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if created_out and not any(out.iterdir()):
            out.rmdir()
    return report.status


def _write_all(path: Path, source: str, index: SourceIndex, kernel_nodes: dict, ready: list, out: Path,
               staging: Path, reference: bool, check: bool, report: Report, instances: dict) -> None:
    python_sources = {k.name: text for k, *_, text in ready}
    expected: dict[str, bytes] = {}
    if reference:
        from cuda_production.user_reference import ReferenceJob, run_references

        # One module for the module-level kernels (Warp compiles a module at a time): the union of their
        # own code. A nested kernel or generic instance runs from its own .py (captured names may differ).
        module_path = staging / "reference" / f"{path.stem}_kernels.py"
        module_path.parent.mkdir()
        shared = [k.name for k, *_ in ready if k.name not in instances]
        module_text = "import warp as wp\n\n\n" + index.kernel_source(*shared)
        if shared:
            module_path.write_text(module_text)
        defs = {n.name: n.lineno for n in ast.parse(module_text).body if isinstance(n, ast.FunctionDef)}
        jobs = []
        for k, launch, args, _, text in ready:
            job_path, def_line = module_path, defs.get(k.name)
            if k.name in instances:
                job_path = module_path.with_name(f"{k.name}.py")
                job_path.write_text("import warp as wp\n\n\n" + text)
                def_line = _def_line("import warp as wp\n\n\n" + text, k.name)
            jobs.append(ReferenceJob(k.name, str(job_path), args, launch, INPUT_SEED,
                                     kernel_nodes[k.name].lineno - def_line, str(path),
                                     k.block_dim, k.tiled))
        results = run_references(jobs, staging / "runs")
        if len(jobs) > 1:  # a kernel Warp refused may have failed its whole module: retry those alone
            alone = []
            for job in jobs:
                if results[job.name].raised and job.name not in instances:
                    own = module_path.with_name(f"{job.name}.py")
                    own_text = "import warp as wp\n\n\n" + index.kernel_source(job.name)
                    own.write_text(own_text)
                    own_def = next(n.lineno for n in ast.parse(own_text).body
                                   if isinstance(n, ast.FunctionDef) and n.name == job.name)
                    alone.append(replace(job, module_path=str(own),
                                         line_offset=kernel_nodes[job.name].lineno - own_def))
            if alone:
                results.update(run_references(alone, staging / "runs_alone"))
        for name, result in results.items():
            if result.expected is not None:
                expected[name] = result.expected
            else:
                report.refuse(result.refusal)
    trash = staging / "replaced"
    trash.mkdir()
    for kernel, launch, args, origin, _ in ready:
        name = kernel.name
        if reference and name not in expected:
            continue
        try:
            staged = write_sample(staging / name, kernel, python_sources[name], args, launch, INPUT_SEED, Tolerance(),
                                  expected.get(name),
                                  {"description": f"Kernel {name} from {path.name}{stand_ins(args)}", "source_file": str(path),
                                   "inputs": origin})
        except OSError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bug of ours must still be one line and no output
            report.refuse(f"{path}:{kernel_nodes[name].lineno}: error: '{name}': internal error while writing "
                          f"the sample ({type(exc).__name__}: {exc}); nothing written")
            shutil.rmtree(staging / name, ignore_errors=True)
            shutil.rmtree(staging / f".{name}.tmp", ignore_errors=True)
            continue
        _stamp(staged, name, path)
        _commit(staged, out / name, trash)
        report.written.append(name)
        line = f"{name}: {out / name}" + (" (expected.bin from Warp on the CPU)" if name in expected else "")
        if check and name in expected:
            from cuda_production.host_check import run_on_host

            run = run_on_host(out / name)
            if run.passed:
                line += ": equal to Warp (host emulation)"
            elif not run.compiled:
                report.not_equal += 1
                why = next((l.strip() for l in run.output.splitlines() if "error" in l), "no message")
                line += f": NOT checked: the host emulation (g++) did not compile it: {why}"
            else:
                report.not_equal += 1
                why = next((l for l in run.output.splitlines() if l.startswith(("mismatch", "FAIL"))),
                           (run.output.strip().splitlines() or ["no output"])[-1])
                line += f": NOT equal to Warp (host emulation): {why}"
                hazard = global_first_read_in_branch(python_sources[name])
                if hazard:
                    line += (f" (Warp 1.19 miscompiles {hazard.split(': ')[1]}: a module-level name read first inside "
                             "a branch and again after it, NVIDIA/warp#1574; read it once before the branch)")
        click.echo(line)


def file_launch_calls(tree: ast.Module) -> list[LaunchCall]:
    """The file's launch calls, their values folded with its module constants (read before the translator
    sees only the kernels' own code)."""
    constants: dict = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = _constant_value(node.value, constants)
            if value is None:
                constants.pop(node.targets[0].id, None)
            else:
                constants[node.targets[0].id] = value
    return launch_calls(tree, lambda n: _fold(n, constants))


def _declared_block_dims(index: SourceIndex, kernel_nodes: dict, declarations: dict, path: Path) -> dict[str, int]:
    """block_dim per kernel from --inputs or a `# translate: block_dim=N` comment (a bad comment is
    reported with the kernel's other inputs, later)."""
    found = {}
    for name, fn in kernel_nodes.items():
        try:
            declared = _merge(comment_declaration(index.lines, fn, str(path)), declarations.get(name))
        except InputsError:
            continue
        if declared is not None and declared.block_dim:
            found[name] = declared.block_dim
    return found


def _merge(comment: KernelDeclaration | None, file: KernelDeclaration | None) -> KernelDeclaration | None:
    """A declaration from --inputs overrides the comment block's, field by field."""
    if comment is None or file is None:
        return comment or file
    args = {n: dict(f) for n, f in comment.args.items()}
    for n, f in file.args.items():
        args.setdefault(n, {}).update(f)
    return KernelDeclaration(f"{file.origin} (over {comment.origin})", file.dim or comment.dim, args,
                             {**comment.types, **file.types}, {**comment.captures, **file.captures},
                             file.block_dim or comment.block_dim)


def _is_kernel(fn: ast.FunctionDef) -> bool:
    for dec in fn.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "wp" \
                and target.attr == "kernel":
            return True
    return False


HELP = f"""Translate every @wp.kernel in FILE into OUTPUT/<kernel>/: <kernel>.cu (kernel and a host main
that builds inputs, runs, checks and times it), Makefile, metadata.json and <kernel>.py (the kernel
and only the helpers, constants, structs and imports it uses).

\b
FILE is parsed, never imported or executed, unless --reference is given.
Exit status: 0 all written (and equal with --check), 1 a --check found a difference,
2 something was refused (one line each on stderr; nothing is written for it).

\b
Safety: an existing OUTPUT/<kernel>/ that translate did not write (no stamp file) is never touched;
one it wrote is replaced only with --force (and only if it holds no other files).

\b
Limits: files up to {MAX_SOURCE_BYTES // (1024 * 1024)} MiB of UTF-8 (or PEP 263 encoded) Python;
functions nested up to {MAX_NESTING} AST levels (a {MAX_NESTING}-term sum); arrays and launches up to {MAX_ELEMENTS} values.

\b
Inputs: launch dims, array shapes, value ranges and roles (index arrays: which values are valid
indices) are inferred; declare them with comment lines directly above the kernel's decorator:
  # translate: dim=256
  # translate: idx role=index high=99
  # translate: points shape=100 low=-2 high=2
or with --inputs FILE, TOML (or JSON of the same structure), one entry per kernel:
  [gather]
  dim = [256]
  args.idx = {{role = "index", high = 99}}
  args.points = {{shape = [100], low = -2, high = 2}}
Fields: role (input, index, output, inout), shape, low, high, grid_bits (values on a grid
of 2**-grid_bits), value (by-value parameters; a list for vectors/matrices), bound.
A kernel using tiles also takes block_dim (threads per block) when the file's wp.launch_tiled /
wp.launch call does not give it as a constant: `block_dim = 128`, or `# translate: block_dim=128`.

\b
Generic kernels (a parameter typed Any, or wp.array(dtype=Any)) are translated once per
wp.overload(kernel, {{...}}) call or @wp.overload stub in FILE, as <kernel>_<types>/ when there
are several; without an overload, declare the types in --inputs (for an array, its element type):
  [axpy]
  types = {{x = "float32", alpha = "float32"}}
Kernels defined inside a function are translated when every local they capture is assigned a
literal, a constant or a type once before them, or declared (a factory's parameter, as the
factory would be called; a number or a type name):
  [gemm]
  captures = {{m = 32, n = 32, dtype = "float32"}}
A kernel name used twice in FILE becomes <enclosing function>_<kernel>/.
"""


@click.command(context_settings={"help_option_names": ["-h", "--help"]}, help=HELP)
@click.argument("file", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Folder for the samples.")
@click.option("--inputs", "inputs_file", type=click.Path(path_type=Path), default=None,
              help="JSON or TOML file declaring kernels' inputs (see above).")
@click.option("--force", is_flag=True, help="Replace OUTPUT/<kernel>/ folders an earlier translate wrote.")
@click.option("--reference", is_flag=True,
              help="Execute each kernel's .py with Warp on the CPU (bounds-checked) to write expected.bin, "
                   "so `make check` compares with Warp. This runs your code.")
@click.option("--check", is_flag=True, help="With --reference: also run each .cu on the CPU (g++ host emulation) "
                                            "and report whether it equals Warp.")
def main(file: Path, output: Path, inputs_file: Path | None, force: bool, reference: bool, check: bool) -> None:
    if check and not reference:
        click.echo("--check needs --reference (the values to compare with come from Warp)", err=True)
        sys.exit(2)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        status = translate_file(file, output, inputs_file, force, reference, check)
    except KeyboardInterrupt:
        click.echo("interrupted: nothing half-written was left behind", err=True)
        status = 130
    sys.exit(status)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    main()
