"""Which Warp language constructs a kernel uses, read from its source (parsed, never imported).

`inventory_source(source)` returns, for every `@wp.kernel` in a module, the set of constructs the
kernel needs: those in its own body and, transitively, in the `@wp.func` helpers of the same module
it calls. One construct is one string with a readable name, e.g. `call wp.sin`, `for range`,
`chained comparison`, `array ndim 2`, `array dtype vec3`, `param by-value mat33`,
`augmented assign array element +=`, `module constant wp.constant`. `scripts/coverage.py` compares
the sets of Warp's example kernels with those of generated kernels: a kernel is covered when every
construct it needs is one the generators emit.

The inventory is syntactic and local: types are known only where the source spells them (parameter
annotations, struct fields); a local variable's type is not inferred. Names are normalised where
Warp treats two spellings as one thing (`float` = `wp.float32`, `wp.vec3f` = `wp.vec3`,
`wp.array(dtype=T)` = `wp.array[T]`), never otherwise.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

# Spellings Warp treats as the same type.
TYPE_ALIASES = {
    "float": "float32", "int": "int32", "bool": "bool",
    "float16": "float16", "float32": "float32", "float64": "float64",
    "half": "float16",
    "vec2f": "vec2", "vec3f": "vec3", "vec4f": "vec4",
    "mat22f": "mat22", "mat33f": "mat33", "mat44f": "mat44",
    "quatf": "quat", "transformf": "transform", "spatial_vectorf": "spatial_vector",
    "spatial_matrixf": "spatial_matrix",
}
VALUE_TYPE_PREFIXES = ("vec", "mat", "quat", "transform", "spatial_")
ARRAY_KINDS = ("array", "array1d", "array2d", "array3d", "array4d", "indexedarray", "indexedarray1d",
               "indexedarray2d", "indexedarray3d", "fabricarray", "indexedfabricarray", "tile")
WP_VALUE_CONSTANTS = ("pi", "e", "tau", "inf", "nan", "half_pi", "INF", "NAN", "phi", "log2e", "log10e", "ln2", "ln10")
PY_BUILTINS = ("min", "max", "abs", "int", "float", "bool", "len", "range", "round", "print", "pow", "isinstance",
               "type", "sum", "any", "all", "enumerate", "zip", "reversed")
OPERATORS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
    ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.USub: "unary -", ast.UAdd: "unary +", ast.Not: "not", ast.Invert: "~", ast.And: "and", ast.Or: "or",
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}


@dataclass(frozen=True)
class KernelInventory:
    name: str
    filename: str
    line: int
    constructs: frozenset[str]


@dataclass
class ModuleScope:
    """What a module defines at top level, as far as a kernel can refer to it."""

    funcs: dict[str, ast.FunctionDef] = field(default_factory=dict)
    structs: dict[str, dict[str, ast.expr]] = field(default_factory=dict)  # name -> field -> annotation
    globals: dict[str, str] = field(default_factory=dict)  # name -> construct naming its kind
    imported: set[str] = field(default_factory=set)


def _dotted(node: ast.AST) -> str | None:
    """`wp.types.vector` -> "wp.types.vector"; None for anything but a chain of names."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _decorator(fn: ast.AST, kind: str) -> ast.expr | None:
    for dec in getattr(fn, "decorator_list", ()):
        target = dec.func if isinstance(dec, ast.Call) else dec
        if _dotted(target) in (f"wp.{kind}", f"warp.{kind}"):
            return dec
    return None


def _is_numeric_expr(node: ast.AST, numeric: set[str]) -> bool:
    """Literal arithmetic, other numeric globals, and math/np constants: a plain numeric global."""
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    if isinstance(node, ast.UnaryOp):
        return _is_numeric_expr(node.operand, numeric)
    if isinstance(node, ast.BinOp):
        return _is_numeric_expr(node.left, numeric) and _is_numeric_expr(node.right, numeric)
    if isinstance(node, ast.Name):
        return node.id in numeric
    if isinstance(node, ast.Attribute):
        return _dotted(node) in ("math.pi", "np.pi", "numpy.pi", "math.e", "np.e", "wp.pi")
    if isinstance(node, ast.Call):
        name = _dotted(node.func) or ""
        maths = name.startswith(("math.", "np.", "numpy.")) or name in ("float", "int", "round", "abs", "min", "max")
        return maths and all(_is_numeric_expr(a, numeric) for a in node.args) and not node.keywords
    return False


