"""The tiled category (synthesis/categories/tiled.py): every tile window inside its array at the check
and bench sizes, the launch the spec describes is the one the translation makes, and one kernel of
each kind equal to Warp's wp.launch_tiled on the CPU (host emulation of the .cu), at the check size
and, for one kernel, at a bench size."""
from __future__ import annotations

import ast
import copy
import itertools
import re
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda_production.bench import bench_args, bench_launch_dim, index_scale, scales
from cuda_production.host_check import compile_host, run_on_host
from cuda_production.reference import input_seed, sample_args, warp_reference
from cuda_production.sample import write_sample
from cuda_production.templates import Tolerance
from cuda_production.translator import translate_kernel
from synthesis.categories import CATEGORY_NAMES, generate, kernel_name
from synthesis.categories import tiled
from synthesis.categories.tiled import BLOCK_DIMS, FFT_BLOCK_DIMS, KINDS
from synthesis.spec import KernelSpec
from tests.synthesis.shares import EarlierForms, assert_others_keep_their_draws, specs_with_every_variant

TILE_OPS = ("tile_load", "tile_store", "tile_atomic_add")
INDEXED_OPS = ("tile_load_indexed", "tile_store_indexed")  # their places are tested per element, as Warp does


def _kind_of(spec: KernelSpec) -> str:
    return spec.description.split(" (wp.launch_tiled")[0]


SUMMARIES = ("Block-wise tile reduction", "Block-wise reduction of per-thread values",
             "Block-wise reduction of per-thread strided sums", "Column sums of row panels", "Tiled linear layer (GEMM)",
             "Gram matrix accumulation", "Row normalisation", "Mean centering per block",
             "Batched small-matrix transposes", "Fused element-wise tile map", "Spectral filtering of signal rows",
             "Spectra of signal rows", "Signals synthesised from spectra", "Cross-correlation of signal rows",
             "FFT round trips of signal rows", "Power spectra of signal rows",
             "Batched ridge regression: normal equations solved by Cholesky",
             "Damped Gauss-Newton step per system: normal equations solved by Cholesky",
             "Softmax of one row per block", "Centroid of a density per block", "Window function applied per block",
             "Integral over blocks of samples", "Transmittance of a ray per block",
             "Embedding bag: table rows gathered by index and pooled per bag",
             "Neighbour aggregation over a k-nearest-neighbour graph", "Edge features over a k-nearest-neighbour graph",
             "Laplacian smoothing over a k-nearest-neighbour graph",
             "Top-k of each row of scores", "Top-k experts per token (a mixture-of-experts router)",
             "Nearest k by distance per row", "Order statistics of each block of samples",
             "Histogram of each block's values in shared memory",
             "Stream compaction within blocks (prefix sums of keep flags, scattered writes)",
             "Prefix sums within blocks (the first pass of a device-wide scan)",
             "Points sorted by Morton code within blocks (uint32 keys)",
             "Points sorted by grid cell within blocks (uint32 keys)",
             "Radix sort counting pass: digit histograms per block", "Volume rendering of a ray per block",
             "Prefix sums across blocks (the second pass of a device-wide scan)",
             "Cumulative distribution within blocks (tile_scan_inclusive)")


def _one_seed_per_kind() -> dict[str, int]:
    found: dict[str, int] = {}
    seed = 0
    while len(found) < len(SUMMARIES):
        found.setdefault(_kind_of(generate("tiled", seed)), seed)
        seed += 1
    return found


KIND_SEEDS = _one_seed_per_kind()


def test_tiled_is_a_category_with_its_prefix():
    assert "tiled" in CATEGORY_NAMES
    assert kernel_name("tiled", 5).startswith("tile_")
    # block_reduce: three forms; spectral: six uses; least_squares: two; drawn aside, not one of KINDS:
    # positions (five uses), gathers, scatters and sorts (nine), compaction and block scans (four), spatial
    # sorts (two), radix counting passes
    assert set(KIND_SEEDS) == set(SUMMARIES) and len(KINDS) == len(SUMMARIES) - 8 - 5 - 9 - 4 - 2 - 1


# ---- tile windows ----------------------------------------------------------------------------------
def _windows(spec: KernelSpec, launch: tuple[int, ...], shapes: dict[str, tuple[int, ...]]):
    """(op, array, offset, tile shape) of every tile window the kernel touches, for every launch index
    of `launch` (blocks, or a grid of blocks (i, j)) and every loop value, with `shapes` the arrays'
    shapes."""
    tree = ast.parse(spec.source)
    constants = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            value = node.value.args[0] if isinstance(node.value, ast.Call) else node.value
            constants[node.targets[0].id] = ast.literal_eval(value)
    kernel = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == spec.name)

    block_dim = type("Warp", (), {"block_dim": staticmethod(lambda: spec.block_dim)})  # `wp.block_dim()`

    def inlined(node: ast.AST, env: dict) -> ast.AST:
        """`node` with each index local (`j = (i * PER_THREAD + k) * THREADS + lane`) replaced by its value."""
        class Inline(ast.NodeTransformer):
            def visit_Name(self, name: ast.Name) -> ast.AST:
                return env.get("@" + name.id, name)
        return ast.fix_missing_locations(Inline().visit(copy.deepcopy(node)))

    def value(node: ast.AST, env: dict) -> int:
        code = compile(ast.Expression(inlined(node, env)), "<offset>", "eval")
        names = {**constants, **env, "wp": block_dim}
        names.update({n: type("A", (), {"shape": s}) for n, s in shapes.items()})
        return eval(code, {"__builtins__": {}}, names)  # a generated arithmetic expression of ints

    found = []

    def visit(stmts: list[ast.stmt], env: dict) -> None:
        for stmt in stmts:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and all(isinstance(n, (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop,
                                           ast.Load)) for n in ast.walk(stmt.value)):
                env = {**env, "@" + stmt.targets[0].id: inlined(stmt.value, env)}  # an index local
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                env = {**env, "!" + stmt.targets[0].id: True}  # a value read from data (`src = wp.tile_extract(...)`)
            if isinstance(stmt, ast.For):
                # every value the loop variable takes in any thread of the block (a block-stride loop,
                # `range(lane, CHUNK, wp.block_dim())`, in each lane)
                lanes = range(spec.block_dim) if "lane" in ast.unparse(stmt.iter) else (0,)
                values = sorted({v for lane in lanes
                                 for v in range(*(value(a, {**env, "lane": lane}) for a in stmt.iter.args))})
                for v in values:
                    visit(stmt.body, {**env, stmt.target.id: v})
                continue
            views = {id(c.args[0]) for c in ast.walk(stmt) if isinstance(c, ast.Call) and c.args
                     and isinstance(c.func, ast.Attribute) and c.func.attr in TILE_OPS + INDEXED_OPS}
            for call in ast.walk(stmt):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in INDEXED_OPS \
                        and isinstance(call.args[0], ast.Subscript):  # a gather or scatter through a view: its row
                    index = value(call.args[0].slice, env)
                    fixed = index if isinstance(index, tuple) else (index,)
                    array = call.args[0].value.id
                    found.append(("view", array, fixed + (0,) * (len(shapes[array]) - len(fixed)), None))
                    continue
                if isinstance(call, ast.Subscript) and isinstance(call.value, ast.Name) and call.value.id in shapes \
                        and any((isinstance(n, ast.Name) and "!" + n.id in env)
                                or (isinstance(n, ast.Subscript) and n is not call) for n in ast.walk(call.slice)):
                    # an index the data holds (a permutation's entry, a label `x[i, labels[i]]`): the kind's own
                    # test checks it
                    continue
                if isinstance(call, ast.Subscript) and isinstance(call.value, ast.Name) and call.value.id in shapes \
                        and id(call) not in views:
                    # a thread's own element (`x[i * TILE + lane]`): the block's last lane reads furthest
                    found.append(("index", call.value.id, value(call.slice, {**env, "lane": spec.block_dim - 1}), 1))
                    continue
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in TILE_OPS):
                    continue
                kw = {k.arg: k.value for k in call.keywords}
                target, fixed = call.args[0], ()
                if isinstance(target, ast.Subscript):  # a view (`x[i]`): its indices fix the leading dimensions
                    index = value(target.slice, env)
                    target, fixed = target.value, index if isinstance(index, tuple) else (index,)
                array = target.id
                if call.func.attr == "tile_load":
                    shape = value(kw["shape"], env)
                    shape = (1,) * len(fixed) + (shape if isinstance(shape, tuple) else (shape,))
                else:  # the stored tile's shape is that of the window: taken from the array's rank and the load
                    shape = None
                offset = value(kw["offset"], env) if "offset" in kw else (0,) * (len(shapes[array]) - len(fixed))
                found.append((call.func.attr, array, fixed + (offset if isinstance(offset, tuple) else (offset,)), shape))

    tid = kernel.body[0].targets[0]
    names = [e.id for e in tid.elts] if isinstance(tid, ast.Tuple) else [tid.id]
    assert len(names) in (len(launch), len(launch) + 1)  # the launch's indices, then maybe the thread's lane
    for index in itertools.product(*(range(n) for n in launch)):
        visit(kernel.body[1:], dict(zip(names[:len(launch)], index)))
    return found


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**62))
def test_every_loaded_tile_lies_inside_its_array_at_check_and_bench_size(seed):
    spec = generate("tiled", seed)
    bench_dim = bench_launch_dim(list(spec.args), spec.dim, spec.block_dim)
    bench_dim = (min(bench_dim[0], 4 * spec.dim[0] + 3), *spec.dim[1:])  # the rule is the same at any bench size
    for launch, args in ((spec.dim, list(spec.args)), (bench_dim, bench_args(list(spec.args), spec.dim, bench_dim))):
        shapes = {a.name: a.shape for a in args if a.is_array}
        for op, array, offset, shape in _windows(spec, launch, shapes):
            offset = offset if isinstance(offset, tuple) else (offset,)
            assert len(offset) == len(shapes[array]), (op, array)
            if shape is not None:
                shape = shape if isinstance(shape, tuple) else (shape,)
                assert all(o + s <= n for o, s, n in zip(offset, shape, shapes[array])), (spec.source, array, blocks)
            assert all(0 <= o < n for o, n in zip(offset, shapes[array])), (spec.source, array, blocks)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**62))
