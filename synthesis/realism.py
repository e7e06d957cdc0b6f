"""Detectors for code no person writes, over a kernel's Python AST and over its outputs.

Source patterns (one function each, `find_patterns` runs them all):
  same_operands       an operation on two copies of one value (`x - x`, `min(x, x)`, `x < x`)
  literal_only        a computed subexpression of literals only (`wp.exp(-0.875)`, `-(-1.5)`, `1.0 + 2.4`)
  constant_condition  a branch condition that takes one value over the whole launch
  dead_value          a value computed and never used (never read, or overwritten before any read)
  self_assign         `r1 = r1`
  helper_passthrough  a @wp.func returning one of its parameters unchanged
  helper_unused_param a @wp.func parameter the body never reads
  undone_operation    an involution applied twice (`-(-x)`, `transpose(transpose(m))`), `cross(v, -v)`
  no_effect           an operation that changes nothing: `abs` of a value never negative (`wp.abs(wp.sqrt(x))`,
                      `wp.abs(tid)`, `abs(float(i) * 0.5)`), a literal component of a vector built from components,
                      a min/max with an operand the inner one already took (`max(max(x, c), x)`), rounding
                      an integer made float (`wp.floor(float(tid))`)
  cancelling_terms    a sum in which one value is both added and subtracted (`(x + z) - (x + y)`, also through
                      locals): a person writes `z - y`; also across a comparison (`x + t >= t` is `x >= 0`)
  foldable_constants  two number literals a person folds into one: `(x * 2.5) / 1.5`, `(x + 1.0) - 0.25`,
                      a negation undone by a negative literal (`(-x) / -2.0`), `x + -2.375`, `-x <= 1.5`
  redundant_branch    branching that decides nothing: an `if` whose arms are the same, an arm that assigns a
                      value the variable was just given, an `and`/`or` that repeats or implies one of its
                      comparisons (`a <= b and b >= a`, `x > 1.0 and x > -1.0`), `max(a, b) >= a`, a test
                      the enclosing tests decide (`elif x > 1.5` in the `else` of `if x >= 0.0`)
  invariant_loop      a loop whose trips all do the same thing (`for k in range(n): acc += x` is `n * x`; also
                      `acc += x * float(k)`, x times a number), or whose `break`/`continue` test is the same
                      on every trip
Figures reported beside them (not degenerate: compilers cache loads; real code is often element-wise):
  repeated_load       the same array element loaded three or more times in one function
  non_own_read        a read of another element than the thread's own: neighbour, gather or loop-indexed

Output patterns (`degenerate_outputs`): a written array that is constant, all zero, or equal to an
input (for an inout array: unchanged) on the reference inputs.

Launch-constant conditions are decided by interval arithmetic evaluated, with numpy, at every
point of the launch (and of literal loop ranges): thread indices and loop variables take each of
their values, scalar parameters their value, loads from read-only arrays their input range. A
condition is flagged only when it is decided, and the same, everywhere.
"""
from __future__ import annotations

import ast
import functools
import math
from dataclasses import dataclass, field

import numpy as np

from synthesis.normalize import ast_dump, ast_walk, child_fields, parse_expression, parse_module, same_tree

SOURCE_PATTERNS = ("same_operands", "literal_only", "constant_condition", "dead_value", "self_assign",
                   "helper_passthrough", "helper_unused_param", "undone_operation", "no_effect",
                   "cancelling_terms", "foldable_constants", "redundant_branch", "invariant_loop")
FIGURES = ("repeated_load", "non_own_read", "neighbour_read", "gather_read", "unrelated_outputs")
OUTPUT_PATTERNS = ("constant_output", "zero_output", "copy_of_input")

# Calls that build a value from literals rather than compute one (`float(0.0)` is Warp's idiom for a
# mutable variable; `wp.vec3(1.0, 0.0, 0.0)` is a constant vector).
CONSTRUCTORS = {"float", "int", "range", "float32", "int32", "float64", "int64", "uint32", "constant", "bool",
                "vec2", "vec3", "vec4", "mat22", "mat33", "mat44", "quat", "transform", "vector", "matrix"}
# Calls whose two arguments may be the same value and still mean something (x*x-like).
SAME_OK_CALLS = {"dot", "mul", "outer", "pow", "atomic_add", "atomic_sub", "atomic_min", "atomic_max"}
SAME_BAD_CALLS = {"min", "max", "cross", "atan2", "sub", "where", "select"}
SAME_BAD_BINOPS = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Add, ast.BitXor, ast.BitAnd, ast.BitOr)
ENUMERATION_LIMIT = 1 << 16


@dataclass(frozen=True)
class Finding:
    pattern: str
    line: int
    text: str


@dataclass(frozen=True)
class ArgInfo:
    """What the detectors need to know about one kernel argument."""

    name: str
    role: str  # input | output | inout | index | scalar
    dtype: str = "float32"
    low: float = -1.0
    high: float = 1.0
    value: float | int | None = None


def call_name(node: ast.Call) -> str:
    f = node.func
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return ""


def _is_wp_func(fn: ast.FunctionDef, attr: str) -> bool:
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Attribute) and target.attr == attr:
            return True
    return False


def _dump(node: ast.AST) -> str:
    return ast_dump(node)  # ast.dump(node, annotate_fields=False), faster


def _text(node: ast.AST) -> str:
    return ast.unparse(node)


def _loaded_names(node: ast.AST) -> set[str]:
    return {n.id for n in ast_walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


# ---- one walk of a function, shared by the checks ------------------------------------------------
# Fields whose nodes (expression contexts, operators) no check looks at: the index does not visit them.
_UNINDEXED_FIELDS = {"ctx", "op", "ops"}
_INDEXED_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f for f in child_fields(cls) if f not in _UNINDEXED_FIELDS)
    for cls in (getattr(ast, n) for n in dir(ast)) if isinstance(cls, type) and issubclass(cls, ast.AST)
}
_STATEMENTS = frozenset(cls for cls in _INDEXED_FIELDS if issubclass(cls, ast.stmt))  # isinstance(node, ast.stmt)
_COMPUTATIONS = frozenset((ast.BinOp, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.Call))  # what `_is_computation` may accept


_Name, _Constant, _Load, _AST, _If, _Call, _Attribute, _Subscript = (
    ast.Name, ast.Constant, ast.Load, ast.AST, ast.If, ast.Call, ast.Attribute, ast.Subscript)


def _indexed_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node class outside the table (none from the parser)."""
    return tuple(f for f in child_fields(cls) if f not in _UNINDEXED_FIELDS)


# The node selections (`FunctionIndex.of_kind`) the checks make, and per node class those it is in.
_CHECKED_KINDS = (
    (ast.BinOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Call),  # find_same_operands
    (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For),  # _single_values
    (ast.Call, ast.UnaryOp),  # find_undone_operations
    (ast.Assign,),  # find_self_assign
    (ast.Return,), (ast.Assign, ast.AnnAssign),  # find_helper_problems
    (ast.If, ast.While, ast.IfExp, ast.Call),  # _conditions
    (ast.For, ast.While),  # find_invariant_loops
)
_CHECKED_KINDS_OF: dict[type, tuple[tuple[type, ...], ...]] = {
    cls: tuple(k for k in _CHECKED_KINDS if issubclass(cls, k)) for cls in _INDEXED_FIELDS
}


class FunctionIndex:
    """What the checks need to know about one function's tree, from one depth-first walk: its nodes
    in `ast.walk`'s order (names, constants, contexts and operators left out: no check selects
    them), the names each statement (and `if` test) loads, and its body's outermost literal-only
    computations (`find_literal_only`). The checks used to walk the tree once each; the tree must
    not change while the index is in use."""

    def __init__(self, fn: ast.FunctionDef) -> None:
        self.fn = fn
        self._levels: list[list[ast.AST]] = [[fn]]  # nodes by depth: ast.walk's breadth-first order
        self._loads: list[str] = []  # loaded names, in depth-first order
        self._spans: dict[int, tuple[int, int]] = {}  # id(node) -> its subtree's slice of _loads
        self._literal: list[ast.expr] = []
        self._reads: dict[int, frozenset[str]] = {}
        self._kinds: dict[tuple[type, ...], list[ast.AST]] = {}
        for field in _INDEXED_FIELDS.get(type(fn)) or _indexed_fields(type(fn)):
            value = getattr(fn, field, None)
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    mark = len(self._literal)
                    self._visit(child, 1, False)
                    if field != "body":
                        del self._literal[mark:]  # find_literal_only scans the body only
        self._spans[id(fn)] = (0, len(self._loads))
        self.nodes: list[ast.AST] = [n for level in self._levels for n in level]
        self.literal_only: list[ast.expr] = self._literal
        # the selections the checks make, in one pass over the nodes instead of one each
        kinds = self._kinds
        for key in _CHECKED_KINDS:
            kinds[key] = []
        for n in self.nodes:
            cls = type(n)
            keys = _CHECKED_KINDS_OF.get(cls)
            if keys is None:  # a class outside the table (none from the parser)
                keys = tuple(k for k in _CHECKED_KINDS if issubclass(cls, k))
            for key in keys:
                kinds[key].append(n)

    def _visit(self, node: ast.AST, depth: int, callee: bool) -> bool:
        """Index `node`'s subtree; whether it keeps a computation holding it literal-only
        (`not _breaks_literal(node, callee)` and no node below breaks it; `callee`: `node` is its
        parent Call's callee). Names and constants below it are handled here, without a call."""
        loads = self._loads
        start = len(loads)
        cls = type(node)
        if cls is _Name:  # the leaves, most nodes, first (no check selects them: not in `nodes`)
            if type(node.ctx) is _Load:
                loads.append(node.id)
            return node.id == "wp"
        if cls is _Constant:
            return True
        levels = self._levels
        if depth == len(levels):
            levels.append([node])
        else:
            levels[depth].append(node)
        literal = self._literal
        mark = len(literal)
        clean = True
        fields = _INDEXED_FIELDS.get(cls)
        for field in _indexed_fields(cls) if fields is None else fields:
            value = getattr(node, field, None)
            kind = type(value)
            if kind is list:
                for item in value:
                    kind = type(item)
                    if kind is _Name:  # what _visit does for a Name, without the call
                        if type(item.ctx) is _Load:
                            loads.append(item.id)
                        if item.id != "wp":
                            clean = False
                    elif kind is _Constant:
                        pass
                    elif isinstance(item, _AST) and not self._visit(item, depth + 1, False):
                        clean = False
            else:
                if kind is _Name:  # as for a list's Name
                    if type(value.ctx) is _Load:
                        loads.append(value.id)
                    if value.id != "wp":
                        clean = False
                elif kind is _Constant:
                    pass
                elif isinstance(value, _AST) and not self._visit(value, depth + 1, cls is _Call and field == "func"):
                    clean = False
                if cls is _If and field == "test":  # first_use reads a branch's test on its own
                    self._spans[id(value)] = (start, len(loads))  # the test is an If's first field
        if cls in _STATEMENTS or cls not in _INDEXED_FIELDS and isinstance(node, ast.stmt):
            self._spans[id(node)] = (start, len(loads))
            return clean
        if not clean:
            return False
        # a computation cannot break literal-only-ness itself (_breaks_literal(node, False) is False)
        if cls in _COMPUTATIONS and _is_computation(node):
            del literal[mark:]  # report the outermost one only
            literal.append(node)
            return True
        if cls is _Attribute:  # _breaks_literal(node, callee), written out
            if type(node.ctx) is not _Load:
                return False
            value = node.value
            if type(value) is _Name and value.id == "wp":
                return callee and node.attr not in LAUNCH_QUERIES
            return True
        return cls is not _Subscript

    def of_kind(self, *kinds: type) -> list[ast.AST]:
        """The nodes of these classes (not Name or Constant), in `ast.walk`'s order."""
        found = self._kinds.get(kinds)
        if found is None:
            found = self._kinds[kinds] = [n for n in self.nodes if isinstance(n, kinds)]
        return found

    def reads(self, node: ast.AST) -> frozenset[str]:
        """The names `node`'s subtree loads (`_loaded_names`), for a statement of this function, an
        `if`'s test or the function itself."""
        key = id(node)
        names = self._reads.get(key)
        if names is None:
            start, end = self._spans[key]
            names = self._reads[key] = frozenset(self._loads[start:end])
        return names

    def all_reads(self) -> frozenset[str]:
        return self.reads(self.fn)


# ---- same operands ---------------------------------------------------------------------------
def find_same_operands(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    """`index`, where given, is `FunctionIndex(fn)` (find_patterns indexes each function once for all checks)."""
    index = FunctionIndex(fn) if index is None else index
    out = []
    for node in index.of_kind(ast.BinOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Call):
        pair = None
        cls = type(node)
        if cls is ast.BinOp:
            if isinstance(node.op, SAME_BAD_BINOPS):
                pair = (node.left, node.right)
        elif cls is ast.Compare:
            if len(node.comparators) == 1:
                pair = (node.left, node.comparators[0])
        elif cls is ast.BoolOp:
            values = node.values
            if any(same_tree(values[i], values[j]) for i in range(len(values)) for j in range(i + 1, len(values))):
                out.append(Finding("same_operands", node.lineno, _text(node)))
            continue
        elif cls is ast.IfExp:
            pair = (node.body, node.orelse)
        else:
            name = call_name(node)
            if name in SAME_BAD_CALLS:
                args = node.args[1:] if name in ("where", "select") else node.args
                if len(args) >= 2:
                    pair = (args[0], args[1])
            elif name == "clamp" and len(node.args) == 3:
                pair = (node.args[1], node.args[2])
        if pair is not None and same_tree(pair[0], pair[1]):
            out.append(Finding("same_operands", node.lineno, _text(node)))
    return out


# ---- operations undone ---------------------------------------------------------------------------
# Calls that are their own inverse: applied twice they give back the argument.
INVOLUTIONS = {"transpose", "inverse", "quat_inverse", "transform_inverse"}


def _single_values(index: FunctionIndex) -> dict[str, ast.expr]:
    """Locals assigned exactly once in the indexed function (at any depth): name -> its value."""
    values: dict[str, list[ast.expr | None]] = {}
    for n in index.of_kind(ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    values.setdefault(t.id, []).append(n.value)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For)) and isinstance(n.target, ast.Name):
            values.setdefault(n.target.id, []).extend([None, None])
    return {k: v[0] for k, v in values.items() if len(v) == 1 and v[0] is not None}


def _through_locals(node: ast.expr, values: dict[str, ast.expr], depth: int = 8) -> ast.expr:
    while depth and isinstance(node, ast.Name) and node.id in values:
        node, depth = values[node.id], depth - 1
    return node


def _is_number(node: ast.expr) -> bool:
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))


