"""The plain formula kernels of arithmetic (synthesis/categories/arithmetic.py): how many values one holds."""
from __future__ import annotations

from synthesis.categories import arithmetic, bits, generate, quantized
from synthesis.spec import KernelSpec


def formula_kernels(count: int) -> list[tuple[int, KernelSpec]]:
    seeds = [s for s in range(6 * count) if not bits.chooses_bits(s) and not quantized.chooses_quantized(s)]
    return [(s, generate("arithmetic", s)) for s in seeds[:count]]


def test_a_formula_kernel_rarely_computes_a_single_value():
    """One value alone (`lane[tid] = p & 31`) is a kernel repeated seed after seed; most hold two or more."""
    specs = [spec for _, spec in formula_kernels(300) if "@wp.func" not in spec.source]
    single = sum(1 for spec in specs if sum(a.role in ("output", "inout") for a in spec.args) == 1)
    assert single / len(specs) < 0.12


def test_kernels_whose_count_is_not_raised_keep_their_draws(monkeypatch):
    kept = [(s, spec.source) for s, spec in formula_kernels(120) if arithmetic.more_formulas(s, 2) == 2
            and arithmetic.more_formulas(s, 1) == 1 and arithmetic.more_formulas(s, 3) == 3]
    assert kept
    monkeypatch.setattr(arithmetic, "more_formulas", lambda seed, count: count)
    assert [generate("arithmetic", s).source for s, _ in kept] == [source for _, source in kept]


def _formulas_held(spec) -> set[str]:
    """The named formulas (and helpers) an arithmetic kernel's description lists."""
    from synthesis.categories.common import OUTPUT_NAMES

    listed = spec.description[spec.description.index("(") + 1:spec.description.rindex(")")]
    parts = {p.strip() for p in listed.split(";")}
    helpers = {p[len("@wp.func helper ("):-1] for p in parts if p.startswith("@wp.func helper (")}
    return {p for p in parts if p in OUTPUT_NAMES} | {h.replace("_", " ") for h in helpers}


def test_an_arithmetic_kernel_computes_the_formulas_of_one_theme():
    """Session 56: a relative difference, a smoothstep and a weighted average of unrelated values side by
    side were three kernels in one. Every formula (and helper) of a kernel belongs to one theme."""
    from synthesis.categories import generate
    from synthesis.categories.arithmetic import ARITH_THEMES, INT_THEMES

    themes = [set(t.formulas) | set(t.forms) | {h.replace("_", " ") for h in t.helpers}
              for t in (*ARITH_THEMES.values(), *INT_THEMES.values())]
    checked = 0
    for seed in range(500):
        spec = generate("arithmetic", seed)
        if not spec.description.startswith(("Float arithmetic", "Integer arithmetic")):
            continue  # the bits and quantised streams have purposes of their own
        held = _formulas_held(spec)
        assert held, spec.description
        assert any(held <= theme for theme in themes), f"{sorted(held)}\n{spec.source}"
        checked += 1
    assert checked > 250


def test_a_huber_or_squared_error_helper_of_two_inputs_takes_their_residual():
    from synthesis.categories import generate

    seen = 0
    for seed in range(1500):
        spec = generate("arithmetic", seed)
        if "helper (huber)" in spec.description or "helper (squared_error)" in spec.description:
            if "r = " in spec.source:
                seen += 1
                assert any(line.strip().startswith("r = ") and " - " in line for line in spec.source.splitlines())
    assert seen >= 3


def test_a_blend_kernel_computes_one_blend():
    """A midpoint, a weighted average and an interpolation of the same two values are one quantity
    three ways: a kernel of the blends theme holds one of them (or the blend helper)."""
    from synthesis.categories import generate

    blends = {"midpoint", "weighted average", "linear interpolation", "blend", *arithmetic.BLEND_FORMS}
    seen = 0
    for seed in range(600):
        spec = generate("arithmetic", seed)
        if "for blends of two values" in spec.description:
            seen += 1
            assert len(_formulas_held(spec) & blends) == 1, spec.source
    assert seen >= 10


def test_a_fed_formula_reads_the_result_it_takes():
    """A clamp, smoothstep or soft sign drawn after an affine map (or a polynomial, a scaled integer) takes
    that result in most kernels holding both (FED_BY): the earlier result is a local the later one reads."""
    import ast

    from synthesis.categories.arithmetic import FED_BY

    fed = both = 0
    for seed in range(1200):
        spec = generate("arithmetic", seed)
        held = _formulas_held(spec)
        pairs = [(a, b) for b in held for a in FED_BY.get(b, ()) if a in held]
        if not pairs:
            continue
        both += 1
        fn = next(n for n in ast.parse(spec.source).body if isinstance(n, ast.FunctionDef) and n.decorator_list)
        stored_locals = {s.value.id for s in fn.body if isinstance(s, ast.Assign)
                         and isinstance(s.targets[0], ast.Subscript) and isinstance(s.value, ast.Name)}
        reads = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and any(
            isinstance(a, ast.Name) and a.id in stored_locals for a in ast.walk(n))]
        fed += bool(stored_locals and reads)
    assert both >= 20 and fed >= 0.3 * both


