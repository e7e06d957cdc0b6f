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


def test_local_names_are_not_module_names():
    local = HAZARD.replace("C = wp.constant(-1.25)\n", "").replace("    r = 0.0\n", "    r = 0.0\n    C = x\n")
    assert global_first_read_in_branch(local) is None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**62), category=st.sampled_from(["multi_conditional", "combined", "control_flow"]))
def test_generated_kernels_never_contain_the_hazard(seed, category):
    assert global_first_read_in_branch(generate(category, seed).source) is None
