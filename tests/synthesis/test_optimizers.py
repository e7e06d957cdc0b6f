"""The optimizer-step kernels (synthesis/categories/optimizers.py): each kernel's outputs, run by Warp on
the CPU, are the update its optimizer's documentation gives (PyTorch's SGD, Adam, AdamW, RMSprop,
Adagrad; Lion's paper), written here in numpy from those documents; and the scalar_param kernels that are
not optimizer steps keep their draws."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from synthesis.categories import generate, optimizers
from synthesis.categories.optimizers import (BF16_COPY_NAMES, EMA_NAMES, GRAD_NAMES, HALF_COPY_NAMES, LR_ARRAY_NAMES, MASK_NAMES,
                                             MASTER_NAMES, MOMENT_NAMES, NORM_NAMES, PARAM_NAMES,
                                             VEC_PARAM_NAMES)
from synthesis.dtypes import bfloat16_bits, float_values
from synthesis.spec import KernelSpec
from tests.cuda_production.harness import warp_runs
from tests.synthesis.shares import assert_others_keep_their_draws


def _optimizer_seeds(count: int) -> list[int]:
    return [s for s in range(3000) if optimizers.chooses_optimizer(s)][:count]


@functools.lru_cache(maxsize=None)
def _runs() -> tuple[tuple[KernelSpec, dict, dict], ...]:
    """Arrays flat, element-major: the updates are elementwise, a vec3 parameter's components alike."""
    return warp_runs([generate("scalar_param", s) for s in _optimizer_seeds(160)], "test_optimizers", shaped=False)