def _without_sign(node: ast.expr, values: dict[str, ast.expr]) -> ast.expr:
    """`node`'s direction: locals followed, negations and scalings by a number dropped
    (cross(x, -x) and cross(x * -1.875, x * -0.5) are as zero as cross(x, x))."""
    while True:
        node = _through_locals(node, values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            node = node.operand
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)) and _is_number(node.right):
            node = node.left
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and _is_number(node.left):
            node = node.right
        elif isinstance(node, ast.Call) and call_name(node) == "normalize" and len(node.args) == 1:
            node = node.args[0]  # cross(t, normalize(t)) is zero too
        else:
            return node


def find_undone_operations(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    """An involution applied twice (`transpose(transpose(m))`, `-(-x)`, also through locals), and
    the cross product of a vector with itself or its negation (always zero)."""
    index = FunctionIndex(fn) if index is None else index
    values = None  # _single_values(index), made when a candidate needs it (most functions have none)
    out = []
    for node in index.of_kind(ast.Call, ast.UnaryOp):
        name = call_name(node) if isinstance(node, ast.Call) else None
        if name in INVOLUTIONS and len(node.args) == 1:
            values = _single_values(index) if values is None else values
            inner = _through_locals(node.args[0], values)
            if isinstance(inner, ast.Call) and call_name(inner) == name:
                out.append(Finding("undone_operation", node.lineno, _text(node)))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            if not isinstance(node.operand, ast.Name):
                continue  # -(-x) written out is literal_only's
            values = _single_values(index) if values is None else values
            inner = _through_locals(node.operand, values)
            if isinstance(inner, ast.UnaryOp) and isinstance(inner.op, ast.USub):
                out.append(Finding("undone_operation", node.lineno, _text(node)))
        elif name == "cross" and len(node.args) == 2:
            values = _single_values(index) if values is None else values
            if same_tree(_without_sign(node.args[0], values), _without_sign(node.args[1], values)):
                out.append(Finding("undone_operation", node.lineno, _text(node)))
    return out


# Calls whose value is never negative, whatever their argument.
NEVER_NEGATIVE_CALLS = {"abs", "sqrt", "exp", "length", "length_sq", "cosh"}


def never_negative_value(node: ast.expr, values: dict[str, ast.expr] | None = None,
                    counters: frozenset[str] | set[str] = frozenset(), depth: int = 0) -> bool:
    """Whether `node` is never negative: a call that never is (`abs`, `sqrt`, ...), `x * x`, a
    thread index or a counter of a loop from a non-negative start (`counters`), a number literal
    that is not negative, and sums, products, quotients and casts of such (`float(i) * 0.5`).
    `values`: locals assigned once, followed."""
    if values is not None:
        node = _through_locals(node, values)
    cls = type(node)
    if cls is ast.Call:
        name = call_name(node)
        if name in NEVER_NEGATIVE_CALLS or name == "tid":
            return True
        return name in _CASTS and len(node.args) == 1 and depth < 6 \
            and never_negative_value(node.args[0], values, counters, depth + 1)
    if cls is ast.Name:
        return node.id in counters
    if cls is ast.Constant:
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool) and node.value >= 0
    if cls is ast.BinOp:
        if isinstance(node.op, ast.Mult) and same_tree(node.left, node.right):
            return True
        return isinstance(node.op, (ast.Add, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)) and depth < 6 \
            and never_negative_value(node.left, values, counters, depth + 1) \
            and never_negative_value(node.right, values, counters, depth + 1)
    return False


_CASTS = {"float", "float32", "float64", "int", "int32", "int64"}


def _counters(index: FunctionIndex) -> set[str]:
    """Names that are never negative throughout the indexed function: thread indices and the
    variables of `range` loops whose start is a literal that is not negative and whose step, where
    given, is positive; a name also assigned anything else is none."""
    names, other = set(), set()
    for n in index.of_kind(ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target]
        assigned = {t.id for target in targets for t in ast_walk(target) if isinstance(t, ast.Name)}
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and call_name(n.value) == "tid":
            names |= assigned
        elif isinstance(n, ast.For) and isinstance(n.target, ast.Name) and isinstance(n.iter, ast.Call) \
                and call_name(n.iter) == "range" and not n.iter.keywords and 1 <= len(n.iter.args) <= 3:
            args = n.iter.args
            start_ok = len(args) == 1 or isinstance(args[0], ast.Constant) and isinstance(args[0].value, int) \
                and args[0].value >= 0
            step_ok = len(args) < 3 or isinstance(args[2], ast.Constant) and isinstance(args[2].value, int) \
                and args[2].value > 0
            (names if start_ok and step_ok else other).update(assigned)
        else:
            other |= assigned
    return names - other


ROUNDING_CALLS = {"floor", "ceil", "round", "trunc", "rint"}
INT_ANNOTATIONS = {"int", "int32", "int64", "uint32"}


def _int_names(fn: ast.FunctionDef) -> set[str]:
    """Names that hold integers throughout `fn`: thread indices, `range` loop variables, int parameters."""
    names = {a.arg for a in fn.args.args if a.annotation is not None
             and (getattr(a.annotation, "attr", None) or getattr(a.annotation, "id", None)) in INT_ANNOTATIONS}
    for n in ast_walk(fn):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and call_name(n.value) == "tid":
            names |= {t.id for target in n.targets for t in ast_walk(target) if isinstance(t, ast.Name)}
        elif isinstance(n, ast.For) and isinstance(n.iter, ast.Call) and call_name(n.iter) == "range":
            names |= {t.id for t in ast_walk(n.target) if isinstance(t, ast.Name)}
    return names


def find_no_effect(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    """Operations that change nothing (also through locals): `abs` of a value that is never negative
    (`abs`, `sqrt`, `exp`, a length, `x * x`, a thread index, `float(i) * 0.5`), `min`/`max` of a
    value and a `min`/`max` that already took it (`max(max(x, c), x)` is `max(x, c)`; also
    `max(max(x, c), max(d, x))`), a literal component of a vector built from components
    (`wp.vec3(a, -1.0, b)[1]`), rounding an integer made float (`wp.floor(float(tid))`) or a
    value already rounded (`wp.ceil(f)` with `f = wp.floor(x)`), and arithmetic with an identity
    element (`x * 1.0`, `x + 0.0`, `x / 1.0`)."""
    index = FunctionIndex(fn) if index is None else index
    values = None  # _single_values(index), once a candidate needs it
    ints = None  # _int_names(fn), likewise
    counters = None  # _counters(index), likewise
    out = []
    for node in index.of_kind(ast.Call, ast.UnaryOp):
        if not isinstance(node, ast.Call) or node.keywords:
            continue
        name = call_name(node)
        if name in ROUNDING_CALLS and len(node.args) == 1:
            values = _single_values(index) if values is None else values
            inner = _through_locals(node.args[0], values)
            if isinstance(inner, ast.Call) and call_name(inner) in ROUNDING_CALLS:  # already a whole number
                out.append(Finding("no_effect", node.lineno, _text(node)))
            elif isinstance(inner, ast.Call) and call_name(inner) in ("float", "float32") and len(inner.args) == 1 \
                    and isinstance(inner.args[0], ast.Name):
                ints = _int_names(fn) if ints is None else ints
                if inner.args[0].id in ints:
                    out.append(Finding("no_effect", node.lineno, _text(node)))
        elif name == "abs" and len(node.args) == 1:
            values = _single_values(index) if values is None else values
            counters = _counters(index) if counters is None else counters
            if never_negative_value(node.args[0], values, counters):
                out.append(Finding("no_effect", node.lineno, _text(node)))
        elif name in ("min", "max") and len(node.args) == 2:
            values = _single_values(index) if values is None else values
            for inner, other in ((node.args[0], node.args[1]), (node.args[1], node.args[0])):
                inner = _through_locals(inner, values)
                if isinstance(inner, ast.Call) and call_name(inner) == name and len(inner.args) == 2 \
                        and any(same_tree(_through_locals(a, values), _through_locals(other, values)) for a in inner.args):
                    out.append(Finding("no_effect", node.lineno, _text(node)))
                    break
            else:  # max(max(x, c), max(d, x)): x taken twice
                left, right = (_through_locals(a, values) for a in node.args)
                if all(isinstance(c, ast.Call) and call_name(c) == name and len(c.args) == 2 for c in (left, right)) \
                        and any(same_tree(_through_locals(a, values), _through_locals(b, values))
                                for a in left.args for b in right.args):
                    out.append(Finding("no_effect", node.lineno, _text(node)))
    return out + _components_taken(index, values) + _identity_operations(index)


# An operand that leaves the other as it is: `x * 1.0`, `x / 1.0`, `x + 0.0`, `x - 0.0`, `x ** 1.0`.
_IDENTITY_ELEMENTS = {ast.Mult: 1, ast.Div: 1, ast.Pow: 1, ast.Add: 0, ast.Sub: 0}
_RIGHT_ONLY = (ast.Div, ast.Pow, ast.Sub)  # `1.0 / x` and `0.0 - x` do something


def _identity_operations(index: FunctionIndex) -> list[Finding]:
    """Arithmetic with its operation's identity element as a literal operand (`200.0 * d - 1.0 * v`)."""
    out = []
    for node in index.of_kind(*_CHECKED_KINDS[0]):
        if type(node) is not ast.BinOp:
            continue
        op = type(node.op)
        unit = _IDENTITY_ELEMENTS.get(op)
        if unit is None:
            continue
        sides = (node.right,) if op in _RIGHT_ONLY else (node.left, node.right)
        # float literals only: `tid * 2 + 0` beside `tid * 2 + 1` is how index arithmetic is written
        if any(type(side) is ast.Constant and type(side.value) is float and side.value == unit for side in sides):
            out.append(Finding("no_effect", node.lineno, _text(node)))
    return out


_VECTOR_CONSTRUCTORS = {"vec2", "vec3", "vec4", "vector"}


def _components_taken(index: FunctionIndex, values: dict[str, ast.expr] | None) -> list[Finding]:
    """A component of a vector built from components that is a number literal there
    (`wp.vec3(a, -1.0, b)[1]`, `.y`, through locals): a constant read the long way. (Reading a
    computed component back is real code: `pos_xz = wp.vec3(p[0], 0.0, p[2])`, then `pos_xz[0]`.)
    `values`: `_single_values(index)` or None (made when needed)."""
    out = []
    passed = None
    for node in index.of_kind(ast.Subscript, ast.Attribute):
        if not isinstance(node.ctx, ast.Load):
            continue
        if isinstance(node, ast.Subscript):
            if not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int)):
                continue
            component = node.slice.value
        elif node.attr in ("x", "y", "z", "w"):
            component = "xyzw".index(node.attr)
        else:
            continue
        values = _single_values(index) if values is None else values
        if passed is None:  # names handed to a call, which may write them (`volume_sample_grad(..., grad)`)
            passed = {a.id for c in index.of_kind(ast.Call) for a in c.args if isinstance(a, ast.Name)}
        if isinstance(node.value, ast.Name) and node.value.id in passed:
            continue
        built = _through_locals(node.value, values)
        if isinstance(built, ast.Call) and call_name(built) in _VECTOR_CONSTRUCTORS and len(built.args) > 1 \
                and component < len(built.args) and _number(built.args[component]) is not None:
            out.append(Finding("no_effect", node.lineno, _text(node)))
    return out


def _signed_terms(node: ast.expr, values: dict[str, ast.expr], sign: int = 1, depth: int = 0) -> list[tuple[int, ast.expr]]:
    """The terms of a sum or difference with their signs, through locals assigned once (a few levels)."""
    if depth < 4:
        node = _through_locals(node, values)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            right = sign if isinstance(node.op, ast.Add) else -sign
            return _signed_terms(node.left, values, sign, depth + 1) + _signed_terms(node.right, values, right, depth + 1)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and not isinstance(node.operand, ast.Constant):
            return _signed_terms(node.operand, values, -sign, depth + 1)  # n + (-n)
    return [(sign, node)]


def comparison_cancels(node: ast.Compare, values: dict[str, ast.expr]) -> bool:
    """Whether one value (not a literal) is on both sides of comparison `node` with the same sign."""
    return _cancels(_signed_terms(node.left, values) + [(-sign, t) for sign, t in _signed_terms(node.comparators[0], values)])


def _cancels(terms: list[tuple[int, ast.expr]]) -> bool:
    plus = [t for sign, t in terms if sign > 0 and not isinstance(t, ast.Constant)]
    minus = [t for sign, t in terms if sign < 0 and not isinstance(t, ast.Constant)]
    return any(same_tree(a, b) for a in plus for b in minus)


