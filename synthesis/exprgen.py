"""A writer for kernel bodies (KernelWriter), and the named formulas and operand choices the
categories build with (ExprGen). ExprGen can still draw random float and int expression trees; no
category does any more (every kernel is a named computation), but the realism checks' tests draw them
to find what those checks must catch.

Every expression carries a bound on its magnitude and, where float32 computes it without rounding,
its "grid": the value is a multiple of 2**-q. Only exact values feed anything discontinuous
(comparisons, floor/ceil, int() casts, float %), so two correct float32 implementations (Warp on
the CPU, nvcc on a GPU) that differ by an ulp in sinf can never take different branches: the
equivalence check then only has to absorb rounding, scaled by the recorded bounds.

The code should read like code people write (synthesis/realism.py finds what it must not contain):
no operation on literals only (`lit`) or on two copies of one value, no condition that is constant
over the launch (decided by `realism`'s interval evaluation), each own element loaded once into a
local at the top, and every stored value computed, varying over the launch and, on sampled inputs,
neither one number nor a copy of an input.
"""
from __future__ import annotations

import ast
import dataclasses
import functools
import math
import random
import re
from collections import Counter
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from synthesis import realism
from synthesis.dtypes import dtype as lookup_dtype
from synthesis.naming import accumulates, fresh_name, reserved, running_names, smoothed, untaken

from synthesis.normalize import ast_walk, parse_expression, parse_module
from synthesis.spec import MATRIX_TYPES, VECTOR_TYPES, ArgSpec, KernelSpec

EXACT_BITS = 24  # float32 significand
MAX_FLOAT_MAG = 256.0  # keep intermediates small so rounding errors stay small
MAX_INT_MAG = 1 << 20

# Constants are multiples of 1/16: exactly representable, so Python, Warp and nvcc agree on them.
CONST_Q = 4
_EXACT_LIMIT = 2.0**EXACT_BITS


class Expr(NamedTuple):
    """A generated expression (a record). A named tuple rather than a frozen dataclass: the generators
    make tens of them per kernel, and a tuple is built in one call (a frozen dataclass sets each field
    through `object.__setattr__`); fields, defaults, equality, hash and repr read the same."""

    src: str
    type: str  # float32 | int32 | bool | vecN | matNN
    mag: float  # bound on |value| (component-wise for vectors and matrices)
    q: int | None = 0  # value is a multiple of 2**-q; None: rounded somewhere
    atom: bool = True  # needs no parentheses as an operand
    lit: bool = False  # built from literals only: never an operand of a computation (fold it instead)

    @property
    def exact(self) -> bool:
        if self.type in ("int32", "bool"):
            return True
        return self.q is not None and self.mag * 2.0**self.q < _EXACT_LIMIT

    def operand(self) -> str:
        return self.src if self.atom else f"({self.src})"


def _is_literal(src: str) -> bool:
    try:
        float(src.strip("()"))
        return True
    except ValueError:
        return False


# A name, not an attribute (`v.x`) nor the tail of a longer word: `(?<![.\w])[A-Za-z_]\w*`, with the
# look-behind moved after the first letter (it then spans that letter too), so the regex engine scans
# for a letter first instead of trying the look-behind at every character; the same matches.
NAME_TOKEN = re.compile(r"[A-Za-z_](?<![.\w].)\w*")
TOP_LEVEL_ASSIGN = re.compile(r"^    (\w+) = (.*)$")  # `name = value` in the kernel's top block
TOP_LEVEL_LOAD = re.compile(r"^    (\w+) = (\w+)\[([^\[\]]+)\]$")  # `local = array[index]` in the top block
TOP_LEVEL_ALIAS = re.compile(r"^    (\w+) = (\w+)$")  # `name = other_name` in the top block
TOP_LEVEL_STATEMENT = re.compile(r"^    (?!(?:if|elif|else|for|while)\b)\S")  # a statement of the top block, no block header
ASSIGNED_NAME = re.compile(r"^\s*(\w+)\s*(?:=|\+=|-=|\*=|/=)(?!=)", re.M)  # a local's (re)assignments
INLINE_LOADS_SHARE = 0.35  # kernels whose single-use loads are indexed in place
# `out[index] = value` at any depth, the index free of brackets
ELEMENT_STORE = re.compile(r"^(\s+)(\w+)\[([^\[\]]+)\] = (.+)$")
# One component of a vector kept as arrays of its own (`vel_x`): the vector's name, then the component
COMPONENT_ARRAY = re.compile(r"(\w+)_([xyzw])")
LOOP_HEADER = re.compile(r"^(\s*)for (\w+) in ")
FORWARD_ONLY_SHARE = 0.12  # kernels declared forward-only, about as often as in Warp's examples (18 of 170)
# kernels compiled as a module of their own (`@wp.kernel(module="unique")`, 6 of Warp's 170 examples)
UNIQUE_MODULE_SHARE = 0.04
OUTPUT_UPDATE_SHARE = 0.3  # kernels that update an output in place instead of overwriting it
INTERMEDIATE_OUTPUT_SHARE = 0.2  # kernels that also store an intermediate value they compute
RESULT_INLINE_SHARE = 0.3  # kernels that write a result's expression into the store instead of naming it first
STORABLE_LOCAL_TYPES = frozenset({"float32", "vec2", "vec3", "vec4"})
UPDATABLE_DTYPES = frozenset({"float32", "float64", "int32", "vec2", "vec3", "vec4", "mat22", "mat33", "mat44"})
# A running average's rate, the new value's weight, named as optimisers and filters name it (PyTorch's
# batch norm calls it momentum), and its values: a slow average, as running statistics are kept
BLEND_HINTS = ("alpha", "smoothing", "momentum", "ema_alpha")
EMA_RATES = (0.01, 0.05, 0.1, 0.2, 0.25)
# What an output's stored value is, for update_outputs. A value that wraps around (an angle, a
# fractional part, a sign, a rounded value) is neither summed nor blended over steps: 350 and 10 degrees
# blend to 180. A normalised or range-held value (a unit direction, a clamped or smoothstepped value)
# may be smoothed toward the new value, which stays near its range, but a sum of them leaves it.
WRAPPING_CALLS = frozenset({"atan2", "asin", "acos", "sign", "floor", "ceil", "trunc", "round"})
BOUNDED_CALLS = frozenset({"normalize", "clamp", "smoothstep"})
ANY_ASSIGN = re.compile(r"^\s+(\w+) = (.+)$")  # `name = value` at any depth
TUPLE_FROM_CALL = re.compile(r"^\s+(\w+(?:, \w+)+) = (\w+)\(.*\)$")  # `t, b = frame(n, g)`
RETURN_LINE = re.compile(r"^\s+return (.+)$")
HELPER_DEF = re.compile(r"^def (\w+)\(.*$", re.M)
LITERAL_CAST = re.compile(r"[\w.]+\(-?[\d.]+\)")  # `float(0.0)`, `int(0)`, `wp.vec3(0.0)`
# Builtins without side effects whose result depends only on their arguments: a second call with the
# same arguments is the first one's value (KernelWriter.reuse_locals)
PURE_BUILTINS = frozenset({"abs", "sqrt", "cbrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "atan2",
                           "asin", "acos", "pow", "min", "max", "clamp", "floor", "ceil", "trunc", "round", "sign",
                           "length", "length_sq", "dot", "cross", "normalize", "transpose", "inverse", "determinant",
                           "outer", "trace", "mul", "lerp", "smoothstep", "quat_rotate", "quat_rotate_inv",
                           "transform_point", "transform_vector"})
# compiled once: `re.fullmatch(pattern, ...)` looks its pattern up in re's cache (a Python call) each time
WORD = re.compile(r"\w+")
ELEMENT = re.compile(r"\w+\[[\w, ]+\]")  # `a[i]`, `a[i, j]`: an element read as it is
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
FLOAT_LITERAL = re.compile(r"[0-9]+\.[0-9]+")  # `0.5`, as fmt_float writes the literals of FLOAT_CONSTS
INT_LITERAL = re.compile(r"0|[1-9][0-9]*")
_NAMED_CONSTANTS = frozenset({"True", "False", "None"})  # identifiers the parser makes Constants
_COMPARE_OPS = {"<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "==": ast.Eq, "!=": ast.NotEq}


@functools.lru_cache(maxsize=1024)
def reads(name: str) -> "re.Pattern[str]":
    """Matches `name` used as a variable (`v.x` is an attribute, not the variable x). Cached: the
    writer asks about the same few names line after line (re's own cache costs an escape and a
    format per call)."""
    return re.compile(rf"(?<![.\w]){re.escape(name)}\b")


_NOT_VARIABLES = frozenset({"wp", "float", "int", "abs", "min", "max"})


# Calls this generator only ever writes with a result >= 0: `wp.pow(|a| + 1.0, p)`, `wp.log(|a| + 1.0)`,
# `wp.log(1.0 + wp.exp(a))`, `wp.smoothstep(lo, hi, a)`.
_GENERATED_NON_NEGATIVE = ("wp.pow(", "wp.log(", "wp.smoothstep(")
_ROUNDED = re.compile(r"wp\.(floor|ceil|round|trunc|rint)\(.*\)$")  # a rounding call as a whole value
_FLOAT_OF_NAME = re.compile(r"float\((\w+)\)")
_CUBIC_SMOOTHSTEP = re.compile(r"(\w+) \* \1 \* \(3\.0 - 2\.0 \* \1\)")  # as arith_formula writes it
# realism's calls never negative, as the generators spell them (`abs` also without `wp.`)
_NEVER_NEGATIVE_CALLS = tuple(f"wp.{name}(" for name in sorted(realism.NEVER_NEGATIVE_CALLS)) + ("abs(",)


def _call_args(src: str, prefixes: tuple[str, ...]) -> list[str] | None:
    """The top-level arguments of `src` when it is one call to one of `prefixes` (`wp.max(a, b)`)."""
    if not src.startswith(prefixes) or not src.endswith(")"):
        return None
    start = src.index("(") + 1
    args, depth, begin = [], 0, start
    for i in range(start, len(src) - 1):
        ch = src[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                return None  # `f(a) + g(b)`: the first call closes before the end
        elif ch == "," and depth == 0:
            args.append(src[begin:i].strip())
            begin = i + 1
    if depth:
        return None
    args.append(src[begin:len(src) - 1].strip())
    return args


def _square_side(src: str) -> str | None:
    """x for `src` == `x * x` (one product at the top level, of two equal sides), else None."""
    depth, at = 0, []
    for i, ch in enumerate(src):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and ch in "+-*/%<>=!&|" and 0 < i < len(src) - 1 and src[i - 1] == src[i + 1] == " ":
            at.append(i)  # a binary operator, written ` op ` (a unary minus has no space after it)
    if len(at) != 1 or src[at[0]] != "*":
        return None
    left, right = src[:at[0] - 1], src[at[0] + 2:]
    return left if left == right else None


# How each of FORMULA_OPS reads in a kernel's source (for its features).
FORMULA_MARKS = (("sigmoid", re.compile(r"1\.0 / \(1\.0 \+ wp\.exp\(-")), ("softplus", re.compile(r"wp\.log\(1\.0 \+ wp\.exp\(")),
                 ("ReLU", re.compile(r"max\(.*, 0\.0\)")), ("leaky ReLU", re.compile(r"wp\.where\((\w+) > 0\.0, \1, ")),
                 ("Gaussian falloff", re.compile(r"wp\.exp\(-(\w+) \* \1 \* ")), ("softsign", re.compile(r"(\w+) / \(1\.0 \+ wp\.abs\(\1\)\)")),
                 ("smoothstep", re.compile(r"wp\.smoothstep\(")),
                 ("reflection about a normal", re.compile(r"(\w+) - 2\.0 \* wp\.dot\(\1, (\w+)\) \* \2\b")),
                 ("projection onto a normal", re.compile(r"(?<!- )(?<!2\.0 \* )wp\.dot\((\w+), (\w+)\) \* \2\b")),
                 ("part orthogonal to a normal", re.compile(r"(\w+) - wp\.dot\(\1, (\w+)\) \* \2\b")),
                 ("symmetric part", re.compile(r"0\.5 \* \((\w+) \+ wp\.transpose\(\1\)\)")),
                 ("skew part", re.compile(r"0\.5 \* \((\w+) - wp\.transpose\(\1\)\)")),
                 ("Gram matrix", re.compile(r"wp\.transpose\((\w+)\) @ \1\b")),
                 ("change of frame", re.compile(r"(\w+) @ \w+ @ wp\.transpose\(\1\)")))


_OPERATOR_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
                     ast.Pow: "**"}


def operations_used(source: str, calls: tuple[str, ...], operators: bool = True) -> list[str]:
    """The binary operators (`+ - * / // % **`) and negation (with `operators`), then the calls among
    `calls` (`min`, `wp.sin`, ...), that `source` uses, each once, in that order."""
    found_ops: set[str] = set()
    found_calls: set[str] = set()
    for node in ast_walk(parse_module(source)):  # the shared parse, walked as a list (faster)
        if isinstance(node, ast.BinOp) and operators:
            found_ops.add(_OPERATOR_SYMBOLS.get(type(node.op), ""))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and operators \
                and not isinstance(node.operand, ast.Constant):
            found_ops.add("negation")
        elif isinstance(node, ast.Call) and realism.call_name(node) in calls:
            found_calls.add(realism.call_name(node))
    order = list(_OPERATOR_SYMBOLS.values()) + ["negation"]
    return [o for o in order if o in found_ops] + [c for c in calls if c in found_calls]


def formula_features(lines: list[str]) -> list[str]:
    """The formulas (FORMULA_OPS) a kernel's lines hold, by name."""
    text = "\n".join(lines)
    return [name for name, mark in FORMULA_MARKS if mark.search(text)]


def never_negative(src: str) -> bool:
    """`src` is one call whose value is never negative (`wp.sqrt(...)`) or a square (`x * x`): `abs` of
    it changes nothing."""
    return _call_args(src, _NEVER_NEGATIVE_CALLS) is not None or _square_side(src) is not None


def absorbs(op: str, a: str, b: str) -> bool:
    """`op(a, b)` changes nothing: one side is `op(x, y)` (as `wp.op` or `op`) and the other is x or y."""
    prefixes = (f"wp.{op}(", f"{op}(")
    for inner, other in ((a, b), (b, a)):
        args = _call_args(inner, prefixes)
        if args is not None and other in args:
            return True
    left, right = _call_args(a, prefixes), _call_args(b, prefixes)
    # `max(max(x, c), max(d, x))`: x twice, the outer max of three values written with a repeat
    return left is not None and right is not None and not set(left).isdisjoint(right)


def _same_names(a: str, b: str) -> bool:
    """`n - n >= n`-style comparisons: both sides read the same single name and nothing else."""
    names = set(IDENTIFIER.findall(a))  # (names of a | names of b) - _NOT_VARIABLES, in one set
    names.update(IDENTIFIER.findall(b))
    names -= _NOT_VARIABLES
    return len(names) <= 1 and not (_is_literal(a) or _is_literal(b))


# ---- the statement tree of a kernel body, from its lines (drop_dead_stores) -----------------------
# The writer's lines have a few fixed shapes: `if X:`, `elif X:`, `else:`, `return`, and assignments
# to a name, to names (`i, j = wp.tid()`) or to an element (`out[tid] = X`). For those, the tree
# `dead_value_statements` reads (statements, their nesting, the names each loads) is built from the
# text without the parser; any other line (a loop, `+=`, a string, a keyword argument...) leaves it
# to `ast.parse`.
_HEADER = re.compile(r"(if|elif) (.+):")
_NAMES_TARGET = re.compile(r"[A-Za-z_]\w*(?:, [A-Za-z_]\w*)*")  # `r1`, `i, j`
_ELEMENT_TARGET = re.compile(r"([A-Za-z_]\w*)\[[^\[\]=:'\"#]*\]")  # `out[tid]`, `out[i, j]`
# what a name token may not be read past: a store or keyword argument (a lone `=`), a string, a
# comment, a comprehension's or lambda's own names, a line continuation, an attribute after a space
_NOT_PLAIN = re.compile(r"(?<![=!<>])=(?!=)|['\"#;\\:]|\b(?:for|lambda|async|await|yield)\b|\s\.")
# names whose call may make a literal initialisation (`float(0.0)`, `wp.float32(-1.0)`, `True`): a
# value reading only these (or an attribute call `x.float32(...)`) is parsed for `_is_literal_init`
_LITERAL_INIT_NAMES = frozenset({"float", "int", "float32", "int32", "wp", "True", "False", "None"})


class LineReads:
    """`realism.StatementReads`'s `reads` and `all_reads` for a statement tree built from lines
    (`statement_tree`): the names each statement and `if` test loads. Each statement's set is made
    when first asked for (`dead_value_statements` asks about few)."""

    def __init__(self, loads: dict[int, list[str]], all_loads: set[str]) -> None:
        self._loads = loads  # id(statement or test) -> the names its own text loads (an `if`: its test's)
        self._sets: dict[int, frozenset[str]] = {}
        self._all = frozenset(all_loads)

    def reads(self, node: ast.AST) -> frozenset[str]:
        key = id(node)
        found = self._sets.get(key)
        if found is None:
            if type(node) is ast.If:  # its test's and every statement's below it, as StatementReads records
                found = self.reads(node.test).union(*[self.reads(s) for s in node.body],
                                                    *[self.reads(s) for s in node.orelse])
            else:
                found = frozenset(self._loads[key])
            self._sets[key] = found
        return found

    def all_reads(self) -> frozenset[str]:
        return self._all


def statement_tree(lines: list[str]) -> tuple[ast.FunctionDef, LineReads] | None:
    """`ast.parse("def kernel():\\n" + "\\n".join(lines)).body[0]` as far as `realism.dead_value_statements`
    reads it (statement classes, nesting, line numbers, assignment targets, literal initial values),
    with the names each statement loads; None where a line has another shape than the writer's."""
    body: list[ast.stmt] = []
    blocks = [(4, body)]  # (indent, statement list) from the outermost
    chains: dict[int, ast.If | None] = {}  # per indent, the `if`/`elif` an `elif`/`else` there continues
    loads_of: dict[int, list[str]] = {}
    all_loads: set[str] = set()
    opened: list | None = None  # the statement list a header opened: the next line must be indented into it
    names_of = NAME_TOKEN.findall
    load, store = ast.Load(), ast.Store()
    opaque = ast.Name("_", load)  # the value of an assignment that cannot be a literal (read by nobody)
    Assign, If, Name = ast.Assign, ast.If, ast.Name
    for lineno, line in enumerate(lines, start=2):
        text = line.lstrip(" ")
        indent = len(line) - len(text)
        if not text or indent % 4 or not line.isascii() or text[-1] in " \t":
            return None
        if opened is not None:
            if indent != blocks[-1][0] + 4:
                return None
            blocks.append((indent, opened))
            opened = None
        else:
            while blocks[-1][0] > indent:
                chains.pop(blocks[-1][0], None)
                blocks.pop()
            if blocks[-1][0] != indent:
                return None
        block = blocks[-1][1]
        if text[-1] == ":":
            if text == "else:":
                node = chains.get(indent)
                if node is None:
                    return None
                chains[indent] = None
                opened = node.orelse
                continue
            m = _HEADER.fullmatch(text)
            if m is None or _NOT_PLAIN.search(m.group(2)):
                return None
            test = Name("_", load)
            loads = loads_of[id(test)] = names_of(m.group(2))
            all_loads.update(loads)
            node = If(test, [], [])
            node.lineno = lineno
            if m.group(1) == "if":
                block.append(node)
            else:
                previous = chains.get(indent)
                if previous is None:
                    return None
                previous.orelse.append(node)
            chains[indent] = node
            opened = node.body
            continue
        chains[indent] = None
        if text == "return":
            node = ast.Return()
            node.lineno = lineno
            loads_of[id(node)] = []
            block.append(node)
            continue
        target_text, sep, value_text = text.partition(" = ")
        if not sep or _NOT_PLAIN.search(value_text):
            return None
        loads = names_of(value_text)
        if _NAMES_TARGET.fullmatch(target_text) is None:
            element = _ELEMENT_TARGET.fullmatch(target_text)
            if element is None:
                return None
            # an element: its array and index are read
            target = ast.Subscript(Name(element.group(1), load), opaque, store)
            loads += names_of(target_text)
        elif "," in target_text:
            target = ast.Tuple([Name(n, store) for n in target_text.split(", ")], store)
        else:
            target = Name(target_text, store)
        # only `_is_literal_init` reads the value: a stand-in where it cannot be a literal
        if _LITERAL_INIT_NAMES.issuperset(loads) or ".float" in value_text or ".int" in value_text:
            value = parse_expression(value_text)
        else:
            value = opaque
        node = Assign([target], value)
        node.lineno = lineno
        loads_of[id(node)] = loads
        all_loads.update(loads)
        block.append(node)
    if opened is not None:
        return None  # a header without a body
    return ast.FunctionDef(name="kernel", body=body), LineReads(loads_of, all_loads)


def bounded_argument(a: "Expr", limit: float) -> "Expr":
    """Keep the argument of sin/cos/tanh/exp within +-limit: their output error grows with it."""
    if a.mag <= limit:
        return a
    c = fmt_float(limit / 2)
    return Expr(f"wp.clamp({a.src}, -{c}, {c})", "float32", limit / 2, join_q(a.q, CONST_Q))


def decided_by_range(a: Expr, b: Expr) -> bool:
    """min/max of a literal and a value whose bound says which one wins (`max(2.0, x)`, |x| <= 2)."""
    for lit, other in ((a, b), (b, a)):
        if lit.lit and not other.lit:
            try:
                value = float(lit.src.strip("()"))
            except ValueError:
                return False
            return abs(value) >= other.mag
    return False


def feature_list(features: list[str]) -> str:
    """A description's features, `; `-joined, each said once: a repeat is dropped, and so is a feature
    another one names in full (`sigmoid` beside `@wp.func helper (sigmoid)`, `wp.mesh_query_ray` beside
    `wp.mesh_query_ray in a loop`)."""
    unique = list(dict.fromkeys(features))
    said = [f for f in unique if not any(f != g and f in g and re.search(rf"(?<![\w.]){re.escape(f)}(?![\w])", g) for g in unique)]
    return "; ".join(said)


def fmt_float(value: float) -> str:
    text = repr(float(value))
    return text


def join_q(*qs: int | None) -> int | None:
    if any(q is None for q in qs):
        return None
    return max(qs)  # type: ignore[arg-type]


def dtype_annotation(dtype: str, rng: random.Random) -> str:
    """One of the spellings people write for `dtype` in an annotation (the registry's list)."""
    spellings = lookup_dtype(dtype).annotations
    return rng.choice(spellings) if len(spellings) > 1 else spellings[0]


def wp_builtin(node: ast.AST) -> str | None:
    """The builtin's name where `node` is a call `wp.name(...)`, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
            and node.func.value.id == "wp":
        return node.func.attr
    return None


def helper_bodies(helpers: list[str]) -> dict[str, list[str]]:
    """The `@wp.func` sources of a kernel's module by function name: each one's lines (for value_kind)."""
    bodies: dict[str, list[str]] = {}
    for source in helpers:
        for m in HELPER_DEF.finditer(source):
            rest = source[m.end():]
            end = HELPER_DEF.search(rest)
            bodies[m.group(1)] = rest[:end.start() if end else len(rest)].splitlines()
    return bodies


def value_kind(lines: list[str], value: str, helpers: dict[str, list[str]] | None = None) -> str | None:
    """"wraps", "bounded" or None for the value an output element is assigned in the kernel body
    `lines` (WRAPPING_CALLS, BOUNDED_CALLS), read off its expression and the locals it reads: it wraps
    where a wrapping call is in it or in any value a local it reads is assigned; following a local to
    the one line that assigns it (where only one does), it is bounded where it is (or names a local
    that is) a normalize / clamp / smoothstep call, the cross product of two unit vectors, or a
    polynomial of one bounded local (the smoothstep `t * t * (3.0 - 2.0 * t)` of a clamped t). A local
    unpacked from a tuple a `@wp.func` of `helpers` (name -> its lines, `helper_bodies`) returns is
    what that helper's return gives it (`t, b = tangent_frame(n, g)`: the normalized t, the cross b)."""
    assigned: dict[str, list[str]] = {}
    unpacked: dict[str, str | None] = {}  # a local unpacked from a helper's tuple -> its kind there
    for line in lines:
        m = ANY_ASSIGN.match(line)
        if m is not None:
            assigned.setdefault(m.group(1), []).append(m.group(2))
        elif helpers and (m := TUPLE_FROM_CALL.match(line)) is not None and m.group(2) in helpers:
            returned = next((r.group(1) for r in map(RETURN_LINE.match, helpers[m.group(2)]) if r), None)
            returned_tree = parse_expression(returned) if returned else None
            parts = [ast.unparse(e) for e in returned_tree.elts] if isinstance(returned_tree, ast.Tuple) else []
            targets = [t.strip() for t in m.group(1).split(",")]
            for k, target in enumerate(targets):
                assigned.setdefault(target, []).append("0")  # assigned here: never one line's value
                if len(parts) == len(targets):
                    unpacked[target] = value_kind(helpers[m.group(2)], parts[k])

    def definition(name: str) -> ast.expr | None:
        texts = assigned.get(name, [])
        return parse_expression(texts[0]) if len(texts) == 1 else None

    def calls(tree: ast.expr) -> set[str]:
        return {name for n in ast.walk(tree) if (name := wp_builtin(n)) is not None}

    def names(tree: ast.expr) -> set[str]:
        return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id != "wp"}

    def bounded(tree: ast.expr | None, depth: int = 0) -> bool:
        if tree is None or depth > 6:
            return False
        if isinstance(tree, ast.Name):
            if tree.id in unpacked:
                return unpacked[tree.id] == "bounded"
            return bounded(definition(tree.id), depth + 1)
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Attribute):
            if tree.func.attr in BOUNDED_CALLS:
                return True
            if tree.func.attr == "cross" and len(tree.args) == 2:
                return all(bounded(a, depth + 1) for a in tree.args)
            return False
        if isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Mult) and any(
                unit_scalar(side, depth + 1) for side in (tree.left, tree.right)):
            # a unit value times a sign (a handedness `wp.where(w < 0.0, -1.0, 1.0)`) stays one
            other = tree.right if unit_scalar(tree.left, depth + 1) else tree.left
            return bounded(other, depth + 1)
        read = names(tree)
        return isinstance(tree, ast.BinOp) and len(read) == 1 and not calls(tree) \
            and bounded(definition(next(iter(read))), depth + 1)

    def unit_scalar(tree: ast.expr | None, depth: int) -> bool:
        """-1 or 1: a sign (`wp.sign(x)`, `wp.where(c, -1.0, 1.0)`), or a local assigned one."""
        if tree is None or depth > 6:
            return False
        if isinstance(tree, ast.Name):
            return tree.id not in unpacked and unit_scalar(definition(tree.id), depth + 1)
        if wp_builtin(tree) == "sign":
            return True
        return wp_builtin(tree) == "where" and len(tree.args) == 3 and all(
            ast.unparse(a) in ("1.0", "-1.0") for a in tree.args[1:])

    tree = parse_expression(value)
    reached = [tree] + [parse_expression(text) for name in names(tree) for text in assigned.get(name, [])]
    if any(calls(t) & WRAPPING_CALLS for t in reached) or any(unpacked.get(n) == "wraps" for n in names(tree)):
        return "wraps"
    return "bounded" if bounded(tree) else None


