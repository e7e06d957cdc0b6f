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
* builtin: `min`, `max`, `abs` / `wp.min`, `wp.max`, `wp.abs`;
* scatter add: `wp.atomic_add(a, i, j, v)` / `a[i, j] += v` (and `atomic_sub` / `-=`) as a statement, `a` an
  array parameter of the function and `i, j` not the thread's own index (Warp emits an atomic add for
  both). 13.5% of atomic kernels (scripts/style_tells.py) counted into a bin with `hist[b] += 1` and summed into the same bin with
  `wp.atomic_add(sums, b, v)`. An update of the thread's own element (`out[tid] += v`, a running total
  over launches) is another thing, and an atomic whose result is used has one spelling: neither is in
  the family.
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
    source = _scatter_adds_one_way(source)
    first = _ARRAY.search(source)
    if first is not None:
        as_call = first.group(2) is not None
        source = _ARRAY.sub(lambda m: f"{m.group(1)}(dtype={m.group(2) or m.group(3)})" if as_call
                            else f"{m.group(1)}[{m.group(2) or m.group(3)}]", source)
    source = _names_one_way(source, _SCALAR_TYPE, ("wp.float32", "wp.int32"))
    source = _names_one_way(source, _CAST, ("wp.float32(", "wp.int32("))
    return _names_one_way(source, _BUILTIN, ("wp.min(", "wp.max(", "wp.abs("))


# ---- scatter add: a statement per line, as the generators write them ---------------------------------
_ATOMIC_STATEMENT = re.compile(r"^(\s*)wp\.atomic_(add|sub)\((.*)\)$")
_ELEMENT_UPDATE = re.compile(r"^(\s*)(\w+)\[(.+)\] ([+-])= (.+)$")
_ARRAY_PARAMETER = re.compile(r"(\w+): wp\.(?:array|array[234]d|indexedarray)\b")
_THREAD_INDEX = re.compile(r"^\s*(.+?) = wp\.tid\(\)$")


def _top_level_split(text: str) -> list[str] | None:
    """`text` split at the commas outside brackets and parentheses, each part stripped; None where a
    bracket closes before it opens or stays open (`a) + (b`: not one argument list)."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif ch == "," and depth == 0:
            parts.append(text[start:k].strip())
            start = k + 1
    if depth:
        return None
    parts.append(text[start:].strip())
    return parts


def _scatter_add(line: str, arrays: set[str], own: str | None) -> tuple[str, str, str, str, str, str] | None:
    """(spelling, indent, array, index text, op, value) of a scatter-add statement, the spelling "call"
    or "update"; None for any other line."""
    m = _ATOMIC_STATEMENT.match(line)
    if m is not None:
        args = _top_level_split(m.group(3))
        if args is not None and len(args) >= 3 and args[0] in arrays and ", ".join(args[1:-1]) != own:
            return "call", m.group(1), args[0], ", ".join(args[1:-1]), "+" if m.group(2) == "add" else "-", args[-1]
        return None
    m = _ELEMENT_UPDATE.match(line)
    if m is None or m.group(2) not in arrays:
        return None
    index = _top_level_split(m.group(3))
    if index is None or _top_level_split(m.group(5)) is None or ", ".join(index) == own:
        return None
    return "update", m.group(1), m.group(2), ", ".join(index), m.group(4), m.group(5)


def _scatter_adds_one_way(source: str) -> str:
    """Every scatter add (the family in the module's docstring) spelled as the module's first one."""
    if not ("wp.atomic_add(" in source or "wp.atomic_sub(" in source) or not ("] += " in source or "] -= " in source):
        return source  # one spelling or none (most modules): no search
    lines = source.split("\n")
    found: list[tuple[int, tuple]] = []
    arrays: set[str] = set()
    own: str | None = None
    for k, line in enumerate(lines):
        if line.startswith("def "):
            arrays, own = set(_ARRAY_PARAMETER.findall(line)), None
            continue
        tid = _THREAD_INDEX.match(line)
        if tid is not None:
            own = ", ".join(_top_level_split(tid.group(1)) or [tid.group(1)])
            continue
        statement = _scatter_add(line, arrays, own)
        if statement is not None:
            found.append((k, statement))
    if len({statement[0] for _, statement in found}) < 2:
        return source
    first = found[0][1][0]
    for k, (spelling, indent, array, index, op, value) in found:
        if spelling == first:
            continue
        lines[k] = (f"{indent}wp.atomic_{'add' if op == '+' else 'sub'}({array}, {index}, {value})" if first == "call"
                    else f"{indent}{array}[{index}] {op}= {value}")
    return "\n".join(lines)