def find_cancelling_terms(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    """Sums in which one value (not a literal) is added and also subtracted, also through locals:
    `(x + z) - (x + y)` is `z - y`. Each outermost such sum is reported once. A comparison is its
    left side minus its right: `x + t >= t` (one value on both sides) is `x >= 0`."""
    index = FunctionIndex(fn) if index is None else index
    sums = [n for n in index.of_kind(ast.BinOp) if isinstance(n.op, (ast.Add, ast.Sub))]
    compares = [n for n in index.of_kind(ast.Compare) if len(n.ops) == 1]
    if not sums and not compares:
        return []
    values = _single_values(index)
    out, inside = [], set()
    for node in compares:
        if comparison_cancels(node, values):
            out.append(Finding("cancelling_terms", node.lineno, _text(node)))
            inside |= {id(n) for n in ast_walk(node)}
    for node in sums:  # ast.walk's order: outer sums first
        if id(node) in inside:
            continue
        if _cancels(_signed_terms(node, values)):
            out.append(Finding("cancelling_terms", node.lineno, _text(node)))
            inside |= {id(n) for n in ast_walk(node)}
    return out


# ---- constants a person folds, branching that decides nothing -----------------------------------
MULTIPLYING = (ast.Mult, ast.Div)
ADDING = (ast.Add, ast.Sub)


def _number(node: ast.expr) -> float | None:
    """The value of a number literal (`-2.0` included), else None."""
    sign = 1
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign, node = (-sign if isinstance(node.op, ast.USub) else sign), node.operand
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return sign * node.value
    return None


def scaled_by_literal(node: ast.expr, family: tuple[type, ...]) -> ast.Constant | None:
    """For `x op c` / `c op x` with `op` in `family`, exactly one side a number literal: that literal."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, family):
        left, right = _number(node.left), _number(node.right)
        if (left is None) != (right is None):
            return node.left if left is not None else node.right
    return None


def _is_float_literal(node: ast.expr) -> bool:
    while isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, float)


def find_foldable_constants(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    """A number literal applied to a value that another literal already scales or shifts by the same
    kind of operation (`(x * 2.5) / 1.5`, `c - (x - c2)`): a person writes one constant. Also a
    negation undone by a negative literal (`(-x) / -2.0`), a negative literal added or subtracted
    (`x + -2.375` is `x - 2.375`) and a negation compared with a literal (`-x <= 1.5` is
    `x >= -1.5`). Integer quotients (truncating) are left alone."""
    index = FunctionIndex(fn) if index is None else index
    out = []
    for node in index.of_kind(ast.BinOp):
        for family in (MULTIPLYING, ADDING):
            literal = scaled_by_literal(node, family)
            if literal is None:
                continue
            other = node.right if literal is node.left else node.left
            inner = scaled_by_literal(other, family)
            foldable = inner is not None and (family is ADDING or not isinstance(node.op, ast.Div)
                                              and not isinstance(other.op, ast.Div)
                                              or _is_float_literal(literal) or _is_float_literal(inner))
            if family is MULTIPLYING and isinstance(other, ast.UnaryOp) and isinstance(other.op, ast.USub) \
                    and _number(other) is None and _number(literal) < 0:
                foldable = True  # (-x) / -2.0
            if family is ADDING and literal is node.right and isinstance(literal, ast.UnaryOp) and _number(literal) < 0:
                foldable = True  # x + -2.375
            if foldable:
                out.append(Finding("foldable_constants", node.lineno, _text(node)))
            break
    for node in index.of_kind(ast.Compare):  # -x <= 1.5 is x >= -1.5
        if len(node.ops) == 1:
            for side, other in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
                if isinstance(side, ast.UnaryOp) and isinstance(side.op, ast.USub) and _number(side) is None \
                        and _number(other) is not None:
                    out.append(Finding("foldable_constants", node.lineno, _text(node)))
                    break
    return out


# An order comparison read from the other side (`a < b` is `b > a`).
_ORDER_FLIPPED = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}
_SIDES_SWAPPED = {**_ORDER_FLIPPED, ast.Eq: ast.Eq, ast.NotEq: ast.NotEq}  # `==` and `!=` read alike both ways


def _bound(node: ast.expr) -> tuple[ast.expr, str, float] | None:
    """A comparison of a value with a number literal as (value, "upper" | "lower", the number)."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _ORDER_FLIPPED):
        return None
    left, right, op = node.left, node.comparators[0], type(node.ops[0])
    if _number(left) is not None and _number(right) is None:
        left, right, op = right, left, _ORDER_FLIPPED[op]
    number = _number(right)
    if number is None or _number(left) is not None:
        return None
    return left, ("upper" if op in (ast.Lt, ast.LtE) else "lower"), number


def _same_comparison(a: ast.expr, b: ast.expr) -> bool:
    """`a` and `b` are one comparison, also written the other way round (`x <= y`, `y >= x`)."""
    if same_tree(a, b):
        return True
    if not (isinstance(a, ast.Compare) and isinstance(b, ast.Compare) and len(a.ops) == 1 and len(b.ops) == 1):
        return False
    return _SIDES_SWAPPED.get(type(a.ops[0])) is type(b.ops[0]) and same_tree(a.left, b.comparators[0]) \
        and same_tree(a.comparators[0], b.left)


def redundant_tests(node: ast.BoolOp) -> bool:
    """An `and`/`or` one of whose comparisons repeats another or is implied by it: two lower (or two
    upper) bounds of one value (`x > 1.0 and x > -1.0`)."""
    values = node.values
    for i in range(len(values)):
        for j in range(i + 1, len(values)):
            a, b = values[i], values[j]
            if _same_comparison(a, b):
                return True
            ba, bb = _bound(a), _bound(b)
            if ba is not None and bb is not None and ba[1] == bb[1] and same_tree(ba[0], bb[0]):
                return True
    return False


def compares_with_own_operand(node: ast.Compare, values: dict[str, ast.expr]) -> bool:
    """A comparison of `min(a, b)` or `max(a, b)` with `a` (also through locals): always true, always
    false, or `b` compared with `a` written the long way."""
    if len(node.ops) != 1:
        return False
    for side, other in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
        side = _through_locals(side, values)
        if isinstance(side, ast.Call) and call_name(side) in ("min", "max") and len(side.args) == 2:
            other = _through_locals(other, values)
            if any(same_tree(_through_locals(a, values), other) for a in side.args):
                return True
    return False


def _arms(node: ast.If) -> list[list[ast.stmt]]:
    """The statement lists of an if/elif/else chain's arms."""
    arms = [node.body]
    while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        node = node.orelse[0]
        arms.append(node.body)
    if node.orelse:
        arms.append(node.orelse)
    return arms


def _kept_values(block: list[ast.stmt], given: dict[str, tuple[ast.expr, frozenset[str]]], in_arm: bool,
                 index: FunctionIndex, out: list[Finding]) -> None:
    """Walk `block` (an arm of an `if` where `in_arm`) knowing `given` (name -> the value it was last
    assigned, as far as known here, and the names that value reads): report each assignment in an arm
    that gives a name the value it already holds, and `b = a` right after `a = b`."""
    given = dict(given)
    for stmt in block:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            held = given.get(name)
            through = given.get(stmt.value.id) if isinstance(stmt.value, ast.Name) else None
            if in_arm and held is not None and same_tree(held[0], stmt.value) \
                    or through is not None and isinstance(through[0], ast.Name) and through[0].id == name:
                out.append(Finding("redundant_branch", stmt.lineno, _text(stmt)))
            if given:
                given = {k: v for k, v in given.items() if k != name and name not in v[1]}
            reads = index.reads(stmt)  # the value's names (the target, a plain name, loads none)
            if name not in reads:
                given[name] = (stmt.value, reads)
        elif isinstance(stmt, ast.If):
            for arm in _arms(stmt):
                _kept_values(arm, given, True, index, out)
            given = {}
        else:
            given = {}


def _decides(interval: tuple[float, bool, float, bool], side: str, number: float, strict: bool) -> bool | None:
    """Whether a value known to lie in `interval` (low, low strict, high, high strict) always (True)
    or never (False) passes the test `value > number` (side "lower") / `value < number` ("upper"),
    `strict` for `<`/`>`; None when it depends."""
    low, low_strict, high, high_strict = interval
    if side == "lower":  # value > number (strict) / value >= number
        if low > number or low == number and (low_strict or not strict):
            return True
        if high < number or high == number and (strict or high_strict):
            return False
    else:  # value < number (strict) / value <= number
        if high < number or high == number and (high_strict or not strict):
            return True
        if low > number or low == number and (strict or low_strict):
            return False
    return None


def _narrowed(interval, side: str, number: float, strict: bool):
    """`interval` where the test (as `_decides` reads it) holds."""
    low, low_strict, high, high_strict = interval
    if side == "lower" and (number > low or number == low and strict):
        low, low_strict = number, strict
    elif side == "upper" and (number < high or number == high and strict):
        high, high_strict = number, strict
    return low, low_strict, high, high_strict


def _bounds_test(test: ast.expr) -> tuple[ast.expr, str, float, bool] | None:
    """A test of one value against a number literal as (value, "lower" | "upper", number, strict)."""
    bound = _bound(test)
    if bound is None:
        return None
    value, side, number = bound
    return value, side, number, isinstance(test.ops[0], (ast.Lt, ast.Gt))  # flipping keeps strictness


def _decided_tests(block: list[ast.stmt], known: dict[str, tuple], out: list[Finding]) -> None:
    """Walk `block` knowing, per value (by its text), the interval the enclosing tests confine it to;
    report an `if`/`elif` test they already decide (`elif x > 1.5` under `if x >= 0.0: ... else:`)."""
    known = dict(known)
    for stmt in block:
        if isinstance(stmt, ast.If):
            test = _bounds_test(stmt.test)
            inside, outside = known, known
            if test is not None:
                value, side, number, strict = test
                key = _dump(value)
                interval = known.get(key, (-math.inf, False, math.inf, False))
                if key in known and _decides(interval, side, number, strict) is not None:
                    out.append(Finding("redundant_branch", stmt.lineno, _text(stmt.test)))
                other = "upper" if side == "lower" else "lower"
                inside = {**known, key: _narrowed(interval, side, number, strict)}
                outside = {**known, key: _narrowed(interval, other, number, not strict)}
            _decided_tests(stmt.body, inside, out)
            _decided_tests(stmt.orelse, outside, out)
        elif isinstance(stmt, (ast.For, ast.While)):
            _decided_tests(stmt.body, {}, out)
            known = {}
        if known and isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.While, ast.If)):
            # a value reading a name assigned here is no longer known (at the top level nothing is known)
            written = {t.id for n in ast_walk(stmt) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For))
                       for target in (n.targets if isinstance(n, ast.Assign) else [n.target])
                       for t in ast_walk(target) if isinstance(t, ast.Name)}
            if written and known:
                known = {k: v for k, v in known.items() if not any(f"Name('{name}'" in k for name in written)}


def find_redundant_branches(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    """Branching that decides nothing: an `if` whose two arms are the same statements, an arm that
    assigns a variable the value it was just given (`r = x` then `if c: r = x`), an `and`/`or`
    that repeats or implies one of its comparisons, a comparison of `min(a, b)`/`max(a, b)` with
    `a` (`max(a, b) >= a` always holds; `max(a, b) > a` is `b > a`), and a test of a value against a
    literal that the tests enclosing it already decide (`elif x > 1.5` in the `else` of
    `if x >= 0.0`)."""
    index = FunctionIndex(fn) if index is None else index
    out = []
    ifs = index.of_kind(ast.If, ast.While, ast.IfExp, ast.Call)
    for node in ifs:
        if isinstance(node, ast.If) and node.orelse and len(node.body) == len(node.orelse) \
                and all(same_tree(a, b) for a, b in zip(node.body, node.orelse)):
            out.append(Finding("redundant_branch", node.lineno, _text(node.test)))
    values = None  # _single_values(index), once a comparison needs it
    for node in index.of_kind(ast.BinOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Call):  # find_same_operands' selection
        cls = type(node)
        if cls is ast.BoolOp and redundant_tests(node):
            out.append(Finding("redundant_branch", node.lineno, _text(node)))
        elif cls is ast.Compare:
            values = _single_values(index) if values is None else values
            if compares_with_own_operand(node, values):
                out.append(Finding("redundant_branch", node.lineno, _text(node)))
    if any(isinstance(n, ast.If) for n in ifs):
        _kept_values(fn.body, {}, False, index, out)
        _decided_tests(fn.body, {}, out)
    return out


# ---- literal-only subexpressions ----------------------------------------------------------------
def _literal_only(node: ast.AST) -> bool:
    """Every leaf a number literal (names, loads and wp.* constants such as wp.pi are not)."""
    nodes = ast_walk(node)
    callees = None  # ids of the callees of the Calls in `node`, once needed
    for n in nodes:
        if isinstance(n, (ast.Name, ast.Subscript)):
            if isinstance(n, ast.Name) and n.id == "wp":
                continue
            return False
        if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load):
            return False
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "wp":
            # wp.pi, wp.e are named constants; wp.exp is the callee of a Call (checked there)
            if callees is None:
                callees = {id(p.func) for p in nodes if isinstance(p, ast.Call)}
            if id(n) not in callees:
                return False
    return True


def _is_computation(node: ast.AST) -> bool:
    if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
        return True
    if isinstance(node, ast.UnaryOp):
        # -1.5 is a literal; -(-1.5) and not True are computations
        return not (isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant))
    if isinstance(node, ast.Call):
        return bool(node.args) and call_name(node) not in CONSTRUCTORS
    return False


# Warp builtins whose value is the launch's, not a literal's: `wp.block_dim() - 1` (the block's last
# thread, as Warp's stream compaction example writes it) is no computation of literals
LAUNCH_QUERIES = frozenset(("block_dim", "tid"))


def _breaks_literal(n: ast.AST, callee: bool) -> bool:
    """Whether node `n` makes a subtree holding it not `_literal_only`; `callee`: `n` is the callee of
    its parent Call, and the subtree holds that Call."""
    if isinstance(n, (ast.Name, ast.Subscript)):
        return not (isinstance(n, ast.Name) and n.id == "wp")
    if isinstance(n, ast.Attribute):
        if not isinstance(n.ctx, ast.Load):
            return True
        if isinstance(n.value, ast.Name) and n.value.id == "wp":
            return not callee or n.attr in LAUNCH_QUERIES
    return False


