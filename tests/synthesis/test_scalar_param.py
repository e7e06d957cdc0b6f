"""Scalar-parameter kernels (synthesis/categories/scalar_param.py): one chain of parameters per kernel."""
from __future__ import annotations

import re

from synthesis.categories import generate
from synthesis.categories.scalar_param import ROLE_FOLLOWERS, ROLES


def roles_in_order(description: str) -> list[str]:
    """The roles a kernel's description names (`gain and bias parameters`), in the order it names them."""
    found = []
    for part in description[description.index("(") + 1:description.rindex(")")].split(";"):
        m = re.fullmatch(r"\s*(.+?) parameters?\s*", part)
        if m and m.group(1) in ROLES:
            found.append(m.group(1))
    return found


def test_each_parameter_role_takes_the_result_of_the_one_before_it():
    """Session 56: roles drawn at random and applied to unrelated values made chains no one writes
    (`freq * (scale * x)`, an offset of a magnitude clipped and added back) and kernels of two purposes.
    A kernel's roles are one chain: each a follower of the one before (ROLE_FOLLOWERS)."""
    chains = 0
    for seed in range(600):
        spec = generate("scalar_param", seed)
        roles = roles_in_order(spec.description)
        for before, after in zip(roles, roles[1:]):
            assert after in ROLE_FOLLOWERS.get(before, ()), f"{before} then {after}:\n{spec.source}"
        chains += len(roles) > 1
    assert chains >= 100


def test_a_loop_over_a_trip_count_works_on_the_roles_result():
    """A relaxation or Heron's iteration takes the value the roles computed (an input only where no role
    computed one): a loop beside the roles, on an input of its own, was a second kernel in the first."""
    seen = 0
    for seed in range(800):
        spec = generate("scalar_param", seed)
        if "trip count from argument" not in spec.description or not roles_in_order(spec.description):
            continue
        seen += 1
        lines = spec.source.splitlines()
        loop = next(k for k, line in enumerate(lines) if line.strip().startswith("for s in range("))
        # the loop's target: `a = 1.0 + x * x` before Heron's loop, `x` in the relaxation's update
        target = lines[loop - 2] if "root" in lines[loop - 1] else lines[loop + 1]
        assert "[" not in target.split("=", 1)[1] and not re.search(r"\b\w+_v\b", target), spec.source
    assert seen >= 20


def test_a_chain_starts_from_a_skip_connection_a_weighted_input_or_a_length_and_takes_it():
    """Session 57's starts: `h = x + skip`, `pre = w * x` or `speed = wp.length(v)`, each read by the
    first parameter's line (not left beside the chain)."""
    starts = {"skip connection summed first": r"(\w+) = (\w+(?:\[[\w, ]+\])?) \+ (\w+(?:\[[\w, ]+\])?)$",
              "input weighted per element": r"(\w+) = (\w+(?:\[[\w, ]+\])?) \* (\w+(?:\[[\w, ]+\])?)$",
              "a vector's length": r"(\w+) = wp\.length\(\w+(?:\[[\w, ]+\])?\)$"}
    seen = dict.fromkeys(starts, 0)
    for seed in range(400):
        spec = generate("scalar_param", seed)
        for feature, pattern in starts.items():
            if feature not in spec.description:
                continue
            lines = [line.strip() for line in spec.source.splitlines()]
            at = next(k for k, line in enumerate(lines) if re.fullmatch(pattern, line))
            local = re.fullmatch(pattern, lines[at]).group(1)
            later = "\n".join(lines[at + 1:])
            assert re.search(rf"\b{local}\b", later), spec.source
            seen[feature] += 1
    assert all(n >= 10 for n in seen.values()), seen


def test_a_scale_or_an_offset_is_never_a_kernel_alone():
    """`scaled = scale * x` stored as it is was the category's most repeated kernel (session 57)."""
    alone = 0
    for seed in range(600):
        roles = roles_in_order(generate("scalar_param", seed).description)
        alone += roles in (["scale"], ["offset"])
    assert alone == 0