def test_arrays_indexed_by_the_block_scale_with_the_launch_and_the_others_keep_their_size(seed):
    spec = generate("tiled", seed)
    tree = ast.parse(spec.source)
    per_block = {n.args[0].id for n in ast.walk(tree)
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in TILE_OPS
                 and isinstance(n.args[0], ast.Name)
                 and any(k.arg == "offset" and "i" in {x.id for x in ast.walk(k.value) if isinstance(x, ast.Name)}
                         for k in n.keywords)}
    # and arrays a thread indexes by its block (`x[i * TILE + lane]`, or through a local computed from i:
    # `j = (i * PER_THREAD + k) * THREADS + lane; x[j]`)
    from_block = {"i"}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and not any(isinstance(x, (ast.Subscript, ast.Call)) for x in ast.walk(n.value)) \
                and from_block & {x.id for x in ast.walk(n.value) if isinstance(x, ast.Name)}:
            from_block.add(n.targets[0].id)
    per_block |= {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
                  and from_block & {x.id for x in ast.walk(n.slice) if isinstance(x, ast.Name)}}
    # and the rows a block gathers through indices that span the nodes (the blocks: a neighbour list's
    # values grow with the launch, `bench.index_scale`), not a fixed table's (an embedding's vocabulary)
    spanning = {a.name for a in spec.args if index_scale(a, list(spec.args), spec.dim) > 0}
    loaded_from = {n.targets[0].id: ast.unparse(n.value.args[0]).split("[")[0] for n in ast.walk(tree)
                   if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Call)
                   and isinstance(n.value.func, ast.Attribute) and n.value.func.attr == "tile_load" and n.value.args}
    per_block |= {n.args[0].id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and n.func.attr == "tile_load_indexed" and isinstance(n.args[0], ast.Name)
                  and any(k.arg == "indices" and isinstance(k.value, ast.Name) and loaded_from.get(k.value.id) in spanning
                          for k in n.keywords)}
    # and the segments a block scatters to (`tile_store_indexed`) through places computed from i (a tile
    # of the block's base, `tile_full(value=i * TILE)`, and the tiles computed from it)
    from_i = {"i"}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) \
                and from_i & {x.id for x in ast.walk(n.value) if isinstance(x, ast.Name)}:
            from_i.add(n.targets[0].id)
    per_block |= {n.args[0].id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and n.func.attr == "tile_store_indexed" and isinstance(n.args[0], ast.Name)
                  and isinstance(n.args[1], ast.Name) and n.args[1].id in from_i}
    assert {a.name for a in spec.args if a.is_array and scales(a, spec.dim)} == per_block


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**62))
def test_the_translation_launches_as_the_spec_says(seed):
    spec = generate("tiled", seed)
    assert len(spec.dim) in (1, 2) and spec.block_dim in BLOCK_DIMS + FFT_BLOCK_DIMS
    kernel = translate_kernel(spec.source, spec.name, f"{spec.name}.py", block_dim=spec.block_dim,
                              launch_ndim=len(spec.dim))
    assert kernel.tiled and kernel.block_dim == spec.block_dim
    assert {p.name for p in kernel.params if p.kind == "array" and p.written} == \
        {a.name for a in spec.args if a.is_written}