def find_literal_only(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    """The outermost computations of literals only (`_is_computation` and `_literal_only`), in the
    order of a depth-first walk. `FunctionIndex` finds them in its one bottom-up pass instead of
    `_literal_only` on every computation (a walk of its subtree each); a computation inside a
    literal-only one is literal-only too, so the outermost ones are those without a literal-only
    computation above them."""
    index = FunctionIndex(fn) if index is None else index
    return [Finding("literal_only", node.lineno, _text(node)) for node in index.literal_only]


# ---- dead values and self-assignment ------------------------------------------------------------
def _assigned_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    return []


def _stored_root(target: ast.expr) -> str | None:
    """The name whose part an assignment target is (`p` of `p.vel`, `v[1]`, `p.pos[0]`); None for a plain name."""
    node = target
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) and node is not target else None


def find_self_assign(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    index = FunctionIndex(fn) if index is None else index
    return [Finding("self_assign", n.lineno, _text(n)) for n in index.of_kind(ast.Assign)
            if len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
            and isinstance(n.value, ast.Name) and n.value.id == n.targets[0].id]


# Statement classes with a `body` or `orelse` field (the others hold no statement list `_blocks` reads).
_NESTING = frozenset(cls for cls in _STATEMENTS if "body" in cls._fields or "orelse" in cls._fields)


def _blocks(body: list[ast.stmt]) -> list[list[ast.stmt]]:
    """Every statement list (function body, branch, loop body), outermost first (as a list: one call
    per block, not a generator per level)."""
    out = [body]
    for stmt in body:
        if type(stmt) in _NESTING or type(stmt) not in _STATEMENTS:
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    out += _blocks(inner)
    return out


class StatementReads:
    """`FunctionIndex.reads` and `all_reads` alone (the names each statement, `if` test and the
    function load), from one walk that records nothing else: what `dead_value_statements` needs,
    for a caller that runs no other check on the tree (KernelWriter.drop_dead_stores). The tree
    must not change while this is in use."""

    def __init__(self, fn: ast.FunctionDef) -> None:
        self.fn = fn
        self._reads: dict[int, frozenset[str]] = {}
        self._reads[id(fn)] = frozenset(self._visit(fn))

    def _visit(self, node: ast.AST) -> set[str]:
        names: set[str] = set()
        for field in _INDEXED_FIELDS.get(type(node)) or _indexed_fields(type(node)):
            value = getattr(node, field, None)
            for child in value if type(value) is list else (value,):
                cls = type(child)
                if cls is ast.Name:
                    inner = {child.id} if type(child.ctx) is ast.Load else set()
                elif cls is ast.Constant or not isinstance(child, ast.AST):
                    inner = set()
                else:
                    inner = self._visit(child)
                if isinstance(child, ast.stmt) or (field == "test" and type(node) is ast.If):
                    self._reads[id(child)] = frozenset(inner)
                names |= inner
        return names

    def reads(self, node: ast.AST) -> frozenset[str]:
        return self._reads[id(node)]

    def all_reads(self) -> frozenset[str]:
        return self._reads[id(self.fn)]


def dead_value_statements(fn: ast.FunctionDef, index: FunctionIndex | StatementReads | None = None) -> list[ast.stmt]:
    """Statements storing a value nobody reads: never, or not before every path overwrites it.
    `index`: `FunctionIndex(fn)` or `StatementReads(fn)` (only its `reads` and `all_reads` are used)."""
    out = []
    index = FunctionIndex(fn) if index is None else index
    reads = index.reads
    read = index.all_reads()
    blocks = _blocks(fn.body)
    # How many `name = ...` targets each name has among the blocks' statements: `first_use` answers
    # "assigned" only at a later such statement of the block (or of its branches), so a name no other
    # statement assigns needs no `first_use`.
    assigned: dict[str, int] = {}
    for block in blocks:
        for stmt in block:
            if type(stmt) is ast.Assign:
                for t in stmt.targets:
                    if isinstance(t, ast.Name):
                        assigned[t.id] = assigned.get(t.id, 0) + 1
    for block in blocks:
        for i, stmt in enumerate(block):
            cls = type(stmt)
            if cls is ast.Assign:
                targets = stmt.targets
                if len(targets) == 1:  # `_assigned_names` without its list comprehension
                    target = targets[0]
                    names = [target.id] if isinstance(target, ast.Name) else []
                else:
                    names = _assigned_names(stmt)
            elif cls is ast.AnnAssign:
                names = _assigned_names(stmt)
            else:
                if cls is ast.AugAssign and isinstance(stmt.target, ast.Name) and stmt.target.id not in read:
                    out.append(stmt)
                continue  # assigns no name (`_assigned_names` is empty): never dead here
            for name in names:
                if name not in read:
                    break
            else:
                # names another statement assigns (an overwrite `first_use` may find), usually none
                later = [name for name in names if assigned.get(name, 0) > (names.count(name) if cls is ast.Assign else 0)]
                if not later or cls is ast.Assign and _is_literal_init(stmt.value):
                    continue  # `r = float(0.0)` before an if/else that sets r: Warp's declaration idiom
                for name in later:
                    if first_use(block[i + 1:], name, reads) == "assigned":
                        break
                else:
                    continue
            out.append(stmt)
    fed = _self_fed_names(blocks, reads)
    if fed:
        found = {id(s) for s in out}
        out += [s for block in blocks for s in block if id(s) not in found and _self_target(s) in fed]
    return out


def _self_target(stmt: ast.stmt) -> str | None:
    """The one name `stmt` assigns (`x = ...`, `x: float = ...`, `x += ...`), or None."""
    cls = type(stmt)
    if cls is ast.Assign:
        target = stmt.targets[0] if len(stmt.targets) == 1 else None
    elif cls is ast.AugAssign or cls is ast.AnnAssign:
        target = stmt.target
    else:
        return None
    return target.id if type(target) is ast.Name else None


def _self_fed_names(blocks: list[list[ast.stmt]], reads) -> set[str]:
    """Names read only by statements assigning them (`var = k * (var + d * d)` in a loop, never read
    after it): every value they hold is dead, though each is read. Where a name is read: a simple
    statement's whole text, a branch's or loop's own test or range (not its body: its statements are
    in `blocks` themselves)."""
    own: set[str] = set()
    other: set[str] = set()
    for block in blocks:
        for stmt in block:
            cls = type(stmt)
            if cls is ast.If:
                other.update(reads(stmt.test))
            elif cls is ast.For:
                other.update(_loaded_names(stmt.iter))
            elif cls is ast.While:
                other.update(_loaded_names(stmt.test))
            elif cls in _NESTING:
                other.update(reads(stmt))  # a `with` or `try`: not split (none in kernels)
            else:
                names = reads(stmt)
                target = _self_target(stmt)
                if target is not None and target in names:
                    own.add(target)
                    other.update(n for n in names if n != target)
                else:
                    other.update(names)
    return own - other


def find_dead_values(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    return [Finding("dead_value", s.lineno, _text(s)) for s in dead_value_statements(fn, index)]


def _is_literal_init(node: ast.expr) -> bool:
    if isinstance(node, ast.Call) and call_name(node) in ("float", "int", "float32", "int32") and len(node.args) == 1:
        node = node.args[0]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant)


def first_use(stmts: list[ast.stmt], name: str, reads=None) -> str:
    """On every path through `stmts`: "assigned" (written before any read), "read", or "neither"."""
    loaded = reads or _loaded_names
    for s in stmts:
        if isinstance(s, ast.Assign):
            if name in loaded(s):
                return "read"
            for t in s.targets:  # name in _assigned_names(s)
                if isinstance(t, ast.Name) and t.id == name:
                    return "assigned"
            continue
        if isinstance(s, ast.If):
            if name in loaded(s.test):
                return "read"
            body, other = first_use(s.body, name, reads), first_use(s.orelse, name, reads)
            if "read" in (body, other):
                return "read"
            if body == other == "assigned":
                return "assigned"
            continue
        if name in loaded(s):
            return "read"
        if isinstance(s, (ast.Return, ast.Break, ast.Continue)):
            return "neither"
    return "neither"


# ---- helpers ------------------------------------------------------------------------------------
def find_helper_problems(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    if not _is_wp_func(fn, "func"):
        return []
    index = FunctionIndex(fn) if index is None else index
    out = []
    params = [a.arg for a in fn.args.args]
    read = set().union(*[index.reads(stmt) for stmt in fn.body])
    for p in params:
        if p not in read:
            out.append(Finding("helper_unused_param", fn.lineno, f"{fn.name}: {p}"))
    returns = [n for n in index.of_kind(ast.Return) if n.value is not None]
    reassigned = {name for n in index.of_kind(ast.Assign, ast.AnnAssign) for name in _assigned_names(n)}
    # a parameter whose member or component is assigned (`p.vel = v`, `v[1] *= -e`): returned changed
    reassigned |= {root for n in index.of_kind(ast.Assign, ast.AugAssign)
                   for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                   if (root := _stored_root(t)) is not None}
    one_value = all(same_tree(returns[0].value, r.value) for r in returns[1:])  # every return the same
    if returns and one_value and isinstance(returns[0].value, ast.Name) \
            and returns[0].value.id in params and returns[0].value.id not in reassigned:
        out.append(Finding("helper_passthrough", fn.lineno, f"{fn.name}: return {returns[0].value.id}"))
    return out


# ---- reads --------------------------------------------------------------------------------------
def _own_index(fn: ast.FunctionDef) -> tuple[str, ...]:
    for stmt in fn.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and call_name(stmt.value) == "tid":
            t = stmt.targets[0]
            return tuple(e.id for e in t.elts) if isinstance(t, ast.Tuple) else (t.id,)
    return ()


def _index_parts(sub: ast.Subscript) -> list[ast.expr]:
    s = sub.slice
    return list(s.elts) if isinstance(s, ast.Tuple) else [s]


def _is_shape(node: ast.Subscript) -> bool:
    """`a.shape[k]`: an array's extent, not an element read through an index."""
    return isinstance(node.value, ast.Attribute) and node.value.attr == "shape"


def read_figures(fn: ast.FunctionDef, arrays: set[str]) -> dict[str, int]:
    """Counts, in one function, of the read kinds that FIGURES names (1 = present)."""
    own = _own_index(fn)
    loaded_locals = {t.id for n in ast_walk(fn) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Subscript)
                     for t in n.targets if isinstance(t, ast.Name)}
    written = {n.value.id for n in ast_walk(fn) if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store)
               and isinstance(n.value, ast.Name)}
    # an array of records: `a[i].pos` and `a[i].vel` load different members; `a[i].vel = v` writes `a`
    members = {id(n.value): n for n in ast_walk(fn) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Subscript)}
    written |= {n.value.value.id for n in members.values() if isinstance(n.ctx, ast.Store)
                and isinstance(n.value.value, ast.Name)}
    loads: dict[str, int] = {}
    kinds = {"neighbour_read": 0, "gather_read": 0, "non_own_read": 0}
    for n in ast_walk(fn):
        if not (isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name)
                and n.value.id in arrays):
            continue
        parts = _index_parts(n)
        if n.value.id not in written:
            key = _dump(members.get(id(n), n))
            loads[key] = loads.get(key, 0) + 1
        if [p.id if isinstance(p, ast.Name) else None for p in parts] == list(own):
            continue
        kinds["non_own_read"] = 1
        if any(isinstance(m, ast.Subscript) and not _is_shape(m) or isinstance(m, ast.Name) and m.id in loaded_locals
               for p in parts for m in ast_walk(p)):
            kinds["gather_read"] = 1
        elif any(isinstance(m, ast.Name) and m.id in own for p in parts for m in ast_walk(p)):
            kinds["neighbour_read"] = 1
    kinds["repeated_load"] = int(any(c >= 3 for c in loads.values()))
    kinds["unrelated_outputs"] = int(len(output_groups(fn)) >= 2)
    return kinds


# Builtins whose last argument, a tile, receives the result in place (`tile_matmul(a, b, out)`).
_ACCUMULATING_CALLS = frozenset({"tile_matmul"})


def output_groups(fn: ast.FunctionDef) -> list[set[str]]:
    """The function's writes (stores into arrays or struct fields, atomics) grouped by the parameters
    they depend on: two writes share a group when their dependencies share a parameter, directly or
    through other writes. One group is one computation; two or more are unrelated computations side by
    side in one kernel (a clip of one input beside a loss of another). A value's dependencies include
    the conditions and loop bounds it is computed under; the thread index and module names are no
    parameter, so a guard `if tid >= n: return` joins nothing."""
    params = {a.arg for a in fn.args.args}
    deps: dict[str, set[str]] = {}

    def reads(node: ast.AST | None) -> set[str]:
        out: set[str] = set()
        if node is not None:
            for n in ast_walk(node):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                    out |= deps.get(n.id, {n.id} & params)
        return out

    writes: list[set[str]] = []

    def walk(stmts: list[ast.stmt], context: set[str]) -> None:
        for stmt in stmts:
            if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                value = reads(stmt.value) | context
                for target in targets:
                    names = target.elts if isinstance(target, ast.Tuple) else [target]
                    for t in names:
                        if isinstance(t, ast.Name):
                            keep = deps.get(t.id, set()) if isinstance(stmt, ast.AugAssign) or t.id in deps else set()
                            deps[t.id] = keep | value
                        else:  # a store into an array element or a field: a write
                            writes.append(value | reads(t))
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                call = stmt.value
                last = call.args[-1] if call.args else None
                if call_name(call) in _ACCUMULATING_CALLS and isinstance(last, ast.Name) and last.id not in params:
                    # `wp.tile_matmul(a, b, acc)` adds into a local tile: an update of acc, no write
                    deps[last.id] = deps.get(last.id, set()) | reads(call) | context
                else:
                    writes.append(reads(call) | context)  # wp.atomic_add(...), wp.tile_store(...)
            elif isinstance(stmt, ast.If):
                inner = reads(stmt.test) | context
                walk(stmt.body, inner)
                walk(stmt.orelse, inner)
            elif isinstance(stmt, (ast.For, ast.While)):
                inner = reads(stmt.iter if isinstance(stmt, ast.For) else stmt.test) | context
                if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name):
                    deps[stmt.target.id] = inner
                for _ in range(2):  # a second pass: what a trip leaves for the next
                    walk(stmt.body, inner)

    walk(fn.body, set())
    groups: list[set[str]] = []
    for write in writes:
        joined = [g for g in groups if g & write]
        merged = set(write).union(*joined)
        groups = [g for g in groups if not g & write] + [merged]
    return groups


