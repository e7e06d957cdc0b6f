"""The text-level rewrites of tile code (cuda_production/tiles.py): `at_index` reading a lazy element's
own row and column from a `row * cols + col` index, and `merge_thread_zero_blocks` joining consecutive
thread-0 statements. Property tests: the rewritten code computes what the plain substitution does."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cuda_production.tiles import E, at_index, merge_thread_zero_blocks


def _value(code: str) -> int:
    """A C integer expression of literals (non-negative operands: C's / is Python's //)."""
    assert re.fullmatch(r"[\d\s+*/%()\[\]a-z]*", code), code
    return eval(code.replace("/", "//"), {"__builtins__": {}}, {"w": _Table()})


class _Table:
    """`w[k]` in a template: the index itself, so an element read compares by where it reads."""

    def __getitem__(self, k: int) -> int:
        return k


TEMPLATES = [f"w[{E} / {{cols}}]", f"w[{E} % {{cols}}]", f"w[({E} / {{cols}}) % {{d}}]", f"({E} / {{cols}}) * {{d}} + {E}",
             f"w[{E}] + {E} % {{cols}}", f"{E} / {{cols}} + w[{E} / {{cols}}] * {{d}}", f"w[{E} / {{cols}}{{d}}]"]


@settings(max_examples=300, deadline=None)
@given(template=st.sampled_from(TEMPLATES), cols=st.integers(2, 64), d=st.integers(1, 9), row=st.integers(0, 200),
       data=st.data())
def test_reading_the_row_and_column_of_an_index_keeps_its_value(template, cols, d, row, data):
    """With index = row * cols + col (0 <= col < cols), `E / cols` is row and `E % cols` is col: the
    rewritten element evaluates as the one with the flat index substituted, including a template whose
    divisor only starts with `cols` (`E / 640` for cols 64 is not the row)."""
    col = data.draw(st.integers(0, cols - 1))
    code = template.format(cols=cols, d=d)
    index = f"{row} * {cols} + {col}"
    plain = at_index(code, index)
    rewritten = at_index(code, index, (str(row), cols, str(col)))
    assert _value(rewritten) == _value(plain)


def test_a_transposed_broadcast_column_is_read_by_its_row():
    assert at_index(f"wt[{E} / 6]", "(e3 % 32) * 6 + e3 / 32", ("(e3 % 32)", 6, "e3 / 32")) == "wt[e3 % 32]"


def _run(lines: list[str], thread: int) -> list[str]:
    """What one thread executes of straight-line code made of `if (threadIdx.x == 0)` blocks (braced
    or one statement) and plain statements `x;` (a tiny interpreter for the merge's inputs)."""
    done, k = [], 0
    while k < len(lines):
        text = lines[k].strip()
        if text.startswith("if (threadIdx.x == 0)"):
            if text.endswith("{"):
                end = next(j for j in range(k + 1, len(lines)) if lines[j].strip() == "}")
                body = lines[k + 1:end]
                k = end + 1
            else:
                body = [lines[k + 1]]
                k += 2
            if thread == 0:
                done += [b.strip() for b in body]
        else:
            done.append(text)
            k += 1
    return done


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["plain", "zero", "zero_braced"]), min_size=1, max_size=8))
def test_merging_thread_zero_blocks_keeps_what_each_thread_runs(kinds):
    lines = []
    for n, kind in enumerate(kinds):
        if kind == "plain":
            lines.append(f"    s{n};")
        elif kind == "zero":
            lines += ["    if (threadIdx.x == 0)", f"        a{n};"]
        else:
            lines += ["    if (threadIdx.x == 0) {", f"        b{n};", f"        c{n};", "    }"]
    merged = merge_thread_zero_blocks(lines)
    for thread in (0, 1):
        assert _run(merged, thread) == _run(lines, thread)
    heads = [k for k, line in enumerate(merged) if line.strip().startswith("if (threadIdx.x == 0)")]
    runs = sum(1 for k, kind in enumerate(kinds) if kind != "plain" and (k == 0 or kinds[k - 1] == "plain"))
    assert len(heads) == runs  # one test per run of consecutive thread-0 statements
