"""Generators' numbered locals given the plain names people write (synthesis.naming)."""
import ast
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.categories import CATEGORIES, CATEGORY_NAMES, DrawRandom, generate
from synthesis.naming import fresh_name, plain_module_names, plain_names, untaken
from synthesis.normalize import canonical_dump


def _kernel(body: str, params: str = "x: wp.array(dtype=float), out: wp.array(dtype=float)") -> str:
    lines = "\n".join("    " + line for line in body.strip().splitlines())
    return f"@wp.kernel\ndef k({params}):\n    tid = wp.tid()\n{lines}\n"


def test_a_free_name_loses_its_number():
    source = _kernel(f"{fresh_name('acc', 3)} = x[tid] * 2.0\nout[tid] = {fresh_name('acc', 3)}")
    assert plain_names(source) == _kernel("acc = x[tid] * 2.0\nout[tid] = acc")


def test_a_name_taken_by_an_array_takes_the_value_form():
    params = "x: wp.array(dtype=float), shrunk: wp.array(dtype=float)"
    source = _kernel(f"{fresh_name('shrunk', 2)} = x[tid] - 0.5\nshrunk[tid] = {fresh_name('shrunk', 2)}", params)
    assert "shrunk_val = x[tid] - 0.5\n    shrunk[tid] = shrunk_val" in plain_names(source)


def test_a_prefix_with_its_own_alternatives_uses_them():
    source = _kernel(f"it = int(0)\n{fresh_name('it', 5)} = int(1)\nout[tid] = float(it + {fresh_name('it', 5)})")
    assert "iters = int(1)" in plain_names(source)


def test_several_of_one_prefix_are_numbered_from_one():
    source = _kernel(f"{fresh_name('acc', 4)} = x[tid]\n{fresh_name('acc', 9)} = 2.0 * x[tid]\n"
                     f"out[tid] = {fresh_name('acc', 4)} + {fresh_name('acc', 9)}")
    assert plain_names(source) == _kernel("acc1 = x[tid]\nacc2 = 2.0 * x[tid]\nout[tid] = acc1 + acc2")


def test_python_and_cuda_names_are_not_taken():
    source = _kernel(f"{fresh_name('max', 1)} = x[tid]\n{fresh_name('floor', 2)} = x[tid] - 1.0\n"
                     f"out[tid] = {fresh_name('max', 1)} + {fresh_name('floor', 2)}")
    renamed = plain_names(source)
    assert "max_val = x[tid]" in renamed and "floor_val = x[tid] - 1.0" in renamed


def test_module_level_names_are_not_taken():
    source = "SCALE = wp.constant(2.0)\n\n" + _kernel(f"{fresh_name('SCALE', 1)} = x[tid]\nout[tid] = {fresh_name('SCALE', 1)} * SCALE")
    assert "SCALE_val = x[tid]" in plain_names(source)


def test_each_function_is_named_on_its_own():
    helper = "@wp.func\ndef f(r: float) -> float:\n    return r * r\n\n"
    source = helper + _kernel(f"{fresh_name('r', 2)} = x[tid] - 1.0\nout[tid] = f({fresh_name('r', 2)})")
    assert "    r = x[tid] - 1.0\n    out[tid] = f(r)" in plain_names(source)


def _function_dumps(source: str) -> list[str]:
    """Each function's canonical dump (identifiers renamed by first appearance within it): equal
    before and after a renaming exactly when the renaming is one-to-one inside every function."""
    return [canonical_dump(fn) for fn in ast.parse(source).body if isinstance(fn, ast.FunctionDef)]


@settings(max_examples=60, deadline=None)
@given(category=st.sampled_from(CATEGORY_NAMES), seed=st.integers(0, 2**31))
def test_renaming_keeps_every_function_the_same_program(category, seed):
    module, _ = CATEGORIES[category]
    drawn = module.generate(DrawRandom(f"{category}:{seed}"), "k_test", seed).source
    renamed = plain_names(drawn)
    assert "__" not in renamed
    assert _function_dumps(renamed) == _function_dumps(drawn)