def module_scope(tree: ast.Module) -> ModuleScope:
    scope = ModuleScope()
    numeric: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _decorator(node, "func") is not None:
            scope.funcs[node.name] = node
        elif isinstance(node, ast.ClassDef) and _decorator(node, "struct") is not None:
            scope.structs[node.name] = {s.target.id: s.annotation for s in node.body
                                        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            scope.imported.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            if value is None:
                continue
            if isinstance(value, ast.Call) and _dotted(value.func) in ("wp.constant", "warp.constant"):
                kind = "module constant wp.constant"
                if value.args and _is_numeric_expr(value.args[0], numeric):
                    numeric.update(t.id for t in targets if isinstance(t, ast.Name))
            elif _is_numeric_expr(value, numeric):
                kind = "module global numeric"
            elif isinstance(value, ast.Call) and _dotted(value.func) in ("wp.vec", "wp.mat", "wp.types.vector",
                                                                          "wp.types.matrix", "wp.quaternion",
                                                                          "wp.types.quaternion", "wp.transformation"):
                kind = "custom value type"
            else:
                kind = "module global other"
            for t in targets:
                if isinstance(t, ast.Name):
                    scope.globals[t.id] = kind
                    if kind == "module global numeric":
                        numeric.add(t.id)
    return scope


def type_name(node: ast.AST | None, scope: ModuleScope) -> str:
    """A readable, normalised name for a type annotation or dtype expression."""
    if node is None:
        return "unannotated"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return "string annotation"
    if isinstance(node, ast.Subscript):
        array = array_type(node, scope)
        return f"array{array[0]}" if array else "generic"
    if isinstance(node, ast.Call):
        array = array_type(node, scope)
        if array:
            return f"array{array[0]}"
        return "type from call"
    dotted = _dotted(node)
    if dotted is None:
        return "type expression"
    last = dotted.split(".")[-1]
    if isinstance(node, ast.Name) and last in scope.structs:
        return "struct"
    if isinstance(node, ast.Name) and scope.globals.get(last) == "custom value type":
        return "custom value type"
    if last in ("Any", "Scalar", "Float", "Int", "Vector", "Matrix", "Quaternion", "Transformation") or dotted.startswith("typing"):
        return "generic"
    if dotted.startswith(("wp.", "warp.")) or isinstance(node, ast.Name) and last in TYPE_ALIASES:
        return TYPE_ALIASES.get(last, last)
    return "imported type"


def array_type(node: ast.AST, scope: ModuleScope) -> tuple[int, str, str] | None:
    """(ndim, dtype name, kind) of an array annotation, or None if `node` names no array."""
    if isinstance(node, ast.Subscript):
        base = _dotted(node.value)
        if base is None or base.split(".")[-1] not in ARRAY_KINDS:
            return None
        kind = base.split(".")[-1]
        dtype = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) else node.slice
        ndim_default = _kind_ndim(kind)
        return ndim_default, type_name(dtype, scope), kind.rstrip("1234d") or kind
    if isinstance(node, ast.Call):
        base = _dotted(node.func)
        if base is None or base.split(".")[-1] not in ARRAY_KINDS:
            return None
        kind = base.split(".")[-1]
        kw = {k.arg: k.value for k in node.keywords}
        dtype = kw.get("dtype", node.args[0] if node.args else None)
        ndim = _kind_ndim(kind)
        if isinstance(kw.get("ndim"), ast.Constant):
            ndim = int(kw["ndim"].value)
        return ndim, type_name(dtype, scope), kind.rstrip("1234d") or kind
    return None


def _kind_ndim(kind: str) -> int:
    for n in "234":
        if kind.endswith(f"{n}d"):
            return int(n)
    return 1


