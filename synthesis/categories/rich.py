"""What the physics-style categories (stencil, transform, particles, reduction) add to KernelWriter.

Real Warp modules name their constants at module level (`wp.constant` or plain numbers), pass
vectors, matrices, quaternions and transforms by value and group arguments in `@wp.struct`s
(`@wp.kernel(...)` options are KernelWriter's). `RichKernelWriter` records these next to the kernel: the finished
`KernelSpec.source` is the module text (constants, struct classes, helpers, kernel), and a struct
argument is one `ArgSpec` with role "struct" whose `fields` are the struct's members in declaration
order (see `synthesis/spec.py`).
"""
from __future__ import annotations

import dataclasses
import random
import re

from synthesis.exprgen import CONST_Q, Expr, KernelWriter, fmt_float, reads
from synthesis.dtypes import dtype as lookup_dtype
from synthesis.spec import ArgSpec, KernelSpec


def grid_value(rng: random.Random, low: float, high: float, q: int = CONST_Q) -> float:
    """A multiple of 2**-q in [low, high], never 0 (exactly representable in float32)."""
    step = 2.0 ** -q
    while True:
        v = rng.randint(int(low / step), int(high / step)) * step
        if v != 0.0:
            return v


@dataclasses.dataclass
class StructField:
    name: str
    annotation: str
    spec: ArgSpec


class RichKernelWriter(KernelWriter):
    """A KernelWriter that also writes module constants, structs and by-value parameters."""

    def __init__(self, rng: random.Random, name: str, category: str, seed: int, dim: tuple[int, ...]):
        super().__init__(rng, name, category, seed, dim)
        self.module_constants: dict[str, str] = {}  # name -> module-level definition line
        self.constant_exprs: dict[str, Expr] = {}
        self.structs: dict[str, list[StructField]] = {}  # class name -> fields
        self.struct_params: dict[str, str] = {}  # parameter name -> class name
        self.field_specs: dict[str, ArgSpec] = {}  # "param.field" -> the field's ArgSpec

    # ---- module level -------------------------------------------------------------------
    def add_constant(self, name: str, value: float | int, style: str | None = None) -> Expr:
        """A module-level constant, `NAME = wp.constant(v)` or `NAME = v`; readable as an Expr.

        Asking again for a name already defined returns the first definition (one value per name).
        """
        if name in self.constant_exprs:
            return self.constant_exprs[name]
        style = style or self.rng.choice(["wp.constant", "plain"])
        text = str(value) if isinstance(value, int) else fmt_float(value)
        self.module_constants[name] = f"{name} = wp.constant({text})" if style == "wp.constant" else f"{name} = {text}"
        if isinstance(value, int):
            expr = Expr(name, "int32", float(abs(value)), 0)
        else:
            # the binary places the value needs (None for one no power of two makes whole: 0.1)
            q = next((k for k in range(0, 30) if float(value) * 2.0**k == int(float(value) * 2.0**k)), None)
            expr = Expr(name, "float32", abs(float(value)), q)
        self.feature("module constants")
        self.constant_exprs[name] = expr
        return expr

    # ---- arguments -----------------------------------------------------------------------
    def add_value(self, hint: str, dtype: str, values: tuple[float, ...]) -> Expr:
        """A vector/matrix/quaternion/transform parameter passed by value (components in Warp order)."""
        assert len(values) == lookup_dtype(dtype).width, (dtype, values)
        name = self._unique(hint)
        mag = max(abs(v) for v in values)
        self.args.append(ArgSpec(name, dtype, "scalar", (), -mag, mag, 0, value=tuple(float(v) for v in values)))
        self._by_name[name] = self.args[-1]
        self.annotations.append(f"{name}: wp.{dtype}")
        expr = Expr(name, dtype, mag, CONST_Q)
        self.scopes[0][name] = expr
        return expr

    def add_struct(self, class_name: str, param_hint: str, fields: list[StructField]) -> str:
        """A `@wp.struct` class and a kernel parameter of that type; returns the parameter name."""
        name = self._struct_param(class_name, param_hint, fields, "struct", (), class_name)
        self.struct_params[name] = class_name
        self.feature(f"struct {class_name}")
        return name

    def add_records(self, class_name: str, param_hint: str, fields: list[StructField], shape: tuple[int, ...]) -> str:
        """A `@wp.struct` class of by-value members and a kernel parameter `wp.array(dtype=class)`: an
        array of records, read and written `name[i].member`; returns the parameter name. Each member's
        spec (an array of `shape`) gives its role and input range; the array's role follows at finish."""
        name = self._struct_param(class_name, param_hint, fields, "input", tuple(shape), f"wp.array(dtype={class_name})")
        self.feature(f"array of struct {class_name}")
        return name

    def _struct_param(self, class_name: str, param_hint: str, fields: list[StructField], role: str,
                      shape: tuple[int, ...], annotation: str) -> str:
        """The struct class and a parameter of `annotation` holding it; its members readable as `name.member`."""
        self.structs[class_name] = fields
        name = self._unique(param_hint)
        self.args.append(ArgSpec(name, class_name, role, shape))
        self._by_name[name] = self.args[-1]
        self.annotations.append(f"{name}: {annotation}")
        for f in fields:
            self.field_specs[f"{name}.{f.name}"] = dataclasses.replace(f.spec, name=f.name)
        return name

    def arg(self, name: str) -> ArgSpec:
        if name in self.field_specs:
            return self.field_specs[name]
        return super().arg(name)

    # ---- output ---------------------------------------------------------------------------
    def finish(self, summary: str) -> KernelSpec:
        spec = super().finish(summary)
        used = "\n".join(self.lines + self.helpers)
        constants = [line for name, line in self.module_constants.items() if reads(name).search(used)]
        structs = []
        for class_name, fields in self.structs.items():
            if any(a.dtype == class_name for a in spec.args):
                body = "\n".join(f"    {f.name}: {f.annotation}" for f in fields)
                structs.append(f"@wp.struct\nclass {class_name}:\n{body}")
        preamble = ("\n".join(constants) + "\n\n\n" if constants else "") + "".join(s + "\n\n\n" for s in structs)
        imports = self.import_block()  # the imports stay first
        source = imports + preamble + spec.source[len(imports):]
        args = tuple(self._finish_struct(a) if a.role == "struct" or a.dtype in self.structs else a for a in spec.args)
        return dataclasses.replace(spec, source=source, args=args)

    def _finish_struct(self, arg: ArgSpec) -> ArgSpec:
        fields = []
        for f in self.structs[arg.dtype]:
            fs = self.field_specs[f"{arg.name}.{f.name}"]
            if fs.role != "scalar":
                bound = max(self.bounds.get(f"{arg.name}.{f.name}", 0.0), abs(fs.low), abs(fs.high), 1.0)
                fs = dataclasses.replace(fs, bound=bound)
            fields.append(fs)
        if arg.role == "struct":
            return dataclasses.replace(arg, fields=tuple(fields))
        # an array of records: an output if every member starts at zero, inout if any is written
        roles = {f.role for f in fields}
        role = "output" if roles == {"output"} else "inout" if roles & {"output", "inout"} else "input"
        return dataclasses.replace(arg, role=role, low=0.0, high=0.0, grid_bits=0, bound=1.0, fields=tuple(fields))