class KernelWriter:
    """Accumulates a kernel's arguments and body lines while categories generate code."""

    def __init__(self, rng: random.Random, name: str, category: str, seed: int, dim: tuple[int, ...],
                 tid_names: tuple[str, ...] | None = None):
        """`tid_names`: the names `wp.tid()` gives the launch's indices (default `tid`, or `i, j[, k]`)."""
        self.rng = rng
        self.name = name
        self.category = category
        self.seed = seed
        self.dim = dim
        self.args: list[ArgSpec] = []
        self._by_name: dict[str, ArgSpec] = {}
        self.fixed_launch = False  # fix_launch
        # outputs stored as a new state / as a bounded value (`store`'s flags), for update_outputs
        self.state_outputs: set[str] = set()
        self.bounded_outputs: set[str] = set()
        self._loads: dict[str, Expr] = {}
        self.annotations: list[str] = []
        self.lines: list[str] = []
        self.helpers: list[str] = []
        self.helper_names: list[str] = []
        self.imports: list[str] = []  # module-level import lines (`from typing import Any`), in order
        self.after_kernel: list[str] = []  # module-level statements after the kernel (`wp.overload(...)`)
        self.indent = 1
        self.scopes: list[dict[str, Expr]] = [{}]
        self.counter = 0
        self.features: list[str] = []
        self.options: dict[str, str] = {}  # `@wp.kernel(key=value, ...)` options
        # kernels whose finish updates an output in place (update_outputs); tests that check a
        # form's values against its formula set 0
        self.output_update_share = OUTPUT_UPDATE_SHARE
        self.intermediate_output_share = INTERMEDIATE_OUTPUT_SHARE
        self.intermediate_outputs: set[str] = set()  # values kept on the way (store_intermediate): overwritten
        self.result_inline_share = RESULT_INLINE_SHARE
        self.bounds: dict[str, float] = {}
        self.unused: list[str] = []  # variables and inputs not yet read: preferred as leaves
        self.loop_ranges: dict[str, list[int] | None] = {}  # loop variable -> its values (None: unknown)
        self.loop_counters: dict[str, bool] = {}  # loop variable -> whether every loop over it counts up from >= 0
        self.load_lines: list[str] = []  # `v = a[tid]` caches, placed after the head when finished
        self.constants: list[str] = []  # module-level `NAME = wp.constant(...)` lines
        self.varying: set[str] = set()  # locals whose value differs between threads
        self.coordinates: set[str] = set()  # the grid-coordinate locals (`coordinate`): never negative
        self.local_features: dict[str, str] = {}  # a local or constant -> the feature it stands for
        # the thread's group for segmented reductions (a label, a binned position) and the number of
        # groups: set by the first form that asks, so every form of the kernel reduces over the same groups
        self.group_index: tuple[str, int] | None = None
        self._operations_feature: tuple[str, tuple[str, ...], bool] | None = None  # see describe_operations
        self._launch_cache: tuple | None = None  # (state key, realism.launch_context, its caches) for launch_constant
        self.defs: dict[str, str] = {}  # local -> the source of its only value (assign)
        self.reassigned: set[str] = set()  # locals with several values (declare)
        self._parse_cache: dict = {}  # source text -> its (read-only) tree, for the realism evaluators
        self._dump_cache: dict[int, str] = {}  # id(node) -> its text, for the trees of _parse_cache (alive as long)
        self._arg_info_cache: tuple | None = None  # (the arguments, their ArgInfo records): see _arg_infos
        self._local_values: tuple | None = None  # (state key, locals' parsed values): see local_values
        self._judge_cache: tuple | None = None  # (locals key, inputs key, judge_value's inputs, locals, sampling): see _judge_inputs
        self.tid_names = tid_names or (("tid",) if len(dim) == 1 else ("i", "j", "k")[: len(dim)])
        if len(self.tid_names) != len(dim):
            raise ValueError(f"{len(self.tid_names)} thread index names for a {len(dim)}-D launch")
        self.emit(f"{', '.join(self.tid_names)} = wp.tid()")
        self.head = len(self.lines)  # lines before the cached loads: the tid line and early returns
        for tname, extent in zip(self.tid_names, dim):
            self.scopes[0][tname] = Expr(tname, "int32", float(extent))

    # ---- arguments -------------------------------------------------------------------------
    def _unique(self, hint: str, role: str = "") -> str:
        return untaken(hint, {a.name for a in self.args} | set(self.tid_names), role)

    def add_array(self, hint: str, dtype: str, role: str, shape: tuple[int, ...] | None = None,
                  low: float = -1.0, high: float = 1.0, grid_bits: int = 10,
                  index_high: int | None = None, per_row: bool = False, keeps_size: bool = False) -> str:
        """`per_row`: a 1-D array the kernel reads by the launch's outermost index alone (ArgSpec.per_row);
        `keeps_size`: one whose rows no launch index owns, whatever its shape (ArgSpec.keeps_size)."""
        shape = tuple(shape or self.dim)
        name = self._unique(hint, role)
        elem = dtype_annotation(dtype, self.rng)
        if len(shape) == 1:
            ann = self.rng.choice([f"wp.array(dtype={elem})", f"wp.array[{elem}]"])
        else:
            ann = f"wp.array{len(shape)}d(dtype={elem})"
        if role == "index":
            low, high, grid_bits = 0, (shape[0] - 1 if index_high is None else index_high), 0
        self.args.append(ArgSpec(name, dtype, role, shape, low, high, grid_bits, per_row=per_row, keeps_size=keeps_size))
        self._by_name[name] = self.args[-1]
        self.annotations.append(f"{name}: {ann}")
        if role in ("input", "inout"):
            self.unused.append(name)
        return name

    def add_scalar(self, hint: str, dtype: str, value: float | int, launch_bound: bool = False) -> Expr:
        name = self._unique(hint)
        self.args.append(ArgSpec(name, dtype, "scalar", (), value, value, 0, value=value, launch_bound=launch_bound))
        self._by_name[name] = self.args[-1]
        self.annotations.append(f"{name}: {dtype_annotation(dtype, self.rng)}")
        if dtype == "int32":
            expr = Expr(name, "int32", float(abs(value)))
        elif dtype == "bool":  # a switch (`if calculate_norm:`)
            expr = Expr(name, "bool", 1.0, 0)
        else:
            expr = Expr(name, "float32", abs(float(value)), CONST_Q)
        self.scopes[0][name] = expr
        return expr

    def arg(self, name: str) -> ArgSpec:
        return self._by_name[name]

    def fix_launch(self) -> None:
        """The kernel's code holds its launch's extents as literals (a fixed image's `ii < 64`): every
        array shaped like the launch keeps its size at bench size (ArgSpec.keeps_size), arrays added
        later too, and so the launch keeps its own (cuda_production.bench.pinned_launch)."""
        self.fixed_launch = True

    def is_argument(self, name: str) -> bool:
        return name in self._by_name

    def own_index(self) -> str:
        return ", ".join(self.tid_names)

    def load(self, name: str, index: str | None = None) -> Expr:
        """`name[index]`; the thread's own element is loaded once, into a local at the top, as people do."""
        if index is None and name in self._loads:
            return self._loads[name]
        spec = self.arg(name)
        mag = max(abs(spec.low), abs(spec.high))
        expr = Expr(f"{name}[{self.own_index() if index is None else index}]", spec.dtype, float(mag), spec.grid_bits)
        if index is None:
            local = self._unique_local(f"{name}_v")
            self.load_lines.append(f"    {local} = {expr.src}")
            expr = Expr(local, spec.dtype, float(mag), spec.grid_bits)
            self._loads[name] = expr
        return expr

    def is_coordinate(self, src: str) -> bool:
        """Whether `src` is a grid coordinate local (`coordinate`): a value >= 0 at every thread."""
        return any(key.startswith("@coordinate") and e.src == src for key, e in self._loads.items())

    def inputs_read(self, names: list[str], of: str | None = None) -> list[str]:
        """The arrays of `names` the kernel's lines read so far (`of` given: those the value `of` is
        computed from, through the locals it reads): the local its own element is loaded into
        (`load`), or an element indexed in place (`a[j]`). A later computation on these works on
        what the kernel works on."""
        lines = self.lines
        if of is not None:  # the lines `of` depends on, found walking back from it
            needed, kept = set(WORD.findall(of)), [of]
            for line in reversed(self.lines):
                m = ASSIGNED_NAME.match(line)
                if m and m.group(1) in needed:
                    needed.update(WORD.findall(line[m.end():]))
                    kept.append(line)
            lines = kept
        body = "\n".join(lines)
        loaded = {array for local, (array, _) in self.loaded_elements().items() if reads(local).search(body)}
        return [n for n in names if n in loaded or re.search(rf"(?<![.\w]){re.escape(n)}\[", body)]

    def loaded_elements(self) -> dict[str, tuple[str, bool]]:
        """Each local an array element was loaded into (`load`) -> (the array, whether it is the thread's
        own element). Loads are keyed by array (`a`), shifted or neighbouring element (`a@0+1`), gather
        (`a@[idx]`); grid coordinates (`@coordinate0`) are no array's."""
        return {local.src: (key.split("@")[0], "@" not in key) for key, local in self._loads.items()
                if not key.startswith("@")}

    COORDINATE_NAMES = {"position": ("px", "py", "pz"), "centre": ("cx", "cy", "cz"), "fraction": ("fx", "fy", "fz")}

    def coordinate(self, axis: int = 0) -> Expr:
        """The thread's place on the launch grid along `axis` as a value, the way kernels use a thread
        index as data: a grid position (`px = float(tid) * 0.0625`), a cell's centre
        (`cx = (float(i) + 0.5) * 0.125`) or a fraction of the launch (`fx = float(tid) / 256.0`).
        The spacing is a power of two (exact), so the grid spans 4 to 8 units. Made once, in a
        local at the top, like a cached load."""
        key = f"@coordinate{axis}"
        if key in self._loads:
            return self._loads[key]
        t, n = self.tid_names[axis], self.dim[axis]
        bits = max(0, (n - 1).bit_length() - 3)  # n * 2**-bits in [4, 8) for n >= 8
        forms = ["position", "centre"] + (["fraction"] if n & (n - 1) == 0 and n >= 8 else [])
        form = self.rng.choice(forms)
        step = fmt_float(2.0 ** -bits)
        if form == "position":
            value, mag, q = f"float({t}) * {step}" if bits else f"float({t})", n * 2.0 ** -bits, bits
        elif form == "centre":
            value, mag, q = f"(float({t}) + 0.5) * {step}" if bits else f"float({t}) + 0.5", (n + 0.5) * 2.0 ** -bits, bits + 1
        else:
            value, mag, q = f"float({t}) / {fmt_float(float(n))}", 1.0, (n - 1).bit_length()
        taken = set(NAME_TOKEN.findall("\n".join(self.lines)))
        local = self._unique_local(self.COORDINATE_NAMES[form][axis])
        while local in taken:
            local = self._unique_local(local + "_")
        self.load_lines.append(f"    {local} = {value}")
        expr = Expr(local, "float32", float(mag), q)
        self._loads[key] = expr
        self.coordinates.add(local)
        self._feature_of_local(local, "grid coordinate from the thread index")
        return expr

    NEIGHBOUR_WORDS = {1: {0: ("left", "right")}, 2: {0: ("up", "down"), 1: ("left", "right")},
                       3: {0: ("below", "above"), 1: ("up", "down"), 2: ("left", "right")}}

    def neighbour(self, name: str, axis: int, step: int, periodic: bool = False) -> Expr:
        """The element `step` (+-1) along `axis` from the thread's own, the index clamped to the array
        (`a[wp.max(tid - 1, 0)]`, `a[wp.min(tid + 1, a.shape[0] - 1)]`) or, `periodic`, wrapped around
        it (`a[(tid - 1 + a.shape[0]) % a.shape[0]]`, `a[(tid + 1) % a.shape[0]]`), loaded once into a
        local at the top."""
        key = f"{name}@{axis}{step:+d}" + ("p" if periodic else "")
        if key in self._loads:
            return self._loads[key]
        spec = self.arg(name)
        parts = list(self.tid_names)
        t = parts[axis]
        size = f"{name}.shape[{axis}]"
        if periodic:  # `+ size` first: Warp's % of a negative int is negative, as in C
            parts[axis] = f"({t} - 1 + {size}) % {size}" if step < 0 else f"({t} + 1) % {size}"
        elif step < 0:
            parts[axis] = self.rng.choice([f"wp.max({t} - 1, 0)", f"max({t} - 1, 0)"])
        else:
            parts[axis] = self.rng.choice([f"wp.min({t} + 1, {size} - 1)", f"min({t} + 1, {size} - 1)"])
        word = self.NEIGHBOUR_WORDS[len(self.tid_names)][axis][0 if step < 0 else 1]
        local = self._unique_local(f"{name}_{word}")
        self.load_lines.append(f"    {local} = {name}[{', '.join(parts)}]")
        expr = Expr(local, spec.dtype, float(max(abs(spec.low), abs(spec.high))), spec.grid_bits)
        self._loads[key] = expr
        self._feature_of_local(local, f"neighbour stencil ({'periodic' if periodic else 'clamped'})")
        return expr

    def gather(self, name: str, index_name: str) -> Expr:
        """`name[index_name[tid]]`: an element chosen through an index array, loaded once at the top."""
        key = f"{name}@[{index_name}]"
        if key in self._loads:
            return self._loads[key]
        spec = self.arg(name)
        idx = self.load(index_name)
        local = self._unique_local(f"{name}_g")
        self.load_lines.append(f"    {local} = {name}[{idx.src}]")
        expr = Expr(local, spec.dtype, float(max(abs(spec.low), abs(spec.high))), spec.grid_bits)
        self._loads[key] = expr
        self._feature_of_local(local, "gather through an index array")
        return expr

    def shifted(self, name: str, shift: str) -> Expr:
        """The element `shift` (an int parameter, >= 0) places on from the thread's own, wrapping past
        the end (`a[(tid + shift) % a.shape[0]]`) as a periodic boundary does; loaded once into a local at the
        top. One-dimensional launches only."""
        key = f"{name}@shift{shift}"
        if key in self._loads:
            return self._loads[key]
        spec = self.arg(name)
        t = self.tid_names[0]
        local = self._unique_local(f"{name}_next")
        self.load_lines.append(f"    {local} = {name}[({t} + {shift}) % {name}.shape[0]]")
        expr = Expr(local, spec.dtype, float(max(abs(spec.low), abs(spec.high))), spec.grid_bits)
        self._loads[key] = expr
        self._feature_of_local(local, "periodic shift by a parameter")
        return expr

    def _feature_of_local(self, local: str, feature: str) -> None:
        """Record `feature` for the kernel, standing for `local`: `finish` drops it again if nothing
        reads any of its locals (pruned), so a description never names what the code lacks."""
        if not WORD.fullmatch(local):  # an expression, not a name: stands as long as the kernel does
            self.feature(feature)
            return
        self.local_features[local] = feature
        self.feature(feature)

    def describe_operations(self, label: str, calls: tuple[str, ...], operators: bool) -> None:
        """Name in the description, after `label`, the operators (with `operators`) and the calls among
        `calls` the finished kernel uses: measured on the code, so a draw that was dropped or pruned
        names nothing."""
        self._operations_feature = (label, calls, operators)

    def retire(self, name: str) -> None:
        """Take parameter `name` out of what expressions draw from: it has been used as its name says
        (a `scale` scales), and a further random use (`(2.0 - scale) / x`) would read as noise."""
        self.scopes[0].pop(name, None)

    def _unique_local(self, hint: str) -> str:
        # a struct member `s.mass` names its local after the member (`mass_v`), never `s.mass_v`
        hint = hint.rsplit(".", 1)[-1]
        taken = {a.name for a in self.args} | {e.src for e in self._loads.values()}
        name, n = hint, 1
        while name in taken:
            n += 1
            name = f"{hint}{n}"
        return name

    def add_constant(self, hint: str, value: float | int) -> Expr:
        """A module-level `wp.constant`, named with the kernel's suffix while the kernel is drawn
        (`naming.plain_module_names` gives it its plain name once the module is whole)."""
        name = f"{hint.upper()}_{self.name.split('_')[-1].upper()}"
        literal = fmt_float(value) if isinstance(value, float) else str(value)
        self.constants.append(f"{name} = wp.constant({literal})")
        if isinstance(value, float):
            return Expr(name, "float32", abs(value), CONST_Q)
        return Expr(name, "int32", float(abs(value)), 0)

    def guard_return(self, condition: str) -> None:
        """An early `if <condition>: return` right after the thread index, before the cached loads."""
        self.emit(f"if {condition}:")
        self.emit("    return")
        self.loads_follow()
        self.feature("early return")

    def loads_follow(self) -> None:
        """The cached loads (`load`) go after the lines written so far: after an early return, whose
        threads load nothing they do not use."""
        self.head = len(self.lines)

    def launch_constant(self, condition: str, combines: tuple[str, ...] | None = None) -> bool:
        """Whether `condition` takes one value over the whole launch (see synthesis/realism.py).

        `combines`: ("and" | "or", a, b) where `condition` is `(a) and (b)` / `(a) or (b)`, or
        ("not", a) where it is `not (a)`, for conditions a and b: their values, where this launch
        state has judged them already, are combined instead of evaluated again."""
        key = (len(self.args), len(self.load_lines), len(self.defs),
               tuple((k, tuple(v or ())) for k, v in self.loop_ranges.items()))
        if self._launch_cache is None or self._launch_cache[0] != key:
            args = self._arg_infos()
            cached = {line.split(" = ")[0].strip(): line.split(" = ")[1] for line in self.load_lines}
            cached.update((k, v) for k, v in self.defs.items() if k not in self.reassigned)
            parsed = {name: self._parsed_expr(text) for name, text in cached.items()}
            # the evaluator, the conditions' values judged in it (text -> Interval) and its locals'
            # evaluation heights: all three hold while the state the key sums up is unchanged
            self._launch_cache = (key, realism.launch_context(self.tid_names, self.dim, args, list(self.loop_ranges.items()),
                                                      parsed), {}, {}, {})
        _, context, values, heights, condition_heights = self._launch_cache
        # a branch almost every thread takes the same way is as good as constant: 95% is the limit
        if combines is not None:
            # An operand's value is the same whether evaluated alone (its root at depth 1) or under
            # the `and`/`or`/`not` (at depth 2) unless the evaluator's depth limit (40) cuts one of
            # them short: its evaluation height (<= 39) rules that out.
            parts = [values.get(text) for text in combines[1:]]
            if all(v is not None for v in parts) and all(
                    self._condition_height(text, context, heights, condition_heights) <= 39 for text in combines[1:]):
                with np.errstate(all="ignore"):  # as ConditionEvaluator.eval evaluates
                    if combines[0] == "not":
                        value = realism.logical_not(parts[0])
                    else:
                        value = realism.bool_op(ast.And() if combines[0] == "and" else ast.Or(), parts)
                values[condition] = value
                return realism.decided(value, share=0.95)
        value = values.get(condition)
        if value is None:
            value = values[condition] = context.eval(self._parsed_expr(condition))
        return realism.decided(value, share=0.95)

    def _condition_height(self, text: str, context, heights: dict[str, int], known: dict[str, int]) -> int:
        """realism.evaluation_height of condition `text` in the launch context, measured once per text
        while the context holds (`known`): `condition` asks about a comparison again and again."""
        height = known.get(text)
        if height is None:
            height = known[text] = realism.evaluation_height(context, self._parsed_expr(text), heights)
        return height

    def note_bound(self, name: str, mag: float) -> None:
        self.bounds[name] = max(self.bounds.get(name, 0.0), float(mag))

    def store(self, name: str, value: Expr, index: str | None = None, state: bool = False,
              bounded: bool = False) -> None:
        """`name[index] = value` (index: the thread's own element by default). `state`: the value is a
        new state that replaces the old one (a root, an advected field, a position after walls), which
        update_outputs never adds to or blends with; `bounded`: it keeps within a range its expression
        does not show (a capped length, a window's extremum), so update_outputs only smooths toward it."""
        index = self.own_index() if index is None else index
        self.emit(f"{name}[{index}] = {value.src}")
        self.note_bound(name, value.mag)
        if state:
            self.state_outputs.add(name)
        if bounded:
            self.bounded_outputs.add(name)

    # ---- body ------------------------------------------------------------------------------
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    @contextmanager
    def block(self, header: str):
        if header.startswith("for "):
            self.note_loop(header)
        self.emit(header)
        self.indent += 1
        self.scopes.append({})
        try:
            yield
        finally:
            self.scopes.pop()
            self.indent -= 1

    def note_loop(self, header: str) -> None:
        node = ast.parse(header + " pass").body[0]
        scalars = {a.name: a.value for a in self.args if a.role == "scalar"}
        values = realism._range_values(node.iter, scalars) if isinstance(node.iter, ast.Call) else None
        name = node.target.id
        args = node.iter.args if isinstance(node.iter, ast.Call) else []
        counts_up = 1 <= len(args) <= 3 and (len(args) == 1 or isinstance(args[0], ast.Constant) and args[0].value >= 0) \
            and (len(args) < 3 or isinstance(args[2], ast.Constant) and args[2].value > 0)
        # `range(n)`, `range(0, n, 2)`: never negative, whatever n (in every loop over the name)
        self.loop_counters[name] = bool(counts_up) and self.loop_counters.get(name, True)
        if name in self.loop_ranges and self.loop_ranges[name] != values:
            old = self.loop_ranges[name]
            values = None if old is None or values is None else sorted(set(old) | set(values))
        self.loop_ranges[name] = values

    def fresh(self, prefix: str = "v") -> str:
        """A new local's name: numbered now, given its plain form once the module is whole
        (synthesis.naming.plain_names)."""
        self.counter += 1
        return fresh_name(prefix, self.counter)

    def assign(self, value: Expr, prefix: str = "v") -> Expr:
        """`name = value` for a fresh name; a bare name or literal is returned as is (no `v2 = v1`)."""
        if WORD.fullmatch(value.src) or value.lit:
            return value
        for scope in self.scopes:  # the same value computed twice: reuse the first (`v2 = abs(x)` again)
            for var in scope.values():
                if self.defs.get(var.src) == value.src:
                    return var
        name = self.fresh(prefix)
        self.emit(f"{name} = {value.src}")
        var = Expr(name, value.type, value.mag, value.q)
        self.scopes[-1][name] = var
        self.unused.append(name)
        self.note_varying(name, value.src)
        self.defs[name] = value.src
        return var

    def local_values(self) -> dict[str, ast.expr]:
        """The locals with one value (never reassigned), parsed: name -> its value's tree, as realism's
        checks follow locals. Made again only when a local comes or goes."""
        key = (len(self.defs), len(self.reassigned))
        cached = self._local_values
        if cached is None or cached[0] != key:
            cached = self._local_values = (key, {name: self._parsed_expr(text) for name, text in self.defs.items()
                                                 if name not in self.reassigned})
        return cached[1]

    def judge_value(self, src: str) -> str | None:
        """"constant" or "copy" when the value of `src` is, on sampled inputs, one number or one input."""
        inputs = self._judge_inputs()
        if inputs is None:
            return None
        sampling, locals_ = inputs
        try:
            value = self._parsed_expr(src)
        except SyntaxError:
            return None
        return realism.judge_value(sampling.evaluator(locals_, dumps=self._dump_cache), value)

    def _judge_inputs(self):
        """(realism.SamplingInputs, the locals' parsed values) for judge_value, None when a local's
        value does not parse. The sampling inputs depend only on the arguments, the reassigned locals,
        constants and helpers, the locals only on their values and the cached loads: each is made
        again only when what it depends on changes (a kernel judges value after value, and between
        two judgements usually only a new local comes)."""
        locals_key = (tuple(self.defs.items()), len(self.load_lines))
        inputs_key = (frozenset(self.reassigned), tuple(self.args), len(self.constants), len(self.helpers))
        cache = self._judge_cache
        if cache is not None and cache[0] == locals_key and cache[1] == inputs_key:
            return cache[2]
        if cache is not None and cache[0] == locals_key:
            locals_ = cache[3]
        else:
            defs = {name: text for name, text in self.defs.items()}
            defs.update({line.split(" = ")[0].strip(): line.split(" = ")[1] for line in self.load_lines})
            try:
                locals_ = {name: self._parsed_expr(text) for name, text in defs.items()}
            except SyntaxError:
                locals_ = None
        if locals_ is None:
            inputs = None
        else:
            sampling = cache[4] if cache is not None and cache[1] == inputs_key else None
            if sampling is None:
                args = self._arg_infos()
                constants = {line.split(" = ")[0]: float(line.split("(")[1].rstrip(")")) for line in self.constants}
                helpers = {f.name: f for h in self.helpers for f in self._parsed_module(h).body}
                start = realism.sampling_start(tuple(self.tid_names), tuple(self.dim))
                sampling = realism.SamplingInputs(start, args, self.reassigned, constants=constants, helpers=helpers)
            inputs = (sampling, locals_)
        self._judge_cache = (locals_key, inputs_key, inputs, locals_, None if inputs is None else inputs[0])
        return inputs

    def _arg_infos(self) -> list:
        """The arguments as realism.ArgInfo records (a new list), made again only when the arguments
        change: launch_constant and judge_value ask for them between two new arguments many times."""
        key = tuple(self.args)  # compared element by element, identical ArgSpecs at once
        if self._arg_info_cache is None or self._arg_info_cache[0] != key:
            self._arg_info_cache = (key, [realism.ArgInfo(a.name, a.role, a.dtype, a.low, a.high, a.value) for a in self.args])
        return list(self._arg_info_cache[1])

    def _parsed_expr(self, text: str):
        """`ast.parse(text, mode="eval").body`, parsed once per text: the evaluators only read trees,
        and judge_value re-reads every local's definition on each call."""
        tree = self._parse_cache.get(text)
        if tree is None:
            # held here as long as the writer: _dump_cache keys its nodes by id()
            tree = self._parse_cache[text] = parse_expression(text)
        return tree

    def note_comparison(self, text: str, left: str, op: str, right: str) -> None:
        """Remember the tree of comparison `text`, `left op right` for two generated values (never
        themselves comparisons, boolean operations or conditional expressions, which bind less
        tightly than `op`), built from its operands' trees instead of parsing the whole text: a
        `compare` judges comparison after comparison, most of a name and a literal."""
        if text not in self._parse_cache:
            self._parse_cache[text] = ast.Compare(self._operand_tree(left), [_COMPARE_OPS[op]()],
                                                  [self._operand_tree(right)])

    def _operand_tree(self, text: str) -> ast.expr:
        """`parse_expression(text)` for an operand of a comparison; a name or an unsigned number is
        built directly (as the parser builds it), anything else parsed once per text."""
        if IDENTIFIER.fullmatch(text) and text not in _NAMED_CONSTANTS:
            return ast.Name(text, ast.Load())
        if FLOAT_LITERAL.fullmatch(text):
            return ast.Constant(float(text))
        if INT_LITERAL.fullmatch(text):
            return ast.Constant(int(text))
        return self._parsed_expr(text)

    def _parsed_module(self, text: str):
        """`ast.parse(text)` (a helper's module), parsed once per text; through the shared
        `parse_module`."""
        key = ("module", text)
        tree = self._parse_cache.get(key)
        if tree is None:
            tree = self._parse_cache[key] = parse_module(text)  # read only; held here while the memo is
        return tree

    # ---- what varies over the launch ---------------------------------------------------------
    def varies(self, src: str) -> bool:
        """Whether `src` reads a thread index, a cached load, or a local that varies over the launch."""
        names = set(NAME_TOKEN.findall(src))
        if not names:
            return False
        if not names.isdisjoint(self.varying) or not names.isdisjoint(self.tid_names):
            return True
        return any(e.src in names for e in self._loads.values())  # a cached load

    def note_varying(self, name: str, *sources: str) -> None:
        """Record `name` as varying when any value assigned to it does."""
        if any(self.varies(src) for src in sources):
            self.varying.add(name)

    def is_bare(self, e: Expr) -> bool:
        """A literal, a parameter or a loaded element as it is: storing it computes nothing."""
        return e.lit or e.src in self._by_name or e.src in {x.src for x in self._loads.values()} \
            or ELEMENT.fullmatch(e.src) is not None

    def declare(self, name: str, value: Expr, var_mag: float, var_q: int | None) -> Expr:
        """Declare a variable that later code reassigns: its recorded bound covers every value.

        Warp treats a variable initialised from a literal as a constant, which a dynamic loop may
        not mutate; `float(0.0)` is Warp's idiom for a mutable one.
        """
        src = value.src
        if _is_literal(src):
            src = f"{'int' if value.type == 'int32' else 'float'}({src})"
        self.emit(f"{name} = {src}")
        var = Expr(name, value.type, var_mag, var_q)
        self.scopes[-1][name] = var
        self.unused.append(name)
        self.note_varying(name, src)
        self.reassigned.add(name)
        return var

    def is_read(self, name: str) -> bool:
        """Whether any emitted line reads `name`, other than a statement updating `name` itself."""
        pattern = reads(name)
        return any(name in line and pattern.search(line) and not line.strip().startswith(f"{name} ")
                   for line in self.lines)

    def visible(self, dtype: str) -> list[Expr]:
        return [e for scope in self.scopes for e in scope.values() if e.type == dtype]

    def feature(self, text: str) -> None:
        if text not in self.features:
            self.features.append(text)

    def option(self, key: str, value: str) -> None:
        """A `@wp.kernel(key=value)` option."""
        self.options[key] = value

    def add_import(self, line: str) -> None:
        """An import the module's helpers need (`from typing import Any` for a generic `@wp.func`)."""
        if line not in self.imports:
            self.imports.append(line)

    def import_block(self) -> str:
        """The module's first lines: its imports and a blank line, or nothing."""
        return "".join(line + "\n" for line in self.imports) + ("\n" if self.imports else "")

    def add_helper(self, source: str, name: str) -> None:
        self.helpers.append(source)
        self.helper_names.append(name)

    def prune(self) -> None:
        """Drop dead code: top-level assignments nobody reads, then read-only arguments nobody uses.

        Only whole statements at the kernel's top level go (never one inside a block, which could
        leave it empty), and never one with a side effect (atomics); results are unaffected.
        Stores overwritten on every path before a read are the categories' business
        (`drop_dead_stores`), where branches make them.
        """
        # one scan of the joined text: a name never spans a line break, and a line's start is no
        # letter, digit or dot, so the tokens are those of the lines one by one
        in_kernel = Counter(NAME_TOKEN.findall("\n".join(self.lines)))  # helpers have own names
        # `in_kernel + Counter(<the helpers' tokens>)` (every count is positive, so `+` drops none),
        # without Counter.__add__'s Python loop over every name
        counts = in_kernel.copy()
        counts.update(NAME_TOKEN.findall("\n".join(self.helpers)))
        # Dropping a line only lowers counts, so a droppable line stays droppable: whatever the
        # order, the same lines go. Passes over all lines repeat until none goes.
        # per line, the name it assigns where it is a droppable kind of line (a top-level assignment,
        # no atomic, not the thread index), else None: read once, not once per pass
        lines = []
        for line in self.lines:
            m = TOP_LEVEL_ASSIGN.match(line)
            droppable = m and "atomic_" not in m.group(2) and m.group(1) not in self.tid_names
            lines.append((line, m.group(1) if droppable else None))
        changed = True
        while changed:
            changed = False
            kept = []
            for entry in lines:
                name = entry[1]
                if name is not None and counts[name] == 1:
                    tokens = NAME_TOKEN.findall(entry[0])
                    counts.subtract(tokens)
                    in_kernel.subtract(tokens)  # the counts over the kept lines, as a scan of them gives
                    changed = True
                else:
                    kept.append(entry)
            lines = kept
        self.lines[:] = [line for line, _ in lines]
        keep = [k for k, a in enumerate(self.args) if a.role in ("output", "inout") or in_kernel[a.name] > 0]
        self.args = [self.args[k] for k in keep]
        self.annotations = [self.annotations[k] for k in keep]

    def merge_load_aliases(self) -> None:
        """`mats_v = mats[tid]` and later `M = mats_v`, the load read nowhere else: one local loaded
        under the second name (`M = mats[tid]`). A value copied to a new name and never used under
        the first is not a style anyone writes (a form's core names its input `M` when it is written
        as a `@wp.func` and inline alike)."""
        k = 0
        while k < len(self.lines):
            alias = TOP_LEVEL_ALIAS.match(self.lines[k])
            counts = Counter(NAME_TOKEN.findall("\n".join(self.lines) + "\n".join(self.helpers))) if alias else None
            if alias is None or counts[alias.group(2)] != 2:
                k += 1
                continue
            new, old = alias.groups()
            load = next((j for j in range(k) if (m := TOP_LEVEL_LOAD.match(self.lines[j])) and m.group(1) == old), None)
            if load is None or any(reads(new).search(line) for line in self.lines[:k]):
                k += 1
                continue
            self.lines[load] = f"    {new} = " + self.lines[load].split(" = ", 1)[1]
            del self.lines[k]
            if self.head > k:
                self.head -= 1

    def inline_single_loads(self) -> None:
        """The other style people write loads in: an element of a read-only array used once, by a
        top-level statement, is indexed where it is used (`wp.length(v[tid])`) instead of through a
        local (`v_v = v[tid]`). Only where the meaning cannot change: the array is never written
        (role input or index), the index reads only the thread index or locals assigned once, and
        the use is outside every branch and loop (a global read inside a branch is a Warp hazard,
        synthesis.warp_hazards, and inside a loop it would be read again on every trip)."""
        text = "\n".join(self.lines)
        counts = Counter(NAME_TOKEN.findall(text))
        inlined = False
        assigned = Counter(m.group(1) for m in ASSIGNED_NAME.finditer(text))
        for k in range(len(self.lines) - 1, -1, -1):
            m = TOP_LEVEL_LOAD.match(self.lines[k])
            if m is None or counts[m.group(1)] != 2 or not self.is_argument(m.group(2)):
                continue
            local, array, index = m.groups()
            if self.arg(array).role not in ("input", "index"):
                continue
            if any(t not in self.tid_names and assigned[t] != 1 for t in NAME_TOKEN.findall(index)):
                continue
            use = reads(local)
            at = next((j for j in range(k + 1, len(self.lines)) if use.search(self.lines[j])), None)
            line = "" if at is None else self.lines[at]
            if not TOP_LEVEL_STATEMENT.match(line) or re.search(rf"(?<![\w.]){local}\s*[.\[]", line):
                continue
            self.lines[at] = use.sub(lambda _: f"{array}[{index}]", line)
            del self.lines[k]
            if self.head > k:
                self.head -= 1
            inlined = True
        if inlined:
            self.feature("single-use loads indexed in place")

    def inline_results(self) -> None:
        """The other way people write a result: `out[tid] = a_v / wp.sqrt(a_v * a_v + eps)` instead
        of naming it first (`soft_sign = ...` then `out[tid] = soft_sign`). Only a top-level local
        assigned once from a computation and read once, by the store on the very next line (nothing
        in between can change what its expression reads)."""
        text = "\n".join(self.lines)
        counts = Counter(NAME_TOKEN.findall(text))
        assigned = Counter(m.group(1) for m in ASSIGNED_NAME.finditer(text))
        for k in range(len(self.lines) - 2, -1, -1):
            m = TOP_LEVEL_ASSIGN.match(self.lines[k])
            if m is None or TOP_LEVEL_LOAD.match(self.lines[k]) or counts[m.group(1)] != 2 or assigned[m.group(1)] != 1:
                continue
            store = ELEMENT_STORE.match(self.lines[k + 1])
            if store is None or store.group(1) != "    " or store.group(4) != m.group(1) or not self.is_argument(store.group(2)):
                continue
            self.lines[k + 1] = f"    {store.group(2)}[{store.group(3)}] = {m.group(2)}"
            del self.lines[k]
            if self.head > k:
                self.head -= 1

    def _updatable_stores(self) -> list[int]:
        """The lines that write an output array's element, where the array is written by that line
        alone, read nowhere else, and the element is the thread's own: the index names every launch
        index and the variable of every loop around the store (so no two writes meet one element)."""
        counts = Counter(NAME_TOKEN.findall("\n".join(self.lines) + "\n".join(self.helpers)))
        found = []
        for k, line in enumerate(self.lines):
            m = ELEMENT_STORE.match(line)
            if m is None or not self.is_argument(m.group(2)) or counts[m.group(2)] != 1:
                continue
            indent, array, index, _ = m.groups()
            if self.arg(array).role != "output" or self.arg(array).dtype not in UPDATABLE_DTYPES \
                    or array in self.intermediate_outputs:  # a value kept for a later look, not a running total
                continue
            if array in self.state_outputs:  # a new state replaces the old: never added to or blended with it
                continue
            tokens = set(NAME_TOKEN.findall(index))
            loops, depth = [], len(indent)
            for above in reversed(self.lines[:k]):
                width = len(above) - len(above.lstrip())
                if width < depth:
                    depth = width
                    header = LOOP_HEADER.match(above)
                    if header is not None:
                        loops.append(header.group(2))
                    elif above.lstrip().startswith("while "):
                        loops.append("")  # a trip count the index cannot name
            if set(self.tid_names) <= tokens and set(loops) <= tokens:
                found.append(k)
        return found

    def store_intermediate(self) -> None:
        """A value the kernel computes on the way, stored beside its results (`dist_out[tid] = dist`
        right after `dist = ...`), as kernels keep what a later pass, a loss or a plot reads. Only a
        named top-level local assigned once from a computation (not a load as it is) whose value
        differs between threads and which is read later, and not stored as it is already (`shifted[tid]
        = centered`: a second output would copy the first); the new output is the launch's shape."""
        candidates = []
        for k, line in enumerate(self.lines):
            m = TOP_LEVEL_ASSIGN.match(line)
            if m is None or m.group(1) not in self.defs or m.group(1) not in self.varying:
                continue
            name = m.group(1)
            prefix = name.split("__")[0]
            local = self.scopes[0].get(name)
            if local is None or local.type not in STORABLE_LOCAL_TYPES or len(prefix) < 3 \
                    or TOP_LEVEL_LOAD.match(line) or not any(reads(name).search(later) for later in self.lines[k + 1:]):
                continue
            if any((store := ELEMENT_STORE.match(later)) and store.group(4).strip() == name
                   for later in self.lines[k + 1:]):
                continue
            candidates.append((k, name, prefix, local))
        if not candidates:
            return
        k, name, prefix, local = self.rng.choice(candidates)
        out = self.add_array(f"{prefix}_out", local.type, "output")
        self.intermediate_outputs.add(out)
        self.lines.insert(k + 1, f"    {out}[{self.own_index()}] = {name}")
        self.note_bound(out, local.mag)
        self.feature("intermediate value stored")

    def stored_value_kind(self, value: str) -> str | None:
        """value_kind of `value` in this kernel's body (and its helpers' returns)."""
        return value_kind(self.lines, value, helper_bodies(self.helpers) if self.helpers else None)

    def update_outputs(self) -> None:
        """Outputs people update rather than overwrite: a force, gradient or count buffer accumulated into
        (`f[i] += value`, atomic in Warp: only an output whose name says it holds such a quantity,
        `naming.accumulates`), or a running average of a statistic or a signal relaxed toward the new
        value (`loss_ema[i] = wp.lerp(loss_ema[i], loss, alpha)`, exponential smoothing: only an output
        whose name says it holds one, `naming.smoothed`, renamed for the running average it becomes).
        Any other output is written as computed: a clipped value or a force smoothed over launches is a
        running estimate of nothing (session 57). The array then holds values on entry (role inout);
        which output and how is drawn here. A matrix is added to as a value (`m[i] = m[i] + value`: the
        translation has no matrix atomics) and blended with the explicit mix (no `wp.lerp` of matrices)."""
        options = []  # (store line, "sum" or "blend")
        updatable = self._updatable_stores()
        components = self._component_stores(updatable)
        for k in updatable:
            _, array, _, value = ELEMENT_STORE.match(self.lines[k]).groups()
            if k in components and components[k][0] != k:
                continue  # a vector's component stored apart: its group is drawn once, by its first
            kind = "bounded" if array in self.bounded_outputs else self.stored_value_kind(value)
            if kind is None and accumulates(array):  # a sum of bounded values leaves their range
                options.append((k, "sum"))
            # a bounded value is smoothed toward (it stays near its range); a wrapping one never. A
            # vector's components are not renamed for a running average one by one
            if kind != "wraps" and self.arg(array).dtype not in ("int32", "float64") and smoothed(array) \
                    and k not in components:
                options.append((k, "blend"))
        if not options:
            return
        k, how = self.rng.choice(options)
        if how == "sum" and k in components:  # every component of the vector added to, not one of them
            for line in components[k]:
                self._add_in_place(line)
            return
        indent, array, index, value = ELEMENT_STORE.match(self.lines[k]).groups()
        spec = self.arg(array)
        if how == "blend":
            taken = set(NAME_TOKEN.findall("\n".join(self.lines))) | {a.name for a in self.args}
            renamed = [n for n in running_names(array) if n not in taken and not reserved(n)]
            if renamed:
                array = self.rename_array(array, self.rng.choice(renamed), k)
            hint = self.rng.choice([h for h in BLEND_HINTS if h not in taken] or ["ema_rate"])
            rate = self.add_scalar(hint, "float32", self.rng.choice(EMA_RATES))
            if self.rng.random() < 0.5 and not spec.dtype.startswith("mat"):
                self.lines[k] = f"{indent}{array}[{index}] = wp.lerp({array}[{index}], {value}, {rate.src})"
            else:
                operand = f"({value})" if isinstance(parse_expression(value), (ast.BinOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.UnaryOp)) else value
                self.lines[k] = f"{indent}{array}[{index}] = (1.0 - {rate.src}) * {array}[{index}] + {rate.src} * {operand}"
            self.feature("running average of the output (exponential smoothing)")
        else:
            self._add_in_place(k)
            return
        self.make_inout(array)

    def _add_in_place(self, k: int) -> None:
        """The store on line `k` made an update that adds to the array's element."""
        indent, array, index, value = ELEMENT_STORE.match(self.lines[k]).groups()
        if self.arg(array).dtype.startswith("mat"):  # a matrix element is added to as a value (no matrix atomics)
            operand = f"({value})" if isinstance(parse_expression(value), (ast.BoolOp, ast.Compare, ast.IfExp)) else value
            self.lines[k] = f"{indent}{array}[{index}] = {array}[{index}] + {operand}"
            self.feature("output accumulated in place")
        else:
            self.lines[k] = f"{indent}{array}[{index}] += {value}"
            self.feature("output accumulated in place (+=)")
        self.make_inout(array)

    def _component_stores(self, stores: list[int]) -> dict[int, list[int]]:
        """Of the store lines `stores`, those that write one component of a vector kept as arrays of
        its own (`f_x`, `f_y`, `f_z`: structure of arrays), each mapped to its vector's store lines, in
        order. A vector is one quantity: its components are updated alike or not at all."""
        groups: dict[str, list[int]] = {}
        for k in stores:
            part = COMPONENT_ARRAY.fullmatch(ELEMENT_STORE.match(self.lines[k]).group(2))
            if part:
                groups.setdefault(part.group(1), []).append(k)
        return {k: lines for lines in groups.values() if len(lines) > 1 for k in lines}

    def rename_array(self, old: str, new: str, line: int | None = None) -> str:
        """Call the array argument `old`, which only `self.lines[line]` names (no line yet where `line` is
        None), `new` instead; returns `new`."""
        at = next(n for n, a in enumerate(self.args) if a.name == old)
        self.args[at] = dataclasses.replace(self.args[at], name=new)
        del self._by_name[old]
        self._by_name[new] = self.args[at]
        self.annotations = [f"{new}:{a.split(':', 1)[1]}" if a.split(":", 1)[0] == old else a for a in self.annotations]
        if line is not None:
            self.lines[line] = reads(old).sub(new, self.lines[line])
        for names in (self.bounded_outputs, self.state_outputs):
            if old in names:
                names.discard(old)
                names.add(new)
        if old in self.bounds:
            self.bounds[new] = self.bounds.pop(old)
        return new

    def make_inout(self, array: str) -> None:
        """An output the kernel updates (reads before it writes): it holds values on entry, which its
        bound includes."""
        at = next(n for n, a in enumerate(self.args) if a.name == array)
        spec = self.args[at]
        self.args[at] = dataclasses.replace(spec, role="inout")
        self._by_name[array] = self.args[at]
        self.bounds[array] = self.bounds.get(array, 0.0) + max(abs(spec.low), abs(spec.high))

    def drop_dead_stores(self) -> None:
        """Remove stores that every path overwrites before reading (nested branches make them);
        a declaration every path overwrites becomes Warp's `float(0.0)` idiom. One pass suffices:
        dropping a write never makes another one dead.
        """
        tree = statement_tree(self.lines)
        if tree is None:
            fn = ast.parse("def kernel():\n" + "\n".join(self.lines)).body[0]
            index = realism.StatementReads(fn)  # the one index dead_value_statements reads
        else:
            fn, index = tree
        block_of: dict[int, int] = {}  # statement line -> its block's id
        room: dict[int, int] = {}  # block id -> how many statements may go (one must stay)
        for block in realism._blocks(fn.body):
            room[id(block)] = len(block) - 1
            for stmt in block:
                block_of[stmt.lineno] = id(block)
        dead = []
        for line in sorted({stmt.lineno for stmt in realism.dead_value_statements(fn, index)}):
            text = self.lines[line - 2]
            if "atomic_" in text or "wp.tid()" in text:
                continue
            target = text.split(" = ")[0].strip()
            read_elsewhere = any(reads(target).search(other.split(" = ", 1)[-1] if other.strip().startswith(target + " ")
                                                      else other) for other in self.lines)
            if read_elsewhere and text.startswith("    ") and not text.startswith("     "):
                self.lines[line - 2] = f"    {target} = float(0.0)"  # every path sets it before a read
                continue
            if room.get(block_of.get(line), 0) > 0:
                room[block_of[line]] -= 1
                dead.append(line)
        for line in reversed(dead):
            del self.lines[line - 2]

    def reuse_locals(self) -> None:
        """A value the kernel holds in a local, computed again further down (`dl = u_v - u_left` ...
        `du = u_v - u_left`; `mag = wp.abs(x)` ... `dist = wp.abs(x) * 2.0`), reads the local instead,
        as a reviewer would ask. The local is assigned once, at the kernel's top level (so it holds its
        value in every statement after it), from operators and PURE_BUILTINS over names never assigned
        again and no array element (an array may be written in between). The repeat is replaced in the
        text where it stands (its parentheses, if it had its own, dropped): the rest of the line keeps
        its spelling."""
        # most kernels repeat no local's value even as text (`x = float(0.0)` declarations aside): they
        # are left without a parse
        body, after = "\n".join(self.lines), 0
        for line in self.lines:
            after += len(line) + 1  # where the lines below this one start in `body`
            if line[4:5] == " " or " = " not in line:
                continue
            value = line.split(" = ", 1)[1]
            if body.find(value, after) >= 0 and any(c in value for c in "+-*/(") and not LITERAL_CAST.fullmatch(value):
                break
        else:
            return
        try:
            fn = ast.parse("def kernel():\n" + "\n".join(self.lines)).body[0]
        except SyntaxError:
            return
        assigned: Counter = Counter()
        for node in ast.walk(fn):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) else []
            for target in targets:
                assigned.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))

        def reusable(value: ast.expr) -> bool:
            if not isinstance(value, (ast.BinOp, ast.Call)):
                return False
            for n in ast.walk(value):
                if isinstance(n, ast.Call) and wp_builtin(n) not in PURE_BUILTINS:
                    return False
                if isinstance(n, (ast.Subscript, ast.keyword, ast.Starred)) or \
                        isinstance(n, ast.Name) and n.id != "wp" and assigned[n.id] > 1:
                    return False
            return True

        def single(stmt: ast.stmt) -> str | None:
            """The name a top-level `name = value` assigns, where nothing else assigns it."""
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and assigned[stmt.targets[0].id] == 1:
                return stmt.targets[0].id
            return None

        spans = []  # (line, start, end, name): a repeat's columns in self.lines[line]
        aliases: dict[int, tuple[str, str]] = {}  # line of a second local of the same value -> (it, the first)
        for k, stmt in enumerate(fn.body):
            name = single(stmt)
            if name is None or stmt.lineno - 2 in aliases or not reusable(stmt.value):
                continue
            dump = ast.dump(stmt.value)
            for later in fn.body[k + 1:]:
                if single(later) is not None and ast.dump(later.value) == dump:
                    aliases[later.lineno - 2] = (single(later), name)  # the second local goes: its reads read the first
                    continue
                for node in ast.walk(later):
                    if isinstance(node, ast.expr) and node.lineno == node.end_lineno and ast.dump(node) == dump:
                        spans.append((node.lineno - 2, node.col_offset, node.end_col_offset, name))
        if not spans and not aliases:
            return
        spans.sort(key=lambda s: (s[0], s[1], -s[2]))
        kept: list[tuple[int, int, int, str]] = []
        for span in spans:  # a repeat inside a longer one goes with it
            if kept and kept[-1][0] == span[0] and span[1] < kept[-1][2]:
                continue
            kept.append(span)
        for line, start, end, name in reversed(kept):
            text = self.lines[line]
            # `0.5 * (u_v - u_left)` -> `0.5 * dl`; a call's parentheses (`wp.abs(...)`) stay
            while start > 0 and end < len(text) and text[start - 1] == "(" and text[end] == ")" and \
                    (start < 2 or not (text[start - 2].isalnum() or text[start - 2] in "_])")):
                start, end = start - 1, end + 1
            self.lines[line] = text[:start] + name + text[end:]
        for line in sorted(aliases, reverse=True):
            second, first = aliases[line]
            reads_second = re.compile(rf"(?<![.\w]){second}\b")
            self.lines[line + 1:] = [reads_second.sub(first, text) for text in self.lines[line + 1:]]
            del self.lines[line]

    def finish(self, summary: str) -> KernelSpec:
        self.lines[self.head:self.head] = self.load_lines
        self.load_lines = []
        self.prune()
        self.merge_load_aliases()
        if self.local_features:
            present = set(NAME_TOKEN.findall("\n".join(self.lines)))
            standing = {f for local, f in self.local_features.items() if local in present}
            self.features = [f for f in self.features if f in standing or f not in self.local_features.values()]
        if self.rng.random() < INLINE_LOADS_SHARE:
            self.inline_single_loads()
        if self.rng.random() < self.intermediate_output_share:
            self.store_intermediate()
        if self.rng.random() < self.result_inline_share:
            self.inline_results()
        if self.rng.random() < self.output_update_share:
            self.update_outputs()
        self.reuse_locals()
        if self.rng.random() < FORWARD_ONLY_SHARE:  # a kernel nobody differentiates through says so
            self.options.setdefault("enable_backward", "False")
        if self.rng.random() < UNIQUE_MODULE_SHARE:
            self.options.setdefault("module", '"unique"')
        decorator = f"@wp.kernel({', '.join(f'{k}={v}' for k, v in self.options.items())})" if self.options else "@wp.kernel"
        header = f"{decorator}\ndef {self.name}({', '.join(self.annotations)}):\n"
        body = "\n".join(self.lines)
        constants = [c for c in self.constants if reads(c.split(" = ")[0]).search(body + "".join(self.helpers))]
        prelude = "".join(c + "\n" for c in constants) + ("\n" if constants else "")
        source = self.import_block() + prelude + "".join(h + "\n\n" for h in self.helpers) + header + body + "\n"
        if self.after_kernel:
            source += "\n" + "".join(line + "\n" for line in self.after_kernel)
        if self._operations_feature is not None:
            label, calls, operators = self._operations_feature
            used = operations_used(source, calls, operators)
            if used:
                self.feature(f"{label} {', '.join(used)}")
        args = tuple(dataclasses.replace(a, bound=max(self.bounds.get(a.name, 0.0), abs(a.low), abs(a.high), 1.0),
                                         keeps_size=a.keeps_size or (self.fixed_launch and a.is_array
                                                                     and tuple(a.shape) == tuple(self.dim)))
                     for a in self.args)
        dims = "x".join(str(d) for d in self.dim)
        detail = feature_list(self.features)
        description = f"{summary} ({len(self.dim)}-D launch {dims}" + (f"; {detail})" if detail else ")")
        return KernelSpec(self.name, self.category, description, source, args, self.dim, self.seed,
                          tuple(self.helper_names))


