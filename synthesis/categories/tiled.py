"""Tiles: block-cooperative kernels launched with `wp.launch_tiled(kernel, dim=blocks, block_dim=B)`.

What Warp's tile examples (warp/examples/tile/) and tile-based code do, one kind per function below:
block-wise reductions (tile_load -> tile_map -> tile_sum -> a partial sum per block and/or an
atomic total), column sums (`ones @ x`, a bias gradient), a linear layer (tiled GEMM with a K loop
accumulating `tile_matmul` into a `tile_zeros` accumulator, weights in (K, N) or (N, K) layout
through `tile_transpose`, bias by `tile_broadcast`, an activation by `tile_map` of a `@wp.func`),
Gram / cross-covariance matrices (`X^T X` accumulated with `tile_atomic_add`), row normalisations
(RMS norm, softmax, L1: row sums by a product with a ones column, broadcast back), column
centering, batched small-matrix transposes (symmetric/skew parts, normal matrices), fused
element-wise maps of two tiles, and row FFTs of complex signals (`tile_fft` / `tile_ifft`: spectra,
syntheses, filters by a transfer function). Tile shapes are module constants (`wp.constant` or plain numbers).

Most launches are 1-D over blocks: block `i` owns rows `i * TILE_M ...` of the arrays that scale
with the launch (their outermost dimension is a whole multiple of the block count), while weights,
biases and accumulation targets keep their size (`cuda_production/bench.py`'s scaling rule). Linear
layers of several column tiles and fused maps are also launched over a 2-D grid of tiles, as Warp's
tile GEMM examples are (`i, j = wp.tid()`: block (i, j) owns the output tile at
(i * TILE_M, j * TILE_N)); only the row panels grow at bench size, the column tiles stay. The
block count is drawn so that no fixed-size array's outermost dimension is a multiple of it (which
that rule would read as scaling). Inputs lie on a coarse grid (2**-6 .. 2**-8) so that sums and
products of a tile are exact or nearly so in float32, whatever the order of summation.
"""
from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, replace
from typing import Callable

from synthesis.exprgen import FORWARD_ONLY_SHARE, feature_list, fmt_float
from synthesis.naming import untaken
from synthesis.spec import ArgSpec, KernelSpec

BLOCK_DIMS = (32, 64, 128, 256)
# Block reductions whose threads each compute their own value, gathered by `wp.tile`
THREAD_VALUES_SHARE = 0.5
UNTILE_SHARE = 0.35  # of those, kernels that also hand each thread its element of a block-wide result
# block reductions of several tiles' worth of elements where each thread first sums its own strided
# share (`for j in range(lane, CHUNK, wp.block_dim())`), as block-stride loops are written
STRIDED_SHARE = 0.5
BLOCK_COUNTS = tuple(range(5, 17))
SHARED_BUDGET = 40 * 1024  # bytes of tiles per block the kinds below stay under (CUDA's static limit is 48 KiB)


# ---- element-wise helpers for tile_map -----------------------------------------------------------
@dataclass(frozen=True)
class Helper:
    """A `@wp.func` applied element-wise: its name, body (with {c} constants drawn per kernel, and
    {half_c} for half of one, folded), parameter count and the bound on |result| given bounds on
    |arguments|."""

    name: str
    body: str
    arity: int
    mag: Callable[..., float]
    constants: tuple[tuple[str, float, float], ...] = ()  # (placeholder, low, high) drawn per kernel


UNARY = [
    Helper("relu", "return wp.max(x, 0.0)", 1, lambda m: m),
    Helper("leaky_relu", "if x > 0.0:\n        return x\n    return {slope} * x", 1, lambda m: m, (("slope", 0.0625, 0.25),)),
    Helper("softplus", "a = wp.abs(x)\n    return wp.max(x, 0.0) + wp.log(1.0 + wp.exp(-a))", 1, lambda m: m + 0.7),
    Helper("sigmoid", "e = wp.exp(-x)\n    return 1.0 / (1.0 + e)", 1, lambda m: 1.0),
    Helper("silu", "s = 1.0 / (1.0 + wp.exp(-x))\n    return x * s", 1, lambda m: m),
    Helper("gelu", "inner = 0.7978846 * (x + 0.044715 * x * x * x)\n    return 0.5 * x * (1.0 + wp.tanh(inner))", 1,
           lambda m: m),
    Helper("square", "return x * x", 1, lambda m: m * m),
    Helper("huber", "a = wp.abs(x)\n    if a < {delta}:\n        return 0.5 * x * x\n    return {delta} * (a - {half_delta})",
           1, lambda m: 0.5 * m * m + m, (("delta", 0.25, 1.0),)),
    Helper("smooth_abs", "return wp.sqrt(x * x + {eps})", 1, lambda m: m + 1.0, (("eps", 0.0625, 0.25),)),
    Helper("soft_clip", "return {limit} * wp.tanh(x / {limit})", 1, lambda m: m, (("limit", 0.5, 2.0),)),
    Helper("gaussian", "r2 = x * x\n    return wp.exp(-{k} * r2)", 1, lambda m: 1.0, (("k", 0.5, 4.0),)),
    Helper("softsign", "return x / (1.0 + wp.abs(x))", 1, lambda m: 1.0),
    Helper("cube_clamp", "c = wp.clamp(x, -{limit}, {limit})\n    return c * c * c", 1, lambda m: m ** 3,
           (("limit", 0.5, 1.0),)),
]
BINARY = [
    Helper("squared_error", "d = x - y\n    return d * d", 2, lambda a, b: (a + b) ** 2),
    Helper("abs_error", "d = x - y\n    return wp.abs(d)", 2, lambda a, b: a + b),
    Helper("axpy", "return {alpha} * x + y", 2, lambda a, b: 2.0 * a + b, (("alpha", -2.0, 2.0),)),
    Helper("blend", "return wp.lerp(x, y, {t})", 2, lambda a, b: max(a, b), (("t", 0.125, 0.875),)),
    Helper("hypot", "r2 = x * x + y * y\n    return wp.sqrt(r2)", 2, lambda a, b: a + b),
    Helper("gated", "gate = 1.0 / (1.0 + wp.exp(-y))\n    return x * gate", 2, lambda a, b: a),
    Helper("weighted_product", "return x * y * {w}", 2, lambda a, b: 2.0 * a * b, (("w", 0.25, 2.0),)),
    Helper("larger", "return wp.max(x, y)", 2, lambda a, b: max(a, b)),
    Helper("charbonnier", "d = x - y\n    return wp.sqrt(d * d + {eps})", 2, lambda a, b: a + b + 1.0,
           (("eps", 0.0625, 0.25),)),
]
# Builtins mapped directly (`wp.tile_map(wp.abs, t)`), with the bound of their result.
UNARY_BUILTINS = [("wp.abs", lambda m: m), ("wp.sin", lambda m: 1.0), ("wp.tanh", lambda m: 1.0),
                  ("wp.exp", lambda m: math.exp(m))]


def grid_constant(rng: random.Random, low: float, high: float) -> float:
    """A multiple of 1/16 in [low, high], never 0 or +-1 (a factor nobody writes)."""
    while True:
        v = rng.randint(int(low * 16), int(high * 16)) / 16
        if v not in (0.0, 1.0, -1.0):
            return v


# block extremes (see block_reduce): the largest magnitude by tile_reduce of a @wp.func, the extreme by
# tile_reduce(wp.max / wp.min) instead of tile_max / tile_min, and its index by tile_argmax / argmin
MAGNITUDE_SHARE = 0.25
REDUCE_SPELLING_SHARE = 0.25
LOCATED_SHARE = 0.5
FINE_GRID_BITS = 22  # 2**24 values over [-4, 4]: each exact in float32 ((lo + k) * step)
PREDICTION_SHARE = 0.35  # softmax kernels also storing the predicted class
RESULT_UPDATE_SHARE = 0.25  # kernels adding their block's result to the output instead of overwriting it
HALF_STORAGE_SHARE = 0.3  # linear layers whose activations and weights are stored in half precision
# of those, stored in bfloat16 instead (the forward-only module Warp requires of bfloat16 operands), from a
# stream of their own (seed ^ BF16_STREAM): every other kernel keeps its draws
BF16_STORAGE_SHARE = 0.5
BF16_STREAM = 0xB16E
LITERAL_SIZES_SHARE = 0.25  # kernels writing their tile sizes as literals
# Linear layers of several column tiles, and fused maps, launched over a 2-D grid of tiles (`i, j =
# wp.tid()`, a block per output tile, as Warp's tile GEMM examples do) instead of a 1-D grid of row panels
COLUMN_GRID_SHARE = 0.5
COLUMN_TILES = (2, 3, 4)  # column tiles of a fused map's 2-D grid


class TileKernel:
    """One tiled kernel under construction: module constants, helpers, arguments and body."""

    def __init__(self, rng: random.Random, name: str, seed: int):
        self.rng = rng
        self.name = name
        self.seed = seed
        self.constants: dict[str, str] = {}
        self.values: dict[str, int | float] = {}
        self.helpers: list[str] = []
        self.helper_names: list[str] = []
        self.args: list[ArgSpec] = []
        self.annotations: list[str] = []
        self.lines: list[str] = ["i = wp.tid()"]
        self.features: list[str] = []
        self.indent = 0
        self.style = rng.choice(["wp.constant", "plain", "wp.constant"])
        self.grid_bits = rng.choice([6, 7, 8])
        self.blocks = 0  # drawn at the end (see fixed sizes)
        self.grid_cols = 0  # column tiles of a 2-D launch (`i, j = wp.tid()`); 0: a 1-D launch over row panels
        self.fixed_rows: list[int] = []  # outermost sizes of arrays that keep their size
        self.tile_floats = 0  # float32 elements of all tiles (shared memory)
        self.scaled = False  # a constant factor applied already (a second one would be folded into it)
        # tile sizes as module constants (most kernels) or written as literals where they are used
        self.literal_sizes = rng.random() < LITERAL_SIZES_SHARE
        self.complex_spelling = "{array}(dtype={t})"  # the FFT kinds draw their own
        # draws added after session 35 (arg-reductions, tile_reduce, positions) come from a stream of
        # their own, so that the kernels drawn before keep every draw of `rng`
        self.variant = random.Random(seed ^ 0x7113D)
        self.gathers = random.Random(seed ^ 0x6A7E5)  # the gathers-and-sorts kind's choice (session 37)
        # session 47's further forms of the small kinds (volume rendering, routers, percentiles, weighted
        # bags, ...): a stream of its own too, and a kernel whose draws there keep the earlier form is
        # the same as before, byte for byte
        self.breadth = random.Random(seed ^ 0xB4EAD)
        self.index_rows: dict[str, int] = {}  # index arrays into rows that scale: name -> rows per block
        self.module_options: dict[str, bool] = {}  # `wp.set_module_options(...)` at the module's top

    # ---- module level --------------------------------------------------------------------------
    def constant(self, name: str, value: int | float) -> str:
        """A module constant's name; an int size is its literal instead in a kernel of literal sizes."""
        if isinstance(value, int) and self.literal_sizes:
            return str(value)
        if name not in self.constants:
            text = str(value) if isinstance(value, int) else fmt_float(value)
            self.constants[name] = f"{name} = wp.constant({text})" if self.style == "wp.constant" else f"{name} = {text}"
            self.values[name] = value
        return name

    @staticmethod
    def less_one(size: str) -> str:
        """An int size less one: `TILE - 1`, or the literal itself folded (`63`, never `64 - 1`)."""
        return str(int(size) - 1) if size.isdigit() else f"{size} - 1"

    @staticmethod
    def as_float(size: str) -> str:
        """An int size (a constant's name or a literal) as a float: `float(TILE)`, or `16.0`."""
        return f"{size}.0" if size.isdigit() else f"float({size})"

    def helper(self, pool: list[Helper]) -> tuple[str, Helper]:
        h = self.rng.choice(pool)
        name = f"{self.name}_{h.name}"
        if name not in self.helper_names:
            drawn = {p: grid_constant(self.rng, lo, hi) for p, lo, hi in h.constants}
            # `{half_delta}`: half a drawn constant, written folded (never `0.5 * 0.6875`)
            body = h.body.format(**{p: fmt_float(v) for p, v in drawn.items()},
                                 **{f"half_{p}": fmt_float(v / 2.0) for p, v in drawn.items()})
            params = ", ".join(f"{p}: float" for p in ("x", "y")[: h.arity])
            self.helpers.append(f"@wp.func\ndef {name}({params}) -> float:\n    {body}")
            self.helper_names.append(name)
        self.features.append(f"tile_map({h.name})")
        return name, h

    # ---- arguments -----------------------------------------------------------------------------
    def array(self, hint: str, role: str, shape: tuple[int, ...], scales: bool, low: float = -1.0,
              high: float = 1.0, bound: float = 1.0, dtype: str = "float32", grid_bits: int | None = None,
              draws: random.Random | None = None) -> str:
        """An array argument; `shape` with 0 in the outermost place for rows-per-block arrays
        (filled in when the block count is known): (rows per block, ...). `dtype`: float32, float16 (half
        storage), int32 (indices), or the
        complex numbers of the FFT kind (vec2 or vec2d: real and imaginary parts) and its real
        float64 (power spectra of vec2d signals)."""
        name = untaken(hint, {a.name for a in self.args}, role)
        if not scales:
            self.fixed_rows.append(shape[0])
        draws = draws or self.rng  # the stream its spelling is drawn from (`variant` for the arrays added later)
        if dtype == "int32":  # the indices of a class, a column, ... (`role` "index": in [low, high])
            array = "wp.array" if len(shape) == 1 else "wp.array2d"
            ann = draws.choice([f"{array}(dtype=int)", f"{array}(dtype=wp.int32)", f"{array}[int]"])
        elif dtype == "float32":
            ann = {1: self.rng.choice(["wp.array(dtype=float)", "wp.array(dtype=wp.float32)", "wp.array[float]"]),
                   2: self.rng.choice(["wp.array2d(dtype=float)", "wp.array2d(dtype=wp.float32)", "wp.array2d[float]"])}[len(shape)]
        elif dtype == "uint32":  # sort keys (spatial_sort)
            ann = draws.choice([f"{'wp.array' if len(shape) == 1 else 'wp.array2d'}(dtype=wp.uint32)",
                                f"{'wp.array' if len(shape) == 1 else 'wp.array2d'}[wp.uint32]"])
        elif dtype in ("vec2", "vec3") and len(shape) == 1:  # points (spatial_sort)
            ann = draws.choice([f"wp.array(dtype=wp.{dtype})", f"wp.array[wp.{dtype}]"])
        elif dtype in ("float16", "bfloat16"):  # 16-bit storage (the mixed-precision GEMM)
            ann = f"{'wp.array' if len(shape) == 1 else 'wp.array2d'}{self.rng.choice([f'(dtype=wp.{dtype})', f'[wp.{dtype}]'])}"
        else:  # one spelling per module: the FFT kind draws its own once (self.complex_spelling)
            ann = self.complex_spelling.format(array="wp.array" if len(shape) == 1 else "wp.array2d",
                                               t=COMPLEX_SPELLINGS.get(dtype) or REAL_SPELLINGS[dtype])
        grid = 0 if role in ("output", "index") else grid_bits or self.grid_bits
        self.args.append(ArgSpec(name, dtype, role, shape, low if role != "output" else 0.0,
                                 high if role != "output" else 0.0, grid, None, bound))
        self.annotations.append(f"{name}: {ann}")
        self._scaling = getattr(self, "_scaling", {})
        self._scaling[name] = scales
        return name

    def scalar(self, hint: str, value: float | int, dtype: str = "float32") -> str:
        """A float (or int32) argument the caller passes (a scale, a step, a shift), with the value the
        sample uses."""
        self.args.append(ArgSpec(hint, dtype, "scalar", (), value, value, 0, value))
        self.annotations.append(f"{hint}: {'int' if dtype == 'int32' else 'float'}")
        self._scaling = getattr(self, "_scaling", {})
        self._scaling[hint] = False
        return hint

    def move_before(self, name: str, other: str) -> None:
        """Argument `name` placed just before argument `other` (an input drawn after the outputs, listed
        with the inputs, as a person orders them)."""
        at = next(n for n, a in enumerate(self.args) if a.name == name)
        arg, ann = self.args.pop(at), self.annotations.pop(at)
        to = next(n for n, a in enumerate(self.args) if a.name == other)
        self.args.insert(to, arg)
        self.annotations.insert(to, ann)

    def refine(self, name: str) -> None:
        """Input `name` on a fine grid (2**-FINE_GRID_BITS): the index of its largest or smallest
        element then names one element (on the kernel's coarse grid, equal elements are common)."""
        self.args = [replace(a, grid_bits=FINE_GRID_BITS) if a.name == name else a for a in self.args]

    def reduce_helper(self, hint: str, body: str) -> str:
        """A `@wp.func` of two floats returning one, for `wp.tile_reduce` (associative, as Warp requires)."""
        name = f"{self.name}_{hint}"
        if name not in self.helper_names:
            self.helpers.append(f"@wp.func\ndef {name}(x: float, y: float) -> float:\n    {body}")
            self.helper_names.append(name)
        return name

    def set_bound(self, name: str, bound: float) -> None:
        self.args = [replace(a, bound=max(1.0, float(bound))) if a.name == name else a for a in self.args]

    # ---- body ----------------------------------------------------------------------------------
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def tile(self, *shape: int) -> None:
        self.tile_floats += math.prod(shape)

    def column_grid(self, cols: int) -> str:
        """Launch over a 2-D grid of tiles, `cols` column tiles per row panel: block (i, j) owns the
        output tile at (i * TILE_M, j * TILE_N). Returns the column index's name."""
        self.grid_cols = cols
        self.lines[0] = "i, j = wp.tid()"
        self.features.append("2-D grid of tiles (i, j = wp.tid())")
        return "j"

    def finish(self, summary: str, block_dim: int) -> KernelSpec:
        rng = self.rng
        choices = [b for b in BLOCK_COUNTS if all(r % b for r in self.fixed_rows)]
        self.blocks = rng.choice(choices)
        args = []
        for a in self.args:
            if self._scaling[a.name]:
                a = replace(a, shape=(a.shape[0] * self.blocks, *a.shape[1:]))
            if a.name in self.index_rows:  # indices of the rows of arrays that grow with the blocks
                a = replace(a, high=self.index_rows[a.name] * self.blocks - 1)
            args.append(a)
        decorator = "@wp.kernel(enable_backward=False)" if rng.random() < FORWARD_ONLY_SHARE else "@wp.kernel"
        header = f"{decorator}\ndef {self.name}({', '.join(self.annotations)}):\n"
        if len(header) > 100:
            header = f"{decorator}\ndef {self.name}(\n    " + ",\n    ".join(self.annotations) + ",\n):\n"
        body = "\n".join("    " + line for line in self.lines)
        used = body + "\n".join(self.helpers)
        constants = [line for name, line in self.constants.items() if name in used]
        options = ", ".join(f'"{key}": {value}' for key, value in self.module_options.items())
        source = f"wp.set_module_options({{{options}}})\n\n\n" if options else ""
        source += ("\n".join(constants) + "\n\n\n" if constants else "") + "".join(h + "\n\n\n" for h in self.helpers)
        source += header + body + "\n"
        detail = feature_list(self.features)
        grid = f"a {self.blocks} x {self.grid_cols} grid of blocks" if self.grid_cols else f"{self.blocks} blocks"
        description = (f"{summary} (wp.launch_tiled over {grid} of {block_dim} threads"
                       + (f"; {detail})" if detail else ")"))
        dim = (self.blocks, self.grid_cols) if self.grid_cols else (self.blocks,)
        return KernelSpec(self.name, "tiled", description, source, tuple(args), dim, self.seed,
                          tuple(self.helper_names), block_dim)


def map_tile(k: TileKernel, tile: str, mag: float, builtin_share: float = 0.25) -> tuple[str, float]:
    """`tile_map(f, tile)` with a helper or a builtin: (expression, bound)."""
    if k.rng.random() < builtin_share:
        fn, bound = k.rng.choice(UNARY_BUILTINS)
        k.features.append(f"tile_map({fn})")
        return f"wp.tile_map({fn}, {tile})", bound(mag)
    fn, h = k.helper(UNARY)
    return f"wp.tile_map({fn}, {tile})", h.mag(mag)


def pick(rng: random.Random, *names: str) -> str:
    return rng.choice(names)


def pick_columns(rng: random.Random, rows: str, *names: str) -> str:
    """A column extent's name that keeps the naming of the rows': `TILE_N` only beside `TILE_M` (and
    `BLOCK_N` beside `BLOCK_M`), `COLS` only beside `ROWS`; a name of what the columns hold (`FEATURES`,
    `DIM`) beside any. `ROWS` beside `TILE_N` or `BLOCK_K` beside `TILE_M` was one in eleven tiled
    kernels (session 60)."""
    def fits(name: str) -> bool:
        if re.fullmatch(r"(TILE|BLOCK)_[NK]", name):
            return re.fullmatch(r"(TILE|BLOCK)_M", rows) is not None and name[:-1] == rows[:-1]
        if name == "COLS":
            return rows in ("ROWS", "TILE_ROWS")
        return True
    return rng.choice([n for n in names if fits(n)] or list(names))


def epilogue(k: TileKernel, result: str, shape: tuple[int, int], names: tuple[str, str], mag: float,
             columns: tuple[int, str] | None = None) -> tuple[str, float]:
    """What often follows a tile computation before it is stored: none, one or two of an activation
    (`tile_map`), a constant scale, a per-column gain and/or bias (a (1, C) table broadcast over
    the rows). `columns`: (width, offset) of a block's tile among the output's columns in a 2-D grid
    of tiles (the tables are then a row of all columns, loaded at the offset). Returns the tile
    holding the result and its bound."""
    rng = k.rng
    width, col_offset = columns or (shape[1], "")
    at = f", offset=(0, {col_offset})" if col_offset else ""
    rows, cols = names
    steps = rng.sample(["map", "gain", "bias"] + ([] if k.scaled else ["scale"]), rng.choice([0, 1, 1, 2]))
    for step in steps:
        k.tile(*shape)
        if step == "map":
            value, mag = map_tile(k, result, mag, builtin_share=0.3 if mag <= 4.0 else 0.0)
            k.emit(f"z = {value}")
            result = "z"
        elif step == "scale":
            # a gain is positive; BLAS's alpha may take any sign (a STEP is no name for a gain)
            name = pick(rng, "SCALE", "ALPHA", "GAIN")
            scale = k.constant(name, grid_constant(rng, -2.0, 2.0) if name == "ALPHA" else grid_constant(rng, 0.25, 2.0))
            k.emit(f"{result} = {result} * {scale}")
            mag *= abs(k.values[scale])
            k.features.append("constant scale")
        else:
            table = k.array(pick(rng, "gamma", "col_scale") if step == "gain" else pick(rng, "beta", "col_bias"),
                            "input", (1, width), False)
            k.tile(1, shape[1])
            op = "*" if step == "gain" else "+"
            if rng.random() < 0.5:
                k.emit(f"{step}_row = wp.tile_load({table}, shape=(1, {cols}){at})")
                k.emit(f"{result} = {result} {op} wp.tile_broadcast({step}_row, shape=({rows}, {cols}))")
            else:
                k.emit(f"{result} = {result} {op} wp.tile_broadcast(wp.tile_load({table}, shape=(1, {cols}){at}), "
                       f"shape=({rows}, {cols}))")
            mag = mag * 1.0 if step == "gain" else mag + 1.0
            k.features.append(f"per-column {step} by tile_broadcast")
    return result, mag


