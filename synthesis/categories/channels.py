"""Batches of multi-channel images: 4-D arrays in NCHW order (`wp.array4d`), the layout of a
convolutional network's activations, one table entry per kernel people write over them
(CHANNEL_FORMS):

- a per-channel affine map: batch normalisation at inference (mean, variance, scale, shift per
  channel), or its folded form (a scale and a shift per channel), with a ReLU and a residual input now
  and then;
- 2 x 2 pooling (the largest or the mean of each window), the output half the input's height and width;
- a depthwise 3 x 3 convolution (one 3 x 3 filter per channel), its borders zero-padded or clamped;
- a pointwise (1 x 1) convolution: each output channel a weighted sum over the input's channels;
- a softmax over the channels at each pixel (a segmentation head), or the channels' mean and largest
  value per pixel, over a 3-D launch (n, y, x) that loops over the channels;
- a nearest-neighbour 2x upsampling added to a skip connection (a U-Net's decoder).

A 4-D launch `n, c, y, x = wp.tid()` covers the output; the batch (the outermost extent) grows at bench
size, the channels and the image keep their size. The stencil category draws these kernels
(CHANNELS_SHARE) from a stream of their own, so every other stencil kernel keeps its draws."""
from __future__ import annotations

import random
from typing import Callable

from synthesis.exprgen import KernelWriter
from synthesis.spec import KernelSpec

CHANNELS_SHARE = 0.25  # of stencil kernels
BATCHES = (2, 4)
CHANNELS = (3, 4, 8, 16)
SIDES = (8, 16, 32)
# the launch's index names, as people write them over NCHW images (the channel's name is the form's)
IMAGE_INDICES = (("n", "y", "x"), ("b", "i", "j"), ("n", "h", "w"), ("batch", "row", "col"))
ACTIVATIONS = ("relu", "leaky relu", "none", "none")


class Images:
    """The launch's shape and index names, and the arrays over it."""

    def __init__(self, rng: random.Random, name: str, seed: int, channel_names: tuple[str, ...],
                 per_pixel: bool = False, channels: int | None = None) -> None:
        self.batch = rng.choice(BATCHES)
        self.channels = channels or rng.choice(CHANNELS)
        self.height = rng.choice(SIDES)
        self.width = self.height if rng.random() < 0.7 else rng.choice(SIDES)
        self.n, self.y, self.x = rng.choice(IMAGE_INDICES)
        self.c = rng.choice(channel_names)
        if per_pixel:  # a 3-D launch over the pixels; the kernel loops over the channels
            dim, names = (self.batch, self.height, self.width), (self.n, self.y, self.x)
        else:
            dim, names = (self.batch, self.channels, self.height, self.width), (self.n, self.c, self.y, self.x)
        self.w = KernelWriter(rng, name, "stencil", seed, dim, names)
        self.w.output_update_share = 0.0
        self.w.intermediate_output_share = 0.0

    def shape(self, channels: int | None = None, scale: float = 1.0) -> tuple[int, int, int, int]:
        return (self.batch, self.channels if channels is None else channels, int(self.height * scale),
                int(self.width * scale))

    def image(self, hints: tuple[str, ...], role: str = "input", channels: int | None = None, scale: float = 1.0,
              low: float = -2.0, high: float = 2.0) -> str:
        names = self.w.tid_names
        return self.w.add_array(self.w.rng.choice([h for h in hints if h not in names] or ["images"]), "float32", role,
                                shape=self.shape(channels, scale), low=low, high=high, grid_bits=6)

    def per_channel(self, hints: tuple[str, ...], low: float = -1.0, high: float = 1.0, count: int | None = None) -> str:
        return self.w.add_array(self.w.rng.choice(hints), "float32", "input", shape=(count or self.channels,), low=low,
                                high=high, grid_bits=6)

    def pixel(self, c: str | None = None) -> str:
        return f"{self.n}, {c or self.c}, {self.y}, {self.x}"


def activation(w: KernelWriter, value: str, kind: str) -> str:
    """`value` through a ReLU or a leaky ReLU, as a local (or `value` itself)."""
    if kind == "none":
        return value
    if kind == "relu":
        w.emit(f"{value} = wp.max({value}, 0.0)")
    else:
        w.emit(f"{value} = wp.where({value} > 0.0, {value}, 0.01 * {value})")
    w.feature(kind)
    return value


