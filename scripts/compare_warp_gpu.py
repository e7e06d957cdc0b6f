"""Side-by-side with Warp on the GPU at bench size: equal results, and speed, per category.

    python scripts/compare_warp_gpu.py data/cuda_production [--arch sm_90] [--out FILE.jsonl]

For each sample folder: builds the .cu (`make ARCH=...`), runs `./<kernel> --bench --dump FILE`
(bench size from cuda_production/bench.py), runs the sample's own Python kernel with Warp on the
GPU on the same inputs (reference.make_input at the bench shapes), checks every written element
against the .cu's (the sample's tolerance rule; the bound of a fixed-size written array, which
accumulates over all threads, is scaled by bench threads / check threads; accumulated float
elements get the order-aware term below), and times Warp the way
the .cu times itself: `--launches` back-to-back launches captured in one CUDA graph, each replay
between one event pair, `--trials` replays after `--warmup`, median microseconds per launch.

Prints, per category: samples, equal, median and lowest speed ratio (Warp time / CUDA time: above
1 means the translation is faster), the translation's median GB/s and % of the GPU's peak, and
the share of the measured device-to-device copy rate (timed in the same run, the same way) that
memory-bound samples reach. A sample is memory-bound when Warp's own kernel reaches half the copy
rate on it. Executes the samples' .py kernels (pipeline-generated code) through Warp.

Order-aware check. A float element that the kernel accumulates (wp.atomic_add / atomic_sub,
`a[i] += v` / `-= v`, wp.tile_atomic_add) is a sum whose order differs between the .cu and Warp
(atomics, per-warp partial sums), and at bench size (millions of terms) no float32 order is exact:
the two can differ by far more than the sample's tolerance while both are as good as float32 allows.
Such an element passes when it is within today's allowed error of Warp's, or when it is at least
as accurate as Warp's: |cuda - exact| <= allowed + ACCURACY_FACTOR (4) * max(|warp - exact|,
sqrt(n - 1) * u * sum|x_i|) + the float64 sum's own error, u = 2**-24 (float32), 2**-53 (float64),
2**-11 (float16). The floor sqrt(n - 1) * u * sum|x_i| is the typical rounding of a float sum of n
terms (a random walk of n - 1 roundings of at most u each; Higham, "Accuracy and Stability of
Numerical Algorithms", 2nd ed., sections 4.2 and 2.8): Warp's element may land near the exact sum by
luck. The worst-case bound, (n - 1) * u * sum|x_i| per order (Higham 4.2, first-order gamma_{n-1}),
is not used: at 2**24 float32 terms it is about sum|x_i| itself, which checks nothing. A term dropped
or counted twice is caught when it is larger than four times Warp's own rounding error.
The exact sum (in float64: within (n + 1) * 2**-53 * sum|x_i|), sum|x_i| and n come from one run of
a magnitude kernel, the sample's kernel rewritten on its AST (`magnitude_kernel`): each
accumulation into the array adds wp.float64(wp.abs(term)) instead (wp.abs is element-wise on
vectors; vectors become vecNd), the signed term as float64 into a second array and 1.0 into a
float64 term count at the same index, on the same inputs and launch as the real run (GPU), the
arrays starting from |its real start| and its real start (zero for an output; an inout array's start
counts as a term). n - 1 is the counted terms, minus 1 for an output (its first addition, to zero,
is exact). The rewrite refuses an array (today's check, reason in the record) that is also stored
to, read, passed to a helper, updated by another operator or component-wise, whose atomic's result
the kernel uses, that is a struct field, or whose element type has no element-wise abs (matrices,
quaternions, transforms). Each record names `order_aware` (arrays checked this way),
`order_refused` (array: reason), `order_errors` (per array, the largest |x - exact| / sum|x_i| of
the .cu's and of Warp's elements) and `tolerance_used_without_order` (today's rule alone) next to
`tolerance_used` (the rule applied).
"""
from __future__ import annotations

import argparse
import ast
import gc
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cuda_production.bench import array_args, bench_args, bytes_moved, scales  # noqa: E402
from cuda_production.reference import warp_arguments  # noqa: E402
from synthesis.dtypes import dtype as lookup_dtype, float_values  # noqa: E402
from synthesis.spec import ArgSpec  # noqa: E402

MEMORY_BOUND_SHARE = 0.5  # Warp at >= this share of the copy rate: the sample is memory-bound


def time_graph(wp, record, launches: int, warmup: int, trials: int) -> list[float]:
    """Microseconds per launch: `record()` called `launches` times inside one captured graph,
    each replay timed between one event pair."""
    with wp.ScopedCapture() as capture:
        for _ in range(launches):
            record()
    for _ in range(warmup):
        wp.capture_launch(capture.graph)
    wp.synchronize_device()
    start, stop = wp.Event(enable_timing=True), wp.Event(enable_timing=True)
    times = []
    for _ in range(trials):
        wp.record_event(start)
        wp.capture_launch(capture.graph)
        wp.record_event(stop)
        wp.synchronize_event(stop)
        times.append(1000.0 * wp.get_event_elapsed_time(start, stop) / launches)
    return times


