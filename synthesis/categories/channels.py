"""Batches of multi-channel images: 4-D arrays in NCHW order (`wp.array4d`), the layout of a
convolutional network's activations, one table entry per layer people write over them (CHANNEL_FORMS):

- a per-channel affine map: batch normalisation at inference, its folded form (a scale and a shift per
  channel), or a layer scale;
- pooling: the largest or the mean of 2 x 2 windows (written out or in a loop) or of 3 x 3 windows at
  stride 2, the output half the input's height and width;
- a depthwise 3 x 3 (dilated now and then) or 5 x 5 convolution, its borders zero-padded or clamped;
- a pointwise (1 x 1) convolution: each output channel a weighted sum over the input's channels;
- a dense K x K convolution over all the input's channels (DENSE_CONV_SHARE, a stream of its own), at
  stride 1 or 2, zero-padded; a 1 x 1 one at stride 2 (a projection shortcut);
- global average or max pooling into N x C x 1 x 1 (atomics with four indices);
- a nearest-neighbour 2x upsampling added to a skip connection (a U-Net's decoder);
- over a 3-D launch (n, y, x) that loops over each pixel's channels: a softmax or log-softmax (a
  segmentation head), the channels scaled to unit length, the pixel's class, the channels' mean and
  largest value.

Most layers end in an epilogue: a residual input added, an activation (ACTIVATIONS). A 4-D launch
`n, c, y, x = wp.tid()` covers the output; the batch (the outermost extent) grows at bench size, the
channels and the image keep their size. The stencil category draws these kernels (CHANNELS_SHARE) from
a stream of their own, so every other stencil kernel keeps its draws."""
from __future__ import annotations

import random
from typing import Callable

from synthesis.exprgen import KernelWriter, fmt_float
from synthesis.spec import KernelSpec

CHANNELS_SHARE = 0.2  # of stencil kernels
BATCHES = (2, 4)
CHANNELS = (3, 4, 8, 16)
SIDES = (8, 16, 32)
# the launch's index names, as people write them over NCHW images (the channel's name is the form's)
IMAGE_INDICES = (("n", "y", "x"), ("b", "i", "j"), ("n", "h", "w"), ("batch", "row", "col"))
# an activation after a layer: its code over local `v` (people write each of these in Warp as here)
ACTIVATIONS: dict[str, str] = {
    "relu": "{v} = wp.max({v}, 0.0)",
    "leaky relu": "{v} = wp.where({v} > 0.0, {v}, 0.01 * {v})",
    "relu6": "{v} = wp.clamp({v}, 0.0, 6.0)",
    "silu": "{v} = {v} / (1.0 + wp.exp(-{v}))",
    "sigmoid": "{v} = 1.0 / (1.0 + wp.exp(-{v}))",
    "tanh": "{v} = wp.tanh({v})",
    "gelu (tanh approximation)": "{v} = 0.5 * {v} * (1.0 + wp.tanh(0.7978846 * ({v} + 0.044715 * {v} * {v} * {v})))",
    "hard swish": "{v} = {v} * wp.clamp({v} + 3.0, 0.0, 6.0) / 6.0",
    "elu": "{v} = wp.where({v} > 0.0, {v}, wp.exp({v}) - 1.0)",
}
NO_ACTIVATION_SHARE = 0.15
RESIDUAL_SHARE = 0.3  # layers whose output shape is their input's: a skip connection added


