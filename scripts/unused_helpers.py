"""Helpers a sample's .cu defines and never uses: device functions (each overload on its own), structs,
enums and constants that nothing else in the program names. A person writing the program would not
define them; a model trained on the samples would learn to. The translator emits a helper only when
the kernel or main() calls it (`cuda_types.snippet` dependencies); this script measures that it does.

    python scripts/unused_helpers.py DIR                 # sample folders (sample_*/<name>.cu)
    python scripts/unused_helpers.py --per-category 50   # freshly generated and translated kernels
    python scripts/unused_helpers.py DIR --compile       # also nvcc's own warnings (-Wall -Wextra)

Prints, per category, the share of programs that define something unused, and what. With --compile,
each program is also compiled (`nvcc -c -arch=sm_90 -Xcompiler -Wall,-Wextra`, in parallel) and its
warnings counted: a local declared and never read (#177-D), set and never read (#550-D), and the host
compiler's.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

# A definition at the start of a line: `struct X`, `enum class X`, `constexpr int X =`, `#define X`,
# or a function (its return type and qualifiers, then `name(`), optionally after a template header.
_TEMPLATE = r"(?:template\s*<[^;{]*?>\s*)?"
_TYPE_DEF = re.compile(r"^" + _TEMPLATE + r"(?:struct|enum class)\s+(?:alignas\(\d+\)\s+)?(\w+)\s*(<[^{;]*>)?\s*[{:]", re.M)
_CONST_DEF = re.compile(r"^(?:static\s+)?constexpr\s+[\w:]+\s+(\w+)\s*=|^#define\s+(\w+)", re.M)
_FUNC_DEF = re.compile(r"^" + _TEMPLATE + r"((?:[\w:<>,*&]+[ \t]+)+?)[*&]?(\w+)\s*\(", re.M)
_NOT_FUNCTIONS = frozenset({"return", "if", "for", "while", "switch", "else", "do", "sizeof", "case"})


@dataclass(frozen=True)
class Definition:
    name: str
    kind: str  # "function", "type" or "constant"
    start: int  # where the definition starts and ends in the comment-free code
    end: int
    arity: tuple[int, int] = (0, 0)  # a function's fewest and most arguments (defaults)


def strip_comments(code: str) -> str:
    """The code with // and /* */ comments and string literals blanked, offsets kept."""
    def blank(m: re.Match) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', blank, code, flags=re.S)


def _matching(code: str, open_at: int) -> int:
    """Index just past the bracket closing the one at `open_at`."""
    pairs = {"(": ")", "{": "}", "<": ">", "[": "]"}
    opener, closer, depth = code[open_at], pairs[code[open_at]], 0
    for i in range(open_at, len(code)):
        if code[i] == opener:
            depth += 1
        elif code[i] == closer:
            depth -= 1
            if depth == 0:
                return i + 1
    return len(code)


def _arguments(code: str, open_paren: int) -> list[str]:
    """The top-level comma-separated arguments inside the parentheses opening at `open_paren`."""
    inner = code[open_paren + 1:_matching(code, open_paren) - 1]
    parts, depth, current = [], 0, []
    for ch in inner:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    if "".join(current).strip():
        parts.append("".join(current))
    return parts


def _block_end(code: str, after: int) -> int:
    """End of the definition whose header ends at `after`: its braced body and a `;` after it, or a
    `;` first (a declaration, a constant)."""
    brace, semi = code.find("{", after), code.find(";", after)
    if brace < 0 or 0 <= semi < brace:
        return semi + 1 if semi >= 0 else len(code)
    end = _matching(code, brace)
    rest = re.match(r"\s*;", code[end:])
    return end + (rest.end() if rest else 0)


def definitions(code: str) -> list[Definition]:
    """What the (comment-free) program defines at file scope."""
    found = []
    for m in _TYPE_DEF.finditer(code):
        found.append(Definition(m.group(1), "type", m.start(), _block_end(code, m.end() - 1)))
    for m in _CONST_DEF.finditer(code):
        name = m.group(1) or m.group(2)
        end = code.find("\n", m.end()) if m.group(2) else code.find(";", m.end()) + 1
        found.append(Definition(name, "constant", m.start(), end if end > 0 else len(code)))
    for m in _FUNC_DEF.finditer(code):
        name, qualifiers = m.group(2), m.group(1).split()
        if name in _NOT_FUNCTIONS or qualifiers[0] in _NOT_FUNCTIONS or qualifiers[0] in ("struct", "enum", "typedef",
                                                                                          "using", "constexpr", "#define"):
            continue
        paren = m.end() - 1
        params = [p for p in _arguments(code, paren) if p.strip() not in ("", "void")]
        required = sum("=" not in p for p in params)
        found.append(Definition(name, "function", m.start(), _block_end(code, _matching(code, paren)),
                                (required, len(params))))
    return found