def copy_rate_gb_s(wp, nbytes: int, launches: int, warmup: int, trials: int) -> float:
    """Device-to-device copy rate, bytes read plus bytes written per second, in GB/s: the better of
    the runtime's copy (a graph memcpy node) and a one-line copy kernel, both timed like the samples."""
    @wp.kernel
    def copy_kernel(src: wp.array(dtype=wp.vec4), dst: wp.array(dtype=wp.vec4)):
        i = wp.tid()
        dst[i] = src[i]

    src = wp.array(np.arange(nbytes // 4, dtype=np.float32).reshape(-1, 4), dtype=wp.vec4)
    dst = wp.empty_like(src)
    memcpy = time_graph(wp, lambda: wp.copy(dst, src), launches, warmup, trials)
    kernel = time_graph(wp, lambda: wp.launch(copy_kernel, dim=src.shape[0], inputs=[src, dst]), launches, warmup, trials)
    return 2 * nbytes / (min(statistics.median(memcpy), statistics.median(kernel)) * 1e3)


def build(sample: Path, arch: str) -> str | None:
    proc = subprocess.run(["make", "-B", f"ARCH={arch}"], cwd=sample, capture_output=True, text=True, timeout=600)
    return None if proc.returncode == 0 else (proc.stdout + proc.stderr)[-400:]


def run_cuda(sample: Path, kernel: str, outer: int, dump: Path, launches: int, warmup: int, trials: int) -> dict:
    proc = subprocess.run([f"./{kernel}", "--bench", "--bench-dim", str(outer), "--dump", str(dump), "--launches", str(launches),
                           "--warmup", str(warmup), "--trials", str(trials)],
                          cwd=sample, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"--bench exited {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-300:]}")
    return json.loads(next(line for line in proc.stdout.splitlines() if line.startswith("{")))


def warp_run(wp, kernel, module, args: list[ArgSpec], dim: tuple[int, ...], seed: int,
             launches: int, warmup: int, trials: int, block_dim: int = 0) -> tuple[list[np.ndarray], list[float]]:
    """Warp's results of one launch from fresh inputs (written arrays, flat), then its timing;
    arguments built as the reference stage builds them. `block_dim`: a kernel the sample launches
    with wp.launch_tiled (metadata.json's `tiles`), at that many threads per block."""
    launch_args, written = warp_arguments(args, module, seed)

    def launch():
        if block_dim:
            wp.launch_tiled(kernel, dim=dim, inputs=launch_args, block_dim=block_dim)
        else:
            wp.launch(kernel, dim=dim, inputs=launch_args)
    launch()
    results = [a.numpy().reshape(-1).copy() for a in written]  # before the timed launches change them
    times = time_graph(wp, launch, launches, warmup, trials)
    return results, times


# Order-aware bound for accumulated float elements (the rule: the module docstring). The magnitude
# sums run in float64 so that sum|x_i| is not itself a float32 sum of millions of terms, whose own
# error can reach (n - 1) * 2**-24 of it.

UNIT_ROUNDOFF = {"float16": 2.0**-11, "bfloat16": 2.0**-8, "float32": 2.0**-24, "float64": 2.0**-53}
ACCUMULATING_ATOMICS = ("atomic_add", "atomic_sub")  # wp.<name>(array, *indices, term)
TILE_ATOMICS = ("tile_atomic_add",)  # wp.tile_atomic_add(array, tile[, offset][, bounds_check=...])
TILE_KEYWORDS = ("offset", "bounds_check")
REWRITE_PREFIX = "_order_"  # every name the rewrite adds starts with it
TERMS_SUFFIX = "__terms"  # the term-count array of array `a` is parameter `a__terms`
EXACT_SUFFIX = "__exact"  # its float64 sum of the signed terms is parameter `a__exact`
# An accumulated element may be this many times farther from the exact sum than Warp's own element
# (or than the typical rounding of its sum, where Warp lands closer by luck); see the docstring.
ACCURACY_FACTOR = 4.0
# A tile's |elements| and ones in float64, by tile_map: one overload per float tile element type.
TILE_HELPERS = "\n".join(
    f"@wp.func\ndef {REWRITE_PREFIX}{name}(x: wp.{t}) -> wp.float64:\n    return {body}\n"
    for name, body in (("abs64", "wp.float64(wp.abs(x))"), ("f64", "wp.float64(x)"), ("one64", "wp.float64(1.0)"))
    for t in UNIT_ROUNDOFF)
# Index expressions made of these only are repeated as written in the term-count update; any other
# (a call, an array read) is evaluated once into a local first, so the kernel does what it did.
REPEATABLE_NODES = (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Tuple, ast.operator, ast.unaryop,
                    ast.expr_context)


@dataclass
class MagnitudeKernel:
    """The magnitude kernel's module source (None if no array could be derived), the arrays it
    derives (parameter order: each gets a float64 `<name>__terms` parameter, appended in this
    order), and the accumulated arrays it refuses, with why (those keep today's check)."""

    source: str | None
    derived: tuple[str, ...] = ()
    refused: dict[str, str] = field(default_factory=dict)


def _wp_name(func: ast.expr) -> str | None:
    """`name` of a `wp.name` call target."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "wp":
        return func.attr
    return None


def _wp_call(name: str, *args: ast.expr, keywords: list[ast.keyword] | None = None) -> ast.Call:
    return ast.Call(func=ast.Attribute(value=ast.Name("wp", ast.Load()), attr=name, ctx=ast.Load()),
                    args=list(args), keywords=keywords or [])


def _repeatable(expr: ast.expr) -> bool:
    return all(isinstance(n, REPEATABLE_NODES) for n in ast.walk(expr))


def _accumulation(node: ast.stmt) -> tuple[str, ast.expr] | None:
    """(how, target array expression) of a statement that accumulates into an array: a statement
    call of wp.atomic_add / atomic_sub / tile_atomic_add (`how`: its name), or `a[...] += v` /
    `-= v` (`how`: Add / Sub)."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and node.value.args:
        name = _wp_name(node.value.func)
        if name in ACCUMULATING_ATOMICS + TILE_ATOMICS:
            return name, node.value.args[0]
    if (isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Add, ast.Sub))
            and isinstance(node.target, (ast.Subscript, ast.Attribute))):
        return type(node.op).__name__, node.target.value
    return None


