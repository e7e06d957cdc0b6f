import ast
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extraction import extract_ir_devices, load_kernels
from extraction.loader import unload
from synthesis.categories import CATEGORY_NAMES, generate, stencil
from synthesis.exprgen import BLEND_HINTS
from synthesis.naming import accumulates
from synthesis.normalize import structure_hash
from synthesis.spec import KernelSpec

SEEDS_PER_CATEGORY = 100


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_every_seed_compiles_with_warp(category):
    failures = []
    for seed in range(SEEDS_PER_CATEGORY):
        spec = generate(category, seed)
        module = f"t_{spec.name}"
        try:
            kernel = load_kernels(spec.source, module)[spec.name]
            extract_ir_devices(kernel, ("cuda",), include_backward=True, block_dim=spec.block_dim)
        except Exception as exc:  # collect all, report together
            failures.append((seed, str(exc)[:200]))
        finally:
            unload(module)
    assert failures == []


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_distinct_seeds_give_distinct_kernels(category):
    specs = [generate(category, seed) for seed in range(200)]
    assert len({s.name for s in specs}) == len(specs)
    assert len({s.source.replace(s.name, "K") for s in specs}) == len(specs)


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_structures_are_varied_not_renamed_templates(category):
    hashes = {structure_hash(generate(category, seed).source) for seed in range(200)}
    assert len(hashes) >= 0.9 * 200


def test_generate_rejects_unknown_category():
    with pytest.raises(ValueError, match="unknown category 'nope'"):
        generate("nope", 1)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(category=st.sampled_from(CATEGORY_NAMES), seed=st.integers(0, 2**62))
def test_generate_is_pure_and_self_consistent(category, seed):
    spec = generate(category, seed)
    assert generate(category, seed) == spec
    assert KernelSpec.from_dict(spec.to_dict()) == spec
    tree = ast.parse(spec.source)
    kernel = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == spec.name]
    assert len(kernel) == 1
    # The recorded arguments are exactly the kernel's parameters, in order.
    assert [a.arg for a in kernel[0].args.args] == [a.name for a in spec.args]
    assert spec.category == category and spec.seed == seed
    # Every written array's bound covers its possible range; index arrays index within bounds.
    for arg in spec.args:
        if arg.role == "index":
            # from 0, or negative for a missing entry where a gather reads zero outside the array
            # (padded embedding bags through wp.tile_load_indexed)
            assert arg.high >= 0 and (arg.low == 0 or arg.low < 0 and "wp.tile_load_indexed(" in spec.source)
        if arg.is_array:
            assert len(arg.shape) in (1, 2, 3, 4) and arg.size > 0


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_no_local_takes_the_name_of_a_parameter(category):
    """Warp refuses to assign to a kernel parameter's symbol (`v = a[j]` where `v` is an array): forms
    that write fixed temporaries (`v`, `j`, `t`, `mid`) must not meet inputs named alike."""
    clashes = []
    for seed in range(400):
        tree = ast.parse(generate(category, seed).source)
        for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            params = {a.arg for a in fn.args.args}
            stored = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            clashes += [(seed, fn.name, name) for name in stored & params]
    assert clashes == []