# ---- what a kernel holds, found by the names people give it --------------------------------------------
class Kernel:
    def __init__(self, spec: KernelSpec, arrays: dict) -> None:
        self.spec, self.arrays = spec, arrays
        self.scalars = {a.name: a.value for a in spec.args if a.role == "scalar"}

    def has(self, feature: str) -> bool:
        return feature in self.spec.description

    def array(self, names: tuple[str, ...]) -> str | None:
        return next((n for n in names if n in self.arrays), None)

    def value(self, *names: str) -> np.float64:
        """A scalar argument, as the kernel receives it (float32)."""
        return np.float64(np.float32(next(self.scalars[n] for n in names if n in self.scalars)))

    def has_scalar(self, *names: str) -> bool:
        return any(n in self.scalars for n in names)

    def values(self, name: str) -> np.ndarray:
        """An array's values as float64 (a bfloat16 array's bits widened first)."""
        return float_values(self.arrays[name], self.scalar_type(name)).astype(np.float64)

    def scalar_type(self, name: str) -> str:
        return next(a.dtype for a in self.spec.args if a.name == name)

    def active(self) -> np.ndarray:
        """The values the step updates (each component of a vec3 parameter): all, but those past a
        padded launch's count or frozen."""
        n = self.spec.dim[0]
        active = np.ones(n, dtype=bool)
        if self.has("padded launch"):
            active[int(self.value("n", "num_params", "count")):] = False
        mask = self.array(MASK_NAMES)
        if mask is not None:
            active &= self.arrays[mask] != 0
        return np.repeat(active, len(self.arrays[self.parameter_array()]) // n)

    def learning_rate(self) -> np.float64:
        lr_array = self.array(LR_ARRAY_NAMES)
        if lr_array is not None and self.has("learning rate read from a one-element array"):
            return np.float64(self.arrays[lr_array][0])
        return self.value("lr", "learning_rate")

    def parameter_array(self) -> str:
        if self.has("master weights"):
            return self.array(MASTER_NAMES)
        return self.array(VEC_PARAM_NAMES if self.has("vec3 parameters") else PARAM_NAMES)

    def gradient(self, p: np.ndarray) -> np.ndarray:
        """The gradient the update uses: unscaled, clipped, with L2 weight decay."""
        g = self.values(self.array(GRAD_NAMES))
        if self.has("unscaled by the loss scale"):
            g = g * self.value("inv_scale", "inv_loss_scale") if self.has_scalar("inv_scale", "inv_loss_scale") \
                else g / self.value("loss_scale", "grad_scale")
        if self.has("clipped by value"):
            limit = self.value("clip_value", "grad_clip", "max_grad")
            g = np.clip(g, -limit, limit)
        if self.has("clipped by its global norm"):
            norm = self.values(self.array(NORM_NAMES))[0]
            g = g * min(self.value("max_norm", "max_grad_norm", "clip_norm") / (norm + 1e-6), 1.0)
        if self.has("L2 weight decay"):
            g = g + self.value("weight_decay", "wd", "l2") * p
        return g


# ---- the optimizers, from their documentation ----------------------------------------------------------
def _state(k: Kernel, names: tuple[str, ...]) -> str:
    found = k.array(names)
    assert found is not None, (names, k.spec.source)
    return found


def sgd(k: Kernel, p: np.ndarray, g: np.ndarray, lr: np.float64) -> tuple[np.ndarray, dict]:
    """(Elementwise, so a vec3 parameter's components too.) PyTorch's SGD: b = mu * b + (1 - dampening) * g; Nesterov g + mu * b; the velocity form v = mu * v - lr * g."""
    if k.has("velocity form"):
        vel = _state(k, ("velocity", "vel", "momentum_buf"))
        v = k.value("momentum", "mu") * k.values(vel) - lr * g
        return p + v, {vel: v}
    if not k.has("momentum"):
        return p - lr * g, {}
    buf_name = _state(k, ("momentum_buf", "momentum_buffer", "buf"))
    mu = k.value("momentum", "mu")
    dampening = k.value("dampening") if k.has("dampening") else 0.0
    buf = mu * k.values(buf_name) + (1.0 - dampening) * g
    step = g + mu * buf if k.has("Nesterov") else buf
    return p - lr * step, {buf_name: buf}


def _betas(k: Kernel) -> tuple[np.float64, np.float64]:
    return k.value("beta1", "b1"), k.value("beta2", "b2")


def adam(k: Kernel, p: np.ndarray, g: np.ndarray, lr: np.float64) -> tuple[np.ndarray, dict]:
    """Adam (Algorithm 1 of Kingma and Ba) and AdamW (decoupled: p * (1 - lr * wd)), AMSGrad's maximum."""
    b1, b2 = _betas(k)
    m_name, v_name = next((m, v) for m, v in MOMENT_NAMES if m in k.arrays and v in k.arrays)
    m = b1 * k.values(m_name) + (1.0 - b1) * g
    v = b2 * k.values(v_name) + (1.0 - b2) * g * g
    states = {m_name: m, v_name: v}
    if k.has("AMSGrad"):
        v_max_name = _state(k, ("v_max", "max_exp_avg_sq"))
        v = np.maximum(k.values(v_max_name), v)
        states[v_max_name] = v
    if k.has("bias corrections from the step count"):
        t_arg = next(a for a in k.spec.args if a.name in ("t", "step", "iteration"))
        t = np.float64(t_arg.value) + (1.0 if t_arg.dtype == "float32" else 0.0)  # Warp's Adam counts from 0
        bc1, bc2 = 1.0 - b1 ** t, 1.0 - b2 ** t
    else:
        bc1, bc2 = k.value("bias_correction1", "bc1"), k.value("bias_correction2", "bc2")
    eps = k.value("eps", "epsilon")
    step = (m / bc1) / (np.sqrt(v / bc2) + eps)
    if k.has("AdamW"):
        p = p * (1.0 - lr * k.value("weight_decay", "wd"))
    return p - lr * step, states


def rmsprop(k: Kernel, p: np.ndarray, g: np.ndarray, lr: np.float64) -> tuple[np.ndarray, dict]:
    """PyTorch's RMSprop: sq = alpha * sq + (1 - alpha) * g^2; centred: less the mean gradient's square; momentum."""
    alpha, eps = k.value("alpha", "rho", "decay"), k.value("eps", "epsilon")
    sq_name = _state(k, ("square_avg", "mean_sq", "sq_avg"))
    sq = alpha * k.values(sq_name) + (1.0 - alpha) * g * g
    states = {sq_name: sq}
    if k.has("centred"):
        mean_name = _state(k, ("grad_avg", "mean_grad"))
        mean = alpha * k.values(mean_name) + (1.0 - alpha) * g
        states[mean_name] = mean
        avg = np.sqrt(sq - mean * mean) + eps
    else:
        avg = np.sqrt(sq) + eps
    if k.has("with momentum"):
        buf_name = _state(k, ("momentum_buf", "buf"))
        buf = k.value("momentum", "mu") * k.values(buf_name) + g / avg
        states[buf_name] = buf
        return p - lr * buf, states
    return p - lr * g / avg, states


def adagrad(k: Kernel, p: np.ndarray, g: np.ndarray, lr: np.float64) -> tuple[np.ndarray, dict]:
    """PyTorch's Adagrad: clr = lr / (1 + (t - 1) * lr_decay); sum += g^2; p -= clr * g / (sqrt(sum) + eps)."""
    sum_name = _state(k, ("state_sum", "sum_sq", "accumulator"))
    total = k.values(sum_name) + g * g
    if k.has("learning-rate decay"):
        lr = lr / (1.0 + (k.value("t", "step") - 1.0) * k.value("lr_decay"))
    return p - lr * g / (np.sqrt(total) + k.value("eps", "epsilon")), {sum_name: total}


def lion(k: Kernel, p: np.ndarray, g: np.ndarray, lr: np.float64) -> tuple[np.ndarray, dict]:
    """Lion (Algorithm 2 of Chen et al.): c = b1 * m + (1 - b1) * g; p -= lr * (sign(c) + wd * p);
    m = b2 * m + (1 - b2) * g. Warp's sign is 1 at 0."""
    b1, b2 = _betas(k)
    m_name = _state(k, ("m", "exp_avg", "momentum"))
    m0 = k.values(m_name)
    c = b1 * m0 + (1.0 - b1) * g
    sign = np.where(c < 0.0, -1.0, 1.0)
    decay = k.value("weight_decay", "wd") if k.has_scalar("weight_decay", "wd") else 0.0
    return p - lr * (sign + decay * p), {m_name: b2 * m0 + (1.0 - b2) * g}


UPDATES = {"AdamW": adam, "Adam": adam, "Lion": lion, "centred RMSprop": rmsprop, "RMSprop": rmsprop,
           "Adagrad": adagrad, "SGD": sgd}


def expected_outputs(k: Kernel) -> dict[str, np.ndarray]:
    """Every written array after the step, from the documented update (float64)."""
    params = k.parameter_array()
    p = k.values(params)
    update = next(f for name, f in UPDATES.items() if k.has(name))
    new, states = update(k, p, k.gradient(p), k.learning_rate())
    out = {params: new, **states}
    if k.has("master weights"):
        out[k.array(HALF_COPY_NAMES + BF16_COPY_NAMES)] = new
    if k.has("moving average of the weights"):
        ema = k.array(EMA_NAMES)
        decay = k.value("ema_decay", "ema_rate")
        out[ema] = decay * k.values(ema) + (1.0 - decay) * new
    active = k.active()
    return {name: np.where(active, value, k.values(name) if name in k.arrays else 0.0)
            for name, value in out.items()}


@pytest.mark.parametrize("form", ["SGD", "Adam", "AdamW", "AMSGrad", "RMSprop", "centred RMSprop", "Adagrad", "Lion",
                                  "velocity form", "Nesterov", "master weights", "float16 parameters",
                                  "unscaled by the loss scale", "clipped by value", "clipped by its global norm",
                                  "moving average of the weights", "learning rate read from a one-element array",
                                  "frozen parameters skipped", "padded launch", "bias corrections passed in",
                                  "vec3 parameters", "generic kernel", "bfloat16 gradients", "bfloat16 copy"])
def test_every_variant_is_drawn(form):
    assert any(form in spec.description for spec, _, _ in _runs())


def test_warp_computes_the_documented_update_of_every_optimizer_kernel():
    """All written arrays (parameters, moments, buffers, half copies, averages) of 160 kernels."""
    for spec, arrays, written in _runs():
        expected = expected_outputs(Kernel(spec, arrays))
        assert set(expected) == set(written), spec.source
        for name, want in expected.items():
            got = written[name].astype(np.float64)
            if Kernel(spec, arrays).scalar_type(name) == "bfloat16":  # its bits; rounded once to bfloat16
                got = float_values(written[name], "bfloat16").astype(np.float64)
                want = float_values(bfloat16_bits(want.astype(np.float32)), "bfloat16").astype(np.float64)
                np.testing.assert_allclose(got, want, rtol=8e-3, atol=1e-4, err_msg=f"{name}\n{spec.source}")
            elif written[name].dtype == np.float16:  # rounded once to half: within half an ulp, as stored
                want = want.astype(np.float16).astype(np.float64)
                np.testing.assert_allclose(got, want, rtol=2e-3, atol=1e-4, err_msg=f"{name}\n{spec.source}")
            else:
                np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6, err_msg=f"{name}\n{spec.source}")


