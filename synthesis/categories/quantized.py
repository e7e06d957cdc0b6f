"""Integers that machine-learning code hands to kernels: int8 and uint8 tensors with their scales, uint8
images, int64 labels and token ids, int4 weights two to a byte. One table entry per form (QUANT_FORMS,
INT4_FORMS):

- quantisation of float32 values to int8 (symmetric, +-127) or uint8 (a zero point), per tensor (a
  scale or its inverse passed in) or per output channel (a scale per row), rounded half away from
  zero (`wp.round`) or half up (`wp.floor(v + 0.5)`), clamped, then converted (`wp.int8(v)`); a
  ReLU-like activation fused in front now and then;
- dequantisation back to float32, per tensor or per channel, with or without a zero point, a bias per
  row or column and an activation fused after it now and then;
- an int8 matrix-vector product (W8A8): int32 accumulation, both scales applied once at the end,
  a bias, a ReLU, the result requantised now and then;
- dynamic per-row (per-token) quantisation: each row's largest magnitude sets its scale, written
  beside the int8 row (SmoothQuant's per-column factors first, now and then);
- a batch of uint8 images in NHWC order to float32, float16 or bfloat16 NCHW, scaled to [0, 1], normalised per
  channel (mean and standard deviation arrays), their channels reversed now and then (BGR to RGB);
- cross-entropy from logits and int64 class labels (log-sum-exp with the row's maximum subtracted),
  or the negative log-likelihood of log-probabilities; a label of -1 ignored, class weights, and
  whether the prediction is right, now and then;
- an embedding lookup by int64 token id, scaled by sqrt(d), with a positional or token-type embedding
  added, a padding id read as zeros;
- int4 weights (GPTQ/AWQ's layout): unpacked with a scale, or a scale and zero point, per group, to
  float32, float16 or bfloat16; or quantised with a scale per row or group and packed, a thread per byte.
  (Half of the 16-bit outputs are bfloat16: `half_type`, a stream of its own.)

Warp's rules are kept: a float is converted to int8 or uint8 only inside the type's range (C leaves
anything else undefined); int8 and uint8 values are converted to int or float before arithmetic, as
people write it (Warp's own int8 arithmetic wraps at 8 bits). A value that is rounded is computed the
same way on every backend (`_round`, ROUNDING_SAFE_ACTIVATIONS).

The arithmetic category draws these kernels (QUANT_SHARE of what the bits kernels leave) from a
stream of their own, so every other arithmetic kernel keeps its draws; the int4 forms (INT4_SHARE of
these) from another."""
from __future__ import annotations

import random
from typing import Callable

from synthesis.categories.channels import ACTIVATIONS
from synthesis.exprgen import KernelWriter, fmt_float
from synthesis.spec import KernelSpec

QUANT_SHARE = 0.1  # of the arithmetic kernels that are not bits kernels
ROWS = (64, 100, 128, 256)  # rows, tokens, samples: the extent that grows at bench size
DEPTHS = (32, 64, 96, 128)  # a row's length: features, the reduction's depth
# a scale people pass for values within about +-4: 4 / 127, rounded to what they write, or a power of two
SCALES = (0.03125, 0.0315, 0.025, 0.05)


BF16_SHARE = 0.5  # of the 16-bit outputs: bfloat16 (the type most networks run in today) rather than float16


def half_type(seed: int) -> str:
    """The 16-bit float a kernel writes for a half-precision network: a stream of its own, so the other
    draws are kept."""
    return "bfloat16" if random.Random(seed ^ 0xBF16).random() < BF16_SHARE else "float16"


def _round(rng: random.Random, v: str, inexact_product: bool = False) -> tuple[str, str]:
    """`v` rounded to an integer-valued float, and how: half away from zero, or half up. An
    `inexact_product` (x times a reciprocal that is no power of two) is only ever rounded by `wp.round`:
    `wp.floor(x * inv + 0.5)` is one fused multiply-add in CUDA (nvcc contracts it; Warp's CPU build
    does not), which lands on the other side of a half now and then: an H200 run gave 35 of 8,192
    packed bytes one level off Warp's CPU values. A single product is rounded alike everywhere."""
    if rng.random() < 0.7 or inexact_product:
        return f"wp.round({v})", "rounded half away from zero"
    return f"wp.floor({v} + 0.5)", "rounded half up"


# activations of IEEE operations alone (no exp or tanh, whose last bit differs between CUDA's and the CPU's
# libraries): the only ones in front of a rounding, which must see the same value on every backend
ROUNDING_SAFE_ACTIVATIONS = ("relu", "leaky relu", "relu6", "hard swish")


def _activation(w: KernelWriter, v: str, share: float = 0.5, before_rounding: bool = False) -> None:
    """Now and then an activation on local `v` (channels.ACTIVATIONS), as a fused kernel applies it."""
    if w.rng.random() < share:
        kind = w.rng.choice(ROUNDING_SAFE_ACTIVATIONS if before_rounding else list(ACTIVATIONS))
        w.emit(ACTIVATIONS[kind].format(v=v))
        w.feature(f"activation: {kind}")


def _row_length(rng: random.Random, array: str, length: int) -> str:
    """A row's length as people write it: the array's `.shape[1]`, or the literal."""
    return f"{array}.shape[1]" if rng.random() < 0.5 else str(length)


