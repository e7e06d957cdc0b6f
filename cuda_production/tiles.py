"""Warp tiles -> shared-memory CUDA: the tile builtins, one table entry each, and how a kernel using
them is launched.

Warp's semantics (warp/_src/builtins.py, warp/native/tile*.h, `wp.launch_tiled` in context.py):

* A tile is a block-wide value of constant shape. Every thread of the block runs every statement of
  the kernel; tile operations are cooperative (every thread must reach them).
* `wp.launch_tiled(k, dim=D, block_dim=B)` is `wp.launch(k, dim=[*D, B], block_dim=B)`: block b runs
  launch index b of D, its B threads the trailing dimension. `wp.tid()` gives the leading indices
  (the launch index; one more name gets the thread's lane). A plain `wp.launch(k, dim=D, block_dim=B)`
  of a kernel using tiles forms blocks of B consecutive threads of the (row-major) launch.

The translation keeps that model: a tile value lives in a `__shared__` array of the block (flat,
row-major), written by the block's threads in a strided loop (`for (e = threadIdx.x; e < size;
e += TILE_THREADS)`, the block size a compile-time constant), or is lazy: element-wise operations,
maps, transposes, broadcasts and constants are a C expression for element e, computed inline by
whatever consumes the value element by element (a store, an atomic add, a sum's partial loop),
stored only where it must be (`TileTranslator`). Consecutive stores and atomic adds of tiles of one
shape are one run (`fusable_consumers`): a value they share is computed once per element into
registers, Warp's register tile (`register_consumer_loops`), or, past REGISTER_TILE_WORDS, in one
shared loop; a 2-D buffer read through a transpose gets rows cols + 1 elements apart, so a column
spans the 32 banks (`pad_transposed_buffers`).
A `__syncthreads()` stands only where one thread reads or writes an element another thread accessed
since the last barrier (element e belongs to thread e % TILE_THREADS in every strided loop and
register tile).
Reductions are a strided partial sum per thread and a tree over the block; `tile_matmul` is the
inner-product loop over shared memory.

A tile builtin outside the table, or a tile form the table does not cover, is refused with the
translator's one-line error; never translated into something else.
"""
from __future__ import annotations

import ast
import math
import re
import struct
from dataclasses import dataclass, field

from cuda_production.cuda_types import (
    CExpr, TileType, is_vec, VEC_LEN, VECD_LEN, COMPONENTS, ArrayType, LocalVectorType, P_ADD, P_MUL, P_UNARY,
    HALF_CONVERSIONS, float_literal,
)
from cuda_production.builtins import double_literal
from cuda_production.kernel_instances import generic_params

DEFAULT_TILED_BLOCK_DIM = 64  # wp.launch_tiled whose block_dim the translator cannot read
WARP_CUDA_BLOCK_DIM = 256  # what wp.launch uses on CUDA when no block_dim is given
SHARED_MEMORY_LIMIT = 48 * 1024  # static __shared__ bytes per block every CUDA GPU accepts
TILE_DTYPES = ("float32", "float64", "float16", "bfloat16", "int32", "uint32", "vec2", "vec3", "vec4", "vec2d")
INT_TILE_DTYPES = ("int32", "uint32")  # compared as integers (no fmax), their extremes written as integers
FFT_DTYPES = ("vec2", "vec2d")  # Warp's complex numbers: (real, imaginary) in vec2f / vec2d
# Warp's Float: a, b and out may differ; out's type accumulates (never bfloat16: Warp refuses that out)
MATMUL_DTYPES = ("float32", "float64", "float16", "bfloat16")
FRAGMENT_SHAPES = ((16, 16), (32, 8), (8, 32))  # wmma's m x n for 16-bit operands (k = 16), squarest first
LAUNCH_FUNCTIONS = ("launch", "launch_tiled")
# The C constant holding a tiled kernel's threads per block, defined once before the kernel: its
# launch and its cooperative loops use it, so a loop over a tile has a trip count known when compiling
# (unrolled) where the tile's size is a multiple of it.
TILE_THREADS = "TILE_THREADS"


@dataclass(frozen=True)
class TileLaunch:
    """How a kernel that uses tiles is launched, as far as the file says (parsed, never executed)."""

    tiled: bool  # wp.launch_tiled: one block per launch index
    block_dim: int
    origin: str  # where block_dim comes from, for the .cu's comment
    ndim: int | None = None  # the number of launch dimensions given to launch_tiled, if a literal says


def _is_wp(node: ast.AST, *names: str) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "wp" \
        and node.attr in names


@dataclass(frozen=True)
class LaunchCall:
    """One `wp.launch(kernel, ...)` or `wp.launch_tiled(kernel, ...)` of a user's file naming its kernel
    directly, as the file writes it (parsed, never executed)."""

    kernel: str
    tiled: bool  # wp.launch_tiled
    dim: tuple[int | None, ...] | None  # one entry per launch dimension, None where not a constant int; None: rank unknown
    block_dim: int | None  # block_dim= when a constant int
    block_dim_text: str | None  # block_dim= as written; None when the call gives none
    line: int


def _int_value(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def launch_calls(tree: ast.AST, fold) -> list[LaunchCall]:
    """Every `wp.launch(_tiled)(kernel, ...)` naming a kernel directly, in `ast.walk` order.

    `fold(node)` gives a node's constant value (literals, module constants, their arithmetic) or None."""
    calls = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _is_wp(node.func, *LAUNCH_FUNCTIONS)):
            continue
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        kernel = node.args[0] if node.args else keywords.get("kernel")
        if not isinstance(kernel, ast.Name):
            continue
        dim = node.args[1] if len(node.args) > 1 else keywords.get("dim")
        if isinstance(dim, (ast.List, ast.Tuple)):
            dims = tuple(_int_value(fold(item)) for item in dim.elts)
        else:
            value = _int_value(fold(dim)) if dim is not None else None
            dims = None if value is None else (value,)
        block = keywords.get("block_dim")
        calls.append(LaunchCall(kernel.id, node.func.attr == "launch_tiled", dims,
                                _int_value(fold(block)) if block is not None else None,
                                ast.unparse(block) if block is not None else None, node.lineno))
    return calls


def tile_launches(calls: list[LaunchCall]) -> dict[str, TileLaunch]:
    """Kernel name -> its launch mode, block_dim and launch rank. The first launch of a kernel with a
    readable block_dim wins."""
    found: dict[str, TileLaunch] = {}
    for call in calls:
        function = "wp.launch_tiled" if call.tiled else "wp.launch"
        ndim = len(call.dim) if call.dim is not None else None
        line = f"line {call.line}"
        if call.block_dim is not None and 1 <= call.block_dim <= 1024:
            launch = TileLaunch(call.tiled, call.block_dim, f"block_dim={call.block_dim_text} at the {function} call, {line}", ndim)
        elif call.block_dim_text is None and not call.tiled:
            launch = TileLaunch(False, WARP_CUDA_BLOCK_DIM, f"wp.launch without block_dim ({line}): Warp's CUDA default", ndim)
        else:
            launch = TileLaunch(call.tiled, DEFAULT_TILED_BLOCK_DIM, f"default: block_dim of the {function} call at "
                                f"{line} is not a constant (declare block_dim with --inputs)", ndim)
        known = found.get(call.kernel)
        if known is None or (known.origin.startswith("default") and not launch.origin.startswith("default")):
            found[call.kernel] = launch
    return found


def uses_tiles(fn: ast.FunctionDef) -> bool:
    return any(isinstance(n, ast.Call) and _is_wp(n.func, *TILE_BUILTINS) for n in ast.walk(fn))


@dataclass(frozen=True)
class TileBuiltin:
    key: str
    arg_names: tuple[str, ...]  # Warp's parameter names, in order
    required: int  # how many leading parameters have no default
    method: str  # the TileTranslator method emitting it


TILE_BUILTINS: dict[str, TileBuiltin] = {}


def add_tile_builtin(key: str, arg_names: tuple[str, ...], required: int, method: str) -> None:
    TILE_BUILTINS[key] = TileBuiltin(key, arg_names, required, method)


add_tile_builtin("tile_load", ("a", "shape", "offset", "storage", "bounds_check", "aligned"), 2, "tile_load")
add_tile_builtin("tile_store", ("a", "t", "offset", "bounds_check", "aligned"), 2, "tile_store")
add_tile_builtin("tile_atomic_add", ("a", "t", "offset", "bounds_check"), 2, "tile_atomic_add")
add_tile_builtin("tile_zeros", ("shape", "dtype", "storage"), 1, "tile_zeros")
add_tile_builtin("tile_ones", ("shape", "dtype", "storage"), 1, "tile_ones")
add_tile_builtin("tile", ("x", "preserve_type"), 1, "tile_from_threads")
add_tile_builtin("untile", ("a",), 1, "untile")
add_tile_builtin("tile_sum", ("a", "axis"), 1, "tile_sum")
add_tile_builtin("tile_max", ("a",), 1, "tile_max")
add_tile_builtin("tile_min", ("a",), 1, "tile_min")
add_tile_builtin("tile_reduce", ("op", "a", "axis"), 2, "tile_reduce")
add_tile_builtin("tile_argmax", ("a",), 1, "tile_argmax")
add_tile_builtin("tile_argmin", ("a",), 1, "tile_argmin")
# tile_arange(stop), (start, stop) or (start, stop, step): positional only, then keywords
add_tile_builtin("tile_arange", ("*1", "*2", "*3", "dtype", "storage"), 1, "tile_arange")
add_tile_builtin("tile_full", ("shape", "value", "dtype", "storage"), 2, "tile_full")
WARP = 32  # threads per warp: a block of whole warps reduces by register shuffles
REDUCE_BUILTINS = {"add": "sum", "mul": "product", "max": "max", "min": "min"}  # wp.<op> -> reduction kind
ARANGE_DTYPES = ("float32", "float64", "int32")
add_tile_builtin("tile_matmul", ("a", "b", "out", "alpha", "beta", "precision"), 2, "tile_matmul")
add_tile_builtin("tile_transpose", ("a",), 1, "tile_transpose")
add_tile_builtin("tile_broadcast", ("a", "shape"), 2, "tile_broadcast")
# Warp's tile_map takes one to eight tiles; past `b` they are positional only (no keyword can name them)
add_tile_builtin("tile_map", ("op", "a", "b", *(f"*{k}" for k in range(3, 9))), 2, "tile_map")
add_tile_builtin("tile_fft", ("inout",), 1, "tile_fft")
add_tile_builtin("tile_ifft", ("inout",), 1, "tile_ifft")
add_tile_builtin("tile_scan_inclusive", ("a",), 1, "tile_scan_inclusive")
add_tile_builtin("tile_scan_exclusive", ("a",), 1, "tile_scan_exclusive")
add_tile_builtin("tile_extract", ("a", "i", "j", "k", "l"), 2, "tile_extract")
add_tile_builtin("tile_from_thread", ("shape", "value", "thread_idx", "storage"), 3, "tile_from_thread")
add_tile_builtin("tile_store_indexed", ("a", "indices", "t", "offset", "axis"), 3, "tile_store_indexed")
add_tile_builtin("tile_load_indexed", ("a", "indices", "shape", "offset", "axis", "storage"), 3, "tile_load_indexed")
add_tile_builtin("tile_astype", ("t", "dtype"), 2, "tile_astype")
add_tile_builtin("tile_sort", ("keys", "values"), 2, "tile_sort")
# tile_scatter_add(a, i[, j, k, l], value, has_value[, atomic]): the indices are as many as the tile's
# dimensions, so the method binds its positional arguments itself (these names are the keywords)
add_tile_builtin("tile_scatter_add", ("a", "i", "j", "k", "l", "value", "has_value", "atomic"), 1, "tile_scatter_add")
SCATTER_DTYPES = ("int32", "float32", "float64")  # element types CUDA's atomicAdd takes
# Warp's sort keys the translator has tiles of, and the largest key of each (the padding of a sort
# whose length is not a power of two); above SORT_MAX_ELEMENTS Warp's CPU sorts by radix instead
SORT_KEYS = {"float32": "3.402823466e+38f", "int32": "2147483647", "uint32": "4294967295u"}
SORT_MAX_ELEMENTS = 2048
ASTYPE_DTYPES = ("float16", "bfloat16", "float32", "float64", "int32")
SCAN_DTYPES = ("float32", "int32", "uint32")  # Warp's tile_scan_* element types
add_tile_builtin("tile_diag_add", ("a", "d"), 2, "tile_diag_add")
add_tile_builtin("tile_cholesky", ("A", "fill_mode"), 1, "tile_cholesky")
add_tile_builtin("tile_cholesky_solve", ("L", "y", "fill_mode"), 2, "tile_cholesky_solve")
add_tile_builtin("tile_lower_solve", ("L", "y"), 2, "tile_lower_solve")
add_tile_builtin("tile_upper_solve", ("U", "z"), 2, "tile_upper_solve")
add_tile_builtin("tile_cholesky_inplace", ("A", "fill_mode"), 1, "tile_cholesky_inplace")
add_tile_builtin("tile_cholesky_solve_inplace", ("L", "y", "fill_mode"), 2, "tile_cholesky_solve_inplace")
add_tile_builtin("tile_lower_solve_inplace", ("L", "y"), 2, "tile_lower_solve_inplace")
add_tile_builtin("tile_upper_solve_inplace", ("U", "z"), 2, "tile_upper_solve_inplace")
SOLVER_DTYPES = ("float32", "float64")


def represent(value: float, dtype: str) -> float:
    """`value` as the float type `dtype` holds it (Warp counts a float tile_arange at its type)."""
    if dtype == "float32":
        return struct.unpack("f", struct.pack("f", float(value)))[0]
    return float(value)


def reduction_identity(kind: str, dtype: str) -> str | None:
    """The value a reduction's partial starts from (None: a @wp.func, which has none)."""
    if kind == "func":
        return None
    extreme = {"float32": "INFINITY", "float64": "INFINITY", "int32": "2147483647", "uint32": "4294967295u"}[dtype]
    lowest = {"int32": "(-2147483647 - 1)", "uint32": "0u"}.get(dtype, "-INFINITY")
    return {"sum": zero_of(dtype), "product": zero_of(dtype, True), "max": lowest, "min": extreme}[kind]


def reduction_combine(kind: str, dtype: str, func: str | None = None):
    """C code combining two partials x and y of a reduction of `kind` over `dtype` elements (`func`: the
    C name of the @wp.func of kind "func")."""
    fn = "f" if dtype == "float32" else ""
    return {"sum": lambda x, y: f"{x} + {y}",
            "product": lambda x, y: f"{x} * {y}",
            "max": lambda x, y: f"fmax{fn}({x}, {y})" if dtype not in INT_TILE_DTYPES else f"({x} > {y} ? {x} : {y})",
            "min": lambda x, y: f"fmin{fn}({x}, {y})" if dtype not in INT_TILE_DTYPES else f"({x} < {y} ? {x} : {y})",
            "func": lambda x, y: f"{func}({x}, {y})"}[kind]


def zero_of(dtype: str, one: bool = False) -> str:
    if dtype == "float32":
        return "1.0f" if one else "0.0f"
    if dtype == "float64":
        return "1.0" if one else "0.0"
    if dtype == "float16":
        return "__float2half(1.0f)" if one else "__float2half(0.0f)"
    if dtype == "bfloat16":
        return "__float2bfloat16(1.0f)" if one else "__float2bfloat16(0.0f)"
    if dtype == "int32":
        return "1" if one else "0"
    if dtype == "uint32":
        return "1u" if one else "0u"
    if dtype in VECD_LEN:
        n = VECD_LEN[dtype]
        return f"make_double{n}({', '.join(['1.0' if one else '0.0'] * n)})"
    n = VEC_LEN[dtype]
    return f"make_float{n}({', '.join(['1.0f' if one else '0.0f'] * n)})"


def element_bytes(dtype: str) -> int:
    """Bytes of one tile element in shared memory."""
    if dtype in VECD_LEN:
        return 8 * VECD_LEN[dtype]
    if is_vec(dtype):
        return 4 * VEC_LEN[dtype]
    return {"float64": 8, "float16": 2, "bfloat16": 2}.get(dtype, 4)


def coords(e: str, shape: tuple[int, ...]) -> list[str]:
    """Row-major coordinates of flat element `e` of a tile of `shape`."""
    out = []
    for k, d in enumerate(shape):
        inner = math.prod(shape[k + 1:])
        c = e if inner == 1 else f"{e} / {inner}"
        if d == 1:
            c = "0"  # the one row (column, ...) of the tile
        elif math.prod(shape[:k]) > 1:  # below the outer extents' product, e / inner is below d already
            c = f"{c} % {d}" if inner == 1 else f"({c}) % {d}"
        out.append(c)
    return out


# ---- lazy tiles -------------------------------------------------------------------------------------
E = "@E@"  # the flat element index in a lazy tile's element code (never valid C: a leak fails to compile)
_AT_E = re.compile(r"\[@E@\]|@E@")
# tile_map builtins cheap enough to evaluate twice rather than store (everything else a tile_map
# applies, a @wp.func or a transcendental, is `heavy`)
CHEAP_MAP_BUILTINS = ("abs", "min", "max")
# A lazy value read more than once is re-evaluated at each read when cheap: loads from shared memory
# and at most this many arithmetic operations per element, no tile_map of a function. Otherwise it
# is stored once (materialised) and read back.
REEVALUATED_WORK = 4


def at_index(code: str, index: str, row_col: tuple[str, int, str] | None = None) -> str:
    """A lazy element's code at flat index `index` (parenthesised where it is an operand).
    `row_col`: (row, cols, col) where `index` is `row * cols + col` with 0 <= col < cols; the element's
    own row and column of a tile `cols` wide (`E / cols`, `E % cols`) are then read as `row` and `col`
    (a broadcast row read through a transpose is `w[r]`, not `w[(r * 6 + c) / 6]`)."""
    parts = {}
    if row_col is not None:
        row, cols, col = row_col
        for mark, op, part in (("\x01", "/", row), ("\x02", "%", col)):
            bare = part[1:-1] if part.startswith("(") and part.endswith(")") and _balanced(part[1:-1]) else part
            atom = part if part.isidentifier() or part.isdigit() or part is not bare else f"({part})"
            parts[mark] = (bare, atom)
            pattern = rf"\[{E} {op} {cols}\]|\({E} {op} {cols}\)|{E} {op} {cols}(?!\d)"
            code = re.sub(pattern, lambda m, k=mark: f"[{k}]" if m.group(0)[0] == "[" else k, code)
    plain = index.isidentifier() or index.isdigit()
    code = _AT_E.sub(lambda m: f"[{index}]" if m.group(0) != E else (index if plain else f"({index})"), code)
    for mark, (bare, atom) in parts.items():
        code = code.replace(f"[{mark}]", f"[{bare}]").replace(mark, atom)
    return code


THREAD_ZERO = "if (threadIdx.x == 0)"


def merge_thread_zero_blocks(lines: list[str]) -> list[str]:
    """Consecutive `if (threadIdx.x == 0)` statements at one level as one block: thread 0 runs them in
    turn either way (nothing between them), and a person writes the test once."""
    def indent(line: str) -> int:
        return len(line) - len(line.lstrip())

    def block(k: int) -> tuple[int, list[str]] | None:
        """(index after it, its body lines) of a thread-0 statement at line k."""
        head = lines[k].strip()
        if head not in (THREAD_ZERO, THREAD_ZERO + " {"):
            return None
        d, end = indent(lines[k]), k + 1
        if head.endswith("{"):
            while end < len(lines) and not (lines[end].strip() == "}" and indent(lines[end]) == d):
                end += 1
            return (end + 1, lines[k + 1:end]) if end < len(lines) else None
        while end < len(lines) and lines[end].strip() and indent(lines[end]) > d:
            end += 1
        return end, lines[k + 1:end]

    out, k = [], 0
    while k < len(lines):
        first = block(k)
        if first is None:
            out.append(lines[k])
            k += 1
            continue
        end, body = first
        merged = 0
        while end < len(lines) and indent(lines[end]) == indent(lines[k]) and (nxt := block(end)) is not None:
            end, body = nxt[0], body + nxt[1]
            merged += 1
        if not merged:
            out.extend(lines[k:end])
        else:
            pad = lines[k][: indent(lines[k])]
            out.extend([pad + THREAD_ZERO + " {", *body, pad + "}"])
        k = end
    return out


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


# A 2-D tile of 4-byte elements whose rows are a multiple of 32 elements, read through a transpose,
# puts a column (one element per row) in one of shared memory's 32 banks: a warp reading 32 rows of
# a column waits 32 times. Such a buffer gets one unused element after each row (a row stride of
# cols + 1): the same column is then in 32 distinct banks (`pad_transposed_buffers`), where that
# lowers the conflict (`transposed_read_ways`: a tile of fewer than 8 rows gains nothing).
BANKS = 32
PADDED_DTYPES = ("float32", "int32")