def test_every_step_moves_the_parameters():
    """A step that left the parameters as they were would teach nothing: every kernel changes most
    of its active parameters."""
    for spec, arrays, written in _runs():
        k = Kernel(spec, arrays)
        name = k.parameter_array()
        active = k.active()
        moved = written[name][active] != arrays[name][active]
        assert moved.mean() > 0.5, spec.source


def test_other_scalar_param_kernels_keep_their_draws(monkeypatch):
    """Whether a kernel is an optimizer step comes from a stream of its own: the other seeds draw exactly
    what they drew before optimizers.py (here: what they draw with optimizer steps switched off)."""
    assert_others_keep_their_draws(monkeypatch, "scalar_param", optimizers, "chooses_optimizer")


def test_moments_and_parameters_stay_float32_whatever_the_precision():
    """Mixed precision keeps its state in float32 (Warp's Adam for half parameters does): only
    parameters, their copies and gradients are float16 (or bfloat16, whose parameters are master weights)."""
    for spec, _, _ in _runs():
        for a in spec.args:
            if a.dtype == "float16":
                assert a.name in PARAM_NAMES + HALF_COPY_NAMES + GRAD_NAMES, (a.name, spec.source)
            if a.dtype == "bfloat16":
                assert a.name in BF16_COPY_NAMES + GRAD_NAMES, (a.name, spec.source)


