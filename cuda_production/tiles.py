"""Warp tiles -> shared-memory CUDA: the tile builtins, one table entry each, and how a kernel using
them is launched.

Warp's semantics (warp/_src/builtins.py, warp/native/tile*.h, `wp.launch_tiled` in context.py):

* A tile is a block-wide value of constant shape. Every thread of the block runs every statement of
  the kernel; tile operations are cooperative (every thread must reach them).
* `wp.launch_tiled(k, dim=D, block_dim=B)` is `wp.launch(k, dim=[*D, B], block_dim=B)`: block b runs
  launch index b of D, its B threads the trailing dimension. `wp.tid()` gives the leading indices
  (the launch index; one more name gets the thread's lane). A plain `wp.launch(k, dim=D, block_dim=B)`
  of a kernel using tiles forms blocks of B consecutive threads of the (row-major) launch.

The translation keeps that model: each tile value lives in a `__shared__` array of the block (flat,
row-major), written by the block's threads in a strided loop (`for (e = threadIdx.x; e < size;
e += blockDim.x)`) between `__syncthreads()` barriers: one before a write (earlier readers are done)
and one after (every thread sees the result). Reductions are a strided partial sum per thread and a
tree over the block; `tile_matmul` is the inner-product loop over shared memory.

A tile builtin outside the table, or a tile form the table does not cover, is refused with the
translator's one-line error; never translated into something else.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from cuda_production.cuda_types import CExpr, TileType, is_vec, VEC_LEN, VECD_LEN, COMPONENTS, ArrayType, LocalVectorType

DEFAULT_TILED_BLOCK_DIM = 64  # wp.launch_tiled whose block_dim the translator cannot read
WARP_CUDA_BLOCK_DIM = 256  # what wp.launch uses on CUDA when no block_dim is given
SHARED_MEMORY_LIMIT = 48 * 1024  # static __shared__ bytes per block every CUDA GPU accepts
TILE_DTYPES = ("float32", "float64", "float16", "int32", "vec2", "vec3", "vec4", "vec2d")
FFT_DTYPES = ("vec2", "vec2d")  # Warp's complex numbers: (real, imaginary) in vec2f / vec2d
TWO_PI = "6.28318530717958647692528676655900576839433879875021"  # Warp's fft_consts<T>::two_pi()
MATMUL_DTYPES = ("float32", "float64", "float16")  # Warp's Float: a, b and out may differ; out's type accumulates
LAUNCH_FUNCTIONS = ("launch", "launch_tiled")


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
add_tile_builtin("tile_sum", ("a",), 1, "tile_sum")
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
SCAN_DTYPES = ("float32", "int32", "uint32")  # Warp's tile_scan_* element types
add_tile_builtin("tile_diag_add", ("a", "d"), 2, "tile_diag_add")
add_tile_builtin("tile_cholesky", ("A", "fill_mode"), 1, "tile_cholesky")
add_tile_builtin("tile_cholesky_solve", ("L", "y", "fill_mode"), 2, "tile_cholesky_solve")
SOLVER_DTYPES = ("float32", "float64")


def zero_of(dtype: str, one: bool = False) -> str:
    if dtype == "float32":
        return "1.0f" if one else "0.0f"
    if dtype == "float64":
        return "1.0" if one else "0.0"
    if dtype == "float16":
        return "__float2half(1.0f)" if one else "__float2half(0.0f)"
    if dtype == "int32":
        return "1" if one else "0"
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
    return {"float64": 8, "float16": 2}.get(dtype, 4)


def coords(e: str, shape: tuple[int, ...]) -> list[str]:
    """Row-major coordinates of flat element `e` of a tile of `shape`."""
    out = []
    for k, d in enumerate(shape):
        inner = 1
        for x in shape[k + 1:]:
            inner *= x
        c = e if inner == 1 else f"{e} / {inner}"
        if k > 0:
            c = f"{c} % {d}" if inner == 1 else f"({c}) % {d}"
        out.append(c)
    return out


class TileTranslator:
    """The tile half of FunctionTranslator (mixed in): tile values, their buffers and the builtins.

    State (set by FunctionTranslator): `block_dim` (0: the function uses no tiles), `tiles` (buffer
    name -> TileType, user tile variables and temporaries alike), `tile_dest` (the variable an
    assignment's value may be written into directly), `tile_accesses` (array, offset nodes, tile
    shape) for input inference."""

    # ---- buffers and barriers ----------------------------------------------------------------
    def sync(self) -> None:
        """A barrier, unless one was just emitted or no tile was written yet (outside any loop)."""
        first, self.tiles_written = not self.tiles_written, True
        if first and self.loop_depth == 0:
            return
        last = next((line.strip() for line in reversed(self.lines) if line.strip()), "")
        if last != "__syncthreads();":
            self.out("__syncthreads();")

    def claim_dest(self) -> str | None:
        dest, self.tile_dest = self.tile_dest, None
        return dest

    def tile_buffer(self, node: ast.AST, tt: TileType, dest: str | None, base: str = "tile") -> str:
        if tt.dtype not in TILE_DTYPES:
            raise self.unsupported(node, f"tile of {tt.dtype}")
        if dest is not None and self.tiles.get(dest, tt) == tt:
            self.tiles[dest] = tt
            return dest
        name = self.fresh(base)
        self.tiles[name] = tt
        return name

    def coop(self, count: int, body) -> None:
        """The block's threads share `count` elements: `body(e)` gives the lines for element e."""
        e = self.fresh("e")
        self.out(f"for (int {e} = threadIdx.x; {e} < {count}; {e} += blockDim.x) {{")
        self.indent += 1
        for line in body(e):
            self.out(line)
        self.indent -= 1
        self.out("}")

    def tile_value(self, node: ast.AST) -> CExpr:
        v = self.emit(node)
        if not isinstance(v.type, TileType):
            raise self.error(node, f"a tile is expected here, found a value of type {v.type}")
        return v

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
            if v.literal is not None:
                out.append(v.code)
            else:
                name = self.fresh("offset")
                self.out(f"const int {name} = {v.code};")
                out.append(name)
        return out

    def array_window(self, arr: CExpr, shape: tuple[int, ...], offs: list[str], e: str, bounds_check: bool):
        """(declarations, C condition or None, flat array index) of tile element `e` in the array."""
        names = [self.fresh(c) for c in ("row", "col", "depth")[: len(shape)]] if len(shape) > 1 else [self.fresh("idx")]
        lines = [f"const int {n} = {o + ' + ' if o != '0' else ''}{c};" for n, o, c in zip(names, offs, coords(e, shape))]
        cond = " && ".join(f"{n} < {arr.code}_dim{k}" for k, n in enumerate(names)) if bounds_check else None
        flat = names[0]
        for k in range(1, len(names)):
            flat = f"{flat if k == 1 else f'({flat})'} * {arr.code}_dim{k} + {names[k]}"
        return lines, cond, flat

    def record_access(self, arr_node: ast.AST, offset: ast.AST | None, shape: tuple[int, ...]) -> None:
        if isinstance(arr_node, ast.Name):
            elts = tuple(offset.elts) if isinstance(offset, ast.Tuple) else ((offset,) if offset is not None else (None,) * len(shape))
            self.tile_accesses.append((arr_node.id, elts, shape))

    # ---- memory ------------------------------------------------------------------------------
    def tile_load(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        dest = self.claim_dest()
        arr = self.array_arg(a["a"], "wp.tile_load")
        shape = self.const_shape(a["shape"])
        if len(shape) != arr.type.ndim:
            raise self.error(node, f"tile shape {shape} for a {arr.type.ndim}-D array")
        check = self.const_flag(a.get("bounds_check"), True, "bounds_check")
        self.const_flag(a.get("storage"), "register", "storage")  # shared or register: both are shared memory here
        self.const_flag(a.get("aligned"), False, "aligned")
        offs = self.offsets(a.get("offset"), len(shape))
        self.record_access(a["a"], a.get("offset"), shape)
        tt = TileType(arr.type.dtype, shape)
        dst = self.tile_buffer(node, tt, dest)
        self.sync()
        self.out(f"// {dst} = {'x'.join(map(str, shape))} tile of {ast.unparse(a['a'])} (outside the array: 0)"
                 if check else f"// {dst} = {'x'.join(map(str, shape))} tile of {ast.unparse(a['a'])}")

        def body(e):
            lines, cond, flat = self.array_window(arr, shape, offs, e, check)
            value = f"{arr.code}[{flat}]"
            return lines + [f"{dst}[{e}] = {f'({cond}) ? {value} : {zero_of(tt.dtype)}' if cond else value};"]
        self.coop(tt.size, body)
        self.sync()
        return CExpr(dst, tt)

    def tile_store(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        if not statement:
            raise self.unsupported(node, "the value of wp.tile_store")
        arr = self.array_arg(a["a"], "wp.tile_store")
        t = self.tile_value(a["t"])
        tt = t.type
        if len(tt.shape) != arr.type.ndim or tt.dtype != arr.type.dtype:
            raise self.error(node, f"wp.tile_store of a {tt} into a {arr.type.ndim}-D array of {arr.type.dtype}")
        check = self.const_flag(a.get("bounds_check"), True, "bounds_check")
        self.const_flag(a.get("aligned"), False, "aligned")
        offs = self.offsets(a.get("offset"), len(tt.shape))
        self.record_access(a["a"], a.get("offset"), tt.shape)

        def body(e):
            lines, cond, flat = self.array_window(arr, tt.shape, offs, e, check)
            store = f"{arr.code}[{flat}] = {t.code}[{e}];"
            return lines + ([f"if ({cond})", f"    {store}"] if cond else [store])
        self.coop(tt.size, body)
        return CExpr("", "void")

    def tile_atomic_add(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        if not statement:
            raise self.unsupported(node, "the value of wp.tile_atomic_add (the tile of old values)")
        arr = self.array_arg(a["a"], "wp.tile_atomic_add")
        t = self.tile_value(a["t"])
        tt = t.type
        if len(tt.shape) != arr.type.ndim or tt.dtype != arr.type.dtype:
            raise self.error(node, f"wp.tile_atomic_add of a {tt} into a {arr.type.ndim}-D array of {arr.type.dtype}")
        check = self.const_flag(a.get("bounds_check"), True, "bounds_check")
        offs = self.offsets(a.get("offset"), len(tt.shape))
        self.record_access(a["a"], a.get("offset"), tt.shape)

        def body(e):
            lines, cond, flat = self.array_window(arr, tt.shape, offs, e, check)
            add = self.atomic_call(node, "atomic_add", CExpr(f"{arr.code}[{flat}]", tt.dtype),
                                   CExpr(f"{t.code}[{e}]", tt.dtype)).code + ";"
            return lines + ([f"if ({cond})", f"    {add}"] if cond else [add])
        self.coop(tt.size, body)
        return CExpr("", "void")

    # ---- construction ------------------------------------------------------------------------
    def tile_fill(self, node: ast.Call, a: dict, one: bool) -> CExpr:
        dest = self.claim_dest()
        shape = self.const_shape(a["shape"])
        dtype = "float32"
        if "dtype" in a:
            dtype = self.annotation_type(a["dtype"])
        self.const_flag(a.get("storage"), "register", "storage")
        tt = TileType(dtype, shape)
        dst = self.tile_buffer(node, tt, dest)
        self.sync()
        self.coop(tt.size, lambda e: [f"{dst}[{e}] = {zero_of(dtype, one)};"])
        self.sync()
        return CExpr(dst, tt)

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
            self.sync()
            self.out(f"for (int {k} = 0; {k} < {x.type.length}; ++{k})  // component k of each thread's vector: row k")
            self.out(f"    {dst}[{k} * {b} + threadIdx.x] = {x.code}[{k}];")
            self.sync()
            return CExpr(dst, tt)
        if x.type in ("float32", "float64", "int32") or (is_vec(x.type) and preserve):
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
        self.sync()
        if len(tt.shape) == 1:
            self.out(f"{dst}[threadIdx.x] = {x.code};  // one element per thread of the block")
        else:
            for k in range(tt.shape[0]):
                self.out(f"{dst}[{k * b} + threadIdx.x] = {x.at(16)}.{COMPONENTS[k]};")
        self.sync()
        return CExpr(dst, tt)

    def untile(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        self.claim_dest()  # the result is a per-thread value, not a tile
        t = self.tile_value(a["a"])
        tt, b = t.type, self.block_dim
        if tt.shape == (b,):
            return CExpr(f"{t.code}[threadIdx.x]", tt.dtype)
        if len(tt.shape) == 2 and tt.shape[1] == b and tt.dtype == "float32" and tt.shape[0] in (2, 3, 4):
            n = tt.shape[0]
            parts = ", ".join(f"{t.code}[{k * b} + threadIdx.x]" for k in range(n))
            return CExpr(f"make_float{n}({parts})", f"vec{n}")
        if len(tt.shape) == 2 and tt.shape[1] == b and tt.dtype in ("float32", "float64", "float16", "int32"):
            # a vector of another length or type (Warp's vector(length=rows, dtype)): a local C array
            vt = LocalVectorType(tt.dtype, tt.shape[0])
            name, k = self.fresh("untiled"), self.fresh("k")
            self.out(f"{self.module.ctype(tt.dtype)} {name}[{vt.length}];  // column threadIdx.x of {t.code}")
            self.out(f"for (int {k} = 0; {k} < {vt.length}; ++{k})")
            self.out(f"    {name}[{k}] = {t.code}[{k} * {b} + threadIdx.x];")
            return CExpr(name, vt)
        raise self.unsupported(node, f"wp.untile of a {tt} with block_dim {b}")

    # ---- reductions and products -------------------------------------------------------------
    def tile_sum(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        dest = self.claim_dest()
        t = self.tile_value(a["a"])
        dtype = t.type.dtype
        if dtype not in ("float32", "float64", "int32"):
            raise self.unsupported(node, f"wp.tile_sum of a tile of {dtype}")
        b = self.block_dim
        partial = self.tile_buffer(node, TileType(dtype, (b,)), None, "partial")
        tt = TileType(dtype, (1,))
        dst = self.tile_buffer(node, tt, dest, "total")
        acc, e, stride = self.fresh("sum"), self.fresh("e"), self.fresh("stride")
        ct = self.module.ctype(dtype)
        self.out(f"// {dst} = sum of {t.code}: a strided partial sum per thread, then a tree over the block")
        self.out(f"{ct} {acc} = {zero_of(dtype)};")
        self.out(f"for (int {e} = threadIdx.x; {e} < {t.type.size}; {e} += blockDim.x)")
        self.out(f"    {acc} += {t.code}[{e}];")
        self.sync()
        self.out(f"{partial}[threadIdx.x] = {acc};")
        self.out("__syncthreads();")
        self.out(f"for (int {stride} = 1; {stride} < {b}; {stride} *= 2) {{")
        self.out(f"    if (threadIdx.x % (2 * {stride}) == 0 && threadIdx.x + {stride} < {b})")
        self.out(f"        {partial}[threadIdx.x] += {partial}[threadIdx.x + {stride}];")
        self.out("    __syncthreads();")
        self.out("}")
        self.out("if (threadIdx.x == 0)")
        self.out(f"    {dst}[0] = {partial}[0];")
        self.out("__syncthreads();")
        return CExpr(dst, tt)

    def tile_matmul(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """c = a @ b, or out = alpha * a @ b + beta * out: each thread computes a strided share of the
        output elements, each an inner product over rows of a and columns of b in shared memory."""
        accumulate = "out" in a
        dest = None if accumulate else self.claim_dest()
        if accumulate and not statement:
            raise self.unsupported(node, "the value of wp.tile_matmul(a, b, out)")
        ta, tb = self.tile_value(a["a"]), self.tile_value(a["b"])
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
        if accumulate:
            out = self.tile_value(a["out"])
            if out.type.shape != tt.shape or out.type.dtype not in MATMUL_DTYPES:
                raise self.error(node, f"wp.tile_matmul into a {out.type}; the product is {m}x{n}")
            tt = out.type
            dst = out.code
            alpha = self.emit(a["alpha"]) if "alpha" in a else CExpr("1.0f", "float32", literal=1.0)
            beta = self.emit(a["beta"]) if "beta" in a else CExpr("1.0f", "float32", literal=1.0)
            for v, what in ((alpha, "alpha"), (beta, "beta")):
                if v.type != "float32" or (tt.dtype != "float32" and v.literal != 1.0):
                    raise self.unsupported(node, f"wp.tile_matmul {what} of type {v.type} into a tile of {tt.dtype}")
        else:
            dst = self.tile_buffer(node, tt, dest, "product")
        sum_, r, c, kk = self.fresh("dot"), self.fresh("row"), self.fresh("col"), self.fresh("k")
        self.sync()
        self.out(f"// {dst} {'+' if accumulate else ''}= {ta.code} ({m}x{k}) @ {tb.code} ({k}x{n})")

        acc = "float32" if tt.dtype == "float16" else tt.dtype  # half products accumulate in float
        acc_c = self.module.ctype(acc)

        def widen(code: str, dtype: str) -> str:
            """An operand in the accumulator's type (Warp converts a and b to it)."""
            if dtype == "float16":
                code = f"__half2float({code})"
                dtype = "float32"
            return code if dtype == acc else f"({acc_c}){code}"

        def as_half(code: str, dtype: str) -> str:
            """An operand converted to half, as a float (Warp converts a and b to a half output's type)."""
            return {"float16": f"__half2float({code})", "float32": f"__half2float(__float2half({code}))",
                    "float64": f"__half2float(__double2half({code}))"}[dtype]

        def body(e):
            lines = [f"const int {r} = {e} / {n};", f"const int {c} = {e} % {n};", f"{acc_c} {sum_} = {zero_of(acc)};",
                     f"for (int {kk} = 0; {kk} < {k}; ++{kk})",
                     f"    {sum_} += {widen(f'{ta.code}[{r} * {k} + {kk}]', ta.type.dtype)} * "
                     f"{widen(f'{tb.code}[{kk} * {n} + {c}]', tb.type.dtype)};"]
            if tt.dtype == "float16":
                # Warp accumulates in the output's type: each product and each sum rounded to half
                # (tile_matmul.h scalar_matmul, T = half); `sum` holds that half value as a float
                product = (f"{as_half(f'{ta.code}[{r} * {k} + {kk}]', ta.type.dtype)} * "
                           f"{as_half(f'{tb.code}[{kk} * {n} + {c}]', tb.type.dtype)}")
                lines[-1] = f"    {sum_} = __half2float(__float2half({sum_} + __half2float(__float2half({product}))));"
                value = f"__float2half({sum_})" if not accumulate else f"__float2half(__half2float({dst}[{e}]) + {sum_})"
                return lines + [f"{dst}[{e}] = {value};"]
            if not accumulate:
                return lines + [f"{dst}[{e}] = {sum_};"]
            if alpha.literal == 1.0 and beta.literal == 1.0:
                return lines + [f"{dst}[{e}] += {sum_};"]
            return lines + [f"{dst}[{e}] = {alpha.at(13)} * {sum_} + {beta.at(13)} * {dst}[{e}];"]
        self.coop(m * n, body)
        self.sync()
        return CExpr("", "void") if accumulate else CExpr(dst, tt)

    # ---- Fourier transforms -------------------------------------------------------------------
    def tile_fft(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.fourier(node, a, statement, -1)

    def tile_ifft(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        return self.fourier(node, a, statement, 1)

    def fourier(self, node: ast.Call, a: dict, statement: bool, sign: int) -> CExpr:
        """wp.tile_fft / tile_ifft(t): each row (the last dimension) of a complex tile transformed in
        place, unnormalized. Warp's cooperative path (warp/native/tile_fft.h, used on the CPU with
        block_dim > 1 and on GPUs without MathDx): a bit-reverse permutation, then radix-2 butterfly
        stages shared over the block, each twiddle computed from its angle; same arithmetic here."""
        name = "tile_fft" if sign < 0 else "tile_ifft"
        if not statement:
            raise self.unsupported(node, f"the value of wp.{name} (it transforms its tile in place)")
        t = self.tile_value(a["inout"])
        tt = t.type
        if tt.dtype not in FFT_DTYPES:
            raise self.unsupported(node, f"wp.{name} of a {tt} (tiles of vec2f or vec2d only)")
        n = tt.shape[-1]
        if n < 2 or n & (n - 1):
            raise self.unsupported(node, f"wp.{name} of rows of {n} elements (powers of two only)")
        log_n = n.bit_length() - 1
        real = "float" if tt.dtype == "vec2" else "double"
        batch = tt.size // n
        row, i, j, k, v = (self.fresh(x) for x in ("row", "i", "j", "k", "v"))
        x, length, half, base, b = (self.fresh(x) for x in ("x", "len", "half", "theta_base", "b"))
        self.sync()
        self.out(f"// wp.{name}({t.code}): radix-2 {'forward' if sign < 0 else 'inverse'} transform (unnormalized) "
                 f"of each of its {batch} row(s) of {n}")
        self.out(f"for (int {row} = 0; {row} < {batch}; ++{row}) {{")
        self.indent += 1
        ct = self.module.ctype(tt.dtype)
        self.out(f"{ct}* {x} = {t.code} + {row} * {n};")
        self.out(f"for (int {i} = threadIdx.x; {i} < {n}; {i} += blockDim.x) {{  // bit-reverse permutation")
        self.out(f"    int {j} = 0;")
        self.out(f"    for (int {k} = 0, {v} = {i}; {k} < {log_n}; ++{k}, {v} >>= 1)")
        self.out(f"        {j} = ({j} << 1) | ({v} & 1);")
        self.out(f"    if ({i} < {j}) {{")
        self.out(f"        const {ct} swap = {x}[{i}];")
        self.out(f"        {x}[{i}] = {x}[{j}];")
        self.out(f"        {x}[{j}] = swap;")
        self.out("    }")
        self.out("}")
        self.out("__syncthreads();")
        self.out(f"for (int {length} = 2; {length} <= {n}; {length} <<= 1) {{")
        self.indent += 1
        self.out(f"const int {half} = {length} >> 1;")
        self.out(f"const {real} {base} = {real}({sign}) * {real}({TWO_PI}) / {real}({length});")
        self.out(f"for (int {b} = threadIdx.x; {b} < {n // 2}; {b} += blockDim.x) {{")
        self.indent += 1
        sin, cos = ("sinf", "cosf") if real == "float" else ("sin", "cos")
        for line in (f"const int group = {b} / {half};",
                     f"const int pos = {b} - group * {half};",
                     f"const int lo = group * {length} + pos;",
                     f"const int hi = lo + {half};",
                     f"const {real} theta = {base} * {real}(pos);",
                     f"const {real} w_re = {cos}(theta);",
                     f"const {real} w_im = {sin}(theta);",
                     f"const {real} t_re = w_re * {x}[hi].x - w_im * {x}[hi].y;",
                     f"const {real} t_im = w_re * {x}[hi].y + w_im * {x}[hi].x;",
                     f"const {real} u_re = {x}[lo].x;",
                     f"const {real} u_im = {x}[lo].y;",
                     f"{x}[lo].x = u_re + t_re;",
                     f"{x}[lo].y = u_im + t_im;",
                     f"{x}[hi].x = u_re - t_re;",
                     f"{x}[hi].y = u_im - t_im;"):
            self.out(line)
        self.indent -= 1
        self.out("}")
        self.out("__syncthreads();")
        self.indent -= 1
        self.out("}")
        self.indent -= 1
        self.out("}")
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
        t = self.tile_value(a["a"])
        if t.type.dtype not in SCAN_DTYPES:
            raise self.unsupported(node, f"wp.{name} of a tile of {t.type.dtype}")
        tt = t.type
        dst = self.tile_buffer(node, tt, dest if dest != t.code else None, "scan")
        scratch = self.tile_buffer(node, tt, None, "scan_step")
        zero = zero_of(tt.dtype) if tt.dtype != "uint32" else "0u"
        stride = self.fresh("stride")
        self.sync()
        self.out(f"// {dst} = {'inclusive' if inclusive else 'exclusive'} prefix sums of {t.code} ({tt.size} elements)")
        self.coop(tt.size, lambda e: [f"{dst}[{e}] = {t.code}[{e}];" if inclusive
                                      else f"{dst}[{e}] = {e} > 0 ? {t.code}[{e} - 1] : {zero};"])
        self.out("__syncthreads();")
        self.out(f"for (int {stride} = 1; {stride} < {tt.size}; {stride} *= 2) {{")
        self.indent += 1
        self.coop(tt.size, lambda e: [f"{scratch}[{e}] = {e} >= {stride} ? {dst}[{e} - {stride}] + {dst}[{e}] : {dst}[{e}];"])
        self.out("__syncthreads();")
        self.coop(tt.size, lambda e: [f"{dst}[{e}] = {scratch}[{e}];"])
        self.out("__syncthreads();")
        self.indent -= 1
        self.out("}")
        return CExpr(dst, tt)

    def tile_extract(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """wp.tile_extract(t, i[, j, ...]): the element, as `t[i, j]` (every thread reads shared memory)."""
        self.claim_dest()  # the result is a per-thread value, not a tile
        indices = [a[k] for k in ("i", "j", "k", "l") if k in a]
        index = indices[0] if len(indices) == 1 else ast.Tuple(elts=indices, ctx=ast.Load())
        return self.emit(ast.copy_location(ast.Subscript(value=a["a"], slice=index, ctx=ast.Load()), node))

    def tile_from_thread(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """A tile filled with the value of one thread of the block: that thread writes it to a shared
        slot, then the block fills the tile from the slot."""
        dest = self.claim_dest()
        shape = self.const_shape(a["shape"])
        value = self.emit(a["value"])
        lane = self.emit(a["thread_idx"])
        if lane.type != "int32":
            raise self.error(a["thread_idx"], f"thread_idx of type {lane.type}; Warp requires int")
        self.const_flag(a.get("storage"), "register", "storage")
        tt = TileType(value.type, shape)
        dst = self.tile_buffer(node, tt, dest, "broadcast")
        slot = self.tile_buffer(node, TileType(value.type, (1,)), None, "slot")
        self.sync()
        self.out(f"if (threadIdx.x == {lane.code})")
        self.out(f"    {slot}[0] = {value.code};  // the value of thread {ast.unparse(a['thread_idx'])}")
        self.out("__syncthreads();")
        self.coop(tt.size, lambda e: [f"{dst}[{e}] = {slot}[0];"])
        self.sync()
        return CExpr(dst, tt)

    def tile_store_indexed(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """Element c of t goes to a[offset + c], except along `axis`: offset[axis] + indices[c[axis]].
        A destination outside the array (a negative index, -1 by convention) is skipped, as Warp does."""
        if not statement:
            raise self.unsupported(node, "the value of wp.tile_store_indexed")
        arr = self.array_arg(a["a"], "wp.tile_store_indexed")
        indices = self.tile_value(a["indices"])
        t = self.tile_value(a["t"])
        tt = t.type
        axis = self.const_int(a["axis"], "axis") if "axis" in a else 0
        if len(tt.shape) != arr.type.ndim or tt.dtype != arr.type.dtype:
            raise self.error(node, f"wp.tile_store_indexed of a {tt} into a {arr.type.ndim}-D array of {arr.type.dtype}")
        if not 0 <= axis < len(tt.shape):
            raise self.error(node, f"axis {axis} of a {len(tt.shape)}-D tile")
        if indices.type.dtype != "int32" or indices.type.shape != (tt.shape[axis],):
            raise self.error(a["indices"], f"indices: a tile of {tt.shape[axis]} int is expected, found a {indices.type}")
        offs = self.offsets(a.get("offset"), len(tt.shape))

        def body(e):
            names = [self.fresh(c) for c in ("row", "col", "depth")[: len(tt.shape)]]
            lines = []
            for k, (n, o, c) in enumerate(zip(names, offs, coords(e, tt.shape))):
                c = f"{indices.code}[{c}]" if k == axis else c
                lines.append(f"const int {n} = {o + ' + ' if o != '0' else ''}{c};")
            cond = " && ".join(f"{n} >= 0 && {n} < {arr.code}_dim{k}" for k, n in enumerate(names))
            flat = names[0]
            for k in range(1, len(names)):
                flat = f"{flat if k == 1 else f'({flat})'} * {arr.code}_dim{k} + {names[k]}"
            return lines + [f"if ({cond})", f"    {arr.code}[{flat}] = {t.code}[{e}];"]
        self.sync()
        self.coop(tt.size, body)
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
        dest = self.claim_dest()
        m, d = self.tile_value(a["a"]), self.tile_value(a["d"])
        if len(m.type.shape) != 2 or m.type.shape[0] != m.type.shape[1] or d.type.shape != m.type.shape[:1] \
                or d.type.dtype != m.type.dtype:
            raise self.error(node, f"wp.tile_diag_add of a {m.type} and a {d.type}")
        n = m.type.shape[0]
        dst = self.tile_buffer(node, m.type, dest if dest not in (m.code, d.code) else None, "diag_added")
        self.sync()
        self.coop(m.type.size, lambda e: [f"{dst}[{e}] = {e} / {n} == {e} % {n} ? {m.code}[{e}] + {d.code}[{e} / {n}] "
                                          f": {m.code}[{e}];"])
        self.sync()
        return CExpr(dst, m.type)

    def tile_cholesky(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """The Cholesky factor, as Warp's cooperative scalar path (warp/native/tile_cholesky.h): column
        by column, every thread computing the diagonal, the rows below shared over the block."""
        dest = self.claim_dest()
        src = self.tile_value(a["A"])
        n = self.square(node, src, "tile_cholesky")
        upper = self.fill_mode(a, "tile_cholesky")
        tt = src.type
        real = self.module.ctype(tt.dtype)
        out = self.tile_buffer(node, tt, dest if dest != src.code else None, "factor")
        j, k, i, s, r, si, inv = (self.fresh(x) for x in ("j", "k", "i", "s", "r", "s_i", "inv_s"))

        def at(row: str, col: str) -> str:  # the factor's element (row, col) of L, or of U = L^T
            return f"{out}[{col} * {n} + {row}]" if upper else f"{out}[{row} * {n} + {col}]"
        sqrt = "sqrtf" if tt.dtype == "float32" else "sqrt"
        self.sync()
        self.out(f"// {out} = Cholesky factor of {src.code} ({'upper: A = U^T U' if upper else 'lower: A = L L^T'})")
        self.coop(tt.size, lambda e: [f"{out}[{e}] = {src.code}[{e}];"])
        self.out("__syncthreads();")
        self.out(f"for (int {j} = 0; {j} < {n}; ++{j}) {{")
        self.indent += 1
        for line in (f"{real} {s} = {src.code}[{j} * {n} + {j}];",
                     f"for (int {k} = 0; {k} < {j}; ++{k}) {{",
                     f"    const {real} {r} = {at(j, k)};",
                     f"    {s} -= {r} * {r};",
                     "}",
                     f"{s} = {sqrt}({s});",
                     f"const {real} {inv} = 1.0 / {s};  // in double, as Warp's `T invS = 1.0 / s`",
                     "if (threadIdx.x == 0)",
                     f"    {at(j, j)} = {s};",
                     f"for (int {i} = {j} + 1 + threadIdx.x; {i} < {n}; {i} += blockDim.x) {{",
                     f"    {real} {si} = {src.code}[{f'{j} * {n} + {i}' if upper else f'{i} * {n} + {j}'}];",
                     f"    for (int {k} = 0; {k} < {j}; ++{k})",
                     f"        {si} -= {at(i, k)} * {at(j, k)};",
                     f"    {at(i, j)} = {si} * {inv};",
                     "}",
                     f"for (int {k} = {j} + 1 + threadIdx.x; {k} < {n}; {k} += blockDim.x)",
                     f"    {at(j, k)} = {zero_of(tt.dtype)};",
                     "__syncthreads();"):
            self.out(line)
        self.indent -= 1
        self.out("}")
        return CExpr(out, tt)

    def tile_cholesky_solve(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        """x with L L^T x = y (or U^T U x = y): forward then back substitution, Warp's cooperative
        scalar path (warp/native/tile_solve.h): thread 0 alone for a vector y, the columns of a
        matrix y shared over the block."""
        dest = self.claim_dest()
        factor = self.tile_value(a["L"])
        y = self.tile_value(a["y"])
        n = self.square(node, factor, "tile_cholesky_solve")
        upper = self.fill_mode(a, "tile_cholesky_solve")
        if y.type.shape[0] != n or len(y.type.shape) > 2 or y.type.dtype != factor.type.dtype:
            raise self.error(node, f"wp.tile_cholesky_solve of a {factor.type} and a {y.type}")
        tt = y.type
        m = tt.shape[1] if len(tt.shape) == 2 else 1
        real = self.module.ctype(tt.dtype)
        x = self.tile_buffer(node, tt, dest if dest not in (factor.code, y.code) else None, "solution")
        col, i, j, s, diag = (self.fresh(v) for v in ("col", "i", "j", "s", "diag"))

        def lower(row: str, c: str) -> str:  # L[row, c] (U[c, row] when upper)
            return f"{factor.code}[{c} * {n} + {row}]" if upper else f"{factor.code}[{row} * {n} + {c}]"

        def elem(buf: str, row: str) -> str:
            return f"{buf}[{row} * {m} + {col}]" if m > 1 else f"{buf}[{row}]"
        self.sync()
        self.out(f"// {x} = solution of ({'U^T U' if upper else 'L L^T'}) x = {y.code}, {factor.code} the factor")
        self.coop(tt.size, lambda e: [f"{x}[{e}] = {y.code}[{e}];"])
        self.out("__syncthreads();")
        if m > 1:
            self.out(f"for (int {col} = threadIdx.x; {col} < {m}; {col} += blockDim.x) {{")
        else:
            self.out("if (threadIdx.x == 0) {")
        self.indent += 1
        for line in (f"for (int {i} = 0; {i} < {n}; ++{i}) {{  // forward substitution",
                     f"    {real} {s} = {elem(y.code, i)};",
                     f"    for (int {j} = 0; {j} < {i}; ++{j})",
                     f"        {s} -= {lower(i, j)} * {elem(x, j)};",
                     f"    const {real} {diag} = {lower(i, i)};",
                     f"    {elem(x, i)} = ({diag} != {real}(0.0f)) ? {s} / {diag} : {s};",
                     "}",
                     f"for (int {i} = {n} - 1; {i} >= 0; --{i}) {{  // back substitution",
                     f"    {real} {s} = {elem(x, i)};",
                     f"    for (int {j} = {i} + 1; {j} < {n}; ++{j})",
                     f"        {s} -= {lower(j, i)} * {elem(x, j)};",
                     f"    const {real} {diag} = {lower(i, i)};",
                     f"    {elem(x, i)} = ({diag} != {real}(0.0f)) ? {s} / {diag} : {s};",
                     "}"):
            self.out(line)
        self.indent -= 1
        self.out("}")
        self.out("__syncthreads();")
        return CExpr(x, tt)

    # ---- reshaping and element-wise ----------------------------------------------------------
    def tile_transpose(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        dest = self.claim_dest()
        t = self.tile_value(a["a"])
        if len(t.type.shape) != 2:
            raise self.error(node, f"wp.tile_transpose of a {t.type}")
        m, n = t.type.shape
        tt = TileType(t.type.dtype, (n, m))
        dst = self.tile_buffer(node, tt, dest, "transposed")
        self.sync()
        self.coop(tt.size, lambda e: [f"{dst}[{e}] = {t.code}[({e} % {m}) * {n} + {e} / {m}];"])
        self.sync()
        return CExpr(dst, tt)

    def tile_broadcast(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        dest = self.claim_dest()
        t = self.tile_value(a["a"])
        shape = self.const_shape(a["shape"])
        src = t.type.shape
        lead = len(shape) - len(src)
        if lead < 0 or any(s not in (1, d) for s, d in zip(src, shape[lead:])):
            raise self.error(node, f"wp.tile_broadcast of shape {src} to {shape}")
        tt = TileType(t.type.dtype, shape)
        dst = self.tile_buffer(node, tt, dest, "broadcast")

        def body(e):
            cs = coords(e, shape)[lead:]
            flat = "0"
            for k, (s, c) in enumerate(zip(src, cs)):
                term = "0" if s == 1 else f"({c})"
                flat = term if flat == "0" else f"({flat}) * {s} + {term}"
            return [f"{dst}[{e}] = {t.code}[{flat}];"]
        self.sync()
        self.coop(tt.size, body)
        self.sync()
        return CExpr(dst, tt)

    def tile_map(self, node: ast.Call, a: dict, statement: bool) -> CExpr:
        dest = self.claim_dest()
        operands = [self.tile_value(a[name]) for name in TILE_BUILTINS["tile_map"].arg_names[1:] if name in a]
        if any(t.type.shape != operands[0].type.shape for t in operands[1:]):
            raise self.error(node, f"wp.tile_map of tiles of shapes {', '.join(str(t.type.shape) for t in operands)}")
        op = a["op"]
        e = self.fresh("e")
        elems = [CExpr(f"{t.code}[{e}]", t.type.dtype) for t in operands]
        if isinstance(op, ast.Name) and op.id in self.module.info.funcs:
            sig = self.module.translate_func(op.id, node)
            if len(sig.params) != len(elems) or any(p.dtype != x.type for p, x in zip(sig.params, elems)):
                raise self.error(node, f"wp.tile_map: '{op.id}' does not take {[x.type for x in elems]}")
            value = CExpr(f"{self.module.func_c_name(op.id)}({', '.join(x.code for x in elems)})", sig.return_type)
        elif _is_wp(op) or (isinstance(op, ast.Attribute) and isinstance(op.value, ast.Name) and op.value.id == "wp"):
            from cuda_production import builtins
            if not builtins.is_builtin(op.attr):
                raise self.unsupported(op, f"wp.tile_map of wp.{op.attr}")
            value = self.call_builtin(node, op.attr, elems)
        else:
            raise self.unsupported(op, "wp.tile_map of anything but a @wp.func or a wp builtin")
        tt = TileType(value.type, operands[0].type.shape)
        dst = self.tile_buffer(node, tt, dest, "mapped")
        self.sync()
        self.out(f"for (int {e} = threadIdx.x; {e} < {tt.size}; {e} += blockDim.x)")
        self.out(f"    {dst}[{e}] = {value.code};")
        self.sync()
        return CExpr(dst, tt)

    def tile_binary(self, node: ast.AST, op: ast.operator, a: CExpr, b: CExpr, dest: str | None = None) -> CExpr:
        """Element-wise `a op b` of tiles of one shape, or of a tile and a (per-thread) scalar."""
        if dest is None:
            dest = self.claim_dest()
        ta = a.type if isinstance(a.type, TileType) else None
        tb = b.type if isinstance(b.type, TileType) else None
        if ta and tb and ta.shape != tb.shape:
            raise self.error(node, f"element-wise operation on tiles of shapes {ta.shape} and {tb.shape}")
        if not (ta and tb) and not isinstance(op, (ast.Mult, ast.Div)):
            raise self.unsupported(node, "tile and scalar combined other than by * or /")
        shape = (ta or tb).shape
        e = self.fresh("e")
        ea = CExpr(f"{a.code}[{e}]", ta.dtype) if ta else a
        eb = CExpr(f"{b.code}[{e}]", tb.dtype) if tb else b
        value = self.binary(node, op, ea, eb)
        tt = TileType(value.type, shape)
        dst = self.tile_buffer(node, tt, dest)
        self.sync()
        self.out(f"for (int {e} = threadIdx.x; {e} < {tt.size}; {e} += blockDim.x)")
        self.out(f"    {dst}[{e}] = {value.code};")
        self.sync()
        return CExpr(dst, tt)

    def tile_negate(self, node: ast.AST, t: CExpr) -> CExpr:
        dest = self.claim_dest()
        return self.tile_binary(node, ast.Mult(), t, CExpr("-1.0f" if t.type.dtype != "int32" else "-1",
                                                            "float32" if t.type.dtype != "int32" else "int32"), dest)

    def tile_copy(self, node: ast.AST, dst: str, src: CExpr) -> None:
        self.sync()
        self.coop(src.type.size, lambda e: [f"{dst}[{e}] = {src.code}[{e}];"])
        self.sync()

    def shared_declarations(self) -> list[str]:
        lines, total = [], 0
        for name, tt in self.tiles.items():
            size = tt.size * element_bytes(tt.dtype)
            total += size
            lines.append(f"__shared__ {self.module.ctype(tt.dtype)} {name}[{tt.size}];  // tile {tt.dtype}, "
                         f"shape {'x'.join(map(str, tt.shape))}")
        if total > SHARED_MEMORY_LIMIT:
            raise self.unsupported(self.fn, f"tiles needing {total} bytes of shared memory per block "
                                            f"(over {SHARED_MEMORY_LIMIT} bytes)")
        return lines