def test_generated_kernels_rarely_number_a_local():
    """Before plain names, half the kernels numbered a local (`acc1`, `lo3`); what stays numbered is
    a series (`acc1`, `acc2`) or a name taken in both its plain and `_val` forms."""
    numbered = total = 0
    for category in CATEGORY_NAMES:
        module, _ = CATEGORIES[category]
        for seed in random.Random(category).sample(range(10**6), 20):
            drawn = module.generate(DrawRandom(f"{category}:{seed}"), "k_test", seed).source
            before = set(re.findall(r"\b[A-Za-z]\w*\b", drawn))
            prefixes = set(re.findall(r"\b([A-Za-z]\w*?)__\d+\b", drawn))
            new_names = set(re.findall(r"\b[A-Za-z]\w*\b", plain_names(drawn))) - before
            total += 1
            numbered += any(m is not None and m.group(1) in prefixes
                            for m in (re.fullmatch(r"(\w+?)_?\d+", n) for n in new_names))
    assert numbered / total < 0.1


KERNEL = "comb_9b2e5a7617"


def _module(helper: str, constant: str, call: str) -> str:
    return (f"{constant} = wp.constant(0.5)\n\n@wp.func\ndef {helper}(r: float) -> float:\n    return r * {constant}\n\n"
            f"@wp.kernel\ndef {KERNEL}(x: wp.array(dtype=float)):\n    tid = wp.tid()\n    x[tid] = {call}(x[tid])\n")


def test_helpers_and_constants_lose_the_kernels_hash():
    source = _module("huber_9b2e5a7617", "MU_9B2E5A7617", "huber_9b2e5a7617")
    assert plain_module_names(source, KERNEL) == _module("huber", "MU", "huber")


def test_a_helper_named_after_the_kernel_loses_the_kernel_name():
    source = _module(f"{KERNEL}_sample", "MU_9B2E5A7617", f"{KERNEL}_sample")
    assert plain_module_names(source, KERNEL) == _module("sample", "MU", "sample")


def test_a_taken_or_builtin_plain_name_takes_an_alternative():
    source = _module("smoothstep_9b2e5a7617", "MU_9B2E5A7617", "smoothstep_9b2e5a7617").replace("(r: float)", "(MU: float)")
    renamed = plain_module_names(source, KERNEL)
    assert "def smooth_step(MU: float)" in renamed and "MU_VALUE = wp.constant(0.5)" in renamed
    assert f"def {KERNEL}(" in renamed


def test_a_taken_name_gets_the_spelling_of_its_role_before_a_number():
    taken = {"force", "root_out", "pos", "alpha"}
    assert untaken("force", taken, "output") == "force_out"
    assert untaken("root_out", taken, "output") == "root_result"
    assert untaken("force", taken, "input") == "force_in"
    assert untaken("pos", taken, "local") == "pos_i"
    assert untaken("alpha", taken, "scalar") == "alpha2"
    assert untaken("force", taken | {"force_out"}, "output") == "force2"
    assert untaken("speed", taken, "output") == "speed"


def test_no_generated_array_is_numbered_beside_a_name_it_shares_a_stem_with():
    """`force2[tid] = force`, `root_out2` beside `root_out`: a number where a role's spelling was free.
    (A one-letter variable's 2 is its square: `sum_x2` beside `sum_x`, as statistics are written.)"""
    for seed in range(60):
        for category in CATEGORY_NAMES:
            spec = generate(category, seed)
            words = set(re.findall(r"\b\w+\b", spec.source))
            for a in spec.args:
                numbered = re.fullmatch(r"(\w*[A-Za-z_])[2-9]", a.name)
                if a.role in ("input", "output", "inout", "index") and numbered and not re.fullmatch(r"(\w*_)?[a-z]2", a.name):
                    assert numbered.group(1) not in words, (a.name, spec.source)


def test_smoothed_reads_the_head_word_of_a_statistic_or_a_signal():
    from synthesis.naming import smoothed

    assert smoothed("loss") and smoothed("blurred_out") and smoothed("grad_energy") and smoothed("rms_val")
    assert not smoothed("clipped") and not smoothed("force") and not smoothed("out") and not smoothed("slope_out")


def test_a_running_average_is_named_as_one_and_is_still_smoothed():
    from synthesis.naming import running_names, smoothed

    assert set(running_names("loss")) == {"running_loss", "loss_ema", "loss_avg", "avg_loss"}
    assert set(running_names("blurred_out")) == {"running_blurred", "blurred_ema", "blurred_avg", "avg_blurred"}
    assert set(running_names("pos_mean")) == {"running_pos_mean", "pos_mean_ema"}  # never `avg_pos_mean`
    for name in ("loss", "blurred_out", "rms", "pos_mean", "filtered_val"):
        assert all(smoothed(n) for n in running_names(name)), name
