"""One spelling per module, as one person writes it.

Warp accepts several spellings of one thing: `wp.array(dtype=float)` and `wp.array[float]`, `float`
and `wp.float32`, `min` and `wp.min`, `float(x)` and `wp.float32(x)`. The generators draw a spelling
wherever they write one, so 85% of kernels mixed them, often within one signature
(`vals: wp.array(dtype=int), x: wp.array[wp.int32], out: wp.array[int]`), which nobody writes and a
model would learn. `consistent_spellings` keeps, per family below, the spelling the module uses first
and rewrites the others to it: the dataset still shows every spelling (the first one is drawn), each
module only one. Only spellings change; Warp compiles both spellings of a family to the same code.
The rewriting is textual (a regular expression per family): it runs on every generated kernel, where
a parse would cost as much as the rest of the realism checks; the tests hold it to the syntax tree.

Families:
* array: `wp.array(dtype=T)` / `wp.array[T]` (and `wp.array2d`...), in annotations;
* scalar type: `float`, `int` / `wp.float32`, `wp.int32`, where a type is written (annotations,
  results, struct fields, `dtype=` arguments);
* cast: `float(x)`, `int(x)` / `wp.float32(x)`, `wp.int32(x)`;
* builtin: `min`, `max`, `abs` / `wp.min`, `wp.max`, `wp.abs`.
"""
from __future__ import annotations

import re

# wp.array(dtype=T) / wp.array[T] (and wp.array2d...), T a dotted name; a call with more than dtype has
# no subscript spelling and is left as it is
_ARRAY = re.compile(r"(?<![\w.])(wp\.array(?:\dd)?)(?:\(dtype=([\w.]+)\)|\[([\w.]+)\])")
# a scalar type where a type is written: an annotation, a result, a dtype, an element or tuple member
_SCALAR_TYPE = re.compile(r"(?:(?<=: )|(?<=-> )|(?<=dtype=)|(?<=\[)|(?<=, ))(float|int|wp\.float32|wp\.int32)(?![\w.(])")
_CAST = re.compile(r"(?<![\w.])(float|int|wp\.float32|wp\.int32)(?=\()")
_BUILTIN = re.compile(r"(?<![\w.])(min|max|abs|wp\.min|wp\.max|wp\.abs)(?=\()")
# bare spelling -> `wp.` spelling: the one table of the name families (normalize.SAME_SPELLING reads it)
QUALIFIED = {"float": "wp.float32", "int": "wp.int32", "min": "wp.min", "max": "wp.max", "abs": "wp.abs"}
_BARE = {q: b for b, q in QUALIFIED.items()}


def _names_one_way(text: str, pattern: re.Pattern, qualified: tuple[str, ...]) -> str:
    """Every match of `pattern` (a bare or `wp.`-qualified name) spelled as the first one is.
    `qualified`: the family's qualified spellings; a module with none of them is left as it is."""
    if not any(q in text for q in qualified):
        return text  # every spelling bare already (most modules): no search
    first = pattern.search(text)
    if first is None:
        return text
    table = QUALIFIED if first.group(1).startswith("wp.") else _BARE
    return pattern.sub(lambda m: table.get(m.group(1), m.group(1)), text)


def consistent_spellings(source: str) -> str:
    """`source` with one spelling per family (see the module's docstring): the one it writes first."""
    first = _ARRAY.search(source)
    if first is not None:
        as_call = first.group(2) is not None
        source = _ARRAY.sub(lambda m: f"{m.group(1)}(dtype={m.group(2) or m.group(3)})" if as_call
                            else f"{m.group(1)}[{m.group(2) or m.group(3)}]", source)
    source = _names_one_way(source, _SCALAR_TYPE, ("wp.float32", "wp.int32"))
    source = _names_one_way(source, _CAST, ("wp.float32(", "wp.int32("))
    return _names_one_way(source, _BUILTIN, ("wp.min(", "wp.max(", "wp.abs("))
