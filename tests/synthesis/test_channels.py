"""The NCHW image kernels (synthesis/categories/channels.py): each kernel's written arrays, run by Warp on
the CPU, are what numpy's whole-array formulation of the layer gives (a batch normalisation, a pooling
by reshaping, a convolution over a padded copy, an einsum, a softmax along axis 1, a repeat), not the
kernel's per-thread loops; the launches and arrays are 4-D; and the stencil kernels that work on no
images keep their draws."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from synthesis.categories import channels
from synthesis.spec import KernelSpec
from tests.cuda_production.harness import warp_runs
from tests.synthesis.shares import assert_others_keep_their_draws, specs_with_every_variant


def _gelu(v: np.ndarray) -> np.ndarray:
    return 0.5 * v * (1 + np.tanh(np.sqrt(2 / np.pi) * (v + 0.044715 * v ** 3)))


# each activation by its usual definition (not the kernel's spelling)
ACTIVATIONS = {
    "leaky relu": lambda v: np.where(v > 0, v, 0.01 * v),
    "relu6": lambda v: np.minimum(np.maximum(v, 0), 6),
    "relu": lambda v: np.maximum(v, 0),
    "silu": lambda v: v / (1 + np.exp(-v)),
    "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
    "tanh": np.tanh,
    "gelu (tanh approximation)": _gelu,
    "hard swish": lambda v: v * np.clip(v + 3, 0, 6) / 6,
    "elu": lambda v: np.where(v > 0, v, np.expm1(v)),
}


VARIANTS = ("at inference", "folded", "layer scale", "residual input", "2 x 2 max pooling", "2 x 2 average pooling",
            "stride 2", "global average", "global max", "of the input's ReLU", "depthwise 5 x 5", "dilation 2",
            "zero-padded borders", "clamped borders", "pointwise", "softmax", "log-softmax", "temperature",
            "unit length", "learned scale", "class", "its score", "mean and largest", "skip connection",
            "scaled by a parameter", "dense 3 x 3", "dense 5 x 5", "dense 1 x 1", "stride 2, zero-padded",
            "looped inside the taps", "looped outside the taps", "borders (skipped)", "borders (tested)", "NHWC images",
            *(f"activation: {a}" for a in ACTIVATIONS))
DENSE_WEIGHTS = ("weights", "filters", "conv_w")  # a dense convolution's C_out x C_in x K x K filters


@functools.lru_cache(maxsize=None)
def _runs() -> tuple[tuple[KernelSpec, dict, dict], ...]:
    return warp_runs(specs_with_every_variant("stencil", channels.chooses_channels, VARIANTS, 150), "test_channels")


def _arg(spec: KernelSpec, hints: tuple[str, ...]) -> str | None:
    """The argument named by one of the generator's hints (names are unique per kernel)."""
    return next((a.name for a in spec.args if a.name in hints), None)


def _epilogue(spec: KernelSpec, g: dict, images: list[str], v: np.ndarray) -> np.ndarray:
    """A residual input added (the second 4-D input), then the activation the description names."""
    if "residual input added" in spec.description:
        v = v + g[images[-1]]
    for name, f in ACTIVATIONS.items():
        if f"activation: {name};" in spec.description + ";" or f"activation: {name})" in spec.description:
            return f(v)
    return v


def _per_channel(g: dict, spec: KernelSpec, channels: int) -> list[np.ndarray]:
    return [g[a.name][None, :, None, None] for a in spec.args if a.shape == (channels,)]