def transposed_read_ways(rows: int, cols: int, pitch: int) -> int:
    """The most distinct 4-byte words one bank serves for a warp of 32 consecutive elements of the
    transpose of a rows x cols tile stored with rows `pitch` elements apart (1: no conflict)."""
    worst = 1
    for first in range(0, rows * cols, BANKS):
        words = {(e % rows) * pitch + e // rows for e in range(first, min(first + BANKS, rows * cols))}
        per_bank: dict[int, int] = {}
        for w in words:
            per_bank[w % BANKS] = per_bank.get(w % BANKS, 0) + 1
        worst = max(worst, *per_bank.values())
    return worst


def padded_index(index: str, rows: int, cols: int, pitch: int, coordinates: dict[str, tuple[str, str]]) -> str:
    """Where element `index` (row-major flat, 0 <= index < rows * cols) of a tile lies in a buffer
    whose rows are `pitch` elements apart. An index known as a (row, column) pair (`coordinates`,
    from `element_rc`) and the transpose's index `(x % rows) * cols + x / rows` (x < rows * cols,
    so its column x / rows is below cols) keep their row and column; any other is divided."""
    index = index.strip()
    if index in coordinates:
        row, col = coordinates[index]
        return f"{row} * {pitch} + {col}"
    if index.isdigit():
        k = int(index)
        return str(k // cols * pitch + k % cols)
    m = re.fullmatch(rf"\((?P<x>.+) % {rows}\) \* {cols} \+ (?P=x) / {rows}", index)
    if m:
        return f"({m.group('x')} % {rows}) * {pitch} + {m.group('x')} / {rows}"
    x = index if index.isidentifier() else f"({index})"
    return f"{x} / {cols} * {pitch} + {x} % {cols}"


def code_only(line: str) -> str:
    """`line` with its string and character literals and its comment blanked (same length)."""
    out, k, n = list(line), 0, len(line)
    while k < n:
        if line[k] in "\"'":
            end = k + 1
            while end < n and line[end] != line[k]:
                end += 2 if line[end] == "\\" else 1
            out[k + 1:min(end, n)] = " " * (min(end, n) - k - 1)
            k = end + 1
        elif line.startswith("//", k):
            out[k:] = " " * (n - k)
            break
        else:
            k += 1
    return "".join(out)


def only_indexed(lines: list[str], name: str) -> bool:
    """Whether every use of buffer `name` in the code is an element access `name[...]` (no pointer
    arithmetic on it, which a change of its layout would not follow)."""
    bare = re.compile(rf"(?<![\w.>]){re.escape(name)}\b(?!\[)")
    return not any(bare.search(code_only(line)) for line in lines)


def with_row_pitch(line: str, name: str, rows: int, cols: int, pitch: int,
                   coordinates: dict[str, tuple[str, str]]) -> str:
    """`line` with every element access `name[index]` of the buffer (not in a comment or a string
    literal, nor a member `.name[` / `->name[`) placed by `padded_index`; indices are rewritten
    inside out, so a nested access to the same buffer is placed too."""
    out, k, n = [], 0, len(line)
    while k < n:
        ch = line[k]
        if ch == '"' or ch == "'":  # a literal: copied as it is
            end = k + 1
            while end < n and line[end] != ch:
                end += 2 if line[end] == "\\" else 1
            out.append(line[k:end + 1])
            k = end + 1
            continue
        if line.startswith("//", k):
            out.append(line[k:])
            break
        if line.startswith(name + "[", k) and (k == 0 or not (line[k - 1].isalnum() or line[k - 1] in "_.>")):
            depth, end = 0, k + len(name)
            while True:  # the matching bracket
                depth += {"[": 1, "]": -1}.get(line[end], 0)
                if depth == 0:
                    break
                end += 1
            inner = with_row_pitch(line[k + len(name) + 1:end], name, rows, cols, pitch, coordinates)
            out.append(f"{name}[{padded_index(inner, rows, cols, pitch, coordinates)}]")
            k = end + 1
            continue
        out.append(ch)
        k += 1
    return "".join(out)


@dataclass
class LazyTile:
    """A tile value not stored anywhere: element E is `element` (code with the placeholder E), computed
    where it is consumed. Pure: a function of shared buffers (read, never written while the value
    lives) and of per-thread values captured into constants when it was made."""

    element: CExpr
    reads: dict[str, bool]  # shared buffer -> read only at element E itself (a thread reads what it wrote)
    work: int  # arithmetic operations per element (0: indexing or a constant)
    heavy: bool  # applies a function per element (tile_map): never evaluated twice per element
    varying: bool  # uses a per-thread value: element e must be computed by the thread that owns e
    sources: tuple[ast.stmt, ...]  # the Warp statements it computes, for the comment of its loop
    transpose_of: CExpr | None = None  # the tile it transposes: element (r, c) is that tile's (c, r)


# Warp holds a register tile in ceil(size / block_dim) registers per thread, unrolled. A value shared
# by the consumers of a run is held so (`register_consumer_loops`) while it takes at most this many
# 4-byte registers per thread; a larger one (a 64x64 tile over 64 threads: 64) risks spilling to local
# memory, so it is computed in one loop doing every consumer's work instead (a guard, not a tuned figure).
REGISTER_TILE_WORDS = 32


def register_words(dtype: str) -> int:
    """4-byte registers one tile element of `dtype` takes (a half: one)."""
    return max(1, element_bytes(dtype) // 4)


@dataclass
class ElementConsumer:
    """A statement consuming a tile element by element (a store, an atomic add): its arguments are
    evaluated; `body(e, value)` gives its lines for element e given the element's value."""

    node: ast.Call
    stmt: ast.stmt | None  # the statement it is (its loop's comment names it)
    value: CExpr  # the tile consumed (a buffer or a lazy tile)
    body: object  # (e: str, value: CExpr) -> list[str]


FUSED_CONSUMERS = ("tile_store", "tile_atomic_add")


def consumer_call(stmt: ast.stmt) -> ast.Call | None:
    """The call of a statement that is a tile store or atomic add, else None."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _is_wp(stmt.value.func, *FUSED_CONSUMERS):
        return stmt.value
    return None


@dataclass
class TileBinding:
    value: CExpr  # a buffer (code: its name) or a lazy tile (code: its key in `lazy_tiles`)
    depth: int  # nesting of loop / branch bodies where the variable was bound


# an offset a later tile op may read from an earlier one's local: names, numbers and arithmetic only (no
# array element or call, whose value a statement in between could change without assigning a name)
REUSABLE_OFFSET = re.compile(r"[A-Za-z0-9_ +\-*/%()]+")
LOOP_TOP = "@loop-top "  # a line a loop body's end settles: a barrier, or nothing


@dataclass
class OpenLoop:
    """A tiled loop whose body is being translated: its LOOP_TOP line, the shared-memory events on
    entry and its body's depth, the names the loop assigns, and whether a barrier at the body's own
    level came before any shared access in it (its head: then a barrier at the top adds nothing). `entry`: the
    accesses since the last barrier when the loop starts (a barrier they need goes before the loop,
    once, not at the top of every iteration: `hoisted`, its placeholder line)."""

    top: str
    events: int
    depth: int
    stored: set[str]
    entry: "Hazards"
    hoisted: str | None = None  # the placeholder of a barrier before the loop (kept unless the top has one)
    # the body's accesses before its first barrier at its own level (all of them where it has none):
    # what an iteration does before anything separates it from the previous iteration's end
    head_reads: dict = field(default_factory=dict)
    head_writes: dict = field(default_factory=dict)
    head_open: bool = True


@dataclass
class Hazards:
    """Shared-memory accesses since the last barrier: buffer -> whether every access was at the
    accessing thread's own element (`for (e = threadIdx.x; ...; e += TILE_THREADS)` reading or writing
    element e: the thread that writes element e is the one that reads it, so no barrier is needed
    between them). `unknown`: accesses not tracked (a loop's previous iteration), any access needs one."""

    reads: dict[str, bool]
    writes: dict[str, bool]
    unknown: bool = False

    def copy(self) -> "Hazards":
        return Hazards(dict(self.reads), dict(self.writes), self.unknown)

    def join(self, other: "Hazards") -> "Hazards":
        def merge(a: dict, b: dict) -> dict:
            return {k: a.get(k, True) and b.get(k, True) for k in a.keys() | b.keys()}
        return Hazards(merge(self.reads, other.reads), merge(self.writes, other.writes), self.unknown or other.unknown)

    @property
    def clean(self) -> bool:
        return not (self.reads or self.writes or self.unknown)


def merge_reads(a: dict[str, bool], b: dict[str, bool]) -> dict[str, bool]:
    return {k: a.get(k, True) and b.get(k, True) for k in a.keys() | b.keys()}


def conflicts(h: Hazards, reads: dict[str, bool], writes: dict[str, bool]) -> bool:
    """Whether accesses (buffer -> only at the thread's own element) conflict with those since the last
    barrier, `h`: a read after another thread's write, a write after another thread's read or write."""
    need = h.unknown and bool(reads or writes)
    need = need or any(b in h.writes and not (own and h.writes[b]) for b, own in reads.items())
    return need or any((b in h.reads and not (own and h.reads[b])) or (b in h.writes and not (own and h.writes[b]))
                       for b, own in writes.items())


def _loads(node: ast.AST, name: str) -> int:
    return sum(1 for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))


def _jumps(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.Break, ast.Continue, ast.Return)) for n in ast.walk(node))


def _effect(stmt: ast.stmt, name: str) -> tuple[bool, bool]:
    """(whether `stmt` may read the value `name` has before it, whether it assigns `name` on every
    path). Conservative: a statement that jumps (break, continue, return) reads everything."""
    if _jumps(stmt):
        return True, False
    if isinstance(stmt, ast.Assign):
        kills = len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == name
        return _loads(stmt, name) > 0, kills
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
        return True, True
    if isinstance(stmt, ast.If):
        body, orelse = _block_effect(stmt.body, name), _block_effect(stmt.orelse, name)
        return _loads(stmt.test, name) > 0 or body[0] or orelse[0], body[1] and orelse[1]
    if isinstance(stmt, (ast.For, ast.While)):
        head = stmt.iter if isinstance(stmt, ast.For) else stmt.test
        return _loads(head, name) > 0 or _block_effect(stmt.body, name)[0], False
    return _loads(stmt, name) > 0, False


def _block_effect(stmts: list[ast.stmt], name: str) -> tuple[bool, bool]:
    for stmt in stmts:
        reads, kills = _effect(stmt, name)
        if reads or kills:
            return reads, kills
    return False, False


# The builtins that change tile arguments in place: builtin -> (position, keyword) of each such argument
INPLACE_ARGUMENTS = {"tile_matmul": ((2, "out"),), "tile_fft": ((0, "inout"),), "tile_ifft": ((0, "inout"),),
                     "tile_sort": ((0, "keys"), (1, "values")), "tile_scatter_add": ((0, "a"),),
                     "tile_cholesky_inplace": ((0, "A"),), "tile_cholesky_solve_inplace": ((1, "y"),),
                     "tile_lower_solve_inplace": ((1, "y"),), "tile_upper_solve_inplace": ((1, "z"),)}


def _inplace_targets(node: ast.AST) -> set[str]:
    """Tile variables a statement changes in place: `wp.tile_matmul(a, b, out)`, `wp.tile_fft(t)`,
    `wp.tile_sort(keys, values)`, `wp.tile_scatter_add(bins, ...)`, the solvers' `_inplace` forms."""
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and _is_wp(n.func, *INPLACE_ARGUMENTS):
            for k, kw in INPLACE_ARGUMENTS[n.func.attr]:
                arg = n.args[k] if len(n.args) > k else next((x.value for x in n.keywords if x.arg == kw), None)
                if isinstance(arg, ast.Name):
                    found.add(arg.id)
    return found


def _assigned(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} | _inplace_targets(node)


def _evaluations(node: ast.AST, name: str, repeated: bool = False) -> int:
    """Reads of `name` in `node`; a read inside a loop counts twice (it runs more than once)."""
    total = 0
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Name) and child.id == name and isinstance(child.ctx, ast.Load):
            total += 2 if repeated else 1
        else:
            total += _evaluations(child, name, repeated or isinstance(child, (ast.For, ast.While)))
    return total