# ---- launch-constant conditions -----------------------------------------------------------------
_FLOAT64 = np.dtype(np.float64)


class Interval:
    """Closed intervals [lo, hi] at every point of an enumeration grid (numpy arrays)."""

    __slots__ = ("lo", "hi", "is_int")

    def __init__(self, lo, hi, is_int: bool = False):
        # most bounds are already float64 arrays (results of the arithmetic): kept as they are, which
        # `np.asarray` would do too, without its call
        self.lo = lo if type(lo) is np.ndarray and lo.dtype is _FLOAT64 else np.asarray(lo, dtype=np.float64)
        self.hi = hi if type(hi) is np.ndarray and hi.dtype is _FLOAT64 else np.asarray(hi, dtype=np.float64)
        self.is_int = is_int

    @staticmethod
    def unknown() -> "Interval":
        return _UNKNOWN  # one for all: no Interval is ever changed in place

    @staticmethod
    def point(v, is_int: bool = False) -> "Interval":
        return Interval(v, v, is_int)


def _read_only(v: Interval) -> Interval:
    """`v`, its arrays made read-only: an Interval shared by every evaluation."""
    v.lo.flags.writeable = False
    v.hi.flags.writeable = False
    return v


_UNKNOWN = _read_only(Interval(-np.inf, np.inf))


def _all(x) -> bool:
    """`x.all()` of a boolean array (or numpy bool), through np.count_nonzero: the method's Python
    wrapper and reduction cost several times as much on the evaluators' small arrays."""
    return _count_nonzero(x) == x.size


def _any(x) -> bool:
    """`x.any()` of a boolean array (or numpy bool), as `_all`."""
    return _count_nonzero(x) != 0


_count_nonzero = np.count_nonzero


def _hull(*vals):
    """Element-wise min and max of `vals`; [-inf, inf] where any is NaN. Folded pairwise (the
    order `stack.min(axis=0)` reduces in, so a signed zero comes out the same): on the evaluators'
    small arrays, stacking cost more than the arithmetic."""
    lo = hi = vals[0]
    for v in vals[1:]:
        lo, hi = np.minimum(lo, v), np.maximum(hi, v)  # both propagate NaN
    bad = np.isnan(lo)
    if _any(bad):
        lo, hi = np.where(bad, -np.inf, lo), np.where(bad, np.inf, hi)
    return lo, hi


@functools.lru_cache(maxsize=1024)
def _element_range(low: float, high: float, is_int: bool, *signs: float) -> Interval:
    """`Interval(low, high, is_int)`, the range of an element of a read-only array, made once per
    range: evaluations read the same few arrays over and over (`signs` keep 0.0 and -0.0 apart)."""
    return _read_only(Interval(low, high, is_int))


@functools.lru_cache(maxsize=4096)
def _constant(value: float, is_int: bool, sign: float) -> Interval:
    """A literal's value (`Interval.point(value, is_int)`), made once per literal: evaluations read the
    same few literals over and over, and no Interval is ever changed in place (its arrays are made
    read-only here all the same, as they are shared). `sign` keeps 0.0 and -0.0 apart in the cache."""
    return _read_only(Interval.point(value, is_int))


def _point(v, is_int: bool = False) -> Interval:
    """A computed value, exact everywhere, as an Interval whose one array is both bounds (`lo is hi`,
    the test of the evaluators' fast paths for exact values; numpy gives a 0-d result as a scalar)."""
    if type(v) is not np.ndarray or v.dtype is not _FLOAT64:
        v = np.asarray(v, dtype=np.float64)
    return Interval(v, v, is_int)


def _point_arithmetic(op: ast.operator, a: np.ndarray, b: np.ndarray, is_int: bool) -> Interval:
    """`a op b` for two exact values (the common case at sampled points): each bound that the
    interval rules compute is this one value, computed once; a NaN product is unknown, as `_hull`
    makes it."""
    if isinstance(op, ast.Add):
        value = a + b
    elif isinstance(op, ast.Sub):
        value = a - b
    else:
        value = a * b
        bad = np.isnan(value)
        if _any(bad):
            return Interval(np.where(bad, -np.inf, value), np.where(bad, np.inf, value), is_int)
    return Interval(value, value, is_int)


def _trunc_div(a, b):
    with np.errstate(all="ignore"):
        return np.trunc(a / b)


@functools.lru_cache(maxsize=None)
def _eval_method(evaluator: type, node_class: type):
    """The evaluator class's `eval_<node class>` method, None if it has none (looked up once per pair
    of classes: evaluations dispatch on every node)."""
    return getattr(evaluator, f"eval_{node_class.__name__}", None)


def _same_shape(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`np.broadcast_arrays(lo, hi)`, without its cost where the shapes already agree."""
    return (lo, hi) if lo.shape == hi.shape else tuple(np.broadcast_arrays(lo, hi))


# Calls whose value range is that of the function at the argument's bounds (made once: eval_Call
# runs for every call in every condition).
_MONOTONE = {"floor": np.floor, "ceil": np.ceil, "exp": np.exp, "tanh": np.tanh, "sqrt": np.sqrt, "log": np.log}


# The bounds of a comparison's value at one point, shared by every such value (read-only: no Interval
# is ever changed in place). Each bound has its own array, so `lo is hi` never holds for them, as for
# the arrays np.where made.
def _frozen(value: float) -> np.ndarray:
    a = np.array(value)
    a.flags.writeable = False
    return a


_TRUE_LO, _TRUE_HI, _FALSE_LO, _FALSE_HI = _frozen(1.0), _frozen(1.0), _frozen(0.0), _frozen(0.0)


def _compare_points(op: type, a: "Interval", b: "Interval") -> "Interval":
    """ConditionEvaluator.eval_Compare's rules where all four bounds are single values (0-d arrays:
    loads, parameters, literals), in Python floats, which compare as numpy's float64 do (NaN unequal
    and unordered); `op` is Lt, LtE, Eq or NotEq (`>` flipped already), else nothing is decided."""
    al, ah, bl, bh = a.lo.item(), a.hi.item(), b.lo.item(), b.hi.item()
    if (op is ast.Lt or op is ast.LtE) and not (a.is_int and b.is_int) and (al < ah or bl < bh):
        true, false = ah <= bl, al >= bh  # floats over a range: see eval_Compare
    elif op is ast.Lt:
        true, false = ah < bl, al >= bh
    elif op is ast.LtE:
        true, false = ah <= bl, al > bh
    elif op is ast.Eq or op is ast.NotEq:
        eq = al == ah and bl == bh and al == bl
        ne = ah < bl or bh < al
        true, false = (eq, ne) if op is ast.Eq else (ne, eq)
    else:
        return Interval(0, 1, True)
    return Interval(_TRUE_LO if true else _FALSE_LO, _FALSE_HI if false else _TRUE_HI, True)


class ConditionEvaluator:
    """Interval value of an expression at every launch (and literal loop) point."""

    def __init__(self, env: dict[str, Interval], locals_: dict[str, ast.expr], arrays: dict[str, ArgInfo]):
        self.env = env
        self.locals = locals_
        self.arrays = arrays
        self.depth = 0
        # (local, depth) -> its value: a local read twice is evaluated once. The depth is part of the
        # key because the depth limit can cut an evaluation short.
        self.local_values: dict[tuple[str, int], Interval] = {}

    def eval(self, node: ast.expr) -> Interval:
        if self.depth == 0:  # one floating-point error state for a whole evaluation, not one per node
            with np.errstate(all="ignore"):
                return self._eval(node)
        return self._eval(node)

    def _eval(self, node: ast.expr) -> Interval:
        """`eval` below the top (the eval_ methods call this: the error state is already set)."""
        self.depth += 1
        try:
            if self.depth > 40:
                return Interval.unknown()
            method = _eval_method(type(self), type(node))
            return method(self, node) if method else Interval.unknown()
        finally:
            self.depth -= 1

    def eval_Constant(self, node: ast.Constant) -> Interval:
        value = node.value
        if isinstance(value, bool):
            return _constant(float(value), True, 1.0)
        if isinstance(value, (int, float)):
            value = float(value)
            return _constant(value, isinstance(node.value, int), math.copysign(1.0, value))
        return Interval.unknown()

    def eval_Name(self, node: ast.Name) -> Interval:
        if node.id in self.env:
            return self.env[node.id]
        value = self.locals.get(node.id)
        return Interval.unknown() if value is None else self._local_value(node.id, value)

    def _local_value(self, name: str, value: ast.expr) -> Interval:
        """The value of local `name` (assigned `value`), evaluated once per depth."""
        key = (name, self.depth)
        v = self.local_values.get(key)
        if v is None:
            v = self.local_values[key] = self._eval(value)
        return v

    def eval_Subscript(self, node: ast.Subscript) -> Interval:
        if isinstance(node.value, ast.Name) and node.value.id in self.arrays:
            a = self.arrays[node.value.id]
            return _element_range(a.low, a.high, a.dtype == "int32", math.copysign(1.0, a.low), math.copysign(1.0, a.high))
        return Interval.unknown()

    def eval_UnaryOp(self, node: ast.UnaryOp) -> Interval:
        a = self._eval(node.operand)
        if isinstance(node.op, ast.USub):
            if a.lo is a.hi:  # an exact value: both bounds are its negation
                return _point(-a.lo, a.is_int)
            return Interval(-a.hi, -a.lo, a.is_int)
        if isinstance(node.op, ast.UAdd):
            return a
        if isinstance(node.op, ast.Not):
            return logical_not(a)
        return Interval.unknown()

    def eval_BinOp(self, node: ast.BinOp) -> Interval:
        a, b = self._eval(node.left), self._eval(node.right)
        is_int = a.is_int and b.is_int
        op = node.op
        if a.lo is a.hi and b.lo is b.hi and isinstance(op, (ast.Add, ast.Sub, ast.Mult)):
            return _point_arithmetic(op, a.lo, b.lo, is_int)
        if isinstance(op, ast.Add):
            return Interval(a.lo + b.lo, a.hi + b.hi, is_int)
        if isinstance(op, ast.Sub):
            return Interval(a.lo - b.hi, a.hi - b.lo, is_int)
        if isinstance(op, ast.Mult):
            if b.lo is b.hi:
                # products (p, p, q, q): folding a value with itself keeps it, so their hull is p and q's
                p, q = a.lo * b.lo, a.hi * b.lo
                return Interval(*_hull(p, q), is_int)
            if a.lo is a.hi:  # products (p, q, p, q), each made once
                p, q = a.lo * b.lo, a.lo * b.hi
                return Interval(*_hull(p, q, p, q), is_int)
            return Interval(*_hull(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi), is_int)
        if isinstance(op, (ast.Div, ast.FloorDiv)):
            excludes_zero = (b.lo > 0) | (b.hi < 0)
            if a.lo is a.hi and b.lo is b.hi and _all(excludes_zero):
                # exact values, never over zero: the four quotients below are one, and where none is
                # NaN the hull and the zero test leave it as it is
                q = a.lo / b.lo
                if is_int:
                    q = np.floor(q) if isinstance(op, ast.FloorDiv) else np.trunc(q)
                elif isinstance(op, ast.FloorDiv):
                    q = np.floor(q)
                if not _any(np.isnan(q)):
                    return _point(q, is_int)
            quots = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi]
            if is_int:
                rnd = np.floor if isinstance(op, ast.FloorDiv) else np.trunc
                quots = [rnd(q) for q in quots]
            elif isinstance(op, ast.FloorDiv):
                quots = [np.floor(q) for q in quots]
            lo, hi = _hull(*quots)
            return Interval(np.where(excludes_zero, lo, -np.inf), np.where(excludes_zero, hi, np.inf), is_int)
        if isinstance(op, ast.Mod):
            point = (a.lo == a.hi) & (b.lo == b.hi) & (b.lo != 0)
            exact = np.fmod(a.lo, np.where(b.lo == 0, 1, b.lo)) if is_int else a.lo - np.floor(a.lo / b.lo) * b.lo
            m = np.maximum(np.abs(b.lo), np.abs(b.hi))
            if is_int:  # C remainder: the sign of the dividend
                lo = np.where(a.lo >= 0, 0, -(m - 1))
                hi = np.where(a.hi <= 0, 0, m - 1)
            else:
                lo, hi = -m, m
            return Interval(np.where(point, exact, lo), np.where(point, exact, hi), is_int)
        return Interval.unknown()

    def eval_Compare(self, node: ast.Compare) -> Interval:
        if len(node.comparators) != 1:
            return Interval(0, 1, True)
        a, b = self._eval(node.left), self._eval(node.comparators[0])
        # dispatched on the operator's class, and `>` as a flipped `<` without making a node: this
        # runs for nearly every condition the generators check
        op = type(node.ops[0])
        if op is ast.Gt or op is ast.GtE:
            a, b, op = b, a, (ast.Lt if op is ast.Gt else ast.LtE)
        if a.lo.ndim == 0 and a.hi.ndim == 0 and b.lo.ndim == 0 and b.hi.ndim == 0:
            return _compare_points(op, a, b)
        if (op is ast.Lt or op is ast.LtE) and not (a.is_int and b.is_int) \
                and (_any(a.lo < a.hi) or _any(b.lo < b.hi)):
            # Floats over a range: a comparison decided everywhere but where both sides meet at one
            # endpoint (`2.0 > b` for b in [-2, 2]) is decided in practice (one input value in
            # thousands; none at all among most launches' inputs).
            true, false = a.hi <= b.lo, a.lo >= b.hi
        elif op is ast.Lt:
            true, false = a.hi < b.lo, a.lo >= b.hi
        elif op is ast.LtE:
            true, false = a.hi <= b.lo, a.lo > b.hi
        elif op is ast.Eq or op is ast.NotEq:
            eq = (a.lo == a.hi) & (b.lo == b.hi) & (a.lo == b.lo)
            ne = (a.hi < b.lo) | (b.hi < a.lo)
            true, false = (eq, ne) if op is ast.Eq else (ne, eq)
        else:
            return Interval(0, 1, True)
        # the flags as bounds: Interval converts each to floats (1.0 where set, 0.0 elsewhere), as
        # np.where(true, 1.0, 0.0) and np.where(false, 0.0, 1.0) give them, in one cast each
        return Interval(true, ~false, True)

    def eval_BoolOp(self, node: ast.BoolOp) -> Interval:
        return bool_op(node.op, [self._eval(v) for v in node.values])

    def eval_IfExp(self, node: ast.IfExp) -> Interval:
        a, b = self._eval(node.body), self._eval(node.orelse)
        return Interval(np.minimum(a.lo, b.lo), np.maximum(a.hi, b.hi), a.is_int and b.is_int)

    def eval_Call(self, node: ast.Call) -> Interval:
        name = call_name(node)
        args = [self._eval(a) for a in node.args]
        # Where the arguments are exact values (`lo is hi`), each rule's two bounds are one computation
        # of the same numbers, made once below (`_point`); the rules themselves as written after.
        if name in ("float", "float32") and len(args) == 1:
            return Interval(args[0].lo, args[0].hi, False)
        if name in ("int", "int32") and len(args) == 1:
            if args[0].lo is args[0].hi:
                return _point(np.trunc(args[0].lo), True)
            return Interval(np.trunc(args[0].lo), np.trunc(args[0].hi), True)
        if name in ("min", "max") and len(args) == 2:
            f = np.minimum if name == "min" else np.maximum
            if args[0].lo is args[0].hi and args[1].lo is args[1].hi:
                return _point(f(args[0].lo, args[1].lo), args[0].is_int and args[1].is_int)
            return Interval(f(args[0].lo, args[1].lo), f(args[0].hi, args[1].hi), args[0].is_int and args[1].is_int)
        if name == "abs" and len(args) == 1:
            a = args[0]
            if a.lo is a.hi:  # |x| is the rule's lower bound too: 0 where x is +-0, |x| elsewhere (NaN as well)
                return _point(np.abs(a.lo), a.is_int)
            abs_lo, abs_hi = np.abs(a.lo), np.abs(a.hi)
            lo = np.where((a.lo <= 0) & (a.hi >= 0), 0, np.minimum(abs_lo, abs_hi))
            return Interval(lo, np.maximum(abs_lo, abs_hi), a.is_int)
        if name == "clamp" and len(args) == 3:
            a, lo, hi = args
            if a.lo is a.hi:  # both bounds clamp the one value between lo.lo and hi.hi
                return _point(np.minimum(np.maximum(a.lo, lo.lo), hi.hi), a.is_int)
            return Interval(np.minimum(np.maximum(a.lo, lo.lo), hi.hi), np.minimum(np.maximum(a.hi, lo.lo), hi.hi),
                            a.is_int)
        if name in _MONOTONE and len(args) == 1:
            f = _MONOTONE[name]
            if args[0].lo is args[0].hi:
                v = f(args[0].lo)
                if not _any(np.isnan(v)):  # the hull of v and v is v
                    return _point(v)
                return Interval(*_hull(v, v))
            return Interval(*_hull(f(args[0].lo), f(args[0].hi)))
        if name in ("sin", "cos") and len(args) == 1:
            return Interval(-1.0, 1.0)
        if name in ("where", "select") and len(args) == 3:
            a, b = args[1], args[2]
            return Interval(np.minimum(a.lo, b.lo), np.maximum(a.hi, b.hi), a.is_int and b.is_int)
        return Interval.unknown()


def bool_op(op: ast.boolop, vals: list[Interval]) -> Interval:
    """`and` / `or` of the values of its operands (ConditionEvaluator.eval_BoolOp)."""
    # the reduction over the operands broadcast to one shape, folded pair by pair in its order (the
    # ufunc broadcasts each pair): the same values, without stacking the operands
    f = np.minimum if isinstance(op, ast.And) else np.maximum
    lo, hi = vals[0].lo, vals[0].hi
    if len(vals) == 1:
        return Interval(lo.copy(), hi.copy(), True)
    for v in vals[1:]:
        lo, hi = f(lo, v.lo), f(hi, v.hi)
    return Interval(lo, hi, True)


def logical_not(a: Interval) -> Interval:
    """`not` of its operand's value (ConditionEvaluator.eval_UnaryOp)."""
    return Interval(1 - a.hi, 1 - a.lo, True)


