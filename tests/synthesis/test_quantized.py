"""The quantised and integer tensor kernels (synthesis/categories/quantized.py): each kernel's written
arrays, run by Warp on the CPU, are what numpy's definition of the operation gives (rounding half away
from zero or half up, a matrix product of int64s, a log-sum-exp, a gather by label or token id), not
the kernel's per-thread code; int8, uint8 and int64 arrays are what Warp holds; and the arithmetic
kernels that are none of these keep their draws."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from synthesis.categories import generate, quantized
from synthesis.dtypes import bfloat16_bits, float_values
from synthesis.spec import KernelSpec
from tests.cuda_production.harness import warp_runs
from tests.synthesis.shares import assert_others_keep_their_draws, specs_with_every_variant
from tests.synthesis.test_channels import ACTIVATIONS

F32 = np.float32
VARIANTS = ("symmetric int8 quantisation, per tensor", "symmetric int8 quantisation, per channel",
            "uint8 quantisation with a zero point, per tensor", "uint8 quantisation with a zero point, per channel",
            "rounded half away from zero", "rounded half up", "int8 dequantisation, per tensor",
            "int8 dequantisation, per channel", "uint8 dequantisation with a zero point, per tensor",
            "uint8 dequantisation with a zero point, per channel", "W8A8", "bias added", "ReLU",
            "output requantised", "dynamic per-row", "NHWC", "BGR to RGB", "cross-entropy", "ignored label",
            "negative log-likelihood", "embedding lookup", "scaled by sqrt(d)", "positional embedding",
            "offset 8), a scale per group", "a scale and zero point per group", "two weights packed per byte",
            "high nibble first (a shift)", "high nibble first (a branch)", "written as float16", "written as bfloat16", "a zero point per row", "activation:", "bias per row",
            "bias per column", "SmoothQuant", "normalised float16", "normalised bfloat16", "weighted by class", "prediction correct",
            "padding id 0", "token type", "int16 PCM decoded", "interleaved stereo int16 PCM",
            "stereo int16 PCM (a row per frame)", "encoded as int16 PCM", "with a gain", "uint16 depth image",
            "valid mask", "depth clipped at a maximum range", "uint8 activations with a zero point",
            "int32 bias starting the accumulator")


@functools.lru_cache(maxsize=None)
def _runs() -> tuple[tuple[KernelSpec, dict, dict], ...]:
    return warp_runs(specs_with_every_variant("arithmetic", quantized.chooses_quantized, VARIANTS, 120, kind="Quantised"),
                     "test_quantized")  # kind: the bits stream is drawn first


def _round_half_away(v: np.ndarray) -> np.ndarray:
    v = v.astype(np.float64)  # exact: a float32 plus 0.5 fits a double
    return np.trunc(v + np.copysign(0.5, v))


def _round(spec: KernelSpec, v: np.ndarray) -> np.ndarray:
    if "rounded half up" in spec.description:
        return np.floor(v.astype(np.float64) + 0.5) if v.dtype != F32 else np.floor(v + F32(0.5))
    return _round_half_away(v)


def _scalar(spec: KernelSpec, *names: str):
    return next((a.value for a in spec.args if a.role == "scalar" and a.name in names), None)


def _inputs(spec: KernelSpec, g: dict, dtype: str, ndim: int | None = None) -> list[np.ndarray]:
    return [g[a.name] for a in spec.args if a.role == "input" and a.dtype == dtype and (ndim is None or len(a.shape) == ndim)]


def _stored(spec: KernelSpec, out: np.ndarray) -> dict[str, np.ndarray]:
    """float32 values as the kernel stores them: as they are, or rounded once to float16 or bfloat16."""
    if "bfloat16" in spec.description:
        return {"bfloat16": float_values(bfloat16_bits(out), "bfloat16")}
    return {"float16": out.astype(np.float16)} if "float16" in spec.description else {"float32": out}


def _outputs(spec: KernelSpec, out: dict, dtype: str) -> list[np.ndarray]:
    return [out[a.name] for a in spec.args if a.is_written and a.dtype == dtype]


def _named(spec: KernelSpec, g: dict, *hints: str) -> np.ndarray | None:
    """The input array the generator named by one of its hints (a digit appended where a name was taken)."""
    for a in spec.args:
        if a.role in ("input", "index") and a.name in g and (a.name in hints or a.name.rstrip("0123456789") in hints):
            return g[a.name]
    return None


def _activated(spec: KernelSpec, v: np.ndarray) -> np.ndarray:
    for name, f in ACTIVATIONS.items():
        if f"activation: {name};" in spec.description + ";" or f"activation: {name})" in spec.description:
            return f(v).astype(v.dtype)
    return v


def _quantized(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    x = _named(spec, g, "weights", "w", "x", "values", "act", "src")
    x = _activated(spec, x)  # an activation fused in front (the rounding-safe ones: the same value everywhere)
    if "per channel" in spec.description:
        v = x / _named(spec, g, "scales", "w_scale", "channel_scale")[:, None]
    elif _scalar(spec, "scale", "q_scale") is not None:
        v = x / F32(_scalar(spec, "scale", "q_scale"))
    else:
        v = x * F32(_scalar(spec, "inv_scale", "rcp_scale"))
    r = _round(spec, v)
    if "uint8" in spec.description:
        return {"uint8": np.clip(r + _scalar(spec, "zero_point", "zp"), 0, 255).astype(np.uint8)}
    low = -128 if "-128.0" in spec.source else -127
    return {"int8": np.clip(r, low, 127).astype(np.int8)}


def _dequantized(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    q = _named(spec, g, "q", "w_q", "packed", "quantized", "codes").astype(np.int64)
    if "per channel" in spec.description:
        scale = _named(spec, g, "scales", "w_scale")[:, None]
        zero = _named(spec, g, "zero_points", "zp")[:, None] if "uint8" in spec.description else 0
    else:
        scale = F32(_scalar(spec, "scale", "q_scale"))
        zero = _scalar(spec, "zero_point", "zp") or 0
    v = (q - zero).astype(F32) * scale
    bias = _named(spec, g, "bias", "b")
    if bias is not None:
        v = v + (bias[:, None] if "bias per row" in spec.description else bias[None, :])
    return {"float32": _activated(spec, v)}


def _gemv(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    w, x = _named(spec, g, "w_q", "weight_q", "qweight"), _named(spec, g, "x_q", "act_q", "qinput")
    x = x.astype(np.int64)
    if "zero point" in spec.description:  # uint8 activations less their zero point
        assert x.min() >= 0
        x = x - _scalar(spec, "x_zero_point", "act_zp", "input_offset")
    acc = w.astype(np.int64) @ x
    int_bias = _named(spec, g, "bias_q", "bias_i32")
    if int_bias is not None:  # the accumulator starts at the int32 bias
        acc = acc + int_bias.astype(np.int64)
    y = acc.astype(F32) * _named(spec, g, "w_scale", "weight_scale") * F32(_scalar(spec, "x_scale", "act_scale"))
    bias = _named(spec, g, "bias", "b")
    if bias is not None:
        y = y + bias
    if "ReLU" in spec.description:
        y = np.maximum(y, F32(0))
    if "requantised" in spec.description:
        return {"int8": np.clip(_round(spec, y / F32(_scalar(spec, "out_scale", "y_scale"))), -127, 127).astype(np.int8)}
    return {"float32": y}


def _dynamic(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    x = _named(spec, g, "x", "act", "hidden")
    smooth = _named(spec, g, "smooth", "smooth_scale")
    if smooth is not None:
        x = x * smooth[None, :]
    eps = F32(1.0e-8 if "1.0e-8" in spec.source else 1.0e-6)
    scale = np.maximum(np.abs(x).max(axis=1), eps) / F32(127)
    v = x * (F32(1) / scale)[:, None] if "inv_scale" in spec.source else x / scale[:, None]
    return {"float32": scale, "int8": np.clip(_round(spec, v), -127, 127).astype(np.int8)}


def _normalized(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    img = _named(spec, g, "images", "img", "pixels")
    if "BGR" in spec.description:
        img = img[..., ::-1]
    mean, std = _named(spec, g, "mean", "channel_mean"), _named(spec, g, "std", "channel_std")
    scaled = img.astype(F32) / F32(255) if "/ 255.0" in spec.source else img.astype(F32) * F32(1 / 255)
    out = ((scaled - mean) / std).transpose(0, 3, 1, 2)
    return _stored(spec, out)


def _cross_entropy(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    labels = _named(spec, g, "labels", "targets", "y")
    scores = _named(spec, g, "logits", "scores", "log_probs", "logp").astype(np.float64)
    rows = np.arange(len(labels))
    picked = scores[rows, np.maximum(labels, 0)]
    loss = np.log(np.exp(scores).sum(axis=1)) - picked if "cross-entropy" in spec.description else -picked
    weight = _named(spec, g, "class_weight", "weights")
    if weight is not None:
        loss = weight[np.maximum(labels, 0)] * loss
    out = {"float32": np.where(labels < 0, 0.0, loss)}
    if "prediction correct" in spec.description:  # np.argmax: the first largest
        out["int32"] = np.where(labels < 0, 0, (np.argmax(scores, axis=1) == labels).astype(np.int32))
    return out


def _embedded(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    ids = _named(spec, g, "ids", "token_ids", "input_ids")
    table = _named(spec, g, "table", "embedding", "wte")
    out = table[ids]
    types = _named(spec, g, "type_ids", "segment_ids")
    if types is not None:
        out = out + _named(spec, g, "type_table", "segment_embedding")[types]
    if "sqrt(d)" in spec.description:
        out = out * F32(np.sqrt(table.shape[1]))
    pos = _named(spec, g, "pos", "wpe", "positions")
    if pos is not None:
        out = out + pos[np.arange(len(ids)) % pos.shape[0]]
    if "padding id 0" in spec.description:
        out = np.where((ids == 0)[:, None], F32(0), out)
    return {"float32": out}


def _int4_unpacked(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    packed = _named(spec, g, "packed", "qweight", "w_int4")
    order = [packed >> 4, packed & 0xF] if "high nibble first" in spec.description else [packed & 0xF, packed >> 4]
    nibbles = np.stack(order, axis=-1).reshape(packed.shape[0], -1).astype(np.int64)
    scales, zeros = _named(spec, g, "scales", "group_scales"), _named(spec, g, "zeros", "group_zeros")
    group = nibbles.shape[1] // scales.shape[1]
    scale = np.repeat(scales, group, axis=1)
    if zeros is not None:
        out = (nibbles.astype(F32) - np.repeat(zeros, group, axis=1)) * scale
    else:
        out = (nibbles - 8).astype(F32) * scale
    return _stored(spec, out)


def _int4_packed(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    x = _named(spec, g, "weights", "w", "x")
    scales = _named(spec, g, "scales", "row_scale", "group_scales")
    scale = scales[:, None] if scales.ndim == 1 else np.repeat(scales, x.shape[1] // scales.shape[1], axis=1)
    v = x * (F32(1) / scale) if "inv_scale" in spec.source else x / scale
    zeros = _named(spec, g, "zeros", "zero_point")
    if zeros is None:
        levels = np.clip(_round(spec, v), -8, 7).astype(np.int64) + 8
    else:
        levels = np.clip(_round(spec, v) + zeros[:, None], 0, 15).astype(np.int64)
    return {"uint8": (levels[:, 0::2] | (levels[:, 1::2] << 4)).astype(np.uint8)}


def _pcm(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    """int16 PCM decoded to [-1, 1) (a stereo pair averaged first), or float samples encoded back."""
    gain = _scalar(spec, "gain", "volume")
    if "encoded" in spec.description:
        x = _named(spec, g, "samples", "audio", "signal").astype(F32)
        v = np.clip(x * F32(gain) if gain is not None else x, F32(-1), F32(1))
        return {"int16": _round_half_away(v * F32(32767)).astype(np.int16)}
    pcm = _inputs(spec, g, "int16")[0].astype(F32)
    if "mixed down" in spec.description:
        left, right = (pcm[:, 0], pcm[:, 1]) if pcm.ndim == 2 else (pcm[0::2], pcm[1::2])
        value = F32(0.5) * (left + right)
    else:
        value = pcm
    value = value / F32(32768) if "/ 32768.0" in spec.source else value * F32(1 / 32768)
    return {"float32": F32(gain) * value if gain is not None else value}


def _depth_points(spec: KernelSpec, g: dict) -> dict[str, np.ndarray]:
    """Each pixel's depth in metres back-projected through the intrinsics; none under the minimum range."""
    d = _inputs(spec, g, "uint16")[0]
    minimum = int(re.search(r"readings under (\d+) mm", spec.description).group(1))
    scale = _scalar(spec, "depth_scale", "mm_to_m") or 0.001
    z = d.astype(F32) * F32(scale)
    far = _scalar(spec, "max_depth", "far")
    if far is not None:
        z = np.minimum(z, F32(far))
    v, u = np.indices(d.shape).astype(F32)
    fx, fy, cx, cy = (F32(_scalar(spec, k)) for k in ("fx", "fy", "cx", "cy"))
    points = np.stack([(u - cx) * z / fx, (v - cy) * z / fy, z], axis=-1)
    valid = d >= minimum
    out = {"vec3": np.where(valid[..., None], points, F32(0))}
    if "valid mask" in spec.description:
        out["int32"] = valid.astype(np.int32)
    return out