class AccumulationUses(ast.NodeVisitor):
    """Every mention of the candidate arrays in one kernel: which are accumulated, and why the
    rewrite must refuse one (first reason kept). Accumulations into struct fields are refused."""

    def __init__(self, candidates: set[str]):
        self.candidates = candidates
        self.accumulated: list[str] = []
        self.reasons: dict[str, str] = {}

    def refuse(self, name: str, reason: str) -> None:
        self.reasons.setdefault(name, reason)

    def accumulates(self, name: str) -> None:
        if name not in self.accumulated:
            self.accumulated.append(name)

    @property
    def refused(self) -> dict[str, str]:
        return {n: r for n, r in self.reasons.items() if n in self.accumulated}

    def visit_Expr(self, node: ast.Expr) -> None:
        self._statement(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        base = node.target
        while isinstance(base, (ast.Subscript, ast.Attribute)):
            base = base.value
        if _accumulation(node) is None and isinstance(base, ast.Name) and base.id in self.candidates:
            self.refuse(base.id, f"updated by `{ast.unparse(node)}`")  # `*=`: not a sum; refused if also summed into
        self._statement(node)

    def _statement(self, node: ast.Expr | ast.AugAssign) -> None:
        found = _accumulation(node)
        if found is None:
            self.generic_visit(node)
            return
        how, target = found
        base = target
        while isinstance(base, (ast.Subscript, ast.Attribute)):
            base = base.value
        if isinstance(base, ast.Name) and base.id in self.candidates and base is not target:
            self.accumulates(base.id)  # a[i][0] += v, a[i].x += v
            self.refuse(base.id, f"a component update: `{ast.unparse(node)}`")
            self.generic_visit(node)
            return
        if isinstance(target, ast.Attribute):  # s.force: a struct field
            name = ast.unparse(target)
            self.accumulates(name)
            self.refuse(name, "a struct field: not rewritten")
            self.generic_visit(node)
            return
        if not (isinstance(target, ast.Name) and target.id in self.candidates):
            self.generic_visit(node)
            return
        name = target.id
        self.accumulates(name)
        if isinstance(node, ast.AugAssign):
            if not isinstance(node.target, ast.Subscript):
                self.refuse(name, f"updated by `{ast.unparse(node)}`")
            self.visit(node.target.slice if isinstance(node.target, ast.Subscript) else node.target)
            self.visit(node.value)
            return
        call = node.value
        if any(isinstance(a, ast.Starred) for a in call.args):
            self.refuse(name, f"starred arguments: `{ast.unparse(node)}`")
        if how in ACCUMULATING_ATOMICS and (call.keywords or len(call.args) < 3):
            self.refuse(name, f"not the form wp.{how}(array, index..., value): `{ast.unparse(node)}`")
        if how in TILE_ATOMICS:
            extras = call.args[2:] + [k.value for k in call.keywords]
            if len(call.args) > 3 or any(k.arg not in TILE_KEYWORDS for k in call.keywords):
                self.refuse(name, f"tile_atomic_add arguments not rewritten: `{ast.unparse(node)}`")
            elif not all(_repeatable(e) for e in extras):
                self.refuse(name, f"tile offset with calls or reads: `{ast.unparse(node)}`")
        for arg in call.args[1:]:
            self.visit(arg)
        for keyword in call.keywords:
            self.visit(keyword.value)

    def visit_Call(self, node: ast.Call) -> None:  # not a statement-level accumulation
        for arg in node.args:
            if isinstance(arg, ast.Name) and arg.id in self.candidates:
                callee, name = ast.unparse(node.func), _wp_name(node.func)
                if name in ACCUMULATING_ATOMICS + TILE_ATOMICS:
                    self.accumulates(arg.id)
                    self.refuse(arg.id, f"the kernel uses the value {callee} returns")
                else:
                    if name is None:  # a helper: it may accumulate into the array, unseen here
                        self.accumulates(arg.id)
                    self.refuse(arg.id, f"passed to {callee}")
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.value, ast.Name) and node.value.id in self.candidates:
            how = "written by a plain store" if isinstance(node.ctx, (ast.Store, ast.Del)) else "also read"
            self.refuse(node.value.id, f"{how}: `{ast.unparse(node)}`")
            self.visit(node.slice)
            return
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.value.id in self.candidates and node.attr == "shape":
            return  # the magnitude array has the same shape
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.candidates:
            self.refuse(node.id, f"used as a value or rebound: `{node.id}`")