def unused_definitions(program: str) -> list[str]:
    """What `program` defines and never uses: a name no code outside its own definition mentions; for a
    function, an overload whose number of arguments no call outside it matches. `main` and operators
    are used by the language itself and never listed; a __global__ kernel is used by main()'s launch."""
    code = strip_comments(program)
    defs = definitions(code)
    unused = []
    for d in defs:
        if d.name == "main" or d.name.startswith("operator"):
            continue
        outside = code[:d.start] + " " * (d.end - d.start) + code[d.end:]
        if d.kind != "function":
            if not re.search(rf"\b{re.escape(d.name)}\b", outside):
                unused.append(d.name)
            continue
        uses = list(re.finditer(rf"\b{re.escape(d.name)}\s*(?:<[^;{{}}()]*?>)?\s*\(", outside))
        mentioned = re.search(rf"\b{re.escape(d.name)}\b", outside) is not None
        overloads = [o for o in defs if o.kind == "function" and o.name == d.name]
        if len(overloads) == 1:
            used = mentioned  # a function passed or named without a call counts as used
        else:
            low, high = d.arity
            used = any(low <= len([a for a in _arguments(outside, u.end() - 1) if a.strip()]) <= high for u in uses)
        if not used:
            unused.append(d.name if len(overloads) == 1 else f"{d.name}/{d.arity[1]}")
    return unused


def folder_programs(folder: Path) -> list[tuple[str, str, str]]:
    """(sample, category, .cu text) of every sample folder under `folder`."""
    out = []
    for cu in sorted(folder.glob("sample_*/*.cu")):
        category = cu.parent.name.split("_", 2)[2] if cu.parent.name.count("_") >= 2 else "?"
        out.append((cu.parent.name, category, cu.read_text()))
    return out


def translated_programs(per_category: int, seed: int) -> list[tuple[str, str, str]]:
    """(kernel, category, .cu text) of a run's first `per_category` kernels of every category, through
    the pipeline's own generate and translate stages (reference values do not change the code)."""
    from cuda_production.templates import Tolerance
    from synthesis.record import KernelRecord
    from synthesis.stages import canonical_categories, generate, task_for, translate

    categories = canonical_categories(())
    out = []
    for index in range(per_category * len(categories)):
        record = translate(generate(KernelRecord(task_for(index, categories, seed), seed)), Tolerance())
        if record.ok:
            out.append((record.spec.name, record.task.category, record.standalone.program))
    return out


_WARNING = re.compile(r"warning( #\d+-D)?: (.*)")


def compiler_warnings(program: str, nvcc: str = "nvcc") -> list[str]:
    """nvcc's warnings on `program` (device code and, through -Xcompiler, the host compiler's), each
    with its variable names blanked so that like warnings count together."""
    with tempfile.TemporaryDirectory(prefix="unused_") as tmp:
        source = os.path.join(tmp, "program.cu")
        with open(source, "w") as f:
            f.write(program)
        proc = subprocess.run([nvcc, "-O3", "-std=c++17", "-arch=sm_90", "-c", source, "-o", os.devnull,
                               "-Xcompiler", "-Wall,-Wextra"], capture_output=True, text=True)
    found = []
    for line in (proc.stdout + proc.stderr).splitlines():
        m = _WARNING.search(line)
        if m:
            found.append(re.sub(r'"[^"]*"', '"X"', f"warning{m.group(1) or ''}: {m.group(2)}"))
    if proc.returncode != 0:
        found.append("error: does not compile")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, help="a folder of sample folders")
    parser.add_argument("--per-category", type=int, default=0, help="translate this many kernels per category")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--compile", action="store_true", help="also count nvcc's warnings (needs nvcc)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel nvcc runs")
    args = parser.parse_args(argv)
    if args.folder is None and args.per_category <= 0:
        parser.error("give a folder of samples or --per-category N")
    if args.folder is not None and not args.folder.is_dir():
        print(f"error: {args.folder} is not a folder", file=sys.stderr)
        return 2
    programs = folder_programs(args.folder) if args.folder else translated_programs(args.per_category, args.seed)
    if not programs:
        print(f"error: no sample_*/*.cu under {args.folder}", file=sys.stderr)
        return 2
    total, flagged, names = collections.Counter(), collections.Counter(), collections.defaultdict(collections.Counter)
    for _, category, program in programs:
        unused = unused_definitions(program)
        total[category] += 1
        if unused:
            flagged[category] += 1
            names[category].update(unused)
    print(f"programs defining something unused: {sum(flagged.values())} / {sum(total.values())}")
    for category in sorted(total):
        what = ", ".join(f"{n} x{c}" for n, c in names[category].most_common(4))
        print(f"  {category:18s} {flagged[category]:4d} / {total[category]:<4d} {what}")
    if args.compile:
        if shutil.which("nvcc") is None:
            print("error: --compile needs nvcc on PATH", file=sys.stderr)
            return 2
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            warned = list(pool.map(compiler_warnings, [program for _, _, program in programs]))
        kinds = collections.Counter(w for found in warned for w in found)
        with_warnings = [(name, category) for (name, category, _), found in zip(programs, warned) if found]
        print(f"programs nvcc warns about (-Xcompiler -Wall,-Wextra): {len(with_warnings)} / {len(programs)}")
        for kind, count in kinds.most_common(6):
            print(f"  {count:5d}  {kind}")
        for category, count in sorted(collections.Counter(c for _, c in with_warnings).items()):
            print(f"  {category:18s} {count:4d} / {total[category]}")
    return 0


if __name__ == "__main__":
    try:
        status = main()
    except BrokenPipeError:  # output piped into `head`: what was read is all that was wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 0
    sys.exit(status)
