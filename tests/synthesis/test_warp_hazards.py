"""The detector of sources that Warp 1.19 miscompiles, and the generators' redraw of them."""
from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.categories import generate
from synthesis.warp_hazards import global_first_read_in_branch

HAZARD = '''
import warp as wp
C = wp.constant(-1.25)

@wp.kernel
def k(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i]
    r = 0.0
    if x > 1.0:
        r = 1.0
    else:
        if x > 0.0:
            r = C
        else:
            r = C * 2.0
    if C < float(i):
        r = r + 10.0
    out[i] = r
'''


def test_global_first_read_in_nested_branch_then_after_is_found():
    assert global_first_read_in_branch(HAZARD) == "k: C"


def test_global_read_first_at_top_level_is_safe():
    safe = HAZARD.replace("    r = 0.0\n", "    r = C * 0.5\n")
    assert global_first_read_in_branch(safe) is None


def test_global_read_only_inside_one_branch_is_safe():
    safe = HAZARD.replace("    if C < float(i):\n        r = r + 10.0\n", "")
    assert global_first_read_in_branch(safe) is None


def test_module_name_bound_after_a_semicolon_is_found():
    # the check skips the parse of sources without a module-level binding; this one hides it mid-line
    joined = HAZARD.replace("import warp as wp\nC = wp.constant(-1.25)\n", "import warp as wp; C = wp.constant(-1.25)\n")
    assert global_first_read_in_branch(joined) == "k: C"


def test_local_names_are_not_module_names():
    local = HAZARD.replace("C = wp.constant(-1.25)\n", "").replace("    r = 0.0\n", "    r = 0.0\n    C = x\n")
    assert global_first_read_in_branch(local) is None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**62), category=st.sampled_from(["multi_conditional", "combined", "control_flow"]))
def test_generated_kernels_never_contain_the_hazard(seed, category):
    assert global_first_read_in_branch(generate(category, seed).source) is None


def test_a_statement_reads_a_name_as_a_walk_of_it_finds():
    """`_reads` (a search that stops at the first load) answers what a full walk answers, for every
    statement of the planted hazard and of kernels with module constants and structs, and every
    name they hold: loaded, stored, an attribute's or a keyword's name, or absent."""
    import ast

    from synthesis.warp_hazards import _reads

    sources = [HAZARD, generate("particles", 3).source, generate("stencil", 4).source,
               "K = 2\ndef f(a, *b, k=K, **c):\n    del a[K]\n    x.K = f(K=1)\n    return [K for K in b if K], {**c}\n"]
    checked = 0
    for source in sources:
        tree = ast.parse(source)
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {"absent", "dtype", "wp"}
        for stmt in (n for n in ast.walk(tree) if isinstance(n, ast.stmt)):
            for name in names:
                walked = any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
                             for n in ast.walk(stmt))
                assert _reads(stmt, name) == walked
                checked += walked
    assert checked > 50