class MagnitudeRewrite(ast.NodeTransformer):
    """Each accumulation into a derived array -> the same accumulation of the term's absolute value
    as float64, then 1.0 into the array's term count at the same index."""

    def __init__(self, derived: dict[str, str]):
        self.derived = derived  # array name -> Warp attribute of its float64 magnitude type
        self.locals = 0
        self.uses_tiles = False

    def fresh(self, value: ast.expr, before: list[ast.stmt], what: str) -> ast.Name:
        name = f"{REWRITE_PREFIX}{what}_{self.locals}"
        self.locals += 1
        before.append(ast.Assign(targets=[ast.Name(name, ast.Store())], value=value))
        return ast.Name(name, ast.Load())

    def index(self, expr: ast.expr, before: list[ast.stmt]) -> ast.expr:
        if isinstance(expr, ast.Tuple):
            return ast.Tuple([self.index(e, before) for e in expr.elts], ast.Load())
        return expr if _repeatable(expr) else self.fresh(expr, before, "index")

    def magnitude(self, array: str, term: ast.expr) -> ast.expr:
        return _wp_call(self.derived[array], _wp_call("abs", term))

    def signed(self, array: str, term: ast.expr) -> ast.expr:
        return _wp_call(self.derived[array], term)

    def term(self, expr: ast.expr, before: list[ast.stmt]) -> ast.expr:
        """The term, evaluated once: the magnitude and the signed sum both read it."""
        return expr if _repeatable(expr) else self.fresh(expr, before, "term")

    def visit_Expr(self, node: ast.Expr) -> ast.AST | list[ast.stmt]:
        found = _accumulation(node)
        if found is None or not isinstance(found[1], ast.Name) or found[1].id not in self.derived:
            return node
        how, array = found[0], found[1].id
        terms = ast.Name(array + TERMS_SUFFIX, ast.Load())
        exact = ast.Name(array + EXACT_SUFFIX, ast.Load())
        call, before = node.value, []
        if how in ACCUMULATING_ATOMICS:
            *indices, term = call.args[1:]
            indices = [self.index(i, before) for i in indices]
            term = self.term(term, before)
            updates = [_wp_call("atomic_add", ast.Name(array, ast.Load()), *indices, self.magnitude(array, term)),
                       _wp_call(how, exact, *indices, self.signed(array, term)),
                       _wp_call("atomic_add", terms, *indices, _wp_call("float64", ast.Constant(1.0)))]
        else:
            self.uses_tiles = True
            tile = self.fresh(call.args[1], before, "tile")
            rest = call.args[2:]
            absolute, as_f64, one = (ast.Name(f"{REWRITE_PREFIX}{helper}", ast.Load())
                                     for helper in ("abs64", "f64", "one64"))
            updates = [_wp_call(how, target, _wp_call("tile_map", helper, tile), *rest, keywords=call.keywords)
                       for target, helper in ((ast.Name(array, ast.Load()), absolute), (exact, as_f64), (terms, one))]
        return [*before, *(ast.Expr(u) for u in updates)]

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST | list[ast.stmt]:
        found = _accumulation(node)
        if found is None or not isinstance(found[1], ast.Name) or found[1].id not in self.derived:
            return node
        array, before = found[1].id, []
        index = self.index(node.target.slice, before)
        term = self.term(node.value, before)
        return [*before,
                ast.AugAssign(ast.Subscript(ast.Name(array, ast.Load()), index, ast.Store()), ast.Add(),
                              self.magnitude(array, term)),
                ast.AugAssign(ast.Subscript(ast.Name(array + EXACT_SUFFIX, ast.Load()), index, ast.Store()), node.op,
                              self.signed(array, term)),
                ast.AugAssign(ast.Subscript(ast.Name(array + TERMS_SUFFIX, ast.Load()), index, ast.Store()), ast.Add(),
                              _wp_call("float64", ast.Constant(1.0)))]


def _as_list(node: ast.AST | list[ast.stmt]) -> list[ast.stmt]:
    return node if isinstance(node, list) else [node]


def magnitude_type(arg: ArgSpec) -> str | None:
    """Warp attribute of the float64 type holding |value| of `arg`'s elements component-wise, or
    None where wp.abs is not element-wise (matrices, quaternions, transforms: no wp.abs)."""
    t = lookup_dtype(arg.dtype)
    if t.kind == "scalar":
        return "float64"
    if t.kind == "vector":
        return f"vec{t.shape[0]}d"
    return None


def _array_annotation(dtype_attr: str, ndim: int) -> ast.expr:
    return _wp_call("array", keywords=[ast.keyword("dtype", ast.Attribute(ast.Name("wp", ast.Load()), dtype_attr, ast.Load())),
                                       ast.keyword("ndim", ast.Constant(ndim))])