def record_member(name: str, dtype: str, role: str, shape: tuple[int, ...], low: float = -1.0, high: float = 1.0,
                  grid_bits: int = 10) -> StructField:
    """A by-value member of a record (`pos: wp.vec3`), described as the array of `shape` its values
    across the records form."""
    ann = {"float32": "float", "int32": "int"}.get(dtype, f"wp.{dtype}")
    return StructField(name, ann, ArgSpec(name, dtype, role, tuple(shape), low, high, grid_bits))


def struct_array(name: str, dtype: str, role: str, shape: tuple[int, ...], low: float = -1.0, high: float = 1.0,
                 grid_bits: int = 10) -> StructField:
    elem = {"float32": "float", "int32": "int"}.get(dtype, f"wp.{dtype}")
    ann = f"wp.array(dtype={elem})" if len(shape) == 1 else f"wp.array{len(shape)}d(dtype={elem})"
    if role == "index":
        grid_bits = 0
    return StructField(name, ann, ArgSpec(name, dtype, role, tuple(shape), low, high, grid_bits))


def struct_value(name: str, dtype: str, value) -> StructField:
    """A scalar or by-value field: float32/int32 (`value` a number) or a vector type (a tuple)."""
    ann = {"float32": "float", "int32": "int"}.get(dtype, f"wp.{dtype}")
    if isinstance(value, tuple):
        mag = max(abs(v) for v in value)
        return StructField(name, ann, ArgSpec(name, dtype, "scalar", (), -mag, mag, 0, value=tuple(float(v) for v in value)))
    return StructField(name, ann, ArgSpec(name, dtype, "scalar", (), value, value, 0, value=value))


def field_expr(param: str, f: StructField) -> Expr:
    spec = f.spec
    if isinstance(spec.value, tuple):
        return Expr(f"{param}.{f.name}", spec.dtype, max(abs(v) for v in spec.value), CONST_Q)
    return Expr(f"{param}.{f.name}", spec.dtype, float(abs(spec.value)), 0 if spec.dtype == "int32" else CONST_Q)


_SELF_DIFF = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*(?:\[[^\]]*\])?) - \1(?![\w\[.])")
_SAME_ARGS = re.compile(r"(?:min|max)\(([^,()]+), \1\)")
_LITERAL_CALL = re.compile(r"wp\.(?!constant)\w+\(-?[\d.]+\)|\(-?[\d.]+ [-+*/] -?[\d.]+\)|-\(-")


def degenerate(src: str) -> bool:
    """`x - x`, `min(x, x)`, a builtin of a literal, literal arithmetic, `-(-x)`: code nobody writes."""
    return bool(_SELF_DIFF.search(src) or _SAME_ARGS.search(src) or _LITERAL_CALL.search(src))


def draw(make, tries: int = 8):
    """An expression from `make()` that is not degenerate, or None after `tries` attempts."""
    for _ in range(tries):
        e = make()
        if not degenerate(e.src):
            return e
    return None