def _launch(rng: random.Random, name: str, seed: int, dim: tuple[int, ...], names: tuple[str, ...]) -> KernelWriter:
    w = KernelWriter(rng, name, "arithmetic", seed, dim, names)
    w.output_update_share = 0.0
    w.intermediate_output_share = 0.0
    return w


def quantize(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """float32 -> int8 (symmetric) or uint8 (asymmetric, a zero point), per tensor or per channel."""
    per_channel = rng.random() < 0.4
    unsigned = rng.random() < 0.4
    if per_channel:  # a row per output channel, a thread per weight
        rows, depth = rng.choice(ROWS), rng.choice(DEPTHS)
        w = _launch(rng, name, seed, (rows, depth), rng.choice([("c", "k"), ("row", "col"), ("oc", "j")]))
        c, k = w.tid_names
        x = w.add_array(rng.choice(["weights", "w", "x"]), "float32", "input", shape=(rows, depth), low=-4.0, high=4.0,
                        grid_bits=6)
        scales = w.add_array(rng.choice(["scales", "w_scale", "channel_scale"]), "float32", "input", shape=(rows,),
                             low=0.015625, high=0.0625, grid_bits=8, per_row=True)
        value, where, scale = f"{x}[{c}, {k}] / {scales}[{c}]", f"{c}, {k}", "per channel"
    else:
        n = rng.choice((256, 500, 1024, 4096))
        w = _launch(rng, name, seed, (n,), (rng.choice(["i", "tid", "idx"]),))
        x = w.add_array(rng.choice(["x", "values", "act", "src"]), "float32", "input", shape=(n,), low=-4.0, high=4.0,
                        grid_bits=6)
        where = w.tid_names[0]
        if rng.random() < 0.5:
            s = w.add_scalar(rng.choice(["scale", "q_scale"]), "float32", rng.choice(SCALES))
            value = f"{x}[{where}] / {s.src}"
        else:
            # x (a 1/64 grid within +-4) times any of these is exact, so `wp.floor(x * inv + 0.5)` is too
            s = w.add_scalar(rng.choice(["inv_scale", "rcp_scale"]), "float32", rng.choice((32.0, 31.75, 40.0, 20.0)))
            value = f"{x}[{where}] * {s.src}"
        scale = "per tensor"
    shape = next(a.shape for a in w.args if a.name == x)
    if unsigned:
        zp = w.add_scalar(rng.choice(["zero_point", "zp"]), "int32", rng.choice((128, 127, 120)))
        q = w.add_array(rng.choice(["q", "quantized", "out_u8"]), "uint8", "output", shape=shape)
    else:
        q = w.add_array(rng.choice(["q", "quantized", "out_i8"]), "int8", "output", shape=shape)
    v = w.fresh("v")
    if rng.random() < 0.4:  # the layer's activation fused in front of the quantisation
        element = f"{x}[{where}]"
        w.emit(f"{v} = {element}")
        _activation(w, v, share=1.0, before_rounding=True)
        value = value.replace(element, v, 1)
        rounded, how = _round(rng, value, inexact_product=True)  # the activation's value: not on the input's grid
    else:
        rounded, how = _round(rng, value)
    w.emit(f"{v} = {rounded}")
    if unsigned:
        w.emit(f"{v} = wp.clamp({v} + float({zp.src}), 0.0, 255.0)")
        w.emit(f"{q}[{where}] = wp.uint8({v})")
        w.feature(f"uint8 quantisation with a zero point, {scale}, {how}")
    else:
        qmax = rng.choice(("127.0", "127.0", "128.0"))
        w.emit(f"{v} = wp.clamp({v}, -{qmax}, 127.0)")
        conversion = f"wp.int8({v})" if rng.random() < 0.7 else f"wp.int8(int({v}))"
        w.emit(f"{q}[{where}] = {conversion}")
        w.feature(f"symmetric int8 quantisation, {scale}, {how}")
    w.note_bound(q, 255.0)
    return w


def dequantize(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """int8 or uint8 -> float32: `(float(q) - zero_point) * scale`, per tensor or per channel."""
    per_channel = rng.random() < 0.5
    unsigned = rng.random() < 0.4
    qtype, low, high = ("uint8", 0, 255) if unsigned else ("int8", -127, 127)
    if per_channel:
        rows, depth = rng.choice(ROWS), rng.choice(DEPTHS)
        w = _launch(rng, name, seed, (rows, depth), rng.choice([("c", "k"), ("row", "col"), ("oc", "j")]))
        c, k = w.tid_names
        where = f"{c}, {k}"
        q = w.add_array(rng.choice(["q", "w_q", "packed"]), qtype, "input", shape=(rows, depth), low=low, high=high,
                        grid_bits=0)
        scales = w.add_array(rng.choice(["scales", "w_scale"]), "float32", "input", shape=(rows,), low=0.015625,
                             high=0.0625, grid_bits=8, per_row=True)
        scale = f"{scales}[{c}]"
        if unsigned:
            zps = w.add_array(rng.choice(["zero_points", "zp"]), "int32", "input", shape=(rows,), low=112, high=144,
                              grid_bits=0, per_row=True)
            zero = f"{zps}[{c}]"
    else:
        n = rng.choice((256, 500, 1024, 4096))
        w = _launch(rng, name, seed, (n,), (rng.choice(["i", "tid", "idx"]),))
        where = w.tid_names[0]
        q = w.add_array(rng.choice(["q", "quantized", "codes"]), qtype, "input", shape=(n,), low=low, high=high,
                        grid_bits=0)
        scale = w.add_scalar(rng.choice(["scale", "q_scale"]), "float32", rng.choice(SCALES)).src
        if unsigned:
            zero = w.add_scalar(rng.choice(["zero_point", "zp"]), "int32", rng.choice((128, 127, 120))).src
    bias = None
    if per_channel and rng.random() < 0.4:  # a bias per output channel, or one per column
        by_row = rng.random() < 0.5
        bias = w.add_array(rng.choice(["bias", "b"]), "float32", "input", shape=(rows,) if by_row else (depth,),
                           low=-1.0, high=1.0, grid_bits=8, per_row=by_row, keeps_size=not by_row)
        bias_at = f"{bias}[{c if by_row else k}]"
    out = w.add_array(rng.choice(["x", "out", "dequantized"]), "float32", "output",
                      shape=next(a.shape for a in w.args if a.name == q))
    fused = bias is not None or rng.random() < 0.4
    v = w.fresh("v") if fused else f"{out}[{where}]"
    if unsigned:
        if rng.random() < 0.5:
            w.emit(f"{v} = float(int({q}[{where}]) - {zero}) * {scale}")
        else:
            w.emit(f"{v} = (float({q}[{where}]) - float({zero})) * {scale}")
        w.feature(f"uint8 dequantisation with a zero point, {'per channel' if per_channel else 'per tensor'}")
    else:
        w.emit(f"{v} = float({q}[{where}]) * {scale}")
        w.feature(f"int8 dequantisation, {'per channel' if per_channel else 'per tensor'}")
    if fused:
        if bias is not None:
            w.emit(f"{v} += {bias_at}")
            w.feature("bias per row" if by_row else "bias per column")
        _activation(w, v, share=1.0 if bias is None else 0.5)
        w.emit(f"{out}[{where}] = {v}")
    w.note_bound(out, 16.0)
    return w


# Session 58, of int8 matrix-vector products (a stream of their own): uint8 activations with a zero
# point, an int32 bias that starts the accumulator.
ZERO_POINT_SHARE = 0.35
INT32_BIAS_SHARE = 0.3


def int8_gemv(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """y = (W_q x_q) * w_scale[row] * x_scale (+ bias, ReLU), int32 accumulation; requantised now and then."""
    rows, depth = rng.choice(ROWS), rng.choice(DEPTHS)
    w = _launch(rng, name, seed, (rows,), (rng.choice(["row", "i", "o"]),))
    row = w.tid_names[0]
    wq = w.add_array(rng.choice(["w_q", "weight_q", "qweight"]), "int8", "input", shape=(rows, depth), low=-127,
                     high=127, grid_bits=0)
    # the activation vector: its length is the layer's input features, whatever the rows (128 beside 64
    # outputs grew with them at bench size, and shrank below the loop's reach at a smaller launch)
    extra = random.Random(seed ^ 0x8A8)  # session 58's variants, a stream of their own
    # uint8 activations with a zero point (asymmetric, as TFLite quantises a ReLU's output): the zero
    # point comes off each activation before the product
    zero_point = extra.random() < ZERO_POINT_SHARE
    xq = w.add_array(rng.choice(["x_q", "act_q", "qinput"]), "uint8" if zero_point else "int8", "input", shape=(depth,),
                     low=0 if zero_point else -127, high=255 if zero_point else 127, grid_bits=0, keeps_size=True)
    w_scale = w.add_array(rng.choice(["w_scale", "weight_scale"]), "float32", "input", shape=(rows,), low=0.0009765625,
                          high=0.00390625, grid_bits=12)
    x_scale = w.add_scalar(rng.choice(["x_scale", "act_scale"]), "float32", rng.choice((0.03125, 0.0315, 0.02)))
    x_zero = (w.add_scalar(extra.choice(["x_zero_point", "act_zp", "input_offset"]), "int32", extra.choice([128, 127, 3]))
              if zero_point else None)
    # the bias in the accumulator's own units (int32, scaled by w_scale * x_scale), the sum's start
    int_bias = (w.add_array(extra.choice(["bias_q", "bias_i32"]), "int32", "input", shape=(rows,), low=-4096, high=4096,
                            grid_bits=0) if extra.random() < INT32_BIAS_SHARE else None)
    acc, kk = w.fresh("acc"), rng.choice(["k", "j", "col"])
    w.emit(f"{acc} = {int_bias}[{row}]" if int_bias else f"{acc} = int(0)")
    bound = _row_length(rng, wq, depth)
    with w.block(f"for {kk} in range({bound}):"):
        x_term = f"(int({xq}[{kk}]) - {x_zero.src})" if x_zero else f"int({xq}[{kk}])"
        w.emit(f"{acc} += int({wq}[{row}, {kk}]) * {x_term}")
    v = w.fresh("y")
    w.emit(f"{v} = float({acc}) * {w_scale}[{row}] * {x_scale.src}")
    if zero_point:
        w.feature("uint8 activations with a zero point")
    if int_bias:
        w.feature("int32 bias starting the accumulator")
    if int_bias is None and rng.random() < 0.5:
        bias = w.add_array(rng.choice(["bias", "b"]), "float32", "input", shape=(rows,), low=-1.0, high=1.0)
        w.emit(f"{v} += {bias}[{row}]")
        w.feature("bias added")
    if rng.random() < 0.4:
        w.emit(f"{v} = wp.max({v}, 0.0)")
        w.feature("ReLU")
    if rng.random() < 0.3:
        out_scale = w.add_scalar(rng.choice(["out_scale", "y_scale"]), "float32", rng.choice((0.0625, 0.05)))
        rounded, how = _round(rng, f"{v} / {out_scale.src}")
        out = w.add_array(rng.choice(["y_q", "out_q"]), "int8", "output", shape=(rows,))
        w.emit(f"{out}[{row}] = wp.int8(wp.clamp({rounded}, -127.0, 127.0))")
        w.feature(f"output requantised to int8, {how}")
        w.note_bound(out, 127.0)
    else:
        out = w.add_array(rng.choice(["y", "out"]), "float32", "output", shape=(rows,))
        w.emit(f"{out}[{row}] = {v}")
        w.note_bound(out, 64.0)
    w.feature("int8 matrix-vector product, int32 accumulation (W8A8)")
    return w


def dynamic_quantize(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Per row: the largest magnitude sets the scale (amax / 127), written beside the int8 row."""
    rows, depth = rng.choice(ROWS), rng.choice(DEPTHS)
    w = _launch(rng, name, seed, (rows,), (rng.choice(["row", "token", "i"]),))
    row = w.tid_names[0]
    x = w.add_array(rng.choice(["x", "act", "hidden"]), "float32", "input", shape=(rows, depth), low=-4.0, high=4.0,
                    grid_bits=6)
    amax, kk = w.fresh("amax"), rng.choice(["k", "j", "col"])
    bound = _row_length(rng, x, depth)
    element = f"{x}[{row}, {kk}]"
    if rng.random() < 0.3:  # SmoothQuant: each column scaled by its smoothing factor first
        smooth = w.add_array(rng.choice(["smooth", "smooth_scale"]), "float32", "input", shape=(depth,), low=0.5,
                             high=2.0, grid_bits=4, keeps_size=True)
        element = f"{element} * {smooth}[{kk}]"
        w.feature("columns smoothed (SmoothQuant)")
    w.emit(f"{amax} = float(0.0)")
    with w.block(f"for {kk} in range({bound}):"):
        w.emit(f"{amax} = wp.max({amax}, wp.abs({element}))")
    scale = w.fresh("scale")
    eps = rng.choice(["1.0e-8", "1.0e-6"])
    w.emit(f"{scale} = wp.max({amax}, {eps}) / 127.0")
    scales = w.add_array(rng.choice(["scales", "row_scale", "token_scale"]), "float32", "output", shape=(rows,))
    w.emit(f"{scales}[{row}] = {scale}")
    q = w.add_array(rng.choice(["q", "x_q", "quantized"]), "int8", "output", shape=(rows, depth))
    by_reciprocal = rng.random() < 0.5
    operand = f"({element})" if "*" in element else element
    if by_reciprocal:
        inv = w.fresh("inv_scale")
        w.emit(f"{inv} = 1.0 / {scale}")
        value = f"{operand} * {inv}"
    else:
        value = f"{operand} / {scale}"
    rounded, how = _round(rng, value, inexact_product=by_reciprocal)
    with w.block(f"for {kk} in range({bound}):"):
        w.emit(f"{q}[{row}, {kk}] = wp.int8(wp.clamp({rounded}, -127.0, 127.0))")
    w.note_bound(scales, 1.0)
    w.note_bound(q, 127.0)
    w.feature(f"dynamic per-row int8 quantisation (absmax), {how}")
    return w


def image_normalize(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """uint8 NHWC images -> float32 NCHW: / 255, minus the channel's mean, over its standard deviation."""
    batch, side = rng.choice((2, 4, 8)), rng.choice((16, 32, 64))
    per_channel_launch = rng.random() < 0.5
    names = rng.choice([("n", "y", "x"), ("b", "i", "j"), ("n", "h", "w")])
    if per_channel_launch:
        dim, tid = (batch, 3, side, side), (names[0], "c", names[1], names[2])
    else:
        dim, tid = (batch, side, side), names
    w = _launch(rng, name, seed, dim, tid)
    n, y, x = names
    img = w.add_array(rng.choice(["images", "img", "pixels"]), "uint8", "input", shape=(batch, side, side, 3), low=0,
                      high=255, grid_bits=0)
    mean = w.add_array(rng.choice(["mean", "channel_mean"]), "float32", "input", shape=(3,), low=0.375, high=0.5,
                       grid_bits=8)
    std = w.add_array(rng.choice(["std", "channel_std"]), "float32", "input", shape=(3,), low=0.21875, high=0.25,
                      grid_bits=8)
    half = rng.random() < 0.3  # the input of a half-precision network
    out_type = half_type(seed) if half else "float32"
    out = w.add_array(rng.choice(["out", "tensor", "normalized"]), out_type, "output", shape=(batch, 3, side, side))
    bgr = rng.random() < 0.3
    scale = "/ 255.0" if rng.random() < 0.6 else f"* {w.add_constant('inv_255', 1.0 / 255.0).src}"

    def body(c: str) -> None:
        src = f"2 - {c}" if bgr else c
        value = f"(float({img}[{n}, {y}, {x}, {src}]) {scale} - {mean}[{c}]) / {std}[{c}]"
        w.emit(f"{out}[{n}, {c}, {y}, {x}] = {f'wp.{out_type}({value})' if half else value}")

    if per_channel_launch:
        body("c")
    else:
        with w.block("for c in range(3):"):
            body("c")
    w.note_bound(out, 8.0)
    w.feature(f"uint8 NHWC images to normalised {out_type} NCHW" + (", BGR to RGB" if bgr else ""))
    return w


def cross_entropy(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Per sample: the loss of its int64 class label, from logits (log-sum-exp, the row's maximum
    subtracted) or from log-probabilities (negative log-likelihood); a label of -1 ignored."""
    rows, classes = rng.choice(ROWS), rng.choice((4, 10, 16, 32))
    w = _launch(rng, name, seed, (rows,), (rng.choice(["i", "sample", "row"]),))
    i = w.tid_names[0]
    ignore = rng.random() < 0.4
    labels = w.add_array(rng.choice(["labels", "targets", "y"]), "int64", "input", shape=(rows,),
                         low=-1 if ignore else 0, high=classes - 1, grid_bits=0)
    from_logits = rng.random() < 0.7
    if from_logits:
        scores = w.add_array(rng.choice(["logits", "scores"]), "float32", "input", shape=(rows, classes), low=-4.0,
                             high=4.0, grid_bits=6)
    else:
        scores = w.add_array(rng.choice(["log_probs", "logp"]), "float32", "input", shape=(rows, classes), low=-8.0,
                             high=-0.0625, grid_bits=6)
    weight = None
    if rng.random() < 0.3:  # a weight per class (imbalanced classes)
        weight = w.add_array(rng.choice(["class_weight", "weights"]), "float32", "input", shape=(classes,), low=0.25,
                             high=2.0, grid_bits=4, keeps_size=True)
    loss = w.add_array(rng.choice(["loss", "losses", "nll"]), "float32", "output", shape=(rows,))
    label = w.fresh("label")
    w.emit(f"{label} = int({labels}[{i}])")
    if ignore:
        with w.block(f"if {label} < 0:"):
            w.emit(f"{loss}[{i}] = 0.0")
            w.emit("return")
        w.feature("ignored label (-1)")
    c = rng.choice(["c", "k", "j"])
    # whether the first largest score is the label's: found by the loop that finds the largest (one
    # pass over the row, not a second one for the arg-max)
    correct = w.add_array(rng.choice(["correct", "hits"]), "int32", "output", shape=(rows,)) \
        if from_logits and rng.random() < 0.3 else None
    best = w.fresh("best") if correct else None
    if from_logits:
        m, s = w.fresh("m"), w.fresh("total")
        w.emit(f"{m} = {scores}[{i}, 0]")
        if correct:
            w.emit(f"{best} = int(0)")
        with w.block(f"for {c} in range(1, {classes}):"):
            if correct:
                with w.block(f"if {scores}[{i}, {c}] > {m}:"):
                    w.emit(f"{m} = {scores}[{i}, {c}]")
                    w.emit(f"{best} = {c}")
            else:
                w.emit(f"{m} = wp.max({m}, {scores}[{i}, {c}])")
        w.emit(f"{s} = float(0.0)")
        with w.block(f"for {c} in range({classes}):"):
            w.emit(f"{s} += wp.exp({scores}[{i}, {c}] - {m})")
        value = f"{m} + wp.log({s}) - {scores}[{i}, {label}]"
        w.feature("cross-entropy from logits and int64 labels (log-sum-exp)")
    else:
        value = f"-{scores}[{i}, {label}]"
        w.feature("negative log-likelihood of int64 labels")
    if weight is not None:
        value = f"{weight}[{label}] * ({value})" if from_logits else f"-{weight}[{label}] * {scores}[{i}, {label}]"
        w.feature("weighted by class")
    w.emit(f"{loss}[{i}] = {value}")
    if correct:
        w.emit(f"{correct}[{i}] = wp.where({best} == {label}, 1, 0)")
        w.note_bound(correct, 1.0)
        w.feature("prediction correct (first largest logit)")
    w.note_bound(loss, 32.0)
    return w


def embedding(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """out[t, j] = table[ids[t], j] for int64 token ids, scaled by sqrt(d) or plus a positional embedding."""
    tokens, dim_ = rng.choice(ROWS), rng.choice((16, 32, 64))
    vocab = rng.choice((50, 100, 500, 1000))
    w = _launch(rng, name, seed, (tokens, dim_), rng.choice([("t", "j"), ("token", "d"), ("i", "j")]))
    t, j = w.tid_names
    ids = w.add_array(rng.choice(["ids", "token_ids", "input_ids"]), "int64", "input", shape=(tokens,), low=0,
                      high=vocab - 1, grid_bits=0, per_row=True)
    # the vocabulary's rows: no token owns one, however many tokens a launch holds (a vocabulary of 500
    # beside 100 tokens grew with them at bench size, below the ids' range at a smaller launch)
    table = w.add_array(rng.choice(["table", "embedding", "wte"]), "float32", "input", shape=(vocab, dim_), low=-1.0,
                        high=1.0, grid_bits=8, keeps_size=True)
    kind = rng.choice(["plain", "scaled", "positional"])
    if kind == "positional":
        context = rng.choice((16, 32))
        pos = w.add_array(rng.choice(["pos", "wpe", "positions"]), "float32", "input", shape=(context, dim_), low=-1.0,
                          high=1.0, grid_bits=8)
    types = rng.random() < 0.3  # a second id per token: its segment (BERT's token types)
    if types:
        type_ids = w.add_array(rng.choice(["type_ids", "segment_ids"]), "int64", "input", shape=(tokens,), low=0,
                               high=1, grid_bits=0, per_row=True)
        type_table = w.add_array(rng.choice(["type_table", "segment_embedding"]), "float32", "input", shape=(2, dim_),
                                 low=-1.0, high=1.0, grid_bits=8)
    out = w.add_array(rng.choice(["out", "embedded", "h"]), "float32", "output", shape=(tokens, dim_))
    row = w.fresh("row")
    w.emit(f"{row} = int({ids}[{t}])")
    if rng.random() < 0.25:  # the padding token's row reads as zeros
        with w.block(f"if {row} == 0:"):
            w.emit(f"{out}[{t}, {j}] = 0.0")
            w.emit("return")
        w.feature("padding id 0 embedded as zeros")
    value = f"{table}[{row}, {j}]"
    if types:
        value = f"{value} + {type_table}[int({type_ids}[{t}]), {j}]"
        w.feature("token type embedding added")
    if kind == "scaled":
        value = f"{value} * {fmt_float(float(dim_) ** 0.5)}"
        w.feature("scaled by sqrt(d)")
    elif kind == "positional":
        value = f"{value} + {pos}[{t} % {context}, {j}]"
        w.feature("positional embedding added")
    w.emit(f"{out}[{t}, {j}] = {value}")
    w.note_bound(out, 8.0)
    w.feature("embedding lookup by int64 token id")
    return w


def _int4_layout(rng: random.Random, name: str, seed: int, rows: int, cols: int, launch_cols: int
                 ) -> tuple[KernelWriter, str, str]:
    w = _launch(rng, name, seed, (rows, launch_cols), rng.choice([("r", "c"), ("row", "col"), ("n", "k")]))
    r, c = w.tid_names
    return w, r, c


def dequantize_int4(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Weight-only int4 (GPTQ/AWQ style): two 4-bit weights per uint8, the low nibble first, a scale per
    group of `group` weights along the row; the offset 8 (symmetric) or a zero point per group."""
    rows, cols, group = rng.choice(ROWS), rng.choice((64, 128, 256)), rng.choice((32, 64))
    w, r, c = _int4_layout(rng, name, seed, rows, cols, cols)
    packed = w.add_array(rng.choice(["packed", "qweight", "w_int4"]), "uint8", "input", shape=(rows, cols // 2), low=0,
                         high=255, grid_bits=0)
    scales = w.add_array(rng.choice(["scales", "group_scales"]), "float32", "input", shape=(rows, cols // group),
                         low=0.0078125, high=0.03125, grid_bits=10)
    zeros = None
    if rng.random() < 0.4:
        zeros = w.add_array(rng.choice(["zeros", "group_zeros"]), "float32", "input", shape=(rows, cols // group),
                            low=6.0, high=10.0, grid_bits=2)
    half = rng.random() < 0.4  # the weights a half-precision matrix product reads
    out_type = half_type(seed) if half else "float32"
    out = w.add_array(rng.choice(["weight", "w", "dequantized"]), out_type, "output", shape=(rows, cols))
    group_size = str(group) if rng.random() < 0.6 else w.add_constant("group_size", group).src
    g = w.fresh("g")
    w.emit(f"{g} = {c} // {group_size}")
    byte, nib = w.fresh("byte"), w.fresh("nibble")
    w.emit(f"{byte} = int({packed}[{r}, {c} // 2])")
    high_first = rng.random() < 0.3
    by_shift = rng.random() < 0.5
    if high_first:
        w.feature(f"high nibble first ({'a shift' if by_shift else 'a branch'})")
    if by_shift:
        shift = f"4 * (1 - {c} % 2)" if high_first else f"4 * ({c} % 2)"
        w.emit(f"{nib} = ({byte} >> ({shift})) & 15")
    else:
        with w.block(f"if {c} % 2 == {1 if high_first else 0}:"):
            w.emit(f"{nib} = {byte} & 0xF")
        with w.block("else:"):
            w.emit(f"{nib} = {byte} >> 4")
    if zeros is None:
        value = f"float({nib} - 8) * {scales}[{r}, {g}]"
        w.feature(f"int4 weights unpacked (two per byte, offset 8), a scale per group of {group}")
    else:
        value = f"(float({nib}) - {zeros}[{r}, {g}]) * {scales}[{r}, {g}]"
        w.feature(f"int4 weights unpacked (two per byte), a scale and zero point per group of {group}")
    if half:
        value = f"wp.{out_type}({value})"
        w.feature(f"written as {out_type}")
    w.emit(f"{out}[{r}, {c}] = {value}")
    w.note_bound(out, 1.0)
    return w


def pack_int4(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Two float32 weights quantised to int4 ([-8, 7] with a scale per row) and packed into one uint8, the
    first in the low nibble: a thread per byte."""
    rows, cols = rng.choice(ROWS), rng.choice((64, 128, 256))
    w, r, p = _int4_layout(rng, name, seed, rows, cols, cols // 2)
    x = w.add_array(rng.choice(["weights", "w", "x"]), "float32", "input", shape=(rows, cols), low=-1.0, high=1.0,
                    grid_bits=7)
    group = rng.choice((0, 32, 64))  # 0: a scale per row; else per group of weights along the row
    if group:
        scales = w.add_array(rng.choice(["scales", "group_scales"]), "float32", "input", shape=(rows, cols // group),
                             low=0.125, high=0.25, grid_bits=6)
        scale_at = f"{scales}[{r}, (2 * {p}) // {group}]"
        w.feature(f"a scale per group of {group}")
    else:
        scales = w.add_array(rng.choice(["scales", "row_scale"]), "float32", "input", shape=(rows,), low=0.125,
                             high=0.25, grid_bits=6, per_row=True)
        scale_at = f"{scales}[{r}]"
    zeros = None
    if rng.random() < 0.35:  # asymmetric: levels 0..15 around a zero point per row
        zeros = w.add_array(rng.choice(["zeros", "zero_point"]), "float32", "input", shape=(rows,), low=6.0, high=10.0,
                            grid_bits=0, per_row=True)
    packed = w.add_array(rng.choice(["packed", "qweight", "out_int4"]), "uint8", "output", shape=(rows, cols // 2))
    if rng.random() < 0.6:
        inv = w.fresh("inv_scale")
        w.emit(f"{inv} = 1.0 / {scale_at}")
        rounded_lo, how = _round(rng, f"{x}[{r}, 2 * {p}] * {inv}", inexact_product=True)
    else:
        s_ = w.fresh("s")
        w.emit(f"{s_} = {scale_at}")
        rounded_lo, how = _round(rng, f"{x}[{r}, 2 * {p}] / {s_}")
    rounded_hi = rounded_lo.replace(f"2 * {p}]", f"2 * {p} + 1]")
    lo, hi = w.fresh("lo"), w.fresh("hi")
    if zeros is None:
        w.emit(f"{lo} = int(wp.clamp({rounded_lo}, -8.0, 7.0)) + 8")
        w.emit(f"{hi} = int(wp.clamp({rounded_hi}, -8.0, 7.0)) + 8")
    else:
        w.emit(f"{lo} = int(wp.clamp({rounded_lo} + {zeros}[{r}], 0.0, 15.0))")
        w.emit(f"{hi} = int(wp.clamp({rounded_hi} + {zeros}[{r}], 0.0, 15.0))")
        w.feature("a zero point per row")
    w.emit(f"{packed}[{r}, {p}] = wp.uint8({lo} | ({hi} << 4))")
    w.note_bound(packed, 255.0)
    w.feature(f"int4 quantisation ({how}), two weights packed per byte")
    return w


def pcm_audio(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """int16 PCM audio, as WAV files and sound cards hand it over: decoded to float samples in [-1, 1)
    (`/ 32768.0`, a gain now and then), a stereo pair (interleaved, or a row of two) mixed down to mono,
    or float samples encoded back (the gain applied, clipped to [-1, 1], scaled by 32767 and rounded)."""
    kind = rng.choice(["decode", "decode", "mixdown", "encode"])
    frames = rng.choice((256, 500, 1024))
    w = _launch(rng, name, seed, (frames,), (rng.choice(["i", "tid", "frame"]),))
    i = w.tid_names[0]
    gain = w.add_scalar(rng.choice(["gain", "volume"]), "float32", rng.choice([0.5, 0.75, 1.5])).src \
        if rng.random() < 0.4 else None
    if kind == "encode":
        x = w.add_array(rng.choice(["samples", "audio", "signal"]), "float32", "input", low=-1.25, high=1.25)
        w.unused.remove(x)
        pcm = w.add_array(rng.choice(["pcm", "pcm_out", "frames_i16"]), "int16", "output")
        value = f"{x}[{i}] * {gain}" if gain else f"{x}[{i}]"
        w.emit(f"v = wp.clamp({value}, -1.0, 1.0)")
        w.emit(f"{pcm}[{i}] = wp.int16(wp.round(v * 32767.0))")
        w.feature("float samples encoded as int16 PCM (clipped, scaled by 32767, rounded)")
        return w
    scale = rng.choice(["/ 32768.0", "* (1.0 / 32768.0)"])
    out = w.add_array(rng.choice(["samples", "audio", "out"]), "float32", "output")
    if kind == "mixdown":
        if rng.random() < 0.5:
            pcm = w.add_array(rng.choice(["pcm", "stereo"]), "int16", "input", shape=(2 * frames,), low=-32768,
                              high=32767, grid_bits=0, keeps_size=False)
            left, right = f"{pcm}[2 * {i}]", f"{pcm}[2 * {i} + 1]"
            w.feature("interleaved stereo int16 PCM mixed down to mono")
        else:
            pcm = w.add_array(rng.choice(["pcm", "stereo"]), "int16", "input", shape=(frames, 2), low=-32768,
                              high=32767, grid_bits=0)
            left, right = f"{pcm}[{i}, 0]", f"{pcm}[{i}, 1]"
            w.feature("stereo int16 PCM (a row per frame) mixed down to mono")
        w.unused.remove(pcm)
        value = f"0.5 * (float({left}) + float({right})) {scale}"
    else:
        pcm = w.add_array(rng.choice(["pcm", "pcm_in", "frames_i16"]), "int16", "input", low=-32768, high=32767,
                          grid_bits=0)
        w.unused.remove(pcm)
        value = f"float({pcm}[{i}]) {scale}"
        w.feature("int16 PCM decoded to float samples")
    w.emit(f"{out}[{i}] = {f'{gain} * {value}' if gain else value}")
    w.note_bound(out, 1.5)
    if gain:
        w.feature("with a gain")
    return w


def depth_to_points(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """A uint16 depth image in millimetres (what RGB-D cameras deliver) to metres, back-projected
    through the pinhole intrinsics (fx, fy, cx, cy) to a camera-space point per pixel. No reading (0),
    or one nearer than the sensor's minimum range, gives a zero point and, now and then, a 0 in a valid
    mask; depth past a maximum range is clipped now and then."""
    height, width = rng.choice(((48, 64), (60, 80), (120, 160)))
    names = rng.choice([("v", "u"), ("y", "x"), ("row", "col")])
    w = _launch(rng, name, seed, (height, width), names)
    v, u = names
    depth = w.add_array(rng.choice(["depth", "depth_mm", "depth_image"]), "uint16", "input", low=0, high=4095,
                        grid_bits=0)
    w.unused.remove(depth)
    focal = width * rng.choice((0.75, 0.875, 1.0))
    fx = w.add_scalar("fx", "float32", focal).src
    fy = w.add_scalar("fy", "float32", focal).src
    cx = w.add_scalar("cx", "float32", width / 2 - 0.5).src
    cy = w.add_scalar("cy", "float32", height / 2 - 0.5).src
    scale = w.add_scalar(rng.choice(["depth_scale", "mm_to_m"]), "float32", 0.001).src if rng.random() < 0.5 \
        else "0.001"
    points = w.add_array(rng.choice(["points", "cloud", "xyz"]), "vec3", "output")
    mask = w.add_array(rng.choice(["valid", "mask"]), "int32", "output") if rng.random() < 0.4 else None
    min_mm = rng.choice((100, 200, 300))
    w.emit(f"d = {depth}[{v}, {u}]")
    with w.block(f"if d < wp.uint16({min_mm}):" if rng.random() < 0.5 else f"if int(d) < {min_mm}:"):
        w.emit(f"{points}[{v}, {u}] = wp.vec3(0.0)")
        if mask:
            w.emit(f"{mask}[{v}, {u}] = 0")
        w.emit("return")
    z = f"float(d) * {scale}"
    if rng.random() < 0.35:
        max_range = w.add_scalar(rng.choice(["max_depth", "far"]), "float32", rng.choice([3.0, 3.5])).src
        w.emit(f"z = wp.min({z}, {max_range})")
        w.feature("depth clipped at a maximum range")
    else:
        w.emit(f"z = {z}")
    w.emit(f"{points}[{v}, {u}] = wp.vec3((float({u}) - {cx}) * z / {fx}, (float({v}) - {cy}) * z / {fy}, z)")
    if mask:
        w.emit(f"{mask}[{v}, {u}] = 1")
        w.feature("valid mask")
    w.note_bound(points, 8.0)
    w.feature(f"uint16 depth image (mm) back-projected to camera-space points, readings under {min_mm} mm invalid")
    return w


SENSOR_FORMS: dict[str, Callable[[random.Random, str, int], KernelWriter]] = {
    "int16 PCM audio": pcm_audio,
    "uint16 depth image to points": depth_to_points,
}
SENSOR_SHARE = 0.15  # of these kernels, from a stream of its own: the 16-bit integers sensors deliver

INT4_FORMS: dict[str, Callable[[random.Random, str, int], KernelWriter]] = {
    "int4 dequantisation": dequantize_int4,
    "int4 packing": pack_int4,
}
INT4_SHARE = 0.15  # of these kernels: a stream of its own, so the others keep their draws

QUANT_FORMS: dict[str, Callable[[random.Random, str, int], KernelWriter]] = {
    "quantisation": quantize,
    "dequantisation": dequantize,
    "int8 matrix-vector product": int8_gemv,
    "dynamic per-row quantisation": dynamic_quantize,
    "uint8 image normalisation": image_normalize,
    "cross-entropy with int64 labels": cross_entropy,
    "embedding lookup": embedding,
}


def chooses_quantized(seed: int) -> bool:
    """Whether arithmetic kernel `seed` is one of these: a stream of its own, so the others keep every draw."""
    return random.Random(seed ^ 0x51A7).random() < QUANT_SHARE


def chooses_sensor(seed: int) -> bool:
    """Whether one of these kernels converts a sensor's 16-bit integers: a stream of its own."""
    return random.Random(seed ^ 0x5E50).random() < SENSOR_SHARE


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    forms = INT4_FORMS if random.Random(seed ^ 0x1447).random() < INT4_SHARE else QUANT_FORMS
    if chooses_sensor(seed):  # its own stream: the other kernels keep their draws
        forms = SENSOR_FORMS
    w = forms[rng.choice(list(forms))](rng, name, seed)
    w.describe_operations("ops", ("min", "max", "abs", "clamp"), operators=True)
    return w.finish("Quantised and integer tensor kernel")