def magnitude_kernel(source: str, kernel_name: str, candidates: dict[str, ArgSpec]) -> MagnitudeKernel:
    """The magnitude kernel of `kernel_name` in `source` for the written float arrays `candidates`
    (kernel parameters): parsed and rewritten on the AST, never executed here."""
    tree = ast.parse(source)
    kernel = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == kernel_name), None)
    if kernel is None:
        return MagnitudeKernel(None)
    params = [a.arg for a in kernel.args.args]
    uses = AccumulationUses({n for n in candidates if n in params})
    for statement in kernel.body:
        uses.visit(statement)
    refused = uses.refused
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | set(params)
    clash = sorted(n for n in taken if n.startswith(REWRITE_PREFIX) or n.endswith((TERMS_SUFFIX, EXACT_SUFFIX)))
    derived: dict[str, str] = {}
    for name in uses.accumulated:
        if name in refused:
            continue
        if clash:
            refused[name] = f"the kernel already uses the name {clash[0]}"
        elif (attr := magnitude_type(candidates[name])) is None:
            refused[name] = f"wp.abs is not element-wise on {candidates[name].dtype}"
        else:
            derived[name] = attr
    if not derived:
        return MagnitudeKernel(None, (), refused)
    rewrite = MagnitudeRewrite(derived)
    kernel.body = [s for statement in kernel.body for s in _as_list(rewrite.visit(statement))]
    order = [p for p in params if p in derived]
    for a in kernel.args.args:
        if a.arg in derived:
            a.annotation = _array_annotation(derived[a.arg], candidates[a.arg].ndim)
    kernel.args.args += [ast.arg(name + TERMS_SUFFIX, _array_annotation("float64", candidates[name].ndim)) for name in order]
    kernel.args.args += [ast.arg(name + EXACT_SUFFIX, _array_annotation(derived[name], candidates[name].ndim))
                         for name in order]
    if rewrite.uses_tiles:
        position = tree.body.index(kernel)
        tree.body[position:position] = ast.parse(TILE_HELPERS).body
    return MagnitudeKernel(ast.unparse(ast.fix_missing_locations(tree)), tuple(order), refused)


@dataclass
class Magnitudes:
    """One run of a magnitude kernel, per derived array, flat per component like the compared
    results: sum|x_i| (|start| of an inout array included), the sum of the signed terms in float64
    (from the real start: the exact sum, to within (n - 1) * 2**-53 * sum|x_i|) and the rounded
    additions n - 1 (counted terms, minus 1 for an output, which starts at zero so its first addition
    is exact; an inout array's start is a term of its own); and the accumulated arrays refused, with why."""

    sums: dict[str, np.ndarray] = field(default_factory=dict)
    exact: dict[str, np.ndarray] = field(default_factory=dict)
    additions: dict[str, np.ndarray] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)


def magnitudes(wp, source: str, kernel_name: str, args: list[ArgSpec], dim: tuple[int, ...], seed: int,
               block_dim: int = 0, device: str | None = None) -> Magnitudes:
    """Runs the magnitude kernel of `kernel_name` (see magnitude_kernel) once, on the same inputs and
    launch as the real run (`device`: Warp's default, or "cpu"), each derived array starting from
    |its real start| in float64, its signed sum from its real start and its term count from zero. A
    failure refuses every derived array."""
    from extraction.loader import load_kernels, unload

    candidates = {a.name: a for a in args if a.is_array and a.is_written and not a.is_int and not a.is_records}
    rewrite = magnitude_kernel(source, kernel_name, candidates)
    if not rewrite.derived:
        return Magnitudes(refused=rewrite.refused)
    module_name = f"order_{kernel_name}_{hashlib.sha256(rewrite.source.encode()).hexdigest()[:12]}"
    try:
        kernel = load_kernels(rewrite.source, module_name)[kernel_name]
        kernel.module.options["enable_backward"] = False  # one forward launch
        launch_args, _ = warp_arguments(args, sys.modules[module_name], seed, device)
        sums, exact, terms = {}, {}, {}
        for position, arg in enumerate(args):
            if arg.name in rewrite.derived:
                start = launch_args[position].numpy().astype(np.float64)  # zero for an output
                wide = getattr(wp, magnitude_type(arg))
                sums[arg.name] = wp.array(np.abs(start), dtype=wide, device=device)
                exact[arg.name] = wp.array(start, dtype=wide, device=device)
                terms[arg.name] = wp.zeros(arg.shape, dtype=wp.float64, device=device)
                launch_args[position] = sums[arg.name]
        launch_args += [terms[name] for name in rewrite.derived] + [exact[name] for name in rewrite.derived]
        if block_dim:
            wp.launch_tiled(kernel, dim=dim, inputs=launch_args, block_dim=block_dim, device=device)
        else:
            wp.launch(kernel, dim=dim, inputs=launch_args, device=device)
        result = Magnitudes(refused=rewrite.refused)
        for arg in (a for a in args if a.name in rewrite.derived):
            counts = np.repeat(terms[arg.name].numpy().reshape(-1), lookup_dtype(arg.dtype).width)
            result.sums[arg.name] = sums[arg.name].numpy().reshape(-1)
            result.exact[arg.name] = exact[arg.name].numpy().reshape(-1)
            result.additions[arg.name] = np.maximum(counts - (arg.role != "inout"), 0.0)
        return result
    except Exception as exc:  # noqa: BLE001 - the arrays fall back to today's check, with the reason
        reason = f"magnitude kernel failed: {type(exc).__name__}: {exc}"[:300]
        return Magnitudes(refused={**rewrite.refused, **{name: reason for name in rewrite.derived}})
    finally:
        unload(module_name)