def evaluation_height(context: ConditionEvaluator, node: ast.AST, heights: dict[str, int]) -> int:
    """A bound on the levels an evaluation of `node` in `context` descends (`node` itself one, a local
    read one more than its value): at most 40 minus the depth it starts at, and no evaluation is cut
    short by the depth limit. `heights` remembers the locals' (a local met again while its own value
    is measured counts as too deep)."""
    cls = type(node)
    if cls is ast.Name:
        name = node.id
        if name in context.env or name not in context.locals:
            return 1
        height = heights.get(name)
        if height is None:
            heights[name] = 1 << 20  # a cycle, if one is met before the value below replaces this
            height = heights[name] = 1 + evaluation_height(context, context.locals[name], heights)
        return height
    below = 0
    for field in child_fields(cls):
        value = getattr(node, field, None)
        for child in value if type(value) is list else (value,):
            if isinstance(child, ast.AST):
                below = max(below, evaluation_height(context, child, heights))
    return 1 + below


def _range_values(call: ast.Call, scalars: dict[str, float | int]) -> list[int] | None:
    vals = []
    for a in call.args:
        if isinstance(a, ast.Constant) and isinstance(a.value, int):
            vals.append(a.value)
        elif isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.USub) and isinstance(a.operand, ast.Constant):
            vals.append(-a.operand.value)
        elif isinstance(a, ast.Name) and a.id in scalars:
            vals.append(int(scalars[a.id]))
        else:
            return None
    r = list(range(*vals))
    return r or None


def _conditions(index: FunctionIndex) -> list[ast.expr]:
    tests = []
    for n in index.of_kind(ast.If, ast.While, ast.IfExp, ast.Call):
        if isinstance(n, (ast.If, ast.While, ast.IfExp)):
            tests.append(n.test)
        elif isinstance(n, ast.Call) and call_name(n) in ("where", "select") and n.args:
            tests.append(n.args[0])
    out = []
    while tests:
        t = tests.pop()
        out.append(t)
        if isinstance(t, ast.BoolOp):
            tests.extend(t.values)
        elif isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not):
            tests.append(t.operand)
    return out


def launch_env(tid_names: tuple[str, ...], dim: tuple[int, ...], args: dict[str, ArgInfo],
               loops: list[tuple[str, list[int] | None]]) -> dict[str, Interval]:
    """Values of thread indices and loop variables (enumerated while they fit) and scalar parameters."""
    axes: list[tuple[str, np.ndarray]] = [(n, np.arange(d)) for n, d in zip(tid_names, dim)]
    fixed: dict[str, Interval] = {}
    for name, values in loops:
        if values is None:
            fixed[name] = Interval.unknown()
        elif name not in fixed and all(name != a for a, _ in axes) \
                and np.prod([len(v) for _, v in axes]) * len(values) <= ENUMERATION_LIMIT:
            axes.append((name, np.array(values)))
        else:  # the same name over several loops, or too many points: its hull
            old = fixed.get(name)
            lo, hi = min(values), max(values)
            if old is not None:
                lo, hi = min(lo, float(old.lo)), max(hi, float(old.hi))
            fixed[name] = Interval(lo, hi, True)
    grids = np.meshgrid(*[v for _, v in axes], indexing="ij") if axes else []
    env = {name: Interval.point(g.astype(np.float64), True) for (name, _), g in zip(axes, grids)}
    for name in list(env):
        if name in fixed:
            del env[name]
    env.update(fixed)
    for a in args.values():
        # by-value numbers are known points; vector/matrix/quat/transform values stay unknown, and so
        # does a bool: a switch the caller flips between launches (`if calculate_norm:`), both values meant
        if a.role == "scalar" and isinstance(a.value, (int, float)) and a.dtype != "bool":
            env[a.name] = Interval.point(float(a.value), a.dtype == "int32")
    return env


def is_constant(evaluator: ConditionEvaluator, cond: ast.expr, share: float = 1.0) -> bool:
    """Whether `cond` is decided the same way at (at least `share` of) the launch points."""
    return decided(evaluator.eval(cond), share)


def decided(v: Interval, share: float = 1.0) -> bool:
    """Whether a condition of value `v` is decided the same way at (at least `share` of) the points."""
    lo, hi = _same_shape(v.lo, v.hi)
    if lo.size == 1 and 0.0 < share <= 1.0:  # a share is then 0 or 1: the one point decides
        return lo.item() == 1 or hi.item() == 0
    if not lo.size:
        return False
    if share >= 1.0:
        return _all(lo == 1) or _all(hi == 0)
    # the shares np.mean gives (whole counts over the size, one division each), faster
    return bool(max(np.count_nonzero(lo == 1) / lo.size, np.count_nonzero(hi == 0) / lo.size) >= share)


def launch_context(tid_names: tuple[str, ...], dim: tuple[int, ...], args: list[ArgInfo],
                   loops: list[tuple[str, list[int] | None]] = (),
                   locals_: dict[str, str | ast.expr] | None = None) -> ConditionEvaluator:
    """An evaluator over the launch; `locals_` maps a local to the source of its only value (or to
    that source parsed, `ast.parse(text, mode="eval").body`, which the evaluator only reads)."""
    by_name = {a.name: a for a in args}
    env = launch_env(tid_names, dim, by_name, list(loops))
    read_only = {a.name: a for a in args if a.role in ("input", "index")}
    values = {name: parse_expression(text) if isinstance(text, str) else text
              for name, text in (locals_ or {}).items()}
    return ConditionEvaluator(env, values, read_only)


def condition_is_constant_in(src: str, context: ConditionEvaluator, share: float = 1.0) -> bool:
    """Whether condition `src` is decided, the same way, at every point of the launch (other locals
    unknown), or at least at `share` of them."""
    return is_constant(context, parse_expression(src), share)


def condition_is_constant(src: str, tid_names: tuple[str, ...], dim: tuple[int, ...], args: list[ArgInfo],
                          loops: list[tuple[str, list[int] | None]] = (),
                          locals_: dict[str, str] | None = None) -> bool:
    return condition_is_constant_in(src, launch_context(tid_names, dim, args, loops, locals_))


def find_constant_conditions(fn: ast.FunctionDef, dim: tuple[int, ...], args: dict[str, ArgInfo],
                             index: FunctionIndex | None = None) -> list[Finding]:
    if not _is_wp_func(fn, "kernel"):
        return []
    index = FunctionIndex(fn) if index is None else index
    scalars = {a.name: a.value for a in args.values() if a.role == "scalar" and isinstance(a.value, (int, float))}
    read_only = {a.name: a for a in args.values() if a.role in ("input", "index")}
    loops: list[tuple[str, list[int] | None]] = []
    assigned: dict[str, list[ast.expr]] = {}
    for n in index.of_kind(ast.For, ast.Assign, ast.AugAssign):
        if isinstance(n, ast.For) and isinstance(n.target, ast.Name):
            values = _range_values(n.iter, scalars) if isinstance(n.iter, ast.Call) else None
            loops.append((n.target.id, values))
        elif isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    assigned.setdefault(t.id, []).append(n.value)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            assigned.setdefault(n.target.id, []).extend([n.value, n.value])
    own = _own_index(fn)
    env = launch_env(own, dim, args, loops)
    locals_ = {name: vals[0] for name, vals in assigned.items()
               if len(vals) == 1 and name not in env and name not in own}
    for name in assigned:
        if name not in locals_ and name not in env and name not in own:
            env[name] = Interval.unknown()
    evaluator = ConditionEvaluator(env, locals_, read_only)
    return [Finding("constant_condition", c.lineno, _text(c)) for c in _conditions(index) if is_constant(evaluator, c)]


# ---- outputs, by evaluation at sampled points -------------------------------------------------
def _all_inf(a: np.ndarray) -> bool:
    """`np.isinf(a).all()`, answered by the first element where that one is finite or NaN (the
    evaluators' values mostly are) or the only one, without the two numpy calls."""
    size = a.size
    if size == 1:
        return math.isinf(a.item(0))
    if size and not math.isinf(a.item(0)):
        return False
    return _all(np.isinf(a))