def test_a_blend_lies_between_the_two_values_it_blends():
    """Run in Python, a blend kernel's output (weight a literal, a parameter or a per-element alpha in
    [0, 1]) lies between two of its inputs at every element."""
    import numpy as np

    from synthesis.categories.common import OUTPUT_NAMES
    from tests.synthesis.python_run import draw_inputs, run

    checked = 0
    for seed in range(1500):
        spec = generate("arithmetic", seed)
        d = spec.description
        if "for blends of two values" not in d or "@wp.func" in spec.source or "alpha over" in d or any(
                extra in d for extra in ("output relaxed", "stencil", "gather", "neighbour", "early return")):
            continue  # blends of the inputs themselves, stored as they are
        inputs = draw_inputs(spec, seed)
        got = run(spec, inputs)
        named = {n for kind in _formulas_held(spec) for n in OUTPUT_NAMES[kind]}
        out = next(a.name for a in spec.args if a.role == "output" and a.name in named)  # not a weight kept
        values = [inputs[a.name] for a in spec.args if a.role == "input" and a.name not in ("alpha", "opacity", "weight_map")]
        tol = 1e-6
        assert any(np.all((got[out] >= np.minimum(x, y) - tol) & (got[out] <= np.maximum(x, y) + tol))
                   for x in values for y in values if x is not y), spec.source
        checked += 1
    assert checked >= 15


def test_a_computed_blend_weight_is_what_its_form_says():
    """Run in Python: a premultiplied source over its background is `src + (1 - alpha) * dst`; a fade over
    a lifetime blends by `clamp(age / lifetime, 0, 1)`; an eased interpolation by the smoothstep of its
    weight. The reference values are computed here from the inputs, not read from the kernel."""
    import numpy as np

    from synthesis.categories.common import OUTPUT_NAMES
    from tests.synthesis.python_run import draw_inputs, run

    seen, variants = {form: 0 for form in arithmetic.BLEND_FORMS}, set()
    for seed in range(3000):
        spec = generate("arithmetic", seed)
        form = next((f for f in arithmetic.BLEND_FORMS if f in spec.description), None)
        if form is None or any(extra in spec.description for extra in ("early return", "output relaxed", "stencil")):
            continue
        first, second = arithmetic.BLEND_FORM_INPUTS[form]
        inputs = draw_inputs(spec, seed)
        got = run(spec, inputs)
        out = next(a.name for a in spec.args if a.role == "output" and a.name in OUTPUT_NAMES[form])
        x = next(inputs[n] for n in first if n in inputs)
        y = next(inputs[n] for n in second if n in inputs)
        scalars = {a.name: a.value for a in spec.args if a.role == "scalar"}
        d = spec.description
        if form == "alpha over":
            alpha = next(inputs[n] for n in ("src_alpha", "coverage", "opacity") if n in inputs)
            if "a layer opacity" in d:
                layer = next(v for n, v in scalars.items() if n in ("layer_opacity", "layer_alpha", "fade"))
                x, alpha = x * layer, alpha * layer
            want = x + (1.0 - alpha) * y
            if "alpha composited too" in d:
                dst_alpha = next(inputs[n] for n in ("dst_alpha", "bg_alpha") if n in inputs)
                got_alpha = next(got[n] for n in ("alpha_out", "out_alpha", "composited_alpha") if n in got)
                np.testing.assert_allclose(got_alpha, alpha + (1.0 - alpha) * dst_alpha, rtol=1e-5, atol=1e-6)
        else:
            if form == "fade over a lifetime":
                age = next(inputs[n] for n in ("age", "elapsed", "time_alive") if n in inputs)
                lifetime = next((inputs[n] for n in ("lifetimes", "max_age", "life_span") if n in inputs), None)
                if lifetime is None:
                    lifetime = next(v for n, v in scalars.items() if n in ("lifetime", "fade_time", "duration"))
                t = np.clip(age / lifetime, 0.0, 1.0)
                if "eased fade" in d:
                    t = t * t * (3.0 - 2.0 * t)
            else:
                t = next((inputs[n] for n in ("progress", "t_map", "blend_mask") if n in inputs), None)
                if t is None:
                    t = next(inputs.get(n, scalars.get(n)) for n in ("alpha", "opacity", "weight_map", "t", "mix",
                                                                      "blend_factor") if n in inputs or n in scalars)
                t = t * t * t * (t * (t * 6.0 - 15.0) + 10.0) if "smootherstep" in d else t * t * (3.0 - 2.0 * t)
            want = x + t * (y - x)
        np.testing.assert_allclose(got[out], want, rtol=1e-5, atol=1e-5, err_msg=spec.source)
        seen[form] += 1
        variants.update(v for v in ("a layer opacity", "alpha composited too", "quintic smootherstep",
                                    "a lifetime per element", "eased fade") if v in d)
    assert min(seen.values()) >= 5 and len(variants) == 5, (seen, variants)