# the first key the description holds names the form ("dequantisation" and "dynamic per-row int8
# quantisation" hold "quantisation" too)
FORMS = (("int16 PCM", _pcm), ("uint16 depth image", _depth_points), ("two weights packed per byte", _int4_packed), ("int4 weights unpacked", _int4_unpacked), ("W8A8", _gemv), ("dynamic per-row", _dynamic), ("NHWC", _normalized), ("labels", _cross_entropy),
         ("embedding", _embedded), ("dequantisation", _dequantized), ("quantisation", _quantized))


@pytest.mark.parametrize("part", range(4))
def test_every_written_array_is_what_the_operation_gives(part):
    runs = _runs()
    for spec, g, out in runs[part::4]:
        expected = next(f for key, f in FORMS if key in spec.description)(spec, g)
        for dtype, want in expected.items():
            (got,) = _outputs(spec, out, dtype)
            if dtype == "float32":  # the activations' exp and tanh: numpy's double against Warp's float
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=spec.source)
            elif dtype == "float16":
                np.testing.assert_allclose(got.astype(F32), want.astype(F32), rtol=1e-3, atol=1e-3, err_msg=spec.source)
            elif dtype == "vec3":  # points: float32 arithmetic on both sides
                np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=spec.source)
            elif dtype == "bfloat16":  # its bits, widened: one unit of bfloat16 apart at most
                np.testing.assert_allclose(float_values(got, dtype), want, rtol=8e-3, atol=1e-3, err_msg=spec.source)
            else:
                assert got.dtype == want.dtype and np.array_equal(got, want), spec.source


