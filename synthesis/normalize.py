"""Structural fingerprints of kernels: identifiers renamed canonically, literals replaced, spellings
made one.

The fingerprint is the sha256 of `ast.dump(tree, annotate_fields=False)` of the kernel's tree with
every identifier renamed `n0, n1, ...` in order of first appearance, every literal replaced by
its type's name, and each of Warp's two spellings of one thing written as one (SAME_SPELLING:
`wp.float32` as `float`, `wp.min` as `min`, `wp.array[T]` as `wp.array(dtype=T)`): two kernels that
differ only in how they spell a type are one structure (one split, one duplicate). `canonical_dump` writes that text in one pass over the unmodified tree, without
building the renamed tree (it is on the pipeline's per-kernel path); its output is `ast.dump`'s,
character for character.

The same tables give the per-kernel checks (synthesis/realism.py, synthesis/warp_hazards.py) faster
equivalents of `ast.dump`, `ast.walk` and `ast.iter_child_nodes`, and `parse_module` shares one parse
of a kernel's source between them (and, through `take_module_tree`, with Warp: extraction/loader.py).
"""
from __future__ import annotations

import ast
import functools
import hashlib

from synthesis.style import QUALIFIED

# Names that carry structure (Warp builtins and Python keywords-as-functions) keep their identity.
KEEP = {"wp", "float", "int", "range", "min", "max", "abs"}
# `wp.<attr>` spellings written as the bare name (synthesis.style's families)
SAME_SPELLING = {qualified[3:]: bare for bare, qualified in QUALIFIED.items()}
_ARRAY_TYPES = frozenset({"array", "array1d", "array2d", "array3d", "array4d"})

# Per node class: its fields, each with whether it is optional (a class-level default of None, which
# `ast.dump` leaves out, naming every later field `field=value` instead).
_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {
    cls: tuple((f, getattr(cls, f, ...) is None) for f in cls._fields)
    for cls in (getattr(ast, n) for n in dir(ast))
    if isinstance(cls, type) and issubclass(cls, ast.AST)
}


_MISSING = object()


def dump_fields(node: ast.AST, write, value, name_text) -> str:
    """The branch both dumps share for a node without a branch of its own: `Cls(field, ...,
    field=value)` as `ast.dump(annotate_fields=False)` writes it. Child nodes through `write`, other
    list items through `value`, the identifier of a FunctionDef or an arg through `name_text` (quoted)."""
    cls = type(node)
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = tuple((f, getattr(cls, f, ...) is None) for f in cls._fields)
    if not fields:  # operators and contexts: `Add()`, `Load()`
        return f"{cls.__name__}()"
    parts = []
    keywords = False
    for field, optional in fields:
        v = getattr(node, field, _MISSING)
        if v is _MISSING or v is None and optional:
            keywords = True  # every later field is written `field=value`
            continue
        if type(v) is list:
            text = f"[{', '.join([write(x) if isinstance(x, ast.AST) else value(x) for x in v])}]"
        elif isinstance(v, ast.AST):
            text = write(v)
        elif field == "name" and cls is ast.FunctionDef or field == "arg" and cls is ast.arg:
            text = name_text(v)
        else:
            text = repr(v)
        parts.append(f"{field}={text}" if keywords else text)
    return f"{cls.__name__}({', '.join(parts)})"


class _Dump:
    """`ast.dump(node, annotate_fields=False)`, written with per-class field tables; with a `memo`
    (id(node) -> text, for nodes that stay alive), each subtree is written once."""

    def __init__(self, memo: dict[int, str] | None = None) -> None:
        self.memo = memo
        if memo is None:
            self.node = self._node  # no lookup per node: structure_hash writes every kernel's tree

    def name(self, name: str) -> str:
        return name

    def _quoted_name(self, name: str) -> str:
        return repr(self.name(name))

    def node(self, node: ast.AST) -> str:
        text = self.memo.get(id(node))
        if text is None:
            text = self.memo[id(node)] = self._node(node)
        return text

    def _node(self, node: ast.AST) -> str:
        # the children are written here rather than through `value`: one call per node, not two
        cls = type(node)
        if cls is ast.Name:
            return f"Name({self.name(node.id)!r}, {type(node.ctx).__name__}())"
        if cls is ast.Constant:
            return self.constant(node)
        write = self.node
        # the commonest nodes of a kernel written directly, as the loop below writes them (where
        # their optional fields, which the loop would leave out, are None as from the parser)
        if cls is ast.Attribute:
            return f"Attribute({write(node.value)}, {node.attr!r}, {type(node.ctx).__name__}())"
        if cls is ast.Call:
            return (f"Call({write(node.func)}, [{', '.join([write(a) for a in node.args])}], "
                    f"[{', '.join([write(k) for k in node.keywords])}])")
        if cls is ast.Assign and node.type_comment is None:
            return f"Assign([{', '.join([write(t) for t in node.targets])}], {write(node.value)})"
        if cls is ast.Subscript:
            return f"Subscript({write(node.value)}, {write(node.slice)}, {type(node.ctx).__name__}())"
        if cls is ast.BinOp:
            return f"BinOp({write(node.left)}, {type(node.op).__name__}(), {write(node.right)})"
        if cls is ast.keyword and node.arg is not None:  # a keyword's name is the callee's: kept
            return f"keyword({node.arg!r}, {write(node.value)})"
        if cls is ast.arg and node.annotation is not None and node.type_comment is None:
            return f"arg({self.name(node.arg)!r}, {write(node.annotation)})"
        return dump_fields(node, write, self.value, self._quoted_name)

    def constant(self, node: ast.Constant) -> str:
        if node.kind is None:
            return f"Constant({node.value!r})"
        return f"Constant({node.value!r}, {node.kind!r})"

    def value(self, value) -> str:
        if isinstance(value, ast.AST):
            return self.node(value)
        if isinstance(value, list):
            return f"[{', '.join([self.value(v) for v in value])}]"
        return repr(value)