def store_result(k: TileKernel, hints: tuple[str, ...], shape: tuple[int, int], names: tuple[str, str],
                 value: str, offset: str, mag: float, tile_shape: tuple[int, int] | None = None,
                 dtype: str = "float32", addable: bool = True) -> str:
    """The block's result (a `tile_shape` tile, spelled `names`) stored into its window of a new array
    of `shape` rows per block, or (RESULT_UPDATE_SHARE) added to what the window holds: a residual
    connection, a gradient accumulated over passes. A float16 array (`dtype`) takes the float32 result
    rounded to half (`wp.tile_astype`). `addable`: False for a result no sum of passes means anything
    for (probabilities). Returns the array's name."""
    rng = k.rng
    if dtype in ("float16", "bfloat16"):
        out = k.array(pick(rng, *hints), "output", shape, True, bound=mag, dtype=dtype)
        k.emit(f"wp.tile_store({out}, wp.tile_astype({value}, wp.{dtype}), offset={offset})")
        k.features.append("result rounded to half (tile_astype)" if dtype == "float16"
                          else "result rounded to bfloat16 (tile_astype)")
        return out
    if rng.random() >= RESULT_UPDATE_SHARE or not addable:
        out = k.array(pick(rng, *hints), "output", shape, True, bound=mag)
        k.emit(f"wp.tile_store({out}, {value}, offset={offset})")
        return out
    out = k.array(pick(rng, *hints), "inout", shape, True, bound=mag + 1.0)
    k.tile(*(tile_shape or shape))
    if rng.random() < 0.5:
        k.emit(f"prev = wp.tile_load({out}, shape=({names[0]}, {names[1]}), offset={offset})")
        k.emit(f"wp.tile_store({out}, prev + {value}, offset={offset})")
    else:
        k.emit(f"wp.tile_store({out}, wp.tile_load({out}, shape=({names[0]}, {names[1]}), offset={offset}) + {value}, "
               f"offset={offset})")
    k.features.append("result added to the output's block (tile_load, tile_store)")
    return out


# ---- the kinds -------------------------------------------------------------------------------------
def strided_reduce(k: TileKernel, rng: random.Random, size: int, panels: int, x: str, two: bool,
                   outputs: tuple[str, ...]) -> tuple[str, int]:
    """A block's sum of `panels` tiles' worth of elements: each of its `size` threads first adds up its
    own elements (`lane`, `lane + wp.block_dim()`, ...) in a block-stride loop, then `wp.tile` gathers
    the threads' sums and `wp.tile_sum` reduces them; a partial sum per block and/or a total."""
    k.lines[0] = "i, lane = wp.tid()"
    chunk = k.constant(pick(rng, "CHUNK", "ITEMS_PER_BLOCK", "BLOCK_SPAN"), size * panels)
    y = k.array(pick(rng, "y", "target", "weights", "reference"), "input", (size * panels,), True) if two else None
    acc = pick(rng, "v", "local_sum", "acc")
    j = pick(rng, "j", "idx", "e")
    k.emit(f"{acc} = float(0.0)")
    k.emit(f"for {j} in range(lane, {chunk}, wp.block_dim()):")
    element = f"{x}[i * {chunk} + {j}]"
    if two:
        other = f"{y}[i * {chunk} + {j}]"
        term, mag = rng.choice([(f"{element} * {other}", 1.0), (f"wp.abs({element} - {other})", 2.0)])
    elif rng.random() < 0.5:
        term, mag = element, 1.0
    else:  # a sum of squares: the element loaded once
        k.emit(f"    xv = {element}")
        term, mag = "xv * xv", 1.0
    k.emit(f"    {acc} += {term}")
    k.emit(f"a = wp.tile({acc})")
    k.tile(size)
    k.tile(64)  # the reduction's per-thread partials
    k.emit("s = wp.tile_sum(a)")
    total_mag = mag * size * panels
    outputs = tuple(o for o in outputs if o != "mapped") or ("partial",)
    for out in outputs:
        if out == "partial":
            p = k.array(pick(rng, "partial_sums", "block_sums", "partials"), "output", (1,), True, bound=total_mag)
            k.emit(f"wp.tile_store({p}, s, offset=i)")
            k.features.append("partial sum per block")
        else:
            t = k.array(pick(rng, "total", "accum", "sum_out"), "output", (1,), False, bound=total_mag * 16)
            k.emit(f"wp.tile_atomic_add({t}, s)")
            k.features.append("tile_atomic_add total")
    k.features.append(f"block-stride loop over {panels} tiles' worth per block (wp.block_dim())")
    return "Block-wise reduction of per-thread strided sums", size


def block_reduce(k: TileKernel) -> tuple[str, int]:
    """Block-wise sum of a 1-D array (or of f(x), f(x, y), x * y): partial sums and/or a total."""
    rng = k.rng
    size = rng.choice([32, 64, 128, 256])
    tile = k.constant(pick(rng, "TILE", "TILE_SIZE", "BLOCK_ITEMS"), size)
    k.tile(size)
    outputs = rng.choice([("partial",), ("total",), ("partial", "total"), ("mapped", "total"), ("mapped", "partial")])
    # a block reads one tile, or several in a loop that adds them up element-wise before the one
    # reduction (fewer blocks, one tree reduction each)
    panels = rng.choice([2, 4]) if "mapped" not in outputs and rng.random() < 0.25 else 1
    x = k.array(pick(rng, "x", "values", "samples", "data"), "input", (size * panels,), True)
    two = rng.random() < 0.5
    offset = f"i * {tile}"
    strided = panels > 1 and rng.random() < STRIDED_SHARE
    if strided:
        return strided_reduce(k, rng, size, panels, x, two, outputs)
    if panels > 1:
        P = k.constant(pick(rng, "TILES_PER_BLOCK", "CHUNKS"), panels)
        k.emit(f"acc = wp.tile_zeros(shape={tile}, dtype=float)")
        k.emit(f"for p in range({P}):")
        k.indent += 1
        offset = f"(i * {P} + p) * {tile}"
        k.tile(size)
        k.features.append(f"{panels} tiles per block")
    # each thread of the block loads its own element and computes on it as plain code does, and
    # `wp.tile` gathers the block's values into a tile for the reduction (as Warp's own examples sum
    # an energy density per block): the tile is one value per thread, block_dim long
    threads = panels == 1 and "mapped" not in outputs and rng.random() < THREAD_VALUES_SHARE
    y = k.array(pick(rng, "y", "target", "weights", "reference"), "input", (size * panels,), True) if two else None
    if threads:
        k.lines[0] = "i, lane = wp.tid()"
        k.emit(f"v = {x}[{offset} + lane]")
        if two:  # a per-thread product or error of two inputs (a dot product, a squared error)
            k.emit(f"u = {y}[{offset} + lane]")
            per_thread, mag = rng.choice([("v * u", 1.0), ("(v - u) * (v - u)", 4.0), ("wp.abs(v - u)", 2.0),
                                          ("wp.max(v, u)", 1.0)])
            k.features.append("per-thread values of two inputs")
        else:
            per_thread, mag = rng.choice([("v * v", 1.0), ("wp.abs(v)", 1.0), ("wp.exp(-v * v)", 1.0), ("v", 1.0),
                                          ("wp.sin(v)", 1.0)])
        if rng.random() < 0.4:  # the value named first, as a longer computation would be
            k.emit(f"e = {per_thread}")
            per_thread = "e"
        k.emit(f"a = wp.tile({per_thread})")
        value = "a"
        k.features.append("per-thread values gathered into a tile (wp.tile)")
        if "v * v" in per_thread:
            k.features.append("sum of squares")
    else:
        k.emit(f"a = wp.tile_load({x}, shape={tile}, offset={offset})")
        if two:
            k.emit(f"b = wp.tile_load({y}, shape={tile}, offset={offset})")
            k.tile(size)
            r = rng.random()
            if r < 0.6:
                fn, h = k.helper(BINARY)
                value, mag = f"wp.tile_map({fn}, a, b)", h.mag(1.0, 1.0)
            else:
                value, mag = "a * b", 1.0
                k.features.append("dot product")
        else:
            r = rng.random()
            if r < 0.65:
                value, mag = map_tile(k, "a", 1.0)
            elif r < 0.8:
                value, mag = "a * a", 1.0
                k.features.append("sum of squares")
            else:
                value, mag = "a", 1.0
    if panels > 1:
        k.emit(f"acc = acc + {value}")
        k.indent -= 1
        value, mag = "acc", mag * panels
    if value != "a" and "mapped" in outputs:
        k.emit(f"v = {value}")
        k.tile(size)
        value = "v"
    elif "mapped" in outputs:
        outputs = outputs[1:]
    # the largest or smallest value per block (a CFL bound, a bounding range) instead of a sum:
    # no atomic total then, each block's value is stored for a later pass
    extreme = panels == 1 and rng.random() < 0.2
    # ... and, in some, the index of that value (the inputs then on a fine grid: no two elements tie)
    located = extreme and not threads and k.variant.random() < LOCATED_SHARE
    if located:
        for name in (x, y):
            if name:
                k.refine(name)
    # (a mean over several tiles would read their count again after the loop: a constant first read
    # inside a loop and then after it is a Warp hazard, synthesis.warp_hazards)
    mean = not extreme and panels == 1 and rng.random() < 0.3
    k.tile(64)  # the reduction's per-thread partials
    if extreme:
        kind = rng.choice(["max", "min"])
        total_mag = mag
        outputs = tuple(o for o in outputs if o != "total") or ("partial",)
        if "partial" not in outputs:
            outputs += ("partial",)
        spelling = k.variant.random()
        magnitude = spelling < MAGNITUDE_SHARE and kind == "max"
        if magnitude:  # the largest magnitude: a block's infinity norm
            fn = k.reduce_helper("abs_max", "return wp.max(wp.abs(x), wp.abs(y))")
            k.emit(f"s = wp.tile_reduce({fn}, {value})")
            k.features.append("block infinity norm (tile_reduce of a @wp.func)")
        elif spelling < MAGNITUDE_SHARE + REDUCE_SPELLING_SHARE:
            k.emit(f"s = wp.tile_reduce(wp.{kind}, {value})")
            k.features.append(f"block {'maximum' if kind == 'max' else 'minimum'} (tile_reduce(wp.{kind}))")
        else:
            k.emit(f"s = wp.tile_{kind}({value})")
            k.features.append(f"block {'maximum' if kind == 'max' else 'minimum'} (tile_{kind})")
        if located:  # where it lies: the element's index in the array (a pivot, a peak, the worst error)
            at = pick(k.variant, "at", "where", "arg")
            k.emit(f"{at} = wp.tile_arg{kind}({f'wp.tile_map(wp.abs, {value})' if magnitude else value})")
            loc = k.array(pick(k.variant, "peak_index", "argmax_out", "location") if kind == "max" else
                          pick(k.variant, "low_index", "argmin_out", "location"), "output", (1,), True, dtype="int32",
                          bound=float(size * max(BLOCK_COUNTS)), draws=k.variant)
            k.emit(f"{loc}[i] = {offset} + {at}[0]")
            k.features.append(f"its index (tile_arg{kind})")
    elif mean:
        k.emit(f"s = wp.tile_sum({value}) / {k.as_float(tile)}")
        total_mag = mag
        k.features.append("block mean")
    else:
        k.emit(f"s = wp.tile_sum({value})")
        total_mag = mag * size
    for out in outputs:
        if out == "partial":
            hints = ("block_max", "peak_per_block", "partials") if extreme and kind == "max" else \
                ("block_min", "low_per_block", "partials") if extreme else ("partial_sums", "block_sums", "partials")
            p = k.array(pick(rng, *hints), "output", (1,), True, bound=total_mag)
            k.emit(f"wp.tile_store({p}, s, offset=i)")
            k.features.append("partial per block" if extreme else "partial sum per block")
        elif out == "total":
            t = k.array(pick(rng, "total", "accum", "sum_out"), "output", (1,), False, bound=total_mag * 16)
            k.emit(f"wp.tile_atomic_add({t}, s)")
            k.features.append("tile_atomic_add total")
        else:
            m = k.array(pick(rng, "mapped", "y_out", "activations"), "output", (size,), True, bound=mag)
            k.emit(f"wp.tile_store({m}, {value}, offset=i * {tile})")
    if threads and not extreme and rng.random() < UNTILE_SHARE:
        # each thread takes its own element of a block-wide result back (wp.untile) and stores it:
        # its value less the block's mean, as a normalisation layer centres a block
        block_mean = "s" if mean else f"s / {k.as_float(tile)}"
        k.emit(f"c = {value} - wp.tile_broadcast({block_mean}, shape=({tile},))")
        k.emit("r = wp.untile(c)")
        k.tile(size)
        centred = k.array(pick(rng, "centered", "deviation", "residual"), "output", (size,), True, bound=2.0 * mag)
        k.emit(f"{centred}[{offset} + lane] = r")
        k.features.append("each thread's value less the block mean (wp.untile)")
    if threads:  # one thread per element of the tile
        return "Block-wise reduction of per-thread values", size
    return "Block-wise tile reduction", rng.choice([b for b in BLOCK_DIMS if b <= max(64, size)])


def column_sums(k: TileKernel) -> tuple[str, int]:
    """Column sums of a row panel (`ones(1, TILE_M) @ x`), optionally of f(x) or a row-weighted x,
    accumulated into a (1, C) table, e.g. a bias gradient; with per-block row totals too."""
    rng = k.rng
    tm, c = rng.choice([8, 16, 32]), rng.choice([8, 16, 32])
    TM = k.constant(pick(rng, "TILE_M", "ROWS", "TILE_ROWS"), tm)
    C = k.constant(pick_columns(rng, TM, "FEATURES", "COLS", "TILE_N", "CHANNELS"), c)
    # the sums as a (1, C) product with a row of ones, or (Warp 1.10 on) as a (C,) reduction along the rows
    along_axis = rng.random() < 0.45
    # a block sums one panel, or several in a loop accumulating into its row (`tile_matmul(ones, t, col)`)
    panels = rng.choice([2, 3, 4]) if not along_axis and rng.random() < 0.3 else 1
    # the sums of squares beside the sums (a batch norm's statistics: mean and variance follow)
    squares = rng.random() < 0.3
    x = k.array(pick(rng, "grad_out", "x", "features", "dy"), "input", (tm * panels, c), True)
    row = f"i * {TM}"
    if panels > 1:
        P = k.constant(pick(rng, "PANELS", "ROW_TILES", "TILES_PER_BLOCK"), panels)
        k.emit(f"ones = wp.tile_ones(shape=(1, {TM}), dtype=float)")
        k.emit(f"col = wp.tile_zeros(shape=(1, {C}), dtype=float)")
        if squares:
            k.emit(f"col_sq = wp.tile_zeros(shape=(1, {C}), dtype=float)")
        k.emit(f"for p in range({P}):")
        k.indent += 1
        row = f"(i * {P} + p) * {TM}"
        k.features.append(f"{panels} panels per block (accumulating tile_matmul)")
    storage = ', storage="shared"' if rng.random() < 0.3 else ""  # read again by the matmul: kept in shared memory
    k.emit(f"t = wp.tile_load({x}, shape=({TM}, {C}), offset=({row}, 0){storage})")
    k.tile(tm, c)
    mag = 1.0
    r = rng.random()
    if r < 0.35:
        w = k.array(pick(rng, "row_weights", "mask", "scale"), "input", (tm * panels, 1), True, low=0.0, high=1.0)
        k.emit(f"w = wp.tile_load({w}, shape=({TM}, 1), offset=({row}, 0))")
        k.emit(f"t = t * wp.tile_broadcast(w, shape=({TM}, {C}))")
        k.tile(tm, 1)
        k.tile(tm, c)
        k.features.append("row weights by tile_broadcast")
    elif r < 0.7:
        value, mag = map_tile(k, "t", 1.0)
        k.emit(f"t = {value}")
        k.tile(tm, c)
    mag *= panels
    if panels > 1:
        k.emit("wp.tile_matmul(ones, t, col)")
        if squares:
            k.emit("wp.tile_matmul(ones, t * t, col_sq)")
        k.indent -= 1
        k.tile(1, tm)
        k.tile(1, c)
        k.features.append("column sums by tile_matmul with ones")
    elif along_axis:
        k.emit("col = wp.tile_sum(t, axis=0)")
        if squares:
            k.emit("col_sq = wp.tile_sum(t * t, axis=0)")
        k.tile(c)
        k.features.append("column sums by tile_sum along axis 0")
    else:
        k.emit(f"ones = wp.tile_ones(shape=(1, {TM}), dtype=float)")
        k.emit("col = wp.tile_matmul(ones, t)")
        if squares:
            k.emit("col_sq = wp.tile_matmul(ones, t * t)")
        k.tile(1, tm)
        k.tile(1, c)
        k.features.append("column sums by tile_matmul with ones")
    row = (c,) if along_axis else (1, c)
    if panels == 1 and not squares and rng.random() < 0.25:  # the panel's column means (a per-block average)
        k.emit(f"col = col / {k.as_float(TM)}")
        k.features.append("column means of the panel")
    if rng.random() < 0.35:  # one row of partial sums per block, reduced by a later pass: no atomics, same bits every run
        out = k.array(pick(rng, "partial_col_sums", "block_col_sums"), "output", row, True, bound=mag * tm)
        k.emit(f"wp.tile_store({out}, col, offset={f'i * {C}' if along_axis else '(i, 0)'})")
        if squares:
            sq = k.array(pick(rng, "partial_sq_sums", "block_sq_sums"), "output", row, True, bound=mag * mag * tm)
            k.emit(f"wp.tile_store({sq}, col_sq, offset={f'i * {C}' if along_axis else '(i, 0)'})")
            k.features.append("column sums of squares")
        k.features.append("partial column sums per block (tile_store)")
        return "Column sums of row panels", rng.choice([32, 64, 128])
    out = k.array(pick(rng, "col_sums", "bias_grad", "column_totals"), "output", row, False, bound=mag * tm * 16)
    k.emit(f"wp.tile_atomic_add({out}, col)")
    if squares:
        sq = k.array(pick(rng, "col_sq_sums", "sum_sq", "second_moment"), "output", row, False, bound=mag * mag * tm * 16)
        k.emit(f"wp.tile_atomic_add({sq}, col_sq)")
        k.features.append("column sums of squares")
    if rng.random() < 0.5:
        p = k.array(pick(rng, "block_totals", "partials"), "output", (1,), True, bound=mag * tm * c)
        k.emit(f"wp.tile_store({p}, wp.tile_sum(col), offset=i)")
        k.tile(64)
    return "Column sums of row panels", rng.choice([32, 64, 128])


def bf16_draws(seed: int) -> random.Random:
    """The stream of a linear layer's bfloat16 choices: whether its 16-bit storage is bfloat16 (first
    draw), then its tile sizes."""
    draws = random.Random(seed ^ BF16_STREAM)
    draws.random()
    return draws


def chooses_bf16(seed: int) -> bool:
    """Whether a linear layer drawing half-precision storage stores bfloat16 instead."""
    return random.Random(seed ^ BF16_STREAM).random() < BF16_STORAGE_SHARE


def linear_layer(k: TileKernel) -> tuple[str, int]:
    """out = act(x @ W + bias): tiled GEMM over row panels, a K loop accumulating into tile_zeros."""
    rng = k.rng
    tm, tk, tn = rng.choice([8, 16, 32]), rng.choice([8, 16, 32]), rng.choice([8, 16, 32])
    k_tiles, n_tiles = rng.choice([1, 2, 3, 4]), rng.choice([1, 1, 2, 3])
    K, N = tk * k_tiles, tn * n_tiles
    TM = k.constant(pick(rng, "TILE_M", "BLOCK_M"), tm)
    TK = k.constant(pick_columns(rng, TM, "TILE_K", "BLOCK_K"), tk)
    TN = k.constant(pick_columns(rng, TM, "TILE_N", "BLOCK_N"), tn)
    transposed = rng.random() < 0.4  # weights stored (N, K), as torch.nn.Linear keeps them
    # mixed precision: activations and weights stored in half, products summed in a float32 tile
    storage = "float16" if rng.random() < HALF_STORAGE_SHARE else "float32"
    if storage == "float16" and chooses_bf16(k.seed):
        storage = "bfloat16"
        bf16 = bf16_draws(k.seed)
        # a bfloat16 GEMM is written for tensor cores: tiles whose sides are multiples of 16, which the
        # translation multiplies with wmma as Warp's GPU build does with cuBLASDx
        tm, tk, tn = bf16.choice([16, 32]), bf16.choice([16, 32]), bf16.choice([16, 32])
        K, N = tk * k_tiles, tn * n_tiles
        k.module_options["enable_backward"] = False  # Warp multiplies bfloat16 tiles in forward-only modules
        for name in (TM, TK, TN):  # the sizes drawn above give way (a literal size has no constant)
            k.constants.pop(name, None)
        TM, TK, TN = k.constant(TM, tm), k.constant(TK, tk), k.constant(TN, tn)
    x = k.array(pick(rng, "x", "inputs", "activations", "A"), "input", (tm, K), True, dtype=storage)
    w = k.array(pick(rng, "weights", "W", "B"), "input", (N, K) if transposed else (K, N), False, dtype=storage)
    if storage != "float32":
        k.features.append("half-precision inputs, float32 accumulation" if storage == "float16"
                          else "bfloat16 inputs, float32 accumulation")
    k.tile(tm, tk)
    k.tile(tk, tn)
    k.tile(tm, tn)
    if transposed:
        k.tile(tn, tk)
    mag = float(K)
    grid = n_tiles > 1 and rng.random() < COLUMN_GRID_SHARE
    loop_n = n_tiles > 1 and not grid
    if grid:
        col = f"{k.column_grid(n_tiles)} * {TN}"
    elif loop_n:
        count = k.constant("N_TILES", n_tiles) if rng.random() < 0.5 else f"{w}.shape[{0 if transposed else 1}] // {TN}"
        k.emit(f"for j in range({count}):")
        k.indent += 1
        col = f"j * {TN}"
    else:
        col = "0"
    k.emit(f"acc = wp.tile_zeros(shape=({TM}, {TN}), dtype=float)")
    single_k = k_tiles == 1 and rng.random() < 0.5
    if single_k:
        k.emit(f"a = wp.tile_load({x}, shape=({TM}, {TK}), offset=(i * {TM}, 0))")
        koff = "0"
    else:
        count = k.constant("K_TILES", k_tiles) if rng.random() < 0.5 else f"{x}.shape[1] // {TK}"
        k.emit(f"for k in range({count}):")
        k.indent += 1
        koff = f"k * {TK}"
        k.emit(f"a = wp.tile_load({x}, shape=({TM}, {TK}), offset=(i * {TM}, {koff}))")
    if transposed:
        k.emit(f"b = wp.tile_transpose(wp.tile_load({w}, shape=({TN}, {TK}), offset=({col}, {koff})))")
        k.features.append("weights (N, K) through tile_transpose")
    else:
        placement = ', storage="shared"' if rng.random() < 0.3 else ""
        k.emit(f"b = wp.tile_load({w}, shape=({TK}, {TN}), offset=({koff}, {col}){placement})")
    k.emit("wp.tile_matmul(a, b, acc)")
    if not single_k:
        k.indent -= 1
        k.features.append("K loop accumulating tile_matmul")
    result = "acc"
    if rng.random() < 0.6:
        bias = k.array(pick(rng, "bias", "b0", "offset"), "input", (1, N), False)
        k.emit(f"bt = wp.tile_load({bias}, shape=(1, {TN}), offset=(0, {col}))")
        k.emit(f"acc = acc + wp.tile_broadcast(bt, shape=({TM}, {TN}))")
        k.tile(1, tn)
        k.tile(tm, tn)
        mag += 1.0
        k.features.append("bias by tile_broadcast")
    if rng.random() < 0.7:
        value, mag = map_tile(k, result, mag, builtin_share=0.15)
        if "wp.exp" in value:  # exp of a K-term dot product would overflow the bound: use a helper
            fn, h = k.helper([u for u in UNARY if u.name in ("relu", "leaky_relu", "gelu", "silu", "softsign")])
            value, mag = f"wp.tile_map({fn}, {result})", h.mag(float(K) + 1.0)
        k.emit(f"y = {value}")
        k.tile(tm, tn)
        result = "y"
    out_dtype = storage if storage != "float32" and rng.random() < 0.7 else "float32"  # mostly 16-bit out too
    store_result(k, ("out", "y_out", "C", "hidden"), (tm, N), (TM, TN), result, f"(i * {TM}, {col})", mag, (tm, tn),
                 out_dtype)
    if loop_n:
        k.indent -= 1
        k.features.append("loop over column tiles")
    return "Tiled linear layer (GEMM)", rng.choice([32, 64, 128, 256])