def test_the_checked_kernels_hold_every_variant():
    described = " ".join(s.description for s, _, _ in _runs())
    assert [v for v in VARIANTS if v not in described] == []


def test_quantised_values_reach_the_clamp_and_zero():
    ints = [o for s, _, out in _runs() for o in _outputs(s, out, "int8")]
    values = np.concatenate([o.ravel() for o in ints]).astype(np.int64)
    assert values.min() in (-128, -127) and values.max() == 127 and (values == 0).any()


def test_some_quantised_inputs_fall_halfway_between_levels():
    """Rounding's ties are exercised: x / scale is exactly halfway between two levels for some elements,
    where half away from zero and half up differ for negative values."""
    ties = 0
    for spec, g, _ in _runs():
        scale = _scalar(spec, "scale", "q_scale")
        if "Quantised" in spec.description and " quantisation, per tensor" in spec.description and scale:
            v = _inputs(spec, g, "float32", 1)[0] / F32(scale)
            ties += int(np.count_nonzero(np.abs(v - np.trunc(v)) == 0.5))
    assert ties > 0


def test_no_product_with_a_computed_reciprocal_is_rounded_half_up():
    """`wp.floor(x * inv + 0.5)` with `inv = 1.0 / s` is a fused multiply-add on the GPU only: its level
    differs from Warp's CPU value near a half (an H200 run found 35 bytes of 8,192)."""
    for spec, _, _ in _runs():
        for inv in re.findall(r"^\s+(\w+) = 1\.0 / ", spec.source, re.M):
            assert not re.search(rf"wp\.floor\([^\n]*\* {inv} \+ 0\.5\)", spec.source), spec.source