def _expected(spec: KernelSpec, given: dict) -> dict:
    """The written arrays' values, from the layer's definition."""
    g = {k: v.astype(np.float64) for k, v in given.items()}
    d = spec.description
    written = [a.name for a in spec.args if a.is_written]
    images = [a.name for a in spec.args if a.role == "input" and len(a.shape) == 4]
    x = g[images[0]]
    if "batch normalisation" in d or "layer scale" in d:
        if "at inference" in d:
            constant = re.search(r"^EPS\w* = wp.constant\(([^)]*)\)", spec.source, re.M)
            eps = float(constant.group(1) if constant else re.search(r"\+ (1\.0e-\d)\)", spec.source).group(1))
            mean, var, gamma, beta = _per_channel(g, spec, x.shape[1])
            v = gamma * (x - mean) / np.sqrt(var + eps) + beta
        elif "folded" in d:
            scale, shift = _per_channel(g, spec, x.shape[1])
            v = x * scale + shift
        else:
            [gamma] = _per_channel(g, spec, x.shape[1])
            v = gamma * x
        return {written[0]: _epilogue(spec, g, images, v)}
    if "pooling into" in d:  # global pooling: the mean or the largest over each image plane
        out = {}
        base = np.maximum(x, 0) if "of the input's ReLU" in d else x
        for name in written:
            arg = next(a for a in spec.args if a.name == name)
            if arg.role == "inout":
                out[name] = np.maximum(g[name], base.max(axis=(2, 3), keepdims=True))
            else:
                out[name] = base.mean(axis=(2, 3), keepdims=True)
        return out
    if "pooling" in d:
        n, c, h, w = x.shape
        if ", stride 2" in d:  # 3 x 3 windows at stride 2, the last row and column clamped to the image
            padded = np.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)), mode="edge")
            windows = np.stack([padded[:, :, dy:dy + h:2, dx:dx + w:2] for dy in range(3) for dx in range(3)])
            v = windows.max(axis=0) if "max pooling" in d else windows.mean(axis=0)
        else:
            windows = x.reshape(n, c, h // 2, 2, w // 2, 2)
            v = windows.max(axis=(3, 5)) if "max pooling" in d else windows.mean(axis=(3, 5))
        return {written[0]: _epilogue(spec, g, images, v)}
    if "dense " in d:  # every input channel: a sum over the taps of einsums over a zero-padded copy
        weights = g[_arg(spec, DENSE_WEIGHTS)]
        nhwc = "NHWC images" in d
        if nhwc:  # channels last, filters K x K x C_in x C_out: computed in NCHW, the result turned back
            x, weights = x.transpose(0, 3, 1, 2), weights.transpose(3, 2, 0, 1)
        k = weights.shape[2]
        stride = 2 if "stride 2" in d else 1
        padded = np.pad(x, ((0, 0), (0, 0), (k // 2, k // 2), (k // 2, k // 2)))
        h, w = x.shape[2] // stride, x.shape[3] // stride
        v = sum(np.einsum("kc,nchw->nkhw", weights[:, :, ky, kx],
                          padded[:, :, ky:ky + stride * h:stride, kx:kx + stride * w:stride])
                for ky in range(k) for kx in range(k))
        bias = _arg(spec, ("bias", "b_conv"))
        v = v + (g[bias][None, :, None, None] if bias else 0)
        return {written[0]: _epilogue(spec, g, images, v.transpose(0, 2, 3, 1) if nhwc else v)}
    if "depthwise" in d:
        weights = g[_arg(spec, ("weights", "filters", "kernel_w"))]
        taps = weights.shape[1]
        dilation = 2 if "dilation 2" in d else 1
        reach = dilation * (taps // 2)
        bias = _arg(spec, ("bias", "b_conv"))
        padded = np.pad(x, ((0, 0), (0, 0), (reach, reach), (reach, reach)),
                        mode="constant" if "zero-padded" in d else "edge")
        h, w = x.shape[2:]
        v = sum(weights[None, :, ky, kx, None, None]
                * padded[:, :, ky * dilation:ky * dilation + h, kx * dilation:kx * dilation + w]
                for ky in range(taps) for kx in range(taps))
        return {written[0]: _epilogue(spec, g, images, v + (g[bias][None, :, None, None] if bias else 0))}
    if "pointwise" in d:
        transposed = _arg(spec, ("weights_t", "w_in_out"))
        weights = g[transposed].T if transposed else g[_arg(spec, ("weights", "w_proj", "kernel_w"))]
        bias = _arg(spec, ("bias", "b_proj"))
        v = np.einsum("kc,nchw->nkhw", weights, x) + (g[bias][None, :, None, None] if bias else 0)
        return {written[0]: _epilogue(spec, g, images, v)}
    if "softmax" in d:
        t = next((float(a.value) for a in spec.args if a.role == "scalar"), 1.0)
        z = (x - x.max(axis=1, keepdims=True)) / t
        if "log-softmax" in d:
            return {written[0]: z - np.log(np.exp(z).sum(axis=1, keepdims=True))}
        return {written[0]: np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)}
    if "unit length" in d:
        v = x / np.sqrt((x * x).sum(axis=1, keepdims=True))
        gamma = _arg(spec, ("gamma", "weight", "g"))
        return {written[0]: v * (g[gamma][None, :, None, None] if gamma else 1)}
    if "class" in d:
        out = {written[0]: x.argmax(axis=1)}  # numpy's argmax: the first of equals
        if len(written) > 1:
            out[written[1]] = x.max(axis=1)
        return out
    if "mean and largest" in d:
        return {written[0]: np.stack([x.mean(axis=1), x.max(axis=1)], axis=1)}
    assert "upsampling" in d, d
    coarse = g[_arg(spec, ("coarse", "low_res", "up_in"))].repeat(2, axis=2).repeat(2, axis=3)
    gain = next((float(a.value) for a in spec.args if a.role == "scalar"), 1.0)
    skip = _arg(spec, ("skip", "enc", "bridge"))
    return {written[0]: _epilogue(spec, g, images, gain * coarse + (g[skip] if skip else 0))}


@pytest.mark.parametrize("part", range(2))
def test_every_written_array_is_what_the_layer_gives(part):
    for spec, given, written in _runs()[part::2]:
        expected = _expected(spec, given)
        assert set(expected) == set(written), spec.source
        for name, values in expected.items():
            np.testing.assert_allclose(written[name], values, rtol=1e-5, atol=1e-5, err_msg=f"{name}\n{spec.source}")


def test_the_checked_kernels_hold_every_variant():
    descriptions = [spec.description for spec, _, _ in _runs()]
    for variant in VARIANTS:
        assert any(variant in d for d in descriptions), variant


def test_images_are_4d_and_the_batch_leads():
    """Each kernel reads or writes a 4-D array whose first extent is the launch's (the batch, which grows at
    bench size), and launches over 4 dimensions, or 3 when it loops over the channels."""
    for spec, _, _ in _runs():
        images = [a for a in spec.args if len(a.shape) == 4 and not ("dense " in spec.description and a.name in DENSE_WEIGHTS)]
        assert images and all(a.shape[0] == spec.dim[0] for a in images), spec.source
        assert all(a.shape[0] == spec.dim[0] for a in spec.args if a.is_written), spec.source
        per_pixel = any(k in spec.description for k in ("over the channels", "mean and largest", "unit length", "class"))
        assert len(spec.dim) == (3 if per_pixel else 4)


def test_other_stencil_kernels_keep_their_draws(monkeypatch):
    """Whether a stencil kernel works on images comes from a stream of its own: the other seeds draw
    exactly what they draw with image kernels switched off."""
    assert_others_keep_their_draws(monkeypatch, "stencil", channels, "chooses_channels")


def test_other_image_kernels_keep_their_draws_beside_dense_convolutions(monkeypatch):
    assert_others_keep_their_draws(monkeypatch, "stencil", channels, "chooses_dense_conv")