def open_panels(k: TileKernel, P: str, TM: str, accumulators: list[str], feature: str) -> str:
    """A block that reads P row panels of TM rows in a loop: its accumulator tiles (`tile_zeros`
    lines), then the loop, left open. Returns the panel's first row."""
    for line in accumulators:
        k.emit(line)
    k.emit(f"for p in range({P}):")
    k.indent += 1
    k.features.append(feature)
    return f"(i * {P} + p) * {TM}"


def gram(k: TileKernel) -> tuple[str, int]:
    """G += X^T X (or X^T Y) over row panels, accumulated with tile_atomic_add; a block reads one
    panel, or several in a loop that accumulates in the block (`tile_matmul(at, a, g)`), so fewer
    blocks add into the output."""
    rng = k.rng
    tm, c = rng.choice([8, 16, 32]), rng.choice([8, 16])
    d = rng.choice([8, 16]) if rng.random() < 0.4 else 0
    panels = rng.choice([2, 3, 4]) if rng.random() < 0.3 else 1
    TM = k.constant(pick(rng, "TILE_M", "ROWS", "SAMPLES_PER_BLOCK"), tm)
    C = k.constant(pick_columns(rng, TM, "DIM", "FEATURES", "TILE_N"), c)
    x = k.array(pick(rng, "x", "samples", "points", "features"), "input", (tm * panels, c), True)
    if panels > 1:
        P = k.constant(pick(rng, "PANELS", "ROW_TILES", "TILES_PER_BLOCK"), panels)
        D_ = k.constant(pick(rng, "OUT_DIM", "TARGETS", "TILE_D"), d) if d else C
        row = open_panels(k, P, TM, [f"g = wp.tile_zeros(shape=({C}, {D_}), dtype=float)"],
                          f"{panels} panels per block (accumulating tile_matmul)")
    else:
        row = f"i * {TM}"
    k.emit(f"a = wp.tile_load({x}, shape=({TM}, {C}), offset=({row}, 0))")
    k.tile(tm, c)
    if rng.random() < 0.35:
        mean = k.array(pick(rng, "mean", "center", "mu"), "input", (1, c), False)
        k.emit(f"m = wp.tile_load({mean}, shape=(1, {C}))")
        k.emit(f"a = a - wp.tile_broadcast(m, shape=({TM}, {C}))")
        k.tile(1, c)
        k.tile(tm, c)
        mag_a = 2.0
        k.features.append("centered by tile_broadcast")
    else:
        mag_a = 1.0
    if rng.random() < 0.3:
        value, mag_a = map_tile(k, "a", mag_a, builtin_share=0.4)
        k.emit(f"a = {value}")
        k.tile(tm, c)
        k.features.append("feature map")
    # weighted least squares: X^T W X, each sample's row scaled by its weight on one side
    weighted = rng.random() < 0.25
    if weighted:
        wts = k.array(pick(rng, "sample_weights", "w", "row_weights"), "input", (tm * panels, 1), True, low=0.0, high=1.0)
        k.emit(f"wt = wp.tile_load({wts}, shape=({TM}, 1), offset=({row}, 0))")
        k.emit(f"aw = a * wp.tile_broadcast(wt, shape=({TM}, {C}))")
        k.tile(tm, 1)
        k.tile(tm, c)
        k.features.append("row weights (X^T W X)")
    left = "aw" if weighted else "a"
    if d:
        D = D_ if panels > 1 else k.constant(pick(rng, "OUT_DIM", "TARGETS", "TILE_D"), d)
        y = k.array(pick(rng, "y", "targets", "responses"), "input", (tm * panels, d), True)
        k.emit(f"b = wp.tile_load({y}, shape=({TM}, {D}), offset=({row}, 0))")
        k.tile(tm, d)
        other, cols, mag_b = "b", d, 1.0
        k.features.append("cross-covariance X^T Y")
    else:
        other, cols, mag_b = "a", c, mag_a
        k.features.append("Gram matrix X^T X")
    k.tile(c, tm)
    k.tile(c, cols)
    into = ", g" if panels > 1 else ""
    if rng.random() < 0.5:
        k.emit(f"{'' if panels > 1 else 'g = '}wp.tile_matmul(wp.tile_transpose({left}), {other}{into})")
    else:
        k.emit(f"at = wp.tile_transpose({left})")
        k.emit(f"{'' if panels > 1 else 'g = '}wp.tile_matmul(at, {other}{into})")
    if panels > 1:
        k.indent -= 1
        k.tile(c, cols)
    mag = mag_a * mag_b * tm * panels
    if rng.random() < 0.3:
        scale = k.constant(pick(rng, "INV_COUNT", "NORMALIZE", "SCALE"), grid_constant(rng, 0.0625, 0.5))
        k.emit(f"g = g * {scale}")
        mag *= k.values[scale]
        k.scaled = True
    if rng.random() < 0.3:  # each block's own product, summed by a later pass (the same bits every run)
        out = k.array(pick(rng, "block_gram", "partial_cov", "gram_parts"), "output", (c, cols), True, bound=mag)
        k.emit(f"wp.tile_store({out}, g, offset=(i * {C}, 0))")
        k.features.append("a product per block (tile_store)")
    else:
        out = k.array(pick(rng, "gram", "cov", "xtx", "moments"), "output", (c, cols), False, bound=mag * 16)
        k.emit(f"wp.tile_atomic_add({out}, g)")
    if panels == 1 and rng.random() < 0.35:  # first moments beside the second: column sums of the panel
        sums = k.array(pick(rng, "col_sums", "first_moment", "sum_x"), "output", (1, c), False, bound=mag_a * tm * 16)
        k.emit(f"wp.tile_atomic_add({sums}, wp.tile_matmul(wp.tile_ones(shape=(1, {TM}), dtype=float), a))")
        k.tile(1, tm)
        k.tile(1, c)
        k.features.append("column sums")
    return "Gram matrix accumulation", rng.choice([32, 64, 128])


ROW_STAT_NAMES = {"ss": ("row_sumsq", "sum_sq"), "total": ("row_sums", "exp_sums"), "norm": ("row_l1", "l1_norms")}


def row_normalize(k: TileKernel) -> tuple[str, int]:
    """RMS norm, softmax or L1 normalisation of each row of a panel; row sums by `t @ ones`, the
    per-row factor broadcast back over the row; optionally a per-column gain."""
    rng = k.rng
    tm, c = rng.choice([8, 16]), rng.choice([16, 32])
    TM = k.constant(pick(rng, "TILE_M", "ROWS", "TOKENS"), tm)
    C = k.constant(pick_columns(rng, TM, "DIM", "HIDDEN", "COLS"), c)
    kind = rng.choice(["rms", "softmax", "l1", "l2"])
    # a softmax takes logits or scores and gives probabilities; a norm takes activations
    x = k.array(pick(rng, "logits", "scores", "x") if kind == "softmax" else pick(rng, "x", "hidden", "activations"),
                "input", (tm, c), True)
    k.emit(f"t = wp.tile_load({x}, shape=({TM}, {C}), offset=(i * {TM}, 0))")
    k.emit(f"ones = wp.tile_ones(shape=({C}, 1), dtype=float)")
    for _ in range(5):
        k.tile(tm, c)
    if kind == "softmax" and rng.random() < 0.4:
        temp = k.constant(pick(rng, "INV_TEMPERATURE", "SHARPNESS", "BETA"), grid_constant(rng, 0.25, 2.0))
        k.emit(f"t = t * {temp}")
        k.features.append("temperature")
    if kind == "rms":
        eps = fmt_float(grid_constant(rng, 0.0625, 0.25))
        name = f"{k.name}_{pick(rng, 'inv_rms', 'rsqrt_mean')}"
        k.helpers.append(f"@wp.func\ndef {name}(sum_sq: float) -> float:\n    mean_sq = sum_sq / {k.as_float(C)}\n"
                         f"    return 1.0 / wp.sqrt(mean_sq + {eps})")
        k.helper_names.append(name)
        if rng.random() < 0.5:
            k.emit("ss = wp.tile_matmul(t * t, ones)")
        else:
            k.emit("sq = t * t")
            k.emit("ss = wp.tile_matmul(sq, ones)")
        k.emit(f"scale = wp.tile_map({name}, ss)")
        k.emit(f"y = t * wp.tile_broadcast(scale, shape=({TM}, {C}))")
        mag = 1.0 / math.sqrt(0.0625)
        stat = "ss"
        k.features.append("RMS norm")
    elif kind == "softmax":
        k.emit("e = wp.tile_map(wp.exp, t)")
        k.emit("total = wp.tile_matmul(e, ones)")
        k.emit(f"y = e / wp.tile_broadcast(total, shape=({TM}, {C}))")
        mag = 1.0
        stat = "total"
        k.features.append("softmax")
    elif kind == "l2":  # each row scaled to unit length (kept off zero)
        eps = fmt_float(grid_constant(rng, 0.0625, 0.25))
        name = f"{k.name}_{pick(rng, 'inv_length', 'inverse_l2')}"
        body = rng.choice([f"return 1.0 / wp.sqrt(sum_sq + {eps})", f"return 1.0 / wp.max(wp.sqrt(sum_sq), {eps})"])
        k.helpers.append(f"@wp.func\ndef {name}(sum_sq: float) -> float:\n    {body}")
        k.helper_names.append(name)
        k.emit("ss = wp.tile_matmul(t * t, ones)")
        k.emit(f"y = t * wp.tile_broadcast(wp.tile_map({name}, ss), shape=({TM}, {C}))")
        mag = 1.0
        stat = "ss"
        k.features.append("L2 normalisation")
    else:
        eps = fmt_float(grid_constant(rng, 0.0625, 0.25))
        name = f"{k.name}_{pick(rng, 'inv_norm', 'inverse_l1')}"
        body = rng.choice([f"return 1.0 / (s + {eps})", f"return 1.0 / wp.max(s, {eps})"])
        k.helpers.append(f"@wp.func\ndef {name}(s: float) -> float:\n    {body}")
        k.helper_names.append(name)
        k.emit("norm = wp.tile_matmul(wp.tile_map(wp.abs, t), ones)")
        k.emit(f"y = t * wp.tile_broadcast(wp.tile_map({name}, norm), shape=({TM}, {C}))")
        mag = 1.0 / 0.0625
        stat = "norm"
        k.features.append("L1 normalisation")
    k.features.append("row sums by tile_matmul with ones")
    if kind == "softmax":  # probabilities as they are: a gain, a bias or an activation after them means nothing
        store_result(k, ("probs", "attn", "weights"), (tm, c), (TM, C), "y", f"(i * {TM}, 0)", mag, addable=False)
    else:  # a norm's learned gain (gamma), bias (beta), an activation after it
        y, mag = epilogue(k, "y", (tm, c), (TM, C), mag)
        store_result(k, ("normalized", "y_norm", "h_norm" if kind == "rms" else "unit_rows"), (tm, c), (TM, C), y,
                     f"(i * {TM}, 0)", mag)
    if rng.random() < 0.3:
        # named for what the statistic is: a sum of squares, the softmax's denominator, an L1 norm
        rows = k.array(pick(rng, *ROW_STAT_NAMES[stat]), "output", (tm, 1), True, bound=float(c) * 8.0)
        k.emit(f"wp.tile_store({rows}, {stat}, offset=(i * {TM}, 0))")
        k.features.append("row statistic stored")
    return "Row normalisation", rng.choice([32, 64, 128])


def center_columns(k: TileKernel) -> tuple[str, int]:
    """Subtract each column's mean over the block's rows (`ones(1, TILE_M) @ x / TILE_M`, a batch
    norm's centering) or each row's mean over its columns (`x @ ones(C, 1) / C`, a layer norm's),
    broadcast back; optionally divided by the standard deviation too."""
    rng = k.rng
    tm, c = rng.choice([8, 16, 32]), rng.choice([8, 16, 32])
    TM = k.constant(pick(rng, "TILE_M", "ROWS", "GROUP"), tm)
    C = k.constant(pick_columns(rng, TM, "COLS", "CHANNELS", "DIM"), c)
    x = k.array(pick(rng, "x", "signal", "frames", "features"), "input", (tm, c), True)
    k.emit(f"t = wp.tile_load({x}, shape=({TM}, {C}), offset=(i * {TM}, 0))")
    rows = rng.random() < 0.4
    if rows:
        def mean_of(tile: str) -> str:
            return f"wp.tile_matmul({tile}, wp.tile_ones(shape=({C}, 1), dtype=float)) / {k.as_float(C)}"
        stat_shape = (tm, 1)
    elif rng.random() < 0.4:  # (Warp 1.10 on) a (C,) reduction along the rows, broadcast like NumPy's
        def mean_of(tile: str) -> str:
            return f"wp.tile_sum({tile}, axis=0) / {k.as_float(TM)}"
        stat_shape = (c,)
    else:
        def mean_of(tile: str) -> str:
            return f"wp.tile_matmul(wp.tile_ones(shape=(1, {TM}), dtype=float), {tile}) / {k.as_float(TM)}"
        stat_shape = (1, c)
    k.emit(f"mean = {mean_of('t')}")
    k.emit(f"d = t - wp.tile_broadcast(mean, shape=({TM}, {C}))")
    for _ in range(4):
        k.tile(tm, c)
    mag = 2.0
    result = "d"
    if rng.random() < 0.4:  # standardise: divide by the standard deviation (+ eps)
        eps = fmt_float(grid_constant(rng, 0.0625, 0.25))
        name = f"{k.name}_{pick(rng, 'inv_std', 'rsqrt_var')}"
        k.helpers.append(f"@wp.func\ndef {name}(var: float) -> float:\n    std = wp.sqrt(var + {eps})\n    return 1.0 / std")
        k.helper_names.append(name)
        k.emit(f"var = {mean_of('d * d')}")
        k.emit(f"d = d * wp.tile_broadcast(wp.tile_map({name}, var), shape=({TM}, {C}))")
        k.tile(tm, c)
        k.tile(tm, c)
        mag = 2.0 / math.sqrt(0.0625)
        k.features.append("standardised rows" if rows else "standardised columns")
    result, mag = epilogue(k, result, (tm, c), (TM, C), mag)
    store_result(k, ("centered", "residual", "deviation"), (tm, c), (TM, C), result, f"(i * {TM}, 0)", mag)
    by = "tile_sum along axis 0" if stat_shape == (c,) else "tile_matmul with ones"
    k.features.append(f"{'row' if rows else 'column'} means by {by}, tile_broadcast")
    if rng.random() < 0.4:
        means = k.array(pick(rng, "means", "row_means" if rows else "block_means"), "output", stat_shape, True)
        offset = f"(i * {TM}, 0)" if rows else f"i * {C}" if stat_shape == (c,) else "(i, 0)"
        k.emit(f"wp.tile_store({means}, mean, offset={offset})")
    return "Mean centering per block", rng.choice([32, 64, 128, 256])


def batched_transpose(k: TileKernel) -> tuple[str, int]:
    """A stack of small square matrices, one per block: transpose, symmetric/skew part, A^T A, A B^T."""
    rng = k.rng
    n = rng.choice([8, 16, 32])
    N = k.constant(pick(rng, "N", "MAT_DIM", "TILE"), n)
    a_arr = k.array(pick(rng, "mats", "A", "blocks", "jacobians"), "input", (n, n), True)
    k.emit(f"a = wp.tile_load({a_arr}, shape=({N}, {N}), offset=(i * {N}, 0))")
    k.tile(n, n)
    k.tile(n, n)
    if rng.random() < 0.3:
        value, _ = map_tile(k, "a", 1.0, builtin_share=0.5)
        k.emit(f"a = {value}")
        k.tile(n, n)
    kind = rng.choice(["sym", "skew", "normal", "abt", "scaled"])
    if kind in ("sym", "skew"):
        op = "+" if kind == "sym" else "-"
        k.emit(f"at = wp.tile_transpose(a)")
        k.emit(f"r = (a {op} at) * 0.5")
        mag = 1.0
        k.scaled = True
        k.features.append("symmetric part" if kind == "sym" else "skew-symmetric part")
    elif kind == "normal":
        k.emit("r = wp.tile_matmul(wp.tile_transpose(a), a)")
        mag = float(n)
        k.features.append("normal matrix A^T A")
    elif kind == "abt":
        b_arr = k.array(pick(rng, "B", "others", "rhs"), "input", (n, n), True)
        k.emit(f"b = wp.tile_load({b_arr}, shape=({N}, {N}), offset=(i * {N}, 0))")
        k.emit("r = wp.tile_matmul(a, wp.tile_transpose(b))")
        k.tile(n, n)
        mag = float(n)
        k.features.append("A B^T")
    else:
        s = k.constant(pick(rng, "SCALE", "ALPHA"), grid_constant(rng, -2.0, 2.0))
        k.emit(f"r = wp.tile_transpose(a) * {s}")
        mag = abs(k.values[s])
        k.scaled = True
        k.features.append("scaled transpose")
    k.tile(n, n)
    k.tile(n, n)
    if rng.random() < 0.3:  # one factor per matrix, broadcast over it
        scales = k.array(pick(rng, "factors", "weights", "dt"), "input", (1, 1), True, low=0.0, high=1.0)
        k.emit(f"f = wp.tile_load({scales}, shape=(1, 1), offset=(i, 0))")
        k.emit(f"r = r * wp.tile_broadcast(f, shape=({N}, {N}))")
        k.tile(n, n)
        k.features.append("per-matrix factor by tile_broadcast")
    r, mag = epilogue(k, "r", (n, n), (N, N), mag)
    store_result(k, ("transposed", "a_t", "out_t"), (n, n), (N, N), r, f"(i * {N}, 0)", mag)
    if rng.random() < 0.25:
        total = k.array(pick(rng, "sum_mats", "accum"), "output", (n, n), False, bound=mag * 16)
        k.emit(f"wp.tile_atomic_add({total}, {r})")
        k.features.append("sum of the matrices by tile_atomic_add")
    k.features.append("tile_transpose")
    return "Batched small-matrix transposes", rng.choice([32, 64, 128, 256])


def fused_map(k: TileKernel) -> tuple[str, int]:
    """out = f(x, y) over 2-D tiles, then none, one or two of an activation, a constant scale, a
    per-column gain or bias (`epilogue`); optionally a block total."""
    rng = k.rng
    tm, c = rng.choice([8, 16, 32]), rng.choice([8, 16, 32, 64])
    TM = k.constant(pick(rng, "TILE_M", "ROWS"), tm)
    C = k.constant(pick_columns(rng, TM, "TILE_N", "COLS", "WIDTH"), c)
    width, col = c, "0"
    if rng.random() < COLUMN_GRID_SHARE:
        cols = rng.choice(COLUMN_TILES)
        width, col = c * cols, f"{k.column_grid(cols)} * {C}"
    x = k.array(pick(rng, "pred", "x", "a", "u"), "input", (tm, width), True)
    y = k.array(pick(rng, "target", "y", "b", "v"), "input", (tm, width), True)
    storage = ', storage="shared"' if rng.random() < 0.3 else ""
    k.emit(f"ta = wp.tile_load({x}, shape=({TM}, {C}), offset=(i * {TM}, {col}){storage})")
    k.emit(f"tb = wp.tile_load({y}, shape=({TM}, {C}), offset=(i * {TM}, {col}){storage})")
    fn, h = k.helper(BINARY)
    k.emit(f"r = wp.tile_map({fn}, ta, tb)")
    for _ in range(4):
        k.tile(tm, c)
    # what follows the map before the store (an activation, a scale, a per-column gain or bias)
    r, mag = epilogue(k, "r", (tm, c), (TM, C), h.mag(1.0, 1.0), (width, col) if k.grid_cols else None)
    store_result(k, ("residual", "loss_map", "err_map"), (tm, width), (TM, C), r, f"(i * {TM}, {col})", mag, (tm, c))
    if rng.random() < 0.4:
        total = k.array(pick(rng, "loss", "total", "energy"), "output", (1,), False, bound=mag * tm * c * 16)
        k.emit(f"wp.tile_atomic_add({total}, wp.tile_sum({r}))")
        k.tile(64)
        k.features.append("tile_atomic_add total")
    return "Fused element-wise tile map", rng.choice([32, 64, 128, 256])


# Complex numbers as Warp's FFT examples hold them: wp.vec2f / wp.vec2d (real, imaginary); the real
# type of each (a power spectrum, a real gain).
COMPLEX_SPELLINGS = {"vec2": "wp.vec2f", "vec2d": "wp.vec2d"}
REAL_OF = {"vec2": "float32", "vec2d": "float64"}
REAL_SPELLINGS = {"float32": "float", "float64": "wp.float64"}
FFT_LENGTHS = (32, 64, 128)
# Threads per block of an FFT kernel: each thread holds 2 to 8 elements of a row, as Warp's GPU FFT
# (cuFFTDx) needs at least 2 and Warp's example_tile_fft runs 32-point rows on 8 threads. (One element
# per thread ran on the CPU but Warp refused it on the GPU.)
FFT_BLOCK_DIMS = (8, 16, 32, 64)
SPECTRAL_REDRAW = 0.5  # half the draws of the FFT kind are drawn again
NORMALIZED_SHARE = 0.4  # inverse transforms scaled by 1/N (Warp's are unnormalized, as numpy's ifft is not)
REAL_GAIN_SHARE = 0.4  # filters whose transfer function is a real gain per frequency
WEIGHTED_SHARE = 0.4  # spectra of windowed signals, syntheses of spectra shaped by a gain
# What `spectral` does with the rows: its summary, and the names people give its output.
SPECTRAL_USES = {
    "filter": ("Spectral filtering of signal rows", ("filtered", "y", "smoothed")),
    "spectrum": ("Spectra of signal rows", ("spectrum", "freq_out", "coeffs_out")),
    "power": ("Power spectra of signal rows", ("power", "psd", "energy")),
    "synthesis": ("Signals synthesised from spectra", ("signal", "waveform", "y")),
    "correlation": ("Cross-correlation of signal rows", ("correlation", "xcorr", "lagged")),
    "round_trip": ("FFT round trips of signal rows", ("restored", "y", "roundtrip")),
}