class PointEvaluator(ConditionEvaluator):
    """Exact values at sampled launch points: each distinct element read gets its own random input,
    and each value it cannot follow (a variable set in a branch or loop, a helper's result, a vector
    component) a random value of its own, so a result that ignores it shows up as constant."""

    def __init__(self, env, locals_, arrays, rng: np.random.Generator, points: int):
        super().__init__(env, locals_, arrays)
        self.rng, self.points = rng, points
        self.draws: dict[str, Interval] = {}  # inputs read
        self.free: dict[str, Interval] = {}  # values not followed
        self.helpers: dict[str, ast.FunctionDef] = {}  # @wp.funcs, followed into (straight-line bodies)
        # id(node) -> ast_dump(node), for the keys of draws and free values; a caller whose trees
        # outlive the evaluator (KernelWriter) may share one across evaluators
        self.dumps: dict[int, str] = {}
        # env name -> whether its value is unknown everywhere (read as a free value); env values never
        # change, so evaluators that share an env may share this too
        self.env_unknown: dict[str, bool] = {}

    def _key(self, node: ast.AST) -> str:
        text = self.dumps.get(id(node))  # ast_dump's own memo lookup, without making its writer
        return text if text is not None else ast_dump(node, self.dumps)

    def _free(self, key: str) -> Interval:
        if key not in self.free:
            self.free[key] = _made_from(self.rng, self.rng.normal(0.0, 2.0, self.points), ("free",), _free_value)
        return self.free[key]

    def eval_Name(self, node: ast.Name) -> Interval:
        name = node.id
        v = self.env.get(name)
        if v is not None:  # what super().eval_Name gives first, its unknown-ness looked at once
            unknown = self.env_unknown.get(name)
            if unknown is None:
                unknown = self.env_unknown[name] = _all_inf(v.lo)
            return self._free(name) if unknown else v
        value = self.locals.get(name)
        if value is None:  # unknown everywhere (super().eval_Name's answer): a free value
            return self._free(name)
        v = self._local_value(name, value)
        return self._free(name) if _all_inf(v.lo) else v

    def eval_Call(self, node: ast.Call) -> Interval:
        fn = self.helpers.get(call_name(node))
        # followed only through a straight-line body: with an early return in a branch, the last
        # return is one of several values, not the helper's
        if fn is not None and isinstance(fn.body[-1], ast.Return) and fn.body[-1].value is not None \
                and all(isinstance(s, ast.Assign) for s in fn.body[:-1]):
            env = {p.arg: self._eval(a) for p, a in zip(fn.args.args, node.args)}
            body = {t.id: s.value for s in fn.body[:-1] if isinstance(s, ast.Assign) for t in s.targets
                    if isinstance(t, ast.Name)}
            inner = PointEvaluator(env, body, {}, self.rng, self.points)
            inner.free, inner.helpers, inner.dumps = self.free, self.helpers, self.dumps
            return inner.eval(fn.body[-1].value)
        v = self._eval_call(node)
        return self._free(self._key(node)) if _all_inf(v.lo) and _all_inf(v.hi) else v

    def eval_IfExp(self, node: ast.IfExp) -> Interval:
        c, a, b = self._eval(node.test), self._eval(node.body), self._eval(node.orelse)
        decided, pick_a = c.lo == c.hi, c.lo != 0  # Python's truth of the value
        return Interval(np.where(decided, np.where(pick_a, a.lo, b.lo), np.minimum(a.lo, b.lo)),
                        np.where(decided, np.where(pick_a, a.hi, b.hi), np.maximum(a.hi, b.hi)), a.is_int and b.is_int)

    def eval_Subscript(self, node: ast.Subscript) -> Interval:
        if not (isinstance(node.value, ast.Name) and node.value.id in self.arrays):
            return self._free(self._key(node))
        key = self._key(node)
        if key not in self.draws:
            a = self.arrays[node.value.id]
            grid = 1.0 if a.dtype == "int32" else 1.0 / 64
            steps = int(round((a.high - a.low) / grid))
            is_int = a.dtype == "int32"
            self.draws[key] = _made_from(self.rng, self.rng.integers(0, steps + 1, self.points),
                                         ("input", a.low, math.copysign(1.0, a.low), grid, is_int),
                                         lambda steps_drawn: Interval.point(a.low + steps_drawn * grid, is_int))
        return self.draws[key]

    def _eval_call(self, node: ast.Call) -> Interval:
        name = call_name(node)
        exact = {"sin": np.sin, "cos": np.cos}
        if name in exact and len(node.args) == 1:
            a = self._eval(node.args[0])
            value = exact[name](a.lo)
            if a.lo is a.hi and _all(np.isfinite(value)):  # exact (x == x where sin(x) is finite)
                return _point(value)
            point = (a.lo == a.hi) & np.isfinite(value)
            return Interval(np.where(point, value, -1.0), np.where(point, value, 1.0))
        if name in ("atan2", "pow") and len(node.args) == 2:
            a, b = self._eval(node.args[0]), self._eval(node.args[1])
            point = (a.lo == a.hi) & (b.lo == b.hi)
            v = np.arctan2(a.lo, b.lo) if name == "atan2" else np.power(a.lo, b.lo)
            if a.lo is a.hi and b.lo is b.hi and _all(point):  # no NaN argument: v at every point
                return _point(v)
            return Interval(np.where(point, v, -np.inf), np.where(point, v, np.inf))
        if name in ("where", "select") and len(node.args) == 3:
            c, a, b = (self._eval(x) for x in node.args)
            if name == "select":
                a, b = b, a  # select(cond, false_value, true_value)
            decided = c.lo == c.hi
            pick_a = c.lo == 1
            return Interval(np.where(decided, np.where(pick_a, a.lo, b.lo), np.minimum(a.lo, b.lo)),
                            np.where(decided, np.where(pick_a, a.hi, b.hi), np.maximum(a.hi, b.hi)), a.is_int and b.is_int)
        return super().eval_Call(node)


def _free_value(drawn: np.ndarray) -> Interval:
    """A value the evaluator does not follow, from its normal draw: on the grid of 1/64."""
    return Interval.point(np.round(drawn * 64) / 64)


def _made_from(rng, drawn: np.ndarray, key: tuple, make) -> Interval:
    """`make(drawn)`, for the draw just made; from ReplayedDraws, made once per draw of the start's
    tree and kind (`key`) and shared, read-only, by every evaluator that replays the draw."""
    if type(rng) is ReplayedDraws:
        return rng.made_from_last(key, lambda: _read_only(make(drawn)))
    return make(drawn)


def judge_value(evaluator: PointEvaluator, value: ast.expr) -> str | None:
    """"constant" or "copy" when `value` is, at every sampled point, one number or one element read."""
    v = evaluator.eval(value)
    lo, hi = _same_shape(v.lo, v.hi)
    # `lo is hi`: equal wherever not NaN, and a NaN fails the isfinite test anyway
    if not (lo.size and (lo is hi or _all(lo == hi)) and _all(np.isfinite(lo))):
        return None
    first = lo.item(0)
    # two different values (finite: Python's float comparison is numpy's) answer most cases at once
    if not (lo.size > 1 and lo.item(-1) != first) and _all(lo == first):
        return "constant"
    for draw in evaluator.draws.values():
        drawn = draw.lo
        if drawn.shape == lo.shape:
            if drawn.item(0) != first:  # unequal at the first point (a NaN too: numpy's == is False)
                continue
        else:
            drawn = np.broadcast_to(drawn, lo.shape)
        if _all(drawn == lo):  # np.array_equal, shapes equal
            return "copy"
    return None


def module_constants(tree: ast.Module) -> dict[str, float]:
    """`NAME = wp.constant(<number>)` at module level."""
    out = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and call_name(stmt.value) == "constant" \
                and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and stmt.value.args:
            try:
                out[stmt.targets[0].id] = float(ast.literal_eval(stmt.value.args[0]))
            except ValueError:
                pass
    return out


@dataclass
class SamplingStart:
    """The launch points `sampling_evaluator` draws first (thread indices, from a generator seeded
    with `seed`) and the generator's state after them: evaluators over one launch made from one start
    skip seeding and drawing. An evaluator made from a start is valid until the next one made from it
    (they share the generator)."""

    tid_names: tuple[str, ...]
    dim: tuple[int, ...]
    points: int
    seed: int
    tids: dict[str, Interval]
    rng: np.random.Generator
    state: dict
    # the draws evaluators made from the start, as a tree: per draw (its kind and arguments) the values
    # drawn, the generator's state after them, and the draws that followed (see ReplayedDraws)
    replays: dict = field(default_factory=dict)
    replayed: int = 0  # entries in `replays`


# The most draws a start remembers (`SamplingStart.replays`) before it forgets them all.
REPLAY_LIMIT = 1 << 14


class ReplayedDraws:
    """The start's generator for one evaluator, from the start's state (`integers` and `normal`, the
    draws a PointEvaluator makes): a sequence of draws some evaluator made before is given its values
    again from the start's tree, without drawing. The generator only draws (its state first set to
    where the sequence is) for a draw the tree does not hold, so every value is the one the generator
    would give; evaluators judge value after value, and most sequences repeat the last one's start."""

    __slots__ = ("start", "node", "state", "synced", "last")

    def __init__(self, start: SamplingStart) -> None:
        self.start = start
        self.node = start.replays  # the draws that may follow those made so far
        self.state = start.state  # the generator's state after the draws made so far
        self.synced = False  # whether the generator is at `state`
        self.last: tuple | None = None  # the tree's entry of the last draw

    def _replay(self, key: tuple, draw) -> np.ndarray:
        entry = self.node.get(key)
        if entry is None:
            start = self.start
            rng = start.rng
            if not self.synced:
                rng.bit_generator.state = self.state
            values = draw(rng)
            values.flags.writeable = False  # shared by every evaluator that replays it
            if start.replayed >= REPLAY_LIMIT:
                start.replays.clear()  # nodes held by evaluators stay valid: they are whole subtrees
                start.replayed = 0
            entry = self.node[key] = (values, rng.bit_generator.state, {}, {})
            start.replayed += 1
            self.synced = True
        else:
            self.synced = False
        self.state, self.node = entry[1], entry[2]
        self.last = entry
        return entry[0]

    def made_from_last(self, key: tuple, make):
        """`make()`, a value made from the last draw's values only, remembered with that draw (per
        `key`, the kind of value): evaluators replaying the draw make it once."""
        made = self.last[3]
        value = made.get(key)
        if value is None:
            value = made[key] = make()
        return value

    def integers(self, low: int, high: int, size: int) -> np.ndarray:
        return self._replay(("integers", low, high, size), lambda rng: rng.integers(low, high, size))

    def normal(self, loc: float, scale: float, size: int) -> np.ndarray:
        return self._replay(("normal", loc, scale, size), lambda rng: rng.normal(loc, scale, size))


@functools.lru_cache(maxsize=64)
def sampling_start(tid_names: tuple[str, ...], dim: tuple[int, ...], points: int = 48, seed: int = 0) -> SamplingStart:
    """Drawn once per launch shape in a process: kernels share a handful of launch shapes, and
    seeding a generator costs more than most evaluations."""
    rng = np.random.default_rng(seed)
    tids = {name: Interval.point(rng.integers(0, d, points).astype(np.float64), True) for name, d in zip(tid_names, dim)}
    return SamplingStart(tuple(tid_names), tuple(dim), points, seed, tids, rng, rng.bit_generator.state)


def sampling_evaluator(tid_names: tuple[str, ...], dim: tuple[int, ...], args: list[ArgInfo],
                       locals_: dict[str, ast.expr], unknown: set[str], points: int = 48,
                       seed: int = 0, constants: dict[str, float] | None = None,
                       helpers: dict[str, ast.FunctionDef] | None = None,
                       start: SamplingStart | None = None, dumps: dict[int, str] | None = None) -> PointEvaluator:
    """A PointEvaluator at `points` random launch points; `start` (from `sampling_start` with the same
    launch, points and seed) gives the same evaluator, faster. `dumps`: a memo of node texts
    (`PointEvaluator.dumps`) kept by a caller whose trees outlive the evaluator, all of them alive
    while the memo is."""
    if start is None:
        start = sampling_start(tid_names, dim, points, seed)
    elif (start.tid_names, start.dim, start.points, start.seed) != (tuple(tid_names), tuple(dim), points, seed):
        raise ValueError("sampling_evaluator: the start was drawn for another launch")
    return SamplingInputs(start, args, unknown, constants, helpers).evaluator(locals_, dumps)


class SamplingInputs:
    """What `sampling_evaluator` makes of a launch's arguments, unknown names, constants and helpers
    (the evaluator's environment), once: a caller that judges value after value over unchanged inputs
    (KernelWriter) keeps it and makes each evaluator from it. Evaluators only read the environment."""

    def __init__(self, start: SamplingStart, args: list[ArgInfo], unknown: set[str],
                 constants: dict[str, float] | None = None, helpers: dict[str, ast.FunctionDef] | None = None):
        points = start.points
        env = dict(start.tids)
        for name, value in (constants or {}).items():
            env[name] = Interval.point(np.full(points, value))
        for a in args:
            if a.role == "scalar" and isinstance(a.value, (int, float)):  # vector values stay unknown
                env[a.name] = Interval.point(np.full(points, float(a.value)), a.dtype == "int32")
        for name in unknown:
            env[name] = Interval.unknown()
        self.start = start
        self.env = env
        self.read_only = {a.name: a for a in args if a.role in ("input", "index")}
        self.helpers = dict(helpers or {})
        self.env_unknown: dict[str, bool] = {}  # PointEvaluator.env_unknown, for this env

    def evaluator(self, locals_: dict[str, ast.expr], dumps: dict[int, str] | None = None) -> PointEvaluator:
        """A PointEvaluator with the start's generator at the start's state (as `sampling_evaluator`
        makes it, through ReplayedDraws); valid until the next evaluator made from the same start."""
        start = self.start
        evaluator = PointEvaluator(self.env, locals_, self.read_only, ReplayedDraws(start), start.points)
        evaluator.helpers = dict(self.helpers)
        evaluator.env_unknown = self.env_unknown
        if dumps is not None:
            evaluator.dumps = dumps
        return evaluator