class Images:
    """The launch's shape and index names, and the arrays over it."""

    def __init__(self, rng: random.Random, name: str, seed: int, channel_names: tuple[str, ...],
                 per_pixel: bool = False, channels: int | None = None, channels_last: bool = False) -> None:
        self.channels_last = channels_last  # NHWC: images (batch, height, width, channels), launched so
        self.batch = rng.choice(BATCHES)
        self.channels = channels or rng.choice(CHANNELS)
        self.height = rng.choice(SIDES)
        self.width = self.height if rng.random() < 0.7 else rng.choice(SIDES)
        self.n, self.y, self.x = rng.choice(IMAGE_INDICES)
        self.c = rng.choice(channel_names)
        if per_pixel:  # a 3-D launch over the pixels; the kernel loops over the channels
            dim, names = (self.batch, self.height, self.width), (self.n, self.y, self.x)
        elif channels_last:
            dim, names = (self.batch, self.height, self.width, self.channels), (self.n, self.y, self.x, self.c)
        else:
            dim, names = (self.batch, self.channels, self.height, self.width), (self.n, self.c, self.y, self.x)
        self.w = KernelWriter(rng, name, "stencil", seed, dim, names)
        self.w.output_update_share = 0.0
        self.w.intermediate_output_share = 0.0

    def shape(self, channels: int | None = None, scale: float = 1.0) -> tuple[int, int, int, int]:
        c = self.channels if channels is None else channels
        h, w = int(self.height * scale), int(self.width * scale)
        return (self.batch, h, w, c) if self.channels_last else (self.batch, c, h, w)

    def image(self, hints: tuple[str, ...], role: str = "input", channels: int | None = None, scale: float = 1.0,
              low: float = -2.0, high: float = 2.0) -> str:
        names = self.w.tid_names
        return self.w.add_array(self.w.rng.choice([h for h in hints if h not in names]), "float32", role,
                                shape=self.shape(channels, scale), low=low, high=high, grid_bits=6)

    def per_channel(self, hints: tuple[str, ...], low: float = -1.0, high: float = 1.0) -> str:
        return self.w.add_array(self.w.rng.choice(hints), "float32", "input", shape=(self.channels,), low=low,
                                high=high, grid_bits=6)

    def accumulator(self, bias_hints: tuple[str, ...]) -> str:
        """A convolution's sum, a local started from the channel's bias (an array named from
        `bias_hints`) or, now and then, from zero."""
        acc = self.w.fresh("acc")
        if self.w.rng.random() < 0.6:
            self.w.emit(f"{acc} = {self.per_channel(bias_hints)}[{self.c}]")
        else:
            self.w.emit(f"{acc} = float(0.0)")
        return acc

    def pixel(self, c: str | None = None) -> str:
        if self.channels_last:
            return f"{self.n}, {self.y}, {self.x}, {c or self.c}"
        return f"{self.n}, {c or self.c}, {self.y}, {self.x}"

    def at(self, c: str, y: str, x: str) -> str:
        """The indices of channel `c` at row `y`, column `x` of the launch's image, in the layout's order."""
        return f"{self.n}, {y}, {x}, {c}" if self.channels_last else f"{self.n}, {c}, {y}, {x}"


def epilogue(im: Images, v: str, residual: bool = True) -> None:
    """What follows a layer in a network, on its value `v` (a local): a skip connection added (where
    `residual`), then an activation (ACTIVATIONS), or neither."""
    w, rng = im.w, im.w.rng
    if residual and rng.random() < RESIDUAL_SHARE:
        skip = im.image(("skip", "residual", "identity", "shortcut"))
        w.emit(f"{v} += {w.load(skip).src}")
        w.feature("residual input added")
    if rng.random() >= NO_ACTIVATION_SHARE:
        kind = rng.choice(list(ACTIVATIONS))
        w.emit(ACTIVATIONS[kind].format(v=v))
        w.feature(f"activation: {kind}")