# ---- the canonical dump -------------------------------------------------------------------------
_KEEP_TEXTS = {name: repr(name) for name in KEEP}  # a kept name as the dump writes it
_Name, _Constant, _Attribute, _Call, _Assign, _Subscript, _BinOp, _keyword, _arg, _Load, _AST, _FunctionDef = (
    ast.Name, ast.Constant, ast.Attribute, ast.Call, ast.Assign, ast.Subscript, ast.BinOp, ast.keyword, ast.arg,
    ast.Load, ast.AST, ast.FunctionDef)


def _canonical_writer(rename, name_texts: dict[str, str]):
    """`write(node)`: the canonical dump of `node`. `rename(name)` gives a renamed identifier as the dump
    writes it (quoted); `name_texts` remembers the text of each loaded Name. Written like `_Dump._node`,
    whose output it is (with the renamings), one branch per common node, in order of frequency in a kernel.
    A closure rather than a `_Dump` subclass: no attribute lookups per node."""

    def value(v) -> str:
        if isinstance(v, _AST):
            return write(v)
        if isinstance(v, list):
            return f"[{', '.join([value(x) for x in v])}]"
        return repr(v)

    def write(node) -> str:
        cls = type(node)
        if cls is _Name:
            ctx = type(node.ctx)
            if ctx is _Load:
                text = name_texts.get(node.id)
                if text is None:
                    text = name_texts[node.id] = f"Name({rename(node.id)}, Load())"
                return text
            return f"Name({rename(node.id)}, {ctx.__name__}())"
        if cls is _Attribute:
            base = node.value
            if node.attr in SAME_SPELLING and type(base) is _Name and base.id == "wp":
                return f"Name({_KEEP_TEXTS[SAME_SPELLING[node.attr]]}, {type(node.ctx).__name__}())"
            return f"Attribute({write(base)}, {node.attr!r}, {type(node.ctx).__name__}())"
        if cls is _Call:
            return (f"Call({write(node.func)}, [{', '.join(map(write, node.args))}], "
                    f"[{', '.join(map(write, node.keywords))}])")
        if cls is _Assign and node.type_comment is None:
            return f"Assign([{', '.join(map(write, node.targets))}], {write(node.value)})"
        if cls is _Subscript:
            base = node.value
            if type(base) is _Attribute and base.attr in _ARRAY_TYPES and type(base.value) is _Name \
                    and base.value.id == "wp":  # wp.array[T] written as wp.array(dtype=T)
                return f"Call({write(base)}, [], [keyword('dtype', {write(node.slice)})])"
            return f"Subscript({write(base)}, {write(node.slice)}, {type(node.ctx).__name__}())"
        if cls is _BinOp:
            return f"BinOp({write(node.left)}, {type(node.op).__name__}(), {write(node.right)})"
        if cls is _Constant:
            return f"Constant({type(node.value).__name__!r})"
        if cls is _arg and node.annotation is not None and node.type_comment is None:
            return f"arg({rename(node.arg)}, {write(node.annotation)})"
        if cls is _keyword and node.arg is not None:  # a keyword's name is the callee's: kept
            return f"keyword({node.arg!r}, {write(node.value)})"
        return dump_fields(node, write, value, rename)

    return write


def canonical_dump(tree: ast.AST) -> str:
    """`ast.dump(tree, annotate_fields=False)` of the canonical tree: identifiers renamed `n0, n1, ...`
    in order of first appearance (KEEP excepted), literals replaced by their type's name and spellings
    made one (SAME_SPELLING), written in one pass over the unmodified tree."""
    renamed = dict(_KEEP_TEXTS)
    kept = len(renamed)

    def rename(name: str) -> str:
        text = renamed.get(name)
        if text is None:
            text = renamed[name] = f"'n{len(renamed) - kept}'"
        return text

    return _canonical_writer(rename, {})(tree)


# Fields the grammar fills with identifiers, strings or numbers, never nodes: the walk skips them.
_LEAF_FIELDS = {"id", "attr", "arg", "name", "asname", "module", "level", "type_comment", "kind", "simple",
                "conversion", "tag", "lineno", "rest", "kwd_attrs"}