def test_integer_arrays_hold_warps_types():
    types = {a.dtype for s, _, _ in _runs() for a in s.args}
    assert {"int8", "uint8", "int64", "int16", "uint16"} <= types
    assert all(re.search(r"wp\.(u?int8|int64|u?int16)", s.source) for s, _, _ in _runs())


def test_a_rows_own_value_under_a_2d_launch_grows_with_the_rows_at_bench_size():
    """A scale, zero point or token id per row, read by the outer index of a 2-D launch, is declared
    per_row, so bench.py grows it with the rows (else the bench launch reads past it)."""
    from cuda_production.bench import scales

    def outer_index(source: str) -> str:
        return re.search(r"^\s+(\w+), \w+ = wp\.tid\(\)", source, re.M).group(1)

    per_row = [(s, a) for s, _, _ in _runs() if len(s.dim) == 2 for a in s.args
               if a.is_array and len(a.shape) == 1 and re.search(rf"\b{a.name}\[{outer_index(s.source)}\]", s.source)]
    assert per_row and all(a.per_row and scales(a, s.dim) for s, a in per_row)


def test_an_embedding_table_keeps_its_vocabulary_at_any_bench_size():
    """The table's rows belong to no token: a vocabulary that is a multiple of the tokens (500 beside
    100) must not grow or shrink with the launch, or ids in [0, vocab) read past it at a smaller one."""
    from cuda_production.bench import bench_metadata

    lookups = []
    for s in (s for s in range(20000) if quantized.chooses_quantized(s)):
        spec = generate("arithmetic", s)
        if "embedding lookup" in spec.description:
            ids = next(a for a in spec.args if a.dtype == "int64" and a.high > 1)
            table = next(a for a in spec.args if a.dtype == "float32" and len(a.shape) == 2 and a.shape[0] == ids.high + 1)
            lookups.append((spec, table))
        if sum(table.shape[0] % spec.dim[0] == 0 for spec, table in lookups) >= 3:
            break
    assert sum(table.shape[0] % spec.dim[0] == 0 for spec, table in lookups) >= 3  # the case that went wrong
    for spec, table in lookups:
        assert bench_metadata(list(spec.args), spec.dim)["arrays"][table.name]["scales"] is False