def channel_affine(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Batch normalisation at inference, `gamma[c] * (x - mean[c]) / sqrt(var[c] + eps) + beta[c]`
    (eps a literal or a module constant, the inverse standard deviation a local or inline), its folded
    form `x * scale[c] + shift[c]`, or a per-channel scale alone (a layer scale); then the epilogue."""
    im = Images(rng, name, seed, ("c", "ch"))
    w = im.w
    inp = im.image(("x", "inp", "feat", "act"))
    v = w.fresh("v")
    kind = rng.choice(["batch norm", "batch norm", "folded", "layer scale"])
    if kind == "batch norm":
        mean = im.per_channel(("mean", "running_mean", "mu"))
        var = im.per_channel(("var", "running_var"), low=0.25, high=4.0)
        gamma = im.per_channel(("gamma", "bn_weight", "scale"), low=0.5, high=2.0)
        beta = im.per_channel(("beta", "bn_bias", "shift"))
        eps = rng.choice(["1.0e-5", "1.0e-3"])
        if rng.random() < 0.3:
            eps = w.add_constant("EPS", float(eps)).src
        if rng.random() < 0.5:
            w.emit(f"{v} = ({w.load(inp).src} - {mean}[{im.c}]) / wp.sqrt({var}[{im.c}] + {eps})")
            w.emit(f"{v} = {gamma}[{im.c}] * {v} + {beta}[{im.c}]")
        else:
            inv_std = w.fresh("inv_std")
            w.emit(f"{inv_std} = 1.0 / wp.sqrt({var}[{im.c}] + {eps})")
            w.emit(f"{v} = ({w.load(inp).src} - {mean}[{im.c}]) * {inv_std} * {gamma}[{im.c}] + {beta}[{im.c}]")
        w.feature("batch normalisation at inference (per-channel mean, variance, scale, shift)")
    elif kind == "folded":
        scale = im.per_channel(("scale", "bn_scale", "gain"), low=-2.0, high=2.0)
        shift = im.per_channel(("shift", "bn_shift", "bias"))
        w.emit(f"{v} = {w.load(inp).src} * {scale}[{im.c}] + {shift}[{im.c}]")
        w.feature("per-channel scale and shift (a folded batch normalisation)")
    else:
        gamma = im.per_channel(("gamma", "layer_scale", "ls_weight"), low=-2.0, high=2.0)
        w.emit(f"{v} = {gamma}[{im.c}] * {w.load(inp).src}")
        w.feature("per-channel scale (a layer scale)")
    epilogue(im, v)
    out = im.image(("out", "y", "normed", "act_out"), "output")
    w.emit(f"{out}[{im.pixel()}] = {v}")
    w.note_bound(out, 40.0)
    return w


def pooling(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Each output pixel the largest (or the mean) of a window of the input, twice the output's size:
    2 x 2 windows written out, or a loop over a 2 x 2 or 3 x 3 window at stride 2 (a 3 x 3 window's
    last row and column clamped to the image)."""
    im = Images(rng, name, seed, ("c", "ch"))
    w = im.w
    inp = im.image(("x", "inp", "feat", "act"), scale=2.0)
    kind = rng.choice(["max", "mean"])
    y0, x0 = f"{im.y}0", f"{im.x}0"  # the window's corner (no argument or local has a digit-ended name)
    w.emit(f"{y0} = 2 * {im.y}")
    w.emit(f"{x0} = 2 * {im.x}")
    out = im.image(("pooled", "out", "down"), "output")
    v = w.fresh("v")
    window = rng.choice(["written out", "loop", "loop", "3 x 3"])
    if window == "written out":
        taps = [f"{inp}[{im.n}, {im.c}, {y0}{dy}, {x0}{dx}]" for dy in ("", " + 1") for dx in ("", " + 1")]
        if kind == "max":
            top, bottom = w.fresh("top"), w.fresh("bottom")
            w.emit(f"{top} = wp.max({taps[0]}, {taps[1]})")
            w.emit(f"{bottom} = wp.max({taps[2]}, {taps[3]})")
            w.emit(f"{v} = wp.max({top}, {bottom})")
        else:
            w.emit(f"{v} = 0.25 * ({' + '.join(taps)})")
        size = 2
    else:
        size = 3 if window == "3 x 3" else 2
        dy, dx = rng.choice([("dy", "dx"), ("ky", "kx"), ("wy", "wx")])
        row, col = f"{y0} + {dy}", f"{x0} + {dx}"
        if size == 3:
            height, width = w.fresh("height"), w.fresh("width")
            w.emit(f"{height} = {inp}.shape[2]")
            w.emit(f"{width} = {inp}.shape[3]")
            row, col = f"wp.min({row}, {height} - 1)", f"wp.min({col}, {width} - 1)"
        w.emit(f"{v} = {inp}[{im.n}, {im.c}, {y0}, {x0}]" if kind == "max" else f"{v} = float(0.0)")
        with w.block(f"for {dy} in range({size}):"):
            with w.block(f"for {dx} in range({size}):"):
                tap = f"{inp}[{im.n}, {im.c}, {row}, {col}]"
                w.emit(f"{v} = wp.max({v}, {tap})" if kind == "max" else f"{v} += {tap}")
        if kind == "mean":
            w.emit(f"{v} = {v} / {float(size * size)}" if rng.random() < 0.5 else f"{v} *= {fmt_float(1.0 / size / size) if size == 2 else '1.0 / 9.0'}")
    w.feature(f"{size} x {size} {'max' if kind == 'max' else 'average'} pooling" + (", stride 2" if size == 3 else ""))
    epilogue(im, v, residual=False)
    w.emit(f"{out}[{im.pixel()}] = {v}")
    w.note_bound(out, 4.0)
    return w


def depthwise_conv(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """One 3 x 3 (or 5 x 5) filter per channel (a `weights` array of C x K x K), dilated now and then,
    its taps past the border left out (zero padding) or read from the nearest pixel (clamped), a bias
    per channel; then the epilogue."""
    im = Images(rng, name, seed, ("c", "ch"))
    w = im.w
    inp = im.image(("x", "inp", "feat", "act"))
    taps = rng.choice([3, 3, 3, 5])
    dilation = 2 if taps == 3 and rng.random() < 0.25 else 1
    weights = w.add_array(rng.choice(["weights", "filters", "kernel_w"]), "float32", "input",
                          shape=(im.channels, taps, taps), low=-1.0, high=1.0, grid_bits=6)
    height, width = w.fresh("height"), w.fresh("width")
    w.emit(f"{height} = {inp}.shape[2]")
    w.emit(f"{width} = {inp}.shape[3]")
    acc = im.accumulator(("bias", "b_conv"))
    ky, kx = rng.choice([("ky", "kx"), ("dy", "dx"), ("u", "v")])
    yy, xx = w.fresh(f"{im.y}{im.y}" if len(im.y) == 1 else "src_row"), w.fresh(f"{im.x}{im.x}" if len(im.x) == 1 else "src_col")
    # the tap's offset from the centre, times the dilation
    rows, cols = (f"{k} - {taps // 2}" if dilation == 1 else f"({k} - {taps // 2}) * {dilation}" for k in (ky, kx))
    border = rng.choice(["test", "test", "skip", "clamp", "clamp"])
    padded = border != "clamp"
    tap_local = rng.random() < 0.35
    with w.block(f"for {ky} in range({taps}):"):
        with w.block(f"for {kx} in range({taps}):"):
            if padded:
                w.emit(f"{yy} = {im.y} + {rows}")
                w.emit(f"{xx} = {im.x} + {cols}")
            else:
                w.emit(f"{yy} = wp.clamp({im.y} + {rows}, 0, {height} - 1)")
                w.emit(f"{xx} = wp.clamp({im.x} + {cols}, 0, {width} - 1)")
            if border == "skip":  # a tap past the border skipped with `continue`
                with w.block(f"if {yy} < 0 or {yy} >= {height} or {xx} < 0 or {xx} >= {width}:"):
                    w.emit("continue")
            tap = f"{weights}[{im.c}, {ky}, {kx}]"
            if tap_local:
                wk = w.fresh("wk")
                w.emit(f"{wk} = {tap}")
                tap = wk
            line = f"{acc} += {tap} * {inp}[{im.n}, {im.c}, {yy}, {xx}]"
            if border == "test":
                with w.block(f"if {yy} >= 0 and {yy} < {height} and {xx} >= 0 and {xx} < {width}:"):
                    w.emit(line)
            else:
                w.emit(line)
    w.feature(f"depthwise {taps} x {taps} convolution" + (", dilation 2" if dilation > 1 else "") + ", "
              + ("zero-padded borders" if padded else "clamped borders"))
    epilogue(im, acc)
    out = im.image(("out", "conv_out", "y"), "output")
    w.emit(f"{out}[{im.pixel()}] = {acc}")
    w.note_bound(out, 60.0)
    return w


def pointwise_conv(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """A 1 x 1 convolution: output channel k at a pixel is a weighted sum of the input's channels there,
    `weights` of K x C, a bias per output channel; then the epilogue."""
    in_channels = rng.choice(CHANNELS)
    im = Images(rng, name, seed, ("k", "oc", "co"), channels=rng.choice((4, 8, 16)))
    w = im.w
    inp = im.image(("x", "inp", "feat", "act"), channels=in_channels)
    transposed = rng.random() < 0.35  # weights stored C x K (input channel first), as some frameworks keep them
    weights = w.add_array(rng.choice(["weights_t", "w_in_out"] if transposed else ["weights", "w_proj", "kernel_w"]),
                          "float32", "input", shape=(in_channels, im.channels) if transposed else (im.channels, in_channels),
                          low=-1.0, high=1.0, grid_bits=6)
    acc = im.accumulator(("bias", "b_proj"))
    c = rng.choice(["c", "ci", "ic"])
    count = f"{inp}.shape[1]"
    if rng.random() < 0.3:  # the channel count a module constant, as a fixed architecture has it
        count = w.add_constant(rng.choice(["C_IN", "IN_CHANNELS"]), in_channels).src
    element = f"{weights}[{c}, {im.c}]" if transposed else f"{weights}[{im.c}, {c}]"
    with w.block(f"for {c} in range({count}):"):
        w.emit(f"{acc} += {element} * {inp}[{im.n}, {c}, {im.y}, {im.x}]")
    w.feature(f"pointwise (1 x 1) convolution, {in_channels} channels in, {im.channels} out")
    epilogue(im, acc)
    out = im.image(("out", "proj", "y"), "output")
    w.emit(f"{out}[{im.pixel()}] = {acc}")
    w.note_bound(out, 2.0 * in_channels + 40.0)
    return w


DENSE_CONV_SHARE = 0.25  # of the image kernels, drawn from a stream of their own (session 44)
NHWC_SHARE = 0.3  # of the dense convolutions: channels-last images (TensorFlow's and cuDNN's fast layout)


def chooses_dense_conv(seed: int) -> bool:
    """Whether image kernel `seed` is a dense convolution: a stream of its own, so the other image
    kernels keep every draw."""
    return random.Random(seed ^ 0xD3C0).random() < DENSE_CONV_SHARE


def dense_conv(rng: random.Random, name: str, seed: int) -> tuple[KernelWriter, str]:
    """The convolution layer of a CNN: output channel k at a pixel is the sum over every input channel
    of a K x K window (`weights` C_out x C_in x K x K, a 4-D array) at stride 1 (the output the input's
    size) or 2 (half its height and width: a downsampling layer), padded by K // 2 (taps past the border
    left out by a test, or rows and columns skipped with `continue`), a bias per output channel. The
    channels are looped outside the taps, or inside them (the border then tested once per tap, the row
    computed once per kernel row). A 1 x 1 convolution at stride 2 is a ResNet block's projection
    shortcut. Then the epilogue. Returns the writer and the images' layout (NCHW, or NHWC in NHWC_SHARE)."""
    in_channels = rng.choice(CHANNELS)
    nhwc = rng.random() < NHWC_SHARE
    im = Images(rng, name, seed, ("k", "oc", "co"), channels=rng.choice((4, 8, 16)), channels_last=nhwc)
    w = im.w
    stride = rng.choice([1, 1, 2])
    taps = rng.choice([3, 3, 3, 5]) if stride == 1 else rng.choice([3, 3, 1])
    pad = taps // 2
    inp = im.image(("x", "inp", "feat", "act"), channels=in_channels, scale=float(stride))
    # PyTorch's filters, C_out x C_in x K x K; with NHWC images TensorFlow's, K x K x C_in x C_out
    weights = w.add_array(rng.choice(["weights", "filters", "conv_w"]), "float32", "input",
                          shape=(taps, taps, in_channels, im.channels) if nhwc else (im.channels, in_channels, taps, taps),
                          low=-1.0, high=1.0, grid_bits=6,
                          keeps_size=True)  # C_out is a multiple of the batch: the shape rule would grow it

    def filter_at(ci: str, ky: str, kx: str) -> str:
        return f"{weights}[{ky}, {kx}, {ci}, {im.c}]" if nhwc else f"{weights}[{im.c}, {ci}, {ky}, {kx}]"
    acc = im.accumulator(("bias", "b_conv"))
    c = rng.choice(["c", "ci", "ic"])
    count = f"{inp}.shape[{3 if nhwc else 1}]"
    if rng.random() < 0.3:  # the channel count a module constant, as a fixed architecture has it
        count = w.add_constant(rng.choice(["C_IN", "IN_CHANNELS"]), in_channels).src
    origin_y = f"{im.y} * 2" if stride == 2 else im.y
    origin_x = f"{im.x} * 2" if stride == 2 else im.x
    if taps == 1:  # no window, no border
        with w.block(f"for {c} in range({count}):"):
            w.emit(f"{acc} += {filter_at(c, '0', '0')} * {inp}[{im.at(c, origin_y, origin_x)}]")
        w.feature(f"dense 1 x 1 convolution, {in_channels} channels in, {im.channels} out, stride 2 (a projection shortcut)")
    else:
        height, width = w.fresh("height"), w.fresh("width")
        w.emit(f"{height} = {inp}.shape[{1 if nhwc else 2}]")
        w.emit(f"{width} = {inp}.shape[{2 if nhwc else 3}]")
        ky, kx = rng.choice([("ky", "kx"), ("dy", "dx"), ("r", "s")])
        yy, xx = w.fresh("src_y" if len(im.y) > 1 else f"{im.y}{im.y}"), w.fresh("src_x" if len(im.x) > 1 else f"{im.x}{im.x}")
        row, col = f"{origin_y} + {ky} - {pad}", f"{origin_x} + {kx} - {pad}"
        channels_inside = rng.random() < 0.5
        border = rng.choice(["test", "skip"])
        tap = f"{filter_at(c, ky, kx)} * {inp}[{im.at(c, yy, xx)}]"
        if channels_inside:
            with w.block(f"for {ky} in range({taps}):"):
                w.emit(f"{yy} = {row}")
                if border == "skip":
                    with w.block(f"if {yy} < 0 or {yy} >= {height}:"):
                        w.emit("continue")
                with w.block(f"for {kx} in range({taps}):"):
                    w.emit(f"{xx} = {col}")
                    if border == "skip":
                        with w.block(f"if {xx} < 0 or {xx} >= {width}:"):
                            w.emit("continue")
                        with w.block(f"for {c} in range({count}):"):
                            w.emit(f"{acc} += {tap}")
                    else:
                        with w.block(f"if {yy} >= 0 and {yy} < {height} and {xx} >= 0 and {xx} < {width}:"):
                            with w.block(f"for {c} in range({count}):"):
                                w.emit(f"{acc} += {tap}")
            w.feature("the channels looped inside the taps (the border tested once per tap)")
        else:
            with w.block(f"for {c} in range({count}):"):
                with w.block(f"for {ky} in range({taps}):"):
                    with w.block(f"for {kx} in range({taps}):"):
                        w.emit(f"{yy} = {row}")
                        w.emit(f"{xx} = {col}")
                        if border == "skip":
                            with w.block(f"if {yy} < 0 or {yy} >= {height} or {xx} < 0 or {xx} >= {width}:"):
                                w.emit("continue")
                            w.emit(f"{acc} += {tap}")
                        else:
                            with w.block(f"if {yy} >= 0 and {yy} < {height} and {xx} >= 0 and {xx} < {width}:"):
                                w.emit(f"{acc} += {tap}")
            w.feature("the channels looped outside the taps")
        w.feature(f"dense {taps} x {taps} convolution, {in_channels} channels in, {im.channels} out, stride {stride}, "
                  f"zero-padded borders ({'skipped' if border == 'skip' else 'tested'})")
    if nhwc:
        w.feature("NHWC images (channels last), K x K x C_in x C_out filters")
    epilogue(im, acc)
    out = im.image(("out", "conv_out", "y"), "output")
    w.emit(f"{out}[{im.pixel()}] = {acc}")
    w.note_bound(out, 2.0 * in_channels * taps * taps + 40.0)
    return w, "NHWC" if nhwc else "NCHW"


def channel_reduction(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Over a 3-D launch (n, y, x) that loops over each pixel's channels: a softmax across them (a
    segmentation head's class probabilities; with a temperature, or as log-probabilities), the vector
    of channels scaled to unit length, or their mean and largest value (two maps, as a spatial attention
    block pools its channels)."""
    im = Images(rng, name, seed, ("c", "ch"), per_pixel=True)
    w = im.w
    channels = w.fresh("channels")
    c = im.c
    kind = rng.choice(["softmax", "softmax", "log-softmax", "unit length", "mean and largest", "class"])
    if kind in ("softmax", "log-softmax"):
        logits = im.image(("logits", "scores", "x"), low=-4.0, high=4.0)
        w.emit(f"{channels} = {logits}.shape[1]")
        inv_t = None
        if kind == "softmax" and rng.random() < 0.35:
            t = w.add_scalar(rng.choice(["temperature", "tau"]), "float32", rng.choice([0.5, 2.0, 4.0]))
            inv_t = w.fresh("inv_t")
            w.emit(f"{inv_t} = 1.0 / {t.src}")
            w.feature("temperature")
        m, total = w.fresh("m"), w.fresh("total")
        w.emit(f"{m} = {logits}[{im.n}, 0, {im.y}, {im.x}]")
        with w.block(f"for {c} in range(1, {channels}):"):
            w.emit(f"{m} = wp.max({m}, {logits}[{im.pixel(c)}])")
        w.emit(f"{total} = float(0.0)")
        shifted = f"({logits}[{im.pixel(c)}] - {m})" + (f" * {inv_t}" if inv_t else "")
        with w.block(f"for {c} in range({channels}):"):
            w.emit(f"{total} += wp.exp({shifted})")
        probs = im.image(("log_probs", "logp", "out") if kind == "log-softmax" else ("probs", "p", "softmax_out"), "output")
        if kind == "log-softmax":
            log_total = w.fresh("log_total")
            w.emit(f"{log_total} = wp.log({total})")
            with w.block(f"for {c} in range({channels}):"):
                w.emit(f"{probs}[{im.pixel(c)}] = {logits}[{im.pixel(c)}] - {m} - {log_total}")
            w.feature("log-softmax over the channels at each pixel")
        else:
            with w.block(f"for {c} in range({channels}):"):
                w.emit(f"{probs}[{im.pixel(c)}] = wp.exp({shifted}) / {total}")
            w.feature("softmax over the channels at each pixel (the largest subtracted first)")
        w.note_bound(probs, 40.0)
        return w
    inp = im.image(("x", "inp", "feat"))
    w.emit(f"{channels} = {inp}.shape[1]")
    if kind == "class":  # a segmentation's prediction: the first channel holding the largest score
        best, best_c = w.fresh("best"), w.fresh("best_c")
        w.emit(f"{best} = {inp}[{im.n}, 0, {im.y}, {im.x}]")
        w.emit(f"{best_c} = int(0)")
        with w.block(f"for {c} in range(1, {channels}):"):
            with w.block(f"if {inp}[{im.pixel(c)}] > {best}:"):
                w.emit(f"{best} = {inp}[{im.pixel(c)}]")
                w.emit(f"{best_c} = {c}")
        labels = w.add_array(rng.choice(["labels", "classes", "pred"]), "int32", "output",
                             shape=(im.batch, im.height, im.width))
        w.emit(f"{labels}[{im.n}, {im.y}, {im.x}] = {best_c}")
        if rng.random() < 0.5:
            conf = w.add_array(rng.choice(["score", "confidence", "best_score"]), "float32", "output",
                               shape=(im.batch, im.height, im.width))
            w.emit(f"{conf}[{im.n}, {im.y}, {im.x}] = {best}")
            w.feature("its score stored")
        w.feature("each pixel's class: the channel with the largest score (the first of equals)")
        return w
    if kind == "unit length":
        ss, scale = w.fresh("sum_sq"), w.fresh("inv_norm")
        w.emit(f"{ss} = float(0.0)")
        with w.block(f"for {c} in range({channels}):"):
            w.emit(f"{ss} += {inp}[{im.pixel(c)}] * {inp}[{im.pixel(c)}]")
        w.emit(f"{scale} = 1.0 / wp.sqrt({ss} + {rng.choice(['1.0e-6', '1.0e-12'])})")
        gamma = im.per_channel(("gamma", "weight", "g"), low=0.5, high=2.0) if rng.random() < 0.4 else None
        out = im.image(("normed", "unit", "out"), "output")
        with w.block(f"for {c} in range({channels}):"):
            w.emit(f"{out}[{im.pixel(c)}] = {inp}[{im.pixel(c)}] * {scale}" + (f" * {gamma}[{c}]" if gamma else ""))
        if gamma:
            w.feature("a learned scale per channel")
        w.note_bound(out, 1.0)
        w.feature("channels scaled to unit length at each pixel")
        return w
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


def global_pool(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """Global pooling: each pixel adds its value over the image's area into its (n, c) entry of an
    N x C x 1 x 1 output (`wp.atomic_add` with four indices; average pooling), or raises it to its value
    (`wp.atomic_max`; max pooling), or both into two outputs; of the input or of its ReLU. Sides are powers
    of two and values on a 1/64 grid, so every partial sum is exact: the result is the same in any order."""
    im = Images(rng, name, seed, ("c", "ch"))
    w = im.w
    inp = im.image(("x", "inp", "feat", "act"))
    kinds = rng.choice([("mean",), ("mean",), ("max",), ("mean", "max")])
    value = w.load(inp).src
    if rng.random() < 0.3:
        v = w.fresh("v")
        w.emit(f"{v} = wp.max({value}, 0.0)")
        value = v
        w.feature("of the input's ReLU")
    for kind in kinds:
        hints = ("pooled", "gap", "channel_mean") if kind == "mean" else ("peak", "gmp", "channel_max")
        # the largest so far: an output that earlier passes filled (from 0, every entry would be max(0, ...));
        # its values reach past this pass's (a plane of hundreds of values in [-2, 2] nearly always holds
        # 2.0, so from a table below that every entry would end at 2.0), so some entries keep theirs
        pooled = w.add_array(rng.choice(hints), "float32", "output" if kind == "mean" else "inout",
                             shape=(im.batch, im.channels, 1, 1), low=-4.0 if kind == "max" else -1.0,
                             high=4.0 if kind == "max" else 1.0, grid_bits=6)
        if kind == "mean":
            if rng.random() < 0.4:  # the host passes 1 / (H * W)
                area = w.add_scalar(rng.choice(["inv_area", "inv_hw", "norm"]), "float32", 1.0 / (im.height * im.width)).src
            else:
                area = w.fresh("inv_area")
                w.emit(f"{area} = 1.0 / float({inp}.shape[2] * {inp}.shape[3])")
            w.emit(f"wp.atomic_add({pooled}, {im.n}, {im.c}, 0, 0, {value} * {area})")
        else:
            w.emit(f"wp.atomic_max({pooled}, {im.n}, {im.c}, 0, 0, {value})")
        w.note_bound(pooled, 4.0)
    w.feature("global " + " and ".join("average" if k == "mean" else "max" for k in kinds)
              + " pooling into N x C x 1 x 1 (atomics with four indices)")
    return w


def upsample_skip(rng: random.Random, name: str, seed: int) -> KernelWriter:
    """A nearest-neighbour 2x upsampling of a coarse map, added to a skip connection (a U-Net decoder's
    step), with a scale on the coarse map now and then; then an activation now and then."""
    im = Images(rng, name, seed, ("c", "ch"))
    w = im.w
    coarse = im.image(("coarse", "low_res", "up_in"), scale=0.5)
    value = f"{coarse}[{im.n}, {im.c}, {im.y} // 2, {im.x} // 2]"
    if rng.random() < 0.4:
        gain = w.add_scalar(rng.choice(["gain", "up_scale", "alpha"]), "float32", rng.choice([0.5, 0.75, 1.5, 2.0]))
        value = f"{gain.src} * {value}"
        w.feature("upsampled map scaled by a parameter")
    skip = im.image(("skip", "enc", "bridge")) if rng.random() < 0.75 else None
    out = im.image(("out", "merged", "y"), "output")  # the inputs first, as people order them
    v = w.fresh("v")
    if skip:
        w.emit(f"{v} = {value} + {w.load(skip).src}")
        w.feature("skip connection added")
    else:
        w.emit(f"{v} = {value}")
    w.feature("nearest-neighbour 2x upsampling")
    epilogue(im, v, residual=False)
    w.emit(f"{out}[{im.pixel()}] = {v}")
    w.note_bound(out, 8.0)
    return w


CHANNEL_FORMS: dict[str, Callable[[random.Random, str, int], KernelWriter]] = {
    "per-channel affine": channel_affine,
    "pooling": pooling,
    "depthwise convolution": depthwise_conv,
    "pointwise convolution": pointwise_conv,
    "reduction over the channels": channel_reduction,
    "global average pooling": global_pool,
    "upsampling with a skip connection": upsample_skip,
}


def chooses_channels(seed: int) -> bool:
    """Whether stencil kernel `seed` works on NCHW images: a stream of its own, so the others keep every
    draw."""
    return random.Random(seed ^ 0xC4A).random() < CHANNELS_SHARE


# the forms' weights: the layers with more ways to be written (the convolutions, the affine maps) more often
FORM_DRAWS = ("per-channel affine", "per-channel affine", "pooling", "pooling", "depthwise convolution",
              "depthwise convolution", "pointwise convolution", "pointwise convolution", "reduction over the channels",
              "global average pooling", "upsampling with a skip connection")


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    if chooses_dense_conv(seed):  # its own stream: the other forms keep their draws
        writer, layout = dense_conv(rng, name, seed)
        return writer.finish(f"Multi-channel image kernel ({layout})")
    form = rng.choice(FORM_DRAWS)
    return CHANNEL_FORMS[form](rng, name, seed).finish("Multi-channel image kernel (NCHW)")