class TileTranslator:
    """The tile half of FunctionTranslator (mixed in): tile values, their buffers and the builtins.

    A tile value is either a shared buffer (`__shared__` array, code: its name) or a lazy tile
    (`LazyTile`, code: its key in `lazy_tiles`): element-wise operations, tile_map, transposes,
    broadcasts and constants are lazy, and whatever consumes a value element by element (a store, an
    atomic add, a sum's partial loop, another element-wise operation) computes the element inline.
    A value is stored only where it must be (`materialise`): an operation reading other elements than
    its own (a product, a scan, a factorisation), a value read again whose element is real work, a
    variable that a loop or branch assigns and that lives past it (`pin`).

    State (set up by `init_tile_state`): `block_dim` (set by FunctionTranslator; 0: the function uses
    no tiles), `tiles` (buffer name -> TileType), `lazy_tiles`, `tile_vars` (variable -> its value),
    `pinned` (variable -> its own buffer while a loop or branch that assigns it is translated),
    `tile_dest` (the variable an assignment's value may be written into directly), `hazards` (what
    the next barrier guards), `tile_accesses` (array, offset nodes, tile shape) for input inference."""

    def init_tile_state(self) -> None:
        self.tiles: dict[str, TileType] = {}
        self.tile_dest: str | None = None
        self.tile_accesses: list = []
        self.lazy_tiles: dict[str, LazyTile] = {}
        self.tile_vars: dict[str, TileBinding] = {}
        self.tile_var_types: dict[str, TileType] = {}
        self.pinned: dict[str, str | None] = {}
        self.pin_levels: list[list[str]] = []
        self.tile_depth = 0
        self.hazards = Hazards({}, {})
        self.current_stmt: ast.stmt | None = None
        self.before_current = False  # liveness is asked before current_stmt runs (a loop or branch being entered)
        self.tile_parents: dict | None = None
        self.shared_events = 0  # accesses and barriers emitted so far (a body without any changes nothing)
        self.loop_tops = 0  # loop bodies entered (each leaves a LOOP_TOP line until its end decides it)
        self.open_tops: list[OpenLoop] = []  # loop bodies open now, innermost last
        self.offset_locals: dict[str, str] = {}  # offset code -> the const local holding it (offset_local)
        self.transposed_reads: set[str] = set()  # buffers some transpose reads (column by column)
        self.row_pitch: dict[str, int] = {}  # buffer -> elements between its rows, where not its columns
        self.coordinates: dict[str, tuple[str, str]] = {}  # flat index code -> its (row, column), both in range
        self.fragment_buffers: set[str] = set()  # buffers nvcuda::wmma loads or stores (32-byte aligned)

    # ---- barriers ------------------------------------------------------------------------------
    def barrier(self) -> None:
        for top in self.open_tops:
            if top.depth == self.tile_depth:  # at the body's own level: it ends the body's head
                top.head_open = False
        self.out("__syncthreads();")
        self.hazards = Hazards({}, {})
        self.shared_events += 1

    def access(self, reads: dict[str, bool] | None = None, writes: dict[str, bool] | None = None) -> None:
        """Shared-memory accesses about to be emitted (buffer -> only at the thread's own element); a
        barrier first where they conflict with accesses since the last one (read after write, write
        after read or write) by another thread."""
        reads, writes = reads or {}, writes or {}
        need = conflicts(self.hazards, reads, writes)
        if need and self.entry_only():
            self.barrier_before_loop()
        elif need:
            self.barrier()
        for top in self.open_tops:
            if top.head_open:
                top.head_reads = merge_reads(top.head_reads, reads)
                top.head_writes = merge_reads(top.head_writes, writes)
        self.shared_events += 1
        h = self.hazards
        for b, own in reads.items():
            h.reads[b] = h.reads.get(b, True) and own
        for b, own in writes.items():
            h.writes[b] = h.writes.get(b, True) and own

    def entry_only(self) -> bool:
        """Whether the innermost tiled loop's body has touched no shared memory yet at its own level:
        a conflict now is with the accesses before the loop (its first iteration's), not its own."""
        top = self.open_tops[-1] if self.open_tops else None
        return (top is not None and top.events == self.shared_events and top.depth == self.tile_depth
                and not self.hazards.unknown and self.loop_header(top) is not None)

    def barrier_before_loop(self) -> None:
        """The barrier the accesses before the innermost loop need, before its opening line: once, not
        in every iteration (what an iteration leaves for the next one its LOOP_TOP line settles)."""
        top = self.open_tops[-1]
        at = self.loop_header(top)
        header = self.lines[at]
        top.hoisted = f"{top.top}-before"
        self.lines.insert(at, header[: len(header) - len(header.lstrip())] + top.hoisted)
        self.hazards = Hazards({}, {})
        self.shared_events += 1

    # ---- loops and branches (called by FunctionTranslator around their bodies) ----------------
    def tile_statement(self, stmt: ast.stmt) -> None:
        self.current_stmt, self.before_current = stmt, False

    def tile_enter(self, node: ast.stmt) -> None:
        """Before a loop or branch: each tile variable it assigns that lives past it (or from one
        iteration into the next) gets a buffer of its own, holding its value on entry; inside, every
        assignment writes that buffer, so the code after the body reads it whichever path ran."""
        self.pin_levels.append([])
        if not self.block_dim:
            return
        self.current_stmt, self.before_current = node, True  # what the body reads counts as live
        for name in sorted(_assigned(node)):
            if name in self.pinned or self.is_local_to(node, name):
                continue
            binding = self.tile_vars.get(name)
            if binding is None:
                if self.lookup(name) is not None or name in self.arrays:
                    continue  # a scalar
                self.pinned[name] = None  # a tile first assigned inside: its buffer is made there
            else:
                self.pinned[name] = self.own_buffer(node, name, binding.value)
                self.tile_vars[name] = TileBinding(CExpr(self.pinned[name], binding.value.type), self.tile_depth)
            self.pin_levels[-1].append(name)

    def tile_exit(self, node: ast.stmt) -> None:
        for name in self.pin_levels.pop():
            home = self.pinned.pop(name)
            if home is not None:
                self.tile_vars[name] = TileBinding(CExpr(home, self.tiles[home]), self.tile_depth)

    def body_enter(self, loop: bool, body_indent: int | None = None, stored: set[str] | None = None) -> tuple:
        """Entering a loop body or a branch: what to restore on leaving it. A tiled loop's body is
        tracked from the accesses before the loop (its first iteration's), and leaves a LOOP_TOP line
        (at `body_indent`) that its end turns into a barrier where the previous iteration's accesses
        need one: the body wrote shared memory and did not end on a barrier. A body that only reads
        tiles (`wp.tile_extract` in a loop) then runs without a barrier per iteration. `stored`: the
        names the loop assigns (its variable included), which an offset hoisted before it must not read."""
        top = None
        if loop and self.block_dim:
            self.loop_tops += 1
            top = f"{LOOP_TOP}{self.loop_tops}"
            self.lines.append("    " * (self.indent if body_indent is None else body_indent) + top)
        saved = (dict(self.tile_vars), self.hazards.copy(), self.shared_events, top)
        self.tile_depth += 1
        if top is not None:
            self.open_tops.append(OpenLoop(top, self.shared_events, self.tile_depth, stored or set(),
                                           self.hazards.copy()))
        if loop and top is None:  # the previous iteration's accesses are not tracked: the first access needs a barrier
            self.hazards = Hazards({}, {}, unknown=True)
        return saved

    def body_exit(self, saved: tuple, loop: bool, while_test: ast.AST | None = None) -> Hazards:
        """Leaving a body: its variables go out of scope except pinned ones (in their buffers).
        Returns the accesses at its end (an if joins its branches). `while_test`: the condition a
        while loop evaluates after the body."""
        bindings, entry, events, top = saved
        if events == self.shared_events:  # the body touched no shared memory
            self.hazards = entry
        reads_tiles = while_test is not None and any(isinstance(n, ast.Name) and self.is_tile_var(n.id)
                                                     for n in ast.walk(while_test))
        if reads_tiles and events != self.shared_events and not self.hazards.clean:
            self.barrier()  # the condition reads what the body may have written
        entry_state = None
        if top is not None:
            loop_state = self.open_tops.pop()
            # a barrier at the top where what an iteration leaves conflicts with what the next does first
            at_top = conflicts(self.hazards, loop_state.head_reads, loop_state.head_writes)
            self.settle_loop_top(top, at_top)
            entry_state = loop_state.entry
            if loop_state.hoisted is not None and not at_top:  # the barrier before the loop stands
                self.settle_loop_top(loop_state.hoisted, True)
                entry_state = Hazards({}, {})
        self.tile_depth -= 1
        for name in [*self.tile_vars, *(n for n in bindings if n not in self.tile_vars)]:  # in a fixed order
            home = self.pinned.get(name)
            if home is not None:
                self.tile_vars[name] = TileBinding(CExpr(home, self.tiles[home]), self.tile_depth)
            elif name in bindings:
                self.tile_vars[name] = bindings[name]
            else:
                del self.tile_vars[name]
        end = self.hazards
        if loop and events != self.shared_events:
            # after the loop: what its last iteration left, or what came before it (no iteration)
            self.hazards = end.join(entry_state) if entry_state is not None else Hazards({}, {}, unknown=True)
        return end

    def settle_loop_top(self, top: str, barrier: bool) -> None:
        """The LOOP_TOP line `top`: a barrier at the top of its loop's body, or nothing (dropped when
        the kernel's lines are joined)."""
        for k in range(len(self.lines) - 1, -1, -1):
            if self.lines[k].endswith(top) and self.lines[k].lstrip() == top:
                if barrier:
                    self.lines[k] = self.lines[k][: -len(top)] + "__syncthreads();"
                    self.shared_events += 1
                return
        raise AssertionError(f"loop top {top!r} not found")

    def branches_joined(self, ends: list[Hazards]) -> None:
        joined = ends[0]
        for h in ends[1:]:
            joined = joined.join(h)
        self.hazards = joined

    # ---- liveness ------------------------------------------------------------------------------
    def parents(self) -> dict:
        if self.tile_parents is None:
            found = {}
            for owner in ast.walk(self.fn):
                for field in ("body", "orelse"):
                    stmts = getattr(owner, field, None)
                    if isinstance(stmts, list):
                        for k, s in enumerate(stmts):
                            found[id(s)] = (owner, stmts, k)
            self.tile_parents = found
        return self.tile_parents

    def uses_after(self, stmt: ast.stmt | None, name: str) -> tuple[bool, int]:
        """Whether the value `name` holds after `stmt` may be read, and how many times (reads in
        loops count twice). Read from the function's AST: later statements, a loop's next iteration."""
        parents = self.parents()
        live, count, node = False, 0, stmt
        while node is not None and id(node) in parents:
            owner, stmts, k = parents[id(node)]
            for s in stmts[k + 1:]:
                reads, kills = _effect(s, name)
                if reads:
                    live = True
                    count += _evaluations(s, name, isinstance(s, (ast.For, ast.While)))
                if kills:
                    return live, count
            if isinstance(owner, (ast.For, ast.While)):  # the next iteration
                head = owner.iter if isinstance(owner, ast.For) else owner.test
                if _loads(head, name) or _block_effect(owner.body, name)[0]:
                    live = True
                    count += 2 * max(1, _evaluations(owner, name))
            node = owner
        return live, count

    def is_live(self, name: str) -> bool:
        if self.before_current and self.current_stmt is not None:
            reads, kills = _effect(self.current_stmt, name)
            if reads or kills:
                return reads
        return self.uses_after(self.current_stmt, name)[0]

    def is_local_to(self, node: ast.stmt, name: str) -> bool:
        """Whether `name`, assigned in the loop / branch `node`, is dead after it and (a loop) not
        carried from one iteration into the next: then it needs no buffer of its own."""
        if self.uses_after(node, name)[0]:
            return False
        if isinstance(node, (ast.For, ast.While)):
            head = node.iter if isinstance(node, ast.For) else node.test
            return not _loads(head, name) and not _block_effect(node.body, name)[0]
        return True

    # ---- values and buffers --------------------------------------------------------------------
    def is_tile_var(self, name: str) -> bool:
        return name in self.tile_vars or self.pinned.get(name) is not None

    def lazy_of(self, v: CExpr) -> LazyTile | None:
        return self.lazy_tiles.get(v.code) if isinstance(v.code, str) else None

    def tile_reads(self, v: CExpr) -> dict[str, bool]:
        lazy = self.lazy_of(v)
        return dict(lazy.reads) if lazy is not None else {v.code: True}

    def element(self, v: CExpr) -> CExpr:
        """Element E of a tile value (code with the placeholder E)."""
        lazy = self.lazy_of(v)
        return lazy.element if lazy is not None else CExpr(f"{v.code}[{E}]", v.type.dtype)

    def element_at(self, v: CExpr, index: str, row_col: tuple[str, int, str] | None = None) -> CExpr:
        el = self.element(v)
        return CExpr(at_index(el.code, index, row_col), el.type, el.prec)

    def element_rc(self, v: CExpr, row: str, col: str) -> CExpr:
        """Element (row, col) of a 2-D tile value (a transpose read through its source's index). Row and
        column are within the tile (the caller's loop bounds), so a padded buffer places them as a pair."""
        lazy = self.lazy_of(v)
        if lazy is not None and lazy.transpose_of is not None:
            return self.element_rc(lazy.transpose_of, col, row)
        cols = v.type.shape[1]
        if col == "0":  # a tile's one column, or its first
            index = row if cols == 1 or row == "0" else f"{row} * {cols}"
        else:
            index = col if row == "0" else f"{row} * {cols} + {col}"
        if row.isidentifier() and col.isidentifier():  # loop variables within the tile's rows and columns
            self.coordinates[index] = (row, col)
        return self.element_at(v, index, (row, cols, col) if col != "0" and row != "0" else None)

    def make_lazy(self, tt: TileType, element: CExpr, reads: dict[str, bool], work: int, heavy: bool,
                  varying: bool, parts: list[CExpr]) -> CExpr:
        sources = [self.current_stmt] if self.current_stmt is not None else []
        for p in parts:
            lazy = self.lazy_of(p)
            if lazy is not None:
                sources.extend(lazy.sources)
        unique = {id(s): s for s in sources}
        ordered = tuple(sorted(unique.values(), key=lambda s: (s.lineno, s.col_offset)))
        key = f"@lazy{len(self.lazy_tiles)}@"
        self.lazy_tiles[key] = LazyTile(element, reads, work, heavy, varying, ordered)
        return CExpr(key, tt)

    def new_buffer(self, node: ast.AST, tt: TileType, base: str) -> str:
        if tt.dtype not in TILE_DTYPES:
            raise self.unsupported(node, f"tile of {tt.dtype}")
        name = self.fresh(base)
        self.tiles[name] = tt
        return name

    def buffer_free(self, name: str, tt: TileType, owner: str | None, reads: dict[str, bool]) -> bool:
        """Whether buffer `name` may receive a new value for variable `owner`: same type, not read by
        the operation writing it except at each thread's own element, and no live variable but the
        owner reading it."""
        if (name in self.tiles and self.tiles[name] != tt) or reads.get(name, True) is False:
            return False
        if any(home == name for var, home in self.pinned.items() if var != owner):
            return False
        return not any(var != owner and name in self.tile_reads(b.value) and self.is_live(var)
                       for var, b in self.tile_vars.items())

    def claim_dest(self) -> str | None:
        dest, self.tile_dest = self.tile_dest, None
        return dest

    def tile_buffer(self, node: ast.AST, tt: TileType, dest: str | None, base: str = "tile",
                    reads: dict[str, bool] | None = None) -> str:
        """The buffer an operation writes its result to: the destination variable's (its own buffer
        when pinned, the buffer named after it when free), else a new one. `reads`: what the
        operation reads (a buffer it reads at other elements than its own cannot be written)."""
        if tt.dtype not in TILE_DTYPES:
            raise self.unsupported(node, f"tile of {tt.dtype}")
        reads = reads or {}
        if dest is not None and dest in self.pinned:
            home = self.pinned[dest] or self.new_home(node, dest, tt, reads)
            if self.tiles[home] == tt and reads.get(home, True):
                self.evacuate(node, home, dest)
                return home
        elif dest is not None and self.buffer_free(dest, tt, dest, reads) and dest not in self.arrays \
                and self.lookup(dest) is None:
            self.tiles[dest] = tt
            return dest
        return self.new_buffer(node, tt, base)

    def new_home(self, node: ast.AST, name: str, tt: TileType, reads: dict[str, bool]) -> str:
        home = name if self.buffer_free(name, tt, name, reads) else self.fresh(name)
        self.tiles[home] = tt
        self.pinned[name] = home
        return home

    def own_buffer(self, node: ast.AST, name: str, value: CExpr) -> str:
        """A buffer holding `value` that no other live variable reads (variable `name` is to be
        changed in place or pinned): its current one when so, else a copy."""
        if self.lazy_of(value) is None and self.buffer_free(value.code, value.type, name, {}):
            return value.code
        home = name if self.buffer_free(name, value.type, name, self.tile_reads(value)) else self.fresh(name)
        self.tiles[home] = value.type
        self.write_value(node, home, value)
        return home

    def evacuate(self, node: ast.AST, buffer: str, owner: str | None) -> None:
        """`buffer` is about to be overwritten: every other live variable whose value reads it gets
        the value stored elsewhere first (a dead one is forgotten)."""
        for var, b in list(self.tile_vars.items()):
            if var == owner or buffer not in self.tile_reads(b.value):
                continue
            if not self.is_live(var):
                del self.tile_vars[var]
                continue
            if b.depth != self.tile_depth:
                raise self.unsupported(node, f"tile '{var}' read after a loop or branch overwrites the tile it was made from")
            copy = self.new_buffer(node, b.value.type, var)
            self.write_value(node, copy, b.value)
            self.tile_vars[var] = TileBinding(CExpr(copy, b.value.type), b.depth)

    def write_value(self, node: ast.AST, dst: str, value: CExpr, what: str | None = None) -> None:
        """dst[e] = element e of `value`, for every e: one loop over the block's threads."""
        reads = self.tile_reads(value)
        self.access(reads, {dst: True})
        self.fused_comment([value], what or f"{dst} = the tile computed by")
        self.coop(value.type.size, lambda e: [f"{dst}[{e}] = {self.element_at(value, e).code};"])

    def materialise(self, node: ast.AST, v: CExpr, base: str = "tile") -> CExpr:
        """A buffer holding tile value `v` (itself when it is one). Variables bound to the lazy
        value in this body are rebound to the buffer, so that it is computed once."""
        lazy = self.lazy_of(v)
        if lazy is None:
            return v
        owners = [n for n, b in self.tile_vars.items() if b.value.code == v.code and b.depth == self.tile_depth]
        name = next((n for n in owners if n not in self.pinned and self.lookup(n) is None
                     and self.buffer_free(n, v.type, n, lazy.reads)), None)
        if name is not None:
            self.tiles[name] = v.type
        else:
            name = self.new_buffer(node, v.type, base)
        self.write_value(node, name, v)
        out = CExpr(name, v.type)
        for n in owners:
            self.tile_vars[n] = TileBinding(out, self.tile_depth)
        return out

    def fused_comment(self, values: list[CExpr], head: str | None = None) -> None:
        """A comment naming the Warp statements a loop computes inline (lazy values it evaluates).
        `head`: the loop stores a value (its statements listed); None: the loop is the statement
        being translated, which computes its lazy operands (listed when they come from others)."""
        sources = {}
        for v in values:
            lazy = self.lazy_of(v)
            if lazy is not None:
                sources.update((id(s), s) for s in lazy.sources)
        if head is None and self.current_stmt is not None:
            sources.pop(id(self.current_stmt), None)
            head = f"{ast.unparse(self.current_stmt).splitlines()[0]}: computes inline"
        if not sources:
            return
        self.out(f"// {head}")
        for s in sorted(sources.values(), key=lambda s: (s.lineno, s.col_offset)):
            self.out(f"//   {ast.unparse(s).splitlines()[0]}")

    def assign_tile_var(self, node: ast.AST, name: str, value: CExpr) -> None:
        """`name = value` for a tile value: bound to the value (nothing emitted) or, for a pinned
        variable, written into the variable's own buffer. A heavy lazy value read more than once is
        stored here (REEVALUATED_WORK)."""
        known = self.tile_var_types.get(name)
        if known is not None and known != value.type:
            raise self.error(node, f"'{name}' is a {known}; a {value.type} is assigned to it")
        self.tile_var_types[name] = value.type
        if name in self.pinned:
            lazy = self.lazy_of(value)
            home = self.pinned[name] or self.new_home(node, name, value.type, self.tile_reads(value))
            if value.code != home:
                if lazy is not None and self.tile_reads(value).get(home, True):
                    self.evacuate(node, home, name)
                    self.write_value(node, home, value, f"{name} (its own buffer) = the tile computed by")
                else:  # a buffer, or a value reading the buffer at other elements: stored, then copied
                    value = self.materialise(node, value)
                    self.evacuate(node, home, name)
                    self.write_value(node, home, value, f"{name} (its own buffer) = the tile computed by")
            self.tile_vars[name] = TileBinding(CExpr(home, value.type), self.tile_depth)
            return
        self.tile_vars[name] = TileBinding(value, self.tile_depth)
        lazy = self.lazy_of(value)
        if lazy is not None and (lazy.heavy or lazy.work > REEVALUATED_WORK) and self.uses_after(self.current_stmt, name)[1] > 1:
            self.materialise(node, value)

    def tile_var(self, name: str) -> CExpr:
        return self.tile_vars[name].value

    def inplace_target(self, node: ast.AST) -> CExpr:
        """The buffer of a tile an operation changes in place (`wp.tile_matmul(a, b, out)`), made
        the variable's own first (no other live variable reads it)."""
        if isinstance(node, ast.Name) and node.id in self.tile_vars:
            value = self.tile_var(node.id)
            home = self.own_buffer(node, node.id, value)
            self.evacuate(node, home, node.id)
            out = CExpr(home, value.type)
            self.tile_vars[node.id] = TileBinding(out, self.tile_vars[node.id].depth)
            return out
        return self.materialise(node, self.tile_value(node))

    def tile_flat_index(self, index: list[CExpr], shape: tuple[int, ...]) -> CExpr:
        """The flat (row-major) index of element (i, j, ...) of a tile of `shape`; an index 0 adds nothing
        (a one-row tile's `t[0, j]` is `t[j]`)."""
        flat = index[0]
        for k, idx in enumerate(index[1:], start=1):
            if flat.code == "0":
                flat = idx
            elif idx.code == "0":
                flat = CExpr(f"{flat.at(P_MUL)} * {shape[k]}", "int32", P_MUL)
            else:
                flat = CExpr(f"{flat.at(P_MUL)} * {shape[k]} + {idx.at(P_ADD + 1)}", "int32", P_ADD)
        return flat

    def tile_element(self, node: ast.AST, t: CExpr, index: str) -> CExpr:
        """`t[i, j]`: one element, read by every thread."""
        self.access({b: False for b in self.tile_reads(t)})
        return self.element_at(t, index)

    def coop(self, count: int, body) -> None:
        """The block's threads share `count` elements: `body(e)` gives the lines for element e. One
        element is thread 0's (`if (threadIdx.x == 0)`, element 0), not a loop that runs once."""
        if count == 1:
            lines = body("0")
            self.out("if (threadIdx.x == 0)" + (" {" if len(lines) > 1 else ""))
            self.indent += 1
            for line in lines:
                self.out(line)
            self.indent -= 1
            if len(lines) > 1:
                self.out("}")
            return
        e = self.fresh("e")
        self.out(f"for (int {e} = threadIdx.x; {e} < {count}; {e} += {TILE_THREADS}) {{")
        self.indent += 1
        for line in body(e):
            self.out(line)
        self.indent -= 1
        self.out("}")

    def tile_operand(self, node: ast.AST) -> CExpr:
        """A tile value as it is: a buffer or a lazy tile (for consumers going element by element)."""
        v = self.emit(node)
        if not isinstance(v.type, TileType):
            raise self.error(node, f"a tile is expected here, found a value of type {v.type}")
        return v

    def tile_value(self, node: ast.AST) -> CExpr:
        """A tile value in a buffer (for operations reading other elements than their own)."""
        return self.materialise(node, self.tile_operand(node))

    def indexable(self, node: ast.AST) -> CExpr:
        """A tile value read at arbitrary elements by every thread: lazy when its element is only
        indexing (a transpose or broadcast of a buffer, a constant), else in a buffer."""
        v = self.tile_operand(node)
        lazy = self.lazy_of(v)
        return v if lazy is not None and lazy.work == 0 and not lazy.heavy and not lazy.varying \
            else self.materialise(node, v)

    def read_once_each(self, node: ast.AST) -> CExpr:
        """A tile value each of whose elements one thread reads once (a reduction along an axis: the
        thread of a result reads its row or column): lazy, computed where it is read, unless an
        element must be computed by the thread that owns it (it uses per-thread values)."""
        v = self.tile_operand(node)
        lazy = self.lazy_of(v)
        return self.materialise(node, v) if lazy is not None and lazy.varying else v

    def const_int(self, node: ast.AST, what: str) -> int:
        from cuda_production.translator import _fold
        value = _fold(node, self.module.info.constants)
        if isinstance(node, ast.Call) and _is_wp(node.func, "block_dim") and not node.args:
            value = self.block_dim
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.unsupported(node, f"{what} other than a constant integer")
        return value

    def const_shape(self, node: ast.AST) -> tuple[int, ...]:
        elts = node.elts if isinstance(node, ast.Tuple) else [node]
        shape = tuple(self.const_int(e, "tile shape") for e in elts)
        if not 1 <= len(shape) <= 3 or any(d < 1 for d in shape):
            raise self.unsupported(node, f"tile shape {shape}")
        return shape

    def const_flag(self, node: ast.AST | None, default, what: str):
        if node is None:
            return default
        if not isinstance(node, ast.Constant):
            raise self.unsupported(node, f"{what} other than a constant")
        return node.value

    def bind(self, node: ast.Call, entry: TileBuiltin) -> dict[str, ast.AST]:
        if len(node.args) > len(entry.arg_names):
            raise self.error(node, f"wp.{entry.key}() takes at most {len(entry.arg_names)} arguments")
        bound = dict(zip(entry.arg_names, node.args))
        for kw in node.keywords:
            if kw.arg not in entry.arg_names:
                raise self.unsupported(kw, f"keyword argument '{kw.arg}' of wp.{entry.key}")
            if kw.arg in bound:
                raise self.error(node, f"argument '{kw.arg}' given twice")
            bound[kw.arg] = kw.value
        missing = [n for n in entry.arg_names[: entry.required] if n not in bound]
        if missing:
            raise self.error(node, f"wp.{entry.key}() needs '{missing[0]}'")
        return bound

    def call_tile_builtin(self, node: ast.Call, name: str, statement: bool = False) -> CExpr:
        if not self.block_dim:
            raise self.unsupported(node, f"wp.{name} in a @wp.func (tiles are translated in kernels only)")
        entry = TILE_BUILTINS[name]
        return getattr(self, entry.method)(node, self.bind(node, entry), statement)

    def array_arg(self, node: ast.AST, what: str) -> CExpr:
        arr = self.emit(node)
        if not isinstance(arr.type, ArrayType):
            raise self.error(node, f"{what}: an array is expected, found {arr.type}")
        return arr

    def offsets(self, node: ast.AST | None, ndim: int) -> list[str]:
        """The offset per dimension, evaluated once into locals where it is not a literal."""
        if node is None:
            return ["0"] * ndim
        elts = node.elts if isinstance(node, ast.Tuple) else [node]
        if len(elts) != ndim:
            raise self.error(node, f"offset of {len(elts)} values for a {ndim}-D array")
        out = []
        for e in elts:
            v = self.emit(e)
            if v.type != "int32":
                raise self.error(e, f"offset of type {v.type}; Warp requires int")
            if v.literal is not None or (isinstance(e, ast.Name) and v.code == e.id and self.unchanging(e)
                                         and not any(isinstance(n, ast.For) and isinstance(n.target, ast.Name)
                                                     and n.target.id == e.id for n in ast.walk(self.fn))):
                out.append(v.code)  # a literal, or a name assigned once and for all (the block index `i`)
            else:
                name = self.offset_local(v.code)
                if name is None:
                    name = self.fresh("offset")
                    if not (REUSABLE_OFFSET.fullmatch(v.code) and self.hoist_offset(name, v.code)):
                        self.out(f"const int {name} = {v.code};")
                    if REUSABLE_OFFSET.fullmatch(v.code):
                        self.offset_locals[v.code] = name
                out.append(name)
        return out

    def hoist_offset(self, name: str, code: str) -> bool:
        """Declare offset local `name` = `code` before the outermost open loop that assigns none of the
        names it reads (`i * TILE_M` in a K loop: evaluated once, and the same local serves after the
        loop). False where no loop is open or the innermost assigns one of them."""
        names = set(re.findall(r"[A-Za-z_]\w*", code))
        outer = None
        for top in reversed(self.open_tops):  # innermost first
            if names & top.stored:
                break
            outer = top
        if outer is None:
            return False
        header = self.loop_header(outer)
        if header is None:
            return False
        pad = self.lines[header][: len(self.lines[header]) - len(self.lines[header].lstrip())]
        self.lines.insert(header, f"{pad}const int {name} = {code};")
        return True

    def loop_header(self, loop: "OpenLoop") -> int | None:
        """The index of an open loop's opening line (`for (...) {`, or the `#pragma unroll` before it):
        the line before its LOOP_TOP line. None where there is none."""
        at = next((k for k in range(len(self.lines) - 1, -1, -1) if self.lines[k].lstrip() == loop.top), None)
        if at is None or at == 0:
            return None
        header = at - 1
        while header > 0 and self.lines[header - 1].strip() == "#pragma unroll":
            header -= 1
        return header

    def offset_local(self, code: str) -> str | None:
        """The local an earlier tile op evaluated `code` into, where it is still in scope (no line
        since its declaration sits left of it: no block holding it has closed) and still current
        (`forget_offsets` drops it when a name it reads is assigned): two loads at one offset share
        it, as a person writes them."""
        name = self.offset_locals.get(code)
        if name is None:
            return None
        declaration = f"const int {name} = {code};"
        at = next((k for k in range(len(self.lines) - 1, -1, -1) if self.lines[k].strip() == declaration), None)
        depth = 0 if at is None else len(self.lines[at]) - len(self.lines[at].lstrip())
        if at is not None and all(len(line) - len(line.lstrip()) >= depth for line in self.lines[at + 1:] if line.strip()):
            return name
        del self.offset_locals[code]
        return None

    def forget_offsets(self, stored: set[str]) -> None:
        """Before a statement assigning `stored` (a loop: anywhere in its body): offsets reading them
        are no longer current."""
        for code in [c for c in self.offset_locals if stored & set(re.findall(r"[A-Za-z_]\w*", c))]:
            del self.offset_locals[code]

    def array_window(self, arr: CExpr, shape: tuple[int, ...], offs: list[str], e: str, bounds_check: bool,
                     fixed: int = 0):
        """(declarations, C condition or None, flat array index) of tile element `e` in the array.
        `fixed`: leading dimensions a view fixes (`x[i]`), outside the bounds test as in Warp, whose
        tile operations test the view's own dimensions."""
        bases = ("row", "col", "depth")[: len(shape)] if len(shape) > 1 else ("idx",)
        lines, names = [], []
        for base, o, c in zip(bases, offs, coords(e, shape)):
            value = c if o == "0" else (o if c == "0" else f"{o} + {c}")
            if value == "0" or value.isidentifier():  # a tile's one row at offset 0, an offset local, e itself
                names.append(value)
                continue
            names.append(self.fresh(base))
            lines.append(f"const int {names[-1]} = {value};")
        # every array the program allocates has at least one element along each dimension: 0 is inside
        checks = [f"{n} < {arr.code}_dim{k}" for k, n in enumerate(names) if n != "0" and k >= fixed]
        cond = " && ".join(checks) if bounds_check and checks else None
        flat = names[0]
        for k in range(1, len(names)):
            if flat == "0":  # the outer coordinates so far are all 0
                flat = names[k]
                continue
            outer = f"({flat})" if " + " in flat else flat
            flat = f"{outer} * {arr.code}_dim{k}" + (f" + {names[k]}" if names[k] != "0" else "")
        return lines, cond, flat

    def record_access(self, arr_node: ast.AST, offset: ast.AST | None, shape: tuple[int, ...]) -> None:
        elts = tuple(offset.elts) if isinstance(offset, ast.Tuple) else ((offset,) if offset is not None else (None,) * len(shape))
        if isinstance(arr_node, ast.Subscript):  # a view: its indices are offsets of extent 1
            index = arr_node.slice
            fixed = tuple(index.elts) if isinstance(index, ast.Tuple) else (index,)
            arr_node, elts, shape = arr_node.value, fixed + elts, (1,) * len(fixed) + tuple(shape)
        if isinstance(arr_node, ast.Name):
            self.tile_accesses.append((arr_node.id, elts, shape))

    def array_source(self, node: ast.AST, what: str) -> tuple[CExpr, list[str]]:
        """The array a tile operation reads or writes, and the leading indices a view of it fixes:
        `x[i]`, Warp's array view of row i of a 2-D array (a 1-D array), is `x` with the tile's offset
        along its first dimension fixed at i (evaluated as the offsets are)."""
        if isinstance(node, ast.Subscript):
            index_nodes = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            base = self.emit(node.value)
            if isinstance(base.type, ArrayType) and len(index_nodes) < base.type.ndim \
                    and not any(isinstance(i, ast.Slice) for i in index_nodes):
                return base, self.offsets(node.slice, len(index_nodes))
        return self.array_arg(node, what), []

    # ---- memory ------------------------------------------------------------------------------
    def tile_load(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        dest = self.claim_dest()
        arr, fixed = self.array_source(a["a"], "wp.tile_load")
        shape = self.const_shape(a["shape"])
        if len(fixed) + len(shape) != arr.type.ndim:
            raise self.error(node, f"tile shape {shape} for a {arr.type.ndim - len(fixed)}-D array")
        check = self.const_flag(a.get("bounds_check"), True, "bounds_check")
        self.const_flag(a.get("storage"), "register", "storage")  # shared or register: both are shared memory here
        self.const_flag(a.get("aligned"), False, "aligned")
        offs = fixed + self.offsets(a.get("offset"), len(shape))
        self.record_access(a["a"], a.get("offset"), shape)
        tt = TileType(arr.type.dtype, shape)
        dst = self.tile_buffer(node, tt, dest)
        self.access(writes={dst: True})
        self.out(f"// {dst} = {'x'.join(map(str, shape))} tile of {ast.unparse(a['a'])} (outside the array: 0)"
                 if check else f"// {dst} = {'x'.join(map(str, shape))} tile of {ast.unparse(a['a'])}")

        def body(e):
            lines, cond, flat = self.array_window(arr, (1,) * len(fixed) + shape, offs, e, check, len(fixed))
            value = f"{arr.code}[{flat}]"
            return lines + [f"{dst}[{e}] = {f'({cond}) ? {value} : {zero_of(tt.dtype)}' if cond else value};"]
        self.coop(tt.size, body)
        return CExpr(dst, tt)

    def tile_store(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        if not statement:
            raise self.unsupported(node, "the value of wp.tile_store")
        self.consumer_loop([self.consumer(node, a, "tile_store")])
        return CExpr("", "void")

    def tile_atomic_add(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        if not statement:
            raise self.unsupported(node, "the value of wp.tile_atomic_add (the tile of old values)")
        self.consumer_loop([self.consumer(node, a, "tile_atomic_add")])
        return CExpr("", "void")

    def consumer(self, node: ast.Call, a: dict, key: str) -> "ElementConsumer":
        """A store or atomic add of a tile into an array, its arguments evaluated (offsets into
        locals), its loop not yet emitted (`consumer_loop`)."""
        what = f"wp.{key}"
        arr, fixed = self.array_source(a["a"], what)
        t = self.tile_operand(a["t"])
        tt = t.type
        if len(fixed) + len(tt.shape) != arr.type.ndim or tt.dtype != arr.type.dtype:
            raise self.error(node, f"{what} of a {tt} into a {arr.type.ndim - len(fixed)}-D array of {arr.type.dtype}")
        check = self.const_flag(a.get("bounds_check"), True, "bounds_check")
        if key == "tile_store":
            self.const_flag(a.get("aligned"), False, "aligned")
        offs = fixed + self.offsets(a.get("offset"), len(tt.shape))
        self.record_access(a["a"], a.get("offset"), tt.shape)

        def body(e: str, value: CExpr) -> list[str]:
            lines, cond, flat = self.array_window(arr, (1,) * len(fixed) + tt.shape, offs, e, check, len(fixed))
            place = f"{arr.code}[{flat}]"
            if key == "tile_store":
                effect = f"{place} = {value.code};"
            else:
                effect = self.atomic_call(node, "atomic_add", CExpr(place, tt.dtype), value).code + ";"
            return lines + ([f"if ({cond})", f"    {effect}"] if cond else [effect])
        self.access(self.tile_reads(t))
        return ElementConsumer(node, self.current_stmt, t, body)

    def consumer_loop(self, consumers: list["ElementConsumer"]) -> None:
        """The work of each consumer (tiles of one shape) over the elements. A lazy value that several
        consume is computed once per element: into registers, each consumer then running its own
        loop over them (`register_consumer_loops`), or, where the registers would exceed
        REGISTER_TILE_WORDS, into a local of one loop doing every consumer's work."""
        values = [c.value for c in consumers]
        shared = [v.code for k, v in enumerate(values) if self.lazy_of(v) is not None
                  and any(w.code == v.code for w in values[:k]) and all(w.code != v.code for w in values[k + 1:])]
        size = values[0].type.size
        registers = -(-size // self.block_dim)
        words = max((register_words(self.element(next(v for v in values if v.code == code)).type)
                     for code in shared), default=0)
        if shared and registers * words <= REGISTER_TILE_WORDS:
            self.register_consumer_loops(consumers, shared)
            return
        if len(consumers) == 1:
            current, self.current_stmt = self.current_stmt, consumers[0].stmt
            self.fused_comment(values)
            self.current_stmt = current
        else:
            head, start = "one loop for " + "; ".join(ast.unparse(c.node) for c in consumers), len(self.lines)
            self.fused_comment(values, f"{head}: computes inline")
            if len(self.lines) == start:
                self.out(f"// {head}")
            if shared:
                self.out(f"// (one loop, not registers: {registers} elements per thread of a shared value would take "
                         f"{registers * words} registers, over {REGISTER_TILE_WORDS})")

        def body(e: str) -> list[str]:
            lines, locals_ = [], {}
            for code in shared:  # in the order of their last consumer: deterministic
                v = next(v for v in values if v.code == code)
                name = self.fresh(f"{self.var_of(v) or 'value'}_e")
                el = self.element_at(v, e)
                lines.append(f"const {self.module.ctype(el.type)} {name} = {el.code};")
                locals_[code] = CExpr(name, el.type)
            for c in consumers:
                lines += c.body(e, locals_.get(c.value.code) or self.element_at(c.value, e))
            return lines
        self.coop(size, body)

    def register_consumer_loops(self, consumers: list["ElementConsumer"], shared: list[str]) -> None:
        """Warp's register tile (tile.h, `tile_layout_register_t`): each shared lazy value computed
        once into a per-thread array, element k of it being tile element threadIdx.x + k * TILE_THREADS
        (the thread's own elements, as in every strided loop), in one unrolled loop; then one
        unrolled loop per consumer reading the registers, the stores first, then the atomic adds,
        each in source order (the run's statements are independent, `fusable_consumers`). Why: on an
        H100 this form of the issue-9 kernel ran at Warp's speed, one loop doing both at 0.86x
        (notes/design.md); the value's loads and arithmetic are issued before any store or atomic."""
        values = [c.value for c in consumers]
        size = values[0].type.size
        registers = -(-size // self.block_dim)
        head = "; ".join(ast.unparse(c.node) for c in consumers)
        start = len(self.lines)
        self.fused_comment(values, f"{head}: the shared value computed once per element into registers (Warp's register tile)")
        if len(self.lines) == start:
            self.out(f"// {head}: the shared value computed once per element into registers (Warp's register tile)")
        k = self.fresh("k")

        def loop(body) -> None:
            """An unrolled loop over the thread's elements; `body(e)` gives the lines for element e."""
            e = self.fresh("e")
            self.out("#pragma unroll")
            self.out(f"for (int {k} = 0; {k} < {registers}; ++{k}) {{")
            self.indent += 1
            self.out(f"const int {e} = threadIdx.x + {k} * {TILE_THREADS};")
            if size % self.block_dim:  # the last register of some threads is past the tile
                self.out(f"if ({e} < {size}) {{")
                self.indent += 1
            for line in body(e):
                self.out(line)
            if size % self.block_dim:
                self.indent -= 1
                self.out("}")
            self.indent -= 1
            self.out("}")
        held = {}
        for code in shared:  # in the order of their last consumer: deterministic
            v = next(v for v in values if v.code == code)
            name = self.fresh(f"{self.var_of(v) or 'value'}_reg")
            el_type = self.element(v).type
            # where the tile does not fill every thread's last slot, the slot starts at zero: the loops
            # below never read it, but a compiler cannot always tell (g++'s -Wmaybe-uninitialized, the
            # host check's error, when a store between the loops might change what threadIdx.x reads)
            init = " = {}" if size % self.block_dim else ""
            self.out(f"{self.module.ctype(el_type)} {name}[{registers}]{init};  // element threadIdx.x + {k} * "
                     f"{TILE_THREADS} in {name}[{k}]")
            held[code] = (name, el_type, v)
        loop(lambda e: [f"{name}[{k}] = {self.element_at(v, e).code};" for name, _, v in held.values()])
        ordered = [c for c in consumers if c.node.func.attr == "tile_store"] + \
                  [c for c in consumers if c.node.func.attr != "tile_store"]
        for c in ordered:
            if c.value.code in held:
                name, el_type, _ = held[c.value.code]
                loop(lambda e, c=c, name=name, el_type=el_type: c.body(e, CExpr(f"{name}[{k}]", el_type)))
            else:
                loop(lambda e, c=c: c.body(e, self.element_at(c.value, e)))

    def var_of(self, v: CExpr) -> str | None:
        """The tile variable bound to value `v`, if any (for a local's name)."""
        return next((n for n, b in sorted(self.tile_vars.items()) if b.value.code == v.code), None)

    def fusable_consumers(self, stmts: list[ast.stmt], first: int) -> int:
        """How many statements from `stmts[first]` on are stores and atomic adds of tiles whose loops
        may be one (1: none to fuse). A follower must be provably unaffected by running before the
        loops of those ahead of it (its arguments are evaluated before them) and by sharing their loop:
        its tile is tile variables combined by arithmetic with constants (no call, so no shared-memory
        access and no array read), its offsets integer arithmetic of scalars, and its array a kernel
        parameter that is never reassigned and that no other consumer of the run writes (the program
        allocates each array parameter separately, so distinct parameters are distinct buffers; the
        translator declares read-only ones of power-of-two elements `__restrict__`). Whether the shapes agree is checked
        before each is evaluated (`fused_consumer_run`)."""
        from cuda_production.translator import TranslationError
        if not self.block_dim or consumer_call(stmts[first]) is None:
            return 1
        stores = self.store_counts()
        kernel_arrays = {p.name for p in self.params if p.kind == "array"} & {arg.arg for arg in self.fn.args.args}

        def arguments(stmt: ast.stmt) -> dict | None:
            call = consumer_call(stmt)
            try:
                return None if call is None else self.bind(call, TILE_BUILTINS[call.func.attr])
            except TranslationError:  # reported when the statement is translated, in order
                return None
        head = arguments(stmts[first])
        if not (head and isinstance(head["a"], ast.Name) and head["a"].id in kernel_arrays
                and stores.get(head["a"].id, 0) == 1):
            return 1
        count, targets = 1, {head["a"].id}
        for stmt in stmts[first + 1:]:
            args = arguments(stmt)
            if args is None:
                break
            dest = args["a"]
            if not (isinstance(dest, ast.Name) and dest.id in kernel_arrays and stores.get(dest.id, 0) == 1
                    and dest.id not in targets):
                break
            if not (self.pure_tile_expr(args["t"]) and all(self.pure_int_expr(args[k]) for k in ("offset",) if k in args)
                    and all(isinstance(args[k], ast.Constant) for k in ("bounds_check", "aligned") if k in args)):
                break
            targets.add(dest.id)
            count += 1
        return count

    def pure_tile_expr(self, node: ast.AST) -> bool:
        """Tile variables combined by + - * / and negation with numeric literals and module constants:
        evaluated without emitting a line (no call, no array, no per-thread scalar)."""
        if isinstance(node, ast.Name):
            return self.is_tile_var(node.id) or (node.id in self.module.info.constants and self.lookup(node.id) is None)
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)) \
                and self.pure_tile_expr(node.left) and self.pure_tile_expr(node.right)
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, ast.USub) and self.pure_tile_expr(node.operand)
        return False

    def pure_int_expr(self, node: ast.AST) -> bool:
        """Integer arithmetic of literals, module constants and scalar locals or parameters (no array,
        no call): its value is the same before or after stores to arrays."""
        if isinstance(node, ast.Tuple):
            return all(self.pure_int_expr(e) for e in node.elts)
        if isinstance(node, ast.Name):
            return node.id not in self.arrays and not self.is_tile_var(node.id)
        if isinstance(node, ast.Constant):
            return isinstance(node.value, int) and not isinstance(node.value, bool)
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)) \
                and self.pure_int_expr(node.left) and self.pure_int_expr(node.right)
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, ast.USub) and self.pure_int_expr(node.operand)
        return False

    def fused_consumer_run(self, stmts: list[ast.stmt]) -> int:
        """Statements `fusable_consumers` accepted: the first, then each next whose tile has the
        first's shape (read from its tile variables before it is evaluated), share one loop. Returns
        how many statements it translated (the others are translated as usual)."""
        group: list[ElementConsumer] = []
        for stmt in stmts:
            call = consumer_call(stmt)
            args = self.bind(call, TILE_BUILTINS[call.func.attr])
            if group and self.pure_tile_shape(args["t"]) != group[0].value.type.shape:
                break
            self.tile_statement(stmt)
            group.append(self.consumer(call, args, call.func.attr))
        self.consumer_loop(group)
        return len(group)

    def pure_tile_shape(self, node: ast.AST) -> tuple[int, ...] | None:
        """The shape of a `pure_tile_expr` tile: its first tile variable's (None: it has none)."""
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and self.is_tile_var(n.id):
                return self.tile_var(n.id).type.shape if n.id in self.tile_vars else self.tiles[self.pinned[n.id]].shape
        return None

    # ---- construction ------------------------------------------------------------------------
    def tile_fill(self, node: ast.Call, a: dict, one: bool) -> CExpr:
        """A constant tile: lazy, its element the constant (stored only where an operation needs it)."""
        self.claim_dest()
        shape = self.const_shape(a["shape"])
        dtype = "float32"
        if "dtype" in a:
            dtype = self.annotation_type(a["dtype"])
        self.const_flag(a.get("storage"), "register", "storage")
        if dtype not in TILE_DTYPES:
            raise self.unsupported(node, f"tile of {dtype}")
        return self.make_lazy(TileType(dtype, shape), CExpr(zero_of(dtype, one), dtype), {}, 0, False, False, [])

    def tile_zeros(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.tile_fill(node, a, False)

    def tile_ones(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.tile_fill(node, a, True)

    def tile_from_threads(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """wp.tile(x): thread `lane` contributes element `lane` (a vector: column `lane`)."""
        dest = self.claim_dest()
        x = self.emit(a["x"])
        preserve = self.const_flag(a.get("preserve_type"), False, "preserve_type")
        b = self.block_dim
        if isinstance(x.type, LocalVectorType):  # a local vector of any length: component k in row k
            if preserve:
                raise self.unsupported(node, f"wp.tile(preserve_type=True) of a {x.type}")
            tt = TileType(x.type.dtype, (x.type.length, b))
            dst = self.tile_buffer(node, tt, dest)
            k = self.fresh("k")
            self.access(writes={dst: True})
            self.out(f"for (int {k} = 0; {k} < {x.type.length}; ++{k})  // component k of each thread's vector: row k")
            self.out(f"    {dst}[{k} * {b} + threadIdx.x] = {x.code}[{k}];")
            return CExpr(dst, tt)
        if x.type in ("float32", "float64", "int32", "uint32") or (is_vec(x.type) and preserve):
            tt = TileType(x.type, (b,))
        elif is_vec(x.type):
            tt = TileType("float32", (VEC_LEN[x.type], b))
        else:
            raise self.unsupported(node, f"wp.tile() of a {x.type}")
        if len(tt.shape) == 2 and x.prec < 16:
            value = self.fresh("value")
            self.out(f"const {self.module.ctype(x.type)} {value} = {x.code};")
            x = CExpr(value, x.type)
        dst = self.tile_buffer(node, tt, dest)
        self.access(writes={dst: True})  # element threadIdx.x (+ k * block_dim): the thread's own
        if len(tt.shape) == 1:
            self.out(f"{dst}[threadIdx.x] = {x.code};  // one element per thread of the block")
        else:
            for k in range(tt.shape[0]):
                self.out(f"{dst}[{k * b} + threadIdx.x] = {x.at(16)}.{COMPONENTS[k]};")
        return CExpr(dst, tt)

    def untile(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        self.claim_dest()  # the result is a per-thread value, not a tile
        t = self.tile_operand(a["a"])
        tt, b = t.type, self.block_dim
        if tt.shape == (b,):
            self.access(self.tile_reads(t))
            return self.element_at(t, "threadIdx.x")
        if len(tt.shape) == 2 and tt.shape[1] == b and tt.dtype == "float32" and tt.shape[0] in (2, 3, 4):
            n = tt.shape[0]
            self.access(self.tile_reads(t))
            parts = ", ".join(self.element_at(t, f"{k * b} + threadIdx.x").code for k in range(n))
            return CExpr(f"make_float{n}({parts})", f"vec{n}")
        if len(tt.shape) == 2 and tt.shape[1] == b and tt.dtype in ("float32", "float64", "float16", "int32"):
            # a vector of another length or type (Warp's vector(length=rows, dtype)): a local C array
            vt = LocalVectorType(tt.dtype, tt.shape[0])
            name, k = self.fresh("untiled"), self.fresh("k")
            self.access(self.tile_reads(t))
            self.out(f"{self.module.ctype(tt.dtype)} {name}[{vt.length}];  // column threadIdx.x of {ast.unparse(a['a'])}")
            self.out(f"for (int {k} = 0; {k} < {vt.length}; ++{k})")
            self.out(f"    {name}[{k}] = {self.element_at(t, f'{k} * {b} + threadIdx.x').code};")
            return CExpr(name, vt)
        raise self.unsupported(node, f"wp.untile of a {tt} with block_dim {b}")

    # ---- reductions and products -------------------------------------------------------------
    def tile_sum(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        if "axis" in a:
            return self.tile_sum_axis(node, a)
        return self.tile_reduction(node, a, "sum")

    def tile_max(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.tile_reduction(node, a, "max")

    def tile_min(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.tile_reduction(node, a, "min")

    def tile_reduction(self, node: ast.Call, a: dict, kind: str, func: str | None = None) -> CExpr:
        """wp.tile_sum / tile_max / tile_min / tile_reduce of a whole tile, a (1,) tile: a strided
        partial per thread (a thread with no element holds the operation's identity), then the warps'
        shuffles (`warp_reduction`) or, in a block of no whole warps, a tree over the block. `kind`
        "func": wp.tile_reduce of the @wp.func named `func`, which has no identity: a thread with no
        element holds no partial, and the tree skips those."""
        dest = self.claim_dest()
        t = self.tile_operand(a["a"])
        dtype = t.type.dtype
        label = f"wp.tile_{kind}" if kind in ("sum", "max", "min") else "wp.tile_reduce"
        if dtype not in ("float32", "float64", "int32") and not (dtype == "uint32" and kind in ("sum", "max", "min")):
            raise self.unsupported(node, f"{label} of a tile of {dtype}")
        if func is not None:
            func = self.reduce_func(node, func, dtype)
        b = self.block_dim
        tt = TileType(dtype, (1,))
        dst = self.tile_buffer(node, tt, dest, "total" if kind == "sum" else kind, {k: False for k in self.tile_reads(t)})
        acc, e, stride = self.fresh(kind if kind != "func" else "acc"), self.fresh("e"), self.fresh("stride")
        ct = self.module.ctype(dtype)
        start, combine = reduction_identity(kind, dtype), reduction_combine(kind, dtype, func)
        what = {"sum": "sum", "max": "largest element", "min": "smallest element", "product": "product",
                "func": f"{ast.unparse(a.get('op', node))} over the elements"}[kind]
        self.access(self.tile_reads(t))
        size = t.type.size
        if b % WARP == 0 and (start is not None or size >= b):
            return self.warp_reduction(node, a, t, kind, start, combine, what, dst, tt)
        partial = self.new_buffer(node, TileType(dtype, (b,)), "partial")
        if start is None:
            valid = min(size, b)  # threads holding a partial: those with an element
            self.out(f"// {dst} = {what} of {ast.unparse(a['a'])}: a strided partial per thread holding an element, "
                     f"then a tree over the {valid} partials")
            self.fused_comment([t])
            self.access(writes={partial: True})
            self.out(f"if (threadIdx.x < {size}) {{" if size < b else "{")
            self.out(f"    {ct} {acc} = {self.element_at(t, 'threadIdx.x').code};")
            if size > b:
                self.out(f"    for (int {e} = threadIdx.x + {TILE_THREADS}; {e} < {size}; {e} += {TILE_THREADS})")
                self.out(f"        {acc} = {combine(acc, self.element_at(t, e).code)};")
            self.out(f"    {partial}[threadIdx.x] = {acc};")
            self.out("}")
            self.barrier()
            mine, theirs = f"{partial}[threadIdx.x]", f"{partial}[threadIdx.x + {stride}]"
            if valid > 1:
                top = 1 << (valid - 1).bit_length()  # the smallest power of two >= the partials
                self.out(f"for (int {stride} = {top // 2}; {stride} > 0; {stride} /= 2) {{")
                guard = f"threadIdx.x < {stride}" if valid == top else f"threadIdx.x < {stride} && threadIdx.x + {stride} < {valid}"
                self.out(f"    if ({guard})")
                self.out(f"        {mine} = {combine(mine, theirs)};")
                self.out("    __syncthreads();")
                self.out("}")
            self.access({partial: False}, {dst: True})
            self.out("if (threadIdx.x == 0)")
            self.out(f"    {dst}[0] = {partial}[0];")
            return CExpr(dst, tt)
        self.out(f"// {dst} = {what} of {ast.unparse(a['a'])}: a strided partial per thread, then a tree over the block")
        self.fused_comment([t])
        self.out(f"{ct} {acc} = {start};")
        self.out(f"for (int {e} = threadIdx.x; {e} < {size}; {e} += {TILE_THREADS})")
        element = self.element_at(t, e)
        element = element.at(P_MUL + 1) if kind == "product" else element.code
        self.out(f"    {acc} += {element};" if kind == "sum" else f"    {acc} = {combine(acc, element)};")
        self.access(writes={partial: True})
        self.out(f"{partial}[threadIdx.x] = {acc};")
        self.barrier()
        # the tree by sequential addressing: the lower half of the live partials takes in the upper
        # half, halving (active threads stay contiguous: whole warps retire, no bank conflicts)
        mine, theirs = f"{partial}[threadIdx.x]", f"{partial}[threadIdx.x + {stride}]"
        step = f"{mine} += {theirs};" if kind == "sum" else f"{mine} = {combine(mine, theirs)};"
        top = 1 << (b.bit_length() - 1)  # the largest power of two <= the block
        if top < b:  # a block that is no power of two: its last b - top partials first
            self.out(f"if (threadIdx.x < {b - top})")
            self.out(f"    {mine} {'+=' if kind == 'sum' else '='} "
                     f"{f'{partial}[threadIdx.x + {top}]' if kind == 'sum' else combine(mine, f'{partial}[threadIdx.x + {top}]')};")
            self.out("__syncthreads();")
        if top > 1:
            self.out(f"for (int {stride} = {top // 2}; {stride} > 0; {stride} /= 2) {{")
            self.out(f"    if (threadIdx.x < {stride})")
            self.out(f"        {step}")
            self.out("    __syncthreads();")
            self.out("}")
        self.access({partial: False}, {dst: True})  # after the tree's last barrier; element 0 is thread 0's
        self.out("if (threadIdx.x == 0)")
        self.out(f"    {dst}[0] = {partial}[0];")
        return CExpr(dst, tt)

    def warp_reduction(self, node: ast.Call, a: dict, t: CExpr, kind: str, start: str | None, combine, what: str,
                       dst: str, tt: TileType) -> CExpr:
        """A block reduction as Warp's GPU code does it (a block of whole warps): each thread's strided
        partial (from the identity, or from its first element when the operation has none and every
        thread holds one), each warp's 32 partials by register shuffles, one partial per warp in shared
        memory, one barrier, then thread 0 combines the warps' partials in order. Two barriers fewer
        per halving than a shared-memory tree, and the order of combination is Warp's."""
        b = self.block_dim
        warps = b // WARP
        dtype = t.type.dtype
        ct = self.module.ctype(dtype)
        partial = self.new_buffer(node, TileType(dtype, (warps,)), "warp_partial") if warps > 1 else None
        acc, e, offset, w = (self.fresh(n) for n in (kind if kind != "func" else "acc", "e", "offset", "w"))
        size = t.type.size
        self.out(f"// {dst} = {what} of {ast.unparse(a['a'])}: a strided partial per thread, " +
                 (f"each warp's by shuffles, then the {warps} warps' in order" if warps > 1 else "then the warp's by shuffles"))
        self.fused_comment([t])
        first = start is None
        self.out(f"{ct} {acc} = {self.element_at(t, 'threadIdx.x').code if first else start};")
        lo = f"threadIdx.x + {TILE_THREADS}" if first else "threadIdx.x"
        if not first or size > b:
            self.out(f"for (int {e} = {lo}; {e} < {size}; {e} += {TILE_THREADS})")
            element = self.element_at(t, e)
            element = element.at(P_MUL + 1) if kind == "product" else element.code
            self.out(f"    {acc} += {element};" if kind == "sum" else f"    {acc} = {combine(acc, element)};")
        self.out(f"for (int {offset} = {WARP // 2}; {offset} > 0; {offset} /= 2)  // the warp's partials, lane by lane")
        theirs = f"__shfl_down_sync(0xffffffffu, {acc}, {offset})"
        self.out(f"    {acc} += {theirs};" if kind == "sum" else f"    {acc} = {combine(acc, theirs)};")
        if warps == 1:  # lane 0 holds the block's result
            self.access(writes={dst: True})  # thread 0 writes element 0, its own
            self.out("if (threadIdx.x == 0)")
            self.out(f"    {dst}[0] = {acc};")
            return CExpr(dst, tt)
        self.access(writes={partial: False})  # slot threadIdx.x / 32: lane 0's of its warp
        self.out(f"if (threadIdx.x % {WARP} == 0)")
        self.out(f"    {partial}[threadIdx.x / {WARP}] = {acc};")
        self.barrier()
        self.access({partial: False}, {dst: True})
        if warps == 2:
            both = f"{partial}[0] + {partial}[1]" if kind == "sum" else combine(f"{partial}[0]", f"{partial}[1]")
            self.out("if (threadIdx.x == 0)")
            self.out(f"    {dst}[0] = {both};")
            return CExpr(dst, tt)
        total = self.fresh("total")
        self.out("if (threadIdx.x == 0) {")
        self.out(f"    {ct} {total} = {partial}[0];")
        self.out(f"    for (int {w} = 1; {w} < {warps}; ++{w})")
        step = f"{total} += {partial}[{w}];" if kind == "sum" else f"{total} = {combine(total, f'{partial}[{w}]')};"
        self.out(f"        {step}")
        self.out(f"    {dst}[0] = {total};")
        self.out("}")
        return CExpr(dst, tt)

    def tile_reduce(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """wp.tile_reduce(op, t[, axis]): wp.add / mul / max / min, or a @wp.func of two elements
        returning one (Warp requires an associative op; the order of combination is the tree's)."""
        op = a["op"]
        func = None
        if _is_wp(op, *REDUCE_BUILTINS):
            kind = REDUCE_BUILTINS[op.attr]
        elif isinstance(op, ast.Name) and op.id in self.module.info.funcs:
            kind, func = "func", op.id
        else:
            raise self.unsupported(op, "wp.tile_reduce of anything but wp.add, wp.mul, wp.max, wp.min or a @wp.func")
        if "axis" in a:
            return self.tile_reduce_axis(node, a, kind, func)
        return self.tile_reduction(node, a, kind, func)

    def reduce_func(self, node: ast.Call, name: str, dtype: str) -> str:
        """The C name of @wp.func `name`, reducing tiles of `dtype`: it takes two of them, returns one."""
        if generic_params(self.module.info.funcs[name]):  # Warp 1.19's CPU build of one fails
            raise self.unsupported(node, f"wp.tile_reduce with the generic @wp.func '{name}' (give its parameters types)")
        sig = self.module.translate_func(name, node)
        if len(sig.params) != 2 or any(p.dtype != dtype for p in sig.params) or sig.return_type != dtype:
            raise self.error(node, f"wp.tile_reduce: '{name}' does not take two {dtype} and return one")
        return self.module.func_c_name(name)

    def tile_sum_axis(self, node: ast.Call, a: dict) -> CExpr:
        return self.tile_reduce_axis(node, a, "sum", None)

    def tile_reduce_axis(self, node: ast.Call, a: dict, kind: str, func: str | None) -> CExpr:
        """wp.tile_sum(t, axis=k) or wp.tile_reduce(op, t, axis=k) of a 2-D tile: the tile with that
        dimension reduced away (column results for axis 0, row results for axis 1); each thread
        reduces a strided share of the results, each in order. A sum starts from zero, any other
        operation from the first element (a @wp.func has no identity)."""
        dest = self.claim_dest()
        t = self.read_once_each(a["a"])
        dtype = t.type.dtype
        label = "wp.tile_sum" if kind == "sum" and "op" not in a else "wp.tile_reduce"
        if dtype not in ("float32", "float64", "int32") or len(t.type.shape) != 2:
            raise self.unsupported(node, f"{label} along an axis of a {t.type} (2-D tiles of scalars only)")
        axis = self.const_int(a["axis"], "axis")
        if axis not in (0, 1):
            raise self.error(node, f"axis {axis} of a 2-D tile")
        if func is not None:
            func = self.reduce_func(node, func, dtype)
        rows, cols = t.type.shape
        kept, count = (cols, rows) if axis == 0 else (rows, cols)
        tt = TileType(dtype, (kept,))
        reads = {k: False for k in self.tile_reads(t)}
        base = {"sum": "sums", "product": "products", "max": "maxima", "min": "minima", "func": "reduced"}[kind]
        dst = self.tile_buffer(node, tt, dest, base, reads)
        acc, r = self.fresh("sum" if kind == "sum" else "acc"), self.fresh("r")
        ct = self.module.ctype(dtype)
        combine = reduction_combine(kind, dtype, func)
        self.access(reads, {dst: True})
        what = "summed" if kind == "sum" else f"reduced by {ast.unparse(a['op'])}"
        self.out(f"// {dst} = {ast.unparse(a['a'])} ({rows}x{cols}) {what} along axis {axis}: "
                 f"one {'column' if axis == 0 else 'row'} per element")

        def body(e):
            def element(k):
                return (self.element_rc(t, k, e) if axis == 0 else self.element_rc(t, e, k)).code
            if kind == "sum":
                return [f"{ct} {acc} = {zero_of(dtype)};", f"for (int {r} = 0; {r} < {count}; ++{r})",
                        f"    {acc} += {element(r)};", f"{dst}[{e}] = {acc};"]
            if kind == "product":
                lines = [f"{ct} {acc} = {element('0')};"]
                if count > 1:
                    lines += [f"for (int {r} = 1; {r} < {count}; ++{r})",
                              f"    {acc} = {acc} * {(self.element_rc(t, r, e) if axis == 0 else self.element_rc(t, e, r)).at(P_MUL + 1)};"]
                return lines + [f"{dst}[{e}] = {acc};"]
            lines = [f"{ct} {acc} = {element('0')};"]
            if count > 1:
                lines += [f"for (int {r} = 1; {r} < {count}; ++{r})", f"    {acc} = {combine(acc, element(r))};"]
            return lines + [f"{dst}[{e}] = {acc};"]
        self.coop(kept, body)
        return CExpr(dst, tt)

    def tile_argmax(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.tile_arg_reduction(node, a, ">", "largest")

    def tile_argmin(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.tile_arg_reduction(node, a, "<", "smallest")

    def tile_arg_reduction(self, node: ast.Call, a: dict, better: str, what: str) -> CExpr:
        """wp.tile_argmax / tile_argmin: a (1,) int tile holding the flat index of the largest
        (smallest) element. Each thread keeps its first best element of its strided share, then a tree
        over the block. Among equal elements the one owned by the lowest thread wins (index % block),
        then its first: Warp on the CPU combines its threads in order so, and its GPU picks by its
        shuffle tree (the same index where the best element is unique)."""
        dest = self.claim_dest()
        t = self.tile_operand(a["a"])
        dtype = t.type.dtype
        if dtype not in ("float32", "float64", "int32"):
            raise self.unsupported(node, f"wp.tile_arg{'max' if better == '>' else 'min'} of a tile of {dtype}")
        b = self.block_dim
        slots = b // WARP if b % WARP == 0 else b  # a warp's champion each, or a thread's
        if slots > 1:
            values = self.new_buffer(node, TileType(dtype, (slots,)), "best")
            indices = self.new_buffer(node, TileType("int32", (slots,)), "where")
        tt = TileType("int32", (1,))
        dst = self.tile_buffer(node, tt, dest, "index", {k: False for k in self.tile_reads(t)})
        best, where, e, v, stride = (self.fresh(n) for n in ("best", "where", "e", "v", "stride"))

        def wins(other: str, other_at: str, held: str, held_at: str) -> str:
            """Whether a candidate (value, index) replaces the one held: Warp's CPU rule, the better
            value, or an equal one held by a lower thread (index % block); -1: no element."""
            return (f"{other_at} >= 0 && ({held_at} < 0 || {other} {better} {held} || "
                    f"({other} == {held} && {other_at} % {b} < {held_at} % {b}))")
        ct = self.module.ctype(dtype)
        self.access(self.tile_reads(t))
        combined = ("each warp's by shuffles" + (", then the warps' in order" if b > WARP else "")) if b % WARP == 0 \
            else "then a tree over the block"
        self.out(f"// {dst} = index of the {what} element of {ast.unparse(a['a'])}: each thread's first best of its "
                 f"strided share, {combined} (equal ones: the lowest thread's)")
        self.fused_comment([t])
        self.out(f"{ct} {best} = {zero_of(dtype)};")
        self.out(f"int {where} = -1;  // none yet")
        self.out(f"for (int {e} = threadIdx.x; {e} < {t.type.size}; {e} += {TILE_THREADS}) {{")
        self.out(f"    const {ct} {v} = {self.element_at(t, e).code};")
        self.out(f"    if ({where} < 0 || {v} {better} {best}) {{")
        self.out(f"        {best} = {v};")
        self.out(f"        {where} = {e};")
        self.out("    }")
        self.out("}")
        if b % WARP == 0:  # each warp's champion by shuffles, then thread 0 over the warps' in order
            ov, oi, offset, w = (self.fresh(n) for n in ("other", "other_at", "offset", "w"))
            self.out(f"for (int {offset} = {WARP // 2}; {offset} > 0; {offset} /= 2) {{  // the warp's champions, lane by lane")
            self.out(f"    const {ct} {ov} = __shfl_down_sync(0xffffffffu, {best}, {offset});")
            self.out(f"    const int {oi} = __shfl_down_sync(0xffffffffu, {where}, {offset});")
            self.out(f"    if ({wins(ov, oi, best, where)}) {{")
            self.out(f"        {best} = {ov};")
            self.out(f"        {where} = {oi};")
            self.out("    }")
            self.out("}")
            warps = b // WARP
            if warps == 1:  # lane 0 holds the block's champion
                self.access(writes={dst: True})  # thread 0 writes element 0, its own
                self.out("if (threadIdx.x == 0)")
                self.out(f"    {dst}[0] = {where};")
                return CExpr(dst, tt)
            self.access(writes={values: False, indices: False})
            self.out(f"if (threadIdx.x % {WARP} == 0) {{")
            self.out(f"    {values}[threadIdx.x / {WARP}] = {best};")
            self.out(f"    {indices}[threadIdx.x / {WARP}] = {where};")
            self.out("}")
            self.barrier()
            self.access({values: False, indices: False}, {dst: True})
            self.out("if (threadIdx.x == 0) {")
            self.out(f"    {ct} {best} = {values}[0];")
            self.out(f"    int {where} = {indices}[0];")
            self.out(f"    for (int {w} = 1; {w} < {warps}; ++{w})")
            self.out(f"        if ({wins(f'{values}[{w}]', f'{indices}[{w}]', best, where)}) {{")
            self.out(f"            {best} = {values}[{w}];")
            self.out(f"            {where} = {indices}[{w}];")
            self.out("        }")
            self.out(f"    {dst}[0] = {where};")
            self.out("}")
            return CExpr(dst, tt)
        self.access(writes={values: True, indices: True})
        self.out(f"{values}[threadIdx.x] = {best};")
        self.out(f"{indices}[threadIdx.x] = {where};")
        self.barrier()
        top = 1 << (b - 1).bit_length()  # the smallest power of two >= the block
        mine, theirs = f"{indices}[threadIdx.x]", f"{indices}[threadIdx.x + {stride}]"
        mv, tv = f"{values}[threadIdx.x]", f"{values}[threadIdx.x + {stride}]"
        if top > 1:
            guard = f"threadIdx.x < {stride}" if top == b else f"threadIdx.x < {stride} && threadIdx.x + {stride} < {b}"
            self.out(f"for (int {stride} = {top // 2}; {stride} > 0; {stride} /= 2) {{")
            self.out(f"    if ({guard} && {wins(tv, theirs, mv, mine)}) {{")
            self.out(f"        {mv} = {tv};")
            self.out(f"        {mine} = {theirs};")
            self.out("    }")
            self.out("    __syncthreads();")
            self.out("}")
        self.access({values: False, indices: False}, {dst: True})
        self.out("if (threadIdx.x == 0)")
        self.out(f"    {dst}[0] = {indices}[0];")
        return CExpr(dst, tt)

    def tile_arange(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """wp.tile_arange(stop), (start, stop) or (start, stop, step) of constants: lazy, element e is
        start + e * step in the tile's type (float unless dtype says), as Warp computes it. Its length
        is Warp's: ceil((stop - start) / step) counted at that type."""
        from cuda_production.translator import _fold
        self.claim_dest()
        if len(node.args) > 3:
            raise self.error(node, f"wp.tile_arange() takes 1 to 3 positional arguments, got {len(node.args)}")
        dtype = self.annotation_type(a["dtype"]) if "dtype" in a else "float32"
        if dtype not in ARANGE_DTYPES:
            raise self.unsupported(node, f"wp.tile_arange of {dtype}")
        storage = self.const_flag(a.get("storage"), "register", "storage")
        if storage not in ("register", "shared"):
            raise self.error(node, f"storage {storage!r}: Warp takes 'register' or 'shared'")
        values = []
        for arg in node.args:
            value = _fold(arg, self.module.info.constants)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise self.error(arg, f"wp.tile_arange() argument '{ast.unparse(arg)}' is not a constant number "
                                      "(Warp requires literals or module constants)")
            if dtype == "int32" and not (isinstance(value, int) or float(value).is_integer()):
                raise self.error(arg, f"wp.tile_arange() bound {value} of an int tile")
            values.append(value)
        start, stop, step = ([0] + values + [1])[-3:] if len(values) == 1 else (values + [1])[:3]
        if dtype == "int32":
            start, stop, step = int(start), int(stop), int(step)
            if any(not -2**31 <= v < 2**31 for v in (start, stop, step)):
                raise self.unsupported(node, "wp.tile_arange bounds beyond int32")
        else:
            try:
                start, stop, step = (represent(v, dtype) for v in (start, stop, step))
            except OverflowError:
                raise self.error(node, f"wp.tile_arange() bounds beyond {dtype}") from None
            if not all(math.isfinite(v) for v in (start, stop, step)):
                raise self.error(node, f"wp.tile_arange() bounds beyond {dtype}")
        if step == 0:
            raise self.error(node, "wp.tile_arange() step cannot be zero")
        if (step > 0 and start >= stop) or (step < 0 and start <= stop):
            raise self.error(node, f"wp.tile_arange({start}, {stop}, {step}) has no elements")
        if dtype == "int32":
            n = -((stop - start) // -step)
        else:
            try:
                quotient = represent((stop - start) / step, dtype)
            except OverflowError:
                quotient = math.inf
            if not math.isfinite(quotient):
                raise self.error(node, f"wp.tile_arange({start}, {stop}, {step}) spans more elements than can be counted")
            n = max(1, math.ceil(quotient))
        if n > 1 << 20:
            raise self.unsupported(node, f"wp.tile_arange of {n} elements")
        tt = TileType(dtype, (n,))
        # Warp's element: start + linear * step, the int index converted to the tile's type
        index = E if dtype == "int32" else f"({self.module.ctype(dtype)}){E}"
        lit = (lambda v: str(v)) if dtype == "int32" else (lambda v: float_literal(v) if dtype == "float32" else double_literal(v))
        if (start, step) == (0, 1):
            element = CExpr(index, dtype, P_UNARY)
        else:
            scaled = index if step == 1 else f"{index} * {lit(step) if step > 0 else f'({lit(step)})'}"
            element = CExpr(f"{lit(start)} + {scaled}" if start else scaled, dtype, P_ADD if start else P_MUL)
        return self.make_lazy(tt, element, {}, 0 if (start, step) == (0, 1) else 2, False, False, [])

    def tile_full(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """wp.tile_full(shape, value[, dtype]): every element the value (converted to dtype), lazy; a
        value other than a constant is read once, here, into a local (each thread's own, as Warp's
        threads fill the elements they hold with theirs)."""
        from cuda_production.translator import _fold
        self.claim_dest()
        shape = self.const_shape(a["shape"])
        storage = self.const_flag(a.get("storage"), "register", "storage")
        if storage not in ("register", "shared"):
            raise self.error(node, f"storage {storage!r}: Warp takes 'register' or 'shared'")
        value = self.emit(a["value"])
        dtype = self.annotation_type(a["dtype"]) if "dtype" in a else value.type
        if dtype not in TILE_DTYPES:
            raise self.unsupported(node, f"tile of {dtype}")
        if value.type != dtype:
            if value.type not in ("float32", "float64", "int32", "float16") or dtype not in ("float32", "float64", "int32", "float16"):
                raise self.error(node, f"wp.tile_full of a {value.type} value as {dtype}")
            value = self.call_builtin(node, "float" if dtype == "float32" else "int" if dtype == "int32" else dtype, [value])
        varying = _fold(a["value"], self.module.info.constants) is None
        if varying and not value.literal:
            name = self.fresh("fill")
            self.out(f"const {self.module.ctype(dtype)} {name} = {value.code};  // {ast.unparse(a['value'])}, read once")
            value = CExpr(name, dtype)
        return self.make_lazy(TileType(dtype, shape), value, {}, 0, False, varying, [])

    def tile_matmul(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """c = a @ b, or out = alpha * a @ b + beta * out: each thread computes a strided share of the
        output elements, each an inner product over rows of a and columns of b in shared memory
        (an operand that is only indexing, a transpose or a constant, is read through its index)."""
        accumulate = "out" in a
        dest = None if accumulate else self.claim_dest()
        if accumulate and not statement:
            raise self.unsupported(node, "the value of wp.tile_matmul(a, b, out)")
        ta, tb = self.indexable(a["a"]), self.indexable(a["b"])
        for t, src in ((ta, a["a"]), (tb, a["b"])):
            if len(t.type.shape) != 2 or t.type.dtype not in MATMUL_DTYPES:
                raise self.unsupported(src, f"wp.tile_matmul of a {t.type} (2-D float tiles only)")
        (m, k), (k2, n) = ta.type.shape, tb.type.shape
        if k != k2:
            raise self.error(node, f"wp.tile_matmul of shapes {ta.type.shape} and {tb.type.shape}")
        precision = self.const_flag(a.get("precision"), "default", "precision")
        if precision != "default":
            raise self.unsupported(node, f"wp.tile_matmul precision '{precision}'")
        tt = TileType(ta.type.dtype, (m, n))
        reads = {b: False for b in {**self.tile_reads(ta), **self.tile_reads(tb)}}
        if accumulate:
            out_type = self.tile_operand(a["out"]).type if isinstance(a["out"], ast.Name) else None
            if out_type is not None and (out_type.shape != tt.shape or out_type.dtype not in MATMUL_DTYPES):
                raise self.error(node, f"wp.tile_matmul into a {out_type}; the product is {m}x{n}")
            alpha = self.emit(a["alpha"]) if "alpha" in a else CExpr("1.0f", "float32", literal=1.0)
            beta = self.emit(a["beta"]) if "beta" in a else CExpr("1.0f", "float32", literal=1.0)
            out = self.inplace_target(a["out"])
            if out.type.shape != tt.shape or out.type.dtype not in MATMUL_DTYPES:
                raise self.error(node, f"wp.tile_matmul into a {out.type}; the product is {m}x{n}")
            tt = out.type
            for v, what in ((alpha, "alpha"), (beta, "beta")):
                if v.type != "float32" or (tt.dtype != "float32" and v.literal != 1.0):
                    raise self.unsupported(node, f"wp.tile_matmul {what} of type {v.type} into a tile of {tt.dtype}")
            dst = out.code
            reads[dst] = reads.get(dst, True)
        else:
            dst = self.tile_buffer(node, tt, dest, "product", reads)
        if tt.dtype == "bfloat16":  # as Warp: "tile_matmul() does not support a bfloat16 'out' tile"
            raise self.error(node, "wp.tile_matmul into a bfloat16 tile; accumulate in a float32 tile")
        if accumulate and self.tensor_core_product(a, ta, tb, dst, tt, (alpha, beta), reads):
            return CExpr("", "void")
        sum_, r, c, kk = self.fresh("dot"), self.fresh("row"), self.fresh("col"), self.fresh("k")
        self.access(reads, {dst: True})
        self.out(f"// {dst} {'+' if accumulate else ''}= {ast.unparse(a['a'])} ({m}x{k}) @ {ast.unparse(a['b'])} ({k}x{n})")

        acc = "float32" if tt.dtype == "float16" else tt.dtype  # half products accumulate in float
        acc_c = self.module.ctype(acc)

        def widen(code: str, dtype: str) -> str:
            """An operand in the accumulator's type (Warp converts a and b to it)."""
            if dtype in HALF_CONVERSIONS:  # float16, bfloat16: exactly a float
                code = f"{HALF_CONVERSIONS[dtype][0]}({code})"
                dtype = "float32"
            return code if dtype == acc else f"({acc_c}){code}"

        def as_half(code: str, dtype: str) -> str:
            """An operand converted to half, as a float (Warp converts a and b to a half output's type)."""
            return {"float16": f"__half2float({code})", "float32": f"__half2float(__float2half({code}))",
                    "float64": f"__half2float(__double2half({code}))"}[dtype]

        def body(e):
            # a one-row (one-column) product's element index is its column (row): the other is 0
            row = "0" if m == 1 else (e if n == 1 else r)
            col = "0" if n == 1 else (e if m == 1 else c)
            a_value, b_value = self.element_rc(ta, row, kk), self.element_rc(tb, kk, col)
            a_el, b_el = a_value.code, b_value.code
            # a factor of a ones tile is left out (x * 1 is x, exactly, fused or not); the row or column
            # index is declared only where an operand reads it
            factors = [widen(v.code, t.type.dtype) for v, t in ((a_value, ta), (b_value, tb))
                       if v.literal != 1.0 and v.code not in ("1.0f", "1.0")]
            product = " * ".join(factors) or widen(a_el, ta.type.dtype)
            lines = [line for name, line in ((r, f"const int {r} = {e} / {n};"), (c, f"const int {c} = {e} % {n};"))
                     if re.search(rf"\b{name}\b", f"{a_el} {b_el}")]
            lines += [f"{acc_c} {sum_} = {zero_of(acc)};", f"for (int {kk} = 0; {kk} < {k}; ++{kk})",
                      f"    {sum_} += {product};"]
            if tt.dtype == "float16":
                # Warp accumulates in the output's type: each product and each sum rounded to half
                # (tile_matmul.h scalar_matmul, T = half); `sum` holds that half value as a float
                product = f"{as_half(a_el, ta.type.dtype)} * {as_half(b_el, tb.type.dtype)}"
                lines[-1] = f"    {sum_} = __half2float(__float2half({sum_} + __half2float(__float2half({product}))));"
                value = f"__float2half({sum_})" if not accumulate else f"__float2half(__half2float({dst}[{e}]) + {sum_})"
                return lines + [f"{dst}[{e}] = {value};"]
            if not accumulate:
                return lines + [f"{dst}[{e}] = {sum_};"]
            if alpha.literal == 1.0 and beta.literal == 1.0:
                return lines + [f"{dst}[{e}] += {sum_};"]
            return lines + [f"{dst}[{e}] = {alpha.at(13)} * {sum_} + {beta.at(13)} * {dst}[{e}];"]
        self.coop(m * n, body)
        return CExpr("", "void") if accumulate else CExpr(dst, tt)

    def tensor_core_product(self, a: dict, ta: CExpr, tb: CExpr, dst: str, tt: TileType,
                            scales: tuple[CExpr, CExpr], reads: dict[str, bool]) -> bool:
        """`wp.tile_matmul(a, b, out)` of 16-bit float operands into a float32 tile on tensor cores
        (nvcuda::wmma), as anyone writes a half or bfloat16 GEMM and as Warp's GPU build does (cuBLASDx):
        each warp of the block computes blocks of the product (16x16, else 32x8 or 8x32), loading its
        accumulator from `out`, adding the products of operand blocks (k = 16) read straight from shared
        memory, and storing it back. Taken only where it applies exactly: both operands float16 or both
        bfloat16, m and n multiples of a fragment's shape and k of 16, whole warps, alpha and beta 1, each
        operand a shared buffer read as it is or through a transpose (row- or column-major, as wmma
        loads), and every block at an address wmma can load (`aligned`). Products of 16-bit
        values are exact in float32, so only the order of the float sums differs from the scalar loop.
        Returns whether the product was emitted; otherwise the caller emits the scalar loop."""
        (m, k), n = ta.type.shape, tb.type.shape[1]
        dtype = ta.type.dtype
        if dtype not in ("float16", "bfloat16") or tb.type.dtype != dtype or tt.dtype != "float32" \
                or any(s.literal != 1.0 for s in scales) or k % 16 or self.block_dim % 32 or dst not in self.tiles:
            return False
        operand_a, operand_b = self.fragment_operand(ta), self.fragment_operand(tb)
        if operand_a is None or operand_b is None:
            return False

        def aligned(operand: tuple[str, int, bool], rows: int, cols: int, step_r: int, step_c: int, per_32: int) -> bool:
            """Whether every block's first element, (r, c) on the steps, is 32 bytes (`per_32` elements)
            from the buffer's start times a whole number, and its rows (columns) 16 bytes apart times a
            whole number: the addresses and leading dimensions wmma loads and stores."""
            _, ld, row_major = operand
            return ld % (per_32 // 2) == 0 and all(((r * ld + c) if row_major else (c * ld + r)) % per_32 == 0
                       for r in range(0, rows, step_r) for c in range(0, cols, step_c))

        # the fragment shapes wmma has for 16-bit operands (k is 16 in each), squarest first
        shape = next(((fm, fn) for fm, fn in FRAGMENT_SHAPES if m % fm == 0 and n % fn == 0
                      and aligned(operand_a, m, k, fm, 16, 16) and aligned(operand_b, k, n, 16, fn, 16)
                      and aligned((dst, n, True), m, n, fm, fn, 8)), None)
        if shape is None:
            return False
        fm, fn = shape
        self.fragment_buffers.update((operand_a[0], operand_b[0], dst))
        self.module.need("wmma_bf16" if dtype == "bfloat16" else "wmma")
        # fragments are loaded by lanes other than the elements' owners: every access is another thread's
        self.access({**{b: False for b in reads}, dst: False}, {dst: False})
        blocks_n = n // fn
        fragment = f"{fm}, {fn}, 16"
        block, row, col, kk = self.fresh("block"), self.fresh("row"), self.fresh("col"), self.fresh("k")
        acc, frag_a, frag_b = self.fresh("acc_frag"), self.fresh("a_frag"), self.fresh("b_frag")
        ctype = self.module.ctype(dtype)

        def block_at(operand: tuple[str, int, bool], r: str, c: str) -> str:
            """The address of an operand's block whose first element is (row r, column c)."""
            buf, ld, row_major = operand
            return f"{buf} + {r} * {ld} + {c}" if row_major else f"{buf} + {c} * {ld} + {r}"

        def layout(operand: tuple[str, int, bool]) -> str:
            return "wmma::row_major" if operand[2] else "wmma::col_major"

        self.out(f"// {dst} += {ast.unparse(a['a'])} ({m}x{k}) @ {ast.unparse(a['b'])} ({k}x{n}) on tensor cores: "
                 f"each warp computes {fm}x{fn} blocks of the product")
        self.out(f"for (int {block} = threadIdx.x / 32; {block} < {m // fm * blocks_n}; {block} += {TILE_THREADS} / 32) {{")
        self.indent += 1
        self.out(f"const int {row} = {block} / {blocks_n} * {fm};" if blocks_n > 1 else f"const int {row} = {block} * {fm};")
        self.out(f"const int {col} = {block} % {blocks_n} * {fn};" if blocks_n > 1 else f"const int {col} = 0;")
        self.out(f"wmma::fragment<wmma::accumulator, {fragment}, float> {acc};")
        self.out(f"wmma::load_matrix_sync({acc}, {dst} + {row} * {n} + {col}, {n}, wmma::mem_row_major);")
        if k > 16:
            self.out("#pragma unroll")
        self.out(f"for (int {kk} = 0; {kk} < {k}; {kk} += 16) {{")
        self.indent += 1
        self.out(f"wmma::fragment<wmma::matrix_a, {fragment}, {ctype}, {layout(operand_a)}> {frag_a};")
        self.out(f"wmma::fragment<wmma::matrix_b, {fragment}, {ctype}, {layout(operand_b)}> {frag_b};")
        self.out(f"wmma::load_matrix_sync({frag_a}, {block_at(operand_a, row, kk)}, {operand_a[1]});")
        self.out(f"wmma::load_matrix_sync({frag_b}, {block_at(operand_b, kk, col)}, {operand_b[1]});")
        self.out(f"wmma::mma_sync({acc}, {frag_a}, {frag_b}, {acc});")
        self.indent -= 1
        self.out("}")
        self.out(f"wmma::store_matrix_sync({dst} + {row} * {n} + {col}, {acc}, {n}, wmma::mem_row_major);")
        self.indent -= 1
        self.out("}")
        return True

    def fragment_operand(self, t: CExpr) -> tuple[str, int, bool] | None:
        """(buffer, leading dimension, row-major) of a 2-D tile that is a shared buffer as it is, or a
        transpose of one: element (r, c) at `buffer[r * ld + c]` (row-major) or `buffer[c * ld + r]`;
        None for any other form (a computed tile). (Padding comes later, and never to a buffer used
        through a pointer, as wmma uses it: `only_indexed`.)"""
        code = self.element_rc(t, "(R)", "(C)").code
        found = re.fullmatch(r"(\w+)\[\(([RC])\) \* (\d+) \+ \(([RC])\)\]", code)
        if found is None or found.group(2) == found.group(4) or found.group(1) not in self.tiles:
            return None
        return found.group(1), int(found.group(3)), found.group(2) == "R"

    # ---- Fourier transforms -------------------------------------------------------------------
    def tile_fft(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.fourier(node, a, statement, -1)

    def tile_ifft(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.fourier(node, a, statement, 1)

    def fourier(self, node: ast.Call, a: dict, statement: bool, sign: int) -> CExpr:
        """wp.tile_fft / tile_ifft(t): each row (the last dimension) of a complex tile transformed in
        place, unnormalized. Warp's cooperative path (warp/native/tile_fft.h, used on the CPU with
        block_dim > 1 and on GPUs without MathDx): a bit-reverse permutation, then radix-2 butterfly
        stages shared over the block, each twiddle computed from its angle. The .cu calls one device
        function for it (the `tile_fft_rows` snippet): the same arithmetic, scheduled as one would on a
        GPU. Every row of the tile in one loop per pass; two stages per pass (a thread reads four
        elements, does the four butterflies of both stages in registers and writes them back: half
        the barriers and shared-memory traffic); the twiddles computed once per call into a table in
        shared memory instead of a sine and a cosine per butterfly. A stage of length `len` reads
        every (n / len)-th entry of the n-point table: the angle (sign * 2pi / n) * (pos * n / len)
        is Warp's (sign * 2pi / len) * pos, the same exact product of factors that differ by a power
        of two, rounded once, so every twiddle is bit-identical to Warp's."""
        name = "tile_fft" if sign < 0 else "tile_ifft"
        if not statement:
            raise self.unsupported(node, f"the value of wp.{name} (it transforms its tile in place)")
        tt = self.tile_operand(a["inout"]).type if isinstance(a["inout"], ast.Name) else None
        if tt is not None and tt.dtype not in FFT_DTYPES:
            raise self.unsupported(node, f"wp.{name} of a {tt} (tiles of vec2f or vec2d only)")
        t = self.inplace_target(a["inout"])
        tt = t.type
        if tt.dtype not in FFT_DTYPES:
            raise self.unsupported(node, f"wp.{name} of a {tt} (tiles of vec2f or vec2d only)")
        n = tt.shape[-1]
        if n < 2 or n & (n - 1):
            raise self.unsupported(node, f"wp.{name} of rows of {n} elements (powers of two only)")
        batch = tt.size // n
        self.access({t.code: False}, {t.code: False})
        self.module.need("tile_fft_rows")
        rows = f"each of its {batch} rows" if batch > 1 else "its row"
        self.out(f"// wp.{name}({ast.unparse(a['inout'])}): the {'forward' if sign < 0 else 'inverse'} transform "
                 f"(unnormalized) of {rows} of {n}")
        self.out(f"tile_fft_rows<{sign}, {n}, {batch}, {TILE_THREADS}>({t.code});")
        self.hazards = Hazards({}, {})  # the last stage ends with a barrier (n >= 2)
        return CExpr("", "void")

    # ---- scans, single elements and scatters --------------------------------------------------
    def tile_scan_inclusive(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.scan(node, a, inclusive=True)

    def tile_scan_exclusive(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.scan(node, a, inclusive=False)

    def scan(self, node: ast.Call, a: dict, inclusive: bool) -> CExpr:
        """Prefix sums over the tile's row-major sequence: Hillis-Steele steps over the block, each
        step reading one buffer and writing a scratch copy (a barrier between), log2(size) steps.
        The exclusive scan is the inclusive scan of the input shifted by one (a zero first)."""
        name = "tile_scan_inclusive" if inclusive else "tile_scan_exclusive"
        dest = self.claim_dest()
        t = self.tile_operand(a["a"])
        if t.type.dtype not in SCAN_DTYPES:
            raise self.unsupported(node, f"wp.{name} of a tile of {t.type.dtype}")
        lazy = self.lazy_of(t)
        if lazy is not None and lazy.varying:
            t = self.materialise(node, t)
        tt = t.type
        reads = {k: False for k in self.tile_reads(t)}
        dst = self.tile_buffer(node, tt, dest, "scan", reads)
        if self.block_dim and self.block_dim % WARP == 0:
            return self.warp_scan(node, a, t, dst, reads, inclusive)
        scratch = self.new_buffer(node, tt, "scan_step")
        zero = zero_of(tt.dtype)
        stride = self.fresh("stride")
        self.access(reads, {dst: True})
        self.out(f"// {dst} = {'inclusive' if inclusive else 'exclusive'} prefix sums of {ast.unparse(a['a'])} ({tt.size} elements)")
        self.fused_comment([t])
        self.coop(tt.size, lambda e: [f"{dst}[{e}] = {self.element_at(t, e).code};" if inclusive
                                      else f"{dst}[{e}] = {e} > 0 ? {self.element_at(t, f'{e} - 1').code} : {zero};"])
        self.barrier()
        self.out(f"for (int {stride} = 1; {stride} < {tt.size}; {stride} *= 2) {{")
        self.indent += 1
        self.coop(tt.size, lambda e: [f"{scratch}[{e}] = {e} >= {stride} ? {dst}[{e} - {stride}] + {dst}[{e}] : {dst}[{e}];"])
        self.out("__syncthreads();")
        self.coop(tt.size, lambda e: [f"{dst}[{e}] = {scratch}[{e}];"])
        self.out("__syncthreads();")
        self.indent -= 1
        self.out("}")
        self.hazards = Hazards({}, {})  # each step ends with a barrier, and so does the copy before
        return CExpr(dst, tt)

    def warp_scan(self, node: ast.Call, a: dict, t: CExpr, dst: str, reads: dict[str, bool], inclusive: bool) -> CExpr:
        """Prefix sums as Warp's GPU code computes them (tile_scan.h, a block of whole warps): the tile
        in block-wide chunks; in each, a warp's 32 values by register shuffles (log2(32) steps), each
        warp's total in shared memory, the totals scanned (by every warp, so that the shuffles stay in
        uniform code; the first warp's result kept), and the chunks' running total carried from the
        block's last thread. Two barriers a chunk where a shared-memory Hillis-Steele scan takes two a
        step, and for floats the order of additions is Warp's."""
        tt = t.type
        size, b = tt.size, self.block_dim
        warps, chunks = b // WARP, -(-size // b)
        ct = self.module.ctype(tt.dtype)
        zero = zero_of(tt.dtype)
        sums = self.new_buffer(node, TileType(tt.dtype, (warps,)), "warp_totals") if warps > 1 else None
        before = self.new_buffer(node, TileType(tt.dtype, (warps,)), "warps_before") if warps > 1 else None
        carry = self.new_buffer(node, TileType(tt.dtype, (1,)), "scan_carry") if chunks > 1 else None
        e, x, v, s, inc = (self.fresh(k) for k in ("e", "x", "v", "s", "inc"))
        self.access(reads, {dst: True})
        self.out(f"// {dst} = {'inclusive' if inclusive else 'exclusive'} prefix sums of {ast.unparse(a['a'])} ({size} elements): "
                 + (f"{chunks} block-wide chunks, " if chunks > 1 else "")
                 + ("each warp's by shuffles, then the warps' totals" if warps > 1 else "the warp's by shuffles"))
        self.fused_comment([t])
        if carry:
            self.out(f"if (threadIdx.x == 0)")
            self.out(f"    {carry}[0] = {zero};")
            self.out("__syncthreads();")
            c = self.fresh("chunk")
            self.out(f"for (int {c} = 0; {c} < {size}; {c} += {TILE_THREADS}) {{")
            self.indent += 1
            self.out(f"const int {e} = {c} + threadIdx.x;")
        else:
            e = "threadIdx.x"
        element = self.element_at(t, e).code
        self.out(f"const {ct} {x} = {e} < {size} ? {element} : {zero};" if size % b else f"const {ct} {x} = {element};")
        self.out(f"{ct} {v} = {x};")

        def warp_steps(value: str, lane: str, lanes: int = WARP) -> None:
            n, o = self.fresh("n"), self.fresh("offset")
            self.out(f"for (int {o} = 1; {o} < {lanes}; {o} *= 2) {{  // lane l adds lane l - {o}'s")
            self.out(f"    const {ct} {n} = __shfl_up_sync(0xffffffffu, {value}, {o});")
            self.out(f"    if ({lane} >= {o})")
            self.out(f"        {value} += {n};")
            self.out("}")
        warp_steps(v, f"threadIdx.x % {WARP}")
        total = v
        if not inclusive:  # the lane before's inclusive sum; lane 0 starts from zero
            self.out(f"const {ct} {inc} = {v};")
            self.out(f"{v} = __shfl_up_sync(0xffffffffu, {inc}, 1);")
            self.out(f"if (threadIdx.x % {WARP} == 0)")
            self.out(f"    {v} = {zero};")
            total = inc
        if sums:
            self.out(f"if (threadIdx.x % {WARP} == {WARP - 1})")
            self.out(f"    {sums}[threadIdx.x / {WARP}] = {total};")
            self.out("__syncthreads();")
            # every warp scans the totals (the first one's result is kept): shuffles in uniform code
            self.out(f"{ct} {s} = threadIdx.x % {WARP} < {warps} ? {sums}[threadIdx.x % {WARP}] : {zero};"
                     f"  // the {warps} warps' totals")
            warp_steps(s, f"threadIdx.x % {WARP}", warps)  # lanes past the warps' count add nothing below it
            self.out(f"if (threadIdx.x < {warps})")
            self.out(f"    {before}[threadIdx.x] = {s};  // the totals of warps 0 .. threadIdx.x")
            self.out("__syncthreads();")
            self.out(f"if (threadIdx.x >= {WARP})")
            self.out(f"    {v} += {before}[threadIdx.x / {WARP} - 1];")
        if carry:
            if size % b:
                self.out(f"if ({e} < {size})")
            self.out(f"{'    ' if size % b else ''}{dst}[{e}] = {v} + {carry}[0];")
            self.out("__syncthreads();")
            self.out(f"if (threadIdx.x == {TILE_THREADS} - 1)  // the chunk's total, carried")
            self.out(f"    {carry}[0] += {v if inclusive else f'{v} + {x}'};")
            self.out("__syncthreads();")
            self.indent -= 1
            self.out("}")
            self.hazards = Hazards({}, {})
            return CExpr(dst, tt)
        if size < b:
            self.out(f"if (threadIdx.x < {size})")
        self.out(f"{'    ' if size < b else ''}{dst}[threadIdx.x] = {v};")
        self.barrier()
        return CExpr(dst, tt)

    def tile_extract(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """wp.tile_extract(t, i[, j, ...]): the element, as `t[i, j]` (every thread reads shared memory)."""
        self.claim_dest()  # the result is a per-thread value, not a tile
        indices = [a[k] for k in ("i", "j", "k", "l") if k in a]
        index = indices[0] if len(indices) == 1 else ast.Tuple(elts=indices, ctx=ast.Load())
        return self.emit(ast.copy_location(ast.Subscript(value=a["a"], slice=index, ctx=ast.Load()), node))

    def tile_from_thread(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """A tile filled with the value of one thread of the block: that thread writes it to a shared
        slot; the tile is lazy, every element reads the slot."""
        self.claim_dest()
        shape = self.const_shape(a["shape"])
        value = self.emit(a["value"])
        lane = self.emit(a["thread_idx"])
        if lane.type != "int32":
            raise self.error(a["thread_idx"], f"thread_idx of type {lane.type}; Warp requires int")
        self.const_flag(a.get("storage"), "register", "storage")
        tt = TileType(value.type, shape)
        slot = self.new_buffer(node, TileType(value.type, (1,)), "slot")
        self.access(writes={slot: False})
        self.out(f"if (threadIdx.x == {lane.code})")
        self.out(f"    {slot}[0] = {value.code};  // the value of thread {ast.unparse(a['thread_idx'])}")
        return self.make_lazy(tt, CExpr(f"{slot}[0]", value.type), {slot: False}, 0, False, False, [])

    def indexed_axis(self, node: ast.Call, a: dict, what: str, tt: TileType, arr: CExpr,
                     indices: CExpr, fixed: int = 0) -> int:
        """The axis of an indexed load or store (a literal), its tile and array (less the `fixed`
        leading dimensions of a view, `x[i]`) and indices checked."""
        axis = self.const_int(a["axis"], "axis") if "axis" in a else 0
        if len(tt.shape) != arr.type.ndim - fixed or tt.dtype != arr.type.dtype:
            raise self.error(node, f"{what} of a {tt} and a {arr.type.ndim - fixed}-D array of {arr.type.dtype}")
        if not 0 <= axis < len(tt.shape):
            raise self.error(node, f"axis {axis} of a {len(tt.shape)}-D tile")
        if indices.type.dtype != "int32" or indices.type.shape != (tt.shape[axis],):
            raise self.error(a["indices"], f"indices: a tile of {tt.shape[axis]} int is expected, found a {indices.type}")
        return axis

    def indexed_place(self, arr: CExpr, indices: CExpr, shape: tuple[int, ...], offs: list[str], axis: int,
                      e: str, fixed: list[str] = ()) -> tuple[list[str], str, str]:
        """(declarations, condition, flat index) of element e of an indexed load or store: a[offset + c],
        along `axis` a[offset + indices[c]]; every coordinate tested against both ends of its
        dimension, as Warp does (an index of -1 marks a row that is not there). Through a view
        (`x[i]`) the `fixed` leading indices come first, untested: Warp tests the view's own dimensions."""
        names = [self.fresh(c) for c in ("row", "col", "depth")[: len(shape)]]
        lines = []
        for k, (n, o, c) in enumerate(zip(names, offs, coords(e, shape))):
            c = self.element_at(indices, c).code if k == axis else c
            lines.append(f"const int {n} = {c if o == '0' else (o if c == '0' else f'{o} + {c}')};")
        # a coordinate within the tile at offset 0 is never negative: only its upper end is tested
        cond = " && ".join(f"{n} < {arr.code}_dim{k + len(fixed)}" if k != axis and o == "0"
                           else f"{n} >= 0 && {n} < {arr.code}_dim{k + len(fixed)}"
                           for k, (n, o) in enumerate(zip(names, offs)))
        names = list(fixed) + names
        flat = names[0]
        for k in range(1, len(names)):
            flat = f"{flat if k == 1 else f'({flat})'} * {arr.code}_dim{k} + {names[k]}"
        return lines, cond, flat

    def tile_load_indexed(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """A tile gathered from an array: element c is a[offset + c], except along `axis`:
        offset[axis] + indices[c[axis]]. A source outside the array reads as zero, as in Warp."""
        dest = self.claim_dest()
        arr, fixed = self.array_source(a["a"], "wp.tile_load_indexed")
        indices = self.indexable(a["indices"])
        tt = TileType(arr.type.dtype, self.const_shape(a["shape"]))
        axis = self.indexed_axis(node, a, "wp.tile_load_indexed", tt, arr, indices, len(fixed))
        self.const_flag(a.get("storage"), "register", "storage")
        offs = self.offsets(a.get("offset"), len(tt.shape))
        reads = {b: False for b in self.tile_reads(indices)}
        dst = self.tile_buffer(node, tt, dest, reads=reads)
        self.access(reads, {dst: True})
        self.out(f"// {dst} = {'x'.join(map(str, tt.shape))} tile of {ast.unparse(a['a'])}, "
                 f"{('rows', 'columns', 'layers')[axis] if len(tt.shape) > 1 else 'elements'} "
                 f"{ast.unparse(a['indices'])} (outside the array: 0)")

        def body(e):
            lines, cond, flat = self.indexed_place(arr, indices, tt.shape, offs, axis, e, fixed)
            return lines + [f"{dst}[{e}] = ({cond}) ? {arr.code}[{flat}] : {zero_of(tt.dtype)};"]
        self.coop(tt.size, body)
        return CExpr(dst, tt)

    def tile_store_indexed(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """Element c of t goes to a[offset + c], except along `axis`: offset[axis] + indices[c[axis]].
        A destination outside the array (a negative index, -1 by convention) is skipped, as Warp does."""
        if not statement:
            raise self.unsupported(node, "the value of wp.tile_store_indexed")
        arr, fixed = self.array_source(a["a"], "wp.tile_store_indexed")
        indices = self.indexable(a["indices"])
        t = self.tile_operand(a["t"])
        tt = t.type
        axis = self.indexed_axis(node, a, "wp.tile_store_indexed", tt, arr, indices, len(fixed))
        offs = self.offsets(a.get("offset"), len(tt.shape))

        def body(e):
            lines, cond, flat = self.indexed_place(arr, indices, tt.shape, offs, axis, e, fixed)
            return lines + [f"if ({cond})", f"    {arr.code}[{flat}] = {self.element_at(t, e).code};"]
        self.access(merge_reads(self.tile_reads(t), {k: False for k in self.tile_reads(indices)}))
        self.fused_comment([t])
        self.coop(tt.size, body)
        return CExpr("", "void")

    def tile_sort(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """wp.tile_sort(keys, values): both tiles permuted in place, in ascending order of keys (the
        `tile_sort_pairs` snippet: Warp's bitonic network, so equal keys end as on Warp's CPU)."""
        if not statement:
            raise self.unsupported(node, "the value of wp.tile_sort (it sorts its tiles in place)")
        names = [a["keys"], a["values"]]
        if not all(isinstance(n, ast.Name) and n.id in self.tile_vars for n in names):
            raise self.unsupported(node, "wp.tile_sort of tiles other than tile variables")
        if names[0].id == names[1].id:
            raise self.unsupported(node, "wp.tile_sort of one tile as both keys and values "
                                         "(Warp's CPU swaps each pair twice: it leaves the tile as it was)")
        keys, values = self.inplace_target(names[0]), self.inplace_target(names[1])
        kt, vt = keys.type, values.type
        if kt.dtype not in SORT_KEYS:
            raise self.unsupported(node, f"wp.tile_sort by keys of {kt.dtype} (float32, int32 and uint32 keys only)")
        if kt.shape != vt.shape:
            raise self.error(node, f"wp.tile_sort of keys {kt} and values {vt}: the shapes differ")
        if kt.size > SORT_MAX_ELEMENTS:
            raise self.unsupported(node, f"wp.tile_sort of {kt.size} elements (up to {SORT_MAX_ELEMENTS}: Warp "
                                         "sorts longer tiles by radix)")
        both = {keys.code: False, values.code: False}
        self.access(both, both)
        self.module.need("tile_sort_pairs")
        self.out(f"// wp.tile_sort({names[0].id}, {names[1].id}): the {kt.size} pairs in ascending order of "
                 f"{names[0].id}, in place")
        self.out(f"tile_sort_pairs<{kt.size}, {TILE_THREADS}>({keys.code}, {values.code}, {SORT_KEYS[kt.dtype]});")
        # the sort ends on each thread's own elements of both tiles; a short one (a warp's registers)
        # has no barrier in it, so what came before it stays pending
        for code in (keys.code, values.code):
            self.hazards.reads[code] = True
            self.hazards.writes[code] = True
        return CExpr("", "void")

    def tile_scatter_add(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """wp.tile_scatter_add(t, i[, j, ...], value, has_value[, atomic]): each thread whose has_value
        holds adds its own value to element (i, j, ...) of a tile in shared memory, by atomicAdd (a plain
        `+=` where atomic=False promises that no two threads of the block share an index), then a barrier,
        as Warp's. Warp's CPU blocks run every thread of a block (enable_cpu_blocks), one after another."""
        if not statement:
            raise self.unsupported(node, "the value of wp.tile_scatter_add")
        if not isinstance(a["a"], ast.Name) or a["a"].id not in self.tile_vars:
            raise self.unsupported(node, "wp.tile_scatter_add into a tile other than a tile variable")
        t = self.inplace_target(a["a"])
        tt = t.type
        names = ("i", "j", "k", "l")[: len(tt.shape)] + ("value", "has_value", "atomic")
        if len(node.args) - 1 > len(names):
            raise self.error(node, f"wp.tile_scatter_add of a {len(tt.shape)}-D tile takes at most {len(names) + 1} arguments")
        bound = dict(zip(names, node.args[1:]))
        for kw in node.keywords:
            if kw.arg != "a" and kw.arg not in names:
                raise self.error(kw, f"wp.tile_scatter_add of a {len(tt.shape)}-D tile has no argument '{kw.arg}'")
            bound[kw.arg] = kw.value
        missing = [n for n in names[:-1] if n not in bound]
        if missing:
            raise self.error(node, f"wp.tile_scatter_add() needs '{missing[0]}'")
        if tt.dtype not in SCATTER_DTYPES:
            raise self.unsupported(node, f"wp.tile_scatter_add into a {tt} (int32, float32 and float64 tiles only)")
        atomic = self.const_flag(bound.get("atomic"), True, "atomic")
        index = [self.int_index(bound[n]) for n in names[: len(tt.shape)]]
        value = self.emit(bound["value"])
        if value.type != tt.dtype:
            raise self.error(bound["value"], f"wp.tile_scatter_add of a {value.type} value into a {tt}; Warp requires "
                                             "the tile's element type")
        has = self.emit(bound["has_value"])
        if has.type != "bool":
            raise self.error(bound["has_value"], f"has_value of type {has.type}; Warp requires bool")
        flat = self.tile_flat_index(index, tt.shape)
        self.access({t.code: False}, {t.code: False})
        place = f"{t.code}[{flat.code}]"
        effect = f"atomicAdd(&{place}, {value.code});" if atomic else f"{place} += {value.code};"
        self.out(f"// {ast.unparse(node)}: each thread{' with a value' if has.literal is not True else ''} adds it "
                 f"{'atomically' if atomic else '(no two threads share an index)'}")
        if has.literal is True:
            self.out(effect)
        elif has.literal is not False:
            self.out(f"if ({has.code})")
            self.out(f"    {effect}")
        self.barrier()  # Warp's: every thread sees the sums after the call
        return CExpr("", "void")

    # ---- linear algebra ------------------------------------------------------------------------
    def square(self, node: ast.AST, t: CExpr, what: str) -> int:
        if len(t.type.shape) != 2 or t.type.shape[0] != t.type.shape[1] or t.type.dtype not in SOLVER_DTYPES:
            raise self.unsupported(node, f"wp.{what} of a {t.type} (square float32 / float64 tiles only)")
        return t.type.shape[0]

    def fill_mode(self, a: dict, what: str) -> bool:
        """Whether the factor is upper triangular (fill_mode="upper"; Warp's default is "lower")."""
        mode = self.const_flag(a.get("fill_mode"), "lower", "fill_mode")
        if mode not in ("lower", "upper"):
            raise self.error(a["fill_mode"], f"fill_mode '{mode}' of wp.{what}; Warp takes 'lower' or 'upper'")
        return mode == "upper"

    def tile_diag_add(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """m + diag(d): lazy (element e is m's, plus d's on the diagonal)."""
        self.claim_dest()
        m, d = self.tile_operand(a["a"]), self.indexable(a["d"])
        if len(m.type.shape) != 2 or m.type.shape[0] != m.type.shape[1] or d.type.shape != m.type.shape[:1] \
                or d.type.dtype != m.type.dtype:
            raise self.error(node, f"wp.tile_diag_add of a {m.type} and a {d.type}")
        n = m.type.shape[0]
        el = self.element(m).at(P_ADD)
        diag = self.element_at(d, f"{E} / {n}").at(P_ADD + 1)
        value = CExpr(f"({E} / {n} == {E} % {n} ? {el} + {diag} : {el})", m.type.dtype)
        return self.derived(m.type, value, [m], [d], 1)

    def tile_cholesky(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """The Cholesky factor, as Warp's cooperative scalar path (warp/native/tile_cholesky.h): column
        by column, every thread computing the diagonal, the rows below shared over the block."""
        dest = self.claim_dest()
        src = self.tile_value(a["A"])
        n = self.square(node, src, "tile_cholesky")
        out = self.tile_buffer(node, src.type, dest, "factor", {src.code: False})
        self.access({src.code: False}, {out: False})
        upper = self.fill_mode(a, "tile_cholesky")
        self.out(f"// {out} = Cholesky factor of {ast.unparse(a['A'])} ({'upper: A = U^T U' if upper else 'lower: A = L L^T'})")
        self.coop(src.type.size, lambda e: [f"{out}[{e}] = {src.code}[{e}];"])
        self.barrier()
        self.cholesky_columns(src.code, out, n, src.type.dtype, upper)
        return CExpr(out, src.type)

    def tile_cholesky_inplace(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """The factor written over A's own buffer, as Warp's in-place scalar path: the same columns,
        with a barrier after the diagonal is read (thread 0 overwrites it in the same column)."""
        if not statement:
            raise self.unsupported(node, "the value of wp.tile_cholesky_inplace (it factors its tile in place)")
        out = self.inplace_target(a["A"])
        n = self.square(node, out, "tile_cholesky_inplace")
        upper = self.fill_mode(a, "tile_cholesky_inplace")
        self.access({out.code: False}, {out.code: False})
        self.out(f"// {ast.unparse(a['A'])} = its Cholesky factor, in place "
                 f"({'upper: A = U^T U' if upper else 'lower: A = L L^T'}; the other triangle zeroed)")
        self.cholesky_columns(out.code, out.code, n, out.type.dtype, upper)
        return CExpr("", "void")

    def cholesky_columns(self, src: str, out: str, n: int, dtype: str, upper: bool) -> None:
        """Warp's scalar Cholesky (scalar_cholesky_impl) from buffer `src` into `out` (the same buffer
        in place; `out` holds a copy of `src` otherwise): column by column, every thread computing
        the diagonal, thread 0 writing it, the rows below shared over the block, the other
        triangle's entries of the column zeroed, a barrier after each column."""
        real = self.module.ctype(dtype)
        j, k, i, s, r, si, inv = (self.fresh(x) for x in ("j", "k", "i", "s", "r", "s_i", "inv_s"))

        def at(row: str, col: str) -> str:  # the factor's element (row, col) of L, or of U = L^T
            return f"{out}[{col} * {n} + {row}]" if upper else f"{out}[{row} * {n} + {col}]"
        sqrt = "sqrtf" if dtype == "float32" else "sqrt"
        self.out(f"for (int {j} = 0; {j} < {n}; ++{j}) {{")
        self.indent += 1
        self.out(f"{real} {s} = {src}[{j} * {n} + {j}];")
        if src == out:
            self.out("__syncthreads();  // every thread has read the diagonal before thread 0 overwrites it")
        for line in (f"for (int {k} = 0; {k} < {j}; ++{k}) {{",
                     f"    const {real} {r} = {at(j, k)};",
                     f"    {s} -= {r} * {r};",
                     "}",
                     f"{s} = {sqrt}({s});",
                     f"const {real} {inv} = 1.0 / {s};  // in double, as Warp's `T invS = 1.0 / s`",
                     "if (threadIdx.x == 0)",
                     f"    {at(j, j)} = {s};",
                     f"for (int {i} = {j} + 1 + threadIdx.x; {i} < {n}; {i} += {TILE_THREADS}) {{",
                     f"    {real} {si} = {src}[{f'{j} * {n} + {i}' if upper else f'{i} * {n} + {j}'}];",
                     f"    for (int {k} = 0; {k} < {j}; ++{k})",
                     f"        {si} -= {at(i, k)} * {at(j, k)};",
                     f"    {at(i, j)} = {si} * {inv};",
                     "}",
                     f"for (int {k} = {j} + 1 + threadIdx.x; {k} < {n}; {k} += {TILE_THREADS})",
                     f"    {at(j, k)} = {zero_of(dtype)};",
                     "__syncthreads();"):
            self.out(line)
        self.indent -= 1
        self.out("}")
        self.hazards = Hazards({}, {})  # each column ends with a barrier (n >= 1)

    def tile_cholesky_solve(self, node: ast.Call, a: dict, statement: bool, inplace: bool | None = None,
                            what: str = "tile_cholesky_solve") -> CExpr:
        """x with L L^T x = y (or U^T U x = y): forward then back substitution, Warp's cooperative
        scalar path (warp/native/tile_solve.h): thread 0 alone for a vector y, the columns of a
        matrix y shared over the block."""
        upper = self.fill_mode(a, what)
        return self.triangular_solve(node, a["L"], a["y"], what,
                                     f"({'U^T U' if upper else 'L L^T'}) x = {{y}}, {{factor}} the factor",
                                     (("forward", upper), ("back", upper)), inplace)

    def tile_lower_solve(self, node: ast.Call, a: dict, statement: bool, inplace: bool | None = None,
                         what: str = "tile_lower_solve") -> CExpr:
        """z with L z = y, L lower triangular (its strictly upper triangle is not read): forward
        substitution, as Warp's scalar path."""
        return self.triangular_solve(node, a["L"], a["y"], what, "{factor} z = {y}, {factor} lower triangular",
                                     (("forward", False),), inplace)

    def tile_upper_solve(self, node: ast.Call, a: dict, statement: bool, inplace: bool | None = None,
                         what: str = "tile_upper_solve") -> CExpr:
        """x with U x = z, U upper triangular (its strictly lower triangle is not read): back
        substitution, as Warp's scalar path (which runs it on U's transpose)."""
        return self.triangular_solve(node, a["U"], a["z"], what, "{factor} x = {y}, {factor} upper triangular",
                                     (("back", True),), inplace)

    # the in-place forms: the same solves, the solution over the right-hand side (statements only)
    def tile_cholesky_solve_inplace(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.tile_cholesky_solve(node, a, statement, statement, "tile_cholesky_solve_inplace")

    def tile_lower_solve_inplace(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.tile_lower_solve(node, a, statement, statement, "tile_lower_solve_inplace")

    def tile_upper_solve_inplace(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.tile_upper_solve(node, a, statement, statement, "tile_upper_solve_inplace")

    def triangular_solve(self, node: ast.Call, factor_node: ast.AST, rhs_node: ast.AST, what: str, comment: str,
                         passes: tuple[tuple[str, bool], ...], inplace: bool | None = None) -> CExpr:
        """The solution of a triangular system (or two in turn) with right-hand side `rhs_node`, in a
        new tile: `passes` are ("forward" | "back", whether the factor is stored as U = L^T), each
        Warp's scalar substitution (warp/native/tile_solve.h): thread 0 alone for a vector
        right-hand side, its columns shared over the block for a matrix one, a barrier after each.
        `inplace` (the `_inplace` builtins; the statement flag): the solution overwrites the
        right-hand side's buffer (each element read by the thread that then writes it)."""
        if inplace is not None and not inplace:
            raise self.unsupported(node, f"the value of wp.{what} (it overwrites its right-hand side)")
        dest = None if inplace else self.claim_dest()
        if isinstance(factor_node, ast.Call) and _is_wp(factor_node.func, "tile_transpose") \
                and len(factor_node.args) == 1 and not factor_node.keywords:
            # a transposed factor is read transposed (U = L^T: L's buffer, read as U), not copied
            factor = self.tile_value(factor_node.args[0])
            passes = tuple((direction, not upper) for direction, upper in passes)
            factor_text = f"{ast.unparse(factor_node.args[0])}^T"
        else:
            factor = self.tile_value(factor_node)
            factor_text = ast.unparse(factor_node)
        y = self.inplace_target(rhs_node) if inplace else self.tile_value(rhs_node)
        n = self.square(node, factor, what)
        if y.type.shape[0] != n or len(y.type.shape) > 2 or y.type.dtype != factor.type.dtype:
            raise self.error(node, f"wp.{what} of a {factor.type} and a {y.type}")
        tt = y.type
        m = tt.shape[1] if len(tt.shape) == 2 else 1
        real = self.module.ctype(tt.dtype)
        x = y.code if inplace else self.tile_buffer(node, tt, dest, "solution", {factor.code: False, y.code: False})
        col, i, j, s, diag = (self.fresh(v) for v in ("col", "i", "j", "s", "diag"))

        def lower(row: str, c: str, upper: bool) -> str:  # L[row, c] (U[c, row] when upper)
            return f"{factor.code}[{c} * {n} + {row}]" if upper else f"{factor.code}[{row} * {n} + {c}]"

        def elem(buf: str, row: str) -> str:
            return f"{buf}[{row} * {m} + {col}]" if m > 1 else f"{buf}[{row}]"
        self.access({factor.code: False, y.code: False}, {x: False})
        if inplace:
            self.out(f"// {x} = solution of " + comment.format(y=ast.unparse(rhs_node), factor=factor_text) + ", in place")
        else:
            self.out(f"// {x} = solution of " + comment.format(y=ast.unparse(rhs_node), factor=factor_text))
            self.coop(tt.size, lambda e: [f"{x}[{e}] = {y.code}[{e}];"])
            self.barrier()
        # each column's passes run on one thread (the vector's on thread 0): no barrier between them
        if m > 1:
            self.out(f"for (int {col} = threadIdx.x; {col} < {m}; {col} += {TILE_THREADS}) {{")
        else:
            self.out("if (threadIdx.x == 0) {")
        for direction, upper in passes:
            if direction == "forward":  # reads the right-hand side, writes x
                lines = (f"for (int {i} = 0; {i} < {n}; ++{i}) {{  // forward substitution",
                         f"    {real} {s} = {elem(y.code, i)};",
                         f"    for (int {j} = 0; {j} < {i}; ++{j})",
                         f"        {s} -= {lower(i, j, upper)} * {elem(x, j)};")
            else:  # in place in x
                lines = (f"for (int {i} = {n} - 1; {i} >= 0; --{i}) {{  // back substitution",
                         f"    {real} {s} = {elem(x, i)};",
                         f"    for (int {j} = {i} + 1; {j} < {n}; ++{j})",
                         f"        {s} -= {lower(j, i, upper)} * {elem(x, j)};")
            for line in (*lines,
                         f"    const {real} {diag} = {lower(i, i, upper)};",
                         f"    {elem(x, i)} = ({diag} != {real}(0.0f)) ? {s} / {diag} : {s};",
                         "}"):
                self.out("    " + line)
        self.out("}")
        self.barrier()
        return CExpr("", "void") if inplace else CExpr(x, tt)

    # ---- reshaping and element-wise (lazy) -----------------------------------------------------
    def derived(self, tt: TileType, element: CExpr, same: list[CExpr], other: list[CExpr], work: int,
                heavy: bool = False, varying: bool = False) -> CExpr:
        """A lazy tile computed from `same` (read at its own element E) and `other` (read at other
        elements) with `work` operations per element on top of theirs."""
        if tt.dtype not in TILE_DTYPES:
            raise self.unsupported(self.current_stmt, f"tile of {tt.dtype}")
        reads: dict[str, bool] = {}
        for part in same:
            reads = merge_reads(reads, self.tile_reads(part))
        for part in other:
            reads = merge_reads(reads, {k: False for k in self.tile_reads(part)})
        lazies = [lz for lz in (self.lazy_of(p) for p in same + other) if lz is not None]
        return self.make_lazy(tt, element, reads, work + sum(lz.work for lz in lazies),
                              heavy or any(lz.heavy for lz in lazies), varying or any(lz.varying for lz in lazies),
                              same + other)

    def rearranged(self, node: ast.AST, t: CExpr, repeats: bool) -> CExpr:
        """`t` ready to be read at other elements than its own by a transpose or broadcast: stored
        first when its element uses a per-thread value, or when it is work a broadcast would repeat."""
        lazy = self.lazy_of(t)
        if lazy is not None and (lazy.varying or (repeats and (lazy.heavy or lazy.work > REEVALUATED_WORK))):
            return self.materialise(node, t)
        return t

    def tile_transpose(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        self.claim_dest()
        t = self.tile_operand(a["a"])
        if len(t.type.shape) != 2:
            raise self.error(node, f"wp.tile_transpose of a {t.type}")
        t = self.rearranged(node, t, repeats=False)
        self.transposed_reads.update(self.tile_reads(t))
        m, n = t.type.shape
        element = self.element_at(t, f"({E} % {m}) * {n} + {E} / {m}", (f"({E} % {m})", n, f"{E} / {m}"))
        out = self.derived(TileType(t.type.dtype, (n, m)), element, [], [t], 0)
        self.lazy_of(out).transpose_of = t
        return out

    def tile_broadcast(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        self.claim_dest()
        t = self.tile_operand(a["a"])
        shape = self.const_shape(a["shape"])
        src = t.type.shape
        lead = len(shape) - len(src)
        if lead < 0 or any(s not in (1, d) for s, d in zip(src, shape[lead:])):
            raise self.error(node, f"wp.tile_broadcast of shape {src} to {shape}")
        if src == shape:
            return t
        t = self.rearranged(node, t, repeats=True)
        terms = []  # the source's flat index: its coordinates along the dimensions it does not repeat
        for k, (s, c) in enumerate(zip(src, coords(E, shape)[lead:])):
            stride = math.prod(src[k + 1:])
            if s != 1:
                terms.append(c if stride == 1 else f"({c}) * {stride}")
        flat = " + ".join(terms) or "0"
        return self.derived(TileType(t.type.dtype, shape), self.element_at(t, flat), [], [t], 0)

    def elementwise_binding(self, node: ast.Call, name: str, elems: list[CExpr]) -> tuple:
        """The generic parameters of @wp.func `name`, mapped over tile elements (tile_map), bound to
        those elements' types, as Warp instantiates it for them (none for a concrete one)."""
        fn = self.module.info.funcs[name]
        return self.generic_binding(fn, elems, [node] * len(elems)) if generic_params(fn) else ()

    def tile_map(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        self.claim_dest()
        operands = [self.tile_operand(a[name]) for name in TILE_BUILTINS["tile_map"].arg_names[1:] if name in a]
        if any(t.type.shape != operands[0].type.shape for t in operands[1:]):
            raise self.error(node, f"wp.tile_map of tiles of shapes {', '.join(str(t.type.shape) for t in operands)}")
        op = a["op"]
        elems = [self.element(t) for t in operands]
        start = len(self.lines)
        if isinstance(op, ast.Name) and op.id in self.module.info.funcs:
            sig = self.module.translate_func(op.id, node, self.elementwise_binding(node, op.id, elems))
            if len(sig.params) != len(elems) or any(p.dtype != x.type for p, x in zip(sig.params, elems)):
                raise self.error(node, f"wp.tile_map: '{op.id}' does not take {[x.type for x in elems]}")
            value = CExpr(f"{self.module.func_c_name(op.id)}({', '.join(x.code for x in elems)})", sig.return_type)
            heavy = True
        elif _is_wp(op) or (isinstance(op, ast.Attribute) and isinstance(op.value, ast.Name) and op.value.id == "wp"):
            from cuda_production import builtins
            if not builtins.is_builtin(op.attr):
                raise self.unsupported(op, f"wp.tile_map of wp.{op.attr}")
            value = self.call_builtin(node, op.attr, elems)
            heavy = op.attr not in CHEAP_MAP_BUILTINS
        else:
            raise self.unsupported(op, "wp.tile_map of anything but a @wp.func or a wp builtin")
        if len(self.lines) != start:
            raise self.unsupported(op, f"wp.tile_map of {ast.unparse(op)} (a call that needs a statement of its own)")
        return self.derived(TileType(value.type, operands[0].type.shape), value, operands, [], 1, heavy=heavy)

    def tile_astype(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """wp.tile_astype(t, dtype): each element converted as the scalar cast `wp.<dtype>(x)` (lazy)."""
        self.claim_dest()
        t = self.tile_operand(a["t"])
        dtype = self.annotation_type(a["dtype"])
        if dtype not in ASTYPE_DTYPES or t.type.dtype not in ASTYPE_DTYPES:
            raise self.unsupported(node, f"wp.tile_astype of a {t.type} to {dtype}")
        if dtype == t.type.dtype:
            return t
        value = self.call_builtin(node, "float" if dtype == "float32" else "int" if dtype == "int32" else dtype,
                                  [self.element(t)])
        return self.derived(TileType(dtype, t.type.shape), value, [t], [], 1)

    def tile_binary(self, node: ast.AST, op: ast.operator, a: CExpr, b: CExpr, dest: str | None = None) -> CExpr:
        """Element-wise `a op b` of tiles of one shape, or of a tile and a (per-thread) scalar: lazy.
        A scalar other than a constant is read once, here, into a local (it may change later)."""
        self.claim_dest()
        ta = a.type if isinstance(a.type, TileType) else None
        tb = b.type if isinstance(b.type, TileType) else None
        if ta and tb and ta.shape != tb.shape:
            raise self.error(node, f"element-wise operation on tiles of shapes {ta.shape} and {tb.shape}")
        if not (ta and tb) and not isinstance(op, (ast.Mult, ast.Div)):
            raise self.unsupported(node, "tile and scalar combined other than by * or /")
        varying = False
        if not (ta and tb):
            scalar = b if ta else a
            source = None
            if isinstance(node, ast.BinOp):
                source = node.right if ta else node.left
            elif isinstance(node, ast.AugAssign):
                source = node.value
            if scalar.literal is None:
                from cuda_production.translator import _fold
                varying = source is None or _fold(source, self.module.info.constants) is None
                if varying and not self.unchanging(source):
                    name = self.fresh("scalar")
                    self.out(f"const {self.module.ctype(scalar.type)} {name} = {scalar.code};  // {ast.unparse(source) if source else 'the scalar'}, read once")
                    scalar = CExpr(name, scalar.type)
            a, b = (a, scalar) if ta else (scalar, b)
        ea = self.element(a) if ta else a
        eb = self.element(b) if tb else b
        value = self.binary(node, op, ea, eb)
        tiles = [v for v, t in ((a, ta), (b, tb)) if t]
        if isinstance(op, ast.Mult) and not (ta and tb) and (ea if ta else eb).code == zero_of((ta or tb).dtype, True) \
                and (b if ta else a).type == value.type:
            # a ones tile times a scalar (`wp.tile_ones(shape=n, dtype=float) * c`) is c everywhere
            return self.derived(TileType(value.type, (ta or tb).shape), b if ta else a, [], [], 0, varying=varying)
        return self.derived(TileType(value.type, (ta or tb).shape), value, tiles, [], 1, varying=varying)

    def unchanging(self, source: ast.AST | None) -> bool:
        """Whether a scalar expression keeps its value for the rest of the kernel: literals, module
        constants, and names assigned at most once (parameters, the thread index, single-assignment
        locals), combined by arithmetic and casts."""
        if source is None:
            return False
        stores = self.store_counts()
        for n in ast.walk(source):
            if isinstance(n, ast.Name):
                if stores.get(n.id, 0) > 1 or (isinstance(n.ctx, ast.Load) and n.id in self.arrays):
                    return False
            elif isinstance(n, ast.Call):
                if not (isinstance(n.func, ast.Name) and n.func.id in ("float", "int")) \
                        and not _is_wp(n.func, "float32", "float64", "int32"):
                    return False
            elif isinstance(n, (ast.Subscript, ast.Attribute)) and not _is_wp(n, "float32", "float64", "int32"):
                return False
        return True

    def store_counts(self) -> dict[str, int]:
        """How many times each name is assigned (a parameter once, on entry)."""
        counts = {p.name: 1 for p in self.params}
        for n in ast.walk(self.fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                counts[n.id] = counts.get(n.id, 0) + 1
        return counts

    def tile_negate(self, node: ast.AST, t: CExpr) -> CExpr:
        return self.tile_binary(node, ast.Mult(), t, CExpr("-1.0f" if t.type.dtype != "int32" else "-1",
                                                            "float32" if t.type.dtype != "int32" else "int32",
                                                            literal=-1.0 if t.type.dtype != "int32" else -1))

    def buffer_bytes(self, name: str) -> int:
        tt = self.tiles[name]
        rows = tt.size // tt.shape[-1]
        return rows * self.row_pitch.get(name, tt.shape[-1]) * element_bytes(tt.dtype)

    def pad_transposed_buffers(self) -> None:
        """Each buffer read through a transpose whose rows put a column in one bank gets a row stride
        of cols + 1 (BANKS), while the block's shared memory stays within SHARED_MEMORY_LIMIT; every
        access to it in the kernel's lines is placed accordingly (`with_row_pitch`), so the layout is
        decided here, once, after every access is known."""
        total = sum(self.buffer_bytes(name) for name in self.tiles)
        for name in sorted(self.transposed_reads & set(self.tiles)):
            tt = self.tiles[name]
            if len(tt.shape) != 2 or tt.shape[1] % BANKS or tt.dtype not in PADDED_DTYPES \
                    or transposed_read_ways(*tt.shape, tt.shape[1] + 1) >= transposed_read_ways(*tt.shape, tt.shape[1]) \
                    or not only_indexed(self.lines, name):
                continue
            extra = tt.shape[0] * element_bytes(tt.dtype)
            if total + extra > SHARED_MEMORY_LIMIT:
                continue
            total += extra
            rows, cols = tt.shape
            self.row_pitch[name] = cols + 1
            self.lines = [with_row_pitch(line, name, rows, cols, cols + 1, self.coordinates) for line in self.lines]

    def shared_declarations(self) -> list[str]:
        self.pad_transposed_buffers()
        lines, total = [], 0
        for name, tt in self.tiles.items():
            total += self.buffer_bytes(name)
            pitch = self.row_pitch.get(name)
            size = tt.size if pitch is None else tt.size // tt.shape[-1] * pitch
            layout = "" if pitch is None else f", rows {pitch} elements apart (one padding element: a column spans 32 banks)"
            # wmma reads and writes 16x16 blocks through 256-bit aligned addresses
            align = "__align__(32) " if name in self.fragment_buffers else ""
            lines.append(f"__shared__ {align}{self.module.ctype(tt.dtype)} {name}[{size}];  // tile {tt.dtype}, "
                         f"shape {'x'.join(map(str, tt.shape))}{layout}")
        if total > SHARED_MEMORY_LIMIT:
            raise self.unsupported(self.fn, f"tiles needing {total} bytes of shared memory per block "
                                            f"(over {SHARED_MEMORY_LIMIT} bytes)")
        if any(E in line or "@lazy" in line for line in self.lines):
            raise self.unsupported(self.fn, "a tile form the translator cannot place (internal: a lazy tile left in the code)")
        return lines