def test_an_array_no_thread_owns_a_row_of_keeps_its_size():
    """An input read only at indices other than the thread's own row (a loop's `x_q[j]`, a looked-up
    `table[row, j]`, a class's weight) is a model's dimension (input features, a vocabulary, classes):
    it must not grow with the launch at bench size, even where its length is a multiple of the rows
    (W8A8's 128 activations beside 64 outputs read past the vector at a launch of 16)."""
    import ast

    from cuda_production.bench import scales

    checked = 0
    for s in [s for s in range(4000) if quantized.chooses_quantized(s)][:400]:
        spec = generate("arithmetic", s)
        kernel = next(f for f in ast.parse(spec.source).body if isinstance(f, ast.FunctionDef)
                      and any(getattr(d, "attr", getattr(getattr(d, "func", None), "attr", "")) == "kernel"
                              for d in f.decorator_list))
        outer = next(n for n in ast.walk(kernel) if isinstance(n, ast.Assign) and ast.unparse(n.value) == "wp.tid()")
        target = outer.targets[0]
        row = (target.elts[0] if isinstance(target, ast.Tuple) else target).id
        owned, read = set(), set()
        for node in ast.walk(kernel):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
                first = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) else node.slice
                read.add(node.value.id)
                if row in {n.id for n in ast.walk(first) if isinstance(n, ast.Name)}:
                    owned.add(node.value.id)
        for arg in spec.args:
            if arg.is_array and arg.role == "input" and arg.name in read - owned:
                checked += 1
                assert not scales(arg, spec.dim), (arg.name, spec.source)
    assert checked > 50