class ConstructCollector(ast.NodeVisitor):
    """Walks one kernel (and the module's helpers it calls), adding each construct it meets."""

    def __init__(self, scope: ModuleScope):
        self.scope = scope
        self.found: set[str] = set()
        self.visited_funcs: set[str] = set()
        self.arrays: set[str] = set()  # names known to be arrays in the function being walked
        self.structs: dict[str, str] = {}  # parameter name -> struct name
        self.in_kernel = False
        self.loop_depth = 0

    def add(self, construct: str) -> None:
        self.found.add(construct)

    # ---- definitions ---------------------------------------------------------------------
    def kernel(self, fn: ast.FunctionDef) -> None:
        dec = _decorator(fn, "kernel")
        if isinstance(dec, ast.Call):
            for k in dec.keywords:
                self.add(f"@wp.kernel option {k.arg}")
        self.in_kernel = True
        self._params(fn, "param")
        self._body(fn.body)

    def helper(self, name: str, call: ast.Call) -> None:
        fn = self.scope.funcs[name]
        self.add("call @wp.func helper")
        n = len(fn.args.args)
        self.add(f"helper params {min(n, 3)}{'+' if n >= 3 else ''}")
        if any(isinstance(a, ast.Starred) for a in call.args):
            self.add("starred call argument")
        if name in self.visited_funcs:
            return
        self.visited_funcs.add(name)
        if _decorator(fn, "func") is not None and isinstance(_decorator(fn, "func"), ast.Call):
            for k in _decorator(fn, "func").keywords:
                self.add(f"@wp.func option {k.arg}")
        if len(fn.decorator_list) > 1:
            self.add("@wp.func extra decorator")
        saved = (self.arrays, self.structs, self.in_kernel, self.loop_depth)
        self.arrays, self.structs, self.in_kernel, self.loop_depth = set(), {}, False, 0
        self._params(fn, "helper param")
        returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
        if any(isinstance(r.value, ast.Tuple) for r in returns):
            self.add("helper returns tuple")
        if not any(r.value is not None for r in returns):
            self.add("helper returns nothing")
        for r in returns:
            if r.value is not None and r is not fn.body[-1]:
                self.add("helper early return")
                break
        self._body(fn.body)
        self.arrays, self.structs, self.in_kernel, self.loop_depth = saved

    def _params(self, fn: ast.FunctionDef, prefix: str) -> None:
        for a in fn.args.args:
            ann = a.annotation
            array = array_type(ann, self.scope) if ann is not None else None
            if array:
                ndim, dtype, kind = array
                self.arrays.add(a.arg)
                self.add(f"{prefix} array ndim {ndim}")
                self.add(f"array dtype {dtype}")
                if kind != "array":
                    self.add(f"array kind {kind}")
                continue
            t = type_name(ann, self.scope)
            if t == "struct":
                struct = _dotted(ann)
                self.structs[a.arg] = struct
                self.add(f"{prefix} struct")
                self._struct_fields(struct)
            elif t.startswith(VALUE_TYPE_PREFIXES) or t == "custom value type":
                self.add(f"{prefix} by-value {t}")
            else:
                self.add(f"{prefix} {t}")
        if fn.args.defaults or fn.args.kw_defaults:
            self.add(f"{prefix} default value")
        if fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
            self.add(f"{prefix} variadic or keyword-only")
        if fn.returns is not None:
            self.add("return annotation")

    def _struct_fields(self, struct: str, depth: int = 0) -> None:
        for ann in self.scope.structs.get(struct, {}).values():
            array = array_type(ann, self.scope)
            if array:
                self.add(f"struct field array ndim {array[0]}")
                self.add(f"array dtype {array[1]}")
                continue
            t = type_name(ann, self.scope)
            if t == "struct" and depth < 4:
                self.add("struct field struct")
                self._struct_fields(_dotted(ann), depth + 1)
            else:
                self.add(f"struct field {t}")

    def _body(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
                continue  # docstring or a string used as a comment
            self.visit(s)

    # ---- statements ----------------------------------------------------------------------
    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            self._target(t, node.value)
        if len(node.targets) > 1:
            self.add("chained assignment")
        if not (isinstance(node.value, ast.Call) and _dotted(node.value.func) == "wp.tid" and not node.value.args):
            self.visit(node.value)  # `i, j = wp.tid()` is its own construct, "wp.tid 2d"


    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.add("annotated local")
        self.add(f"local annotation {type_name(node.annotation, self.scope)}")
        self._target(node.target, node.value)
        if node.value is not None:
            self.visit(node.value)

    def _target(self, t: ast.expr, value: ast.expr | None) -> None:
        if isinstance(t, ast.Tuple):
            if isinstance(value, ast.Call) and _dotted(value.func) == "wp.tid":
                self.add(f"wp.tid {len(t.elts)}d")
                return
            self.add("tuple unpacking")
            for e in t.elts:
                self._target(e, None)
        elif isinstance(t, ast.Name):
            if isinstance(value, ast.Call) and _dotted(value.func) == "wp.tid":
                self.add("wp.tid 1d")
        elif isinstance(t, ast.Subscript):
            base = t.value
            if self._is_array(base):
                self.add("store array element")
            else:
                self.add("assign component by index")
            self._index(t)
        elif isinstance(t, ast.Attribute):
            if isinstance(t.value, ast.Name) and t.value.id in self.structs:
                self.add("struct field write")
            else:
                self.add("assign component by attribute")
            self.visit(t.value)
        else:
            self.add(f"assign to {type(t).__name__}")

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        op = OPERATORS[type(node.op)]
        t = node.target
        if isinstance(t, ast.Subscript) and self._is_array(t.value):
            self.add(f"augmented assign array element {op}=")
            self._index(t)
        elif isinstance(t, ast.Subscript):
            self.add(f"augmented assign component {op}=")
            self._index(t)
        elif isinstance(t, ast.Attribute):
            self.add(f"augmented assign attribute {op}=")
            self.visit(t.value)
        else:
            self.add(f"augmented assign local {op}=")
        self.visit(node.value)

    def visit_For(self, node: ast.For) -> None:
        it = node.iter
        if isinstance(it, ast.Call) and _dotted(it.func) == "range":
            self.add("for range")
            if len(it.args) == 3:
                self.add("range with step")
            for a in it.args:
                self.visit(a)
        elif isinstance(it, ast.Call) and _dotted(it.func) and _dotted(it.func).startswith("wp."):
            self.add(f"for over {_dotted(it.func)}")
            self.visit(it)
        else:
            self.add("for over iterator")
            self.visit(it)
        if not isinstance(node.target, ast.Name):
            self.add("for with tuple target")
        if node.orelse:
            self.add("for-else")
        self.loop_depth += 1
        if self.loop_depth > 1:
            self.add("nested loop")
        self._body(node.body)
        self._body(node.orelse)
        self.loop_depth -= 1

    def visit_While(self, node: ast.While) -> None:
        self.add("while")
        self.visit(node.test)
        self.loop_depth += 1
        if self.loop_depth > 1:
            self.add("nested loop")
        self._body(node.body)
        self._body(node.orelse)
        self.loop_depth -= 1

    def visit_If(self, node: ast.If, is_elif: bool = False) -> None:
        self.add("elif" if is_elif else "if")
        self.visit(node.test)
        self._body(node.body)
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            self.visit_If(node.orelse[0], is_elif=True)
        elif node.orelse:
            self.add("else")
            self._body(node.orelse)

    def visit_Break(self, node: ast.Break) -> None:
        self.add("break")

    def visit_Continue(self, node: ast.Continue) -> None:
        self.add("continue")

    def visit_Return(self, node: ast.Return) -> None:
        if self.in_kernel:
            self.add("early return")
        if node.value is not None:
            if isinstance(node.value, ast.Tuple):
                for e in node.value.elts:
                    self.visit(e)
            else:
                self.visit(node.value)

    def visit_Pass(self, node: ast.Pass) -> None:
        self.add("pass")

    def visit_Expr(self, node: ast.Expr) -> None:
        if not isinstance(node.value, ast.Call):
            self.add("expression statement")
        self.visit(node.value)

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt):
            self.add(f"statement {type(node).__name__}")
        elif isinstance(node, ast.expr) and not isinstance(node, (ast.Constant,)):
            self.add(f"expression {type(node).__name__}")
        super().generic_visit(node)

    # ---- expressions ---------------------------------------------------------------------
    def visit_Call(self, node: ast.Call) -> None:
        name = _dotted(node.func)
        kind = "builtin"
        if name is None:
            if isinstance(node.func, ast.Call):
                self.add("call of a call's result")
                self.visit(node.func)
            else:
                self.add("call of an expression")
                self.visit(node.func)
            kind = "other"
        elif name.startswith(("wp.", "warp.")):
            last = name.split(".")[-1]
            self.add(f"call {name.replace('warp.', 'wp.', 1).removesuffix(last)}{TYPE_ALIASES.get(last, last) if last.endswith('f') else last}")
        elif name in self.scope.funcs:
            self.helper(name, node)
            kind = "helper"
        elif name in PY_BUILTINS:
            self.add(f"call {name}")
        elif name in self.scope.structs:
            self.add("struct constructor")
        elif "." in name:
            self.add("call method or imported attribute")
            kind = "other"
        else:
            self.add("call imported or unknown function")
            kind = "other"
        if node.keywords:
            self.add(f"keyword argument to {kind}")
        for a in node.args:
            self.visit(a)
        for k in node.keywords:
            self.visit(k.value)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        dotted = _dotted(node)
        if dotted and dotted.startswith(("wp.", "warp.")):
            attr = dotted.split(".", 1)[1]
            if attr in WP_VALUE_CONSTANTS:
                self.add(f"wp.{attr}")
            else:
                self.add(f"wp attribute as value {attr}")
            return
        if node.attr == "shape":
            self.add(".shape")
        elif isinstance(node.value, ast.Name) and node.value.id in self.structs:
            self.add("struct field read")
        elif node.attr in ("x", "y", "z", "w"):
            self.add("component .xyzw")
        elif dotted and dotted.split(".")[0] in self.scope.imported:
            self.add("imported attribute")
        else:
            self.add(f"attribute .{node.attr}")
        self.visit(node.value)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            self.visit(node.value)
            self.visit(node.slice)
            return
        if self._is_array(node.value):
            self.add("load array element")
        else:
            self.add("component by index")
        self._index(node)

    def _index(self, node: ast.Subscript) -> None:
        """Array index: how many indices, and whether they are offsets (stencils) or gathers."""
        idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if self._is_array(node.value):
            self.add(f"array index {len(idx)}d")
            for i in idx:
                if isinstance(i, ast.Slice):
                    self.add("array slice")
                elif any(isinstance(n, ast.Subscript) and self._is_array(n.value) for n in ast.walk(i)):
                    self.add("gather through index array")
                elif isinstance(i, ast.BinOp) and isinstance(i.op, (ast.Add, ast.Sub)):
                    self.add("index offset (neighbour)")
        elif len(idx) > 1:
            self.add("component by two indices")
        self.visit(node.value)
        for i in idx:
            if isinstance(i, ast.Slice):
                for part in (i.lower, i.upper, i.step):
                    if part is not None:
                        self.visit(part)
            else:
                self.visit(i)

    def _is_array(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.arrays
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.structs:
            fields = self.scope.structs.get(self.structs[node.value.id], {})
            return node.attr in fields and array_type(fields[node.attr], self.scope) is not None
        return False

    def visit_Name(self, node: ast.Name) -> None:
        kind = self.scope.globals.get(node.id)
        if kind is not None:
            self.add(kind)
        elif node.id in self.scope.structs:
            self.add("struct type as value")
        elif node.id in ("True", "False"):
            self.add("bool literal")

    def visit_Constant(self, node: ast.Constant) -> None:
        v = node.value
        if isinstance(v, bool):
            self.add("bool literal")
        elif isinstance(v, int):
            self.add("int literal")
        elif isinstance(v, float):
            self.add("float literal")
        elif isinstance(v, str):
            self.add("string literal")
        elif v is None:
            self.add("None literal")

    def visit_BinOp(self, node: ast.BinOp) -> None:
        self.add(f"operator {OPERATORS[type(node.op)]}")
        self.visit(node.left)
        self.visit(node.right)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        self.add(f"operator {OPERATORS[type(node.op)]}")
        self.visit(node.operand)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        self.add(f"operator {OPERATORS[type(node.op)]}")
        for v in node.values:
            self.visit(v)

    def visit_Compare(self, node: ast.Compare) -> None:
        if len(node.ops) > 1:
            self.add("chained comparison")
        for op in node.ops:
            self.add(f"operator {OPERATORS[type(op)]}")
        self.visit(node.left)
        for c in node.comparators:
            self.visit(c)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.add("conditional expression")
        self.visit(node.test)
        self.visit(node.body)
        self.visit(node.orelse)

    def visit_Tuple(self, node: ast.Tuple) -> None:
        self.add("tuple literal")
        for e in node.elts:
            self.visit(e)

    def visit_List(self, node: ast.List) -> None:
        self.add("list literal")
        for e in node.elts:
            self.visit(e)


def inventory_source(source: str, filename: str = "<source>") -> list[KernelInventory]:
    """The constructs of every @wp.kernel in `source`, in source order. Raises SyntaxError."""
    tree = ast.parse(source, filename)
    scope = module_scope(tree)
    result = []
    kernels = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and _decorator(n, "kernel") is not None]
    for node in sorted(kernels, key=lambda n: n.lineno):
        collector = ConstructCollector(scope)
        collector.kernel(node)
        result.append(KernelInventory(node.name, filename, node.lineno, frozenset(collector.found)))
    return result