@dataclass(frozen=True)
class ExactSums:
    """Per component of an accumulated array: the exact sum (float64, from the magnitude run), how
    far from it the float64 sum itself may be ((n + 1) * 2**-53 * sum|x_i|), and the typical rounding
    of a float sum of its n terms, sqrt(n - 1) * u * sum|x_i| (the floor of Warp's own error: Warp
    may land near the exact sum by luck). Components whose magnitude is not finite get no exact sum
    (NaN: today's check alone)."""

    exact: np.ndarray
    float64_error: np.ndarray
    typical: np.ndarray


def exact_sums(args: list[ArgSpec], found: Magnitudes) -> dict[str, ExactSums]:
    out = {}
    for arg in (a for a in args if a.name in found.sums):
        additions, magnitude = found.additions[arg.name], found.sums[arg.name]
        finite = np.isfinite(magnitude) & np.isfinite(found.exact[arg.name])
        out[arg.name] = ExactSums(np.where(finite, found.exact[arg.name], np.nan),
                                  np.where(finite, (additions + 1.0) * 2.0**-53 * magnitude, 0.0),
                                  np.where(finite, np.sqrt(additions) * UNIT_ROUNDOFF[lookup_dtype(arg.dtype).scalar] * magnitude, 0.0))
    return out


def compare(cuda_dump: bytes, warp_results: list[np.ndarray], written: list[ArgSpec], bounds: dict[str, float],
            atol: float, rtol: float, order: dict[str, ExactSums] | None = None,
            wide: dict[str, tuple[float, float]] | None = None) -> tuple[int, float]:
    """(mismatched elements, largest |error| / allowed error) of the .cu's dump against Warp's.
    Allowed error per float element: atol * bound + rtol * |want|, with a float16 or float64 array's
    own (atol, rtol) from `wide` (by component type) where given, as the sample's own check does. An element of an array in `order`
    (accumulated; exact_sums) also passes when it is at least as accurate as Warp's, up to
    ACCURACY_FACTOR: |got - exact| <= allowed + ACCURACY_FACTOR * max(|want - exact|, typical)
    + the float64 sum's own error; its ratio is the smaller of the two."""
    offset, mismatches, used = 0, 0, 0.0
    for arg, want in zip(written, warp_results):
        got = np.frombuffer(cuda_dump, dtype=want.dtype, count=want.size, offset=offset)
        offset += want.nbytes
        if arg.is_int:
            mismatches += int(np.count_nonzero(got != want))
            continue
        scalar = lookup_dtype(arg.dtype).scalar
        got, want = float_values(got, scalar), float_values(want, scalar)  # bfloat16: its bits widened
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        a_tol, r_tol = (wide or {}).get(scalar, (atol, rtol))
        allowed = a_tol * bounds[arg.name] + r_tol * np.abs(want.astype(np.float64))
        ratio = diff / allowed
        if order and arg.name in order:
            sums = order[arg.name]
            warp_error = np.abs(want.astype(np.float64) - sums.exact) + sums.float64_error
            accurate = allowed + ACCURACY_FACTOR * np.maximum(warp_error, sums.typical) + sums.float64_error
            ours = np.abs(got.astype(np.float64) - sums.exact) / accurate
            ratio = np.where(np.isnan(ours), ratio, np.minimum(ratio, ours))  # NaN exact: today's check
        same_nan = np.isnan(got) & np.isnan(want)
        bad = ~same_nan & ~(ratio <= 1.0)
        mismatches += int(np.count_nonzero(bad))
        ratio = np.where(same_nan, 0.0, ratio)
        used = max(used, float(np.nanmax(ratio)) if ratio.size else 0.0)
    if offset != len(cuda_dump):
        mismatches += 1  # sizes disagree: never equal
    return mismatches, used


def sum_errors(cuda_dump: bytes, warp_results: list[np.ndarray], written: list[ArgSpec],
               order: dict[str, ExactSums], found: Magnitudes) -> dict[str, dict[str, float]]:
    """Per accumulated array: the largest distance of the .cu's and of Warp's element from the exact
    sum, relative to the element's sum|x_i| (how much of the sum's magnitude each one's order lost)."""
    out, offset = {}, 0
    for arg, want in zip(written, warp_results):
        got = np.frombuffer(cuda_dump, dtype=want.dtype, count=want.size, offset=offset)
        offset += want.nbytes
        if arg.name in order:
            got, want = (float_values(v, lookup_dtype(arg.dtype).scalar) for v in (got, want))
            scale = np.where(found.sums[arg.name] > 0, found.sums[arg.name], np.inf)
            exact = order[arg.name].exact
            out[arg.name] = {who: float(np.nanmax(np.abs(v.astype(np.float64) - exact) / scale, initial=0.0))
                             for who, v in (("cuda", got), ("warp", want))}
    return out


def replay_plan(meta: dict, launches: int, trials: int) -> tuple[int, int]:
    """(launches per replay, timed replays): fewer for a kernel whose stored bench label says it
    runs for milliseconds (heavily contended atomics), so each sample takes about a second."""
    measured = meta.get("bench", {}).get("measured", {}).get("median_us")
    if not measured:
        return launches, trials
    launches = max(1, min(launches, round(2000 / measured)))
    return launches, max(3, min(trials, round(200_000 / (measured * launches))))


