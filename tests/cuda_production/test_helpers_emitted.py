"""A sample's .cu defines only what it uses: each helper snippet is emitted because the kernel or
main() calls it (cuda_types.snippet dependencies), never as part of a bundle."""
from pathlib import Path

import pytest

from cuda_production.builtins import lookup
from cuda_production.cuda_types import render_snippets
from scripts.unused_helpers import folder_programs, translated_programs, unused_definitions
from synthesis.categories import CATEGORY_NAMES

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def programs():
    return translated_programs(8, 11)


def test_every_category_is_translated(programs):
    assert {category for _, category, _ in programs} == set(CATEGORY_NAMES)


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_translated_kernels_define_nothing_unused(programs, category):
    flagged = {name: unused_definitions(program) for name, c, program in programs if c == category}
    assert flagged and not any(flagged.values()), {k: v for k, v in flagged.items() if v}


def test_the_committed_samples_define_nothing_unused():
    committed = folder_programs(ROOT / "data" / "cuda_production")
    assert len(committed) >= 16
    assert {name: u for name, _, program in committed if (u := unused_definitions(program))} == {}


@pytest.mark.parametrize("builtin, types, defined, absent", [
    ("randf", ["uint32"], "float randf(uint32_t& state)", ("randn", "randi", "randu", "rand_init")),
    ("bvh_query_aabb", None, "bvh_query_aabb(", ("bvh_query_ray(", "bvh_query_sphere(")),
    ("mesh_query_aabb", None, "mesh_query_aabb(", ("mesh_nearest_face", "mesh_triangle(")),
])
def test_one_builtin_brings_only_its_own_helpers(builtin, types, defined, absent):
    from cuda_production.builtins import BUILTINS

    entry = lookup(builtin, types) if types else BUILTINS[builtin][0]
    helpers = render_snippets(set(entry.snippets))
    assert defined in helpers
    assert not [name for name in absent if name in helpers]