def channel_affine(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Batch normalisation at inference, `gamma[c] * (x - mean[c]) / sqrt(var[c] + eps) + beta[c]`, or
    its folded form `x * scale[c] + shift[c]`; then a residual input added, a ReLU."""
    im = Images(rng, name, seed, ("c", "ch"))
    w = im.w
    inp = im.image(("x", "inp", "feat", "act"))
    v = w.fresh("v")
    if rng.random() < 0.6:
        mean = im.per_channel(("mean", "running_mean", "mu"))
        var = im.per_channel(("var", "running_var"), low=0.25, high=4.0)
        gamma = im.per_channel(("gamma", "bn_weight", "scale"), low=0.5, high=2.0)
        beta = im.per_channel(("beta", "bn_bias", "shift"))
        eps = rng.choice(["1.0e-5", "1.0e-3"])
        w.emit(f"{v} = ({w.load(inp).src} - {mean}[{im.c}]) / wp.sqrt({var}[{im.c}] + {eps})")
        w.emit(f"{v} = {gamma}[{im.c}] * {v} + {beta}[{im.c}]")
        w.feature("batch normalisation at inference (per-channel mean, variance, scale, shift)")
        bound = 4.0 * 2.0 * 2.0 + 1.0
    else:
        scale = im.per_channel(("scale", "bn_scale", "gain"), low=-2.0, high=2.0)
        shift = im.per_channel(("shift", "bn_shift", "bias"))
        w.emit(f"{v} = {w.load(inp).src} * {scale}[{im.c}] + {shift}[{im.c}]")
        w.feature("per-channel scale and shift (a folded batch normalisation)")
        bound = 5.0
    if rng.random() < 0.35:
        skip = im.image(("skip", "residual", "identity"))
        w.emit(f"{v} += {w.load(skip).src}")
        w.feature("residual input added")
        bound += 2.0
    activation(w, v, rng.choice(ACTIVATIONS))
    out = im.image(("out", "y", "normed", "act_out"), "output")
    w.emit(f"{out}[{im.pixel()}] = {v}")
    w.note_bound(out, bound)
    return w


def pool2x2(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Each output pixel the largest (or the mean) of a 2 x 2 window of the input, twice its size."""
    im = Images(rng, name, seed, ("c", "ch"))
    w = im.w
    inp = im.image(("x", "inp", "feat", "act"), scale=2.0)
    kind = rng.choice(["max", "mean"])
    y0, x0 = f"{im.y}0", f"{im.x}0"  # the window's corner (no argument or local has a digit-ended name)
    w.emit(f"{y0} = 2 * {im.y}")
    w.emit(f"{x0} = 2 * {im.x}")
    taps = [f"{inp}[{im.n}, {im.c}, {y0}{dy}, {x0}{dx}]" for dy in ("", " + 1") for dx in ("", " + 1")]
    out = im.image(("pooled", "out", "down"), "output")
    if kind == "max":
        top, bottom = w.fresh("top"), w.fresh("bottom")
        w.emit(f"{top} = wp.max({taps[0]}, {taps[1]})")
        w.emit(f"{bottom} = wp.max({taps[2]}, {taps[3]})")
        w.emit(f"{out}[{im.pixel()}] = wp.max({top}, {bottom})")
        w.feature("2 x 2 max pooling")
    else:
        w.emit(f"{out}[{im.pixel()}] = 0.25 * ({' + '.join(taps)})")
        w.feature("2 x 2 average pooling")
    w.note_bound(out, 2.0)
    return w


def depthwise3x3(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """One 3 x 3 filter per channel (a `weights` array of C x 3 x 3), its taps past the border left out
    (zero padding) or read from the nearest pixel (clamped), a bias per channel."""
    im = Images(rng, name, seed, ("c", "ch"))
    w = im.w
    inp = im.image(("x", "inp", "feat", "act"))
    weights = w.add_array(rng.choice(["weights", "filters", "kernel_w"]), "float32", "input", shape=(im.channels, 3, 3),
                          low=-1.0, high=1.0, grid_bits=6)
    height, width = w.fresh("height"), w.fresh("width")
    w.emit(f"{height} = {inp}.shape[2]")
    w.emit(f"{width} = {inp}.shape[3]")
    acc = w.fresh("acc")
    if rng.random() < 0.6:
        bias = im.per_channel(("bias", "b_conv"))
        w.emit(f"{acc} = {bias}[{im.c}]")
    else:
        w.emit(f"{acc} = float(0.0)")
    ky, kx = rng.choice([("ky", "kx"), ("dy", "dx"), ("u", "v")])
    yy, xx = w.fresh(f"{im.y}{im.y}" if len(im.y) == 1 else "src_row"), w.fresh(f"{im.x}{im.x}" if len(im.x) == 1 else "src_col")
    padded = rng.random() < 0.6
    with w.block(f"for {ky} in range(3):"):
        with w.block(f"for {kx} in range(3):"):
            if padded:
                w.emit(f"{yy} = {im.y} + {ky} - 1")
                w.emit(f"{xx} = {im.x} + {kx} - 1")
                with w.block(f"if {yy} >= 0 and {yy} < {height} and {xx} >= 0 and {xx} < {width}:"):
                    w.emit(f"{acc} += {weights}[{im.c}, {ky}, {kx}] * {inp}[{im.n}, {im.c}, {yy}, {xx}]")
            else:
                w.emit(f"{yy} = wp.clamp({im.y} + {ky} - 1, 0, {height} - 1)")
                w.emit(f"{xx} = wp.clamp({im.x} + {kx} - 1, 0, {width} - 1)")
                w.emit(f"{acc} += {weights}[{im.c}, {ky}, {kx}] * {inp}[{im.n}, {im.c}, {yy}, {xx}]")
    w.feature("depthwise 3 x 3 convolution, " + ("zero-padded borders" if padded else "clamped borders"))
    activation(w, acc, rng.choice(ACTIVATIONS))
    out = im.image(("out", "conv_out", "y"), "output")
    w.emit(f"{out}[{im.pixel()}] = {acc}")
    w.note_bound(out, 9.0 * 2.0 + 1.0)
    return w


def pointwise_conv(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """A 1 x 1 convolution: output channel k at a pixel is a weighted sum of the input's channels there,
    `weights` of K x C, a bias per output channel."""
    in_channels = rng.choice(CHANNELS)
    im = Images(rng, name, seed, ("k", "oc", "co"), channels=rng.choice((4, 8, 16)))
    w = im.w
    inp = im.image(("x", "inp", "feat", "act"), channels=in_channels)
    weights = w.add_array(rng.choice(["weights", "w_proj", "kernel_w"]), "float32", "input",
                          shape=(im.channels, in_channels), low=-1.0, high=1.0, grid_bits=6)
    acc = w.fresh("acc")
    if rng.random() < 0.6:
        bias = im.per_channel(("bias", "b_proj"))
        w.emit(f"{acc} = {bias}[{im.c}]")
    else:
        w.emit(f"{acc} = float(0.0)")
    c = rng.choice(["c", "ci", "ic"])
    with w.block(f"for {c} in range({inp}.shape[1]):"):
        w.emit(f"{acc} += {weights}[{im.c}, {c}] * {inp}[{im.n}, {c}, {im.y}, {im.x}]")
    w.feature(f"pointwise (1 x 1) convolution, {in_channels} channels in, {im.channels} out")
    activation(w, acc, rng.choice(ACTIVATIONS))
    out = im.image(("out", "proj", "y"), "output")
    w.emit(f"{out}[{im.pixel()}] = {acc}")
    w.note_bound(out, 2.0 * in_channels + 1.0)
    return w


def channel_reduction(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Over a 3-D launch (n, y, x) that loops over each pixel's channels: a softmax across them (a
    segmentation head's class probabilities), or their mean and largest value (two maps, as a spatial
    attention block pools its channels)."""
    im = Images(rng, name, seed, ("c", "ch"), per_pixel=True)
    w = im.w
    channels = w.fresh("channels")
    c = im.c
    if rng.random() < 0.6:
        logits = im.image(("logits", "scores", "x"), low=-4.0, high=4.0)
        w.emit(f"{channels} = {logits}.shape[1]")
        m, total = w.fresh("m"), w.fresh("total")
        w.emit(f"{m} = {logits}[{im.n}, 0, {im.y}, {im.x}]")
        with w.block(f"for {c} in range(1, {channels}):"):
            w.emit(f"{m} = wp.max({m}, {logits}[{im.pixel(c)}])")
        w.emit(f"{total} = float(0.0)")
        with w.block(f"for {c} in range({channels}):"):
            w.emit(f"{total} += wp.exp({logits}[{im.pixel(c)}] - {m})")
        probs = im.image(("probs", "p", "softmax_out"), "output")
        with w.block(f"for {c} in range({channels}):"):
            w.emit(f"{probs}[{im.pixel(c)}] = wp.exp({logits}[{im.pixel(c)}] - {m}) / {total}")
        w.note_bound(probs, 1.0)
        w.feature("softmax over the channels at each pixel (the largest subtracted first)")
        return w
    inp = im.image(("x", "inp", "feat"))
    w.emit(f"{channels} = {inp}.shape[1]")
    total, m = w.fresh("total"), w.fresh("peak")
    w.emit(f"{total} = float(0.0)")
    w.emit(f"{m} = {inp}[{im.n}, 0, {im.y}, {im.x}]")
    with w.block(f"for {c} in range({channels}):"):
        v = w.fresh("v")
        w.emit(f"{v} = {inp}[{im.pixel(c)}]")
        w.emit(f"{total} += {v}")
        w.emit(f"{m} = wp.max({m}, {v})")
    pooled = w.add_array(rng.choice(["pooled", "spatial", "maps"]), "float32", "output",
                         shape=(im.batch, 2, im.height, im.width))
    w.emit(f"{pooled}[{im.n}, 0, {im.y}, {im.x}] = {total} / float({channels})")
    w.emit(f"{pooled}[{im.n}, 1, {im.y}, {im.x}] = {m}")
    w.note_bound(pooled, 2.0)
    w.feature("the channels' mean and largest value per pixel (two maps)")
    return w


def upsample_skip(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """A nearest-neighbour 2x upsampling of a coarse map, added to a skip connection (a U-Net decoder's
    step), with a scale on the coarse map now and then."""
    im = Images(rng, name, seed, ("c", "ch"))
    w = im.w
    coarse = im.image(("coarse", "low_res", "up_in"), scale=0.5)
    value = f"{coarse}[{im.n}, {im.c}, {im.y} // 2, {im.x} // 2]"
    if rng.random() < 0.4:
        gain = w.add_scalar(rng.choice(["gain", "up_scale", "alpha"]), "float32", rng.choice([0.5, 0.75, 1.5, 2.0]))
        value = f"{gain.src} * {value}"
        w.feature("upsampled map scaled by a parameter")
    out = im.image(("out", "merged", "y"), "output")
    if rng.random() < 0.75:
        skip = im.image(("skip", "enc", "bridge"))
        w.emit(f"{out}[{im.pixel()}] = {value} + {w.load(skip).src}")
        w.feature("skip connection added")
    else:
        w.emit(f"{out}[{im.pixel()}] = {value}")
    w.feature("nearest-neighbour 2x upsampling")
    w.note_bound(out, 8.0)
    return w


CHANNEL_FORMS: dict[str, Callable[[random.Random, str, int], KernelWriter]] = {
    "per-channel affine": channel_affine,
    "2 x 2 pooling": pool2x2,
    "depthwise 3 x 3 convolution": depthwise3x3,
    "pointwise convolution": pointwise_conv,
    "reduction over the channels": channel_reduction,
    "upsampling with a skip connection": upsample_skip,
}


def chooses_channels(seed: int) -> bool:
    """Whether stencil kernel `seed` works on NCHW images: a stream of its own, so the others keep every
    draw."""
    return random.Random(seed ^ 0xC4A).random() < CHANNELS_SHARE


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    form = rng.choice(list(CHANNEL_FORMS))
    return CHANNEL_FORMS[form](rng, name, seed).finish("Multi-channel image kernel (NCHW)")