# ---- expression generation --------------------------------------------------------------------
ARITH_OPS = ("add", "sub", "mul", "div_const", "div_safe", "min", "max", "abs", "neg")
MATH_OPS = ("sin", "cos", "tanh", "exp", "log", "sqrt", "pow", "floor", "ceil", "clamp", "atan2")
# Formulas real kernels are made of (activations, falloffs), each the way people spell it in Warp.
FORMULA_OPS = ("sigmoid", "softplus", "relu", "leaky_relu", "gaussian", "softsign", "smoothstep")
FLOAT_CONSTS = [k / 16 for k in range(-40, 41) if k != 0]
# The literal leaf for each of FLOAT_CONSTS, built once: a leaf is drawn for nearly every node.
FLOAT_CONST_EXPRS = tuple(Expr(fmt_float(v), "float32", abs(v), CONST_Q, atom=v > 0, lit=True) for v in FLOAT_CONSTS)


_FLIPPED_COMPARISON = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _balanced(text: str) -> bool:
    """Whether every parenthesis in `text` closes inside it (`a) + (b` is not)."""
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


# The arithmetic people write by hand, by name (`ExprGen.arith_formula`, `ExprGen.int_formula`): each
# name goes into the kernel's features as it is.
ARITH_FORMULAS = ("affine map", "midpoint", "weighted average", "linear interpolation", "squared difference",
                  "sum of squares", "polynomial (Horner form)", "clamp to a range", "cubic smoothstep",
                  "relative difference", "signed square", "absolute difference", "normalized difference", "soft sign")