@pytest.mark.parametrize("summary", ["Tiled linear layer (GEMM)", "Fused element-wise tile map"])
def test_a_grid_of_tiles_stores_each_output_tile_exactly_once(summary):
    """Block (i, j) of a 2-D grid owns the output tile at (i * TILE_M, j * TILE_N): the stores of all
    blocks are distinct and together cover every output element."""
    spec = generate("tiled", _first_with(summary, GRID))
    assert spec.source.count("i, j = wp.tid()") == 1 and len(spec.dim) == 2
    shapes = {a.name: a.shape for a in spec.args if a.is_array}
    stores = [(array, offset) for op, array, offset, _ in _windows(spec, spec.dim, shapes) if op == "tile_store"]
    outputs = {a.name for a in spec.args if a.role in ("output", "inout") and len(a.shape) == 2}
    assert outputs and {array for array, _ in stores} == outputs
    for out in outputs:
        offsets = [offset for array, offset in stores if array == out]
        rows, cols = shapes[out]
        assert len(offsets) == len(set(offsets)) == spec.dim[0] * spec.dim[1]
        assert {r for r, _ in offsets} == set(range(0, rows, rows // spec.dim[0]))
        assert {c for _, c in offsets} == set(range(0, cols, cols // spec.dim[1]))


def test_specs_keep_their_launch_through_a_round_trip():
    spec = generate("tiled", KIND_SEEDS["Tiled linear layer (GEMM)"])
    assert KernelSpec.from_dict(spec.to_dict()).block_dim == spec.block_dim > 0


# ---- against Warp ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def kind_specs() -> dict[str, KernelSpec]:
    return {kind: generate("tiled", seed) for kind, seed in KIND_SEEDS.items()}


@pytest.fixture(scope="module")
def expected(kind_specs) -> dict[str, bytes]:
    return warp_reference(list(kind_specs.values()), "t_tiled_kinds")


def _written(spec: KernelSpec, blob: bytes):
    """Each written array's components (float32, or float64 for vec2d), in expected.bin's order."""
    offset = 0
    for arg in spec.args:
        if arg.is_written:
            dtype, count = np.dtype(arg.numpy_dtype), arg.size * arg.width
            values = np.frombuffer(blob, dtype=dtype, count=count, offset=offset)
            offset += dtype.itemsize * count
            yield arg, values


def test_outputs_stay_within_their_bounds_and_vary(kind_specs, expected):
    for spec in kind_specs.values():
        for arg, values in _written(spec, expected[spec.name]):
            assert np.all(np.isfinite(values)), (spec.name, arg.name)
            assert np.abs(values).max() <= arg.bound, (spec.name, arg.name)
            assert len(np.unique(values)) > 1 if values.size > 1 else values[0] != 0.0, (spec.name, arg.name)


def _write(tmp_path, spec: KernelSpec, expected: bytes | None):
    kernel = translate_kernel(spec.source, spec.name, f"{spec.name}.py", block_dim=spec.block_dim,
                              launch_ndim=len(spec.dim))
    return write_sample(tmp_path / spec.name, kernel, spec.source, sample_args(spec), spec.dim, input_seed(spec),
                        Tolerance(), expected, {"category": "tiled", "description": spec.description})


@pytest.mark.parametrize("kind", SUMMARIES)
def test_each_kind_equals_warps_tiled_launch_on_the_host(tmp_path, kind_specs, expected, kind):
    spec = kind_specs[kind]
    run = run_on_host(_write(tmp_path, spec, expected[spec.name]))
    assert run.passed, run.output[-2000:]


GRID = "2-D grid of tiles (i, j = wp.tid())"


def _first_with(summary: str, feature: str, present: bool = True) -> int:
    return next(seed for seed in range(5000) if summary in (d := generate("tiled", seed).description)
                and (feature in d) == present)


@pytest.mark.parametrize("grid", [False, True], ids=["row panels", "grid of tiles"])
def test_bench_size_results_equal_warp_at_the_bench_size(tmp_path, grid):
    spec = generate("tiled", _first_with("Tiled linear layer (GEMM)", GRID, grid))
    assert len(spec.dim) == 1 + grid
    folder = _write(tmp_path, spec, None)
    binary = tmp_path / "bench.bin"
    build = compile_host(folder / f"{spec.name}.cu", binary, tmp_path)
    assert build.returncode == 0, build.stderr
    outer = 2 * spec.dim[0] + 1
    dump = tmp_path / "bench_results.bin"
    run = subprocess.run([str(binary), "--bench", "--bench-dim", str(outer), "--launches", "1", "--warmup", "0",
                          "--trials", "1", "--dump", str(dump)], cwd=folder, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    bench_dim = (outer, *spec.dim[1:])
    scaled = KernelSpec(spec.name, spec.category, spec.description, spec.source,
                        tuple(bench_args(list(spec.args), spec.dim, bench_dim)), bench_dim, spec.seed,
                        block_dim=spec.block_dim)
    want = np.frombuffer(warp_reference([scaled], f"t_tiled_bench_{int(grid)}")[spec.name], dtype=np.float32)
    got = np.frombuffer(dump.read_bytes(), dtype=np.float32)
    assert got.size == want.size == sum(a.size for a in scaled.args if a.is_written)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("feature", ["result added to the output's block", "block maximum", "block minimum",
                                     "column sums by tile_sum along axis 0", "panels per block",
                                     "column means by tile_sum along axis 0", "L2 normalisation",
                                     "column sums of squares", "tiles per block",
                                     "per-thread values gathered into a tile (wp.tile)", "column means of the panel",
                                     "per-thread values of two inputs", "real gain per frequency",
                                     "scaled by 1/N", "windowed by tile_map", "shaped by a gain per frequency",
                                     "less the block mean (wp.untile)", GRID, "row weights (A^T W A)",
                                     "row panels per system", "tile_cholesky (upper)", "tile_lower_solve",
                                     "log det from the factor's diagonal", "residual b - A x", "factor stored",
                                     "constant damping", "damping per unknown", "log-probabilities",
                                     "cross-entropy per row", "log-sum-exp per row", "classifier head", "(p @ V)",
                                     "label-smoothed", "entropy of each row", "scaled by an argument",
                                     "tile_cholesky_inplace, tile_cholesky_solve_inplace", "tile_lower_solve_inplace",
                                     "half-precision inputs", "result rounded to half (tile_astype)",
                                     "bfloat16 inputs", "result rounded to bfloat16 (tile_astype)",
                                     "its index (tile_argmax)", "its index (tile_argmin)", "block infinity norm",
                                     "(tile_reduce(wp.max))", "(tile_reduce(wp.min))", "predicted class (tile_argmax)",
                                     "rows predicted right", "the block's first index by tile_full", "its spread",
                                     "windowed energy", "segments per ray from a tile_full",
                                     # session 47's forms
                                     "the depth by tile_sum", "the optical depth", "emission-absorption",
                                     "alpha compositing", "the depth carried across them",
                                     "the log of the light left carried", "accumulated opacity", "expected depth",
                                     "balancing bias", "softmax over all experts", "argtop-k", "square roots",
                                     "weighted per entry", "(1 x bag) tile product", "pooled by max",
                                     "interpolated between ranks", "the range (", "from the deviations",
                                     "densest sample", "online softmax", "probabilities in a second pass",
                                     "second pass of a device-wide scan", "summed from the totals",
                                     "the block's CDF", "inverse transform", "first moment"])
def test_a_drawn_variant_equals_warps_tiled_launch_on_the_host(tmp_path, feature):
    """The variants a kind draws now and then (an output block updated in place, a block's extreme, a
    reduction along an axis), each in a generated kernel, translated and run on the host against Warp."""
    spec = next(s for s in (generate("tiled", seed) for seed in range(2000)) if feature in s.description)
    if feature.startswith("result added"):
        out = next(a.name for a in spec.args if a.role == "inout")
        assert f"wp.tile_load({out}, " in spec.source and f"wp.tile_store({out}, " in spec.source
    module = "t_tiled_" + "".join(c if c.isalnum() else "_" for c in feature)  # a module of its own per kernel
    run = run_on_host(_write(tmp_path, spec, warp_reference([spec], module)[spec.name]))
    assert run.passed, run.output[-2000:]


def test_every_fft_kernel_gives_each_thread_two_to_eight_elements_of_a_row():
    """Warp's GPU FFT (cuFFTDx) refuses a block with fewer than 2 elements per thread; the CPU does not."""
    checked = 0
    for seed in range(1500):
        spec = generate("tiled", seed)
        if "wp.tile_fft(" not in spec.source and "wp.tile_ifft(" not in spec.source:
            continue
        tree = ast.parse(spec.source)
        constants = {t.id: ast.literal_eval(n.value.args[0] if isinstance(n.value, ast.Call) else n.value)
                     for n in tree.body if isinstance(n, ast.Assign) for t in n.targets}
        load = next(c for c in ast.walk(tree) if isinstance(c, ast.Call) and ast.unparse(c.func) == "wp.tile_load")
        row = next(k.value for k in load.keywords if k.arg == "shape").elts[1]
        n = constants[row.id] if isinstance(row, ast.Name) else ast.literal_eval(row)
        assert 2 <= n // spec.block_dim <= 8 and n % spec.block_dim == 0, (n, spec.block_dim, spec.source)
        checked += 1
    assert checked > 30


def test_a_spectral_filter_is_numpys_fft_product_on_each_row():
    """The filter kind's meaning, independent of the translator: Warp's output rows are
    N * ifft(fft(x) * H) (Warp's transforms are unnormalized) with H the one transfer function."""
    from cuda_production.reference import make_input

    spec = _spectral_with("complex product with a transfer function")
    seed = input_seed(spec)
    values = {a.name: make_input(a, k, seed) for k, a in enumerate(sample_args(spec)) if a.kind == "array"}
    signal, response, out = spec.args
    assert (signal.role, response.role, out.role) == ("input", "input", "output") and response.shape[0] == 1

    def complex_rows(arg, flat):
        pairs = np.asarray(flat, dtype=np.float64).reshape(*arg.shape, 2)
        return pairs[..., 0] + 1j * pairs[..., 1]

    x, h = complex_rows(signal, values[signal.name]), complex_rows(response, values[response.name])
    n = signal.shape[1]
    want = n * np.fft.ifft(np.fft.fft(x, axis=1) * h, axis=1)
    got = complex_rows(out, dict(_written(spec, warp_reference([spec], "t_tiled_fft")[spec.name]))[out])
    assert np.abs(want).max() > 1.0  # a signal, not zeros
    np.testing.assert_allclose(got, want, atol=1e-3 * np.abs(want).max())


def _spectral_with(*features: str) -> KernelSpec:
    """The first tiled kernel with exactly these of the features below (and any others)."""
    optional = ("scaled by 1/N", "windowed by tile_map")
    return next(s for s in (generate("tiled", seed) for seed in range(4000))
                if all(f in s.description for f in features)
                and not any(f in s.description for f in optional if f not in features))


@pytest.mark.parametrize("features", [("Power spectra", "scaled by 1/N"), ("Power spectra", "windowed by tile_map"),
                                      ("real gain per frequency", "scaled by 1/N")])
def test_a_spectral_variant_means_what_numpy_says(features):
    """A power spectrum is |fft(x)|^2 per row (of the windowed signal x * w when windowed, over N when
    scaled); a filter by a real gain per frequency, scaled by 1/N, is numpy's (normalised)
    ifft(fft(x) * g): Warp's outputs, independent of the translator."""
    from cuda_production.reference import make_input

    spec = _spectral_with(*features)
    seed = input_seed(spec)
    values = {a.name: make_input(a, k, seed) for k, a in enumerate(sample_args(spec)) if a.kind == "array"}
    signal, out = spec.args[0], spec.args[-1]
    pairs = np.asarray(values[signal.name], dtype=np.float64).reshape(*signal.shape, 2)
    x = pairs[..., 0] + 1j * pairs[..., 1]
    n = signal.shape[1]
    got = dict(_written(spec, warp_reference([spec], "t_tiled_" + str(spec.seed))[spec.name]))[out]
    weights = np.asarray(values[spec.args[1].name], dtype=np.float64).reshape(1, n) if len(spec.args) == 3 else None
    if features[0] == "Power spectra":
        windowed = x * weights if "windowed by tile_map" in features else x
        want = np.abs(np.fft.fft(windowed, axis=1)) ** 2 / (n if "scaled by 1/N" in features else 1)
        got = np.asarray(got, dtype=np.float64).reshape(out.shape)
    else:
        want = np.fft.ifft(np.fft.fft(x, axis=1) * weights, axis=1)
        got_pairs = np.asarray(got, dtype=np.float64).reshape(*out.shape, 2)
        got = got_pairs[..., 0] + 1j * got_pairs[..., 1]
    assert np.abs(want).max() > 0.1  # a signal, not zeros
    np.testing.assert_allclose(got, want, atol=1e-3 * np.abs(want).max())


def test_untile_hands_each_thread_its_value_less_the_block_mean():
    """The centred output of a per-thread reduction (`a = wp.tile(v)`, v the thread's input): element
    j of block i is x[i * B + j] less the mean of block i's inputs (Warp's outputs against numpy)."""
    from cuda_production.reference import make_input

    spec = next(s for s in (generate("tiled", seed) for seed in range(4000))
                if "wp.untile" in s.description and "a = wp.tile(v)\n" in s.source)
    x = spec.args[0]
    values = {a.name: make_input(a, k, input_seed(spec)) for k, a in enumerate(sample_args(spec)) if a.kind == "array"}
    blocks, size = spec.dim[0], spec.block_dim
    inputs = np.asarray(values[x.name], dtype=np.float64).reshape(blocks, size)
    want = inputs - inputs.mean(axis=1, keepdims=True)
    centred = dict(_written(spec, warp_reference([spec], "t_tiled_untile")[spec.name]))
    got = next(v for a, v in centred.items() if a.name == spec.args[-1].name).reshape(blocks, size)
    assert np.abs(want).max() > 0.1
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_a_block_stride_loop_sums_each_blocks_own_elements():
    """`for j in range(lane, CHUNK, wp.block_dim())` then wp.tile and wp.tile_sum: block i's partial
    sum is numpy's sum of its CHUNK elements (x, x * x, x * y or |x - y|, as the kernel says), every
    element counted once whatever the block's size."""
    from cuda_production.reference import make_input

    spec = next(s for s in (generate("tiled", seed) for seed in range(3000))
                if "strided sums" in s.description and "partial" in s.description)
    arrays, position = {}, 0
    for a in spec.args:
        if a.kind == "array":
            arrays[a.name] = make_input(a, position, input_seed(spec)).astype(np.float64)
        position += len(a.flattened())
    inputs = [a for a in spec.args if a.role == "input"]
    partial = next(a for a in spec.args if a.name in ("partial_sums", "block_sums", "partials"))
    x = arrays[inputs[0].name].reshape(spec.dim[0], -1)
    y = arrays[inputs[1].name].reshape(spec.dim[0], -1) if len(inputs) > 1 else None
    term = spec.source.split(" += ")[1].split("\n")[0]
    values = {"xv * xv": x * x}.get(term)
    if values is None:
        values = x if y is None else (x * y if " * " in term else np.abs(x - y))
    blob = warp_reference([spec], "t_tiled_strided")[spec.name]
    offset = sum(a.size * 4 for a in spec.args if a.is_written and spec.args.index(a) < spec.args.index(partial))
    got = np.frombuffer(blob, dtype=np.float32, count=partial.size, offset=offset)
    np.testing.assert_allclose(got, values.sum(axis=1), rtol=1e-5, atol=1e-5)
    assert f"range(lane, " in spec.source and "wp.block_dim())" in spec.source


def _least_squares_with(feature: str) -> KernelSpec:
    return next(s for s in (generate("tiled", seed) for seed in range(4000))
                if "normal equations solved by Cholesky" in s.description and feature in s.description)


@pytest.mark.parametrize("feature", ["row weights (A^T W A)", "row panels per system", "tile_lower_solve",
                                     "log det from the factor's diagonal", "residual b - A x",
                                     "tile_cholesky_inplace"])
def test_a_least_squares_kernel_solves_its_damped_normal_equations(feature):
    """Block b's solution is numpy's solve of (A^T W A s + D) x = A^T W B s over its rows (W the row
    weights or 1, s 1/rows when averaged, D the damping table or constant), and its log det and
    residual are those of that system: Warp's outputs, independent of the translator."""
    from cuda_production.reference import make_input

    spec = _least_squares_with(feature)
    seed = input_seed(spec)
    values = {a.name: np.asarray(make_input(a, k, seed), dtype=np.float64).reshape(a.shape)
              for k, a in enumerate(sample_args(spec)) if a.kind == "array"}
    got = {a.name: np.asarray(v, dtype=np.float64).reshape(a.shape)
           for a, v in _written(spec, warp_reference([spec], "t_tiled_ls_" + str(spec.seed))[spec.name])}
    by_name = {a.name: a for a in spec.args}
    design, target = spec.args[0], spec.args[1]
    blocks, n = spec.dim[0], design.shape[1]
    rows = design.shape[0] // blocks
    weights = next((values[a] for a in ("w", "sample_weights", "row_weights") if a in by_name), np.ones((design.shape[0], 1)))
    constants = {node.targets[0].id: ast.literal_eval(node.value.args[0] if isinstance(node.value, ast.Call) else node.value)
                 for node in ast.parse(spec.source).body if isinstance(node, ast.Assign)}
    table = next((a for a in ("damping", "lam", "prior_precision") if a in by_name), None)
    damping = values[table] if table else np.full(n, next(constants[c] for c in ("LAMBDA", "DAMPING", "RIDGE") if c in constants))
    scale = 1.0 / rows if "averaged over the rows" in spec.description else 1.0
    solution = next(a for a in ("coef", "weights", "beta", "step", "delta", "dx") if a in got)
    for b in range(blocks):
        a, y, w = (v[b * rows:(b + 1) * rows] for v in (values[design.name], values[target.name], weights))
        h = (a * w).T @ a * scale + np.diag(damping)
        x = np.linalg.solve(h, (a * w).T @ y * scale)
        np.testing.assert_allclose(got[solution][b * n:(b + 1) * n], x, rtol=1e-4, atol=1e-5)
        for name in ("logdet", "log_det", "log_det_h"):
            if name in got:
                assert np.isclose(got[name][b], np.linalg.slogdet(h)[1], rtol=1e-4)
        for name in ("residuals", "misfit", "r_out"):
            if name in got:
                np.testing.assert_allclose(got[name][b * rows:(b + 1) * rows], y - a @ x, rtol=1e-4, atol=1e-4)
    assert np.abs(got[solution]).max() > 0.01  # a solution, not zeros


def _softmax_logits(spec: KernelSpec):
    """(input values by name, the logits t numpy computes from them, the module constants) of a softmax
    kernel: loaded logits (plus the bias row) or features @ W + b, times the temperature or scale."""
    from cuda_production.reference import make_input

    seed = input_seed(spec)
    values = {a.name: np.asarray(make_input(a, k, seed), dtype=np.float64).reshape(a.shape)
              for k, a in enumerate(sample_args(spec)) if a.kind == "array"}
    constants = {node.targets[0].id: ast.literal_eval(node.value.args[0] if isinstance(node.value, ast.Call) else node.value)
                 for node in ast.parse(spec.source).body if isinstance(node, ast.Assign)}

    def first(names):
        return next(values[n] for n in names if n in values)
    if "classifier head" in spec.description:
        t = first(("features", "hidden", "embeddings")) @ first(("W", "weights", "head")) + first(("b", "bias", "head_bias"))
    else:
        t = first(("logits", "scores", "x"))
        if "bias row shared" in spec.description:
            t = t + first(("bias", "pos_bias", "prior"))
    factor = next((constants[c] for c in ("INV_TEMPERATURE", "SHARPNESS", "BETA") if c in constants), 1.0)
    factor *= next((a.value for a in spec.args if a.role == "scalar"), 1.0)
    return values, t * factor, constants


@pytest.mark.parametrize("feature", ["cross-entropy per row", "log-probabilities", "log-sum-exp per row",
                                     "classifier head", "bias row shared", "(p @ V)", "label-smoothed",
                                     "entropy of each row", "scaled by an argument", "temperature",
                                     "predicted class (tile_argmax)", "rows predicted right"])
def test_a_row_softmax_kernel_is_numpys_softmax_of_each_row(feature):
    """Each block's row of logits t (loaded; plus the bias row; or features @ W + b; times the
    temperature constant or the scale argument): probabilities exp(t - lse), log-probabilities
    t - lse or the probabilities' mix of value rows p @ V, and its log-sum-exp, entropy lse - sum(p t),
    or cross-entropy lse - t[target] (label-smoothed: lse - (1 - eps) t[target] - eps mean(t)):
    Warp's outputs, independent of the translator."""
    specs = (s for s in (generate("tiled", seed) for seed in range(6000))
             if "Softmax of one row per block" in s.description and feature in s.description)
    if feature == "rows predicted right":  # one whose rows include some predicted right: a count above 0
        for spec in specs:
            values, t, constants = _softmax_logits(spec)
            target = next(values[n] for n in ("target", "labels", "classes") if n in values)
            if (t.argmax(axis=1) == target.astype(int)).any():
                break
    else:
        spec = next(specs)
        values, t, constants = _softmax_logits(spec)
    got = {a.name: np.asarray(v, dtype=np.float64).reshape(a.shape)
           for a, v in _written(spec, warp_reference([spec], "t_tiled_sm_" + str(spec.seed))[spec.name])}

    def first(names, table):
        return next(table[n] for n in names if n in table)
    lse = t.max(axis=1) + np.log(np.exp(t - t.max(axis=1, keepdims=True)).sum(axis=1))
    p = np.exp(t - lse[:, None])
    if "log-probabilities" in spec.description:
        np.testing.assert_allclose(first(("log_probs", "logp"), got), t - lse[:, None], atol=1e-4)
    elif "(p @ V)" in spec.description:
        np.testing.assert_allclose(first(("out", "context", "attended"), got), p @ first(("values", "V", "value_rows"), values),
                                   rtol=1e-4, atol=1e-5)
    else:
        np.testing.assert_allclose(first(("probs", "p_out", "attn"), got), p, rtol=1e-5, atol=1e-7)
    if "cross-entropy" in spec.description:
        picked = t[np.arange(len(t)), first(("target", "labels", "classes"), values).astype(int)]
        if "label-smoothed" in spec.description:
            eps = next(constants[c] for c in ("SMOOTHING", "LABEL_SMOOTHING", "EPS") if c in constants)
            want = lse - (1.0 - eps) * picked - eps * t.mean(axis=1)
        else:
            want = lse - picked
        np.testing.assert_allclose(first(("loss", "nll", "ce_loss"), got), want, rtol=1e-5, atol=1e-4)
    if "log-sum-exp per row" in spec.description:
        np.testing.assert_allclose(first(("lse", "log_norm", "row_lse"), got), lse, rtol=1e-5)
    if "entropy of each row" in spec.description:
        np.testing.assert_allclose(first(("entropy", "row_entropy", "uncertainty"), got), -(p * np.log(p)).sum(axis=1),
                                   rtol=1e-4, atol=1e-4)
    if "predicted class" in spec.description:
        predicted = first(("predicted", "pred_class", "argmax_out"), got)
        assert np.array_equal(predicted, t.argmax(axis=1))
        if "rows predicted right" in spec.description:  # counted once per row, not once per thread
            target = first(("target", "labels", "classes"), values).astype(int)
            assert first(("correct", "hits", "num_correct"), got)[0] == (predicted == target).sum()


ONLINE_SOFTMAX_VARIANTS = ("cross-entropy per row", "log-sum-exp per row", "probabilities in a second pass",
                           "log-probabilities in a second pass", "temperature", "scaled by an argument")


@pytest.mark.parametrize("feature", ONLINE_SOFTMAX_VARIANTS)
def test_an_online_softmax_over_chunks_is_numpys_softmax_of_the_whole_row(feature):
    """A row read in chunks with a running maximum and a rescaled running sum gives the whole row's
    log-sum-exp, and with it the row's cross-entropy against its target, its probabilities or
    log-probabilities: Warp's outputs against numpy's on the whole row."""
    spec = next(s for s in (generate("tiled", seed) for seed in range(6000))
                if "online softmax" in s.description and feature in s.description)
    values, got = _inputs_and_outputs(spec, "t_tiled_online_")
    names = _as_numpy(spec)
    scale = next((names[c] for c in ("INV_TEMPERATURE", "SHARPNESS", "BETA") if c in names), None) or \
        next((a.value for a in spec.args if a.role == "scalar"), 1.0)
    assert (scale != 1.0) == ("temperature" in spec.description or "scaled by an argument" in spec.description)
    x = values[spec.args[0].name].astype(np.float64) * scale
    assert x.shape[1] // int(re.search(r"over (\d+) chunks", spec.description).group(1)) <= 512  # chunks, not a row
    lse = x.max(axis=1) + np.log(np.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1))
    written = [a.name for a in spec.args if a.is_written]
    for name in ("log_z", "log_norm", "row_lse"):
        if name in written:
            written.remove(name)
            np.testing.assert_allclose(got[name].ravel(), lse, rtol=1e-5)
    d = spec.description
    if not written:  # the log-sum-exp alone
        assert "second pass" not in d and "cross-entropy" not in d
        return
    (out,) = (got[n] for n in written)
    if "cross-entropy per row" in d:
        target = values[spec.args[1].name].astype(int).ravel()
        want = lse - x[np.arange(len(x)), target]
    else:
        want = x - lse[:, None] if "log-probabilities in" in d else np.exp(x - lse[:, None])
    np.testing.assert_allclose(out.reshape(want.shape), want, rtol=1e-5, atol=1e-6)


def test_a_half_precision_linear_layer_is_the_float_product_of_its_half_inputs_rounded_to_half():
    """Activations and weights stored in half, summed in a float32 tile, the result rounded to half:
    Warp's output is numpy's float64 product of the same half values, within half's rounding."""
    from cuda_production.reference import make_input

    spec = next(s for s in (generate("tiled", seed) for seed in range(3000))
                if "half-precision inputs" in s.description and "rounded to half" in s.description
                and "tile_map" not in s.description and "bias" not in s.description)
    seed = input_seed(spec)
    values = {a.name: np.asarray(make_input(a, k, seed), dtype=np.float64).reshape(a.shape)
              for k, a in enumerate(sample_args(spec)) if a.kind == "array"}
    assert all(make_input(a, k, seed).dtype == np.float16 for k, a in enumerate(sample_args(spec)) if a.kind == "array"
               and a.role == "input")
    (out_arg, out), = _written(spec, warp_reference([spec], "t_tiled_half_" + str(spec.seed))[spec.name])
    x, w = (values[a.name] for a in spec.args[:2])
    product = x @ (w.T if "tile_transpose" in spec.source else w)
    got = np.asarray(out, dtype=np.float64).reshape(out_arg.shape)
    np.testing.assert_allclose(got, product.astype(np.float16).astype(np.float64), rtol=2e-3, atol=2e-3)
    assert np.abs(got - product).max() > 0.0  # rounded to half, not float32 values


def _bf16_layers(count: int) -> list[KernelSpec]:
    return [s for s in (generate("tiled", seed) for seed in range(2500)) if "bfloat16 inputs" in s.description][:count]


def test_a_bfloat16_linear_layer_is_written_for_tensor_cores():
    """Its tiles' sides are multiples of 16 (what wmma multiplies), its module forward-only (Warp's
    condition for bfloat16 operands), and its arrays bfloat16 but the bias."""
    specs = _bf16_layers(12)
    assert len(specs) == 12
    for spec in specs:
        assert spec.source.startswith('wp.set_module_options({"enable_backward": False})\n'), spec.source
        constants = {name: int(value) for name, value in
                     re.findall(r"^(\w+) = (?:wp\.constant\()?(\d+)\)?$", spec.source, re.M)}
        sizes = [int(constants.get(v, v)) for pair in re.findall(r"shape=\((\w+), (\w+)\)", spec.source) for v in pair]
        assert sizes and all(v % 16 == 0 for v in sizes if v != 1), (sizes, spec.source)
        x, w = spec.args[:2]
        assert x.dtype == w.dtype == "bfloat16"


def test_a_bfloat16_linear_layer_is_the_float_product_of_its_bfloat16_inputs():
    """Warp's output is numpy's float64 product of the same bfloat16 values: within float32's sums, or
    within bfloat16's rounding where the result is stored in bfloat16 (and then not float32 values)."""
    from cuda_production.reference import make_input
    from synthesis.dtypes import float_values

    specs = [s for s in _bf16_layers(40) if "tile_map" not in s.description]
    stores = {"bfloat16" if "rounded to bfloat16" in s.description else "float32" for s in specs}
    assert stores == {"bfloat16", "float32"}  # both kinds of output are checked
    for spec in specs:
        seed = input_seed(spec)
        values = {a.name: float_values(make_input(a, k, seed), a.dtype).astype(np.float64).reshape(a.shape)
                  for k, a in enumerate(sample_args(spec)) if a.kind == "array" and a.role in ("input", "inout")}
        (out_arg, out), = _written(spec, warp_reference([spec], "t_tiled_bf16_" + str(spec.seed))[spec.name])
        x, w = (values[a.name] for a in spec.args[:2])
        product = x @ (w.T if "tile_transpose" in spec.source else w)
        if "bias by tile_broadcast" in spec.description:
            product += values[spec.args[2].name]
        if out_arg.role == "inout":  # the result added to what the output held
            product += values[out_arg.name]
        if out_arg.dtype == "bfloat16":
            got = float_values(out, "bfloat16").astype(np.float64).reshape(out_arg.shape)
            np.testing.assert_allclose(got, product, rtol=2 ** -8, atol=2 ** -8)
            assert np.abs(got - product).max() > 0.0  # rounded to bfloat16
        else:
            got = np.asarray(out, dtype=np.float64).reshape(out_arg.shape)
            np.testing.assert_allclose(got, product, rtol=1e-6, atol=1e-5)


SESSION_47_FORMS = ("the depth by tile_sum", "Volume rendering", "balancing bias", "softmax over all experts",
                    "argtop-k", "square roots", "weighted per entry", "(1 x bag) tile product", "pooled by max",
                    "interpolated between ranks", "the range (", "from the deviations", "densest sample",
                    "online softmax", "Prefix sums across blocks", "Cumulative distribution", "first moment")


def test_the_tiled_kernels_the_breadth_stream_leaves_alone_keep_their_draws(monkeypatch):
    """Every kernel without one of session 47's forms draws exactly what it draws when the breadth
    stream always keeps the earlier forms: the stream changes only the kernels it gives a new form."""
    drawn = {seed: generate("tiled", seed) for seed in range(600)}
    kept = {seed: s.source for seed, s in drawn.items() if not any(f in s.description for f in SESSION_47_FORMS)}
    assert 0 < len(drawn) - len(kept) < len(drawn) // 10
    init = tiled.TileKernel.__init__

    def with_earlier_forms(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self.breadth = EarlierForms()
    monkeypatch.setattr(tiled.TileKernel, "__init__", with_earlier_forms)
    assert {seed: generate("tiled", seed).source for seed in kept} == kept
    assert not any(f in generate("tiled", seed).description for seed in drawn for f in SESSION_47_FORMS)


def test_the_tiled_kernels_bfloat16_does_not_take_keep_their_draws(monkeypatch):
    """Every kernel that is not a bfloat16 layer, those the stream chooses included (their storage was
    not half), draws exactly what it draws with the share switched off."""
    drawn = {seed: generate("tiled", seed) for seed in range(400)}
    kept = {seed: s.source for seed, s in drawn.items() if "bfloat16 inputs" not in s.description}
    assert len(kept) < len(drawn) and any(tiled.chooses_bf16(seed) for seed in kept)
    monkeypatch.setattr(tiled, "chooses_bf16", lambda seed: False)
    assert {seed: generate("tiled", seed).source for seed in kept} == kept


def _as_numpy(spec: KernelSpec):
    """The kernel's module constants and @wp.funcs, run by numpy: each helper's body evaluated with `wp`
    standing for numpy (wp.cos -> np.cos, ...), so a helper's meaning is computed from its own text."""
    tree = ast.parse(spec.source)
    shim = type("wp", (), {"pi": np.pi, "cos": np.cos, "sin": np.sin, "exp": np.exp, "tanh": np.tanh,
                           "abs": np.abs, "max": np.maximum, "sqrt": np.sqrt, "log": np.log,
                           "constant": staticmethod(lambda v: v)})
    names: dict = {"wp": shim, "float": lambda v: np.float64(v)}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            exec(compile(ast.Module([node], []), "<const>", "exec"), names)
        elif isinstance(node, ast.FunctionDef) and node.name != spec.name:
            node.decorator_list, node.returns = [], None
            for a in node.args.args:
                a.annotation = None
            exec(compile(ast.fix_missing_locations(ast.Module([node], [])), "<func>", "exec"), names)
    return names


POSITION_VARIANTS = [("Centroid", "its spread"), ("Centroid", "cell centres"), ("Centroid", "energy-weighted"),
                     ("Centroid", "amplitude-weighted"), ("Centroid", "the block's total weight"),
                     ("Centroid", "the block's first index"), ("Window", "energy per block"),
                     ("Window", "normalised by the window's sum"), ("Window", "energy in total"),
                     ("Window", "applied in place"), ("Integral", "midpoint rule"), ("Integral", "trapezoid rule"),
                     ("Integral", "width from an argument"), ("Integral", "first moment"),
                     ("Transmittance", "exp(-sigma dt)"),
                     ("Transmittance", "segments per ray"), ("Transmittance", "the depth by tile_sum"),
                     ("Transmittance", "the optical depth"), ("Centroid", "from the deviations"),
                     ("Centroid", "densest sample"), ("Volume rendering", "emission-absorption"),
                     ("Volume rendering", "alpha compositing"), ("Volume rendering", "the depth carried"),
                     ("Volume rendering", "the log of the light left carried"),
                     ("Volume rendering", "accumulated opacity"), ("Volume rendering", "expected depth")]


@pytest.mark.parametrize("use,feature", POSITION_VARIANTS, ids=[f"{u}: {f}" for u, f in POSITION_VARIANTS])
def test_a_positions_kernel_means_what_numpy_says(use, feature):
    """Tiles of positions built by tile_arange (+ tile_full): each block's centroid sum(x w) / sum(w) of
    its weights (loaded, |a| or a^2) at positions within the block, in the array or at cell centres,
    its mass and spread; a window function of the sample index times the signal (over the window's
    sum), stored or tapered in place, and its energy; the midpoint rule sum f((k + 1/2) h) h or the
    trapezoid rule with end weights 1/2 over blocks sharing their ends, f of a width argument in some;
    the transmittance prod(1 - alpha) or prod(exp(-sigma dt)) over a ray's segments: Warp's outputs,
    against numpy on the same inputs (helpers evaluated by numpy from their own text)."""
    from cuda_production.reference import make_input

    spec = next(s for s in (generate("tiled", seed) for seed in range(6000))
                if s.description.startswith(use) and feature in s.description)
    seed = input_seed(spec)
    values = {a.name: np.asarray(make_input(a, k, seed), dtype=np.float64).reshape(a.shape)
              for k, a in enumerate(sample_args(spec)) if a.kind == "array"}
    got = {a.name: np.asarray(v, dtype=np.float64) for a, v in
           _written(spec, warp_reference([spec], "t_tiled_pos_" + str(spec.seed))[spec.name])}
    names = _as_numpy(spec)
    blocks = spec.dim[0]
    inputs = [values[a.name] for a in spec.args if a.role in ("input", "inout")]
    d = spec.description

    def out(*hints):
        return next(got[h] for h in hints if h in got)
    # the tile's length: its constant, or the literal the kernel writes
    size = next((int(names[c]) for c in ("TILE", "SAMPLES", "BLOCK_ITEMS") if c in names), None) \
        or int(re.search(r"(?:tile_arange\((?:0, )?|shape=)(\d+)", spec.source).group(1))
    if use == "Centroid":
        raw = inputs[0].reshape(blocks, size)
        w = np.abs(raw) if "amplitude-weighted" in d else raw * raw if "energy-weighted" in d else raw
        local = np.arange(size, dtype=np.float64)
        index = local + size * np.arange(blocks)[:, None]
        if "cell centres" in d:
            spacing = next(names[c] for c in ("DX", "CELL", "SPACING") if c in names)
            x = (index + 0.5) * spacing
        else:
            x = index if "first index" in d else local
        want = (index * w).sum(axis=1) / w.sum(axis=1) if "cell centres" not in d else (x * w).sum(axis=1) / w.sum(axis=1)
        np.testing.assert_allclose(out("centroid", "center", "mean_pos"), want, rtol=1e-5)
        if "total weight" in d:
            np.testing.assert_allclose(out("block_mass", "total_weight", "m0_out"), w.sum(axis=1), rtol=1e-5)
        if "its spread" in d:  # about the centroid in the kernel's own positions
            c = (x * w).sum(axis=1) / w.sum(axis=1)
            spread = np.sqrt(((x - c[:, None]) ** 2 * w).sum(axis=1) / w.sum(axis=1))
            np.testing.assert_allclose(out("spread", "width", "std_pos"), spread, rtol=1e-3)
        if "densest sample" in d:
            assert all((b == b.max()).sum() == 1 for b in w)  # one largest weight per block
            assert list(out("peak", "densest", "argmax_pos")) == list(size * np.arange(blocks) + w.argmax(axis=1))
    elif use == "Volume rendering":  # per ray: its samples in order, over its segments
        first, colors = (v.reshape(blocks, -1) for v in inputs)
        n = first.shape[1]
        if "emission-absorption" in d:
            step = next(names[c] for c in ("DT", "STEP_LEN", "DS") if c in names)
            depth = np.cumsum(first, axis=1) - first  # the density before each sample
            weights = np.exp(-depth * step) * (1.0 - np.exp(-first * step))
            left = np.exp(-first.sum(axis=1) * step)
        else:
            step = 1.0  # distances in samples
            log_left = np.cumsum(np.log(1.0 - first), axis=1) - np.log(1.0 - first)
            weights = np.exp(log_left) * first
            left = np.prod(1.0 - first, axis=1)
        np.testing.assert_allclose(out("color", "pixel", "rendered", "color_out", "composited"),
                                   (weights * colors).sum(axis=1), rtol=1e-4, atol=1e-6)
        assert 0.05 < left.min() and left.max() < 0.95  # the ray absorbs some light, not all
        if "light left behind" in d:
            np.testing.assert_allclose(out("transmittance", "visibility", "background_weight"), left, rtol=1e-4)
        if "accumulated opacity" in d:
            np.testing.assert_allclose(out("acc_map", "opacity_acc", "coverage"), weights.sum(axis=1), rtol=1e-4)
            np.testing.assert_allclose(weights.sum(axis=1), 1.0 - left, rtol=1e-6)  # what the ray took
        if "expected depth" in d:
            np.testing.assert_allclose(out("depth_map", "expected_depth", "ray_depth"),
                                       (weights * np.arange(n)).sum(axis=1) * step, rtol=1e-4)
    elif use == "Window":
        window = next(names[f] for f in ("hann", "hamming", "blackman", "sine") if f in names)(np.arange(size, dtype=np.float64))
        x = inputs[0].reshape(blocks, size)
        y = x * window / (window.sum() if "normalised" in d else 1.0)
        stored = out("windowed", "tapered", "y_out") if "in place" not in d else got[spec.args[0].name]
        np.testing.assert_allclose(stored.reshape(blocks, size), y, atol=1e-6)
        assert not np.allclose(y, x)  # the window tapers
        if "energy per block" in d:
            np.testing.assert_allclose(out("energy", "power", "block_energy"), (y * y).sum(axis=1), rtol=1e-4, atol=1e-7)
        if "energy in total" in d:
            start = values[next(n for n in ("total_energy", "power_sum", "energy") if n in got)]
            np.testing.assert_allclose(out("total_energy", "power_sum", "energy"), start + (y * y).sum(), rtol=1e-4)
    elif use == "Integral":
        h = 1.0 / (4 * size)
        k = np.arange(size, dtype=np.float64)
        if "trapezoid" in d:
            x = (k + (size - 1) * np.arange(blocks)[:, None]) * h
            weights = np.where((k == 0) | (k == size - 1), 0.5, 1.0)
        else:
            x = (k + size * np.arange(blocks)[:, None] + 0.5) * h
            weights = np.ones(size)
        fn = spec.source.split("wp.tile_map(")[-1].split(",")[0]
        f = getattr(names["wp"], fn[3:]) if fn.startswith("wp.") else names[fn]
        fx = f(x, next(a.value for a in spec.args if a.role == "scalar")) if "width" in d else f(x)
        fx = fx * x if "first moment" in d else fx
        pieces = (fx * weights).sum(axis=1) * h
        for a in spec.args:
            if a.is_written:
                want = pieces if got[a.name].size == blocks else values[a.name].ravel() + pieces.sum()
                np.testing.assert_allclose(got[a.name], want, rtol=1e-4, atol=1e-6)
    else:
        samples = inputs[0].reshape(blocks, -1)
        if "the depth by tile_sum" in d:
            step = next(names[c] for c in ("DT", "STEP_LEN", "DS") if c in names)
            factors = np.exp(-samples * step)
            if "the optical depth" in d:
                np.testing.assert_allclose(out("optical_depth", "tau_out", "depth_out"), samples.sum(axis=1) * step,
                                           rtol=1e-5)
        elif "exp(-sigma dt)" in d:
            step = next(names[c] for c in ("DT", "STEP_LEN", "DS") if c in names)
            factors = np.exp(-samples * step)
        else:
            factors = 1.0 - samples
        transmittance = np.prod(factors, axis=1)
        np.testing.assert_allclose(out("transmittance", "visibility", "survival"), transmittance, rtol=1e-5)
        assert 0.05 < transmittance.min() and transmittance.max() < 0.95  # absorbs some, not all
        if any(n in got for n in ("opacity_out", "coverage", "absorbed")):
            np.testing.assert_allclose(out("opacity_out", "coverage", "absorbed"), 1.0 - transmittance, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("kind", ["max", "min"])
def test_a_located_extreme_is_numpys_index_in_the_array(kind):
    """A block's largest (smallest) loaded element and its index in the array (block offset + tile_argmax
    / tile_argmin): Warp's outputs, against numpy; the inputs on a fine grid hold no equal extremes."""
    from cuda_production.reference import make_input

    spec = next(s for s in (generate("tiled", seed) for seed in range(20000))
                if f"its index (tile_arg{kind})" in s.description and f"wp.tile_arg{kind}(a)" in s.source)
    seed = input_seed(spec)
    x = next(np.asarray(make_input(a, k, seed), dtype=np.float64) for k, a in enumerate(sample_args(spec))
             if a.role == "input")
    blocks = x.reshape(spec.dim[0], -1)
    pick = blocks.argmax(axis=1) if kind == "max" else blocks.argmin(axis=1)
    for b in blocks:
        assert (b == (b.max() if kind == "max" else b.min())).sum() == 1
    index = next(v for a, v in _written(spec, warp_reference([spec], f"t_tiled_loc_{kind}")[spec.name])
                 if a.dtype == "int32")
    assert list(index) == [b * blocks.shape[1] + k for b, k in enumerate(pick)]


def _inputs_and_outputs(spec: KernelSpec, tag: str) -> tuple[dict, dict]:
    """The sample's arrays as the program builds them, and Warp's values of the written ones (CPU
    module `tag` + seed), each shaped as its argument."""
    from cuda_production.reference import make_input

    def shaped(a, v) -> np.ndarray:  # a vector array: its components last
        v = np.asarray(v)
        return v.reshape(a.shape) if v.size == np.prod(a.shape) else v.reshape(*a.shape, -1)

    seed = input_seed(spec)
    values = {a.name: shaped(a, make_input(a, k, seed)) for k, a in enumerate(sample_args(spec)) if a.kind == "array"}
    got = {a.name: shaped(a, v) for a, v in _written(spec, warp_reference([spec], tag + str(spec.seed))[spec.name])}
    return values, got


GATHER_SORT_VARIANTS = [("Embedding bag", "pooled by sum"), ("Embedding bag", "pooled by mean"),
                        ("Embedding bag", "pooled by sqrtn"), ("Embedding bag", "pooled by mean & missing entries"),
                        ("Embedding bag", "pooled by sqrtn & missing entries"),
                        ("Neighbour aggregation", "mean of the neighbours"), ("Neighbour aggregation", "max of the neighbours"),
                        ("Neighbour aggregation", "blended"), ("Neighbour aggregation", "aggregate alone"),
                        ("Neighbour aggregation", "tile_map("), ("Edge features", "edge convolution"),
                        ("Laplacian smoothing", "smoothing step"), ("Laplacian smoothing", "aggregate alone"),
                        ("Top-k of each row", "negated scores"),
                        ("Top-k experts", "softmax over the chosen"), ("Top-k experts", "balancing bias"),
                        ("Top-k experts", "softmax over all experts"), ("Top-k of each row", "argtop-k"),
                        ("Nearest k", "tile_sort of distances"), ("Nearest k", "square roots"),
                        ("Embedding bag", "weighted per entry"), ("Embedding bag", "(1 x bag) tile product"),
                        ("Embedding bag", "pooled by max"), ("Order statistics", "percentile"),
                        ("Order statistics", "the range"), ("Order statistics", "median by"),
                        ("Order statistics", "where the median lies"), ("Order statistics", "interquartile range"),
                        ("Order statistics", "central ranks"), ("Order statistics", "stored in order"),
                        ("Order statistics", "median absolute deviation"),
                        ("Histogram", "left out (has_value)"), ("Histogram", "clamped into the end bins"),
                        ("Histogram", "masked by a flag array"), ("Histogram", "weighted histogram"),
                        ("Histogram", "values a thread"), ("Histogram", "merged into one histogram"),
                        ("Histogram", "cumulative counts")]


@pytest.mark.parametrize("use,feature", GATHER_SORT_VARIANTS, ids=[f"{u}: {f}" for u, f in GATHER_SORT_VARIANTS])
def test_a_gather_or_sort_kernel_means_what_numpy_says(use, feature):
    """Gathers by tile_load_indexed and sorts by tile_sort: an embedding bag's pooled rows (sum, mean or sum
    / sqrt(n) over the entries present, a negative index a missing one); each node's own features plus the mean or
    largest of its neighbours', or the largest difference to them; the first k of a row by score
    (descending) or distance (ascending) with their indices, and a router's gates (softmax over the
    chosen logits); a block's median, where it lies, quartile range, trimmed mean and sorted samples; a
    block's histogram (counts or weights; values past the range or masked left out, or clamped into the
    end bins) merged into one, stored per block or as cumulative counts: Warp's outputs against numpy
    on the same inputs."""
    spec = next(s for s in (generate("tiled", seed) for seed in range(8000))
                if s.description.startswith(use) and all(f in s.description for f in feature.split(" & ")))
    values, got = _inputs_and_outputs(spec, "t_tiled_gs_")
    names = _as_numpy(spec)
    blocks = spec.dim[0]
    inputs = [a for a in spec.args if a.role in ("input", "index")]
    outputs = [a.name for a in spec.args if a.is_written]
    d = spec.description
    if use == "Embedding bag":
        table, ids, *weights = (values[a.name].astype(np.float64) if a.dtype == "float32" else values[a.name]
                                for a in inputs)
        ids = ids.reshape(blocks, -1)
        present = ids >= 0
        assert present.all() != ("missing entries" in d)  # padded bags have missing entries
        if weights:  # a weight per entry (a missing one's row is zeros, whatever its weight)
            w = weights[0].reshape(blocks, -1)
            want = np.stack([(table[np.maximum(row, 0)] * (row >= 0)[:, None] * wb[:, None]).sum(axis=0)
                             for row, wb in zip(ids, w)])
            assert np.ptp(w) > 0.5  # weights that differ, not ones
        elif "by max" in d:
            want = np.stack([table[row].max(axis=0) for row in ids])
        else:
            pooled = np.stack([table[row[row >= 0]].sum(axis=0) for row in ids])
            n = np.maximum(present.sum(axis=1), 1)[:, None]
            want = pooled / n if "by mean" in d else pooled / np.sqrt(n) if "by sqrtn" in d else pooled
        np.testing.assert_allclose(got[outputs[0]].reshape(blocks, -1), want, rtol=1e-5, atol=1e-6)
    elif use in ("Neighbour aggregation", "Edge features", "Laplacian smoothing"):
        x, nbr = (values[a.name] for a in inputs)
        x = x.astype(np.float64)
        h = x[nbr]  # (nodes, K, F)
        agg = ((h - x[:, None, :]).max(axis=1) if use == "Edge features" else h.mean(axis=1) - x
               if use == "Laplacian smoothing" else h.mean(axis=1) if "mean of" in d else h.max(axis=1))
        if "blended" in d:
            alpha = next(names[c] for c in ("ALPHA", "SELF_WEIGHT") if c in names)
            want = x * alpha + agg * (1.0 - alpha)
        elif "smoothing step" in d:
            want = x + agg * next(names[c] for c in ("LAMBDA", "SMOOTHING", "RATE") if c in names)
        else:
            want = agg if "aggregate alone" in d else x + agg
        if "tile_map(" in d:  # a layer's activation, evaluated by numpy from its own text
            fn = spec.source.split("wp.tile_map(")[-1].split(",")[0]
            want = np.vectorize(getattr(names["wp"], fn[3:]) if fn.startswith("wp.") else names[fn])(want)
        np.testing.assert_allclose(got[outputs[0]], want, rtol=1e-5, atol=1e-6)
        assert nbr.max() > nbr.shape[0] // 2  # the neighbours span the nodes, not their first rows
    elif use == "Histogram":
        x = values[inputs[0].name].astype(np.float64).ravel()
        lo = float(re.search(r"\(v \+ ([\d.]+)\)", spec.source).group(1)) * -1 if "(v + " in spec.source else 0.0
        scale = float(re.search(r"\) \* ([\d.]+)\)|v \* ([\d.]+)\)", spec.source).group(0).split("* ")[1].rstrip(")"))
        nb = got[outputs[0]].shape[-1]
        b = np.minimum(((x - lo) * scale).astype(np.int64), nb - 1)
        b = np.maximum(b, 0)
        if "left out" in d:
            keep = x < float(re.search(r"v < ([\d.]+)\)", spec.source).group(1))
        elif "masked" in d:
            keep = next(values[a.name].ravel() for a in inputs if a.dtype == "int32") != 0
        else:
            keep = np.ones(x.size, bool)
        w = next((values[a.name].ravel().astype(np.float64) for a in inputs[1:] if a.dtype == "float32"), np.ones(x.size))
        per = x.size // blocks
        hist = np.stack([np.bincount(b[k * per:(k + 1) * per][keep[k * per:(k + 1) * per]],
                                     weights=w[k * per:(k + 1) * per][keep[k * per:(k + 1) * per]], minlength=nb)
                         for k in range(blocks)])
        out = got[outputs[0]]
        if "merged into one" in d:
            start = values[outputs[0]].ravel()
            np.testing.assert_allclose(out, start + hist.sum(axis=0), rtol=1e-5)
        else:
            np.testing.assert_allclose(out.reshape(blocks, nb), np.cumsum(hist, axis=1) if "cumulative" in d else hist,
                                       rtol=1e-5)
        assert keep.sum() < x.size if ("left out" in d or "masked" in d) else True
    elif use == "Order statistics":
        x = values[inputs[0].name].astype(np.float64).reshape(blocks, -1)
        size = x.shape[1]
        ordered = np.sort(x, axis=1)
        by = {a.name: a for a in spec.args}
        for name in outputs:
            if name in ("median", "med"):
                np.testing.assert_allclose(got[name], np.median(x, axis=1), rtol=1e-6)
            elif name in ("median_at", "median_idx"):
                assert by[name].dtype == "int32"
                assert list(got[name]) == [b * size + int(np.argsort(x[b])[size // 2]) for b in range(blocks)]
            elif name in ("iqr", "spread"):
                np.testing.assert_allclose(got[name], ordered[:, 3 * size // 4] - ordered[:, size // 4], rtol=1e-6)
            elif name in ("mad", "abs_dev"):
                np.testing.assert_allclose(got[name], np.median(np.abs(x - np.median(x, axis=1)[:, None]), axis=1),
                                           rtol=1e-5, atol=1e-7)
            elif name in ("trimmed_mean", "robust_mean"):
                trim = size // 8
                np.testing.assert_allclose(got[name], ordered[:, trim:size - trim].mean(axis=1), rtol=1e-5)
            elif name in ("value_range", "span", "extent"):
                np.testing.assert_allclose(got[name], np.ptp(x, axis=1), rtol=1e-6)
            elif name in ("quantile", "percentile", "q_value"):  # numpy's default method: linear between ranks
                q = next(names[c] for c in ("Q", "QUANTILE", "LEVEL") if c in names)
                np.testing.assert_allclose(got[name], np.quantile(x, q, axis=1), rtol=1e-5, atol=1e-6)
            else:
                np.testing.assert_array_equal(got[name].reshape(blocks, -1), ordered)
    else:
        scores = values[inputs[0].name].astype(np.float64).reshape(blocks, -1)
        ids = got[outputs[0]]
        k = ids.shape[1]
        # a balancing bias (an input of its own) chooses the experts, and nothing else
        keys = scores + values[inputs[1].name].astype(np.float64) if "balancing bias" in d else scores
        order = np.argsort(keys if use == "Nearest k" else -keys, axis=1, kind="stable")[:, :k]
        assert all(len(set(row)) == row.size for row in keys)  # on a fine grid: no equal keys
        np.testing.assert_array_equal(ids, order)
        if "argtop-k" in d:
            assert outputs == [outputs[0]]  # the indices alone
            return
        chosen = got[outputs[1]]
        picked = np.take_along_axis(scores, order, axis=1)
        np.testing.assert_allclose(chosen, np.sqrt(picked) if "square roots" in d else picked, rtol=1e-6)
        if "balancing bias" in d:
            gate = 1.0 / (1.0 + np.exp(-picked))
            np.testing.assert_allclose(got[outputs[2]], gate / gate.sum(axis=1, keepdims=True), rtol=1e-5)
            assert not np.array_equal(order, np.argsort(-scores, axis=1, kind="stable")[:, :k])  # the bias mattered
        elif "softmax over all experts" in d:
            e = np.exp(scores - scores.max(axis=1, keepdims=True))
            np.testing.assert_allclose(got[outputs[2]], np.take_along_axis(e, order, axis=1) / e.sum(axis=1, keepdims=True),
                                       rtol=1e-5)
        elif use == "Top-k experts":
            e = np.exp(chosen - chosen[:, :1])
            np.testing.assert_allclose(got[outputs[2]], e / e.sum(axis=1, keepdims=True), rtol=1e-5)


COMPACTION_VARIANTS = ("values above a threshold", "magnitude above a tolerance", "values within a range",
                       "a 0/1 mask", "inclusive prefix sums", "exclusive prefix sums", "kept values scattered",
                       "indices scattered", "kept values and their indices", "count by tile_sum",
                       "written by one thread", "a global count", "a row of outputs per block")


@pytest.mark.parametrize("spec", specs_with_every_variant("tiled", tiled.chooses_compaction, COMPACTION_VARIANTS, 4,
                                                          "Stream compaction"),
                         ids=lambda spec: spec.name)
def test_a_compaction_kernel_keeps_each_blocks_chosen_elements_in_order(spec):
    """Each block's kept elements (a value's predicate, evaluated by numpy from the helper's own text, or
    the mask) in their order at the start of the block's segment, their indices in the array, the rest of
    the segment as it was; the block's count and the total: Warp's outputs against numpy on the same
    inputs, and a quarter to three quarters of the elements kept."""
    values, got = _inputs_and_outputs(spec, "t_tiled_compact_")
    blocks = spec.dim[0]
    x = values[spec.args[0].name].astype(np.float64).reshape(blocks, -1)
    mask = next((values[a.name] for a in spec.args if a.role == "index"), None)
    if mask is not None:
        keep = mask.reshape(blocks, -1) == 1
    else:
        predicate = _as_numpy(spec)[re.search(r"wp\.tile_map\((\w+), x\)", spec.source).group(1)]
        keep = np.vectorize(lambda v: predicate(v) == 1)(x)
    assert 0.2 < keep.mean() < 0.8
    size = x.shape[1]
    outputs = [a for a in spec.args if a.is_written]
    by_kind = {("ids" if a.dtype == "int32" and np.prod(a.shape) == x.size else "kept" if a.dtype == "float32"
                else "counts" if a.shape[0] == blocks else "total"): a.name for a in outputs}
    assert ("kept" in by_kind or "ids" in by_kind) and "counts" in by_kind
    for name, chosen in (("kept", x), ("ids", np.arange(x.size).reshape(blocks, size))):
        if name in by_kind:
            want = values[by_kind[name]].reshape(blocks, size).copy()
            for b in range(blocks):
                want[b, :keep[b].sum()] = chosen[b][keep[b]]
            np.testing.assert_array_equal(got[by_kind[name]].reshape(blocks, size), want)
    np.testing.assert_array_equal(got[by_kind["counts"]], keep.sum(axis=1))
    if "total" in by_kind:
        np.testing.assert_array_equal(got[by_kind["total"]], values[by_kind["total"]] + keep.sum())


def test_the_tiled_kernels_compaction_does_not_take_keep_their_draws(monkeypatch):
    assert_others_keep_their_draws(monkeypatch, "tiled", tiled, "chooses_compaction")


BLOCK_SCAN_VARIANTS = ("of magnitudes", "inclusive prefix sums", "exclusive prefix sums", "by tile_sum",
                       "written by its last thread", "int counts")


@pytest.mark.parametrize("spec", specs_with_every_variant("tiled", tiled.chooses_compaction, BLOCK_SCAN_VARIANTS, 3,
                                                          "Prefix sums within blocks"),
                         ids=lambda spec: spec.name)
def test_a_block_scan_kernel_stores_each_blocks_prefix_sums_and_total(spec):
    """Each block's inclusive (or exclusive) prefix sums of its values (or their magnitudes), and its
    total: Warp's outputs against numpy's cumulative sums, exactly (the inputs' grid keeps every partial
    sum exact in float32)."""
    values, got = _inputs_and_outputs(spec, "t_tiled_scan_")
    got = {name: v.astype(np.float64).ravel() for name, v in got.items()}
    blocks = spec.dim[0]
    x = values[spec.args[0].name].astype(np.float64).reshape(blocks, -1)
    x = np.abs(x) if "of magnitudes" in spec.description else x
    inclusive = np.cumsum(x, axis=1)
    prefix, totals = (got[a.name] for a in spec.args if a.is_written)
    want = inclusive if "inclusive prefix sums" in spec.description else inclusive - x
    np.testing.assert_array_equal(prefix.reshape(blocks, -1), want)
    np.testing.assert_array_equal(totals, x.sum(axis=1))
    assert (want != 0).mean() > 0.9  # sums of values that vary, not of zeros


SECOND_PASS_VARIANTS = ("offset of each block given", "summed from the totals", "in place", "int counts")


@pytest.mark.parametrize("spec", specs_with_every_variant("tiled", tiled.chooses_compaction, SECOND_PASS_VARIANTS, 3,
                                                          "Prefix sums across blocks"),
                         ids=lambda spec: spec.name)
def test_a_scans_second_pass_adds_each_blocks_offset(spec):
    """Each block's prefix sums plus the offset of the blocks before it: the given exclusive sum of the
    totals, or the sum of the totals of blocks 0..i-1: Warp's outputs against numpy, exactly (ints, or
    floats on the kernel's grid)."""
    values, got = _inputs_and_outputs(spec, "t_tiled_scan2_")
    blocks = spec.dim[0]
    scanned, carry = (values[a.name] for a in spec.args if a.role in ("input", "index", "inout"))
    carry = carry.ravel()
    offsets = carry if "given" in spec.description else np.concatenate([[0], np.cumsum(carry)[:-1]])
    (out_name,) = (a.name for a in spec.args if a.is_written)
    want = scanned.reshape(blocks, -1) + offsets[:, None]
    np.testing.assert_array_equal(got[out_name].reshape(blocks, -1), want)
    assert np.count_nonzero(offsets) >= blocks - 1  # the offsets add something to every block but the first


CDF_VARIANTS = ("of magnitudes", "inverse transform", "the block's total")


@pytest.mark.parametrize("spec", specs_with_every_variant("tiled", tiled.chooses_compaction, CDF_VARIANTS, 3,
                                                          "Cumulative distribution"),
                         ids=lambda spec: spec.name)
def test_a_block_cdf_is_the_normalised_cumulative_sum(spec):
    """Each block's CDF, the cumulative sums of its weights (or magnitudes) over their total, ending at
    1; the sample drawn for a uniform u the first index whose CDF reaches u (numpy's searchsorted);
    the total: Warp's outputs against numpy."""
    values, got = _inputs_and_outputs(spec, "t_tiled_cdf_")
    blocks = spec.dim[0]
    inputs = [a.name for a in spec.args if a.role == "input"]
    w = values[inputs[0]].astype(np.float64).reshape(blocks, -1)
    w = np.abs(w) if "of magnitudes" in spec.description else w
    cdf = np.cumsum(w, axis=1) / w.sum(axis=1, keepdims=True)
    outputs = {a.name: got[a.name] for a in spec.args if a.is_written}
    np.testing.assert_allclose(outputs.pop(next(n for n in ("cdf_out", "cumulative", "block_cdf") if n in outputs))
                               .reshape(blocks, -1), cdf, rtol=1e-6, atol=1e-7)
    if "inverse transform" in spec.description:
        u = values[inputs[1]].astype(np.float64).ravel()
        drawn = outputs.pop(next(n for n in ("sample_idx", "drawn", "chosen") if n in outputs))
        want = [b * w.shape[1] + min(int(np.searchsorted(cdf[b], u[b], side="left")), w.shape[1] - 1)
                for b in range(blocks)]
        assert list(drawn.ravel()) == want
        assert len(set(np.array(want) % w.shape[1])) > 1  # draws that differ between blocks
    if "the block's total" in spec.description:
        (total,) = outputs.values()
        np.testing.assert_allclose(total.ravel(), w.sum(axis=1), rtol=1e-6)


SPATIAL_SORT_VARIANTS = ("2-D Morton codes", "3-D Morton codes", "(shifts and masks", "(multiplies and masks",
                         "2-D linear cell index", "3-D linear cell index",
                         "the sorted keys stored", "the sorted codes stored", "gathered in sorted order",
                         "starting a new cell")


def _morton(cells: np.ndarray, bits: int) -> np.ndarray:
    """Z-order codes of integer cells (n, dims), bit by bit: bit b of axis a (x first) at place
    dims * b + dims - 1 - a."""
    dims = cells.shape[1]
    code = np.zeros(len(cells), dtype=np.uint64)
    for b in range(bits):
        for a in range(dims):
            code |= ((cells[:, a].astype(np.uint64) >> b) & 1) << (dims * b + dims - 1 - a)
    return code


@pytest.mark.parametrize("spec", specs_with_every_variant("tiled", tiled.chooses_spatial_sort, SPATIAL_SORT_VARIANTS,
                                                          4, "Points sorted by"),
                         ids=lambda spec: spec.name)
def test_a_spatial_sort_kernel_orders_each_blocks_points_by_their_cells(spec):
    """Each block's points in the order of their cells' Morton codes or linear indices (x fastest; each
    point's cell in the box the points are drawn from, the box's side split into 2**bits cells; the lane
    breaking ties), the permutation,
    the sorted keys or codes, and the gathered points or the cell-start flags: Warp's outputs against
    numpy's bit-by-bit interleaving on the same inputs."""
    values, got = _inputs_and_outputs(spec, "t_tiled_morton_")
    points_arg = spec.args[0]
    dims = 2 if points_arg.dtype == "vec2" else 3
    bits = int(re.search(r"(\d+) bits per axis", spec.description).group(1))
    blocks, block = spec.dim[0], spec.block_dim
    lane_bits = block.bit_length() - 1
    p = values[points_arg.name].astype(np.float64).reshape(blocks * block, dims)
    cells = np.clip(np.floor((p - points_arg.low) / (points_arg.high - points_arg.low) * 2**bits), 0, 2**bits - 1)
    if "linear cell index" in spec.description:
        code = sum(cells[:, a].astype(np.uint64) << np.uint64(a * bits) for a in range(dims)).reshape(blocks, block)
    else:
        code = _morton(cells.astype(np.int64), bits).reshape(blocks, block)
    key = (code << np.uint64(lane_bits)) | np.arange(block, dtype=np.uint64)
    order = np.argsort(key, axis=1, kind="stable")  # the keys are distinct: any sort gives this order
    want_ids = order + (np.arange(blocks) * block)[:, None]
    written = [a for a in spec.args if a.is_written]
    sorted_values, ids = got[written[0].name].astype(np.uint64), got[written[1].name]
    want_sorted = np.take_along_axis(key, order, axis=1)
    if "the sorted codes stored" in spec.description:
        want_sorted = want_sorted >> np.uint64(lane_bits)
    np.testing.assert_array_equal(sorted_values.reshape(blocks, block), want_sorted)
    np.testing.assert_array_equal(ids.reshape(blocks, block), want_ids)
    assert (want_ids != np.arange(blocks * block).reshape(blocks, block)).mean() > 0.5  # sorting moved most points
    if "starting a new cell" in spec.description:  # coarse cells: many points share one
        assert (np.diff(np.sort(code, axis=1), axis=1) == 0).mean() > 0.1
    if "gathered in sorted order" in spec.description:
        np.testing.assert_array_equal(got[written[2].name].reshape(-1, dims), p[want_ids.ravel()])
    if "starting a new cell" in spec.description:
        ordered = np.take_along_axis(code, order, axis=1)
        first = np.ones_like(ordered, dtype=np.int64)
        first[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        np.testing.assert_array_equal(got[written[2].name].reshape(blocks, block), first)


def test_the_tiled_kernels_spatial_sort_does_not_take_keep_their_draws(monkeypatch):
    assert_others_keep_their_draws(monkeypatch, "tiled", tiled, "chooses_spatial_sort")


RADIX_VARIANTS = ("4-bit digits of 16-bit", "4-bit digits of 24-bit", "8-bit digits of 16-bit", "8-bit digits of 24-bit",
                  "shift a parameter", "shift a constant", "keys a thread", "digit counts stored", "first slot in the block",
                  "global digit counts")


@pytest.mark.parametrize("spec", specs_with_every_variant("tiled", tiled.chooses_radix, RADIX_VARIANTS, 3,
                                                          "Radix sort counting pass"),
                         ids=lambda spec: spec.name)
def test_a_radix_counting_pass_counts_each_blocks_digits(spec):
    """Each block's counts of the pass's digit of its keys (the shift from the description), their
    exclusive prefix sums, or their total over the blocks: Warp's outputs against numpy's bincount."""
    values, got = _inputs_and_outputs(spec, "t_tiled_radix_")
    d = spec.description
    digit_bits = int(re.search(r"(\d+)-bit digits", d).group(1))
    shift = int(re.search(r"shift a (?:parameter|constant) \((\d+)\)", d).group(1))
    blocks = spec.dim[0]
    keys = values[spec.args[0].name].astype(np.int64).reshape(blocks, -1)
    digits = (keys >> shift) & ((1 << digit_bits) - 1)
    counts = np.stack([np.bincount(row, minlength=1 << digit_bits) for row in digits])
    assert (counts > 0).mean() > 0.5  # the keys' digits spread over the buckets
    written = [a for a in spec.args if a.is_written]
    if "global digit counts" in d:
        np.testing.assert_array_equal(got[written[0].name], values[written[0].name] + counts.sum(axis=0))
        return
    wanted = ([counts] if "digit counts stored" in d else []) + \
             ([np.cumsum(counts, axis=1) - counts] if "first slot in the block" in d else [])
    assert len(wanted) == len(written)
    for a, want in zip(written, wanted):
        np.testing.assert_array_equal(got[a.name].reshape(blocks, -1), want)


def test_the_histogram_kernels_radix_does_not_take_keep_their_draws(monkeypatch):
    assert_others_keep_their_draws(monkeypatch, "tiled", tiled, "chooses_radix")


def test_a_row_softmax_stores_probabilities_and_a_norm_never_claims_to():
    """A softmax's rows are probabilities (`probs`, `attn`, `weights`), stored as they are: no gain, bias,
    activation or earlier output added to them; a norm's rows (RMS, L1, L2) are never named `probs`,
    and only a softmax reads `logits` or `scores`."""
    softmax = norms = 0
    for seed in range(1500):
        spec = generate("tiled", seed)
        if "row sums by tile_matmul with ones" not in spec.description:
            continue
        inputs = {a.name for a in spec.args if a.role == "input"}
        outputs = [a for a in spec.args if a.is_written and a.name in ("probs", "attn", "weights", "normalized",
                                                                        "y_norm", "h_norm", "unit_rows")]
        assert len(outputs) == 1, spec.source
        if "softmax" in spec.description:
            softmax += 1
            assert outputs[0].name in ("probs", "attn", "weights") and outputs[0].role == "output", spec.source
            assert not re.search(r"gamma|col_scale|beta|col_bias|tile_map\((?!wp\.exp)", spec.source), spec.source
        else:
            norms += 1
            assert outputs[0].name not in ("probs", "attn", "weights"), spec.source
            assert not inputs & {"logits", "scores"}, spec.source
    assert softmax >= 5 and norms >= 10


def test_a_row_statistic_is_named_for_what_it_holds():
    """A stored row statistic of a normalisation is named for what it is: a sum of squares is no
    `row_sums`; and a constant gain after a tile computation is a SCALE, GAIN or ALPHA (never a STEP),
    negative only as BLAS's alpha."""
    stored = 0
    for seed in range(1500):
        source = generate("tiled", seed).source
        for name, stat in re.findall(r"wp\.tile_store\((\w+), (ss|total|norm), ", source):
            stored += 1
            assert name in tiled.ROW_STAT_NAMES[stat], source
        for name, value in re.findall(r"^(SCALE|GAIN|ALPHA|STEP) = (?:wp\.constant\()?(-?[\d.]+)", source, re.M):
            if re.search(rf"^\s+\w+ = \w+ \* {name}$", source, re.M):
                assert name != "STEP" and (float(value) > 0.0 or name == "ALPHA"), source
    assert stored >= 5


def test_a_modules_tile_extents_keep_one_naming():
    """`TILE_M`, `TILE_N`, `TILE_K` or `BLOCK_M`, `BLOCK_N`, `BLOCK_K`; `ROWS` beside `COLS`: never `ROWS`
    beside `TILE_N` or `BLOCK_K` beside `TILE_M` (one tiled kernel in eleven, session 60). A name of what
    the columns hold (`FEATURES`, `DIM`) goes beside any."""
    from synthesis.categories import generate

    gemms = 0
    for seed in range(800):
        constants = set(re.findall(r"^([A-Z_0-9]+) = ", generate("tiled", seed).source, re.M))
        extents = {c for c in constants if re.fullmatch(r"(TILE|BLOCK)_[MNK]", c)}
        assert len({c.split("_")[0] for c in extents}) <= 1, constants
        assert "COLS" not in constants or not constants & {"TILE_M", "BLOCK_M"}, constants
        assert not constants & {"TILE_N", "BLOCK_N"} or constants & {"TILE_M", "BLOCK_M"}, constants
        gemms += len(extents) == 3
    assert gemms > 20