def sampled_output_findings(source: str, dim: tuple[int, ...], args: list[ArgInfo], points: int = 48,
                            seed: int = 0) -> list[Finding]:
    """Top-level stores whose value, at random launch points and inputs, is always the same number or
    always equal to one element read (a copy). Values through branches or loops are not judged."""
    tree = ast.parse(source)
    by_name = {a.name: a for a in args}
    read_only = {a.name: a for a in args if a.role in ("input", "index")}
    rng = np.random.default_rng(seed)
    out = []
    for fn in tree.body:
        if not (isinstance(fn, ast.FunctionDef) and _is_wp_func(fn, "kernel")):
            continue
        own = _own_index(fn)
        env = {name: Interval.point(rng.integers(0, d, points).astype(np.float64), True) for name, d in zip(own, dim)}
        for name, value in module_constants(tree).items():
            env[name] = Interval.point(np.full(points, value))
        for a in by_name.values():
            if a.role == "scalar" and isinstance(a.value, (int, float)):  # vector values stay unknown
                env[a.name] = Interval.point(np.full(points, float(a.value)), a.dtype == "int32")
        assigned: dict[str, list[ast.expr]] = {}
        for n in ast_walk(fn):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        assigned.setdefault(t.id, []).append(n.value)
            elif isinstance(n, (ast.AugAssign, ast.For)):
                target = n.target
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).extend([None, None])
        locals_ = {k: v[0] for k, v in assigned.items() if len(v) == 1 and k not in own}
        # an integer variable set in a loop or branch (a count, a label: `n = int(0)`, then `n += 1`)
        # takes small integers, which `n == 3` can meet; a free float value never would
        counts = np.random.default_rng(seed + 1)
        for k in assigned:
            if k not in locals_ and k not in own:
                if any(isinstance(v, ast.Call) and call_name(v) in ("int", "int32") for v in assigned[k]):
                    env[k] = Interval.point(counts.integers(0, 9, points).astype(np.float64), True)
                elif any(isinstance(v, ast.Call) and call_name(v) == "bool" for v in assigned[k]):
                    # a flag a loop or branch sets (`hit = bool(False)`, then `hit = True`): either value
                    env[k] = Interval.point(counts.integers(0, 2, points).astype(np.float64), True)
                else:
                    env[k] = Interval.unknown()
        ev = PointEvaluator(env, locals_, read_only, rng, points)
        ev.helpers = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef) and _is_wp_func(f, "func")}
        for at, stmt in enumerate(fn.body):
            if not (isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Subscript)):
                continue
            if _overwritten_later(fn.body[at + 1:], _text(stmt.targets[0])):
                continue  # a default (`out[tid] = 0.0`, then `if hit: out[tid] = ...`), not the output
            v = ev.eval(stmt.value)
            lo, hi = np.broadcast_arrays(v.lo, v.hi)
            if not (np.all(lo == hi) and np.all(np.isfinite(lo))):
                continue
            target = _text(stmt.targets[0].value)
            if np.all(lo == lo.flat[0]):
                out.append(Finding("constant_output", stmt.lineno, f"{target}: always {lo.flat[0]:g}"))
                continue
            for key, draw in ev.draws.items():
                if np.array_equal(np.broadcast_to(draw.lo, lo.shape), lo):
                    out.append(Finding("copy_of_input", stmt.lineno, f"{target}: a copy of an input element"))
                    break
    return out


def _overwritten_later(statements: list[ast.stmt], target: str) -> bool:
    """Whether a store to `target` (the same subscript text) follows inside a branch or loop."""
    return any(isinstance(n, ast.Assign) and any(_text(t) == target for t in n.targets)
               for stmt in statements if isinstance(stmt, (ast.If, ast.For, ast.While))
               for n in ast.walk(stmt))


# ---- loops whose trips are all alike --------------------------------------------------------------
# Updates `x = x op e` (or `x op= e`, `x = min(x, e)`) that, with `e` the same on every trip, a
# person writes as one operation: `n * e`, `e ** n`, or `min(x, e)` once.
_FOLDING_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div)
_FOLDING_CALLS = {"min", "max"}


def _changes_state(node: ast.AST) -> bool:
    """Whether `node` calls a builtin that returns something new on each call or changes its
    arguments (`hash_grid_query_next(query, index)`, `randf(state)`, `atomic_add`): a test or value
    holding one may differ from trip to trip however alike its arguments are."""
    for n in ast_walk(node):
        if isinstance(n, ast.Call):
            name = call_name(n)
            if name.endswith("_next") or name.startswith(("rand", "sample_", "atomic_", "poisson")):
                return True
    return False


def _stored_names(stmts: list[ast.stmt]) -> set[str]:
    return {n.id for s in stmts for n in ast_walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _folding_update(stmt: ast.stmt) -> tuple[str, ast.expr] | None:
    """(x, e) for `x = x op e`, `x op= e` (op + - * /) or `x = min(x, e)` / `max` (`wp.` or not)."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and isinstance(stmt.op, _FOLDING_BINOPS):
        return stmt.target.id, stmt.value
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return None
    name, value = stmt.targets[0].id, stmt.value
    if isinstance(value, ast.BinOp) and isinstance(value.op, _FOLDING_BINOPS) \
            and isinstance(value.left, ast.Name) and value.left.id == name:
        return name, value.right
    if isinstance(value, ast.Call) and call_name(value) in _FOLDING_CALLS and len(value.args) == 2 and not value.keywords:
        a, b = value.args
        if isinstance(a, ast.Name) and a.id == name:
            return name, b
        if isinstance(b, ast.Name) and b.id == name:
            return name, a
    return None


_CAST_NAMES = {"wp", "float", "int", "float32", "int32"}


def _factors(node: ast.expr) -> list[ast.expr]:
    """The factors of a product or quotient (`a * b / c` -> a, b, c), signs dropped."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _factors(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
        return _factors(node.left) + _factors(node.right)
    return [node]


def _separable(value: ast.expr, varying: set[str], trip_vars: set[str]) -> bool:
    """Whether a folded value is (something the same on every trip) times or over (a function of the
    loop variable alone): `x * float(k)` summed over the trips is `x` times a number
    (`x * n * (n - 1) / 2`), which a person writes without the loop."""
    by_trip = held = False
    for factor in _factors(value):
        names = _loaded_names(factor) - _CAST_NAMES
        if names & varying:
            if not names <= trip_vars or any(isinstance(n, ast.Subscript) for n in ast_walk(factor)):
                return False
            by_trip = True
        elif names:
            held = True
    # a function of the trip alone (`result *= i`, a factorial) is what the loop is for
    return by_trip and held


def _carried_names(stmts: list[ast.stmt], assigned: set[str], defined: set[str]) -> set[str]:
    """Names of `assigned` that a trip may read before it assigns them: the values one trip hands the
    next. `defined`: the names this trip has surely assigned so far (updated)."""
    carried: set[str] = set()
    for s in stmts:
        if isinstance(s, ast.If):
            carried |= (_loaded_names(s.test) & assigned) - defined
            carried |= _carried_names(s.body, assigned, set(defined))
            carried |= _carried_names(s.orelse, assigned, set(defined))
        elif isinstance(s, (ast.For, ast.While)):
            header = s.iter if isinstance(s, ast.For) else s.test
            carried |= (_loaded_names(header) & assigned) - defined
            inner = set(defined) | {n.id for n in ast_walk(s.target) if isinstance(n, ast.Name)} \
                if isinstance(s, ast.For) else set(defined)
            carried |= _carried_names(s.body, assigned, inner)
        else:
            reads = _loaded_names(s)
            if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
                reads.add(s.target.id)
            carried |= (reads & assigned) - defined
            defined |= set(_assigned_names(s))
            if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
                defined.add(s.target.id)
    return carried


def _trips_alike(stmts: list[ast.stmt], varying: set[str], carried: set[str], counters: set[str],
                 trip_vars: set[str]) -> tuple[bool, bool]:
    """(every trip does the same, a `break`/`continue` test reads nothing that changes between trips)
    for a loop body. `varying` holds the trip variables and the carried names, and gains, in order,
    every name assigned from something that changes between trips (or under a test that does)."""
    alike, fixed_exit = True, False
    for s in stmts:
        update = _folding_update(s)
        if update is not None and update[0] in counters:
            continue  # `c = c + 1` of a while loop's counter
        if update is not None and update[0] in carried:
            if _loaded_names(update[1]) & varying and not _separable(update[1], varying, trip_vars):
                alike = False
            continue
        if isinstance(s, (ast.If, ast.For, ast.While)):
            header = s.test if not isinstance(s, ast.For) else s.iter
            if _loaded_names(header) & varying or _changes_state(header):
                alike = False
                varying |= _stored_names(s.body + s.orelse)  # assigned on some trips only, or differently
            elif isinstance(s, ast.If) and any(isinstance(b, (ast.Break, ast.Continue)) for b in s.body + s.orelse):
                fixed_exit = True
            for block in (s.body, s.orelse):
                a, f = _trips_alike(block, varying, carried, counters, trip_vars)
                alike = alike and a
                fixed_exit = fixed_exit or f and isinstance(s, ast.If)  # an inner loop's exits are its own
        elif _loaded_names(s) & varying or isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) \
                and s.target.id in varying or _changes_state(s):
            alike = False
            varying |= set(_assigned_names(s))
    return alike, fixed_exit


def find_invariant_loops(fn: ast.FunctionDef, index: FunctionIndex | None = None) -> list[Finding]:
    """Loops whose every trip does the same thing: no statement reads the loop variable (a while
    loop's counter) or a value an earlier trip left, except updates `x = x op e` that fold one
    unchanging `e` into `x` (`for k in range(n): acc += x` is `n * x`), or an `e` that is such a value
    times a function of the loop variable alone (`acc += x * float(k)` is x times a number); and
    loops whose `break` or `continue` test is the same on every trip (it holds on all or on none)."""
    index = FunctionIndex(fn) if index is None else index
    out = []
    for loop in index.of_kind(ast.For, ast.While):
        assigned = _stored_names(loop.body)
        if isinstance(loop, ast.For):
            if not (isinstance(loop.iter, ast.Call) and call_name(loop.iter) == "range"):
                continue  # a query's or an array's elements: how many, and which, depends on the data
            trip_vars = {n.id for n in ast_walk(loop.target) if isinstance(n, ast.Name)}
            counters: set[str] = set()
            header = f"for {_text(loop.target)} in {_text(loop.iter)}"
        else:
            trip_vars = counters = _loaded_names(loop.test) & assigned
            header = f"while {_text(loop.test)}"
            if not counters:
                continue  # a test nothing in the body changes: not a counted loop
        carried = _carried_names(loop.body, assigned, set()) - trip_vars
        alike, fixed_exit = _trips_alike(loop.body, trip_vars | carried, carried, counters, trip_vars)
        if alike or fixed_exit:
            out.append(Finding("invariant_loop", loop.lineno, header))
    return out


# ---- everything -------------------------------------------------------------------------------
def find_patterns(source: str, dim: tuple[int, ...] = (), args: list[ArgInfo] | None = None) -> list[Finding]:
    """All SOURCE_PATTERNS findings in a module of @wp.func helpers and @wp.kernels."""
    tree = parse_module(source)
    by_name = {a.name: a for a in (args or [])}
    out: list[Finding] = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        index = FunctionIndex(fn)  # one walk for all the checks
        out += find_same_operands(fn, index)
        out += find_literal_only(fn, index)
        out += find_self_assign(fn, index)
        out += find_dead_values(fn, index)
        out += find_helper_problems(fn, index)
        out += find_undone_operations(fn, index)
        out += find_no_effect(fn, index)
        out += find_cancelling_terms(fn, index)
        out += find_foldable_constants(fn, index)
        out += find_redundant_branches(fn, index)
        if index.of_kind(ast.For, ast.While):
            out += find_invariant_loops(fn, index)
        if dim:
            out += find_constant_conditions(fn, dim, by_name, index)
    return out


def figures(source: str, array_names: set[str]) -> dict[str, int]:
    """FIGURES for the @wp.kernels of a module (1 = present in some kernel)."""
    tree = ast.parse(source)
    total = dict.fromkeys(FIGURES, 0)
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and _is_wp_func(fn, "kernel"):
            for k, v in read_figures(fn, array_names).items():
                total[k] = max(total[k], v)
    return total


def reset_arrays(source: str) -> frozenset[str]:
    """The arrays a kernel of `source` only ever resets: each write to them is `wp.atomic_exch(a, i,
    <constant>)` (a consumer taking a counter and zeroing it, a dirty flag cleared as it is read).
    Their values after the launch are the constant everywhere the launch reached, by design."""
    exchanged: set[str] = set()
    otherwise: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args \
                and isinstance(node.args[0], ast.Name) and node.func.attr.startswith("atomic_"):
            value = node.args[-1]
            if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
                value = value.operand
            literal = isinstance(value, ast.Constant) and isinstance(value.value, (int, float))
            (exchanged if node.func.attr == "atomic_exch" and literal else otherwise).add(node.args[0].id)
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    otherwise.add(target.value.id)
    return frozenset(exchanged - otherwise)


def degenerate_outputs(written: dict[str, np.ndarray], inputs: dict[str, np.ndarray],
                       initial: dict[str, np.ndarray] | None = None, resets: frozenset[str] = frozenset()) -> list[Finding]:
    """OUTPUT_PATTERNS over a kernel's written arrays, its inputs and its inout start values.

    Arrays of vectors, matrices or transforms come shaped (elements, components): an output is
    `constant` when every element is the same value, even if its components differ (every thread
    writing one transform). A one-element array (a total) is never `constant`. An array the kernel
    only resets (`reset_arrays`) is constant by design: only a copy of an input counts for it.
    """
    out = []
    for name, data in written.items():
        if name in resets:
            pass
        elif len(data) > 1 and np.all(data == 0):
            out.append(Finding("zero_output", 0, name))
        elif len(data) > 1 and np.all(data == data[0]):
            out.append(Finding("constant_output", 0, name))
        sources = dict(inputs)
        if initial and name in initial:
            sources[f"{name} (unchanged)"] = initial[name]
        for other, values in sources.items():
            if values.shape == data.shape and values.dtype == data.dtype and np.array_equal(values, data) \
                    and not np.all(data == 0):
                out.append(Finding("copy_of_input", 0, f"{name} == {other}"))
                break
    return out
