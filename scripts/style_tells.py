"""Four tells of generated code, per category: share of kernels that mix Warp's spellings of one
thing (`wp.array(dtype=float)` beside `wp.array[float]`, `float` beside `wp.float32`, `min` beside
`wp.min`, `float(x)` beside `wp.float32(x)`, `hist[b] += 1` beside `wp.atomic_add(sums, b, v)`), that name a helper or constant with the kernel's hash
(`huber_9b2e5a7617`), or that write an array's extent as a literal in an index, a bound or a guard
(`wp.min(tid + 1, 255)`; a module constant's definition counts too, as tiled kernels' tile sizes do),
or that name an output array generically (`out`, `result`, `res2`) where people name it after what it
holds (`rms`, `u_new`, `soft_min`).

    python scripts/style_tells.py [--per-category 200]

Another revision's generators: `PYTHONPATH=<its checkout> python scripts/style_tells.py`.
"""
from __future__ import annotations

import argparse
import ast
import collections

TELLS = ("mixed_spellings", "hashed_module_names", "literal_extents", "generic_output_names")
# Names that say an array is written, not what it holds (a trailing number is ignored: `res2`).
GENERIC_OUTPUT_NAMES = frozenset({"out", "output", "result", "res", "dst", "y_out", "ret", "tmp"})


def scatter_adds(fn: ast.FunctionDef) -> list[tuple[ast.stmt, str]]:
    """A function's scatter-add statements and their spelling ("call": `wp.atomic_add(a, i, v)` or
    `atomic_sub`; "update": `a[i] += v` or `-=`), `a` an array parameter and `i` not the thread's own
    index (synthesis.style's family, read from the syntax tree)."""
    arrays = {a.arg for a in fn.args.args if a.annotation is not None and ast.unparse(a.annotation).startswith("wp.array")}
    own = next((ast.unparse(n.targets[0]).strip("()") for n in ast.walk(fn)
                if isinstance(n, ast.Assign) and ast.unparse(n.value) == "wp.tid()"), None)
    found = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and ast.unparse(node.value.func) in ("wp.atomic_add", "wp.atomic_sub") and len(node.value.args) >= 3 \
                and isinstance(node.value.args[0], ast.Name) and node.value.args[0].id in arrays \
                and ", ".join(ast.unparse(a) for a in node.value.args[1:-1]) != own:
            found.append((node, "call"))
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Add, ast.Sub)) \
                and isinstance(node.target, ast.Subscript) and isinstance(node.target.value, ast.Name) \
                and node.target.value.id in arrays and ast.unparse(node.target.slice).strip("()") != own:
            found.append((node, "update"))
    return found


def mixed_spellings(source: str) -> bool:
    """Whether one module writes two spellings of one family."""
    seen: dict[str, set[str]] = collections.defaultdict(set)
    tree = ast.parse(source)
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef):
            seen["scatter add"].update(spelling for _, spelling in scatter_adds(fn))
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            for m in ast.walk(node.annotation):
                if isinstance(m, ast.Call) and ast.unparse(m.func).startswith("wp.array"):
                    seen["array"].add("call")
                elif isinstance(m, ast.Subscript) and ast.unparse(m.value).startswith("wp.array"):
                    seen["array"].add("subscript")
                elif isinstance(m, ast.Name) and m.id in ("float", "int"):
                    seen["scalar"].add("bare")
                elif isinstance(m, ast.Attribute) and ast.unparse(m) in ("wp.float32", "wp.int32"):
                    seen["scalar"].add("wp")
        elif isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            for family, bare in (("builtin", ("min", "max", "abs")), ("cast", ("float", "int"))):
                if called in bare:
                    seen[family].add("bare")
                elif called.startswith("wp.") and called[3:] in bare + ("float32", "int32") and \
                        (family == "builtin") == (called[3:] in bare):
                    seen[family].add("wp")
    return any(len(styles) > 1 for styles in seen.values())


def hashed_module_names(source: str, kernel_name: str) -> bool:
    """Whether a helper or module constant carries the kernel's hash."""
    suffix = kernel_name.rsplit("_", 1)[-1].lower()
    tree = ast.parse(source)
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name != kernel_name]
    names += [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)]
    return any(suffix in name.lower() for name in names)


def literal_extents(source: str, extents: set[int]) -> bool:
    """Whether an extent (or extent - 1) above 8 is written as a literal in an index, call, comparison
    or arithmetic. A tile's `shape=` is not counted: Warp needs it at compile time, so it is never read
    from an array (a literal or a constant are its only spellings)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).startswith("wp.tile_"):
            node.keywords = [k for k in node.keywords if k.arg != "shape"]
    for node in ast.walk(tree):
        if isinstance(node, (ast.Subscript, ast.Compare, ast.Call, ast.BinOp)):
            if any(isinstance(m, ast.Constant) and type(m.value) is int and m.value > 8 and m.value in extents
                   for m in ast.walk(node)):
                return True
    return False


def generic_output_names(output_names: list[str]) -> bool:
    """Whether an output array's name says only that it is written (`out`, `result2`)."""
    return any(name.rstrip("0123456789") in GENERIC_OUTPUT_NAMES for name in output_names)


def tells(spec) -> dict[str, bool]:
    extents = set(spec.dim) | {d - 1 for d in spec.dim}
    for a in spec.args:
        extents |= set(a.shape) | {d - 1 for d in a.shape}
    return {"mixed_spellings": mixed_spellings(spec.source),
            "hashed_module_names": hashed_module_names(spec.source, spec.name),
            "literal_extents": literal_extents(spec.source, extents),
            "generic_output_names": generic_output_names([a.name for a in spec.args if a.role in ("output", "inout")])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-category", type=int, default=200)
    args = parser.parse_args()
    from synthesis.categories import CATEGORY_NAMES, generate

    total = collections.Counter()
    print(f"{'category':18s}" + "".join(f"{t:>22s}" for t in TELLS))
    for category in CATEGORY_NAMES:
        counts = collections.Counter()
        for seed in range(args.per_category):
            counts.update(k for k, v in tells(generate(category, seed)).items() if v)
        total.update(counts)
        print(f"{category:18s}" + "".join(f"{counts[t] / args.per_category:22.1%}" for t in TELLS))
    n = args.per_category * len(CATEGORY_NAMES)
    print(f"{'ALL':18s}" + "".join(f"{total[t] / n:22.1%}" for t in TELLS))


if __name__ == "__main__":
    main()