def sample_tolerances(meta: dict) -> dict[str, tuple[float, float]]:
    """The (atol, rtol) a sample's metadata gives its float16 / float64 outputs (`tolerance_float16`):
    a half rounded from float32 values that differ in their last bit (a fused multiply-add here, not
    there) lands a half's ulp apart, which the float32 tolerance would call a mismatch."""
    return {key[len("tolerance_"):]: (value["atol"], value["rtol"]) for key, value in meta.items()
            if key.startswith("tolerance_") and isinstance(value, dict)}


def compare_sample(wp, sample: Path, launches: int, warmup: int, trials: int) -> dict:
    from extraction.loader import load_kernels, unload

    meta = json.loads((sample / "metadata.json").read_text())
    launches, trials = replay_plan(meta, launches, trials)
    name, dim = meta["kernel_name"], tuple(meta["launch_dim"])
    args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
    bench_dim = tuple(meta["bench"]["launch_dim"])
    sized = bench_args(args, dim, bench_dim)
    record = {"sample": sample.name, "kernel": name, "category": meta["category"], "bench_launch_dim": list(bench_dim),
              "launches": launches, "trials": trials}
    with tempfile.TemporaryDirectory(prefix="cmpwarp_") as tmp:
        dump = Path(tmp) / "bench_results.bin"
        cuda = run_cuda(sample, name, bench_dim[0], dump, launches, warmup, trials)
        cuda_dump = dump.read_bytes()
    module = f"cmp_{name}"
    source = (sample / f"{name}.py").read_text()
    kernels = load_kernels(source, module)
    tiles = meta.get("tiles") or {}
    block_dim = tiles["block_dim"] if tiles.get("launch") == "wp.launch_tiled" else 0
    try:
        warp_results, warp_times = warp_run(wp, kernels[name], sys.modules[module], sized, bench_dim, meta["input_seed"],
                                            launches, warmup, trials, block_dim)
    finally:
        unload(module)
    found = magnitudes(wp, source, name, sized, bench_dim, meta["input_seed"], block_dim)
    order = exact_sums(sized, found)
    threads_ratio = np.prod(bench_dim) / np.prod(dim)
    written = [a for a in array_args(sized) if a.is_written]
    bounds = {a.name: a.bound * (1.0 if scales(a, dim) else threads_ratio) for a in array_args(args) if a.is_written}
    tol = meta["tolerance"]
    wide = sample_tolerances(meta)
    mismatches, used = compare(cuda_dump, warp_results, written, bounds, tol["atol"], tol["rtol"], order, wide)
    _, used_without_order = compare(cuda_dump, warp_results, written, bounds, tol["atol"], tol["rtol"], wide=wide)
    read, wrote = bytes_moved(sized)
    warp_us = statistics.median(warp_times)
    return {**record, "equal": mismatches == 0, "mismatches": mismatches, "tolerance_used": used,
            "order_aware": list(order), "order_refused": found.refused,
            "order_errors": sum_errors(cuda_dump, warp_results, written, order, found),
            "tolerance_used_without_order": used_without_order,
            "cuda_us": cuda["median_us"], "warp_us": warp_us, "speed_ratio": warp_us / cuda["median_us"],
            "bytes_per_launch": read + wrote, "cuda_gb_per_s": cuda["gb_per_s"],
            "warp_gb_per_s": (read + wrote) / (warp_us * 1e3), "percent_of_peak": cuda["percent_of_peak"],
            "peak_gb_per_s": cuda["peak_gb_per_s"], "device": cuda["device"],
            "bytes_agree": (cuda["bytes_read"], cuda["bytes_written"]) == (read, wrote)}