def test_categories_use_their_constructs():
    sources = {c: "\n".join(generate(c, s).source for s in range(80)) for c in CATEGORY_NAMES}
    assert "wp.atomic_" in sources["atomic"]
    assert "for " in sources["nested_loop"] and sources["nested_loop"].count("for ") >= 160
    assert "elif" in sources["multi_conditional"]
    assert "while" in sources["control_flow"] and "break" in sources["control_flow"]
    assert "wp.mat" in sources["matrix"] and "wp.transpose" in sources["matrix"]
    assert "wp.cross" in sources["vector"] and "wp.dot" in sources["vector"]
    assert "wp.sin" in sources["math"] or "wp.exp" in sources["math"]
    assert "@wp.func" in sources["math"] + sources["combined"]
    assert "array2d" in sources["arithmetic"] and "wp.tid()" in sources["arithmetic"]
    assert ": float" in sources["scalar_param"] or ": wp.float32" in sources["scalar_param"]


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_no_dead_code(category):
    """Training data should not teach unused variables or parameters nobody reads."""
    for seed in range(100):
        spec = generate(category, seed)
        kernel = next(f for f in ast.parse(spec.source).body if isinstance(f, ast.FunctionDef) and f.name == spec.name)
        loads = {n.id for n in ast.walk(kernel) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        loop_vars = {n.target.id for n in ast.walk(kernel) if isinstance(n, ast.For)}
        stores = {n.id for n in ast.walk(kernel) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        assert stores - loads - loop_vars - {"tid", "i", "j", "k"} == set(), (seed, spec.source)
        unread = [a.name for a in spec.args if a.role in ("input", "index", "scalar") and a.name not in loads]
        assert unread == [], (seed, spec.source)


COORDINATE = re.compile(r"^\s+\w+ = (\(float\((tid|i|j|k)\) \+ 0\.5\) \* [\d.]+|float\((tid|i|j|k)\)( \+ 0\.5)?( \* [\d.]+| / [\d.]+)?)$")
# a point of a 3-D grid (`p = origin + wp.vec3(float(i), float(j), float(k)) * spacing`) or a pixel's
# centre from the image's centre (`sx = (float(x) - 63.5) / 48.0`)
GRID_POINT = re.compile(r"^\s+\w+ = \w+ \+ (\w+ \* )?wp\.vec3\(float\(\w+\), float\(\w+\), float\(\w+\)\)( \* \w+)?$")
PIXEL_CENTRE = re.compile(r"^\s+\w+ = \((float\(\w+\) - [\d.]+|[\d.]+ - float\(\w+\))\) / [\d.]+$")
# a pixel back-projected through pinhole intrinsics: `(float(u) - cx) * z / fx`, the ray through the pixel
BACK_PROJECTION = re.compile(r"^\s+\w+\[\w+, \w+\] = wp\.vec3\(\(float\(\w+\) - cx\) \* z / fx, \(float\(\w+\) - cy\) \* z / fy, z\)$")


@pytest.mark.parametrize("category", [c for c in CATEGORY_NAMES if c != "stencil"])
def test_a_thread_index_used_as_a_value_is_a_grid_coordinate(category):
    """`float(tid)` appears only where a grid coordinate is made (`px = float(tid) * 0.0625`), never as
    a count inside arithmetic (stencil's semi-Lagrangian backtrace, `float(tid) - u * dt`, is already
    a coordinate in cell units)."""
    plain = []
    for seed in range(40):
        source = generate(category, seed).source
        tids = {n.strip() for line in source.splitlines() if line.strip().endswith("= wp.tid()")
                for n in line.split("=")[0].split(",")}
        for line in source.splitlines():
            if any(f"float({t})" in line for t in tids) and not any(
                    r.match(line) for r in (COORDINATE, GRID_POINT, PIXEL_CENTRE, BACK_PROJECTION)):
                plain.append((seed, line.strip()))
    assert plain == []


def test_piecewise_chains_test_one_quantity_against_ordered_thresholds():
    """Each `if q < t1: ... elif q < t2:` chain multi_conditional draws as piecewise code has
    thresholds in order (ascending for `<`, descending for `>`), so every arm can be taken."""
    chains = 0
    for seed in range(1500):  # a quantisation is one form of fifteen (session 55: a kernel holds one purpose)
        if chains >= 5:
            break
        spec = generate("multi_conditional", seed)
        if "piecewise thresholds" not in spec.description:
            continue
        for node in ast.walk(ast.parse(spec.source)):
            if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                    and isinstance(node.test.comparators[0], ast.Constant)):
                continue
            tests = [node.test]
            while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                node = node.orelse[0]
                tests.append(node.test)
            same = [t for t in tests if isinstance(t, ast.Compare) and ast.dump(t.left) == ast.dump(tests[0].left)
                    and type(t.ops[0]) is type(tests[0].ops[0]) and isinstance(t.comparators[0], ast.Constant)]
            if len(same) == len(tests) >= 2:
                chains += 1
                values = [t.comparators[0].value for t in same]
                upward = isinstance(tests[0].ops[0], (ast.Lt, ast.LtE))
                assert values == sorted(values, reverse=not upward) and len(set(values)) == len(values), ast.unparse(node)
    assert chains >= 5


# Each float parameter of scalar_param, by name: the one statement shape that uses it.
PARAMETER_USES = {
    "scale": r"scaled(?:\d+|_val)? = scale \* ", "gain": r"response(?:\d+|_val)? = gain \* .+ \+ bias$", "bias": r"\+ bias$",
    "offset": r"centered(?:\d+|_val)? = .+ - offset$", "weight": r"blended(?:\d+|_val)? = (\w+) \+ weight \* \(\w+ - \1\)$",
    "alpha": r"combined(?:\d+|_val)? = alpha \* \w+ \+ beta \* \w+$", "beta": r"\+ beta \* \w+$",
    "threshold": r"(kept(?:\d+|_val)? = wp\.where\((\w+) > threshold, \2, 0\.0\)|excess(?:\d+|_val)? = (?:wp\.)?max\(\w+ - threshold, 0\.0\))$",
    "eps": r"(?:soft_sign(?:\d+|_val)? = )(\w+) / wp\.sqrt\(\1 \* \1 \+ eps\)$|(?:soft_abs(?:\d+|_val)? = )wp\.sqrt\((\w+) \* \2 \+ eps\)$",
    "hi": r"limited(?:\d+|_val)? = wp\.clamp\(\w+, lo, hi\)$", "lo": r"limited(?:\d+|_val)? = wp\.clamp\(\w+, lo, hi\)$",
    "mean": r"z(?:\d+|_val)? = \(\w+ - mean\) / std$", "std": r"z(?:\d+|_val)? = \(\w+ - mean\) / std$",
    "freq": r"wave(?:\d+|_val)? = wp\.sin\(freq \* \w+ \+ phase\)$", "phase": r"wave(?:\d+|_val)? = wp\.sin\(freq \* \w+ \+ phase\)$",
    "temperature": r"p(?:\d+|_val)? = 1\.0 / \(1\.0 \+ wp\.exp\(-\w+ / temperature\)\)$",
    **{slope: rf"activated(?:\d+|_val)? = wp\.where\((\w+) > 0\.0, \1, {slope} \* \1\)$"
       for slope in ("slope", "negative_slope", "leak")},
    **{lam: rf"shrunk(?:\d+|_val)? = wp\.sign\((\w+)\) \* wp\.max\(wp\.abs\(\1\) - {lam}, 0\.0\)$"
       for lam in ("lam", "shrink", "l1_weight")},
    **{step: rf"(\w+) = \1 \+ {step} \* \(\w+ - (stiffness|rate|decay) \* \1\)$" for step in ("h", "dt_sub")},
    **{rate: rf"(\w+) = \1 \+ (h|dt_sub) \* \(\w+ - {rate} \* \1\)$" for rate in ("stiffness", "rate", "decay")},
}
# an output relaxed toward its new value (KernelWriter.update_outputs), by a rate of its own
BLENDS = {rate: rf"(\w+\[[\w, ]+\]) = (wp\.lerp\(\1, .+, {rate}\)|\(1\.0 - {rate}\) \* \1 \+ {rate} \* .+)$"
          for rate in BLEND_HINTS}
PARAMETER_USES = {name: f"{PARAMETER_USES[name]}|{BLENDS[name]}" if name in PARAMETER_USES and name in BLENDS
                  else PARAMETER_USES.get(name, BLENDS.get(name)) for name in {*PARAMETER_USES, *BLENDS}}
# an operand is a local or, where the kernel indexes a single-use load in place, an array element
PARAMETER_USES = {name: pattern.replace(r"\w+", r"\w+(?:\[(?:\w+\[[\w, ]+\]|[\w, ])+\])?") for name, pattern in PARAMETER_USES.items()}
# a result written straight into its output (KernelWriter.inline_results) instead of through its
# named local: `out[tid] = scale * x`, or added to it (`out[tid] += ...`)
PARAMETER_USES = {name: re.sub(r"\(\?:(\w+)\(\?:\\d\+\|_val\)\? = \)|(\w+)\(\?:\\d\+\|_val\)\? = ",
                               lambda m: f"(?:{m.group(1) or m.group(2)}(?:\\d+|_val)? = |\\w+\\[[\\w, ]+\\] \\+?= )", pattern)
                  for name, pattern in PARAMETER_USES.items()}
# integer parameters: the shape of the one line reading each
INT_PARAMETER_USES = {
    "shift": r"\w+ = (\w+)\[\(tid \+ shift\) % \1\.shape\[0\]\]$",
    **{n: rf"for s in range\({n}\):$" for n in ("n_iter", "iterations", "n_substeps", "substeps")},
}


def blended_value(line: str) -> str:
    """`out[i] = wp.lerp(out[i], value, rate)` or `out[i] = (1.0 - rate) * out[i] + rate * (value)` as
    `out[i] = value`; any other line as it is."""
    m = re.fullmatch(r"(\w+\[[\w, ]+\]) = wp\.lerp\(\1, (.+), \w+\)", line) or \
        re.fullmatch(r"(\w+\[[\w, ]+\]) = \(1\.0 - (?P<r>\w+)\) \* \1 \+ (?P=r) \* (.+)", line)
    if m is None:
        return line
    value = m.groups()[-1]
    if value.startswith("(") and value.endswith(")") and ast.dump(ast.parse(value)) == ast.dump(ast.parse(value[1:-1])):
        value = value[1:-1]
    return f"{m.group(1)} = {value}"


def _role_seeds(count: int) -> list[int]:
    """The first `count` scalar_param seeds that draw parameters in roles (not an optimizer step)."""
    from synthesis.categories import optimizers

    return [s for s in range(3 * count) if not optimizers.chooses_optimizer(s)][:count]


def test_scalar_parameters_are_used_as_their_names_say():
    """A `scale` scales, an `eps` keeps a square root away from zero: each float parameter is read in
    exactly one statement, of the shape its name says, with a value that fits the name. (Optimizer
    steps, a share of the category, have tests of their own: tests/synthesis/test_optimizers.py.)"""
    for seed in _role_seeds(80):
        spec = generate("scalar_param", seed)
        body = [line.strip() for line in spec.source.splitlines()]
        floats = [a for a in spec.args if a.role == "scalar" and a.dtype == "float32"]
        assert floats, spec.source
        for arg in floats:
            uses = [line for line in body if re.search(rf"\b{arg.name}\b", line) and ":" not in line]
            if arg.name not in BLEND_HINTS:  # a value written straight into a blended output: its own shape
                uses = [blended_value(line) for line in uses]
            assert len(uses) == 1 and re.search(PARAMETER_USES[arg.name], uses[0]), (arg.name, spec.source)
        for arg in (a for a in spec.args if a.role == "scalar" and a.dtype == "int32" and a.name in INT_PARAMETER_USES):
            uses = [line for line in body if re.search(rf"\b{arg.name}\b", line) and ":" not in line[:-1]]
            assert len(uses) == 1 and re.search(INT_PARAMETER_USES[arg.name], uses[0]) and arg.value >= 1, (arg.name, spec.source)
        value = {a.name: a.value for a in floats}
        assert 0.0 < value.get("eps", 1e-3) <= 1e-3 and 0.0 < value.get("weight", 0.5) < 1.0
        assert all(abs(value[n]) not in (0.0, 1.0) for n in ("scale", "gain") if n in value)


def test_a_padded_launchs_count_is_marked_to_grow_with_the_bench_launch():
    """`if tid >= n: return` with n a parameter: n counts the elements of a padded launch, a little
    below its extent, and says so (ArgSpec.launch_bound), so that the bench size grows it too."""
    guarded = 0
    for category in ("arithmetic", "matrix", "nested_loop", "control_flow"):
        for seed in range(60):
            spec = generate(category, seed)
            guard = re.search(r"if (\w+) >= (\w+):\n\s+return", spec.source)
            scalars = {a.name: a for a in spec.args if a.role == "scalar"}
            marked = [a for a in scalars.values() if a.launch_bound]
            if guard and guard.group(2) in scalars:
                guarded += 1
                assert [a.name for a in marked] == [guard.group(2)], spec.source
                assert spec.dim[0] - spec.dim[0] // 8 <= marked[0].value < spec.dim[0]
            else:
                assert not marked, spec.source
    assert guarded >= 5


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_no_division_by_a_negative_literal_or_one_below_one(category):
    """People write `2.0 * x` and `-0.5 * x`, not `x / 0.5` and `x / -2.0`. A soft clip
    (`0.5 * wp.tanh(x / 0.5)`) divides by its limit, which is what it means."""
    divisor = re.compile(r"/ \(?(-\d[\d.]*|0\.\d+)\)?(?![\d.])")
    for seed in range(60):
        for line in generate(category, seed).source.splitlines():
            m = divisor.search(line)
            assert m is None or re.search(rf"{re.escape(m.group(1))} \* wp\.tanh\(\w+ / {re.escape(m.group(1))}\)", line), line


@pytest.mark.parametrize("category", ["arithmetic", "math"])
def test_the_description_names_the_operations_the_code_uses(category):
    """"ops ..." and "math ..." list what the finished kernel holds: a call is named exactly when the
    source calls it, an operator exactly when the source applies it."""
    from synthesis.exprgen import MATH_OPS

    calls = MATH_OPS if category == "math" else ("min", "max", "abs", "clamp")
    label = "math " if category == "math" else "ops "
    for seed in range(40):
        spec = generate(category, seed)
        named = next((f[len(label):].rstrip(")").split(", ") for f in spec.description.split("; ") if f.startswith(label)), [])
        for call in calls:
            assert (call in named) == bool(re.search(rf"(?<![\w.])(wp\.)?{call}\(", spec.source)), (call, spec.source)
        if category == "arithmetic":
            for symbol, pattern in (("*", r" \* "), ("/", r" / "), ("//", r" // "), ("%", r" % ")):
                assert (symbol in named) == bool(re.search(pattern, spec.source)), (symbol, spec.source)


def test_a_scalar_parameter_kernels_description_counts_and_names_only_parameters_it_has():
    """A role whose value a later role replaced unread is pruned from the kernel, and from its
    description: the count is the kernel's, and each named role's parameter is there."""
    role_params = {"offset parameter": {"offset"}, "epsilon parameter": {"eps"}, "threshold parameter": {"threshold"},
                   "clamp range parameter": {"lo", "hi"}, "mean and std parameters": {"mean", "std"}}
    for seed in _role_seeds(150):
        spec = generate("scalar_param", seed)
        scalars = {a.name for a in spec.args if a.role == "scalar"}
        count = int(re.search(r"(\d+) scalar parameters?\)$", spec.description).group(1))
        assert count == len(scalars), spec.description
        for role, params in role_params.items():
            assert role not in spec.description or params <= scalars, (spec.description, scalars)


@pytest.mark.parametrize("category", ["multi_conditional", "scalar_param"])
def test_the_outputs_of_a_kernel_are_one_computation(category):
    """A later piece of a kernel works on what an earlier one read (a contact force and the friction
    on the same velocity; a loop on the value the parameters shaped): the outputs form one group of
    realism's output_groups, not two computations side by side."""
    from synthesis.normalize import parse_module
    from synthesis.realism import output_groups

    several = 0
    for seed in range(150):
        spec = generate(category, seed)
        several += sum(a.role == "output" for a in spec.args) >= 2
        # the kernel: the module's last def (a `wp.overload(...)` of a generic kernel may follow it)
        kernel = next(n for n in reversed(parse_module(spec.source).body) if isinstance(n, ast.FunctionDef))
        assert len(output_groups(kernel)) == 1, spec.source
    # a scalar-parameter kernel is one chain of parameters with one result (session 56), an
    # intermediate value kept on the way its only second output
    assert several > (10 if category == "scalar_param" else 30)


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_no_loop_variable_rebinds_an_earlier_local(category):
    """`n = wp.normalize(d)` then `for n in range(K):` makes the vec3 an int: Warp's CPU accepts it,
    the translator (like a C++ reader) does not. A loop's variable is a name of its own, and none is a
    launch index (`for k in range(5)` under `i, j, k = wp.tid()` stores to the wrong element: a 3-D series
    or polynomial is about one control-flow kernel in 700)."""
    clashes = []
    for seed in range(1400 if category == "control_flow" else 150):
        spec = generate(category, seed)
        for fn in (f for f in ast.parse(spec.source).body if isinstance(f, ast.FunctionDef)):
            assigned: set[str] = set()
            for node in ast.walk(fn):
                if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                    if node.target.id in assigned:
                        clashes.append((seed, node.target.id))
                elif isinstance(node, ast.Assign):
                    targets = [e for t in node.targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
                    assigned |= {t.id for t in targets if isinstance(t, ast.Name)}
    assert clashes == []


# Outputs that hold a new state, per category: a filter's state, a root, an angle, an index or value a
# search found (control_flow); a cellular automaton's next board, a cluster label (nested_loop); a
# diffusion, Jacobi, wave, source or advection step's field (stencil); an iteration's result
# (scalar_param); a class label (multi_conditional). Each replaces the old element: never added to it
# (`+=`, or `*=` then `+=`) nor blended with it.
STATE_OUTPUTS = {
    "control_flow": {"state", "variance", "root_out", "anomaly", "next_offset", "steps_back", "first_index", "first_value",
                     "argmax", "argmin"},
    "nested_loop": {"next_cells", "new_board", "cells_out", "assignment", "labels", "cluster"},
    "stencil": {"u_new", "phi_next", "diffused", "x_next", "p_next", "advected", "q_new", "u_next", "forced", "u_src",
                "vel_out", "velocity_new", "density_out", "density_new", "temperature_out", "temp_new", "dye_out",
                "color_new"} | {f"{field}_{level}" for field in stencil.FIELD_NAMES + ["u"] for level in ("new", "next", "src")},
    "scalar_param": {"sqrt_out", "root_out", "relaxed", "steady"},
    "multi_conditional": {"label", "level", "bin_id", "pos_out", "x_out", "px_out", "vel_out", "advected", "face_left", "face_right",
                          "face_up", "face_down", "face_below", "face_above"},
    # a position and velocity after box walls or a ground contact, in outputs of their own (session 50)
    "vector": {"pos_out", "x_new", "positions_out", "v_new", "velocities_out"},
}
UPDATED = re.compile(r"^\s+(\w+)\[([^\]]+)\] (?:\+=|\*=|= wp\.lerp\(\1\[\2\]|= \(1\.0 - \w+\) \* \1\[\2\])", re.M)


def test_a_velocity_whose_length_is_capped_is_never_summed():
    """A sum of capped velocities leaves the cap (and a velocity is no running average either)."""
    summed = capped = 0
    for seed in range(600):
        spec = generate("vector", seed)
        if "length capped" not in spec.description:
            continue
        capped += 1
        summed += sum("+=" in m.group(0) for m in UPDATED.finditer(spec.source)
                      if m.group(1) in ("vel_out", "limited", "clamped"))
    assert capped >= 20 and summed == 0


BLENDED_OUTPUT = re.compile(r"^\s+(\w+)\[([^\]]+)\] = (?:wp\.lerp\(\1\[\2\]|\(1\.0 - \w+\) \* \1\[\2\] \+)", re.M)


def test_only_running_averages_of_statistics_and_signals_are_smoothed_over_launches():
    """`clipped[tid] = wp.lerp(clipped[tid], c, 0.9)`, a force or a polynomial's value smoothed over
    launches, tracks nothing (10% of kernels did before session 57): an output is blended with its old
    value only where its name holds a running average of a loss, an energy, a filtered signal...
    (naming.smoothed), and the kernels' running averages are named as such."""
    from synthesis.naming import smoothed

    blended = 0
    for category in CATEGORY_NAMES:
        for seed in range(120):
            source = generate(category, seed).source
            arrays = set(re.findall(r"(\w+): wp\.array", source))
            for m in BLENDED_OUTPUT.finditer(source):
                if m.group(1) in arrays:
                    blended += 1
                    assert smoothed(m.group(1)), (category, seed, m.group(0))
    assert blended >= 10


OWN_SUM = re.compile(r"^\s+(\w+)\[(tid|\w+(?:, \w+)+)\] \+= (.*)$", re.M)


def test_only_outputs_holding_a_sum_are_added_to():
    """`rms[tid] += ...`, `min_dist[tid] += ...`, `quadrant_id[tid] += ...` mean nothing summed over
    passes: an output's own element is added to only where its name holds a force, an energy, a count,
    a loss... (naming.accumulates); a moving average written `s[i] += a * (x - s[i])` or a decaying
    trail (`*=` first) is an update of its own kind."""
    added = 0
    for category in CATEGORY_NAMES:
        for seed in range(120):
            source = generate(category, seed).source
            arrays = set(re.findall(r"(\w+): wp\.array", source))
            own = set(re.findall(r"^\s+(\w+(?:, \w+)*) = wp\.tid\(\)", source, re.M))
            for m in OWN_SUM.finditer(source):
                name, index, value = m.groups()
                if name not in arrays or index not in own or f"{name}[{index}]" in value or f"{name}[{index}] *=" in source:
                    continue
                added += 1
                assert accumulates(name), (category, seed, m.group(0))
    assert added >= 20


def test_accumulates_reads_the_head_word():
    assert accumulates("contact_force") and accumulates("grad_out") and accumulates("total_ke")
    assert not accumulates("grad_mag") and not accumulates("rms_out") and not accumulates("quadrant_id")
    assert not accumulates("out") and not accumulates("v_out")  # a generic name says nothing
    assert accumulates("grad_y") and not accumulates("n_out_y")  # a component: its vector's word, not `y`


@pytest.mark.parametrize("category", sorted(STATE_OUTPUTS))
def test_a_new_state_is_never_added_to_or_blended_with_the_old(category):
    seen = updated = 0
    for seed in range(300):
        source = generate(category, seed).source
        states = STATE_OUTPUTS[category] & set(re.findall(r"(\w+): wp\.array", source))
        seen += bool(states)
        updated_here = {m.group(1) for m in UPDATED.finditer(source)}
        updated += bool(updated_here)
        assert not states & updated_here, source
    # states drawn, and other outputs still updated (few: only sums and running averages are, session 57)
    assert seen >= 20 and updated >= 1


REDUNDANT_RETURN = re.compile(r"^(\s+)if [^\n]*:\n(?:\1    [^\n]*\n)*\1    return (\w+)\n\1return \2\n", re.M)


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_no_branch_returns_what_the_function_returns_right_after_it(category):
    """`if hit: v[1] = -v[1]; return v` then `return v`: the branch's return says nothing (a particle
    helper's tell in 31 of 600 kernels, session 60)."""
    for seed in range(300):
        source = generate(category, seed).source
        assert not REDUNDANT_RETURN.search(source), source


def _loads_before_an_early_return(kernel: ast.FunctionDef) -> list[str]:
    """The locals loaded from an array (`d = drag[tid]`) before an early `if ...: return` that neither
    the test nor anything before the return reads."""
    unused = []
    for at, statement in enumerate(kernel.body):
        if not (isinstance(statement, ast.If) and not statement.orelse and len(statement.body) == 1
                and isinstance(statement.body[0], ast.Return)):
            continue
        for k, before in enumerate(kernel.body[:at]):
            if isinstance(before, ast.Assign) and isinstance(before.value, ast.Subscript) \
                    and len(before.targets) == 1 and isinstance(before.targets[0], ast.Name):
                name = before.targets[0].id
                read = {n.id for s in kernel.body[k + 1:at + 1] for n in ast.walk(s) if isinstance(n, ast.Name)}
                if name not in read:
                    unused.append(name)
    return unused


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_no_element_is_loaded_before_an_early_return_that_does_not_need_it(category):
    """A pinned particle's drag or a vertex's row bounds loaded before `if w == 0.0: return` is work the
    returning threads throw away; people test first (45 of 600 particle kernels and 15 of 600 atomic
    ones loaded first, session 60)."""
    for seed in range(300):
        spec = generate(category, seed)
        for kernel in (f for f in ast.parse(spec.source).body if isinstance(f, ast.FunctionDef)):
            assert not _loads_before_an_early_return(kernel), spec.source
