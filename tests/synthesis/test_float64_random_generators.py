"""float64 accumulation (atomic), seeded jitter (particles) and Perlin noise (math) in the generators."""
import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from cuda_production.reference import warp_reference
from synthesis.categories import generate
from tests.cuda_production.harness import run_sample


def _first(category: str, needle: str):
    return next(s for s in (generate(category, seed) for seed in range(200)) if needle in s.source)


def test_default_runs_contain_float64_and_random_numbers():
    sources = {c: "\n".join(generate(c, s).source for s in range(80)) for c in ("atomic", "particles", "math")}
    assert "wp.float64(" in sources["atomic"] and ": wp.float64" in sources["atomic"]
    assert "wp.array[wp.float64]" in sources["atomic"] or "wp.array(dtype=wp.float64)" in sources["atomic"]
    assert "wp.rand_init(" in sources["particles"] and ", tid)" in sources["particles"]
    assert "wp.randn(" in sources["particles"] and "wp.randf(" in sources["particles"]
    assert "wp.noise(" in sources["math"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_float64_kernels_cast_every_float_constant(seed):
    """Warp does not mix precisions (a float literal is float32): each constant is wp.float64(...),
    except in a store into a float32 array (a float32 blend of a value cast down with `float(...)`)."""
    spec = generate("atomic", seed)
    if "float64 accumulation" not in spec.description:
        return
    tree = ast.parse(spec.source)
    cast_args = {id(n.args[0]) for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Attribute) and n.func.attr == "float64"}
    float32_arrays = {a.name for a in spec.args if a.ndim and a.dtype == "float32"}
    float32_stores = {id(c) for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AugAssign))
                      for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                      if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in float32_arrays
                      for c in ast.walk(n.value)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, float) and id(node) not in float32_stores:
            assert id(node) in cast_args, (ast.unparse(node), spec.source)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_streams_are_seeded_by_an_argument(seed):
    """A random value is an input: the seed of every stream is a kernel parameter (or a field of a
    struct parameter: `params.seed`), never a literal."""
    for category in ("particles", "math"):
        spec = generate(category, seed)
        params = {a.name for a in spec.args}
        for node in ast.walk(ast.parse(spec.source)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "rand_init":
                seed_arg = node.args[0]
                if isinstance(seed_arg, ast.Attribute):  # a struct parameter's field
                    seed_arg = seed_arg.value
                assert isinstance(seed_arg, ast.Name) and seed_arg.id in params, spec.source


def test_generated_float64_and_random_kernels_equal_warp(tmp_path):
    specs = [_first("atomic", "wp.float64("), _first("particles", "wp.randn("), _first("particles", "wp.randf("),
             _first("math", "wp.noise(")]
    expected = warp_reference(specs, "test_float64_random_generators_module")
    for spec in specs:
        run = run_sample(tmp_path, spec, expected[spec.name])
        assert run.passed, (spec.source, run.output)