def summarise(records: list[dict], copy_gb_s: float) -> list[str]:
    lines = [f"device-to-device copy: {copy_gb_s:.0f} GB/s (read + written)",
             f"{'category':18s} {'n':>3s} {'equal':>5s} {'ratio med':>9s} {'ratio min':>9s} "
             f"{'GB/s med':>8s} {'% peak':>6s} {'mem-bound':>9s} {'% copy min':>10s}"]
    by_cat = defaultdict(list)
    for r in records:
        by_cat[r["category"]].append(r)
    for cat, rs in sorted(by_cat.items()):
        ok = [r for r in rs if "speed_ratio" in r]
        ratios = [r["speed_ratio"] for r in ok]
        bound = [r for r in ok if r["warp_gb_per_s"] >= MEMORY_BOUND_SHARE * copy_gb_s]
        share = min((100 * r["cuda_gb_per_s"] / copy_gb_s for r in bound), default=float("nan"))
        lines.append(f"{cat:18s} {len(rs):3d} {sum(r.get('equal', False) for r in rs):5d} "
                     f"{statistics.median(ratios) if ratios else float('nan'):9.2f} {min(ratios, default=float('nan')):9.2f} "
                     f"{statistics.median([r['cuda_gb_per_s'] for r in ok]) if ok else float('nan'):8.0f} "
                     f"{statistics.median([r['percent_of_peak'] for r in ok]) if ok else float('nan'):6.1f} "
                     f"{len(bound):9d} {share:10.1f}")
    ratios = [r["speed_ratio"] for r in records if "speed_ratio" in r]
    bound = [r for r in records if "speed_ratio" in r and r["warp_gb_per_s"] >= MEMORY_BOUND_SHARE * copy_gb_s]
    streaming = [r for r in bound if r["warp_gb_per_s"] >= 0.85 * copy_gb_s]
    lines.append(f"streaming (Warp itself at >= 85% of copy): {len(streaming)} samples, translation under 85%: "
                 f"{sum(r['cuda_gb_per_s'] < 0.85 * copy_gb_s for r in streaming)}; memory-bound samples under 85% "
                 f"where Warp is too: {sum(max(r['cuda_gb_per_s'], r['warp_gb_per_s']) < 0.85 * copy_gb_s for r in bound)}")
    lines.append(f"all: {sum(r.get('equal', False) for r in records)}/{len(records)} equal; "
                 f"samples below 0.9x: {sum(x < 0.9 for x in ratios)}; memory-bound samples under 85% of copy: "
                 f"{sum(r['cuda_gb_per_s'] < 0.85 * copy_gb_s for r in bound)}/{len(bound)}; "
                 f"byte counts differing from bench.py: {sum(not r['bytes_agree'] for r in records if 'bytes_agree' in r)}")
    aware = [r for r in records if r.get("order_aware")]
    refused = [(r["sample"], name, why) for r in records for name, why in r.get("order_refused", {}).items()]
    lines.append(f"order-aware check (accumulated float elements: as close to the exact sum as Warp's, "
                 f"x{ACCURACY_FACTOR:g}): {len(aware)} samples, "
                 f"{sum(len(r['order_aware']) for r in aware)} arrays; equal without it: "
                 f"{sum(r['tolerance_used_without_order'] <= 1.0 for r in aware)}/{len(aware)}; "
                 f"accumulated arrays refused (today's check): {len(refused)}")
    for r in aware:
        if r["tolerance_used_without_order"] > 1.0:
            errors = ", ".join(f"{n} .cu {e['cuda']:.2g} Warp {e['warp']:.2g}" for n, e in r["order_errors"].items())
            lines.append(f"  {r['sample']}: order-aware {r['order_aware']}: tolerance used {r['tolerance_used']:.3g} "
                         f"(without it {r['tolerance_used_without_order']:.3g}); |x - exact| / sum|x_i|: {errors}")
    for sample, name, why in refused:
        lines.append(f"  {sample}: {name}: refused: {why}")
    for r in records:
        if "error" in r:
            lines.append(f"  failed: {r['sample']}: {r['error']}")
        elif not r["equal"] or r["speed_ratio"] < 0.9:
            lines.append(f"  {r['sample']}: equal={r['equal']} ratio={r['speed_ratio']:.2f} "
                         f"cuda={r['cuda_us']:.1f}us warp={r['warp_us']:.1f}us")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--launches", type=int, default=20, help="launches per timed graph replay")
    ap.add_argument("--warmup", type=int, default=2, help="untimed replays")
    ap.add_argument("--trials", type=int, default=20, help="timed replays")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel builds")
    ap.add_argument("--out", type=Path, default=None, help="write one JSON record per sample here")
    ap.add_argument("--part", default="0/1", help="K/N: only every N-th sample from the K-th (to split a run)")
    args = ap.parse_args()
    k, n = (int(x) for x in args.part.split("/"))
    samples = sorted(p for p in args.folder.glob("sample_*") if (p / "metadata.json").exists())[k::n]
    if not samples:
        sys.exit(f"error: no samples under {args.folder}")
    import warp as wp

    wp.config.quiet = True
    wp.init()
    if not wp.is_cuda_available():
        sys.exit("error: Warp finds no CUDA device")
    with ThreadPoolExecutor(args.jobs) as pool:
        build_errors = list(pool.map(lambda s: build(s, args.arch), samples))
    copy_gb_s = copy_rate_gb_s(wp, 1 << 30, args.launches, args.warmup, args.trials)
    records = []
    for sample, error in zip(samples, build_errors):
        started = time.perf_counter()
        if error:
            records.append({"sample": sample.name, "category": sample.name.split("_", 2)[-1], "error": "build: " + error})
            continue
        try:
            records.append(compare_sample(wp, sample, args.launches, args.warmup, args.trials))
        except Exception as exc:  # noqa: BLE001 - counted and reported per sample
            records.append({"sample": sample.name, "category": sample.name.split("_", 2)[-1],
                            "error": f"{type(exc).__name__}: {exc}"[:300]})
        gc.collect()
        # a line per sample as it ends, so a run stopped by a time limit still shows its results
        r = records[-1]
        done = r.get("error") or (f"equal={r['equal']} ratio={r['speed_ratio']:.2f} tolerance used {r['tolerance_used']:.3g}"
                                  + (f" (order-aware {r['order_aware']}; without: {r['tolerance_used_without_order']:.3g})"
                                     if r["order_aware"] else ""))
        print(f"{sample.name}: {done} ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    if args.out:
        tmp = args.out.with_name(args.out.name + ".tmp")
        tmp.write_text("".join(json.dumps({**r, "copy_gb_per_s": copy_gb_s}) + "\n" for r in records))
        os.replace(tmp, args.out)
    print("\n".join(summarise(records, copy_gb_s)))


if __name__ == "__main__":
    main()