INT_FORMULAS = ("integer midpoint", "non-negative remainder", "round down to a multiple", "absolute difference",
                "clamp to a range", "sum of squares", "bit field", "low bits", "blocks to cover", "pack two fields")
# More of them, drawn from a stream of the kernel's own (INT_FORMULAS_MORE_SHARE of draws; session 50:
# ten kinds made too few distinct kernels), so a draw that takes none keeps every other draw.
INT_FORMULAS_MORE = ("round up to a multiple", "rounded division", "fixed-point blend", "integer percentage",
                     "midpoint without overflow", "distance on a ring", "saturating add", "shift division")
INT_FORMULAS_MORE_SHARE = 0.45
# Formulas only a theme of the arithmetic category asks for by name (never drawn by `int_formula()`).
INT_FORMULAS_THEMED = ("step on a ring", "mirrored index", "signed low field", "fixed-point product")
# The math people write with transcendental builtins, by name (`ExprGen.math_formula`).
MATH_FORMULAS = ("hypotenuse", "root mean square", "polar angle", "polar to Cartesian", "exponential decay",
                 "oscillation", "Cauchy loss", "gamma correction", "fractional part", "soft minimum", "Welsch loss",
                 "Geman-McClure loss", "wrap to a period", "amplitude from decibels", "smooth absolute value",
                 "soft maximum", "Reinhard tone map", "damped oscillation", "circle area", "GELU activation",
                 "angle in degrees", "distance to the nearest integer", "ellipse area", "cell index",
                 "sphere surface area", "sphere volume", "circumference", "cylinder volume")