def test_other_arithmetic_kernels_keep_their_draws(monkeypatch):
    assert_others_keep_their_draws(monkeypatch, "arithmetic", quantized, "chooses_quantized")


def test_the_int4_kernels_leave_the_other_quantised_kernels_their_draws(monkeypatch):
    seeds = [s for s in range(3000) if quantized.chooses_quantized(s)][:60]
    drawn = [generate("arithmetic", s) for s in seeds]
    monkeypatch.setattr(quantized, "INT4_SHARE", 0.0)
    kept = [generate("arithmetic", s) for s in seeds]
    int4 = ["int4" in a.description for a in drawn]
    assert any(int4) and not any("int4" in b.description for b in kept)
    assert [a.source != b.source for a, b in zip(drawn, kept)] == int4  # exactly the int4 draws differ


def test_half_outputs_in_bfloat16_leave_the_other_kernels_their_draws():
    """bfloat16 or float16 comes from a stream of its own: a kernel's text differs from the one with
    float16 only in the type's name."""
    seeds = [s for s in range(4000) if quantized.half_type(s) == "bfloat16"]
    changed = 0
    for s in seeds[:300]:
        source = generate("arithmetic", s).source
        if "bfloat16" in source:
            changed += 1
            original = quantized.half_type
            quantized.half_type = lambda seed: "float16"
            try:
                assert generate("arithmetic", s).source == source.replace("bfloat16", "float16")
            finally:
                quantized.half_type = original
    assert changed


def test_the_sensor_kernels_leave_the_other_quantised_kernels_their_draws(monkeypatch):
    assert_others_keep_their_draws(monkeypatch, "arithmetic", quantized, "chooses_sensor")


def test_pcm_and_depth_arrays_hold_warps_16_bit_types():
    for spec, g, out in _runs():
        for a in spec.args:
            if a.dtype in ("int16", "uint16"):
                arrays = g if a.name in g else out
                assert arrays[a.name].dtype == np.dtype(a.dtype), (a.name, spec.source)


def test_a_predictions_arg_max_comes_from_the_loop_that_finds_the_largest_logit():
    """The first largest logit's class is found where the largest is (`if s > m: m = s; best = c`), as
    one pass over the row: a second loop over the same row for the arg-max was the tell (session 60)."""
    found = 0
    for seed in range(3000):
        if not quantized.chooses_quantized(seed):
            continue
        spec = generate("arithmetic", seed)
        if "prediction correct" not in spec.description:
            continue
        found += 1
        assert len(re.findall(r"^    for \w+ in range\(", spec.source, re.M)) == 2, spec.source  # the max, the sum
        assert re.search(r"if \w+\[\w+, \w+\] > (\w+):\n\s+\1 = ", spec.source), spec.source
    assert found >= 3
