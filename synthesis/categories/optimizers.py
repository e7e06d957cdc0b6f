"""Optimizer steps: the kernels a training loop runs over every parameter once per step, one table
entry per optimizer (OPTIMIZER_FORMS), each written as PyTorch's documentation (or the optimizer's
paper) states its update: SGD (weight decay, momentum with dampening, Nesterov, or the velocity form
`v = mu * v - lr * g`), Adam and AdamW (bias corrections computed from the step or passed in, the
denominator as the paper or as PyTorch writes it, AMSGrad), RMSprop (centred, with momentum),
Adagrad (learning-rate decay) and Lion (the sign of an interpolation).

Around the update, what training code does: gradients read from half precision, unscaled by a loss
scale, clipped by value or by the coefficient of a global norm held in a one-element array, with L2
weight decay; parameters in float32, in float16 (the update computed in float32 and rounded once, as
Warp's own Adam does for half parameters) or as float32 master weights with a float16 copy written for
the forward pass; in half of the mixed-precision steps (BF16_SHARE) bfloat16 instead: its gradients need
no loss scale, and its parameters are float32 master weights with a bfloat16 copy; the learning rate
passed by value or read from a one-element array (a schedule on the device, as graph-captured training
keeps it); a padded launch or frozen parameters skipped; an
exponential moving average of the weights updated after the step. Moments are float32 whatever the
parameters' precision.

The scalar_param category draws these kernels (OPTIMIZER_SHARE of it) from a stream of its own, so
every other scalar_param kernel keeps its draws."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Callable

from synthesis.categories.common import padded_launch, pick_dim
from synthesis.exprgen import KernelWriter
from synthesis.spec import KernelSpec

OPTIMIZER_SHARE = 0.3  # of scalar_param kernels

# Names people give the arrays (the tests find them by these).
PARAM_NAMES = ("params", "weights", "param", "theta")
VEC_PARAM_NAMES = ("positions", "points", "params", "x")
GRAD_NAMES = ("grads", "grad", "gradients", "param_grads")
MASTER_NAMES = ("master_params", "master_weights", "params_fp32")
HALF_COPY_NAMES = ("params_half", "weights_fp16", "model_params")
BF16_COPY_NAMES = ("params_bf16", "weights_bf16", "model_params")
LR_ARRAY_NAMES = ("lr_buf", "lr_schedule", "learning_rate")
NORM_NAMES = ("grad_norm", "total_norm", "global_norm")
MASK_NAMES = ("trainable", "requires_grad", "update_mask")
EMA_NAMES = ("ema_params", "ema", "averaged_params")
MOMENT_NAMES = (("m", "v"), ("exp_avg", "exp_avg_sq"), ("first_moment", "second_moment"), ("moment1", "moment2"))
BETA_NAMES = (("beta1", "beta2"), ("b1", "b2"))
PRECISIONS = ("float32", "float32", "float32", "float32", "half gradients", "half gradients", "half parameters",
              "master weights", "master weights")
LOSS_SCALES = (128.0, 256.0, 1024.0)
# of the mixed-precision steps (half gradients, master weights): in bfloat16, as most training is today,
# from a stream of its own. bfloat16 keeps float32's exponent, so its gradients need no loss scale, and
# its 8 significant bits resolve no step of the learning rates here: its parameters are float32 master
# weights with a bfloat16 copy
BF16_SHARE = 0.5
# Parameters kept in float16 only for optimizers whose steps a half resolves: a half's spacing near 1 is
# 2**-10, so a step of lr * O(1) below ~1e-2 leaves most parameters unchanged (Adam at 1e-3, Lion)
HALF_PARAMETER_MIN_LR = 1e-2
VEC3_SHARE = 0.2  # of the optimizers written for vec3 parameters too (SGD, Adam)
# of the SGD steps whose arrays share one element type: written once for any element type, as Warp's
# own SGD is (`wp.array(dtype=Any)`), and instantiated for this one by `wp.overload`
GENERIC_SHARE = 0.6
ELEMENT_TYPE = re.compile(r"(?<=dtype=)[\w.]+|(?<=\[)[\w.]+")  # of `wp.array(dtype=T)` / `wp.array[T]`


def _fmt(value: float) -> str:
    return repr(float(value))


@dataclass
class Step:
    """One optimizer step as it is written: the writer, the thread's element, the locals holding the
    parameter (`p`, float32) and its gradient (`g`, float32), the learning rate's text (`lr`), and
    how the new parameter value is stored (`finish`)."""

    w: KernelWriter
    precision: str
    vec: bool = False  # wp.vec3 parameters (positions a simulation optimises), updated componentwise
    own: str = ""
    p: str = ""
    g: str = ""
    lr: str = ""
    params: str = ""  # the array the parameter is read from and stored to (the master weights for those)
    half_copy: str = ""  # master weights: the float16 (or bfloat16) copy written for the forward pass
    half_type: str = "float16"  # the 16-bit float of mixed precision: float16 or bfloat16
    features: list[str] = field(default_factory=list)

    @property
    def rng(self) -> random.Random:
        return self.w.rng

    def scalar(self, hints: tuple[str, ...], value: float | int, dtype: str = "float32") -> str:
        expr = self.w.add_scalar(self.rng.choice(hints), dtype, value)
        self.w.retire(expr.src)
        return expr.src

    @property
    def dtype(self) -> str:
        return "vec3" if self.vec else "float32"

    def state(self, hints: tuple[str, ...], low: float, high: float) -> str:
        """An optimizer state array (float32, or vec3 for vec3 parameters) the step reads and writes (a
        moment, a momentum buffer)."""
        return self.w.add_array(self.rng.choice(hints), self.dtype, "inout", low=low, high=high, grid_bits=10)

    def local(self, prefix: str, value: str) -> str:
        name = self.w.fresh(prefix)
        self.w.emit(f"{name} = {value}")
        return name

    def reassign(self, name: str, value: str) -> str:
        """`name = value` for a local that already holds a value (`g = g * clip_coef`), as people
        update a gradient or a parameter step by step rather than numbering each stage."""
        self.w.emit(f"{name} = {value}")
        return name


# ---- reading the parameter and its gradient ------------------------------------------------------------
def _read_parameter(s: Step) -> None:
    w, rng = s.w, s.rng
    if s.precision == "master weights":
        s.params = w.add_array(rng.choice(MASTER_NAMES), "float32", "inout")
        names = BF16_COPY_NAMES if s.half_type == "bfloat16" else HALF_COPY_NAMES
        s.half_copy = w.add_array(rng.choice(names), s.half_type, "output")
        s.p = s.local("p", f"{s.params}[{s.own}]")
        s.features.append(f"float32 master weights with a {s.half_type} copy")
    elif s.precision == "half parameters":
        s.params = w.add_array(rng.choice(PARAM_NAMES), "float16", "inout")
        s.p = s.local("p", f"float({s.params}[{s.own}])")
        s.features.append("float16 parameters (updated in float32, rounded once)")
    else:
        s.params = w.add_array(rng.choice(VEC_PARAM_NAMES if s.vec else PARAM_NAMES), s.dtype, "inout")
        s.p = s.local("p", f"{s.params}[{s.own}]")
        if s.vec:
            s.features.append("vec3 parameters (componentwise)")


def _read_gradient(s: Step, l2_decay: bool) -> None:
    """`g`: the gradient as the update uses it (float32): read (from half precision), unscaled,
    clipped, with L2 weight decay added."""
    w, rng = s.w, s.rng
    half = s.precision != "float32"  # mixed precision keeps its gradients in float16 (or bfloat16)
    scaled = rng.random() < 0.35 if half else False
    if half and s.half_type == "bfloat16":  # float32's range: no loss scale
        grads = w.add_array(rng.choice(GRAD_NAMES), "bfloat16", "input")
        s.g = s.local("g", f"float({grads}[{s.own}])")
        s.features.append("bfloat16 gradients")
    elif scaled:  # mixed-precision training's loss scaling: the gradients are scaled
        scale = rng.choice(LOSS_SCALES)
        grads = w.add_array(rng.choice(GRAD_NAMES), "float16", "input", low=-scale, high=scale, grid_bits=2)
        if rng.random() < 0.5:
            inv = s.scalar(("inv_scale", "inv_loss_scale"), 1.0 / scale)
            s.g = s.local("g", f"float({grads}[{s.own}]) * {inv}")
        else:
            loss_scale = s.scalar(("loss_scale", "grad_scale"), scale)
            s.g = s.local("g", f"float({grads}[{s.own}]) / {loss_scale}")
        s.features.append("float16 gradients unscaled by the loss scale")
    elif half:
        grads = w.add_array(rng.choice(GRAD_NAMES), "float16", "input")
        s.g = s.local("g", f"float({grads}[{s.own}])")
        s.features.append("float16 gradients")
    else:
        grads = w.add_array(rng.choice(GRAD_NAMES), s.dtype, "input")
        s.g = s.local("g", f"{grads}[{s.own}]")
    clip = rng.random()
    if clip < 0.12 and not s.vec:  # (wp.clamp takes scalars)  # clipped by value, inside the gradients' range so that it clips
        limit = s.scalar(("clip_value", "grad_clip", "max_grad"), rng.choice([0.25, 0.5, 0.75]))
        s.reassign(s.g, f"wp.clamp({s.g}, -{limit}, {limit})")
        s.features.append("gradient clipped by value")
    elif clip < 0.24:  # by the global norm, computed by an earlier reduction: a one-element array
        norm = w.add_array(rng.choice(NORM_NAMES), "float32", "input", shape=(1,), low=0.5, high=4.0, grid_bits=6)
        max_norm = s.scalar(("max_norm", "max_grad_norm", "clip_norm"), rng.choice([0.5, 1.0, 2.0]))
        coef = s.local("clip_coef", f"wp.min({max_norm} / ({norm}[0] + 1.0e-6), 1.0)")
        s.reassign(s.g, f"{s.g} * {coef}")
        s.features.append("gradient clipped by its global norm")
    if l2_decay:
        decay = s.scalar(("weight_decay", "wd", "l2"), rng.choice([1e-4, 5e-4, 1e-2, 0.05]))
        s.reassign(s.g, f"{s.g} + {decay} * {s.p}")
        s.features.append("L2 weight decay")


def _learning_rate(s: Step, values: tuple[float, ...]) -> None:
    if s.rng.random() < 0.15:  # on the device: a schedule updates it between graph launches
        lr_array = s.w.add_array(s.rng.choice(LR_ARRAY_NAMES), "float32", "input", shape=(1,),
                                 low=min(values), high=max(values), grid_bits=14)
        s.lr = s.local("lr", f"{lr_array}[0]")
        s.features.append("learning rate read from a one-element array")
    else:
        s.lr = s.scalar(("lr", "learning_rate"), s.rng.choice(values))


def _store(s: Step, new_value: str, ema: bool) -> None:
    """The new parameter value stored as the parameters are kept; then (`ema`) a moving average of it."""
    w, rng = s.w, s.rng
    if ema or s.precision == "master weights":
        new_value = s.local("p_new", new_value)
    if s.precision == "half parameters":
        w.emit(f"{s.params}[{s.own}] = wp.float16({new_value})")
    else:
        w.emit(f"{s.params}[{s.own}] = {new_value}")
    if s.precision == "master weights":
        w.emit(f"{s.half_copy}[{s.own}] = wp.{s.half_type}({new_value})")
    if ema:
        averaged = w.add_array(rng.choice(EMA_NAMES), s.dtype, "inout")
        decay = s.scalar(("ema_decay", "ema_rate"), rng.choice([0.99, 0.995, 0.999]))
        if rng.random() < 0.5:
            w.emit(f"{averaged}[{s.own}] = {decay} * {averaged}[{s.own}] + (1.0 - {decay}) * {new_value}")
        else:  # as a lerp toward the new value
            w.emit(f"{averaged}[{s.own}] = {averaged}[{s.own}] + (1.0 - {decay}) * ({new_value} - {averaged}[{s.own}])")
        s.features.append("moving average of the weights")


def _minus_step(s: Step, step: str) -> str:
    """`p - lr * step` (`step` a name, or an expression that binds tighter than `*`'s right operand: `(a + b)`, `g / d`)."""
    return f"{s.p} - {s.lr} * {step}"


# ---- the optimizers --------------------------------------------------------------------------------------
def sgd(s: Step) -> str:
    """SGD as PyTorch documents it: weight decay (L2, in the gradient), momentum `buf = mu * buf +
    (1 - dampening) * g`, Nesterov's `g + mu * buf`; or the velocity form `v = mu * v - lr * g`,
    `p = p + v` (Sutskever et al. 2013)."""
    w, rng = s.w, s.rng
    _read_gradient(s, l2_decay=rng.random() < 0.4)
    kind = rng.choice(["plain", "momentum", "momentum", "nesterov", "velocity"])
    if kind == "plain":
        s.features.append("SGD")
        return _minus_step(s, s.g)
    mu = s.scalar(("momentum", "mu"), rng.choice([0.9, 0.95, 0.99, 0.5]))
    if kind == "velocity":
        velocity = s.state(("velocity", "vel", "momentum_buf"), -0.25, 0.25)
        v = s.local("v", f"{mu} * {velocity}[{s.own}] - {s.lr} * {s.g}")
        w.emit(f"{velocity}[{s.own}] = {v}")
        s.features.append("SGD with momentum (velocity form)")
        return f"{s.p} + {v}"
    buf_array = s.state(("momentum_buf", "momentum_buffer", "buf"), -0.5, 0.5)
    if kind == "momentum" and rng.random() < 0.3:
        dampening = s.scalar(("dampening",), rng.choice([0.1, 0.5]))
        buf = s.local("buf", f"{mu} * {buf_array}[{s.own}] + (1.0 - {dampening}) * {s.g}")
        s.features.append("SGD with momentum (dampening)")
    else:
        buf = s.local("buf", f"{mu} * {buf_array}[{s.own}] + {s.g}")
    w.emit(f"{buf_array}[{s.own}] = {buf}")
    if kind == "nesterov":
        s.features.append("SGD with Nesterov momentum")
        return _minus_step(s, f"({s.g} + {mu} * {buf})")
    if "SGD with momentum (dampening)" not in s.features:
        s.features.append("SGD with momentum")
    return _minus_step(s, buf)


def _moments(s: Step, beta1: str, beta2: str, in_place: bool) -> tuple[str, str]:
    """The first and second moments updated and stored; their values' texts."""
    w, rng = s.w, s.rng
    m_hint, v_hint = rng.choice(MOMENT_NAMES)  # named as a pair
    # states a run could hold: a second moment at least the first's square (its root bounds the step)
    m_array = s.state((m_hint,), -0.25, 0.25)
    v_array = s.state((v_hint,), 0.0625, 0.25)
    square = f"wp.cw_mul({s.g}, {s.g})" if s.vec else f"{s.g} * {s.g}"
    if in_place:  # as Warp's own Adam: the arrays updated, then read back
        w.emit(f"{m_array}[{s.own}] = {beta1} * {m_array}[{s.own}] + (1.0 - {beta1}) * {s.g}")
        w.emit(f"{v_array}[{s.own}] = {beta2} * {v_array}[{s.own}] + (1.0 - {beta2}) * {square}")
        return f"{m_array}[{s.own}]", f"{v_array}[{s.own}]"
    m = s.local("m_t" if m_array == "m" else "m", f"{beta1} * {m_array}[{s.own}] + (1.0 - {beta1}) * {s.g}")
    v = s.local("v_t" if v_array == "v" else "v", f"{beta2} * {v_array}[{s.own}] + (1.0 - {beta2}) * {square}")
    w.emit(f"{m_array}[{s.own}] = {m}")
    w.emit(f"{v_array}[{s.own}] = {v}")
    return m, v


def adam(s: Step, decoupled: bool | None = None) -> str:
    """Adam (Kingma and Ba 2015) and AdamW (Loshchilov and Hutter 2019): the moments, their bias
    corrections (from the step count, or passed in), the denominator `sqrt(v_hat) + eps` (the paper)
    or `sqrt(v) / sqrt(bc2) + eps` with the step `lr / bc1` (PyTorch), AMSGrad's running maximum."""
    w, rng = s.w, s.rng
    decoupled = rng.random() < 0.5 if decoupled is None else decoupled
    _read_gradient(s, l2_decay=not decoupled and rng.random() < 0.3)
    b1_hint, b2_hint = rng.choice(BETA_NAMES)
    beta1 = s.scalar((b1_hint,), rng.choice([0.9, 0.8, 0.95]))
    beta2 = s.scalar((b2_hint,), rng.choice([0.999, 0.99, 0.98, 0.95]))
    eps = s.scalar(("eps", "epsilon"), rng.choice([1e-8, 1e-6, 1e-5]))
    m, v = _moments(s, beta1, beta2, in_place=rng.random() < 0.3)
    if rng.random() < 0.15:  # AMSGrad: the largest second moment so far
        v_max_array = s.state(("v_max", "max_exp_avg_sq"), 0.0625, 0.25)
        v = s.local("v_max_t" if v_max_array == "v_max" else "v_max", f"wp.max({v_max_array}[{s.own}], {v})")
        w.emit(f"{v_max_array}[{s.own}] = {v}")
        s.features.append("AMSGrad")
    t_value = rng.randint(1, 2000)
    if rng.random() < 0.6:  # from the step count
        if rng.random() < 0.7:
            t = s.scalar(("t", "step", "iteration"), t_value, "int32")
            power = f"float({t})"
        else:  # Warp's own Adam passes a float step counted from 0
            t = s.scalar(("t", "step"), float(t_value - 1))
            power = f"{t} + 1.0"
        bc1 = s.local("bias_correction1", f"1.0 - wp.pow({beta1}, {power})")
        bc2 = s.local("bias_correction2", f"1.0 - wp.pow({beta2}, {power})")
        s.features.append("bias corrections from the step count")
    else:  # the host computes them once per step
        b1, b2 = float(s.w.arg(beta1).value), float(s.w.arg(beta2).value)
        bc1_hint, bc2_hint = rng.choice((("bias_correction1", "bias_correction2"), ("bc1", "bc2")))
        bc1 = s.scalar((bc1_hint,), 1.0 - b1 ** t_value)
        bc2 = s.scalar((bc2_hint,), 1.0 - b2 ** t_value)
        s.features.append("bias corrections passed in")
    if s.vec:  # as Warp's own Adam for vec3: the root per component, the quotient componentwise
        m_hat = s.local("m_hat", f"{m} / {bc1}")
        v_hat = s.local("v_hat", f"{v} / {bc2}")
        root = ", ".join(f"wp.sqrt({v_hat}[{c}])" for c in range(3))
        denom = s.local("denom", f"wp.vec3({root}) + wp.vec3({eps}, {eps}, {eps})")
        rate, step = s.lr, f"wp.cw_div({m_hat}, {denom})"
    elif rng.random() < 0.5:  # the paper's
        m_hat = s.local("m_hat", f"{m} / {bc1}")
        v_hat = s.local("v_hat", f"{v} / {bc2}")
        rate, step = s.lr, f"{m_hat} / (wp.sqrt({v_hat}) + {eps})"
    else:  # PyTorch's: the step size folds in the first correction
        denom = s.local("denom", f"wp.sqrt({v}) / wp.sqrt({bc2}) + {eps}")
        rate, step = s.local("step_size", f"{s.lr} / {bc1}"), f"{m} / {denom}"
    if not decoupled:
        s.features.append("Adam")
        return f"{s.p} - {rate} * {step}"
    s.features.append("AdamW (decoupled weight decay)")
    decay = s.scalar(("weight_decay", "wd"), rng.choice([1e-2, 0.05, 0.1]))
    if rate == s.lr and rng.random() < 0.5:  # in the step: lr * (update + wd * p)
        return f"{s.p} - {s.lr} * ({step} + {decay} * {s.p})"
    s.reassign(s.p, f"{s.p} * (1.0 - {s.lr} * {decay})")  # PyTorch: the parameter shrunk first
    return f"{s.p} - {rate} * {step}"


def rmsprop(s: Step) -> str:
    """RMSprop as PyTorch documents it: `sq = alpha * sq + (1 - alpha) * g^2`; centred, the squared mean
    gradient taken off; momentum on `g / (sqrt(.) + eps)`."""
    w, rng = s.w, s.rng
    _read_gradient(s, l2_decay=rng.random() < 0.3)
    alpha = s.scalar(("alpha", "rho", "decay"), rng.choice([0.99, 0.9, 0.95]))
    eps = s.scalar(("eps", "epsilon"), rng.choice([1e-8, 1e-6]))
    centred = rng.random() < 0.35
    # centred: every mean square at least its mean's square (so it stays so: Jensen), its root real
    sq_array = s.state(("square_avg", "mean_sq", "sq_avg"), 0.25 if centred else 0.0625, 1.0)
    sq = s.local("sq", f"{alpha} * {sq_array}[{s.own}] + (1.0 - {alpha}) * {s.g} * {s.g}")
    w.emit(f"{sq_array}[{s.own}] = {sq}")
    if centred:
        mean_array = s.state(("grad_avg", "mean_grad"), -0.25, 0.25)
        mean = s.local("g_avg", f"{alpha} * {mean_array}[{s.own}] + (1.0 - {alpha}) * {s.g}")
        w.emit(f"{mean_array}[{s.own}] = {mean}")
        avg = s.local("avg", f"wp.sqrt({sq} - {mean} * {mean}) + {eps}")
        s.features.append("centred RMSprop")
    else:
        avg = s.local("avg", f"wp.sqrt({sq}) + {eps}")
        s.features.append("RMSprop")
    if rng.random() < 0.35:
        mu = s.scalar(("momentum", "mu"), rng.choice([0.9, 0.5]))
        buf_array = s.state(("momentum_buf", "buf"), -0.5, 0.5)
        buf = s.local("buf", f"{mu} * {buf_array}[{s.own}] + {s.g} / {avg}")
        w.emit(f"{buf_array}[{s.own}] = {buf}")
        s.features.append("with momentum")
        return _minus_step(s, buf)
    return _minus_step(s, f"{s.g} / {avg}")


def adagrad(s: Step) -> str:
    """Adagrad (Duchi et al. 2011) as PyTorch documents it: the squared gradients summed, the step
    `clr * g / (sqrt(sum) + eps)`, `clr = lr / (1 + (t - 1) * lr_decay)`."""
    w, rng = s.w, s.rng
    _read_gradient(s, l2_decay=rng.random() < 0.3)
    eps = s.scalar(("eps", "epsilon"), rng.choice([1e-10, 1e-8, 1e-6]))
    sum_array = s.state(("state_sum", "sum_sq", "accumulator"), 0.25, 4.0)
    total = s.local("acc", f"{sum_array}[{s.own}] + {s.g} * {s.g}")
    w.emit(f"{sum_array}[{s.own}] = {total}")
    s.features.append("Adagrad")
    if rng.random() < 0.4:
        t = s.scalar(("t", "step"), rng.randint(1, 500), "int32")
        lr_decay = s.scalar(("lr_decay",), rng.choice([1e-3, 1e-2]))
        s.lr = s.local("clr", f"{s.lr} / (1.0 + float({t} - 1) * {lr_decay})")
        s.features.append("learning-rate decay")
    return _minus_step(s, f"{s.g} / (wp.sqrt({total}) + {eps})")


def lion(s: Step) -> str:
    """Lion (Chen et al. 2023): the sign of `beta1 * m + (1 - beta1) * g`, decoupled weight decay, the
    moment updated with beta2."""
    w, rng = s.w, s.rng
    _read_gradient(s, l2_decay=False)
    b1_hint, b2_hint = rng.choice(BETA_NAMES)
    beta1 = s.scalar((b1_hint,), rng.choice([0.9, 0.95]))
    beta2 = s.scalar((b2_hint,), rng.choice([0.99, 0.98]))
    m_array = s.state(("m", "exp_avg", "momentum"), -0.5, 0.5)
    m = s.local("m_prev" if m_array == "m" else "m", f"{m_array}[{s.own}]")
    c = s.local("c", f"{beta1} * {m} + (1.0 - {beta1}) * {s.g}")
    w.emit(f"{m_array}[{s.own}] = {beta2} * {m} + (1.0 - {beta2}) * {s.g}")
    s.features.append("Lion")
    if rng.random() < 0.6:
        decay = s.scalar(("weight_decay", "wd"), rng.choice([1e-2, 0.1, 1.0]))
        if lion_breadth(s.w.seed).random() < 0.5:  # in the step, as the paper's pseudocode writes it
            return f"{s.p} - {s.lr} * (wp.sign({c}) + {decay} * {s.p})"
        # the parameter shrunk first, as lion-pytorch and optax write it (AdamW's decoupled decay)
        s.reassign(s.p, f"{s.p} * (1.0 - {s.lr} * {decay})")
        s.features.append("parameter shrunk before the step")
    return f"{s.p} - {s.lr} * wp.sign({c})"


def lion_breadth(seed: int) -> random.Random:
    """Session 57's second spelling of Lion's weight decay: a stream of its own, so the steps that keep
    the first draw exactly what they drew."""
    return random.Random(seed ^ 0x110E)


@dataclass(frozen=True)
class OptimizerForm:
    """An optimizer: its update (which reads the gradient and returns the new parameter's text), the
    learning rates people use with it, and whether it is written for vec3 parameters too."""

    update: Callable[[Step], str]
    learning_rates: tuple[float, ...]
    takes_vec3: bool = False


OPTIMIZER_FORMS: dict[str, OptimizerForm] = {
    "SGD": OptimizerForm(sgd, (0.1, 0.05, 0.01), takes_vec3=True),
    "Adam": OptimizerForm(adam, (1e-3, 3e-4, 2e-3, 5e-4), takes_vec3=True),
    "RMSprop": OptimizerForm(rmsprop, (1e-2, 1e-3)),
    "Adagrad": OptimizerForm(adagrad, (1e-2, 0.1, 0.05)),
    "Lion": OptimizerForm(lion, (1e-4, 3e-4, 1e-3)),
}
# Adam and AdamW are most of what is trained today; SGD next
FORM_DRAWS = ("Adam", "Adam", "Adam", "SGD", "SGD", "RMSprop", "Adagrad", "Lion")


def chooses_optimizer(seed: int) -> bool:
    """Whether scalar_param kernel `seed` is an optimizer step: a stream of its own, so the others keep every draw."""
    return random.Random(seed ^ 0x0971).random() < OPTIMIZER_SHARE


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    form = OPTIMIZER_FORMS[rng.choice(FORM_DRAWS)]
    w = KernelWriter(rng, name, "scalar_param", seed, pick_dim(rng))
    # the update is stored as it is: no output turned into an accumulation, no intermediate kept
    w.output_update_share = 0.0
    w.intermediate_output_share = 0.0
    guard = rng.random()
    if guard < 0.2:  # parameters padded to whole blocks
        padded_launch(w, ["n", "num_params", "count"])
    elif guard < 0.3:  # frozen parameters are not updated
        mask = w.add_array(rng.choice(MASK_NAMES), "int32", "input", low=0, high=1, grid_bits=0)
        w.unused.remove(mask)
        w.guard_return(f"{mask}[{w.own_index()}] == 0")
        w.feature("frozen parameters skipped")
    precision = rng.choice(PRECISIONS)
    if precision == "half parameters" and min(form.learning_rates) < HALF_PARAMETER_MIN_LR:
        precision = "master weights"  # a step of 1e-3 is below a half's resolution: float32 master weights
    bf16 = precision != "float32" and chooses_bf16(seed)
    if bf16 and precision == "half parameters":
        precision = "master weights"
    vec = form.takes_vec3 and rng.random() < VEC3_SHARE
    s = Step(w, "float32" if vec else precision, vec, own=w.own_index(), half_type="bfloat16" if bf16 else "float16")
    _learning_rate(s, form.learning_rates)
    _read_parameter(s)
    new = form.update(s)
    _store(s, new, ema=s.precision != "half parameters" and rng.random() < 0.15)
    for feature in s.features:
        w.feature(feature)
    _arrays_first(w)
    # SGD's arithmetic (scalars times the element, sums) holds for any element type; clipping by
    # value (`wp.clamp`) takes scalars only
    if form.update is sgd and s.precision == "float32" and "gradient clipped by value" not in s.features \
            and chooses_generic(seed):
        _generic_arrays(w, s.dtype)
    return w.finish("Optimizer step")


def chooses_bf16(seed: int) -> bool:
    """Whether a mixed-precision step keeps its 16-bit values in bfloat16 rather than float16: a stream
    of its own, so the other steps keep every draw."""
    return random.Random(seed ^ 0xBF16).random() < BF16_SHARE


def chooses_generic(seed: int) -> bool:
    """Whether an optimizer step whose arrays share one element type is written as a generic kernel:
    a stream of its own, so the other steps keep every draw."""
    return random.Random(seed ^ 0x6E7C).random() < GENERIC_SHARE


def _generic_arrays(w: KernelWriter, dtype: str) -> None:
    """The step's arrays of `dtype` with an element per parameter (parameters, gradients, optimizer
    state) declared `wp.array(dtype=Any)`, and the kernel instantiated for `dtype` by a `wp.overload` after it (with
    each array's own spelling): one kernel text serves float32 and vec3 parameters, as in a library
    of optimizers. Other arrays (masks, a one-element learning rate or norm) keep their types."""
    entries = []
    for k, a in enumerate(w.args):
        if a.role == "scalar" or a.dtype != dtype or tuple(a.shape) != tuple(w.dim):  # one element per parameter
            continue
        name, annotation = w.annotations[k].split(": ", 1)
        entries.append(f'"{name}": {annotation}')
        w.annotations[k] = f"{name}: {ELEMENT_TYPE.sub('Any', annotation)}"
    if len(entries) < 2:
        raise AssertionError("an optimizer step reads at least its parameters and their gradients")
    w.add_import("from typing import Any")
    w.after_kernel.append(f"wp.overload({w.name}, {{{', '.join(entries)}}})")
    w.feature("generic kernel (wp.array(dtype=Any)) instantiated by wp.overload")


def _arrays_first(w: KernelWriter) -> None:
    """The parameters in the order optimizer kernels declare them: the arrays (parameters, gradients,
    state), then the hyperparameters passed by value."""
    order = sorted(range(len(w.args)), key=lambda k: (w.args[k].role == "scalar", k))
    w.args[:] = [w.args[k] for k in order]
    w.annotations[:] = [w.annotations[k] for k in order]