# What a formula's operands are where they are a quantity one value cannot also be (a volume is not a
# radius, a cosine not a coordinate, a level in decibels not an amplitude): a kernel reads each value as
# one of them (ExprGen._formula_operands). Formulas not named take any value.
OPERAND_QUANTITY = {
    "hypotenuse": "length", "circle area": "length", "ellipse area": "length", "frustum height": "length",
    "sphere surface area": "length", "sphere volume": "length", "circumference": "length", "cylinder volume": "length",
    "sphere radius from a volume": "volume",
    "angle from a cosine": "ratio", "angle from a sine": "ratio", "amplitude from decibels": "level",
}
# The periods `wrap to a period` wraps into: powers of two, so `x / L` is exact and the floor sees the value.
WRAP_PERIODS = (0.5, 2.0, 4.0)
# The math people write with the inverse trigonometric, rounding and other-base builtins (acos, asin,
# atan, tan, ceil, round, trunc, log2, log10, cbrt), by name: a math kernel draws one from a stream of
# its own (synthesis.categories.math.special_formula_of), so every other math kernel keeps its draws.
SPECIAL_MATH_FORMULAS = ("angle from a cosine", "angle from a sine", "arctangent soft limit", "frustum height",
                         "round up to a multiple", "snap to a grid", "fractional part toward zero",
                         "log2 compression", "decibels", "sphere radius from a volume")
# The steps `round up to a multiple` and `snap to a grid` round to: powers of two, so `x / h` is exact
# and the rounding sees the value itself (a step of h = 2^-k needs an operand on a finer grid than k).
ROUNDING_STEPS = (0.25, 0.5, 0.125)
# Weights of a two-term average and interpolation parameters: eighths, exact in float32.
BLEND_WEIGHTS = (0.125, 0.25, 0.375, 0.625, 0.75, 0.875)


# The constants div_const divides by: those people divide by. Not 0.5 (a person writes `2.0 * x`) nor a
# negative one (`-0.5 * x`, not `x / -2.0`).
DIVISORS = (2.0, 3.0, 4.0, 8.0, 10.0, 16.0, 1.5)
# The literal Expr of each divisor div_const draws, for `ExprGen.folds`.
FLOAT_LITERAL_OF = {c: Expr(fmt_float(c), "float32", abs(c), CONST_Q, atom=c > 0, lit=True)
                    for c in DIVISORS}