_LEAF_FIELDS_OF = {ast.Constant: {"value"}, ast.MatchSingleton: {"value"}, ast.Global: {"names"}, ast.Nonlocal: {"names"}}
# Per node class: the fields that can hold nodes, in order.
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f for f in cls._fields if f not in _LEAF_FIELDS and f not in _LEAF_FIELDS_OF.get(cls, ()))
    for cls in _FIELDS
}


class _ModuleTrees:
    """The last few sources' trees (least recently used dropped first), for `parse_module` and
    `take_module_tree`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.trees: dict[str, ast.Module] = {}

    def parse(self, source: str) -> ast.Module:
        tree = self.trees.pop(source, None)
        if tree is None:
            tree = ast.parse(source)
            if len(self.trees) >= self.size:
                del self.trees[next(iter(self.trees))]
        self.trees[source] = tree  # now the most recently used
        return tree

    def take(self, source: str) -> ast.Module | None:
        return self.trees.pop(source, None)


_MODULE_TREES = _ModuleTrees(8)


def parse_module(source: str) -> ast.Module:
    """`ast.parse(source)`, shared: a generated kernel's source is parsed by the hazard check, the
    realism check and structure_hash, one after the other. The tree is shared; callers only read it."""
    return _MODULE_TREES.parse(source)


def take_module_tree(source: str) -> ast.Module | None:
    """The tree `parse_module` holds for `source`, handed over and forgotten (None if it holds none):
    the caller may change it (extraction gives it to Warp instead of Warp parsing the source again);
    a later `parse_module(source)` parses anew."""
    return _MODULE_TREES.take(source)


@functools.lru_cache(maxsize=4096)
def parse_expression(text: str) -> ast.expr:
    """`ast.parse(text, mode="eval").body`, shared like `parse_module`: the generators judge the same
    small expressions (a load, a local's value, a comparison) kernel after kernel. Callers only read
    the tree; one that keys anything by `id()` of its nodes keeps the tree alive while it does."""
    return ast.parse(text, mode="eval").body


def ast_walk(node: ast.AST) -> list[ast.AST]:
    """The nodes `ast.walk(node)` yields, in its order (breadth first), as a list, faster than the
    generator: the realism checks walk every kernel many times. Fields the grammar fills with
    identifiers or numbers only are not looked into."""
    out = [node]
    i = 0
    while i < len(out):
        n = out[i]
        i += 1
        cls = type(n)
        fields = _CHILD_FIELDS.get(cls)
        for field in n._fields if fields is None else fields:
            value = getattr(n, field, None)
            if isinstance(value, list):
                out.extend([item for item in value if isinstance(item, ast.AST)])
            elif isinstance(value, ast.AST):
                out.append(value)
    return out


def ast_children(node: ast.AST) -> list[ast.AST]:
    """`list(ast.iter_child_nodes(node))`, faster."""
    out = []
    fields = _CHILD_FIELDS.get(type(node))
    for field in node._fields if fields is None else fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            out.extend([item for item in value if isinstance(item, ast.AST)])
        elif isinstance(value, ast.AST):
            out.append(value)
    return out


def ast_dump(node: ast.AST, memo: dict[int, str] | None = None) -> str:
    """`ast.dump(node, annotate_fields=False)`, character for character, faster. `memo` (a dict the
    caller keeps while the tree lives) remembers every subtree's text across calls."""
    return _Dump(memo).node(node)


def ast_fields(cls: type) -> tuple[tuple[str, bool], ...]:
    """The fields `ast.dump` writes for node class `cls`, each with whether it is optional."""
    fields = _FIELDS.get(cls)
    return fields if fields is not None else tuple((f, getattr(cls, f, ...) is None) for f in cls._fields)


def child_fields(cls: type) -> tuple[str, ...]:
    """The fields of node class `cls` that can hold nodes, in order (those `ast_walk` looks into)."""
    fields = _CHILD_FIELDS.get(cls)
    return fields if fields is not None else cls._fields


def _same_value(a, b) -> bool:
    if isinstance(a, ast.AST):
        return isinstance(b, ast.AST) and same_tree(a, b)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))
    if isinstance(b, (ast.AST, list)):
        return False
    return repr(a) == repr(b)  # as the dump writes them: 0.0 and -0.0 differ, 1 and True differ


def same_tree(a: ast.AST, b: ast.AST) -> bool:
    """`ast_dump(a) == ast_dump(b)` for trees from the parser, without writing either: two different
    trees usually differ at their roots. (A field the dump leaves out, an optional None, is None on
    both sides or the dumps differ; parsed nodes have every field.)"""
    if a is b:
        return True
    cls = type(a)
    if cls is not type(b):
        return False
    if cls is ast.Name:
        return a.id == b.id and type(a.ctx) is type(b.ctx)
    if cls is ast.Constant:
        return a.kind == b.kind and repr(a.value) == repr(b.value)
    for field, _ in ast_fields(cls):
        if not _same_value(getattr(a, field, None), getattr(b, field, None)):
            return False
    return True


def structure_hash(source: str) -> str:
    """Equal for two kernels that differ only in names, numeric literals and spellings (SAME_SPELLING)."""
    text = canonical_dump(parse_module(source))
    return hashlib.sha256(text.encode()).hexdigest()