def spectral_helper(k: TileKernel, use: str, dtype: str) -> str:
    """The @wp.func that `tile_map` applies per frequency: a complex product with the transfer
    function (filter), with its conjugate (correlation), a real gain (filter), or |z|^2 (power)."""
    rng = k.rng
    t, r = COMPLEX_SPELLINGS[dtype], REAL_SPELLINGS[REAL_OF[dtype]]
    if use == "power":
        name = f"{k.name}_{pick(rng, 'power', 'abs_sq', 'magnitude_sq')}"
        forms = ["z[0] * z[0] + z[1] * z[1]"] + (["wp.dot(z, z)", "wp.length_sq(z)"] if dtype == "vec2" else [])
        k.helpers.append(f"@wp.func\ndef {name}(z: {t}) -> {r}:\n    return {rng.choice(forms)}")
        k.helper_names.append(name)
        return name
    if use == "gain":
        name = f"{k.name}_{pick(rng, 'apply_gain', 'scale_bin', 'weight_bin')}"
        forms = [f"{t}(z[0] * g, z[1] * g)"] + (["z * g"] if dtype == "vec2" else [])
        k.helpers.append(f"@wp.func\ndef {name}(z: {t}, g: {r}) -> {t}:\n    return {rng.choice(forms)}")
        k.helper_names.append(name)
        return name
    if use == "filter":  # a * b
        name = f"{k.name}_{pick(rng, 'cmul', 'complex_mul', 'cplx_prod')}"
        re, im = "a[0] * b[0] - a[1] * b[1]", "a[0] * b[1] + a[1] * b[0]"
    else:  # a * conj(b): cross-correlation with b's signal
        name = f"{k.name}_{pick(rng, 'cmul_conj', 'correlate', 'cross_spectrum')}"
        re, im = "a[0] * b[0] + a[1] * b[1]", "a[1] * b[0] - a[0] * b[1]"
    if rng.random() < 0.5:
        body = f"    return {t}({re}, {im})"
    else:
        body = f"    re = {re}\n    im = {im}\n    return {t}(re, im)"
    k.helpers.append(f"@wp.func\ndef {name}(a: {t}, b: {t}) -> {t}:\n{body}")
    k.helper_names.append(name)
    return name