def test_a_step_never_mixes_float16_and_bfloat16():
    for spec, _, _ in _runs():
        assert len({a.dtype for a in spec.args} & {"float16", "bfloat16"}) <= 1, spec.source


def _generic_specs(count: int) -> list[KernelSpec]:
    specs = (generate("scalar_param", s) for s in range(20000)
             if optimizers.chooses_optimizer(s) and optimizers.chooses_generic(s))
    return [spec for spec in specs if "wp.overload(" in spec.source][:count]


def _overload_entries(spec: KernelSpec) -> dict[str, str]:
    """The `wp.overload` line's parameter -> array type text."""
    line = next(line for line in spec.source.splitlines() if line.startswith("wp.overload("))
    return dict(re.findall(r'"(\w+)": (wp\.array[^,}]*[)\]])', line))


def test_a_generic_step_declares_every_array_of_its_element_type_any_and_overloads_it_with_that_type():
    for spec in _generic_specs(12):
        generic = {a.name for a in spec.args if re.search(rf"\b{a.name}: wp\.array(?:\(dtype=Any\)|\[Any\])", spec.source)}
        entries = _overload_entries(spec)
        assert generic and set(entries) == generic, spec.source
        step_type = next(a.dtype for a in spec.args if a.name in generic)
        assert {a.name for a in spec.args if a.role != "scalar" and a.dtype == step_type and a.shape == spec.dim} == generic
        spelled = "wp.vec3" if step_type == "vec3" else ("float", "wp.float32")
        assert all(re.search(r"[(\[](?:dtype=)?([\w.]+)", t).group(1) in spelled for t in entries.values()), entries


def test_a_generic_step_compiles_for_float32_and_vec3_parameters_alike():
    """The generic kernels are generic in fact: Warp builds each for the other element type too."""
    from extraction import warp_compat
    from extraction.loader import load_kernels, unload

    specs = _generic_specs(8)
    assert {"vec3" in _overload_entries(s)[next(iter(_overload_entries(s)))] for s in specs} == {True, False}
    for spec in specs:
        entries = _overload_entries(spec)
        other = "float" if "vec3" in next(iter(entries.values())) else "wp.vec3"
        extra = ", ".join(f'"{name}": wp.array(dtype={other})' for name in entries)
        module = f"generic_{spec.name}"
        kernel = load_kernels(spec.source + f"wp.overload({spec.name}, {{{extra}}})\n", module)[spec.name]
        try:
            warp_compat.build_module(kernel, True)
            assert len(kernel.overloads) == 2
        finally:
            unload(module)


def test_other_optimizer_steps_keep_their_draws_beside_generic_ones(monkeypatch):
    assert_others_keep_their_draws(monkeypatch, "scalar_param", optimizers, "chooses_generic")