class ExprGen:
    """Named formulas over what a KernelWriter has in scope (`arith_formula`, `int_formula`,
    `math_formula`), the named values they take (`named_value`), and `meaningful`, which makes a
    value fit to store; random float/int expression trees (`float_expr`, `int_expr`) for tests."""

    def __init__(self, writer: KernelWriter, float_ops: tuple[str, ...] = ARITH_OPS,
                 leaf_prob: float = 0.3, loads: list[str] | None = None):
        self.w = writer
        self.rng = writer.rng
        self.float_ops = float_ops
        self.leaf_prob = leaf_prob
        self.loads = loads if loads is not None else []  # array names readable at own index
        self.extra: list[Expr] = []  # more leaves: neighbours, gathered elements (loaded once, at the top)
        self._loaded_of: dict[str, tuple[list[str], list[Expr], dict[str, str]]] = {}  # see _loaded
        self._as_float: dict[Expr, Expr] = {}  # an int leaf -> `float(leaf)`
        # the first operands of the formulas drawn so far: a later formula reads one of them
        # (a kernel's outputs are one computation's, not unrelated formulas of unrelated inputs)
        self.formula_operands: list[Expr] = []
        # the quantity (OPERAND_QUANTITY) each value a formula read is: read as one, never as another
        self.operand_quantity: dict[str, str] = {}

    # leaves
    def const_float(self) -> Expr:
        return self.rng.choice(FLOAT_CONST_EXPRS)  # one draw, as rng.choice(FLOAT_CONSTS)

    def const_int(self, lo: int = 1, hi: int = 9) -> Expr:
        v = self.rng.randint(lo, hi)
        return Expr(str(v), "int32", float(abs(v)), 0, atom=v >= 0, lit=True)

    def _loaded(self, dtype: str) -> tuple[list[Expr], dict[str, str]]:
        """The loads of `dtype` among the leaves (each twice: loads are the common case) and, for
        each load's text, its array (what `unused` calls it). Remembered per dtype while `loads` is
        unchanged (categories append to it): `w.load` gives the same local for a name once it has
        made one, so only the first look (the one that makes the locals, as before) calls it."""
        cached = self._loaded_of.get(dtype)
        if cached is not None and cached[0] == self.loads:
            return cached[1], cached[2]
        w = self.w
        choices: list[Expr] = []
        array_of: dict[str, str] = {}
        for name in self.loads:
            if w.arg(name).dtype == dtype:
                load = w.load(name)
                array_of[load.src] = name
                choices += (load, load)
        self._loaded_of[dtype] = (list(self.loads), choices, array_of)
        return choices, array_of

    def leaf(self, dtype: str) -> Expr:
        w = self.w
        rng = self.rng
        choices: list[Expr] = [e for scope in w.scopes for e in scope.values() if e.type == dtype]  # w.visible
        if self.extra:
            choices += [e for e in self.extra if e.type == dtype]
        if self.loads:
            cached = self._loaded_of.get(dtype)  # _loaded's own look, without its call
            loaded, array_of = cached[1:] if cached is not None and cached[0] == self.loads else self._loaded(dtype)
            choices += loaded
        else:
            array_of = {}
        unused = w.unused
        if unused and choices:
            # what `unused` calls each choice: a load by its array, others by their text
            unused_set = set(unused)
            if array_of:
                fresh = [c for c in choices if array_of.get(c.src, c.src) in unused_set]
            else:
                fresh = [c for c in choices if c.src in unused_set]
            if fresh and rng.random() < 0.7:
                pick = rng.choice(fresh)
                unused.remove(array_of.get(pick.src, pick.src))
                return pick
        if dtype == "float32":
            choices.append(rng.choice(FLOAT_CONST_EXPRS))  # self.const_float()
            if len(choices) == 1 or rng.random() < 0.15:
                ints = [e for scope in w.scopes for e in scope.values() if e.type == "int32"]  # w.visible
                if ints:
                    i = rng.choice(ints)
                    # a thread index as a value (its grid coordinate) now and then, as in real kernels
                    if i.src not in w.tid_names or rng.random() < 0.1:
                        return self._float_of(i)
        if dtype == "int32":
            choices.append(self.const_int())
        if not choices:
            raise ValueError(f"nothing of type {dtype} in scope")
        return rng.choice(choices)

    # floats
    def _has_operand(self, exact: bool) -> bool:
        """Whether a float leaf other than a literal exists: without one, every operation is refused."""
        # the cheap tests first (all are pure): most kernels load a float input, and a thread index is
        # an int in scope
        w = self.w
        for name in self.loads:
            if w.arg(name).dtype == "float32":
                return True
        for scope in w.scopes:
            for e in scope.values():
                if e.type == "int32" or e.type == "float32" and (not exact or e.exact):
                    return True
        return False

    def float_expr(self, depth: int, exact: bool = False) -> Expr:
        if depth > 0 and not self._has_operand(exact):
            return self.const_float()
        rng = self.rng
        if depth <= 0 and not self._has_float_leaf():
            return self._literal_or_int_leaf(exact)
        for _ in range(12):
            if depth <= 0 or rng.random() < self.leaf_prob:
                e = self.leaf("float32")
            else:
                e = self._float_op(rng.choice(self.float_ops), depth)
            if e is not None and e.mag <= MAX_FLOAT_MAG and (not exact or e.exact):
                return e
        # An exact, small fallback always exists: a constant.
        return self.const_float()

    def _value_of(self, src: str) -> str:
        """`src`, or for a local assigned once (and never again) the text of its value, followed through
        such locals: `abs(v2)` with `v2 = wp.abs(x)` changes nothing either."""
        defs, reassigned = self.w.defs, self.w.reassigned
        for _ in range(8):
            value = defs.get(src)
            if value is None or src in reassigned:
                break
            src = value
        return src

    def _never_negative(self, src: str) -> bool:
        """Whether `src` is never negative: by `never_negative`, or as this generator writes `pow`,
        `log` (of a magnitude plus one), a sigmoid, smoothstep, or a thread index as a float."""
        value = self._value_of(src)
        if never_negative(value) or _call_args(value, _GENERATED_NON_NEGATIVE) is not None:
            return True
        if value.startswith("1.0 / (1.0 + wp.exp("):
            return True
        smooth = _CUBIC_SMOOTHSTEP.fullmatch(value)  # t * t * (3.0 - 2.0 * t) of t clamped to [0, 1]
        if smooth is not None and self._value_of(smooth.group(1)).endswith(", 0.0, 1.0)") \
                and self._value_of(smooth.group(1)).startswith("wp.clamp("):
            return True
        choice = _call_args(value, ("wp.where(",))  # both of its values never negative
        if choice is not None and len(choice) == 3:
            return self._never_negative(choice[1]) and self._never_negative(choice[2])
        index = _FLOAT_OF_NAME.fullmatch(value)
        name = value if index is None else index.group(1)
        if name in self.w.tid_names or name in self.w.coordinates:
            return True
        if self.w.loop_counters.get(name):  # a counter of loops from a start >= 0
            return True
        trips = self.w.loop_ranges.get(name)  # a loop counter whose values are all known and >= 0
        if trips:
            return min(trips) >= 0
        # sums, products, quotients and casts of such (`1.75 / (px + 2.0)`), as realism reads them
        if not any(ch in value for ch in "+*/(") or value.startswith("-"):
            return False
        counters = set(self.w.tid_names) | self.w.coordinates
        counters.update(k for k, v in self.w.loop_ranges.items() if v and min(v) >= 0)
        counters.update(k for k, v in self.w.loop_counters.items() if v)
        return realism.never_negative_value(self.w._parsed_expr(value), self.w.local_values(), counters)

    def _absorbs(self, op: str, a: str, b: str) -> bool:
        if absorbs(op, self._value_of(a), b) or absorbs(op, a, self._value_of(b)) \
                or absorbs(op, self._value_of(a), self._value_of(b)):
            return True
        prefixes = (f"wp.{op}(", f"{op}(")  # `max(abs(w), max(r, m))` with `m = abs(w)`
        for inner, other in ((a, b), (b, a)):
            args = _call_args(self._value_of(inner), prefixes)
            if args is not None and self._value_of(other) in {self._value_of(x) for x in args}:
                return True
        return False

    def _magnitude_src(self, src: str) -> str:
        """`wp.abs(src)`, or `src` itself where it is never negative."""
        return src if self._never_negative(src) else f"wp.abs({src})"

    def _float_of(self, i: Expr) -> Expr:
        """`float(i)` of an int leaf, made once per ExprGen (Exprs are immutable: one serves every draw);
        for a thread index, its grid coordinate (`px = float(tid) * 0.0625`): real kernels use a
        thread index as a value as a position on a grid, not as a count."""
        if i.src in self.w.tid_names:
            return self.w.coordinate(self.w.tid_names.index(i.src))
        e = self._as_float.get(i)
        if e is None:
            e = self._as_float[i] = Expr(f"float({i.src})", "float32", i.mag, 0)
        return e

    def _has_float_leaf(self) -> bool:
        """Whether `leaf("float32")` has a choice other than a literal: a float in scope, a float
        extra leaf or a float load (`loads` only looked at: nothing is loaded here)."""
        w = self.w
        for name in self.loads:
            if w.arg(name).dtype == "float32":
                return True
        for e in self.extra:
            if e.type == "float32":
                return True
        for scope in w.scopes:
            for e in scope.values():
                if e.type == "float32":
                    return True
        return False

    def _literal_or_int_leaf(self, exact: bool) -> Expr:
        """`float_expr(0, exact)` where `leaf("float32")` has no choice but a literal or `float(i)` of
        an int in scope (matrix kernels, where the sizes rule most ints out): the leaf's own draws,
        attempt after attempt, without gathering its choices each time (nothing changes between
        attempts: no fresh leaf is taken, nothing is loaded)."""
        rng = self.rng
        ints = [e for scope in self.w.scopes for e in scope.values() if e.type == "int32"]
        for _ in range(12):
            literal = rng.choice(FLOAT_CONST_EXPRS)  # leaf draws a literal first, always
            if ints:  # with no other choice, leaf takes an int (a thread index one time in five)
                i = rng.choice(ints)
                e = self._float_of(i) if i.src not in self.w.tid_names or rng.random() < 0.2 else rng.choice([literal])
            else:
                e = rng.choice([literal])
            if e.mag <= MAX_FLOAT_MAG and (not exact or e.exact):
                return e
        return self.const_float()

    def meaningful(self, e: Expr) -> Expr:
        """`e` made fit to store: computed (not a bare input, parameter or literal), varying, and,
        on sampled inputs, neither one number nor a copy of an input (`q - (q - c)`)."""
        e = self._computed_and_varying(e)
        if e.type not in ("float32", "int32") and e.type not in VECTOR_TYPES and e.type not in MATRIX_TYPES:
            return e
        for _ in range(3):
            verdict = self.w.judge_value(e.src)
            if verdict is None:
                break
            leaves = self._varying_leaves(e.type)
            if verdict == "constant" and leaves:
                leaf = self.rng.choice(leaves)
                e = Expr(f"{e.operand()} + {leaf.operand()}", e.type, e.mag + leaf.mag, join_q(e.q, leaf.q), atom=False)
            elif e.type == "int32":
                e = Expr(f"{e.operand()} * 3", "int32", e.mag * 3, 0, atom=False)
            else:
                c = self.rng.choice([0.5, 0.25, 2.0, 1.5, -0.5, 0.75])
                e = Expr(f"{fmt_float(c)} * {e.operand()}", e.type, e.mag * abs(c),
                         None if e.q is None else e.q + CONST_Q, atom=False)
        return e

    def _computed_and_varying(self, e: Expr) -> Expr:
        if not self.w.varies(e.src):
            leaves = [x for x in self._varying_leaves(e.type) if x.src != e.src]
            if leaves:
                leaf = self.rng.choice(leaves)
                sym = self.rng.choice(["+", "-"])
                e = Expr(f"{e.operand()} {sym} {leaf.operand()}", e.type, e.mag + leaf.mag, join_q(e.q, leaf.q), atom=False)
        if self.w.is_bare(e) or not self.w.varies(e.src):
            if e.type == "int32":
                k = self.const_int(2, 5)
                return Expr(f"{e.operand()} * {k.src}", "int32", e.mag * k.mag, 0, atom=False)
            if e.type in ("float32",) and self.w.visible("int32") and not self.w.varies(e.src):
                t = self.w.coordinate(0)
                return Expr(f"{e.operand()} + {t.src}", "float32", e.mag + t.mag, join_q(e.q, t.q), atom=False)
            c = self.rng.choice([0.5, 0.25, 2.0, 1.5, -0.5, 0.75])
            q = None if e.q is None else e.q + CONST_Q
            return Expr(f"{fmt_float(c)} * {e.operand()}", e.type, e.mag * abs(c), q, atom=False)
        return e

    def _varying_leaves(self, dtype: str) -> list[Expr]:
        out = [v for v in self.w.visible(dtype) if v.src in self.w.varying]
        out += [self.w.load(n) for n in self.loads if self.w.arg(n).dtype == dtype]
        return out

    def degenerate(self, *operands: Expr, same_ok: bool = False) -> bool:
        """An operation no person writes: on literals only (fold them), or on two copies of a value
        (also through a local: `abs(x) - v1` where `v1 = abs(x)`)."""
        if len(operands) != 2:
            return all(o.lit for o in operands)
        a, b = operands
        if a.lit and b.lit:
            return True
        if same_ok:
            return False
        defs = self.w.defs
        return a.src == b.src or defs.get(a.src, a.src) == defs.get(b.src, b.src)

    def folds(self, a: Expr, sym: str, b: Expr) -> bool:
        """Whether `a sym b` has two literals a person folds into one (realism's foldable_constants):
        a number literal on one side and, on the other, a value a literal already scales (for `*`,
        `/`) or shifts (for `+`, `-`), or, for `*` and `/`, a negation a negative literal undoes."""
        if a.lit == b.lit:  # no literal (nothing to fold) or two (degenerate's)
            return False
        lit, other = (a, b) if a.lit else (b, a)
        family = realism.MULTIPLYING if sym in ("*", "/") else realism.ADDING
        if realism.scaled_by_literal(self.w._parsed_expr(other.src), family) is not None:
            return True
        return family is realism.MULTIPLYING and lit.src.startswith("-") and other.src.startswith("-")

    def _float_op(self, op: str, depth: int) -> Expr | None:
        sub = functools.partial(self.float_expr, depth - 1)
        if op in ("add", "sub", "mul"):
            a, b = sub(), sub()
            if self.degenerate(a, b, same_ok=op == "mul"):
                return None
            sym = {"add": "+", "sub": "-", "mul": "*"}[op]
            if op != "mul" and b.lit and b.src.startswith("-"):  # `x - 2.375`, not `x + -2.375`
                sym, b = "-" if sym == "+" else "+", Expr(b.src[1:], b.type, b.mag, b.q, atom=True, lit=True)
            elif op == "add" and a.lit and a.src.startswith("-"):  # `x - 0.9375`, not `(-0.9375) + x`
                a, sym, b = b, "-", Expr(a.src[1:], a.type, a.mag, a.q, atom=True, lit=True)
            if self.folds(a, sym, b):
                return None
            if op == "mul":
                mag = a.mag * b.mag
                q = None if a.q is None or b.q is None else a.q + b.q
            else:
                mag, q = a.mag + b.mag, join_q(a.q, b.q)
            return Expr(f"{a.operand()} {sym} {b.operand()}", "float32", mag, q, atom=False)
        if op == "div_const":
            a = sub()
            if a.lit:
                return None
            c = self.rng.choice(DIVISORS)
            if self.folds(a, "/", FLOAT_LITERAL_OF[c]):  # `(x * 2.5) / 2.0`, `(-x) / -2.0`
                return None
            k = math.log2(abs(c))
            # Dividing by a power of two is exact; by 2**k, k > 0, the grid gets k bits finer.
            if not k.is_integer() or a.q is None:
                q = None
            else:
                q = a.q + max(int(k), 0)
            return Expr(f"{a.operand()} / {fmt_float(c)}", "float32", a.mag / abs(c), q, atom=False)
        if op == "div_safe":
            a, b = sub(), sub()
            if self.degenerate(a, b) or b.lit or b.src.startswith("-"):  # not abs(-x)
                return None
            k = self.rng.choice([0.5, 1.0, 2.0])
            fn = self.rng.choice(["wp.abs", "abs"])
            size = b.operand() if self._never_negative(b.src) else f"{fn}({b.src})"
            return Expr(f"{a.operand()} / ({size} + {fmt_float(k)})", "float32", a.mag / k, None, atom=False)
        if op in ("min", "max"):
            a, b = sub(), sub()
            if self.degenerate(a, b) or decided_by_range(a, b) or self._absorbs(op, a.src, b.src):
                return None
            fn = self.rng.choice([f"wp.{op}", op])
            return Expr(f"{fn}({a.src}, {b.src})", "float32", max(a.mag, b.mag), join_q(a.q, b.q))
        if op == "abs":
            a = sub()
            if a.lit or a.src.startswith(("wp.abs(", "-")) or self._never_negative(a.src):
                return None
            return Expr(f"wp.abs({a.src})", "float32", a.mag, a.q)
        if op == "neg":
            a = sub()
            if a.lit or a.src.startswith("-"):
                return None
            return Expr(f"-{a.operand()}", "float32", a.mag, a.q, atom=False)
        if op in FORMULA_OPS:
            return self._formula(op, sub)
        a = None
        if op in ("sqrt", "floor", "ceil"):
            # sqrt's slope is unbounded at 0 and floor/ceil are discontinuous: exact arguments only
            a = self.float_expr(depth - 1, exact=True)
        elif op != "atan2":
            a = sub()
        if a is not None and a.lit:
            return None
        if op in ("sin", "cos", "tanh"):
            a = bounded_argument(a, 8.0)
            return Expr(f"wp.{op}({a.src})", "float32", 1.0, None)
        if op == "exp":
            a = bounded_argument(a, 4.0)
            return Expr(f"wp.exp({a.src})", "float32", math.exp(a.mag), None)
        if op == "log":
            return Expr(f"wp.log({self._magnitude_src(a.src)} + 1.0)", "float32", math.log(a.mag + 1.0) + 1e-3, None)
        if op == "sqrt":
            return Expr(f"wp.sqrt({self._magnitude_src(a.src)})", "float32", math.sqrt(a.mag) + 1e-3, None)
        if op == "pow":
            p = self.rng.choice([0.5, 1.5, 2.0, 3.0])
            if (a.mag + 1.0) ** p > MAX_FLOAT_MAG:
                return None
            return Expr(f"wp.pow({self._magnitude_src(a.src)} + 1.0, {fmt_float(p)})", "float32", (a.mag + 1.0) ** p, None)
        if op in ("floor", "ceil"):
            value = self._value_of(a.src)
            rounded = _ROUNDED.match(value)
            if _FLOAT_OF_NAME.fullmatch(value) or rounded and _balanced(value[rounded.end(1) + 1:-1]) \
                    or a.q is not None and a.q <= 0:
                return None  # of an int made float, a value already rounded or a whole number: nothing to round
            return Expr(f"wp.{op}({a.src})", "float32", a.mag + 1.0, 0 if a.q is not None else None)
        if op == "clamp":
            lo = self.rng.choice([-2.0, -1.0, -0.5, 0.0])
            hi = self.rng.choice([0.5, 1.0, 2.0])
            if -a.mag >= lo and a.mag <= hi:  # never clamps
                return None
            if lo <= 0.0 and self._never_negative(a.src):  # the lower bound would never act: min(a, hi)
                return None
            return Expr(f"wp.clamp({a.src}, {fmt_float(lo)}, {fmt_float(hi)})", "float32", max(abs(lo), hi), join_q(a.q, CONST_Q))
        if op == "atan2":
            # atan2 is ill-conditioned near the origin: exact arguments only
            a, b = self.float_expr(depth - 1, exact=True), self.float_expr(depth - 1, exact=True)
            if self.degenerate(a, b):
                return None
            return Expr(f"wp.atan2({a.src}, {b.src})", "float32", math.pi + 1e-3, None)
        raise ValueError(op)

    def _formula(self, op: str, sub) -> Expr | None:
        """One of FORMULA_OPS over a drawn value (`sub()`), or over a named value where the formula
        reads it more than once (`x / (1.0 + wp.abs(x))`: a person names x first)."""
        rng = self.rng
        if op in ("leaky_relu", "gaussian", "softsign"):
            x = self.leaf("float32")
            if x.lit or not WORD.fullmatch(x.src) or not self.w.varies(x.src) or self._never_negative(x.src):
                return None
            if op == "leaky_relu":
                slope = rng.choice(["0.01", "0.1", "0.2"])
                return Expr(f"wp.where({x.src} > 0.0, {x.src}, {slope} * {x.src})", "float32", x.mag, None)
            if op == "gaussian":
                width = rng.choice(["0.5", "2.0", "0.25"])
                return Expr(f"wp.exp(-{x.src} * {x.src} * {width})", "float32", 1.0, None)
            return Expr(f"{x.src} / (1.0 + wp.abs({x.src}))", "float32", 1.0, None, atom=False)
        a = sub()
        if a.lit or a.src.startswith("-"):
            return None
        if op == "relu":
            if self._never_negative(a.src):
                return None
            return Expr(f"{rng.choice(['wp.max', 'max'])}({a.src}, 0.0)", "float32", a.mag, a.q)
        if op == "smoothstep":
            lo, hi = rng.choice([("0.0", "1.0"), ("-1.0", "1.0"), ("-2.0", "2.0"), ("0.0", "2.0")])
            return Expr(f"wp.smoothstep({lo}, {hi}, {a.src})", "float32", 1.0, None)
        a = bounded_argument(a, 8.0)
        if op == "sigmoid":
            return Expr(f"1.0 / (1.0 + wp.exp(-{a.operand()}))", "float32", 1.0, None, atom=False)
        # log(1 + e^a) <= max(a, 0) + log 2
        return Expr(f"wp.log(1.0 + wp.exp({a.src}))", "float32", a.mag + 0.7, None)

    def named_value(self, dtype: str, avoid: tuple[str, ...] = ()) -> Expr | None:
        """A value of `dtype` with a name (a cached load, a local, a neighbour) that varies over the
        launch, is not a thread index and is none of `avoid`: what a formula reading its operand
        twice reads (a person names a value before writing `x + t * (y - x)`). None if no draw has one."""
        for _ in range(8):
            e = self.leaf(dtype)
            if not e.lit and WORD.fullmatch(e.src) and e.src not in avoid and e.src not in self.w.tid_names \
                    and not self.w.is_argument(e.src) and self.w.varies(e.src):
                return e
        return None

    def unrelated_value(self, dtype: str, x: Expr, also_avoid: tuple[str, ...] = ()) -> Expr | None:
        """A named value other than `x` (and `also_avoid`), neither computed from `x` nor read by `x`'s
        definition: a formula over both would cancel (`0.5 * (x + d)` with `d = t - x`)."""
        related = (x.src,) + tuple(n for n, text in self.w.defs.items() if reads(x.src).search(text)) \
            + tuple(NAME_TOKEN.findall(self.w.defs.get(x.src, "")))
        return self.named_value(dtype, avoid=related + self._elsewhere_in_another_array(x) + also_avoid)

    def _elsewhere_in_another_array(self, x: Expr) -> tuple[str, ...]:
        """The loaded elements a formula over `x`, itself an element of array a, pairs with no meaning:
        another array's element at another place (`src[tid]` with `a[tid - 1]`: an RMS of a value and
        another field's left neighbour). Two fields at the thread's own element (two components, a
        value and its weight) or one field at two places (a value and its neighbour) pair."""
        places = self.w.loaded_elements()
        if x.src not in places:
            return ()
        array, own = places[x.src]
        return tuple(n for n, (a, o) in places.items() if a != array and o != own)

    def _formula_operands(self, dtype: str, two: bool, quantity: str | None = None) -> tuple[Expr, Expr | None] | None:
        """A formula's named operands: one, or (`two`) two different ones; None if the kernel lacks them.
        The first is one an earlier formula of the kernel read, where there is one. `quantity`: what the
        operands are (OPERAND_QUANTITY): none is a value an earlier formula read as another quantity
        (a volume is not also a radius); where every earlier operand was, None."""
        clashing = tuple(n for n, q in self.operand_quantity.items() if quantity is not None and q != quantity)
        earlier = [e for e in self.formula_operands if e.type == dtype]
        fitting = [e for e in earlier if e.src not in clashing]
        if earlier and not fitting:  # a value of another kind: the kernel would compute two things
            return None
        x = self.rng.choice(fitting) if fitting else self.named_value(dtype, avoid=clashing)
        if x is None:
            return None
        if x not in self.formula_operands:
            self.formula_operands.append(x)
        y = self.unrelated_value(dtype, x, also_avoid=clashing) if two else None
        if two and y is None:
            return None
        if quantity is not None:
            for e in (x, y):
                if e is not None:
                    self.operand_quantity[e.src] = quantity
        return x, y

    def arith_formula(self, kind: str | None = None, weight: Expr | None = None) -> tuple[Expr, str] | None:
        """One of ARITH_FORMULAS over named float values, and its name: an affine map
        (`1.5 * x - 0.25`), a midpoint, a weighted average, a linear interpolation (`x + 0.25 * (y -
        x)`), a squared difference (through a named difference), a sum of squares, a polynomial in
        Horner form, a clamp to a range inside the value's, the cubic smoothstep of a clamped value, a
        difference relative to a reference (`(x - y) / (wp.abs(y) + 0.01)`) or a signed square (`x * wp.abs(x)`).
        None when the kernel has no named value to build it on or its bound would be too large. `weight`:
        a weighted average's or an interpolation's weight in [0, 1] (a parameter, a per-element alpha)
        instead of a literal eighth."""
        rng = self.rng
        kind = kind or rng.choice(ARITH_FORMULAS)
        operands = self._formula_operands("float32", kind in ("midpoint", "weighted average", "linear interpolation",
                                                              "squared difference", "sum of squares",
                                                              "relative difference", "absolute difference",
                                                              "normalized difference"))
        if operands is None:
            return None
        x, y = operands
        if kind == "affine map":
            scale = rng.choice([c for c in FLOAT_CONSTS if abs(c) >= 0.25 and abs(c) != 1.0])
            shift = rng.choice(FLOAT_CONSTS)
            sign = "-" if shift < 0 else "+"
            e = Expr(f"{fmt_float(scale)} * {x.src} {sign} {fmt_float(abs(shift))}", "float32",
                     abs(scale) * x.mag + abs(shift), join_q(None if x.q is None else x.q + CONST_Q, CONST_Q), atom=False)
        elif kind == "midpoint":
            e = Expr(f"0.5 * ({x.src} + {y.src})", "float32", max(x.mag, y.mag), None if join_q(x.q, y.q) is None
                     else join_q(x.q, y.q) + 1, atom=False)
        elif kind in ("weighted average", "linear interpolation") and weight is not None:
            q = None if join_q(x.q, y.q, weight.q) is None else join_q(x.q, y.q) + weight.q
            if kind == "weighted average":
                text = f"{weight.src} * {x.src} + (1.0 - {weight.src}) * {y.src}"
            else:
                text = rng.choice([f"{x.src} + {weight.src} * ({y.src} - {x.src})", f"wp.lerp({x.src}, {y.src}, {weight.src})"])
            e = Expr(text, "float32", max(x.mag, y.mag) + x.mag, q, atom=text.startswith("wp.lerp"))
        elif kind == "weighted average":
            weight = rng.choice(BLEND_WEIGHTS)
            e = Expr(f"{fmt_float(weight)} * {x.src} + {fmt_float(1.0 - weight)} * {y.src}", "float32",
                     max(x.mag, y.mag), None if join_q(x.q, y.q) is None else join_q(x.q, y.q) + 3, atom=False)
        elif kind == "linear interpolation":
            t = rng.choice(BLEND_WEIGHTS)
            e = Expr(f"{x.src} + {fmt_float(t)} * ({y.src} - {x.src})", "float32", max(x.mag, y.mag) + x.mag * t,
                     None if join_q(x.q, y.q) is None else join_q(x.q, y.q) + 3, atom=False)
        elif kind == "squared difference":
            d = self.w.assign(Expr(f"{x.src} - {y.src}", "float32", x.mag + y.mag, join_q(x.q, y.q), atom=False), "d")
            e = Expr(f"{d.src} * {d.src}", "float32", d.mag * d.mag, None if d.q is None else 2 * d.q, atom=False)
        elif kind == "sum of squares":
            e = Expr(f"{x.src} * {x.src} + {y.src} * {y.src}", "float32", x.mag * x.mag + y.mag * y.mag,
                     None if join_q(x.q, y.q) is None else 2 * join_q(x.q, y.q), atom=False)
        elif kind == "relative difference":  # (x - y) / (|y| + eps): an error relative to a reference
            eps = rng.choice([0.125, 0.25, 0.5])
            # a grid coordinate is never negative: its magnitude is itself
            size = y.src if self.w.is_coordinate(y.src) else f"wp.abs({y.src})"
            e = Expr(f"({x.src} - {y.src}) / ({size} + {fmt_float(eps)})", "float32", (x.mag + y.mag) / eps,
                     None, atom=False)
        elif kind == "absolute difference":  # |x - y|: an error's size, a gap
            e = Expr(f"wp.abs({x.src} - {y.src})", "float32", x.mag + y.mag, join_q(x.q, y.q))
        elif kind == "normalized difference":  # (x - y) / (|x| + |y| + eps): a contrast in [-1, 1] (an NDVI)
            eps = rng.choice([0.125, 0.25, 0.5])
            sizes = [v.src if self.w.is_coordinate(v.src) else f"wp.abs({v.src})" for v in (x, y)]
            e = Expr(f"({x.src} - {y.src}) / ({sizes[0]} + {sizes[1]} + {fmt_float(eps)})", "float32", 1.0, None,
                     atom=False)
        elif kind == "soft sign":  # x / (1 + |x|): a saturating response in (-1, 1) with no exponential
            size = x.src if self.w.is_coordinate(x.src) else f"wp.abs({x.src})"
            e = Expr(f"{x.src} / (1.0 + {size})", "float32", 1.0, None, atom=False)
        elif kind == "signed square":  # x |x|: the square that keeps the sign (a quadratic drag, a gain curve)
            e = Expr(f"{x.src} * wp.abs({x.src})", "float32", x.mag * x.mag, None if x.q is None else 2 * x.q,
                     atom=False)
        elif kind == "polynomial (Horner form)":
            # the leading coefficient is never +-1 (`1.0 * x` computes nothing, `-1.0 * x` is `-x`)
            coefficients = [rng.choice(FLOAT_CONSTS) for _ in range(rng.randint(3, 4))]
            while abs(coefficients[0]) == 1.0:
                coefficients[0] = rng.choice(FLOAT_CONSTS)
            text, mag = fmt_float(coefficients[0]), abs(coefficients[0])
            for c in coefficients[1:]:
                text = f"({text} * {x.src} {'-' if c < 0 else '+'} {fmt_float(abs(c))})"
                mag = mag * x.mag + abs(c)
            q = None if x.q is None else (len(coefficients) - 1) * x.q + CONST_Q
            e = Expr(text[1:-1], "float32", mag, q, atom=False)
        else:
            bounds = [b for b in (0.25, 0.5, 0.75, 1.0, 1.5) if b < x.mag]
            if kind == "cubic smoothstep":
                if x.mag <= 1.0:
                    return None
                t = self.w.assign(Expr(f"wp.clamp({x.src}, 0.0, 1.0)", "float32", 1.0, join_q(x.q, CONST_Q)), "t")
                e = Expr(f"{t.src} * {t.src} * (3.0 - 2.0 * {t.src})", "float32", 1.0,
                         None if t.q is None else 3 * t.q + 1, atom=False)
            elif not bounds:
                return None
            else:
                hi = rng.choice(bounds)
                lo = rng.choice([-hi, 0.0])
                spelled = rng.choice([f"wp.clamp({x.src}, {fmt_float(lo)}, {fmt_float(hi)})",
                                      f"{rng.choice(['wp.min', 'min'])}({rng.choice(['wp.max', 'max'])}({x.src}, {fmt_float(lo)}), {fmt_float(hi)})"])
                e = Expr(spelled, "float32", hi, join_q(x.q, CONST_Q))
        if e.mag > MAX_FLOAT_MAG:
            return None
        return e, kind

    def math_formula(self, kind: str | None = None, operand: Expr | None = None,
                     nonnegative: bool = False) -> tuple[Expr, str] | None:
        """One of MATH_FORMULAS over named float values, and its name: a hypotenuse (`wp.sqrt(x * x + y
        * y)`), a root mean square, a polar angle (`wp.atan2(y, x)`, exact arguments only: it is
        ill-conditioned near the origin), a polar-to-Cartesian component (`r * wp.cos(theta)`), an
        exponential decay or an oscillation along the grid coordinate (`x * wp.exp(-0.75 * px)`,
        `x * wp.sin(2.0 * px + 0.5)`), a Cauchy, Welsch or Geman-McClure loss (`wp.log(1.0 + r * r)`,
        `1.0 - wp.exp(-0.5 * r * r)`, `r2 / (1.0 + r2)`), a gamma correction of a
        value clamped to [0, 1], a fractional part (`x - wp.floor(x)`), a soft minimum
        (`-wp.log(wp.exp(-x) + wp.exp(-y))`). None when the kernel lacks the values it needs. `operand`: the
        value a one-value formula takes (an earlier formula's result: the decibels of a root mean square);
        `nonnegative`: it is never negative (a level then takes no `wp.abs` of it)."""
        rng = self.rng
        kind = kind or rng.choice(MATH_FORMULAS)
        two = kind in ("hypotenuse", "root mean square", "polar angle", "polar to Cartesian", "soft minimum", "soft maximum",
                       "ellipse area", "cylinder volume")
        operands = (operand, None) if operand is not None and not two else \
            self._formula_operands("float32", two, OPERAND_QUANTITY.get(kind))
        if operands is None:
            return None
        x, y = operands
        if kind == "hypotenuse":
            e = Expr(f"wp.sqrt({x.src} * {x.src} + {y.src} * {y.src})", "float32", math.hypot(x.mag, y.mag) + 1e-3, None)
        elif kind == "root mean square":
            e = Expr(f"wp.sqrt(0.5 * ({x.src} * {x.src} + {y.src} * {y.src}))", "float32", max(x.mag, y.mag) + 1e-3, None)
        elif kind == "polar angle":
            if not (x.exact and y.exact):
                return None
            e = Expr(f"wp.atan2({y.src}, {x.src})", "float32", math.pi + 1e-3, None)
        elif kind == "polar to Cartesian":
            theta = bounded_argument(y, 8.0)
            e = Expr(f"{x.src} * wp.{rng.choice(['cos', 'sin'])}({theta.src})", "float32", x.mag, None, atom=False)
        elif kind == "damped oscillation":  # a ringing response along the grid: x e^(-a t) sin(w t + p)
            t = self.w.coordinate(0)
            rate, omega = rng.choice([0.25, 0.5, 0.75]), rng.choice([1.5, 2.0, 3.0])
            e = Expr(f"{x.src} * wp.exp(-{fmt_float(rate)} * {t.src}) * wp.{rng.choice(['sin', 'cos'])}"
                     f"({fmt_float(omega)} * {t.src})", "float32", x.mag, None, atom=False)
        elif kind in ("exponential decay", "oscillation"):
            t = self.w.coordinate(0)
            if kind == "exponential decay":
                rate = rng.choice([0.25, 0.5, 0.75, 1.5])
                e = Expr(f"{x.src} * wp.exp(-{fmt_float(rate)} * {t.src})", "float32", x.mag, None, atom=False)
            else:
                omega, phase = rng.choice([0.5, 1.5, 2.0, 3.0]), rng.choice([0.25, 0.5, 1.0])
                e = Expr(f"{x.src} * wp.{rng.choice(['sin', 'cos'])}({fmt_float(omega)} * {t.src} + {fmt_float(phase)})",
                         "float32", x.mag, None, atom=False)
        elif kind == "Cauchy loss":
            e = Expr(f"wp.log(1.0 + {x.src} * {x.src})", "float32", math.log1p(x.mag * x.mag) + 1e-3, None)
        elif kind in ("Welsch loss", "Geman-McClure loss"):  # robust losses that saturate at 1: outliers stop
            if x.mag > 1.0e3:  # pulling; through the named square people write (one, shared by both)
                return None
            r2 = self.w.assign(Expr(f"{x.src} * {x.src}", "float32", x.mag * x.mag, None, atom=False), "r2")
            src = f"1.0 - wp.exp(-0.5 * {r2.src})" if kind == "Welsch loss" else f"{r2.src} / (1.0 + {r2.src})"
            e = Expr(src, "float32", 1.0 + 1e-3, None, atom=False)
        elif kind == "wrap to a period":  # a coordinate in a periodic box [0, L)
            if x.q is None:
                return None
            periods = [p for p in WRAP_PERIODS if x.q > -math.log2(p) and x.mag > p]
            if not periods:  # within one period already, or on the period's grid: the wrap changes nothing
                return None
            period = rng.choice(periods)
            if rng.random() < 0.4:  # the box's size as an argument
                box = self.w.add_scalar(rng.choice(["period", "box_size", "box_len"]), "float32", period).src
                self.w.retire(box)
            else:
                box = fmt_float(period)
            e = Expr(f"{x.src} - {box} * wp.floor({x.src} / {box})", "float32", period, x.q, atom=False)
        elif kind == "amplitude from decibels":  # dB back to a linear amplitude
            if x.mag > 100.0 or self._grows_with_launch(x):
                return None
            e = Expr(f"wp.pow(10.0, {x.src} / 20.0)", "float32", 10.0 ** (x.mag / 20.0) + 1e-3, None)
        elif kind == "smooth absolute value":  # |x| with a rounded kink: differentiable at 0
            eps = rng.choice(["1.0e-4", "1.0e-6", "0.01"])
            if random.Random(self.w.seed ^ 0x5AB5).random() < 0.35:  # shifted through 0 (pseudo-Huber's form)
                root = {"1.0e-4": "0.01", "1.0e-6": "0.001", "0.01": "0.1"}[eps]
                e = Expr(f"wp.sqrt({x.src} * {x.src} + {eps}) - {root}", "float32", x.mag + 0.1, None, atom=False)
            else:
                e = Expr(f"wp.sqrt({x.src} * {x.src} + {eps})", "float32", x.mag + 0.1, None)
        elif kind == "soft maximum":
            if x.mag > 8.0 or y.mag > 8.0 or self._grows_with_launch(x) or self._grows_with_launch(y):
                return None
            e = Expr(f"wp.log(wp.exp({x.src}) + wp.exp({y.src}))", "float32", max(x.mag, y.mag) + math.log(2.0) + 1e-3, None)
        elif kind == "Reinhard tone map":  # a radiance squeezed into [0, 1)
            lum = self.w.assign(Expr(f"wp.max({x.src}, 0.0)", "float32", x.mag, x.q), "lum")
            e = Expr(f"{lum.src} / (1.0 + {lum.src})", "float32", 1.0, None, atom=False)
        elif kind == "GELU activation":  # x times the normal CDF of x, as transformer layers apply it
            e = Expr(f"0.5 * {x.src} * (1.0 + wp.erf({x.src} * 0.70710678))", "float32", x.mag + 0.2, None, atom=False)
        elif kind == "angle in degrees":
            e = Expr(f"wp.degrees({x.src})", "float32", x.mag * 57.3 + 1e-3, None)
        elif kind == "distance to the nearest integer":  # 0 on the grid, 0.5 halfway: continuous, as a tie is
            if x.q is None or x.q <= 0:  # of a whole number, 0
                return None
            e = Expr(f"wp.abs({x.src} - wp.round({x.src}))", "float32", 0.5, x.q)
        elif kind == "cell index":  # the grid cell a coordinate falls in, as an int
            steps = [h for h in ROUNDING_STEPS + (1.0, 2.0) if x.q is not None and x.q > -math.log2(h)]
            if not steps or x.mag > 1.0e6:
                return None
            h = rng.choice(steps)
            e = Expr(f"int(wp.floor({x.src} * {fmt_float(1.0 / h)}))", "int32", x.mag / h + 1.0, 0)
        elif kind == "ellipse area":  # pi a b, the semi-axes two values
            if x.mag > 1.0e3 or y.mag > 1.0e3:
                return None
            a, b = self._length(x, False, "a"), self._length(y, False, "b")
            e = Expr(f"wp.pi * {a} * {b}", "float32", math.pi * x.mag * y.mag + 1e-3, None, atom=False)
        elif kind == "circle area":
            if x.mag > 1.0e3:
                return None
            e = Expr(f"wp.pi * {x.src} * {x.src}", "float32", math.pi * x.mag * x.mag + 1e-3, None, atom=False)
        elif kind == "sphere surface area":  # 4 pi r^2
            if x.mag > 1.0e3:
                return None
            e = Expr(f"4.0 * wp.pi * {x.src} * {x.src}", "float32", 4.0 * math.pi * x.mag * x.mag + 1e-3, None,
                     atom=False)
        elif kind == "sphere volume":  # 4/3 pi r^3, of a radius that is never negative
            if x.mag > 1.0e2:
                return None
            r = self._length(x, nonnegative, "r")
            e = Expr(f"4.0 * wp.pi * {r} * {r} * {r} / 3.0", "float32", 4.2 * x.mag ** 3 + 1e-3, None, atom=False)
        elif kind == "circumference":  # 2 pi r
            r = self._length(x, nonnegative, "r")
            e = Expr(f"2.0 * wp.pi * {r}", "float32", 2.0 * math.pi * x.mag + 1e-3, None, atom=False)
        elif kind == "cylinder volume":  # pi r^2 h, the radius and the height two values
            if x.mag > 1.0e2 or y.mag > 1.0e3:
                return None
            h = self._length(y, False, "h")
            e = Expr(f"wp.pi * {x.src} * {x.src} * {h}", "float32", math.pi * x.mag * x.mag * y.mag + 1e-3, None,
                     atom=False)
        elif kind == "gamma correction":
            c = self.w.assign(Expr(f"wp.clamp({x.src}, 0.0, 1.0)", "float32", 1.0, join_q(x.q, CONST_Q)), "c")
            e = Expr(f"wp.pow({c.src}, {rng.choice(['2.2', '0.4545'])})", "float32", 1.0 + 1e-3, None)
        elif kind == "fractional part":
            if x.q is None or x.q <= 0:  # a step a rounding error could move; of a whole number, 0
                return None
            e = Expr(f"{x.src} - wp.floor({x.src})", "float32", 1.0, x.q, atom=False)
        elif kind == "soft minimum":
            if x.mag > 8.0 or y.mag > 8.0:
                return None
            e = Expr(f"-wp.log(wp.exp(-{x.operand()}) + wp.exp(-{y.operand()}))", "float32",
                     max(x.mag, y.mag) + math.log(2.0) + 1e-3, None, atom=False)
        else:
            e = self._special_math_formula(kind, x, nonnegative and operand is not None)
            if e is None:
                return None
        if e.mag > MAX_FLOAT_MAG:
            return None
        return e, kind

    def _grows_with_launch(self, e: Expr) -> bool:
        """Whether `e` is a grid coordinate: its bound holds at the check's launch only, and a benchmark's
        launch (thousands of times larger) takes it far past it, so an exponential of it overflows."""
        return e.src in self.w.coordinates

    def _length(self, x: Expr, nonnegative: bool, prefix: str) -> str:
        """`x` as a length (a radius, a depth, a semi-axis, a height): itself where it is never negative,
        else its magnitude in a local (`r = wp.abs(u)`; one local however many formulas take it). A
        circumference or a view height of a signed value was negative for half the inputs."""
        if nonnegative:
            return x.src
        return self.w.assign(Expr(f"wp.abs({x.src})", "float32", x.mag, x.q), prefix).src

    def _special_math_formula(self, kind: str, x: Expr, nonnegative: bool = False) -> Expr | None:
        """One of SPECIAL_MATH_FORMULAS of the named value `x`; None where `x` does not suit it. The
        inverse sines and cosines, and every rounding, read exact operands only: near +-1 the first
        magnify an operand's rounding error without bound, and a rounding flips on one ulp."""
        rng = self.rng
        if kind in ("angle from a cosine", "angle from a sine"):
            if x.q is None:
                return None
            # clamped as people clamp a cosine from a dot product: one ulp out of range is NaN
            fn, bound = ("acos", math.pi) if kind == "angle from a cosine" else ("asin", math.pi / 2)
            return Expr(f"wp.{fn}(wp.clamp({x.src}, -1.0, 1.0))", "float32", bound + 1e-3, None)
        if kind == "arctangent soft limit":  # L * atan(x / L): the identity near 0, never past L * pi / 2
            limit = rng.choice([1.0, 2.0, 4.0])
            if limit == 1.0:
                return Expr(f"wp.atan({x.src})", "float32", math.pi / 2 + 1e-3, None)
            return Expr(f"{fmt_float(limit)} * wp.atan({x.src} / {fmt_float(limit)})", "float32",
                        limit * math.pi / 2 + 1e-3, None, atom=False)
        if kind == "frustum height":  # a camera's view height at a depth, from its vertical field of view
            fov_value = rng.choice([0.75, 1.0, 1.25])  # radians: tan(fov / 2) stays below 0.73
            fov = self.w.add_scalar(rng.choice(["fov", "fov_y", "view_angle"]), "float32", fov_value)
            self.w.retire(fov.src)  # read as the angle alone
            depth = self._length(x, nonnegative, "r")  # a distance, named as the radius beside it is
            return Expr(f"2.0 * {depth} * wp.tan(0.5 * {fov.src})", "float32",
                        2.0 * x.mag * math.tan(0.5 * fov_value) + 1e-3, None, atom=False)
        if kind in ("round up to a multiple", "snap to a grid"):
            steps = [h for h in ROUNDING_STEPS if x.q is not None and x.q > -math.log2(h)]
            if not steps:  # a value on the step's grid already: the rounding would change nothing
                return None
            h = rng.choice(steps)
            fn = "ceil" if kind == "round up to a multiple" else "round"
            if rng.random() < 0.3:  # the caller's cell size or quantum
                step = self.w.add_scalar(rng.choice(["cell_size", "quantum", "grid_step"]), "float32", h).src
                self.w.retire(step)
                src = f"wp.{fn}({x.src} / {step}) * {step}"
            else:  # a literal step: its inverse multiplies, as people write it (`wp.round(x * 4.0) * 0.25`)
                src = f"wp.{fn}({x.src} * {fmt_float(1.0 / h)}) * {fmt_float(h)}"
            return Expr(src, "float32", x.mag + h, round(-math.log2(h)), atom=False)
        if kind == "fractional part toward zero":  # C's fmodf(x, 1.0): keeps the sign of x
            if x.q is None or x.q <= 0:  # of a whole number, 0
                return None
            return Expr(f"{x.src} - wp.trunc({x.src})", "float32", 1.0, x.q, atom=False)
        size = x.src if nonnegative else f"wp.abs({x.src})"
        if kind == "log2 compression":  # a dynamic range squeezed to octaves
            return Expr(f"wp.log2(1.0 + {size})", "float32", math.log2(1.0 + x.mag) + 1e-3, None)
        if kind == "decibels":  # an amplitude in dB, silence floored at -100 dB
            style = random.Random(self.w.seed ^ 0xDB).random()  # a stream of its own: other draws kept
            if style < 0.25:  # as a power: 10 log10 of the square, floored at 1e-10
                return Expr(f"10.0 * wp.log10(wp.max({x.src} * {x.src}, 1.0e-10))", "float32", 100.0 + 1e-3, None,
                            atom=False)
            if style < 0.45:  # a tiny offset keeps log10 finite; the level floored after
                return Expr(f"wp.max(20.0 * wp.log10({size} + 1.0e-12), -100.0)", "float32",
                            max(100.0, 20.0 * math.log10(x.mag + 1e-12)) + 1e-3, None)
            return Expr(f"20.0 * wp.log10(wp.max({size}, 1.0e-5))", "float32", 100.0 + 1e-3, None, atom=False)
        # sphere radius from a volume: v = 4/3 pi r^3
        mag = (0.75 * x.mag / math.pi) ** (1.0 / 3.0) + 1e-3
        if random.Random(self.w.seed ^ 0xC0BE).random() < 0.4:  # the cube root as a power, as often written
            return Expr(f"wp.pow(3.0 * wp.abs({x.src}) / (4.0 * wp.pi), 1.0 / 3.0)", "float32", mag, None)
        return Expr(f"wp.cbrt(0.75 * wp.abs({x.src}) / wp.pi)", "float32", mag, None)

    @functools.cached_property
    def int_breadth(self) -> random.Random:
        """The stream `int_formula` draws INT_FORMULAS_MORE from (one per kernel)."""
        return random.Random(self.w.seed ^ 0x1F0A7)

    def int_formula(self, kind: str | None = None) -> tuple[Expr, str] | None:
        """One of INT_FORMULAS over named int values, and its name: a midpoint (`(a + b) // 2`), the
        remainder that is never negative (`((a % 16) + 16) % 16`, as C's `%` keeps the dividend's
        sign), a round down to a multiple, an absolute difference, a clamp, a sum of squares, a bit field
        (`(a >> 2) & 7`), the low bits (`a & 15`), the blocks of m that cover a count
        (`(wp.abs(a) + 7) // 8`), two fields packed into one (`((a & 15) << 4) | (b & 15)`)."""
        rng = self.rng
        if kind is None:
            kind = rng.choice(INT_FORMULAS)
            if self.int_breadth.random() < INT_FORMULAS_MORE_SHARE:
                kind = self.int_breadth.choice(INT_FORMULAS_MORE)
        operands = self._formula_operands("int32", kind in ("integer midpoint", "absolute difference", "sum of squares",
                                                            "pack two fields", "fixed-point blend",
                                                            "midpoint without overflow", "distance on a ring",
                                                            "saturating add", "fixed-point product"))
        if operands is None:
            return None
        a, b = operands
        if kind == "integer midpoint":
            e = Expr(f"({a.src} + {b.src}) // 2", "int32", (a.mag + b.mag) / 2 + 1, 0, atom=False)
        elif kind == "non-negative remainder":
            m = rng.choice([8, 10, 12, 16, 32])
            # the period a literal, or the caller's (a ring buffer's length, a number of bins)
            period = str(m)
            if rng.random() < 0.3:
                period = self.w.add_scalar(rng.choice(["period", "n_bins", "ring_size"]), "int32", m).src
                self.w.retire(period)  # read as the period alone
            e = Expr(f"(({a.src} % {period}) + {period}) % {period}", "int32", float(m), 0, atom=False)
        elif kind == "round down to a multiple":
            m = rng.choice([4, 8, 16])
            e = Expr(f"({a.src} // {m}) * {m}", "int32", a.mag + m, 0, atom=False)
        elif kind == "absolute difference":
            e = Expr(f"wp.abs({a.src} - {b.src})", "int32", a.mag + b.mag, 0)
        elif kind == "sum of squares":
            e = Expr(f"{a.src} * {a.src} + {b.src} * {b.src}", "int32", a.mag * a.mag + b.mag * b.mag, 0, atom=False)
        elif kind == "bit field":  # bits s.. of a packed value; >> of a negative int shifts its sign in
            shift, width = rng.choice([1, 2, 3, 4]), rng.choice([1, 2, 3, 4])
            e = Expr(f"({a.src} >> {shift}) & {(1 << width) - 1}", "int32", float((1 << width) - 1), 0, atom=False)
        elif kind == "blocks to cover":  # how many blocks of m hold a count: (a + m - 1) // m, a >= 0
            m = rng.choice([4, 8, 16, 32])
            e = Expr(f"(wp.abs({a.src}) + {m - 1}) // {m}", "int32", a.mag / m + 1, 0, atom=False)
        elif kind == "pack two fields":  # two small fields in one int: (a & 15) << 4 | (b & 15)
            bits = rng.choice([3, 4, 5])
            mask = (1 << bits) - 1
            e = Expr(f"(({a.src} & {mask}) << {bits}) | ({b.src} & {mask})", "int32", float((1 << 2 * bits) - 1), 0,
                     atom=False)
        elif kind == "round up to a multiple":  # an allocation padded to whole blocks: ceil(a / m) * m, a >= 0
            m = rng.choice([4, 8, 16, 32])
            e = Expr(f"((wp.abs({a.src}) + {m - 1}) // {m}) * {m}", "int32", a.mag + m, 0, atom=False)
        elif kind == "rounded division":  # a / m to the nearest integer (halves up), not toward minus infinity
            m = rng.choice([4, 8, 10, 16])
            e = Expr(f"({a.src} + {m // 2}) // {m}", "int32", a.mag / m + 1, 0, atom=False)
        elif kind == "fixed-point blend":  # (a * alpha + b * (256 - alpha)) >> 8: a blend in 8-bit fixed point
            alpha = rng.choice([64, 96, 160, 192])  # not 128: equal weights are `(a + b) >> 1`
            if rng.random() < 0.4:  # the weight the caller's
                weight = self.w.add_scalar(rng.choice(["alpha", "blend_weight", "mix_q8"]), "int32", alpha).src
                self.w.retire(weight)
                text = f"({a.src} * {weight} + {b.src} * (256 - {weight})) >> 8"
            else:
                text = f"({a.src} * {alpha} + {b.src} * {256 - alpha}) >> 8"
            e = Expr(text, "int32", max(a.mag, b.mag) + 1, 0, atom=False)
        elif kind == "integer percentage":  # a scaled by p percent in integers: multiply first, then divide
            p = rng.choice([25, 50, 75, 90, 110, 125, 150])
            e = Expr(f"({a.src} * {p}) // 100", "int32", a.mag * p / 100 + 1, 0, atom=False)
        elif kind == "midpoint without overflow":  # a binary search's `lo + (hi - lo) // 2`: no a + b to overflow
            e = Expr(f"{a.src} + ({b.src} - {a.src}) // 2", "int32", max(a.mag, b.mag) + 1, 0, atom=False)
        elif kind == "distance on a ring":  # slots apart on a ring of n, the shorter way round
            n = rng.choice([12, 16, 24, 64])
            d = self.w.assign(Expr(f"(({a.src} - {b.src}) % {n} + {n}) % {n}", "int32", float(n), 0, atom=False), "d")
            e = Expr(f"wp.min({d.src}, {n} - {d.src})", "int32", float(n), 0)
        elif kind == "step on a ring":  # the slot k steps on from a, on a ring of n (a ring buffer's next write)
            n = rng.choice([8, 12, 16, 32])
            if rng.random() < 0.4:
                step = self.w.add_scalar(rng.choice(["step", "shift", "offset"]), "int32", rng.choice([1, 3, -1, 5])).src
            else:
                step = str(rng.choice([1, 2, 7]))
            e = Expr(f"(({a.src} + {step}) % {n} + {n}) % {n}", "int32", float(n), 0, atom=False)
        elif kind == "mirrored index":  # an index reflected at both ends of [0, n): reflect padding, a ping-pong
            n = rng.choice([8, 12, 16, 32])
            p = self.w.assign(Expr(f"({a.src} % {2 * n} + {2 * n}) % {2 * n}", "int32", float(2 * n), 0, atom=False), "p")
            e = Expr(f"wp.min({p.src}, {2 * n - 1} - {p.src})", "int32", float(n), 0)
        elif kind == "signed low field":  # the low 4 (or 8) bits read as a signed number: an int4 weight unpacked
            bits = rng.choice([4, 4, 8])
            half = 1 << (bits - 1)
            e = Expr(f"(({a.src} & {(1 << bits) - 1}) ^ {half}) - {half}", "int32", float(half), 0, atom=False)
        elif kind == "fixed-point product":  # two Q8 fixed-point numbers multiplied: the product shifted back
            if a.mag * b.mag >= 2.0**31:
                return None
            e = Expr(f"({a.src} * {b.src}) >> 8", "int32", a.mag * b.mag / 256 + 1, 0, atom=False)
        elif kind == "saturating add":  # a sum held at a cap (a counter, a histogram in a byte)
            cap = rng.choice([100, 127, 255, 1000])
            e = Expr(f"wp.min({a.src} + {b.src}, {cap})", "int32", a.mag + b.mag, 0)
        elif kind == "shift division":  # a / 2^k rounded down, as a shift (>> floors a negative value too)
            k = rng.choice([1, 2, 3, 4])
            e = Expr(f"{a.src} >> {k}", "int32", a.mag / (1 << k) + 1, 0, atom=False)
        elif kind == "low bits":  # a & (2^k - 1): the non-negative remainder by a power of two, as bits
            mask = rng.choice([3, 7, 15, 31])
            e = Expr(f"{a.src} & {mask}", "int32", float(mask), 0, atom=False)
        else:
            hi = rng.choice([h for h in (8, 16, 25, 50, 63) if h < a.mag] or [0])
            if not hi:
                return None
            lo = rng.choice([-hi, 0])
            e = Expr(f"wp.clamp({a.src}, {lo}, {hi})", "int32", float(hi), 0)
        if e.mag > MAX_INT_MAG:
            return None
        return e, kind

    # ints
    def int_expr(self, depth: int) -> Expr:
        for _ in range(12):
            if depth <= 0 or self.rng.random() < self.leaf_prob:
                e = self.leaf("int32")
            else:
                e = self._int_op(self.rng.choice(["add", "sub", "mul", "div", "floordiv", "mod", "min", "max", "abs"]), depth)
            if e is not None and e.mag <= MAX_INT_MAG:
                return e
        return self.const_int()

    def _int_op(self, op: str, depth: int) -> Expr | None:
        a = self.int_expr(depth - 1)
        if op in ("add", "sub", "mul"):
            b = self.int_expr(depth - 1)
            if self.degenerate(a, b, same_ok=op == "mul"):
                return None
            sym = {"add": "+", "sub": "-", "mul": "*"}[op]
            if self.folds(a, sym, b):
                return None
            mag = a.mag * b.mag if op == "mul" else a.mag + b.mag
            return Expr(f"{a.operand()} {sym} {b.operand()}", "int32", mag, 0, atom=False)
        if a.lit:
            return None
        if op in ("div", "floordiv", "mod"):
            c = self.rng.choice([2, 3, 4, 5, 7, 8, 16])  # a person divides by a positive constant
            sym = {"div": "/", "floordiv": "//", "mod": "%"}[op]
            mag = a.mag if op != "mod" else float(abs(c))
            return Expr(f"{a.operand()} {sym} {c if c > 0 else f'({c})'}", "int32", mag + 1, 0, atom=False)
        if op in ("min", "max"):
            b = self.int_expr(depth - 1)
            if self.degenerate(a, b) or decided_by_range(a, b) or self._absorbs(op, a.src, b.src):
                return None
            return Expr(f"{self.rng.choice(['wp.', ''])}{op}({a.src}, {b.src})", "int32", max(a.mag, b.mag), 0)
        if a.src.startswith("wp.abs(") or self._never_negative(a.src):
            return None
        return Expr(f"wp.abs({a.src})", "int32", a.mag, 0)

    # booleans: comparisons of exact values only (see the module docstring)
    def compare(self, depth: int = 1) -> Expr:
        for _ in range(8):
            if self.rng.random() < 0.7 or not self.w.visible("int32"):
                a = self.float_expr(depth, exact=True)
                b = self.float_expr(max(depth - 1, 0), exact=True)
            else:
                a, b = self.int_expr(depth), self.int_expr(max(depth - 1, 0))
            if self.degenerate(a, b) or _same_names(a.src, b.src):
                continue
            op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="] if a.type == "int32" else ["<", "<=", ">", ">="])
            a, op, b = self._plain_comparison(a, op, b)
            cond = Expr(f"{a.src} {op} {b.src}", "bool", 1.0, 0, atom=False)
            self.w.note_comparison(cond.src, a.src, op, b.src)
            tree, values = self.w._parsed_expr(cond.src), self.w.local_values()
            if realism.comparison_cancels(tree, values) or realism.compares_with_own_operand(tree, values):
                continue  # `x + t >= t` is `x >= 0`; `max(a, b) >= a` always holds
            if not self.w.launch_constant(cond.src):
                return cond
        return self._fallback_compare()

    def _plain_comparison(self, a: Expr, op: str, b: Expr) -> tuple[Expr, str, Expr]:
        """`a op b` as a person writes it: the literal on the right (`x > 1.5`, not `1.5 < x`) and a
        negation moved into it (`x >= -1.5`, not `-x <= 1.5`)."""
        if a.lit and not b.lit:
            a, op, b = b, _FLIPPED_COMPARISON[op], a
        if b.lit and a.src.startswith("-"):
            tree = self.w._parsed_expr(a.src)
            if isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.USub):
                inner = a.src[1:]
                if inner.startswith("(") and inner.endswith(")") and _balanced(inner[1:-1]):
                    inner = inner[1:-1]
                value = b.src[1:] if b.src.startswith("-") else f"-{b.src}"
                a = Expr(inner, a.type, a.mag, a.q, atom=False)
                b = Expr(value, b.type, b.mag, b.q, atom=not value.startswith("-"), lit=True)
                op = _FLIPPED_COMPARISON[op]
        return a, op, b

    def _fallback_compare(self) -> Expr:
        for name in self.loads:
            spec = self.w.arg(name)
            if spec.dtype == "float32":
                # a threshold strictly inside the input range, on the input grid
                mid = (spec.low + spec.high) / 2
                t = self.rng.choice([mid, mid + (spec.high - mid) / 2, mid - (mid - spec.low) / 2])
                return Expr(f"{self.w.load(name).src} > {fmt_float(t)}", "bool", 1.0, 0, atom=False)
        return Expr(f"{self.w.tid_names[0]} % 2 == 0", "bool", 1.0, 0, atom=False)

    def condition(self, depth: int = 1) -> Expr:
        for _ in range(4):
            r = self.rng.random()
            if r < 0.6:
                return self.compare(depth)
            if r < 0.9:
                a, b = self.compare(depth), self.compare(depth)
                if a.src == b.src:
                    continue
                op = self.rng.choice(["and", "or"])
                cond = Expr(f"{a.operand()} {op} {b.operand()}", "bool", 1.0, 0, atom=False)
                if realism.redundant_tests(self.w._parsed_expr(cond.src)):
                    continue  # `a <= b and b >= a`, `x > 1.0 and x > -1.0`
                # `(a) op (b)` (comparisons are never atoms): its value combines theirs
                combines = (op, a.src, b.src) if not (a.atom or b.atom) else None
            else:  # `not` over a compound test (over one comparison a person flips the comparison)
                a, b = self.compare(depth), self.compare(depth)
                if a.src == b.src:
                    continue
                op = self.rng.choice(["and", "or"])
                inner = f"{a.operand()} {op} {b.operand()}"
                if realism.redundant_tests(self.w._parsed_expr(inner)):
                    continue
                cond = Expr(f"not ({inner})", "bool", 1.0, 0, atom=False)
                combines = None
            if not self.w.launch_constant(cond.src, combines):  # `t != 1 or t <= 4` holds everywhere
                return cond
        return self.compare(depth)

    def where(self, depth: int) -> Expr:
        c = self.compare(1)
        a, b = self.float_expr(depth - 1), self.float_expr(depth - 1)
        while a.src == b.src:  # both arms the same value: the condition would mean nothing
            b = self.float_expr(depth - 1)
        return Expr(f"wp.where({c.src}, {a.src}, {b.src})", "float32", max(a.mag, b.mag), join_q(a.q, b.q))