def spectral(k: TileKernel) -> tuple[str, int]:
    """Row FFTs of complex signals, as Warp's tile FFT examples (example_tile_fft, _filtering,
    _convolution): each block loads TILE_M rows of N samples, transforms them in place with
    `wp.tile_fft` / `wp.tile_ifft` (unnormalized, as Warp's are) and stores the result. The uses
    (SPECTRAL_USES): a filter (forward transform, a product with a transfer function shared by every
    row, complex or a real gain, by `tile_map` of a `@wp.func`, inverse transform), a
    cross-correlation (the same with the conjugate product), a spectrum (forward only), a power
    spectrum (|X|^2 by `tile_map`, a real tile), a synthesis from a spectrum (inverse only) and a round
    trip. An inverse transform's result is scaled by 1/N in some kernels, vec2f ones (a float tile
    times a float constant; Warp refuses a vec2d tile times one). Row lengths are powers of two;
    complex numbers are vec2f or vec2d."""
    rng = k.rng
    n, tm = rng.choice(FFT_LENGTHS), rng.choice([1, 2, 4])
    dtype = "vec2d" if rng.random() < 0.6 else "vec2"
    k.complex_spelling = rng.choice(["{array}(dtype={t})", "{array}[{t}]"])
    TM = k.constant(pick(rng, "TILE_M", "ROWS", "BATCH"), tm)
    N = k.constant(pick_columns(rng, TM, "N", "TILE_N", "SIGNAL_LEN"), n)
    use = rng.choice(["filter", "filter", "correlation", "spectrum", "power", "synthesis", "round_trip"])
    storage = ', storage="shared"' if rng.random() < 0.3 else ""
    floats_per_element = 4 if dtype == "vec2d" else 2
    source = pick(rng, "spectrum", "freq", "coeffs") if use == "synthesis" else pick(rng, "signal", "x", "samples")
    x = k.array(source, "input", (tm, n), True, dtype=dtype)
    k.emit(f"a = wp.tile_load({x}, shape=({TM}, {N}), offset=(i * {TM}, 0))")  # FFTs take register tiles
    k.tile(tm * floats_per_element, n)
    mag = math.sqrt(2.0)  # |re + i im| with both parts in [-1, 1]
    if use in ("spectrum", "power", "synthesis") and rng.random() < WEIGHTED_SHARE:
        # a signal windowed before its spectrum (Hann, Hamming: the caller's table), or a spectrum
        # shaped by a gain per frequency before its synthesis
        name = spectral_helper(k, "gain", dtype)
        hint = ("window", "taper", "window_weights") if use != "synthesis" else ("gains", "band_weights", "eq")
        w = k.array(pick(rng, *hint), "input", (1, n), False, low=0.0, dtype=REAL_OF[dtype])
        load = f"wp.tile_load({w}, shape=(1, {N}))"
        k.emit(f"w = {load}" if tm == 1 else f"w = wp.tile_broadcast({load}, shape=({TM}, {N}))")
        k.emit(f"a = wp.tile_map({name}, a, w)")
        k.tile(tm * floats_per_element // 2, n)
        k.tile(tm * floats_per_element, n)
        k.features.append("windowed by tile_map" if use != "synthesis" else "shaped by a gain per frequency")
    first = "tile_ifft" if use == "synthesis" else "tile_fft"
    k.emit(f"wp.{first}(a)")
    result, mag = "a", mag * n
    k.features.append("tile_ifft (synthesis from a spectrum)" if use == "synthesis" else "tile_fft")
    out_dtype = dtype
    if use == "round_trip":  # forward and back (Warp's example_tile_fft): N times the signal
        k.emit("wp.tile_ifft(a)")
        mag = math.sqrt(2.0) * n  # exactly N x, up to rounding
        k.features.append("tile_ifft round trip")
    if use in ("filter", "correlation"):
        gain = use == "filter" and rng.random() < REAL_GAIN_SHARE
        name = spectral_helper(k, "gain" if gain else use, dtype)
        h_dtype = REAL_OF[dtype] if gain else dtype
        h = k.array(pick(rng, "gains", "response", "band_weights") if gain else pick(rng, "response", "transfer", "kernel_hat"),
                    "input", (1, n), False, low=0.0 if gain else -1.0, dtype=h_dtype)
        load = f"wp.tile_load({h}, shape=(1, {N}){storage})"
        k.emit(f"g = {load}" if tm == 1 else f"g = wp.tile_broadcast({load}, shape=({TM}, {N}))")
        k.emit(f"c = wp.tile_map({name}, a, g)")
        k.emit("wp.tile_ifft(c)")
        for _ in range(2 if tm == 1 else 3):
            k.tile(tm * floats_per_element, n)
        result, mag = "c", mag * (1.0 if gain else math.sqrt(2.0)) * n
        k.features.append("real gain per frequency by tile_map, tile_ifft" if gain
                          else "complex product with a transfer function by tile_map, tile_ifft" if use == "filter"
                          else "cross-correlation (product with a conjugate) by tile_map, tile_ifft")
    if use == "power":
        name = spectral_helper(k, "power", dtype)
        k.emit(f"p = wp.tile_map({name}, a)")
        k.tile(tm * floats_per_element // 2, n)
        result, mag, out_dtype = "p", mag * mag, REAL_OF[dtype]
        k.features.append("|X|^2 by tile_map")
    inverse = use in ("filter", "correlation", "round_trip", "synthesis")
    if (use == "power" or (inverse and dtype == "vec2")) and rng.random() < NORMALIZED_SHARE:
        inv_n = k.constant(pick(rng, "INV_N", "NORM", "SCALE"), 1.0 / n)
        factor = inv_n if out_dtype in ("vec2", "float32") else f"wp.float64({inv_n})"
        k.emit(f"{result} = {result} * {factor}")
        mag /= n
        k.features.append("scaled by 1/N")
    summary, out_names = SPECTRAL_USES[use]
    out = k.array(pick(rng, *out_names), "output", (tm, n), True, dtype=out_dtype, bound=mag)
    k.emit(f"wp.tile_store({out}, {result}, offset=(i * {TM}, 0))")
    return summary, rng.choice([b for b in FFT_BLOCK_DIMS if 2 <= n // b <= 8])


LEAST_SQUARES_USES = {  # use: (summary, design names, right-hand side names, solution names)
    "ridge": ("Batched ridge regression: normal equations solved by Cholesky",
              ("X", "features", "design"), ("y", "targets", "responses"), ("coef", "weights", "beta")),
    "gauss_newton": ("Damped Gauss-Newton step per system: normal equations solved by Cholesky",
                     ("J", "jacobian", "jac"), ("r", "residual", "rhs"), ("step", "delta", "dx")),
}


def least_squares(k: TileKernel) -> tuple[str, int]:
    """Small dense least-squares systems, one per block, as batched solvers write them with Warp's tile
    linear algebra (warp/examples/tile/example_tile_cholesky.py, warp/tests/tile/test_tile_cholesky.py):
    the normal equations `(A^T W A + diag(lambda)) x = A^T W b` of a panel of rows (or several,
    accumulated by `tile_matmul(at, a, h)`), averaged over the rows or not, damped by `tile_diag_add`
    (a per-unknown table or a constant), factored by `tile_cholesky` (lower or upper) and solved by
    `tile_cholesky_solve` or by `tile_lower_solve` then `tile_upper_solve` of the transposed factor,
    or factored and solved in place (`tile_cholesky_inplace`, `tile_*_solve_inplace`: the factor over
    the matrix, the solution over the right-hand side, half the shared memory).
    Some kernels also store the residual `b - A x`, the factor, or log det from the factor's diagonal
    (`tile_extract` in a loop). The damping keeps the matrix positive definite, its smallest
    eigenvalue at least the smallest lambda, which bounds the solution: |x| <= |A^T W b| / lambda."""
    rng = k.rng
    n = rng.choice([4, 6, 8, 8, 12, 16])
    tm = rng.choice([t for t in (16, 32, 64) if t >= 2 * n])
    rhs = rng.choice([1, 1, 2, 3, 4])
    panels = rng.choice([2, 3, 4]) if rng.random() < 0.25 else 1
    use = rng.choice(["ridge", "ridge", "gauss_newton"])
    summary, a_names, b_names, x_names = LEAST_SQUARES_USES[use]
    TM = k.constant(pick(rng, "TILE_M", "ROWS", "SAMPLES"), tm)
    N = k.constant(pick(rng, "N", "DIM", "UNKNOWNS"), n)
    R = k.constant(pick(rng, "RHS", "OUTPUTS", "K"), rhs) if rhs > 1 or rng.random() < 0.5 else "1"
    rows = tm * panels
    design = k.array(pick(rng, *a_names), "input", (rows, n), True)
    target = k.array(pick(rng, *b_names), "input", (rows, rhs), True)
    weighted = rng.random() < 0.25
    wts = k.array(pick(rng, "w", "sample_weights", "row_weights"), "input", (rows, 1), True, low=0.0) if weighted else ""
    if panels > 1:
        P = k.constant(pick(rng, "PANELS", "ROW_TILES", "TILES_PER_BLOCK"), panels)
        row = open_panels(k, P, TM, [f"h = wp.tile_zeros(shape=({N}, {N}), dtype=float)",
                                     f"g = wp.tile_zeros(shape=({N}, {R}), dtype=float)"],
                          f"{panels} row panels per system (accumulating tile_matmul)")
    else:
        row = f"i * {TM}"
    k.emit(f"a = wp.tile_load({design}, shape=({TM}, {N}), offset=({row}, 0))")
    k.emit(f"b = wp.tile_load({target}, shape=({TM}, {R}), offset=({row}, 0))")
    k.tile(tm, n)
    k.tile(tm, rhs)
    if weighted:
        k.emit(f"wt = wp.tile_load({wts}, shape=({TM}, 1), offset=({row}, 0))")
        k.emit(f"aw = a * wp.tile_broadcast(wt, shape=({TM}, {N}))")
        k.emit("at = wp.tile_transpose(aw)")
        k.tile(tm, 1)
        k.tile(tm, n)
        k.features.append("row weights (A^T W A)")
    else:
        k.emit("at = wp.tile_transpose(a)")
    k.tile(n, tm)
    if panels > 1:
        k.emit("wp.tile_matmul(at, a, h)")
        k.emit("wp.tile_matmul(at, b, g)")
        k.indent -= 1
    else:
        k.emit("h = wp.tile_matmul(at, a)")
        k.emit("g = wp.tile_matmul(at, b)")
    k.tile(n, n)
    k.tile(n, rhs)
    g_mag = float(rows)  # |(A^T W b)_k| <= rows: every factor in [-1, 1]
    averaged = rng.random() < 0.6
    if averaged:  # the mean over the rows: the damping then reads as a fraction of a unit-scale problem
        inv = k.constant(pick(rng, "INV_ROWS", "INV_COUNT", "NORMALIZE"), 1.0 / rows)
        k.emit(f"h = h * {inv}")
        k.emit(f"g = g * {inv}")
        g_mag = 1.0
        k.features.append("averaged over the rows")
    low, high = (0.25, 1.0) if averaged else (1.0, 4.0)
    if rng.random() < 0.5:
        damping = k.array(pick(rng, "damping", "lam", "prior_precision"), "input", (n,), False, low=low, high=high)
        k.emit(f"h = wp.tile_diag_add(h, wp.tile_load({damping}, shape={N}))")
        lam_min = low
        k.features.append("damping per unknown (tile_diag_add)")
    else:
        lam = grid_constant(rng, low, high)
        LAM = k.constant(pick(rng, "LAMBDA", "DAMPING", "RIDGE"), lam)
        k.emit(f"h = wp.tile_diag_add(h, wp.tile_ones(shape={N}, dtype=float) * {LAM})")
        lam_min = lam
        k.features.append("constant damping (tile_diag_add)")
    k.tile(n)
    k.tile(n, n)
    x_mag = math.sqrt(n) * g_mag / lam_min  # |x|_2 <= |g|_2 / lambda_min(h)
    method = rng.choice(["solve", "solve", "upper", "triangles", "inplace", "inplace_triangles"])
    result = "x"
    if method in ("inplace", "inplace_triangles"):  # factor over h, solve over g: half the shared memory
        k.emit("wp.tile_cholesky_inplace(h)")
        if method == "inplace":
            k.emit("wp.tile_cholesky_solve_inplace(h, g)")
            k.features.append("tile_cholesky_inplace, tile_cholesky_solve_inplace")
        else:
            k.emit("wp.tile_lower_solve_inplace(h, g)")
            k.emit("wp.tile_upper_solve_inplace(wp.tile_transpose(h), g)")
            k.features.append("tile_cholesky_inplace, tile_lower_solve_inplace, tile_upper_solve_inplace")
        factor, result = "h", "g"
    elif method == "upper":
        k.emit("U = wp.tile_cholesky(h, fill_mode=\"upper\")")
        k.emit("x = wp.tile_cholesky_solve(U, g, fill_mode=\"upper\")")
        factor = "U"
        k.features.append("tile_cholesky (upper), tile_cholesky_solve")
    elif method == "triangles":
        k.emit("L = wp.tile_cholesky(h)")
        k.emit("z = wp.tile_lower_solve(L, g)")
        k.emit("x = wp.tile_upper_solve(wp.tile_transpose(L), z)")
        factor = "L"
        k.tile(n, rhs)
        k.features.append("tile_cholesky, tile_lower_solve, tile_upper_solve")
    else:
        k.emit("L = wp.tile_cholesky(h)")
        k.emit("x = wp.tile_cholesky_solve(L, g)")
        factor = "L"
        k.features.append("tile_cholesky, tile_cholesky_solve")
    if result == "x":
        k.tile(n, n)
        k.tile(n, rhs)
    out = k.array(pick(rng, *x_names), "output", (n, rhs), True, bound=x_mag)
    k.emit(f"wp.tile_store({out}, {result}, offset=(i * {N}, 0))")
    if panels == 1 and rng.random() < 0.3:  # what the fit leaves unexplained
        res = k.array(pick(rng, "residuals", "misfit", "r_out"), "output", (tm, rhs), True, bound=1.0 + n * x_mag)
        k.emit(f"wp.tile_store({res}, b - wp.tile_matmul(a, {result}), offset=(i * {TM}, 0))")
        k.tile(tm, rhs)
        k.features.append("residual b - A x")
    if rng.random() < 0.15:
        fout = k.array(pick(rng, "factor", "chol", "L_out"), "output", (n, n), True,
                       bound=math.sqrt(g_mag * (rows if not averaged else 1.0) + high))
        k.emit(f"wp.tile_store({fout}, {factor}, offset=(i * {N}, 0))")
        k.features.append("factor stored")
    if rng.random() < 0.25:  # log det h = 2 sum log of the factor's diagonal (a Gaussian's normalizer)
        diag_max = math.sqrt((rows if not averaged else 1.0) * n + high)
        ld = k.array(pick(rng, "logdet", "log_det", "log_det_h"), "output", (1,), True,
                     bound=2.0 * n * max(abs(math.log(math.sqrt(lam_min))), math.log(diag_max)))
        k.emit("s = float(0.0)")
        k.emit(f"for d in range({N}):")
        k.emit(f"    s += wp.log(wp.tile_extract({factor}, d, d))")
        k.emit(f"{ld}[i] = 2.0 * s")
        k.features.append("log det from the factor's diagonal (tile_extract)")
    return summary, rng.choice([32, 64] if n <= 8 else [64, 128])


def row_softmax(k: TileKernel) -> tuple[str, int]:
    """The softmax of one long row per block, as attention and classifier kernels write it: the row's
    maximum by `tile_max` subtracted before the exponential (`tile_map(wp.exp, ...)`) so that it cannot
    overflow, the sum by `tile_sum`, the probabilities by a division by the broadcast sum. The logits
    are loaded, or loaded plus a bias row shared by every row (a position bias), or a classifier
    head's (the row's features times a weight matrix, plus a bias row); some kernels scale them by a
    temperature (a constant or an argument). The result: probabilities, log-probabilities (t - max -
    log sum), or the probability-weighted sum of value rows (`p @ V`, one query's attention); beside
    it some kernels store each row's log-sum-exp, its entropy (lse - sum(p * t)), or a cross-entropy
    against a target class (the logit at the target's column by `tile_extract`, label-smoothed in
    some)."""
    if k.breadth.random() < ONLINE_SOFTMAX_SHARE:
        return online_softmax(k)
    rng = k.rng
    c = rng.choice([64, 128, 256, 512, 1024])
    C = k.constant(pick(rng, "COLS", "VOCAB", "CLASSES", "ROW_LEN"), c)
    source = rng.choices(["load", "bias", "head"], weights=[0.5, 0.25, 0.25])[0]
    result = rng.choices(["probs", "log_probs", "values"], weights=[0.5, 0.3, 0.2])[0]
    extra = rng.choices(["loss", "lse", "entropy", None], weights=[0.3, 0.15, 0.15, 0.4])[0]
    top = 4.0  # a bound on |logit|
    if source == "head":  # logits = features @ W + b
        f = rng.choice([16, 32])
        F = k.constant(pick(rng, "FEATURES", "HIDDEN", "DIM"), f)
        x = k.array(pick(rng, "features", "hidden", "embeddings"), "input", (1, f), True)
        w = k.array(pick(rng, "W", "weights", "head"), "input", (f, c), False, low=-0.25, high=0.25)
        b = k.array(pick(rng, "b", "bias", "head_bias"), "input", (1, c), False)
    else:
        x = k.array(pick(rng, "logits", "scores", "x"), "input", (1, c), True, low=-4.0, high=4.0)
        b = k.array(pick(rng, "bias", "pos_bias", "prior"), "input", (1, c), False) if source == "bias" else ""
    target = k.array(pick(rng, "target", "labels", "classes"), "index", (1,), True, low=0, high=c - 1,
                     dtype="int32") if extra == "loss" else ""
    # a classifier's prediction beside its probabilities: the index of the largest logit (tile_argmax),
    # and with a target the count of rows predicted right (the inputs on a fine grid: no tie)
    predict = k.variant.random() < PREDICTION_SHARE
    if predict:
        for a in list(k.args):
            if a.role == "input":
                k.refine(a.name)
    if result == "values":
        d = rng.choice([16, 32, 64])
        D = k.constant(pick(rng, "VALUE_DIM", "HEAD_DIM", "D"), d)
        v = k.array(pick(rng, "values", "V", "value_rows"), "input", (c, d), False)
    if source == "head":
        k.emit(f"h = wp.tile_load({x}, shape=(1, {F}), offset=(i, 0))")
        k.emit(f"t = wp.tile_matmul(h, wp.tile_load({w}, shape=({F}, {C}))) + wp.tile_load({b}, shape=(1, {C}))")
        k.tile(1, f)
        k.tile(f, c)
        k.tile(1, c)
        top = f * 0.25 + 1.0
        k.features.append("logits of a classifier head (tile_matmul, bias row)")
    else:
        k.emit(f"t = wp.tile_load({x}, shape=(1, {C}), offset=(i, 0))")
        if source == "bias":
            k.emit(f"t = t + wp.tile_load({b}, shape=(1, {C}))")
            top += 1.0
            k.features.append("plus a bias row shared by the rows")
    k.tile(1, c)
    scaling = rng.choices(["constant", "argument", None], weights=[0.25, 0.15, 0.6])[0]
    if scaling == "constant":
        temp = k.constant(pick(rng, "INV_TEMPERATURE", "SHARPNESS", "BETA"), grid_constant(rng, 0.25, 2.0))
        k.emit(f"t = t * {temp}")
        top *= abs(k.values[temp])
        k.features.append("temperature")
    elif scaling == "argument":  # e.g. 1 / sqrt(d) of attention, given by the caller
        hint = pick(rng, "scale", "inv_temp", "beta")
        value = grid_constant(rng, 0.25, 1.0)
        name = k.scalar(hint, value)
        k.emit(f"t = t * {name}")
        top *= value
        k.features.append("scaled by an argument")
    k.emit("m = wp.tile_max(t)")
    k.emit(f"e = wp.tile_map(wp.exp, t - wp.tile_broadcast(m, shape=(1, {C})))")
    k.emit("s = wp.tile_sum(e)")
    k.tile(1, c)
    k.tile(64)
    k.features.append("max-subtracted (tile_max), exp by tile_map, sum by tile_sum")
    log_c = math.log(c)
    if result == "log_probs":
        k.emit("shift = m + wp.tile_map(wp.log, s)")
        out = k.array(pick(rng, "log_probs", "logp"), "output", (1, c), True, bound=2.0 * top + log_c)
        k.emit(f"wp.tile_store({out}, t - wp.tile_broadcast(shift, shape=(1, {C})), offset=(i, 0))")
        k.features.append("log-probabilities")
    else:
        k.emit(f"p = e / wp.tile_broadcast(s, shape=(1, {C}))")
        if result == "values":  # one query's attention output: the probabilities' mix of value rows
            out = k.array(pick(rng, "out", "context", "attended"), "output", (1, d), True)
            k.emit(f"wp.tile_store({out}, wp.tile_matmul(p, wp.tile_load({v}, shape=({C}, {D}))), offset=(i, 0))")
            k.tile(c, d)
            k.tile(1, d)
            k.features.append("probability-weighted value rows (p @ V)")
        else:
            out = k.array(pick(rng, "probs", "p_out", "attn"), "output", (1, c), True)
            k.emit(f"wp.tile_store({out}, p, offset=(i, 0))")
    if predict:
        pred = k.array(pick(k.variant, "predicted", "pred_class", "argmax_out"), "output", (1,), True, dtype="int32",
                       bound=float(c), draws=k.variant)
        k.emit("best = wp.tile_argmax(t)")
        k.emit(f"{pred}[i] = best[0]")
        k.features.append("predicted class (tile_argmax)")
        if target and k.variant.random() < 0.5:
            hits = k.array(pick(k.variant, "correct", "hits", "num_correct"), "output", (1,), False, dtype="int32",
                           bound=float(max(BLOCK_COUNTS)), draws=k.variant)
            # every thread of the block runs this statement: one of them counts the row
            k.lines[0] = "i, lane = wp.tid()"
            k.emit(f"if lane == 0 and best[0] == {target}[i]:")
            k.emit(f"    wp.atomic_add({hits}, 0, 1)")
            k.features.append("rows predicted right (atomic count)")
    if extra == "loss":  # a classifier's loss: log-sum-exp less the target class's logit
        loss = k.array(pick(rng, "loss", "nll", "ce_loss"), "output", (1,), True, bound=2.0 * top + log_c)
        k.emit("lse = m[0] + wp.log(s[0])")
        if rng.random() < 0.35:  # label smoothing: part of the target's weight spread over every class
            eps = k.constant(pick(rng, "SMOOTHING", "LABEL_SMOOTHING", "EPS"), grid_constant(rng, 0.0625, 0.25))
            k.emit(f"mean_logit = wp.tile_sum(t)[0] / {k.as_float(C)}")
            k.emit(f"{loss}[i] = lse - (1.0 - {eps}) * wp.tile_extract(t, 0, {target}[i]) - {eps} * mean_logit")
            k.features.append("label-smoothed cross-entropy per row (tile_extract at the target's column)")
        else:
            k.emit(f"{loss}[i] = lse - wp.tile_extract(t, 0, {target}[i])")
            k.features.append("cross-entropy per row (tile_extract at the target's column)")
    elif extra == "lse":
        lse = k.array(pick(rng, "lse", "log_norm", "row_lse"), "output", (1,), True, bound=top + log_c)
        k.emit(f"{lse}[i] = m[0] + wp.log(s[0])")
        k.features.append("log-sum-exp per row")
    elif extra == "entropy":  # H = lse - sum(p * t)
        ent = k.array(pick(rng, "entropy", "row_entropy", "uncertainty"), "output", (1,), True, bound=2.0 * top + log_c)
        probs = "p" if result != "log_probs" else f"e / wp.tile_broadcast(s, shape=(1, {C}))"
        k.emit(f"{ent}[i] = m[0] + wp.log(s[0]) - wp.tile_sum({probs} * t)[0]")
        k.features.append("entropy of each row's distribution")
    return "Softmax of one row per block", rng.choice([b for b in (32, 64, 128, 256) if 2 <= c // b <= 16])


ONLINE_SOFTMAX_SHARE = 0.25  # of softmax kernels, from the breadth stream (session 47)


def online_softmax(k: TileKernel) -> tuple[str, int]:
    """A row too long for one tile (a vocabulary), read in chunks with the online softmax (Milakov and
    Gimelshein): a running maximum and a running sum rescaled by exp(old max - new max) whenever the
    maximum grows, so one pass gives the row's log-sum-exp. The logits scaled as they are loaded in
    some (an inverse temperature: a constant or the caller's argument). Then the row's cross-entropy
    against a target (its logit read from the array), or a second pass storing probabilities or
    log-probabilities chunk by chunk, or the log-sum-exp itself (stored beside the others in some)."""
    rng = k.rng
    c = rng.choice([1024, 2048, 4096])
    chunk = rng.choice([128, 256, 512])
    C = k.constant(pick(rng, "VOCAB", "ROW_LEN", "NUM_CLASSES"), c)
    T = k.constant(pick(rng, "CHUNK", "TILE", "BLOCK_COLS"), chunk)
    x = k.array(pick(rng, "logits", "scores", "x"), "input", (1, c), True, low=-4.0, high=4.0)
    result = rng.choice(["loss", "probs", "log_probs", "lse"])
    target = k.array(pick(rng, "target", "labels", "classes"), "index", (1,), True, low=0, high=c - 1,
                     dtype="int32") if result == "loss" else ""
    scaling = rng.choices(["", "constant", "argument"], weights=[0.5, 0.25, 0.25])[0]
    top = 4.0
    if scaling == "constant":
        scale = k.constant(pick(rng, "INV_TEMPERATURE", "SHARPNESS", "BETA"), grid_constant(rng, 0.25, 2.0))
        top *= k.values[scale]
        k.features.append("temperature")
    elif scaling == "argument":
        value = grid_constant(rng, 0.25, 1.0)
        scale = k.scalar(pick(rng, "scale", "inv_temp", "beta"), value)
        top *= value
        k.features.append("scaled by an argument")
    scaled = f" * {scale}" if scaling else ""
    for _ in range(4):
        k.tile(chunk)
    k.tile(64)
    exp_shift = f"wp.tile_map(wp.exp, t - wp.tile_full({T}, value={{}}, dtype=float))"
    if C.isdigit() and T.isdigit():  # literal sizes: the count itself
        chunks = f"{c // chunk}"
    else:
        chunks = "chunks"
        k.emit(f"chunks = {C} // {T}")
    k.emit(f"t = wp.tile_load({x}[i], shape={T}){scaled}")
    k.emit("m = wp.tile_max(t)[0]")
    k.emit(f"s = wp.tile_sum({exp_shift.format('m')})[0]")
    k.emit(f"for j in range(1, {chunks}):")
    k.emit(f"    t = wp.tile_load({x}[i], shape={T}, offset=j * {T}){scaled}")
    k.emit("    m_new = wp.max(m, wp.tile_max(t)[0])")
    k.emit(f"    s = s * wp.exp(m - m_new) + wp.tile_sum({exp_shift.format('m_new')})[0]")
    k.emit("    m = m_new")
    k.emit("lse = m + wp.log(s)")
    k.features.append(f"online softmax over {c // chunk} chunks (a running maximum, the sum rescaled)")
    top_lse = top + math.log(c)
    if result == "loss":
        loss = k.array(pick(rng, "loss", "nll", "ce_loss"), "output", (1,), True, bound=2.0 * top_lse)
        k.emit(f"{loss}[i] = lse - {x}[i, {target}[i]]{scaled}")
        k.features.append("cross-entropy per row (the target's logit read from the row)")
    elif result in ("probs", "log_probs"):
        out = k.array(pick(rng, "probs", "p_out") if result == "probs" else pick(rng, "log_probs", "logp"),
                      "output", (1, c), True, bound=1.0 if result == "probs" else 2.0 * top_lse)
        value = exp_shift.format("lse") if result == "probs" else f"t - wp.tile_full({T}, value=lse, dtype=float)"
        k.emit(f"for j in range({chunks}):")
        k.emit(f"    t = wp.tile_load({x}[i], shape={T}, offset=j * {T}){scaled}")
        k.emit(f"    wp.tile_store({out}[i], {value}, offset=j * {T})")
        k.features.append(f"{'probabilities' if result == 'probs' else 'log-probabilities'} in a second pass")
    if result == "lse" or rng.random() < 0.3:  # the normaliser kept (for a backward pass, or to sample later)
        lse = k.array(pick(rng, "log_z", "log_norm", "row_lse"), "output", (1,), True, bound=top_lse)
        k.emit(f"{lse}[i] = lse")
        k.features.append("log-sum-exp per row")
    return "Softmax of one row per block", rng.choice([64, 128, 256])


# ---- tiles of positions ---------------------------------------------------------------------------
WINDOWS = {  # window functions of the sample index k over a tile of n samples ({denom}: n - 1)
    "hann": "return 0.5 - 0.5 * wp.cos(2.0 * wp.pi * k / {denom})",
    "hamming": "return 0.54 - 0.46 * wp.cos(2.0 * wp.pi * k / {denom})",
    "blackman": "a = 2.0 * wp.pi * k / {denom}\n    return 0.42 - 0.5 * wp.cos(a) + 0.08 * wp.cos(2.0 * a)",
    "sine": "return wp.sin(wp.pi * k / {denom})",
}
# integrands of the midpoint rule: bounded by 1 over any interval, so the blocks of a bench-size launch
# (a longer interval) stay in range
INTEGRANDS = ["sigmoid", "gaussian", "softsign"]
INTEGRAND_BUILTINS = ["wp.sin", "wp.tanh"]
POSITIONS_SHARE = 0.08  # of tiled kernels (about one kind's share)


def positions(k: TileKernel) -> tuple[str, int]:
    """Tiles of sample positions built in the kernel, not loaded: `wp.tile_arange` (the index within
    the block) and `wp.tile_full` (a value for the whole tile: the block's first index, a parameter),
    as Warp's tile examples build per-element offsets. Four uses:
    - the centroid of a density over each block's samples (weights loaded, their magnitudes, or their
      squares: an energy centroid; positions the index within the block, the index in the array, or
      cell centres in length units), with the block's mass and the spread about the centroid in some;
    - a window function (Hann, Hamming, Blackman, sine) of the sample index applied to each block's
      signal, normalised by the window's sum in some, with the windowed energy per block or in total;
    - an integral over an interval, a block per sub-interval with no input array: the midpoint rule,
      or the trapezoid rule with end weights from an int `tile_arange` (blocks sharing their ends);
      the integrand's width a constant or the caller's argument (a `tile_full` of it into `tile_map`);
    - the transmittance of a ray, the product of per-sample factors by `wp.tile_reduce(wp.mul, ...)`:
      1 - alpha, or exp(-sigma dt) from a density; over several segments a block, from a `tile_full`
      of one."""
    rng = k.rng
    use = rng.choice(["centroid", "window", "integral", "transmittance"])
    size = rng.choice([64, 128, 256])
    tile = k.constant(pick(rng, "TILE", "SAMPLES", "BLOCK_ITEMS"), size)
    k.tile(size)
    k.tile(64)  # a reduction's per-thread partials
    block_dim = rng.choice([b for b in BLOCK_DIMS if b <= size])
    if use == "centroid":
        return centroid(k, size, tile), block_dim
    if use == "window":
        return window(k, size, tile), block_dim
    if use == "integral":
        return integral(k, size, tile), block_dim
    return transmittance(k, size, tile), block_dim


def centroid(k: TileKernel, size: int, tile: str) -> str:
    rng = k.rng
    weights = rng.choice(["density", "magnitude", "energy"])
    if weights == "density":
        w = k.array(pick(rng, "density", "weights", "mass", "intensity"), "input", (size,), True, low=0.25, high=1.0)
        k.emit(f"w = wp.tile_load({w}, shape={tile}, offset=i * {tile})")
    else:  # a signal's magnitudes or squares: where its amplitude (energy) lies
        x = k.array(pick(rng, "signal", "amplitude", "samples"), "input", (size,), True)
        k.emit(f"a = wp.tile_load({x}, shape={tile}, offset=i * {tile})")
        k.emit("w = wp.tile_map(wp.abs, a)" if weights == "magnitude" else "w = a * a")
        k.features.append("amplitude-weighted" if weights == "magnitude" else "energy-weighted")
    frame = rng.choice(["local", "global", "cells"])
    if frame == "local":  # positions within the block; its first index added to the result
        k.emit(f"x = wp.tile_arange({tile}, dtype=float)")
    elif frame == "global":
        k.emit(f"x = wp.tile_arange({tile}, dtype=float) + wp.tile_full({tile}, value=float(i * {tile}), dtype=float)")
        k.features.append("the block's first index by tile_full")
    else:  # cell centres in length units: (index + 1/2) * dx
        dx = k.constant(pick(rng, "DX", "CELL", "SPACING"), grid_constant(rng, 0.0625, 0.5))
        k.emit(f"x = (wp.tile_arange({tile}, dtype=float) + wp.tile_full({tile}, value=float(i * {tile}) + 0.5, "
               f"dtype=float)) * {dx}")
        k.features.append("cell centres in length units")
    k.tile(size)
    k.emit("m0 = wp.tile_sum(w)")
    k.emit("m1 = wp.tile_sum(x * w)")
    out = k.array(pick(rng, "centroid", "center", "mean_pos"), "output", (1,), True, bound=float(size * max(BLOCK_COUNTS)))
    k.emit("c = m1[0] / m0[0]")
    k.emit(f"{out}[i] = {'c + float(i * ' + tile + ')' if frame == 'local' else 'c'}")
    k.features.append("centroid of each block's weights (tile_arange positions)")
    if rng.random() < 0.35:
        mass = k.array(pick(rng, "block_mass", "total_weight", "m0_out"), "output", (1,), True, bound=float(size))
        k.emit(f"{mass}[i] = m0[0]")
        k.features.append("the block's total weight")
    raw_spread = frame == "local" and rng.random() < 0.5
    if raw_spread:  # the spread about it (positions within the block: no cancellation)
        k.emit("m2 = wp.tile_sum(x * x * w)")
        spread = k.array(pick(rng, "spread", "width", "std_pos"), "output", (1,), True, bound=float(size))
        k.emit(f"{spread}[i] = wp.sqrt(wp.max(m2[0] / m0[0] - c * c, 0.0))")
        k.features.append("its spread (second moment)")
    # session 47: the spread in two passes (the deviations from the centroid), or the densest sample's
    # place (`tile_argmax`; the weights on a fine grid, so that one sample is the largest). The spread
    # only about positions within the block: positions in the array reach 10^5 and more at a bench size,
    # where float32 keeps a hundredth of a sample of each and the deviations lose what they measure
    # (the H200 compared one at 25x its tolerance)
    more = k.breadth.choices([None, "spread", "peak"], weights=[0.4, 0.3, 0.3])[0]
    if more == "spread" and frame == "local" and not raw_spread:
        k.tile(size)
        k.emit(f"d = x - wp.tile_full({tile}, value=c, dtype=float)")
        k.emit("m2 = wp.tile_sum(d * d * w)")
        spread = k.array(pick(rng, "spread", "width", "std_pos"), "output", (1,), True, bound=float(size))
        k.emit(f"{spread}[i] = wp.sqrt(m2[0] / m0[0])")
        k.features.append("its spread, from the deviations (tile_full of the centroid)")
    elif more == "peak" and weights == "density":
        k.refine(w)
        peak = k.array(pick(rng, "peak", "densest", "argmax_pos"), "output", (1,), True,
                       bound=float(size * max(BLOCK_COUNTS)), dtype="int32")
        k.emit(f"{peak}[i] = i * {tile} + wp.tile_argmax(w)[0]")
        k.features.append("the densest sample's index (tile_argmax)")
    return "Centroid of a density per block"


def window(k: TileKernel, size: int, tile: str) -> str:
    rng = k.rng
    name, body = rng.choice(sorted(WINDOWS.items()))
    denom = f"{size - 1}.0" if tile.isdigit() else f"float({tile} - 1)"
    fn = f"{k.name}_{name}"
    k.helpers.append(f"@wp.func\ndef {fn}(k: float) -> float:\n    " + body.format(denom=denom))
    k.helper_names.append(fn)
    in_place = rng.random() < 0.3  # the signal tapered where it lies
    x = k.array(pick(rng, "signal", "samples", "x"), "inout" if in_place else "input", (size,), True)
    k.emit(f"win = wp.tile_map({fn}, wp.tile_arange({'0, ' if rng.random() < 0.3 else ''}{tile}, dtype=float))")
    k.tile(size)
    k.tile(size)
    if rng.random() < 0.35:  # coherent gain: divided by the window's sum, a constant's amplitude is kept
        k.emit(f"y = wp.tile_load({x}, shape={tile}, offset=i * {tile}) * win / wp.tile_sum(win)[0]")
        k.features.append("normalised by the window's sum")
        bound = 1.0
    else:
        k.emit(f"y = wp.tile_load({x}, shape={tile}, offset=i * {tile}) * win")
        bound = float(size)
    out = x if in_place else k.array(pick(rng, "windowed", "tapered", "y_out"), "output", (size,), True)
    k.emit(f"wp.tile_store({out}, y, offset=i * {tile})")
    k.features.append(f"{name} window of the sample index (tile_map over tile_arange)")
    if in_place:
        k.features.append("applied in place")
    energy = rng.choice([None, "block", "total"])
    if energy == "block":
        e = k.array(pick(rng, "energy", "power", "block_energy"), "output", (1,), True, bound=bound)
        k.emit(f"wp.tile_store({e}, wp.tile_sum(y * y), offset=i)")
        k.features.append("windowed energy per block")
    elif energy == "total":
        e = k.array(pick(rng, "total_energy", "power_sum", "energy"), "output", (1,), False, bound=bound * 16)
        k.emit(f"wp.tile_atomic_add({e}, wp.tile_sum(y * y))")
        k.features.append("windowed energy in total (tile_atomic_add)")
    return "Window function applied per block"


MOMENT_SHARE = 0.35  # of integrals, from the breadth stream (session 47)


def integral(k: TileKernel, size: int, tile: str) -> str:
    rng = k.rng
    h = k.constant(pick(rng, "DX", "H", "STEP"), 1.0 / (4 * size))  # each block a quarter unit
    rule = rng.choice(["midpoint", "trapezoid"])
    if rule == "midpoint":
        k.emit(f"x = (wp.tile_arange({tile}, dtype=float) + wp.tile_full({tile}, value=float(i * {tile}) + 0.5, "
               f"dtype=float)) * {h}")
        k.features.append("midpoint rule, a block per sub-interval (tile_arange + tile_full positions)")
    else:  # a block's TILE samples span TILE - 1 steps; neighbouring blocks share an end sample
        k.emit(f"x = (wp.tile_arange({tile}, dtype=float) + wp.tile_full({tile}, value=float(i * ({k.less_one(tile)})), "
               f"dtype=float)) * {h}")
        fw = f"{k.name}_trapezoid_weight"
        last = f"{size - 1}" if tile.isdigit() else f"{tile} - 1"
        k.helpers.append(f"@wp.func\ndef {fw}(j: int) -> float:\n    if j == 0 or j == {last}:\n"
                         f"        return 0.5\n    return 1.0")
        k.helper_names.append(fw)
        k.emit(f"wts = wp.tile_map({fw}, wp.tile_arange({tile}, dtype=int))")
        k.tile(size)
        k.features.append("trapezoid rule, end weights from an int tile_arange, blocks sharing their ends")
    k.tile(size)
    width = rng.random() < 0.3
    if width:  # a Gaussian whose width the caller passes: a tile_full of the argument, mapped with x
        sigma = k.scalar(pick(rng, "width", "sigma", "scale"), grid_constant(rng, 0.25, 1.0))
        fn = f"{k.name}_gaussian_of"
        k.helpers.append(f"@wp.func\ndef {fn}(x: float, s: float) -> float:\n    u = x / s\n    return wp.exp(-0.5 * u * u)")
        k.helper_names.append(fn)
        f_of_x = f"wp.tile_map({fn}, x, wp.tile_full({tile}, value={sigma}, dtype=float))"
        bound_of = 1.0
        k.features.append("integrand's width from an argument (tile_full)")
    elif rng.random() < 0.4:
        fn = rng.choice(INTEGRAND_BUILTINS)
        f_of_x, bound_of = f"wp.tile_map({fn}, x)", 1.0
        k.features.append(f"integrand {fn}")
    else:
        fn, hh = k.helper([h_ for h_ in UNARY if h_.name in INTEGRANDS])
        f_of_x, bound_of = f"wp.tile_map({fn}, x)", hh.mag(4.0)
    # session 47: the first moment, the integral of x f(x) (a distribution's mean by quadrature)
    moment = k.breadth.random() < MOMENT_SHARE
    if moment:
        k.features.append("first moment (x times the integrand)")
        bound_of *= 0.25 * max(BLOCK_COUNTS)  # x < blocks / 4
    k.emit(f"s = wp.tile_sum({f_of_x}{' * x' if moment else ''}{' * wts' if rule == 'trapezoid' else ''}) * {h}")
    outputs = rng.choice([("total",), ("partial",), ("partial", "total")])
    if "partial" in outputs:
        p = k.array(pick(rng, "pieces", "partials", "segment_integrals"), "output", (1,), True, bound=bound_of)
        k.emit(f"wp.tile_store({p}, s, offset=i)")
    if "total" in outputs:
        t = k.array(pick(rng, "integral", "total", "area"), "output", (1,), False, bound=bound_of * 16)
        k.emit(f"wp.tile_atomic_add({t}, s)")
    return "Integral over blocks of samples"


def transmittance(k: TileKernel, size: int, tile: str) -> str:
    rng = k.rng
    segments = rng.choice([1, 1, 2, 4])
    # the ray's optical depth about 1 whatever its length: a transmittance near e^-1, neither 0 nor 1
    samples = size * segments
    density = rng.random() < 0.4  # per-sample factors exp(-sigma dt) from a density, or 1 - alpha
    if density:
        values = k.array(pick(rng, "sigma", "density", "extinction"), "input", (samples,), True,
                         low=0.0, high=2.0)
        dt = k.constant(pick(rng, "DT", "STEP_LEN", "DS"), grid_constant(rng, 0.5, 2.0) / samples)
        form = k.breadth.choices(["product", "depth", "composite"], weights=[0.4, 0.3, 0.3])[0]
        if form != "product":
            return optical_depth(k, size, tile, segments, values, dt, form == "composite")
        fn = f"{k.name}_attenuation"
        k.helpers.append(f"@wp.func\ndef {fn}(s: float) -> float:\n    return wp.exp(-s * {dt})")
        k.features.append("factors exp(-sigma dt) from a density")
    else:
        values = k.array(pick(rng, "alpha", "opacity", "absorb"), "input", (samples,), True,
                         low=0.0, high=2.0 / samples, grid_bits=FINE_GRID_BITS)
        if k.breadth.random() < ALPHA_COMPOSITE_SHARE:
            return alpha_composite(k, size, tile, segments, values)
        fn = f"{k.name}_transmit"
        k.helpers.append(f"@wp.func\ndef {fn}(a: float) -> float:\n    return 1.0 - a")
    k.helper_names.append(fn)
    if segments == 1:
        k.emit(f"a = wp.tile_load({values}, shape={tile}, offset=i * {tile})")
        k.emit(f"t = wp.tile_reduce(wp.mul, wp.tile_map({fn}, a))")
    else:
        seg = k.constant(pick(rng, "SEGMENTS", "CHUNKS"), segments)
        k.emit("t = wp.tile_full(1, value=1.0, dtype=float)")
        k.emit(f"for p in range({seg}):")
        k.emit(f"    a = wp.tile_load({values}, shape={tile}, offset=(i * {seg} + p) * {tile})")
        k.emit(f"    t = t * wp.tile_reduce(wp.mul, wp.tile_map({fn}, a))")
        k.features.append(f"{segments} segments per ray from a tile_full of one")
    k.tile(size)
    out = k.array(pick(rng, "transmittance", "visibility", "survival"), "output", (1,), True)
    k.emit(f"{out}[i] = t[0]")
    if rng.random() < 0.5:
        opacity = k.array(pick(rng, "opacity_out", "coverage", "absorbed"), "output", (1,), True)
        k.emit(f"{opacity}[i] = 1.0 - t[0]")
    k.features.append("transmittance: product of per-sample factors (tile_reduce(wp.mul))")
    return "Transmittance of a ray per block"


ALPHA_COMPOSITE_SHARE = 0.4  # of the rays of alphas, from the breadth stream (session 47)


@dataclass(frozen=True)
class RayModel:
    """What a composited ray reads and writes, the rest being common (`composite_ray`): its colours'
    and pixel's names, its `@wp.func`s (name suffix, text with `{name}` for the kernel's prefix and
    `{dt}` for the step), the tile whose exclusive prefix sums give each sample's light (`scanned`,
    computed by `prelude`), the running sum carried across segments (`carry`, `carried_weights` the
    weight lines with it), the light left behind from that sum, the step of the expected depth and
    the ray's length in its units, the features."""
    colour_hints: tuple[str, ...]
    pixel_hints: tuple[str, ...]
    helpers: tuple[tuple[str, str], ...]
    tiles: int
    prelude: tuple[str, ...]
    scanned: str
    carry: str
    carried_weights: tuple[str, ...]
    light_left: str
    carried_feature: str
    feature: str


EMISSION_ABSORPTION = RayModel(
    colour_hints=("radiance", "emission", "emitted"), pixel_hints=("color", "pixel", "rendered"),
    helpers=(("sample_weight", "@wp.func\ndef {name}(before: float, s: float) -> float:\n"
                               "    # the light that reaches the sample times the share of it the sample absorbs\n"
                               "    return wp.exp(-before * {dt}) * (1.0 - wp.exp(-s * {dt}))"),),
    tiles=4, prelude=(), scanned="a", carry="depth",
    carried_weights=("before = wp.tile_scan_exclusive(a) + wp.tile_full({tile}, value=depth, dtype=float)",
                     "w = wp.tile_map({sample_weight}, before, a)"),
    light_left="wp.exp(-{total} * {dt})", carried_feature="the depth carried across them (tile_full)",
    feature="emission-absorption volume rendering: weights from the exclusive prefix sums of the density "
            "(tile_scan_exclusive)")

ALPHA_COMPOSITING = RayModel(
    colour_hints=("colors", "radiance", "shade"), pixel_hints=("pixel", "color_out", "composited"),
    helpers=(("log_transmit", "@wp.func\ndef {name}(a: float) -> float:\n    return wp.log(1.0 - a)"),
             ("composite_weight", "@wp.func\ndef {name}(log_before: float, a: float) -> float:\n"
                                  "    # the light left in front of the sample times the share of it the sample stops\n"
                                  "    return wp.exp(log_before) * a")),
    tiles=5, prelude=("la = wp.tile_map({log_transmit}, a)",), scanned="la", carry="log_t",
    carried_weights=("w = wp.tile_map({composite_weight}, wp.tile_scan_exclusive(la) + "
                     "wp.tile_full({tile}, value=log_t, dtype=float), a)",),
    light_left="wp.exp({total})", carried_feature="the log of the light left carried across them",
    feature="front-to-back alpha compositing: the light in front of each sample from the exclusive prefix sums "
            "of log(1 - alpha) (tile_scan_exclusive)")


def alpha_composite(k: TileKernel, size: int, tile: str, segments: int, alpha: str) -> str:
    """Front-to-back alpha compositing along a ray (as splatting and NeRF's alpha form render): each
    sample's colour weighted by its alpha and by the light left in front of it, the product of
    (1 - alpha) before it. Tiles scan sums only, so the product is a sum of logs: the exclusive prefix
    sums of log(1 - alpha), exponentiated; over several segments the log carried from one to the next."""
    return composite_ray(k, size, tile, segments, alpha, ALPHA_COMPOSITING, "", float(size * segments))


def composite_ray(k: TileKernel, size: int, tile: str, segments: int, samples: str, model: RayModel, dt: str,
                  ray_length: float) -> str:
    """A ray's colour: each sample's colour times its weight, the light reaching it (from the exclusive
    prefix sums of `model.scanned`) times the share it takes, summed along the ray; over segments, a
    loop with the running sum carried by a `tile_full` added to each segment's prefix sums. Beside it
    the maps drawn (`rendering_maps`) and, in some (always over segments), the light left behind."""
    rng = k.rng
    seg = k.constant(pick(rng, "SEGMENTS", "CHUNKS"), segments) if segments > 1 else ""
    where = f"(i * {seg} + p) * {tile}" if seg else f"i * {tile}"
    colors = k.array(pick(rng, *model.colour_hints), "input", (size * segments,), True, low=0.0, high=1.0)
    fns = {suffix: f"{k.name}_{suffix}" for suffix, _ in model.helpers}
    for suffix, text in model.helpers:
        k.helpers.append(text.format(name=fns[suffix], dt=dt))
        k.helper_names.append(fns[suffix])
    for _ in range(model.tiles):
        k.tile(size)
    pixel = k.array(pick(rng, *model.pixel_hints), "output", (1,), True)
    if seg:
        k.emit(f"{model.carry} = float(0.0)")
        k.emit("light = float(0.0)")
    maps = rendering_maps(k, seg)
    if seg:
        k.emit(f"for p in range({seg}):")
        k.indent += 1
    k.emit(f"a = wp.tile_load({samples}, shape={tile}, offset={where})")
    k.emit(f"c = wp.tile_load({colors}, shape={tile}, offset={where})")
    for line in model.prelude:
        k.emit(line.format(**fns))
    weight_fn = fns[model.helpers[-1][0]]
    if seg:
        for line in model.carried_weights:
            k.emit(line.format(tile=tile, **fns))
        k.emit("light += wp.tile_sum(w * c)[0]")
        accumulate_rendering_maps(k, maps, tile, seg)
        k.emit(f"{model.carry} += wp.tile_sum({model.scanned})[0]")
        k.indent -= 1
        k.emit(f"{pixel}[i] = light")
        k.features.append(f"{segments} segments per ray, {model.carried_feature}")
    else:
        k.emit(f"w = wp.tile_map({weight_fn}, wp.tile_scan_exclusive({model.scanned}), a)")
        accumulate_rendering_maps(k, maps, tile, seg)
        k.emit(f"{pixel}[i] = wp.tile_sum(w * c)[0]")
    store_rendering_maps(k, maps, dt, ray_length)
    k.features.append(model.feature)
    if seg or rng.random() < 0.5:
        out = k.array(pick(rng, "transmittance", "visibility", "background_weight"), "output", (1,), True)
        total = model.carry if seg else f"wp.tile_sum({model.scanned})[0]"
        k.emit(f"{out}[i] = {model.light_left.format(total=total, dt=dt)}")
        k.features.append("the light left behind the ray")
    return "Volume rendering of a ray per block"


RENDERING_MAPS = ((), (), ("acc",), ("depth",), ("acc", "depth"))


def rendering_maps(k: TileKernel, seg: str) -> tuple[str, ...]:
    """Which of the maps NeRF renders beside a colour this kernel stores too (the breadth stream):
    the accumulated opacity (the weights' sum) and the expected depth (the weights times each
    sample's distance along the ray). Over segments, their running sums start at zero here."""
    maps = k.breadth.choice(RENDERING_MAPS)
    if seg:
        for name in maps:
            k.emit(f"{'dist' if name == 'depth' else 'acc'} = float(0.0)")
    return maps


def accumulate_rendering_maps(k: TileKernel, maps: tuple[str, ...], tile: str, seg: str) -> None:
    """After the weights `w`: each map's part from this tile, the distances by `tile_arange` (from the
    segment's first sample), in samples."""
    for name in maps:
        if name == "depth":
            k.tile(64)
            positions = (f"(wp.tile_arange({tile}, dtype=float) + wp.tile_full({tile}, value=float(p * {tile}), "
                         f"dtype=float))" if seg else f"wp.tile_arange({tile}, dtype=float)")
            k.emit(f"dist {'+=' if seg else '='} wp.tile_sum(w * {positions})[0]")  # in samples
        else:
            k.emit(f"acc {'+=' if seg else '='} wp.tile_sum(w)[0]")


def store_rendering_maps(k: TileKernel, maps: tuple[str, ...], step: str, ray_length: float) -> None:
    """The maps stored, the depth times `step` (the distance between samples; none: in samples), once,
    after any loop (a module constant read in the loop and after it would be redrawn: warp_hazards)."""
    for name in maps:
        if name == "acc":
            out = k.array(pick(k.rng, "acc_map", "opacity_acc", "coverage"), "output", (1,), True)
            k.emit(f"{out}[i] = acc")
            k.features.append("the accumulated opacity")
        else:
            out = k.array(pick(k.rng, "depth_map", "expected_depth", "ray_depth"), "output", (1,), True,
                          bound=ray_length)
            k.emit(f"{out}[i] = dist" + (f" * {step}" if step else ""))
            k.features.append("the expected depth (tile_arange distances)")


def optical_depth(k: TileKernel, size: int, tile: str, segments: int, sigma: str, dt: str, composite: bool) -> str:
    """A ray through a density as a renderer writes it (session 47): the optical depth, the density's
    sum times the step, and exp(-depth) once, rather than a product of per-sample factors; or the
    emission-absorption model (NeRF's volume rendering), each sample's radiance weighted by the light
    reaching it (exp of the exclusive prefix sum of the depth before it, `tile_scan_exclusive`) times
    the share it absorbs, summed along the ray, across segments with the depth carried from one to the
    next (a `tile_full` of it added to the segment's prefix sums)."""
    if composite:
        return composite_ray(k, size, tile, segments, sigma, EMISSION_ABSORPTION, dt, 4.0)
    rng = k.rng
    seg = k.constant(pick(rng, "SEGMENTS", "CHUNKS"), segments) if segments > 1 else ""
    where = f"(i * {seg} + p) * {tile}" if seg else f"i * {tile}"
    k.tile(size)
    if seg:
        k.emit("depth = float(0.0)")
        k.emit(f"for p in range({seg}):")
        k.emit(f"    a = wp.tile_load({sigma}, shape={tile}, offset={where})")
        k.emit("    depth += wp.tile_sum(a)[0]")
        k.emit(f"tau = depth * {dt}")
        k.features.append(f"{segments} segments per ray")
    else:
        k.emit(f"a = wp.tile_load({sigma}, shape={tile}, offset={where})")
        k.emit(f"tau = wp.tile_sum(a)[0] * {dt}")
    k.emit("t = wp.exp(-tau)")
    k.features.append("transmittance exp(-optical depth), the depth by tile_sum")
    out = k.array(pick(rng, "transmittance", "visibility", "survival"), "output", (1,), True)
    k.emit(f"{out}[i] = t")
    extra = rng.choice(["opacity", "depth", "both", None])
    if extra in ("opacity", "both"):
        opacity = k.array(pick(rng, "opacity_out", "coverage", "absorbed"), "output", (1,), True)
        k.emit(f"{opacity}[i] = 1.0 - t")
    if extra in ("depth", "both"):
        depth = k.array(pick(rng, "optical_depth", "tau_out", "depth_out"), "output", (1,), True, bound=4.0)
        k.emit(f"{depth}[i] = tau")
        k.features.append("the optical depth")
    return "Transmittance of a ray per block"


# ---- gathers and sorts ------------------------------------------------------------------------------
GATHER_SORT_SHARE = 0.08  # of tiled kernels (about one kind's share), drawn from a stream of its own
COMBINERS = ("sum", "mean", "sqrtn")  # an embedding bag's pooling (TensorFlow's combiners)
PADDED_BAG_SHARE = 0.5  # bags with missing entries (negative indices: a row of zeros, as Warp's gather reads them)
ROW_VIEW_SHARE = 0.5  # rows loaded and stored through a view (`x[i]`) rather than a flat offset


def gather_sort(k: TileKernel) -> tuple[str, int]:
    """Rows gathered by a tile of indices (`wp.tile_load_indexed`) and tiles sorted with a payload
    (`wp.tile_sort`), in four uses of real code:
    - an embedding bag: each block pools the table rows its bag names (sum, mean or sum / sqrt(n), as
      TensorFlow's combiners), a negative index marking a missing entry in some (Warp's gather reads a
      row of zeros there, and the mean counts the entries present);
    - neighbour aggregation over a fixed-degree neighbour list (a k-nearest-neighbour graph): the mean
      or the largest of the neighbours' features added to the node's own, or the largest feature
      difference to them (an edge convolution's max);
    - top-k selection: a row of scores sorted with their indices (descending by sorting the negated
      scores; ascending for the k nearest by distance), the first k indices and values stored, and in
      a router the chosen experts' gates (softmax over the k scores);
    - order statistics of each block's samples: the median (and where it lies), quartiles, a
      trimmed mean (the samples outside the central ranks weighted 0 by a @wp.func of the rank);
    - and, drawn aside (a fifth of the kind), a block's histogram in shared memory by
      `wp.tile_scatter_add` (see `histogram`).
    Rows of 2-D arrays are read and written through views (`x[i]`) in about half."""
    rng = k.rng
    if k.gathers.random() < HISTOGRAM_SHARE:  # its own stream: the other uses keep their draws
        return histogram(k)
    use = rng.choice(["embedding_bag", "neighbours", "top_k", "order_statistics"])
    if use == "embedding_bag":
        return embedding_bag(k), rng.choice([32, 64, 128])
    if use == "neighbours":
        return neighbour_aggregation(k), rng.choice([32, 64, 128])
    if use == "top_k":
        return top_k(k)
    return order_statistics(k)


HISTOGRAM_SHARE = 0.2  # of the gathers-and-sorts kind
HISTOGRAM_BINS = (8, 16, 32, 64)


def histogram(k: TileKernel) -> tuple[str, int]:
    """A histogram per block in shared memory, the classic CUDA pattern: a `tile_zeros` of bins, each
    thread adding its values' bins by `wp.tile_scatter_add` (an atomic add into the shared tile; one
    value a thread, or a few in a loop of coalesced reads), then the bins merged into a global
    histogram (`wp.tile_atomic_add`) or stored per block (its cumulative counts by
    `tile_scan_inclusive` in some). Counts (int bins, 1 per value) or weights (float bins, a weight
    per value); values outside the range left out by `has_value`, or clamped into the end bins, or
    masked by a flag array. In RADIX_SHARE of them (a stream of their own), a radix sort's counting pass
    instead (`radix_digits`)."""
    if chooses_radix(k.seed):  # its own stream: the other histograms keep their draws
        return radix_digits(k)
    rng = k.rng
    block_dim = rng.choice([64, 128, 256])
    nbins = rng.choice(HISTOGRAM_BINS)
    per_thread = rng.choice([1, 1, 2, 4])
    B, NB = k.constant(pick(rng, "BLOCK", "THREADS"), block_dim), k.constant(pick(rng, "BINS", "NUM_BINS"), nbins)
    lo, hi = rng.choice([(0.0, 1.0), (-1.0, 1.0), (0.0, 4.0), (-2.0, 2.0)])
    outside = rng.choice(["skip", "clamp", "mask"])
    # values over a range a fifth wider than the bins' where some fall outside them
    span = (hi - lo) * (1.25 if outside == "skip" else 1.0)
    x = k.array(pick(rng, "x", "values", "samples"), "input", (block_dim * per_thread,), True, low=lo,
                high=lo + span)
    weighted = rng.random() < 0.35
    w = k.array(pick(rng, "w", "weights"), "input", (block_dim * per_thread,), True, low=0.0, high=1.0) if weighted else None
    flags = k.array(pick(rng, "valid", "mask"), "index", (block_dim * per_thread,), True, low=0, high=1,
                    dtype="int32") if outside == "mask" else None
    k.lines[0] = "i, lane = wp.tid()"
    k.tile(nbins)
    k.emit(f"bins = wp.tile_zeros(shape={NB}, dtype={'float' if weighted else 'int'}, storage=\"shared\")")
    scale = (nbins / (hi - lo))
    origin = f"(v + {fmt_float(-lo)})" if lo < 0.0 else "v"
    if per_thread > 1:
        P = k.constant(pick(rng, "PER_THREAD", "ITEMS"), per_thread)
        k.emit(f"for k in range({P}):")
        k.indent += 1
        at = f"(i * {P} + k) * {B} + lane"
    else:
        at = f"i * {B} + lane"
    k.emit(f"j = {at}")
    k.emit(f"v = {x}[j]")
    scaled = f"{origin} * {fmt_float(scale)}"
    if outside == "clamp":
        k.emit(f"b = wp.clamp(int({scaled}), 0, {k.less_one(NB)})")
        has = "True"
        k.features.append("values clamped into the end bins")
    else:
        k.emit(f"b = wp.min(int({scaled}), {k.less_one(NB)})")
        if outside == "skip":
            has = f"v < {fmt_float(hi)}"
            k.features.append("values past the range left out (has_value)")
        else:
            has = f"{flags}[j] != 0"
            k.features.append("values masked by a flag array (has_value)")
    value = f"{w}[j]" if weighted else "1"
    k.emit(f"wp.tile_scatter_add(bins, b, {value}, {has})")
    if per_thread > 1:
        k.indent -= 1
        k.features.append(f"{per_thread} values a thread (coalesced)")
    k.features.append(f"{'weighted ' if weighted else ''}histogram in shared memory (tile_scatter_add)")
    dtype = "float32" if weighted else "int32"
    merge = rng.choice(["global", "per_block", "cumulative"] if not weighted else ["global", "per_block"])
    count_bound = float(block_dim * per_thread)
    if merge == "global":
        out = k.array(pick(rng, "hist", "histogram", "counts"), "output", (nbins,), False,
                      bound=count_bound * max(BLOCK_COUNTS), dtype=dtype)
        k.emit(f"wp.tile_atomic_add({out}, bins)")
        k.features.append("merged into one histogram (tile_atomic_add)")
    else:
        out = k.array(pick(rng, "block_hist", "block_counts", "local_hist"), "output", (1, nbins), True,
                      bound=count_bound, dtype=dtype)
        if merge == "cumulative":
            k.emit(f"wp.tile_store({out}[i], wp.tile_scan_inclusive(bins))")
            k.features.append("each block's cumulative counts (tile_scan_inclusive)")
        else:
            k.emit(f"wp.tile_store({out}[i], bins)")
            k.features.append("each block's histogram stored")
    return "Histogram of each block's values in shared memory", block_dim


RADIX_SHARE = 0.3  # of the histogram kind (session 44)


def chooses_radix(seed: int) -> bool:
    """Whether a histogram kernel is a radix sort's counting pass: a stream of its own."""
    return random.Random(seed ^ 0x4AD1).random() < RADIX_SHARE


def radix_digits(k: TileKernel) -> tuple[str, int]:
    """The counting pass of a radix sort (the upsweep of CUB's radix sort and of Onesweep): each thread
    reads its uint32 keys (one, or a few in a coalesced loop), takes the pass's digit,
    `(key >> shift) & (RADIX - 1)` (the shift a kernel parameter, as the host's loop over the passes
    passes it, or a module constant), and counts it in a block histogram in shared memory
    (`wp.tile_scatter_add`). Stored: the block's digit counts (for the scan across blocks), their
    exclusive prefix sums (each digit's first slot within the block, `tile_scan_exclusive`), both, or
    the counts merged into the global digit counts (`tile_atomic_add`)."""
    rng = k.variant
    block_dim = rng.choice([64, 128, 256])
    per_thread = rng.choice([1, 2, 4])
    digit_bits = rng.choice([4, 4, 8])
    key_bits = rng.choice([16, 24])
    radix = 1 << digit_bits
    u = "wp.uint32"
    B = k.constant(pick(rng, "BLOCK", "THREADS"), block_dim)
    R = k.constant(pick(rng, "RADIX", "NUM_DIGITS", "BUCKETS"), radix)
    keys = k.array(pick(rng, "keys", "keys_in", "sort_keys"), "input", (block_dim * per_thread,), True, low=0,
                   high=(1 << key_bits) - 1, dtype="uint32", grid_bits=0, draws=rng)
    shift_value = rng.randrange(0, key_bits, digit_bits)
    if rng.random() < 0.6:  # the pass's shift from the host, as a loop over passes launches it
        shift = k.scalar(pick(rng, "shift", "bit_offset", "pass_shift"), shift_value, "int32")
        k.features.append(f"the pass's shift a parameter ({shift_value})")
    else:
        shift = k.constant(pick(rng, "SHIFT", "DIGIT_SHIFT"), shift_value)
        k.features.append(f"the pass's shift a constant ({shift_value})")
    k.lines[0] = "i, lane = wp.tid()"
    k.tile(radix)
    k.emit(f"counts = wp.tile_zeros(shape={R}, dtype=int, storage=\"shared\")")
    if per_thread > 1:
        P = k.constant(pick(rng, "ITEMS", "KEYS_PER_THREAD"), per_thread)
        k.emit(f"for k in range({P}):")
        k.indent += 1
        at = f"(i * {P} + k) * {B} + lane"
        k.features.append(f"{per_thread} keys a thread (coalesced)")
    else:
        at = f"i * {B} + lane"
    k.emit(f"key = {keys}[{at}]")
    k.emit(f"digit = int((key >> {u}({shift})) & {u}({k.less_one(R)}))")
    k.emit("wp.tile_scatter_add(counts, digit, 1, True)")
    if per_thread > 1:
        k.indent -= 1
    k.features.append(f"{digit_bits}-bit digits of {key_bits}-bit uint32 keys counted in shared memory (tile_scatter_add)")
    stored = rng.choice(["counts", "offsets", "both", "global"])
    per_block = float(block_dim * per_thread)
    if stored in ("counts", "both"):
        out = k.array(pick(rng, "block_counts", "digit_counts", "histograms"), "output", (1, radix), True,
                      bound=per_block, dtype="int32", draws=rng)
        k.emit(f"wp.tile_store({out}[i], counts)")
        k.features.append("the block's digit counts stored")
    if stored in ("offsets", "both"):
        out = k.array(pick(rng, "digit_offsets", "block_offsets", "local_offsets"), "output", (1, radix), True,
                      bound=per_block, dtype="int32", draws=rng)
        k.tile(radix)
        k.emit(f"wp.tile_store({out}[i], wp.tile_scan_exclusive(counts))")
        k.features.append("each digit's first slot in the block (tile_scan_exclusive)")
    if stored == "global":
        out = k.array(pick(rng, "global_counts", "digit_totals"), "output", (radix,), False,
                      bound=per_block * max(BLOCK_COUNTS), dtype="int32", draws=rng)
        k.emit(f"wp.tile_atomic_add({out}, counts)")
        k.features.append("merged into the global digit counts (tile_atomic_add)")
    return "Radix sort counting pass: digit histograms per block", block_dim


COMPACTION_SHARE = 0.07  # of tiled kernels, drawn from a stream of their own (session 43)
COMPACTION_ROWS_SHARE = 0.4  # of compactions: outputs a row per block, written through views (`kept[i]`)
COMPACTION_THRESHOLDS = (-0.5, 0.0, 0.25, 0.5)  # inputs in [-1, 1]: a quarter to three quarters kept


BLOCK_SCAN_SHARE = 0.2  # of the compaction kind: a block's prefix sums of values, the first pass of a device-wide scan


def block_scan(k: TileKernel) -> tuple[str, int]:
    """Prefix sums of each block's values, the first pass of a device-wide scan (CUB's BlockScan, then
    the blocks' totals scanned and added in a second pass): `tile_scan_inclusive` or `_exclusive` of
    the values (or of their magnitudes) stored in place of the block's part, and the block's total
    for the next pass, by `tile_sum` or as the last inclusive sum read by the block's last thread. The
    inputs lie on the kernel's grid, so every partial sum is exact in float32, in any order."""
    form = k.breadth.choices(["first", "cdf", "second"], weights=[0.5, 0.25, 0.25])[0]  # session 47
    if form == "cdf":
        return block_cdf(k)
    if form == "second":
        return scan_second_pass(k)
    rng = k.rng
    size = rng.choice([64, 128, 256])
    block_dim = rng.choice([size, 64]) if size > 64 else size
    T = k.constant(pick(rng, "TILE", "TILE_SIZE", "BLOCK_ITEMS"), size)
    # int counts (a row's length, a bin's count) scanned into offsets, as a CSR or a bucket sort builds
    # them, or float values into running sums
    counts = random.Random(k.seed ^ 0xC0C0).random() < 0.4
    dtype = "int32" if counts else "float32"
    if counts:
        values = k.array(pick(rng, "counts", "sizes", "lengths"), "index", (size,), True, low=0, high=8, dtype="int32")
        k.features.append("int counts")
    else:
        values = k.array(pick(rng, "values", "x", "data", "weights"), "input", (size,), True)
    k.tile(size)
    k.emit(f"v = wp.tile_load({values}, shape={T}, offset=i * {T})")
    if not counts and rng.random() < 0.3:  # a cumulative distribution of magnitudes
        k.tile(size)
        k.emit("v = wp.tile_map(wp.abs, v)")
        k.features.append("of magnitudes (tile_map(wp.abs))")
    inclusive = rng.random() < (0.3 if counts else 0.6)  # offsets are exclusive sums
    kind = "inclusive" if inclusive else "exclusive"
    k.tile(size)
    k.tile(size)
    k.emit(f"s = wp.tile_scan_{kind}(v)")
    names = ("offsets", "starts", "row_start") if counts and not inclusive else ("prefix", "cumsum", "running_sum")
    bound = float(8 * size if counts else size)
    out = k.array(pick(rng, *names), "output", (size,), True, bound=bound, dtype=dtype)
    k.emit(f"wp.tile_store({out}, s, offset=i * {T})")
    k.features.append(f"{kind} prefix sums (tile_scan_{kind})")
    totals = k.array(pick(rng, "block_sums", "block_totals", "partials"), "output", (1,), True, bound=bound, dtype=dtype)
    if inclusive and rng.random() < 0.5:
        k.lines[0] = "i, lane = wp.tid()"
        k.emit("if lane == wp.block_dim() - 1:")
        k.emit(f"    {totals}[i] = wp.tile_extract(s, {k.less_one(T)})")
        k.features.append("the block's total from its last prefix sum, written by its last thread")
    else:
        k.tile(1)
        k.emit(f"wp.tile_store({totals}, wp.tile_sum(v), offset=i)")
        k.features.append("the block's total by tile_sum")
    return "Prefix sums within blocks (the first pass of a device-wide scan)", block_dim


def scan_second_pass(k: TileKernel) -> tuple[str, int]:
    """The second pass of a device-wide scan (CUB's and Thrust's "uniform add"): each block's prefix
    sums from the first pass, plus the sum of the blocks before it. That offset is given (the
    exclusive scan of the blocks' totals, from a pass over the totals), or, for a grid of few blocks,
    summed by the block itself from the totals in a loop. In place (as the scan's own buffer is
    updated), or into an output."""
    rng = k.rng
    size = rng.choice([64, 128, 256])
    block_dim = rng.choice([size, 64]) if size > 64 else size
    T = k.constant(pick(rng, "TILE", "TILE_SIZE", "BLOCK_ITEMS"), size)
    counts = rng.random() < 0.4  # offsets of int counts, or running sums of floats
    dtype, zero = ("int32", "int(0)") if counts else ("float32", "float(0.0)")
    bound = float(8 * size * max(BLOCK_COUNTS) if counts else size * max(BLOCK_COUNTS))
    in_place = rng.random() < 0.4
    role = "inout" if in_place else ("index" if counts else "input")
    scanned = k.array(pick(rng, "prefix", "scan", "partial_scan"), role, (size,), True, low=0 if counts else -1.0,
                      high=8 * size if counts else float(size), dtype=dtype, bound=bound)
    given = rng.random() < 0.6
    if given:
        carry = k.array(pick(rng, "block_offsets", "carry_in", "scanned_totals"), "index" if counts else "input",
                        (1,), True, low=0 if counts else -1.0, high=8 * size * max(BLOCK_COUNTS) if counts else float(size),
                        dtype=dtype)
        base = f"{carry}[i]"
        k.features.append("the offset of each block given (the blocks' totals scanned)")
    else:
        totals = k.array(pick(rng, "block_sums", "block_totals", "partials"), "index" if counts else "input",
                         (1,), True, low=0 if counts else -1.0, high=8 * size if counts else float(size), dtype=dtype)
        k.emit(f"base = {zero}")
        k.emit("for b in range(i):")
        k.emit(f"    base += {totals}[b]")
        base = "base"
        k.features.append("the offset of each block summed from the totals of the blocks before it (few blocks)")
    k.tile(size)
    k.tile(size)
    out = scanned if in_place else k.array(pick(rng, "scan_out", "cumsum", "running_sum") if not counts else
                                           pick(rng, "offsets", "starts", "row_start"), "output", (size,), True,
                                           bound=bound, dtype=dtype)
    k.emit(f"s = wp.tile_load({scanned}, shape={T}, offset=i * {T})")
    spelled = "int" if counts else "float"
    k.emit(f"wp.tile_store({out}, s + wp.tile_full({T}, value={base}, dtype={spelled}), offset=i * {T})")
    k.features.append("the second pass of a device-wide scan (tile_full of the block's offset added)" +
                      (", in place" if in_place else ""))
    if counts:
        k.features.append("int counts")
    return "Prefix sums across blocks (the second pass of a device-wide scan)", block_dim


def block_cdf(k: TileKernel) -> tuple[str, int]:
    """A block's cumulative distribution: the inclusive prefix sums of its weights (or their
    magnitudes) divided by their total, as inverse-transform sampling builds one; in some, one sample
    drawn per block by inverse transform (the count of CDF entries below a uniform number)."""
    rng = k.rng
    size = rng.choice([64, 128, 256])
    block_dim = rng.choice([size, 64]) if size > 64 else size
    T = k.constant(pick(rng, "TILE", "BINS", "BLOCK_ITEMS"), size)
    magnitudes = rng.random() < 0.4
    weights = k.array(pick(rng, "weights", "pdf", "importance"), "input", (size,), True,
                      low=-1.0 if magnitudes else 0.0, high=1.0)
    for _ in range(3):
        k.tile(size)
    k.emit(f"v = wp.tile_load({weights}, shape={T}, offset=i * {T})")
    if magnitudes:
        k.emit("v = wp.tile_map(wp.abs, v)")
        k.features.append("of magnitudes (tile_map(wp.abs))")
    k.emit("s = wp.tile_scan_inclusive(v)")
    k.emit(f"total = wp.tile_extract(s, {k.less_one(T)})")
    k.emit("cdf = s * (1.0 / total)")
    out = k.array(pick(rng, "cdf_out", "cumulative", "block_cdf"), "output", (size,), True)
    k.emit(f"wp.tile_store({out}, cdf, offset=i * {T})")
    k.features.append("the block's CDF: inclusive prefix sums (tile_scan_inclusive) over their total")
    if rng.random() < 0.5:
        u = k.array(pick(rng, "u", "uniform", "xi"), "input", (1,), True, low=0.0, high=1.0)
        k.move_before(u, out)
        fn = f"{k.name}_is_below"
        k.helpers.append(f"@wp.func\ndef {fn}(c: float, u: float) -> int:\n    if c < u:\n        return 1\n    return 0")
        k.helper_names.append(fn)
        k.tile(size)
        picked = k.array(pick(rng, "sample_idx", "drawn", "chosen"), "output", (1,), True, dtype="int32",
                         bound=float(size * max(BLOCK_COUNTS)))
        k.emit(f"below = wp.tile_sum(wp.tile_map({fn}, cdf, wp.tile_full({T}, value={u}[i], dtype=float)))[0]")
        k.emit(f"{picked}[i] = i * {T} + wp.min(below, {k.less_one(T)})")
        k.features.append("a sample drawn per block by inverse transform (the count of CDF entries below u)")
    if rng.random() < 0.4:
        tot = k.array(pick(rng, "block_sums", "block_totals", "norms"), "output", (1,), True, bound=float(size))
        k.emit(f"{tot}[i] = total")
        k.features.append("the block's total")
    return "Cumulative distribution within blocks (tile_scan_inclusive)", block_dim


def chooses_compaction(seed: int) -> bool:
    """Whether a tiled kernel (not drawn as positions or gathers) is a compaction: a stream of its own,
    so the kernels it does not take keep every draw."""
    return random.Random(seed ^ 0xC0AC7).random() < COMPACTION_SHARE


def compaction(k: TileKernel) -> tuple[str, int]:
    """Stream compaction within each block, as Warp's tile example (example_tile_stream_compaction)
    and CUDA's scan-based filters write it: a 0/1 flag per element (a predicate of the value by
    `tile_map`, or a mask array), the flags' prefix sums (`tile_scan_inclusive`, or exclusive), each
    kept element's place from a `@wp.func` of its flag, its rank and the block's base (-1 for the
    others, which `wp.tile_store_indexed` skips), then the kept values and/or their indices scattered
    to the block's segment, and the block's count: `tile_sum` of the flags, or the last prefix sum
    read by one thread (`wp.tile_extract`; `lane == wp.block_dim() - 1`), sometimes also added to a
    global total. Each block writes only its own segment, so the output does not depend on the order
    the blocks run in (a global offset by `atomic_add`, as the example does, would)."""
    if random.Random(k.seed ^ 0x5CA7).random() < BLOCK_SCAN_SHARE:  # its own stream: compactions keep their draws
        return block_scan(k)
    rng = k.rng
    size = rng.choice([64, 128, 256])
    block_dim = rng.choice([size, size, 64]) if size > 64 else size
    T = k.constant(pick(rng, "TILE", "TILE_SIZE", "BLOCK_ITEMS"), size)
    predicate = rng.choice(["threshold", "magnitude", "band", "mask"])
    values = k.array(pick(rng, "values", "data", "scores", "samples"), "input", (size,), True)
    k.tile(size)
    k.emit(f"x = wp.tile_load({values}, shape={T}, offset=i * {T})")
    if predicate == "mask":
        mask = k.array(pick(rng, "is_valid", "mask", "active"), "index", (size,), True, low=0, high=1,
                       dtype="int32")
        k.emit(f"flags = wp.tile_load({mask}, shape={T}, offset=i * {T})")
        k.features.append("kept where a 0/1 mask is set")
        flag_test = "flag == 1"
    else:
        if predicate == "threshold":
            limit = k.constant(pick(rng, "THRESHOLD", "CUTOFF", "MIN_VALUE"), rng.choice(COMPACTION_THRESHOLDS))
            test, hint = f"x > {limit}", "above"
            k.features.append("values above a threshold kept")
        elif predicate == "magnitude":
            limit = k.constant(pick(rng, "EPS", "TOLERANCE", "MIN_MAGNITUDE"), rng.choice([0.25, 0.5]))
            test, hint = f"wp.abs(x) > {limit}", "significant"
            k.features.append("values of magnitude above a tolerance kept (sparsification)")
        else:
            low, high = rng.choice([(-0.5, 0.5), (0.0, 0.75), (-0.75, 0.25)])
            names = rng.choice([("LOWER", "UPPER"), ("LO", "HI"), ("RANGE_MIN", "RANGE_MAX")])
            lo, hi = k.constant(names[0], low), k.constant(names[1], high)
            test, hint = f"x >= {lo} and x <= {hi}", "in_range"
            k.features.append("values within a range kept")
        keep = f"{k.name}_{hint}"
        k.helpers.append(f"@wp.func\ndef {keep}(x: float) -> int:\n    if {test}:\n        return 1\n    return 0")
        k.helper_names.append(keep)
        k.emit(f"flags = wp.tile_map({keep}, x)")
        flag_test = rng.choice(["flag == 1", "flag != 0"])
    k.tile(size)
    inclusive = rng.random() < 0.7
    k.tile(size)
    k.tile(size)  # the scan's step buffer
    k.emit(f"rank = wp.tile_scan_{'inclusive' if inclusive else 'exclusive'}(flags)")
    k.features.append(f"ranks by {'inclusive' if inclusive else 'exclusive'} prefix sums (tile_scan_{'inclusive' if inclusive else 'exclusive'})")
    place = f"{k.name}_{pick(rng, 'slot', 'out_index', 'write_pos', 'compact_index')}"
    stored = rng.choice(["values", "values", "indices", "both"])
    # the outputs a row per block, written through views (`kept[i]`): places within the row need no base
    rows = k.variant.random() < COMPACTION_ROWS_SHARE
    rank_at = ("rank - 1" if inclusive else "rank") if rows else ("base + rank - 1" if inclusive else "base + rank")
    params = "flag: int, rank: int" + ("" if rows else ", base: int")
    k.helpers.append(f"@wp.func\ndef {place}({params}) -> int:\n    if {flag_test}:\n"
                     f"        return {rank_at}\n    return -1")
    k.helper_names.append(place)
    k.tile(size)
    k.tile(size)
    base = f"base = wp.tile_full(shape={T}, value=i * {T}, dtype=int)"  # the block's first index
    if not rows:
        k.emit(base)
    k.emit(f"dest = wp.tile_map({place}, flags, rank{'' if rows else ', base'})")
    shape, at = ((1, size), "[i]") if rows else ((size,), "")
    if rows:
        k.features.append("a row of outputs per block (views)")
    if stored in ("values", "both"):
        kept = k.array(pick(rng, "kept", "compacted", "selected"), "output", shape, True)
        k.emit(f"wp.tile_store_indexed({kept}{at}, dest, x, axis=0)")
    if stored in ("indices", "both"):
        ids = k.array(pick(rng, "kept_ids", "selected_idx", "indices_out"), "output", shape, True,
                      bound=float(size * max(BLOCK_COUNTS)), dtype="int32")
        k.tile(size)
        if rows:
            k.emit(base)
        k.emit(f"ids = wp.tile_arange({T}, dtype=int) + base")
        k.emit(f"wp.tile_store_indexed({ids}{at}, dest, ids, axis=0)")
    k.features.append({"values": "kept values scattered to the block's segment (tile_store_indexed)",
                       "indices": "kept elements' indices scattered (tile_store_indexed of tile_arange + base)",
                       "both": "kept values and their indices scattered (tile_store_indexed)"}[stored])
    counts = k.array(pick(rng, "counts", "block_counts", "num_kept"), "output", (1,), True, bound=float(size),
                     dtype="int32")
    with_total = rng.random() < 0.35
    total = k.array(pick(rng, "total", "num_selected"), "output", (1,), False,
                    bound=float(size * max(BLOCK_COUNTS)), dtype="int32") if with_total else None
    if not inclusive or rng.random() < 0.35:  # else the last prefix sum, as the example reads it
        k.tile(1)
        k.emit("n = wp.tile_sum(flags)")
        k.emit(f"wp.tile_store({counts}, n, offset=i)")
        if total:
            k.emit(f"wp.tile_atomic_add({total}, n)")
        k.features.append("the block's count by tile_sum")
    else:
        k.lines[0] = "i, lane = wp.tid()"  # the thread that writes the count
        writer = rng.choice(["lane == wp.block_dim() - 1", "lane == wp.block_dim() - 1", "lane == 0"])  # the example's
        k.emit(f"if {writer}:")
        k.emit(f"    n = wp.tile_extract(rank, {k.less_one(T)})")
        k.emit(f"    {counts}[i] = n")
        if total:
            k.emit(f"    wp.atomic_add({total}, 0, n)")
        k.features.append("the block's count from its last prefix sum, written by one thread (tile_extract)")
    if total:
        k.features.append("a global count")
    return "Stream compaction within blocks (prefix sums of keep flags, scattered writes)", block_dim


SPATIAL_SORT_SHARE = 0.05  # of tiled kernels, drawn from a stream of their own (session 44)
SPATIAL_LINEAR_SHARE = 0.3  # of those: by the cell's linear index instead of its Morton code
# Bit interleaving of an integer cell coordinate (at most 10 bits) into every second or third bit: the
# shift-and-mask sequence of Morton encoders (libmorton, LBVH builders), and for three dimensions also
# Karras's multiply-and-mask form (Karras 2012, "Maximizing parallelism in the construction of BVHs")
SPREAD_2D = ((8, "0x00FF00FF"), (4, "0x0F0F0F0F"), (2, "0x33333333"), (1, "0x55555555"))
SPREAD_3D = ((16, "0x030000FF"), (8, "0x0300F00F"), (4, "0x030C30C3"), (2, "0x09249249"))
SPREAD_3D_MULTIPLY = (("0x00010001", "0xFF0000FF"), ("0x00000101", "0x0F00F00F"), ("0x00000011", "0xC30C30C3"),
                      ("0x00000005", "0x49249249"))
SPATIAL_DOMAINS = ((-1.0, 1.0), (0.0, 1.0), (-2.0, 2.0))  # the points' box, the same along every axis


def chooses_spatial_sort(seed: int) -> bool:
    """Whether a tiled kernel (not drawn as positions, gathers or a compaction) sorts points by Morton
    code: a stream of its own, so the kernels it does not take keep every draw."""
    return random.Random(seed ^ 0x30A70).random() < SPATIAL_SORT_SHARE


def spatial_sort(k: TileKernel) -> tuple[str, int]:
    """Points sorted along a Morton (Z-order) curve within each block, the first step of an LBVH build
    and of the particle reorderings that make neighbour searches coalesce: each thread quantises its
    point to an integer cell (a `@wp.func`), interleaves the cell's bits into a uint32 code (shifts and
    masks, or Karras's multiplies; in SPATIAL_LINEAR_SHARE the cell's linear index instead, x fastest,
    as CUDA's particles sample hashes its grid), and appends its lane below the code so that every key
    of the block is distinct (as Karras does to break ties: equal keys would leave the order to the sort). The keys
    become a uint32 tile (`wp.tile`) sorted with the points' indices (`wp.tile_sort`). Stored: the
    sorted keys or their codes (`tile_map` of a shift), the permutation, and in some the points
    gathered in sorted order or each sorted point's flag of starting a new cell (its code differs from
    the one before it: the cell starts of a grid built by sorting)."""
    rng = k.variant
    dims = rng.choice([2, 3, 3])
    block_dim = rng.choice([64, 128, 256])
    lane_bits = block_dim.bit_length() - 1
    extra = rng.choice(["none", "gather", "starts"])
    # cells per axis: fine (dims * bits + lane_bits <= 32: every key fits a uint32), or, where the kernel
    # marks the cells' starts, about as many cells as the block has points (a grid's cell as wide as the
    # interaction radius: many points share one, as in a neighbour search's grid)
    bits = (10 if dims == 2 else 8) if extra != "starts" else max(1, round(math.log2(block_dim) / dims))
    lo, hi = rng.choice(SPATIAL_DOMAINS)
    res = 1 << bits
    B = k.constant(pick(rng, "BLOCK", "THREADS", "BLOCK_SIZE"), block_dim)
    LB = k.constant(pick(rng, "LANE_BITS", "INDEX_BITS"), lane_bits)
    RES = k.constant(pick(rng, "GRID_RES", "CELLS", "RESOLUTION"), res)
    u = "wp.uint32"
    pts = k.array(pick(rng, "points", "positions", "x"), "input", (block_dim,), True, low=lo, high=hi,
                  dtype=f"vec{dims}", draws=rng)
    # the cell of one coordinate: the box's side split into RES cells, the far face clamped into the last
    quantize = f"{k.name}_{pick(rng, 'quantize', 'cell_coord', 'to_grid')}"
    origin = "x" if lo == 0.0 else f"(x - {fmt_float(lo)})" if lo > 0.0 else f"(x + {fmt_float(-lo)})"
    # cells a unit wide (as many as the box is long) need no factor: `* 1.0` is no code anyone writes
    cells = origin.strip("()") if res == hi - lo else f"{origin} * {fmt_float(res / (hi - lo))}"
    k.helpers.append(f"@wp.func\ndef {quantize}(x: float) -> {u}:\n"
                     f"    c = int({cells})\n"
                     f"    return {u}(wp.clamp(c, 0, {k.less_one(RES)}))")
    k.helper_names.append(quantize)
    k.lines[0] = "i, lane = wp.tid()"
    k.emit(f"p = {pts}[i * {B} + lane]")
    axes = "xyz"[:dims]
    if rng.random() < SPATIAL_LINEAR_SHARE:  # the cell's linear index, x fastest (CUDA's particles sample)
        for a, name in enumerate(axes):
            k.emit(f"c{name} = {quantize}(p[{a}])")
        if rng.random() < 0.5:
            k.emit(f"code = (cz * {u}({RES}) + cy) * {u}({RES}) + cx" if dims == 3 else f"code = cy * {u}({RES}) + cx")
        else:
            k.emit(f"code = (cz << {u}({2 * bits})) | (cy << {u}({bits})) | cx" if dims == 3
                   else f"code = (cy << {u}({bits})) | cx")
        k.features.append(f"{dims}-D linear cell index, {bits} bits per axis")
        summary = "Points sorted by grid cell within blocks (uint32 keys)"
    else:
        spread = f"{k.name}_{pick(rng, 'spread_bits', 'expand_bits', 'part_bits')}"
        multiply = dims == 3 and rng.random() < 0.4
        # the first step reads the parameter, the others the local (a parameter is never assigned)
        if multiply:
            steps = [f"    v = ({'c' if n == 0 else 'v'} * {u}({m})) & {u}({mask})"
                     for n, (m, mask) in enumerate(SPREAD_3D_MULTIPLY)]
        else:
            steps = [f"    v = ({'c' if n == 0 else 'v'} | ({'c' if n == 0 else 'v'} << {u}({shift}))) & {u}({mask})"
                     for n, (shift, mask) in enumerate(SPREAD_2D if dims == 2 else SPREAD_3D)]
        k.helpers.append(f"@wp.func\ndef {spread}(c: {u}) -> {u}:\n" + "\n".join(steps) + "\n    return v")
        k.helper_names.append(spread)
        k.features.append(f"{dims}-D Morton codes, {bits} bits per axis ({'multiplies' if multiply else 'shifts'} and masks)")
        for a, name in enumerate(axes):
            k.emit(f"c{name} = {spread}({quantize}(p[{a}]))")
        if dims == 2:
            k.emit(f"code = (cx << {u}(1)) | cy")
        else:
            k.emit(f"code = (cx << {u}(2)) | (cy << {u}(1)) | cz")
        summary = "Points sorted by Morton code within blocks (uint32 keys)"
    if rng.random() < 0.5:
        k.emit(f"key = (code << {u}({LB})) | {u}(lane)  # the lane below the code: distinct keys")
    else:
        k.emit(f"key = code * {u}({B}) + {u}(lane)  # the lane below the code: distinct keys")
    k.tile(block_dim)
    k.tile(block_dim)
    k.emit("keys = wp.tile(key)")
    k.emit(f"ids = wp.tile(i * {B} + lane)")
    k.emit("wp.tile_sort(keys, ids)")
    k.features.append("uint32 keys sorted with the point indices (wp.tile, tile_sort)")
    key_bound = float(1 << (dims * bits + lane_bits))
    if rng.random() < 0.4:
        cell = f"{k.name}_{pick(rng, 'code_of', 'cell_code', 'strip_lane')}"
        k.helpers.append(f"@wp.func\ndef {cell}(key: {u}) -> {u}:\n    return key >> {u}({LB})")
        k.helper_names.append(cell)
        codes = k.array(pick(rng, "sorted_codes", "morton_codes", "codes"), "output", (1, block_dim), True,
                        bound=float(1 << (dims * bits)), dtype="uint32", draws=rng)
        k.tile(block_dim)
        k.emit(f"wp.tile_store({codes}[i], wp.tile_map({cell}, keys))")
        k.features.append("the sorted codes stored (tile_map of a shift)")
    else:
        out = k.array(pick(rng, "sorted_keys", "keys_out", "morton_keys"), "output", (1, block_dim), True,
                      bound=key_bound, dtype="uint32", draws=rng)
        k.emit(f"wp.tile_store({out}[i], keys)")
        k.features.append("the sorted keys stored")
    order = k.array(pick(rng, "order", "permutation", "sorted_ids"), "output", (1, block_dim), True,
                    bound=float(block_dim * max(BLOCK_COUNTS)), dtype="int32", draws=rng)
    k.emit(f"wp.tile_store({order}[i], ids)")
    if extra == "gather":
        moved = k.array(pick(rng, "sorted_points", "reordered", "points_out"), "output", (block_dim,), True,
                        bound=max(abs(lo), abs(hi)), dtype=f"vec{dims}", draws=rng)
        k.emit("src = wp.tile_extract(ids, lane)")
        k.emit(f"{moved}[i * {B} + lane] = {pts}[src]")
        k.features.append("the points gathered in sorted order (tile_extract of the permutation)")
    elif extra == "starts":
        starts = k.array(pick(rng, "cell_start", "is_first", "new_cell"), "output", (1, block_dim), True,
                         bound=1.0, dtype="int32", draws=rng)
        k.emit(f"mine = wp.tile_extract(keys, lane) >> {u}({LB})")
        k.emit("first = 1")
        k.emit("if lane > 0:")
        k.emit(f"    if wp.tile_extract(keys, lane - 1) >> {u}({LB}) == mine:")
        k.emit("        first = 0")
        k.emit(f"{starts}[i, lane] = first")
        k.features.append("each sorted point's flag of starting a new cell")
    return summary, block_dim


def load_row(k: TileKernel, array: str, size: str, flat: bool) -> str:
    """Block i's row of a 2-D array as a 1-D tile (a view), or its part of a flat array."""
    return f"wp.tile_load({array}, shape={size}, offset=i * {size})" if flat else f"wp.tile_load({array}[i], shape={size})"


def embedding_bag(k: TileKernel) -> str:
    rng = k.rng
    vocab, width, bag = rng.choice([256, 512, 1000, 2048]), rng.choice([16, 32, 64]), rng.choice([8, 16, 32])
    V, D, B = (k.constant(pick(rng, "VOCAB", "NUM_ROWS"), vocab), k.constant(pick(rng, "DIM", "EMBED_DIM", "WIDTH"), width),
               k.constant(pick(rng, "BAG", "BAG_SIZE", "IDS_PER_BAG"), bag))
    padded = rng.random() < PADDED_BAG_SHARE
    flat = rng.random() >= ROW_VIEW_SHARE
    table = k.array(pick(rng, "table", "embeddings", "weights"), "input", (vocab, width), False)
    # padded bags: a fifth of the entries negative (missing: Warp's gather reads zeros outside the table)
    ids = k.array(pick(rng, "bag_ids", "bags", "indices"), "index", (bag,) if flat else (1, bag), True,
                  low=-(vocab // 4) if padded else 0, high=vocab - 1, dtype="int32")
    out = k.array(pick(rng, "pooled", "bag_vectors", "bag_embeddings"), "output", (width,) if flat else (1, width), True,
                  bound=float(bag))
    k.tile(bag)
    k.tile(bag, width)
    k.tile(width)
    k.emit(f"ids = {load_row(k, ids, B, flat)}")
    k.emit(f"rows = wp.tile_load_indexed({table}, indices=ids, shape=({B}, {D}), axis=0)")
    combiner = rng.choice(COMBINERS)
    # session 47: per-sample weights (PyTorch's `per_sample_weights`, a weighted sum), or the largest
    # value of each column (mode "max")
    if combiner == "sum" and k.breadth.random() < 0.5:
        return weighted_bag(k, ids, out, B, D, bag, width, flat, padded)
    if not padded and combiner != "sum" and k.breadth.random() < 0.3:
        combiner = "max"
    k.features.append(f"rows gathered by index (tile_load_indexed), pooled by {combiner}")
    if padded:
        k.features.append("missing entries (negative indices: rows of zeros)")
    total = "wp.tile_sum(rows, axis=0)"
    if combiner == "max":
        pooled = "wp.tile_reduce(wp.max, rows, axis=0)"
    elif combiner == "sum":
        pooled = total
    elif not padded:
        count = k.as_float(B)
        pooled = f"{total} / {count}" if combiner == "mean" else f"{total} / wp.sqrt({count})"
    else:  # the entries present: a @wp.func of each index
        fn = f"{k.name}_present"
        k.helpers.append(f"@wp.func\ndef {fn}(j: int) -> float:\n    if j >= 0:\n        return 1.0\n    return 0.0")
        k.helper_names.append(fn)
        k.tile(bag)
        k.emit(f"n = wp.tile_sum(wp.tile_map({fn}, ids))[0]")
        k.emit("n = wp.max(n, 1.0)  # an empty bag pools to zeros")
        pooled = f"{total} / n" if combiner == "mean" else f"{total} / wp.sqrt(n)"
    k.emit(f"wp.tile_store({out}, {pooled}, offset=i * {D})" if flat else f"wp.tile_store({out}[i], {pooled})")
    return "Embedding bag: table rows gathered by index and pooled per bag"


def weighted_bag(k: TileKernel, ids: str, out: str, B: str, D: str, bag: int, width: int, flat: bool, padded: bool) -> str:
    """An embedding bag's weighted sum, a weight per entry: broadcast over the rows' columns and summed
    down them, or, for bags stored as rows, as a (1 x bag) @ (bag x dim) tile product."""
    rng = k.rng
    weights = k.array(pick(rng, "per_sample_weights", "entry_weights", "bag_weights"), "input",
                      (bag, 1) if flat else (1, bag), True, low=0.0, high=1.0)
    k.move_before(weights, out)
    k.tile(bag)
    if padded:
        k.features.append("missing entries (negative indices: rows of zeros)")
    if flat:
        k.tile(bag, width)
        k.tile(width)
        k.emit(f"wt = wp.tile_load({weights}, shape=({B}, 1), offset=(i * {B}, 0))")
        k.emit(f"wp.tile_store({out}, wp.tile_sum(rows * wp.tile_broadcast(wt, shape=({B}, {D})), axis=0), "
               f"offset=i * {D})")
        k.features.append("rows gathered by index (tile_load_indexed), weighted per entry (tile_broadcast) and summed")
    else:
        k.tile(1, width)
        k.emit(f"wt = wp.tile_load({weights}, shape=(1, {B}), offset=(i, 0))")
        k.emit(f"wp.tile_store({out}, wp.tile_matmul(wt, rows), offset=(i, 0))")
        k.features.append("rows gathered by index (tile_load_indexed), their weighted sum a (1 x bag) tile product")
    return "Embedding bag: table rows gathered by index and pooled per bag"


def neighbour_aggregation(k: TileKernel) -> str:
    rng = k.rng
    width, degree = rng.choice([16, 32, 64]), rng.choice([4, 8, 16])
    F, K = k.constant(pick(rng, "FEATURES", "DIM", "CHANNELS"), width), k.constant(pick(rng, "K", "DEGREE", "NEIGHBORS"), degree)
    x = k.array(pick(rng, "x", "features", "node_feat"), "input", (1, width), True)
    # one row per node, as many nodes as blocks: the indices span the nodes (finish sets `high`)
    nbrs = k.array(pick(rng, "neighbors", "nbr_idx", "knn"), "index", (1, degree), True, low=0, high=0, dtype="int32")
    k.index_rows[nbrs] = 1
    k.tile(degree)
    k.tile(degree, width)
    k.tile(width)
    k.tile(width)
    k.emit(f"nbr = wp.tile_load({nbrs}[i], shape={K})")
    k.emit(f"h = wp.tile_load_indexed({x}, indices=nbr, shape=({K}, {F}), axis=0)")
    rule = rng.choice(["mean", "max", "edge_max", "laplacian"])
    mix = rng.choice(["sum", "blend", "aggregate"] if rule != "laplacian" else ["step", "aggregate"])
    if rule in ("edge_max", "laplacian") or mix != "aggregate":  # the node's own features, where used
        k.emit(f"own = wp.tile_load({x}[i], shape={F})")
    if rule == "edge_max":  # an edge convolution: max over neighbours of (x_j - x_i)
        k.emit(f"agg = wp.tile_reduce(wp.max, h - wp.tile_broadcast(own, shape=({K}, {F})), axis=0)")
        k.features.append("largest feature difference to the neighbours (an edge convolution)")
    elif rule == "laplacian":  # the umbrella operator: the neighbours' mean less the node
        k.emit(f"agg = wp.tile_sum(h, axis=0) / {k.as_float(K)} - own")
        k.features.append("umbrella Laplacian (the neighbours' mean less the node)")
    elif rule == "mean":
        k.emit(f"agg = wp.tile_sum(h, axis=0) / {k.as_float(K)}")
    else:
        k.emit("agg = wp.tile_reduce(wp.max, h, axis=0)")
    if rule in ("mean", "max"):
        k.features.append(f"{rule} of the neighbours' features (tile_load_indexed)")
    if mix == "sum":
        value, mag = "own + agg", 3.0
    elif mix == "blend":
        alpha = k.constant(pick(rng, "ALPHA", "SELF_WEIGHT"), rng.choice([0.25, 0.5, 0.75]))
        value, mag = f"own * {alpha} + agg * (1.0 - {alpha})", 2.0
        k.features.append("blended with the node's own")
    elif mix == "step":  # a smoothing step x + lambda * L(x)
        lam = k.constant(pick(rng, "LAMBDA", "SMOOTHING", "RATE"), rng.choice([0.25, 0.5, 0.625]))
        value, mag = f"own + agg * {lam}", 2.0
        k.features.append("a smoothing step")
    else:
        value, mag = "agg", 2.0
        k.features.append("the aggregate alone")
    out = k.array(pick(rng, "node_out", "h_out", "aggregated"), "output", (1, width), True, bound=4.0)
    if rng.random() < 0.35:  # a layer's activation
        if not value.isidentifier():  # the aggregate itself is mapped as it is (no `z = agg`)
            k.emit(f"z = {value}")
        value, mag = map_tile(k, value if value.isidentifier() else "z", mag)
        k.set_bound(out, mag)
    k.emit(f"wp.tile_store({out}[i], {value})")
    if rule == "edge_max":
        return "Edge features over a k-nearest-neighbour graph"
    if rule == "laplacian":
        return "Laplacian smoothing over a k-nearest-neighbour graph"
    return "Neighbour aggregation over a k-nearest-neighbour graph"


def top_k(k: TileKernel) -> tuple[str, int]:
    rng = k.rng
    use = rng.choice(["scores", "scores", "router", "nearest"])
    size = rng.choice([64, 128, 256]) if use != "router" else rng.choice([16, 32, 64, 128])
    chosen = rng.choice([2, 4, 8]) if size <= 64 else rng.choice([4, 5, 8, 10])
    names = {"scores": (("N", "CANDIDATES", "NUM_ITEMS"), ("scores", "logits", "similarity"), ("top_ids", "topk_idx"),
                        ("top_scores", "topk_val")),
             "router": (("NUM_EXPERTS", "EXPERTS"), ("router_logits", "gate_logits"), ("expert_ids", "experts"),
                        ("expert_logits", "chosen_logits")),
             "nearest": (("N", "CANDIDATES", "NUM_POINTS"), ("distances", "dist"), ("nearest", "knn_idx"),
                         ("knn_dist", "nearest_dist"))}[use]
    N, TOPK = k.constant(pick(rng, *names[0]), size), k.constant(pick(rng, "TOP_K", "K"), chosen)
    flat = rng.random() >= ROW_VIEW_SHARE
    scores = k.array(pick(rng, *names[1]), "input", (size,) if flat else (1, size), True,
                     low=0.0 if use == "nearest" else -4.0, high=4.0)
    k.refine(scores)  # distinct scores: which indices are the k best is not a matter of ties
    k.tile(size)
    k.tile(size)
    ids = k.array(pick(rng, *names[2]), "output", (1, chosen), True, bound=float(size), dtype="int32")
    # session 47: argtop-k (the indices alone), nearest distances from squared ones, two more routers
    form = k.breadth.choices(["both", "ids"], weights=[0.7, 0.3])[0] if use != "router" else \
        k.breadth.choices(["chosen", "biased", "all"], weights=[0.4, 0.3, 0.3])[0]
    values = k.array(pick(rng, *names[3]), "output", (1, chosen), True, bound=4.0) if form != "ids" else ""
    k.emit(f"s = {load_row(k, scores, N, flat)}")
    k.emit(f"order = wp.tile_arange({N}, dtype=int)")
    if form in ("biased", "all"):
        return routed_gates(k, scores, ids, values, N, TOPK, chosen, form == "biased", size)
    if use == "nearest":
        k.emit("wp.tile_sort(s, order)  # ascending: the nearest first")
        value = "wp.tile_extract(s, r)"
        if form == "both" and k.breadth.random() < 0.4:  # squared distances sorted, distances reported
            value = "wp.sqrt(wp.tile_extract(s, r))"
            k.features.append("squared distances sorted, their square roots stored")
    else:
        k.emit("keys = -s")
        k.emit("wp.tile_sort(keys, order)  # ascending by -score: the best first")
        value = "-wp.tile_extract(keys, r)"
    if use == "router":  # a mixture-of-experts router: the chosen experts' gates, softmax over their logits
        gates = k.array(pick(rng, "gates", "expert_weights"), "output", (1, chosen), True)
        k.emit("best = -wp.tile_extract(keys, 0)")
        k.emit("total = float(0.0)")
        k.emit(f"for r in range({TOPK}):")
        k.emit("    total += wp.exp(-wp.tile_extract(keys, r) - best)")
        k.emit(f"for r in range({TOPK}):")
        k.emit(f"    {ids}[i, r] = wp.tile_extract(order, r)")
        k.emit(f"    logit = {value}")
        k.emit(f"    {values}[i, r] = logit")
        k.emit(f"    {gates}[i, r] = wp.exp(logit - best) / total")
        k.features.append("gates: softmax over the chosen experts' logits")
    else:
        k.emit(f"for r in range({TOPK}):")
        k.emit(f"    {ids}[i, r] = wp.tile_extract(order, r)")
        if values:
            k.emit(f"    {values}[i, r] = {value}")
        else:
            k.features.append("the indices alone (argtop-k)")
    k.features.append(f"tile_sort of {'distances' if use == 'nearest' else 'negated scores'} with their indices, "
                      "the first k by tile_extract")
    summary = {"scores": "Top-k of each row of scores", "router": "Top-k experts per token (a mixture-of-experts router)",
               "nearest": "Nearest k by distance per row"}[use]
    return summary, rng.choice([b for b in BLOCK_DIMS if b <= max(size, 32)])


def routed_gates(k: TileKernel, scores: str, ids: str, values: str, N: str, TOPK: str, chosen: int, biased: bool,
                 size: int) -> tuple[str, int]:
    """Two more routers of a mixture of experts (session 47), after the sort of the negated keys:
    - biased selection (DeepSeek-V3's balancing without an auxiliary loss): a per-expert bias, which
      the caller adjusts between steps, is added to the logits for choosing the experts only; each
      chosen expert's gate is its unbiased sigmoid, normalised over the chosen ones (the logit read
      back at the expert's index, `wp.tile_extract(s, e)`);
    - a softmax over all experts, each chosen expert's gate its probability (Switch and GShard)."""
    rng = k.rng
    if biased:  # the logits' tile, `s`, kept as it was loaded: the gates read it
        b = k.array(pick(rng, "expert_bias", "balance_bias", "route_bias"), "input", (size,), False, low=-0.5, high=0.5)
        k.refine(b)  # the biased keys distinct too
        k.tile(size)
        k.emit(f"keys = -(s + wp.tile_load({b}, shape={N}))")
        k.emit("wp.tile_sort(keys, order)  # ascending by -(logit + bias): the experts chosen first")
        fn = f"{k.name}_sigmoid"
        k.helpers.append(f"@wp.func\ndef {fn}(x: float) -> float:\n    return 1.0 / (1.0 + wp.exp(-x))")
        k.helper_names.append(fn)
        gate = f"{fn}(wp.tile_extract(s, wp.tile_extract(order, r)))"
        k.emit("total = float(0.0)")
        k.emit(f"for r in range({TOPK}):")
        k.emit(f"    total += {gate}")
        k.features.append("experts chosen by logit plus a balancing bias, gated by their unbiased sigmoids "
                          "normalised over the chosen")
    else:
        k.tile(size)
        k.emit("keys = -s")
        k.emit("wp.tile_sort(keys, order)  # ascending by -score: the best first")
        k.emit("best = -wp.tile_extract(keys, 0)")
        k.emit(f"total = wp.tile_sum(wp.tile_map(wp.exp, s - wp.tile_full({N}, value=best, dtype=float)))[0]")
        # (renormalised over the chosen, these would be the softmax over the chosen logits: the router above)
        k.features.append("gates: the chosen experts' probabilities of a softmax over all experts")
    gates = k.array(pick(rng, "gates", "expert_weights", "routing_weights"), "output", (1, chosen), True)
    k.emit(f"for r in range({TOPK}):")
    k.emit("    e = wp.tile_extract(order, r)")
    k.emit(f"    {ids}[i, r] = e")
    if biased:
        k.emit("    logit = wp.tile_extract(s, e)")
        k.emit(f"    {values}[i, r] = logit")
        k.emit(f"    {gates}[i, r] = {fn}(logit) / total")
    else:
        k.emit("    logit = -wp.tile_extract(keys, r)")
        k.emit(f"    {values}[i, r] = logit")
        k.emit(f"    {gates}[i, r] = wp.exp(logit - best) / total")
    return "Top-k experts per token (a mixture-of-experts router)", rng.choice([b for b in BLOCK_DIMS if b <= max(size, 32)])


def order_statistics(k: TileKernel) -> tuple[str, int]:
    rng = k.rng
    size = rng.choice([64, 128, 256, 96, 192])  # 96 and 192: sorted in a padded power of two
    N = k.constant(pick(rng, "N", "SAMPLES", "WINDOW"), size)
    x = k.array(pick(rng, "x", "samples", "readings"), "input", (size,), True, low=-4.0, high=4.0)
    k.refine(x)
    k.tile(size)
    k.tile(size)
    k.emit(f"v = wp.tile_load({x}, shape={N}, offset=i * {N})")
    k.emit(f"rank = wp.tile_arange({N}, dtype=int)")
    k.emit("wp.tile_sort(v, rank)")
    half = f"{size // 2}" if N.isdigit() else f"{N} // 2"
    below = f"{size // 2 - 1}" if N.isdigit() else f"{N} // 2 - 1"  # literal sizes: no `64 - 1` (before session 47, redrawn)
    med = k.array(pick(rng, "median", "med"), "output", (1,), True, bound=4.0)
    k.emit(f"m = 0.5 * (wp.tile_extract(v, {below}) + wp.tile_extract(v, {half}))")
    k.emit(f"{med}[i] = m")
    k.features.append("median by tile_sort")
    extras = rng.sample(["where", "quartiles", "trimmed", "sorted", "mad"], rng.choice([1, 1, 2]))
    if "where" in extras:  # the sample at the upper median: its index in the array
        at = k.array(pick(rng, "median_at", "median_idx"), "output", (1,), True, bound=float(size * max(BLOCK_COUNTS)),
                     dtype="int32")
        k.emit(f"{at}[i] = i * {N} + wp.tile_extract(rank, {half})")
        k.features.append("where the median lies (the sorted payload)")
    if "quartiles" in extras:
        iqr = k.array(pick(rng, "iqr", "spread"), "output", (1,), True, bound=8.0)
        q1, q3 = (f"{size // 4}", f"{3 * size // 4}") if N.isdigit() else (f"{N} // 4", f"3 * {N} // 4")
        k.emit(f"{iqr}[i] = wp.tile_extract(v, {q3}) - wp.tile_extract(v, {q1})")
        k.features.append("interquartile range")
    if "trimmed" in extras:
        trim = size // 8
        fn = f"{k.name}_kept"
        k.helpers.append(f"@wp.func\ndef {fn}(r: int) -> float:\n    if r >= {trim} and r < {size - trim}:\n"
                         f"        return 1.0\n    return 0.0")
        k.helper_names.append(fn)
        k.tile(size)
        tm = k.array(pick(rng, "trimmed_mean", "robust_mean"), "output", (1,), True, bound=4.0)
        k.emit(f"kept = wp.tile_map({fn}, wp.tile_arange({N}, dtype=int))")
        k.emit(f"{tm}[i] = wp.tile_sum(v * kept)[0] / {fmt_float(float(size - 2 * trim))}")
        k.features.append(f"mean of the central ranks (a {trim}-sample trim each side)")
    if "mad" in extras:  # the median absolute deviation: the deviations sorted in turn
        k.tile(size)
        k.tile(size)
        k.emit(f"dev = wp.tile_map(wp.abs, v - wp.tile_full({N}, value=m, dtype=float))")
        k.emit(f"which = wp.tile_arange({N}, dtype=int)")
        k.emit("wp.tile_sort(dev, which)")
        mad = k.array(pick(rng, "mad", "abs_dev"), "output", (1,), True, bound=8.0)
        k.emit(f"{mad}[i] = 0.5 * (wp.tile_extract(dev, {below}) + wp.tile_extract(dev, {half}))")
        k.features.append("median absolute deviation (a second tile_sort)")
    if "sorted" in extras:
        out = k.array(pick(rng, "sorted_x", "ordered"), "output", (size,), True, bound=4.0)
        k.emit(f"wp.tile_store({out}, v, offset=i * {N})")
        k.features.append("each block's samples stored in order")
    more = k.breadth.choices([None, "range", "percentile"], weights=[0.4, 0.25, 0.35])[0]  # session 47
    if more == "range":
        span = k.array(pick(rng, "value_range", "span", "extent"), "output", (1,), True, bound=8.0)
        last = f"{size - 1}" if N.isdigit() else f"{N} - 1"
        k.emit(f"{span}[i] = wp.tile_extract(v, {last}) - wp.tile_extract(v, 0)")
        k.features.append("the range (the last sorted sample less the first)")
    elif more == "percentile":  # numpy's default: linear between the two ranks either side of q (n - 1)
        q = k.breadth.choice([0.05, 0.1, 0.9, 0.95, 0.99])
        Q = k.constant(pick(rng, "Q", "QUANTILE", "LEVEL"), q)
        top = f"{size - 1}" if N.isdigit() else f"{N} - 1"
        k.emit(f"pos = {Q} * float({top})")
        k.emit("lo = int(pos)")
        k.emit(f"hi = wp.min(lo + 1, {top})")
        k.emit("below = wp.tile_extract(v, lo)")
        out = k.array(pick(rng, "quantile", "percentile", "q_value"), "output", (1,), True, bound=4.0)
        k.emit(f"{out}[i] = below + (pos - float(lo)) * (wp.tile_extract(v, hi) - below)")
        k.features.append(f"the {round(q * 100)}th percentile, interpolated between ranks")
    return "Order statistics of each block of samples", rng.choice([b for b in BLOCK_DIMS if b <= size])


KINDS = [block_reduce, column_sums, linear_layer, gram, row_normalize, center_columns, batched_transpose, fused_map,
         spectral, least_squares, row_softmax]


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    while True:
        k = TileKernel(rng, name, seed)
        kind = rng.choice(KINDS)
        if kind is spectral and rng.random() < SPECTRAL_REDRAW:  # FFTs: a smaller share than the other kinds
            kind = rng.choice(KINDS)
        if k.variant.random() < POSITIONS_SHARE:  # drawn aside: the other kinds keep their draws
            kind = positions
        elif k.gathers.random() < GATHER_SORT_SHARE:  # a stream of its own too
            kind = gather_sort
        elif chooses_compaction(seed):  # and so does this one
            kind = compaction
        elif chooses_spatial_sort(seed):  # and this one
            kind = spatial_sort
        summary, block_dim = kind(k)
        if k.tile_floats * 4 <= SHARED_BUDGET:
            return k.finish(summary, block_dim)
