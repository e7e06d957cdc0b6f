"""The only module that touches Warp internals.

Warp's code generator is not public API: in 1.10 `warp.context` moved to `warp._src.context`. Every
internal name the project uses is looked up here, once, with a clear error naming the Warp version
when it is missing.
"""
from __future__ import annotations

import ast
import contextlib
import importlib
import inspect
import os
import re
import sys
import tempfile
import textwrap
import types
from typing import Any

os.environ.setdefault("WARP_QUIET", "1")
import warp as wp  # noqa: E402

WARP_VERSION: str = wp.__version__


class WarpCompatError(RuntimeError):
    pass


def _internal(attr: str) -> Any:
    for module_name in ("warp._src.context", "warp.context"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if hasattr(module, attr):
            return getattr(module, attr)
    raise WarpCompatError(
        f"warp-lang {WARP_VERSION}: internal '{attr}' not found in warp._src.context or warp.context; "
        "this project supports warp-lang 1.10 to 1.x (tested with 1.19)"
    )


_initialised = False

# What Warp's native code prints while starting with no CUDA device in sight (no driver on the
# machine, or none visible): expected for codegen and the CPU backend, so not passed on.
_EXPECTED_WITHOUT_GPU = ("Warp CUDA warning: Could not find or load the NVIDIA CUDA driver",
                         "Warp CUDA error 100", "Warp CUDA error: Failed to get")


def init_warp(gpu: bool = False) -> None:
    """Initialise Warp once per process, quietly; works without a GPU or CUDA driver.

    Code generation and Warp's CPU backend never touch a GPU, so unless `gpu` is asked for, the CUDA
    driver starts with no device visible (CUDA_VISIBLE_DEVICES="", how Warp's users keep a process off
    the GPU): Warp otherwise creates a context on every visible device when it starts, which costs a
    pipeline worker about 0.5 s on an H100 machine and claims GPU memory for nothing. The driver reads
    the variable once, at its start, so the process's environment is restored right after (nvcc and
    other children see the user's). A process where Warp is already running is left as it is.
    """
    global _initialised
    if _initialised:
        return
    wp.config.quiet = True
    if hasattr(wp, "LOG_WARNING"):
        wp.config.log_level = wp.LOG_WARNING  # no start-up banner on stdout
    if gpu or _internal("runtime") is not None:
        wp.init()
    else:
        previous = os.environ.get("CUDA_VISIBLE_DEVICES")
        os.environ["CUDA_VISIBLE_DEVICES"] = ""
        try:
            with _native_stderr_filtered(_EXPECTED_WITHOUT_GPU):
                wp.init()
        finally:
            if previous is None:
                del os.environ["CUDA_VISIBLE_DEVICES"]
            else:
                os.environ["CUDA_VISIBLE_DEVICES"] = previous
    memoize_overload_resolution()
    _initialised = True


# Entries kept before the memo starts afresh: a process that builds many kernels with structs of
# their own (each a new class, each new keys) would otherwise hold every one of them.
OVERLOAD_MEMO_LIMIT = 4096


def _type_key(arg_type: Any) -> Any:
    """What Warp's overload matching reads of an argument type, as a dict key; None when it is not
    known to be only that. Scalars, vectors, matrices, quaternions, transforms and structs are
    classes, matched by identity (`types_equal_generic`); an array type matches by its concrete array
    class and dtype (`func_match_args`), its ndim kept in the key for good measure."""
    if isinstance(arg_type, type):
        return arg_type
    if type(arg_type).__name__ in ("array", "_ArrayAnnotation") and isinstance(getattr(arg_type, "dtype", None), type):
        return (type(arg_type), arg_type.dtype, getattr(arg_type, "ndim", None))
    return None


def memoize_overload_resolution() -> None:
    """Remember which overload of a builtin each argument-type combination resolves to.

    Warp resolves every builtin call by trying each overload in turn (`inspect.Signature.bind` and a
    type comparison per overload): a third of the time it takes to build a kernel, spent again on
    every `a + b` of two floats. The answer depends only on the builtin and the argument types, so it
    is kept per process. The C++/CUDA Warp emits is unchanged, byte for byte
    (tests/extraction/test_warp_compat.py). Calls to user functions, and calls whose argument types
    are not plain classes or arrays (references, tiles, tuples, function arguments), are resolved as
    Warp does, every time. A Warp whose `Adjoint.resolve_func` differs from 1.x's is left alone."""
    try:
        adjoint = importlib.import_module("warp._src.codegen").Adjoint
    except ImportError:
        return
    resolve = getattr(adjoint, "resolve_func", None)
    if resolve is None or getattr(resolve, "_memoized", False):
        return
    if list(inspect.signature(resolve).parameters) != ["adj", "func", "arg_types", "kwarg_types", "min_outputs"]:
        return
    memo: dict = {}

    def resolve_func(adj, func, arg_types, kwarg_types, min_outputs):
        if not func.is_builtin():
            return resolve(adj, func, arg_types, kwarg_types, min_outputs)
        keys = [_type_key(t) for t in arg_types]
        named = [(k, _type_key(t)) for k, t in kwarg_types.items()]
        if None in keys or any(key is None for _, key in named):
            return resolve(adj, func, arg_types, kwarg_types, min_outputs)
        key = (func, tuple(keys), tuple(named), min_outputs)
        overload = memo.get(key)
        if overload is None:
            overload = resolve(adj, func, arg_types, kwarg_types, min_outputs)
            if len(memo) >= OVERLOAD_MEMO_LIMIT:
                memo.clear()
            memo[key] = overload
        return overload

    resolve_func._memoized = True
    resolve_func.memo = memo
    resolve_func.__wrapped__ = resolve
    adjoint.resolve_func = resolve_func


# A clang diagnostic of Warp's CPU compiler: its first line, then its source and caret lines and any
# notes (`in instantiation of ...`) with theirs; after the last one, "N warning(s) generated."
_DIAGNOSTIC = re.compile(r"^\S[^\n]*?:\d+:\d+: (warning|note|error): [^\n]*\n(?:[ \t][^\n]*\n)*", re.M)
_WARNING_COUNT = re.compile(r"^(\d+) warnings? generated\.\n", re.M)
# Warp types an integer literal int32 before converting it (`wp.uint32(0xFF0000FF)` becomes
# `const wp::int32 var_7 = 4278190335;`, then a uint32 of the same bits): its CPU compiler's warning
# about that says nothing wrong of the kernel (the bits are the literal's)
_LITERAL_CONVERSION = "changes value from"


def without_literal_conversion_warnings(text: str) -> str:
    """`text` (what Warp's CPU compiler wrote) less its -Wconstant-conversion warnings on int literals,
    their notes, and the warning count where no other warning is left."""
    dropped = 0
    kept: list[str] = []
    end = 0
    dropping = False
    for m in _DIAGNOSTIC.finditer(text):
        kept.append(text[end:m.start()])
        end = m.end()
        kind, block = m.group(1), m.group(0)
        if kind == "warning":
            dropping = "[-Wconstant-conversion]" in block.split("\n", 1)[0] and _LITERAL_CONVERSION in block
            dropped += dropping
        if not (dropping and kind != "error"):
            kept.append(block)
    kept.append(text[end:])
    rest = "".join(kept)

    def count(m: re.Match) -> str:
        left = int(m.group(1)) - dropped
        return "" if left <= 0 else f"{left} warning{'s' if left > 1 else ''} generated.\n"

    return _WARNING_COUNT.sub(count, rest) if dropped else rest


@contextlib.contextmanager
def cpu_compiler_quiet():
    """Warp's CPU compiler meanwhile without its warnings on int literals Warp converts itself."""
    with _native_stderr_filtered((), without_literal_conversion_warnings):
        yield


@contextlib.contextmanager
def _native_stderr_filtered(expected: tuple[str, ...], transform=None):
    """Hold what native code writes to file descriptor 2 meanwhile, then pass on every line that
    does not start with one of `expected` (after `transform` of the whole text, where given)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no stderr to filter (closed): nothing to hold back
        yield
        return
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            held.seek(0)
            text = held.read().decode(errors="replace")
            lines = (transform(text) if transform else text).splitlines(True)
            rest = "".join(line for line in lines if not line.startswith(expected))
            if rest:
                sys.stderr.write(rest)
                sys.stderr.flush()


def module_options(kernel: Any, enable_backward: bool, block_dim: int = 0) -> dict:
    options = dict(kernel.module.options)
    options["enable_backward"] = enable_backward
    if block_dim:  # a tiled kernel's code is that of its launch: Warp builds a module per launch block_dim
        options["block_dim"] = block_dim
    # Tile builtins (tile_matmul, ...) read the target architecture while lowering; None is what
    # Warp itself passes when it only needs the code (its generic tile path, no MathDx LTO).
    options.setdefault("output_arch", None)
    return options


def has_backward(kernel: Any) -> bool:
    """Whether Warp emits an adjoint for `kernel`: not for `@wp.kernel(enable_backward=False)`, nor for
    a kernel in a module set forward-only (`wp.set_module_options({"enable_backward": False})`, which
    Warp requires of a product of bfloat16 tiles)."""
    return all(getattr(owner, "options", {}).get("enable_backward", True) is not False
               for owner in (kernel, getattr(kernel, "module", None)))


def build_module(kernel: Any, enable_backward: bool, block_dim: int = 0) -> Any:
    """Build (type-check and lower) the Warp module holding `kernel`, once for all devices; for a
    kernel launched with `wp.launch_tiled(..., block_dim=B)`, built for B (0: Warp's default). The
    adjoint, where `enable_backward` asks for it, only where Warp emits one (`has_backward`: Warp
    refuses the adjoint of a bfloat16 tile product)."""
    builder_cls = _internal("ModuleBuilder")
    options = module_options(kernel, enable_backward and has_backward(kernel), block_dim)
    try:
        return builder_cls(kernel.module, options, target="cuda")
    except TypeError:  # releases whose ModuleBuilder has no `target` keyword
        return builder_cls(kernel.module, options)


def codegen(builder: Any, device: str) -> str:
    return builder.codegen(device)


def function_source(code: types.CodeType) -> tuple[str, int] | None:
    """The source Warp's `Adjoint` reads for the function compiled as `code` (the lines from its
    first decorator to its end, as Warp cuts them from `linecache`) and its first line; None when this
    Warp cannot take a function's tree from outside (`share_function_tree`), or cannot cut this one."""
    try:
        codegen_module = importlib.import_module("warp._src.codegen")
    except ImportError:
        return None
    cut = getattr(codegen_module.Adjoint, "_try_extract_function_source", None)
    if cut is None or not hasattr(codegen_module, "_store_shared_source") \
            or not hasattr(codegen_module, "_SharedFunctionSource"):
        return None
    found = cut(code)
    if found is None:
        return None
    text, first_line = found
    return textwrap.dedent(text), first_line  # as Warp does


def share_function_tree(code: types.CodeType, source: str, first_line: int, tree: ast.Module) -> None:
    """Make `tree` the parse Warp uses for the function compiled as `code`, as though Warp had parsed
    `source` (from `function_source`) itself: Warp keeps one parse per code object (1.19), which this
    fills in before the function is decorated. `tree` must equal `ast.parse(source)`, positions
    included; Warp only reads it."""
    codegen_module = importlib.import_module("warp._src.codegen")
    codegen_module._store_shared_source(code, codegen_module._SharedFunctionSource(source, first_line, tree))


def built_instance(kernel: Any) -> Any:
    """The kernel whose code a module build emits: `kernel` itself, or a generic kernel's one instance
    (`wp.overload(kernel, {...})` in its module: Warp builds each instance, never the generic kernel)."""
    if not getattr(kernel, "is_generic", False):
        return kernel
    overloads = list(getattr(kernel, "overloads", {}).values())
    if len(overloads) != 1:
        raise WarpCompatError(f"generic kernel {kernel.key} has {len(overloads)} overloads; one is extracted")
    return overloads[0]


def kernel_symbol(kernel: Any) -> str:
    """The mangled prefix Warp gives the kernel's functions: `<key>_<hash8>`."""
    return f"{kernel.get_mangled_name()}"


@contextlib.contextmanager
def function_ids_restored():
    """Warp numbers each user function by how many functions of its name the process has created
    (`huber_0`, then `huber_1` in the next module that defines a `huber`), and that number is in the
    C++/CUDA it emits. Kernels name their helpers as people do, so without this a kernel's code would
    depend on which kernels its worker loaded before it. The count is put back once a module's
    functions exist: every module's functions are numbered as in a fresh process."""
    counts = _internal("function_key_counts")
    saved = dict(counts)
    try:
        yield
    finally:
        counts.clear()
        counts.update(saved)


def forget_module(module_name: str) -> None:
    """Drop a generated module from Warp's registry so long runs do not grow without bound."""
    registry = _internal("user_modules")
    registry.pop(module_name, None)
