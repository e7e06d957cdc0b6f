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

from synthesis.categories import channels, generate
from synthesis.spec import KernelSpec
from tests.cuda_production.harness import warp_runs
from tests.synthesis.shares import assert_others_keep_their_draws


def _channel_seeds(count: int) -> list[int]:
    return [s for s in range(3000) if channels.chooses_channels(s)][:count]


@functools.lru_cache(maxsize=None)
def _runs() -> tuple[tuple[KernelSpec, dict, dict], ...]:
    return warp_runs([generate("stencil", s) for s in _channel_seeds(90)], "test_channels")


def _arg(spec: KernelSpec, hints: tuple[str, ...]) -> str | None:
    """The argument named by one of the generator's hints (names are unique per kernel)."""
    return next((a.name for a in spec.args if a.name in hints), None)


def _activated(spec: KernelSpec, v: np.ndarray) -> np.ndarray:
    if "leaky relu" in spec.description:
        return np.where(v > 0, v, 0.01 * v)
    if "relu" in spec.description:
        return np.maximum(v, 0)
    return v


def _expected(spec: KernelSpec, given: dict) -> dict:
    """The written array's values, from the layer's definition."""
    g = {k: v.astype(np.float64) for k, v in given.items()}
    d = spec.description
    [out] = [a.name for a in spec.args if a.is_written]
    images = [a.name for a in spec.args if a.role == "input" and len(a.shape) == 4]
    x = g[images[0]]
    if "batch normalisation" in d:
        if "at inference" in d:
            eps = float(re.search(r"\+ (1\.0e-\d)\)", spec.source).group(1))
            mean, var, gamma, beta = (g[a.name][None, :, None, None] for a in spec.args if a.shape == (x.shape[1],))
            v = gamma * (x - mean) / np.sqrt(var + eps) + beta
        else:
            scale, shift = (g[a.name][None, :, None, None] for a in spec.args if a.shape == (x.shape[1],))
            v = x * scale + shift
        if "residual input" in d:
            v = v + g[images[1]]
        return {out: _activated(spec, v)}
    if "pooling" in d:
        n, c, h, w = x.shape
        windows = x.reshape(n, c, h // 2, 2, w // 2, 2)
        return {out: windows.max(axis=(3, 5)) if "max pooling" in d else windows.mean(axis=(3, 5))}
    if "depthwise" in d:
        weights = g[_arg(spec, ("weights", "filters", "kernel_w"))]
        bias = _arg(spec, ("bias", "b_conv"))
        padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode="constant" if "zero-padded" in d else "edge")
        h, w = x.shape[2:]
        v = sum(weights[None, :, ky, kx, None, None] * padded[:, :, ky:ky + h, kx:kx + w]
                for ky in range(3) for kx in range(3))
        return {out: _activated(spec, v + (g[bias][None, :, None, None] if bias else 0))}
    if "pointwise" in d:
        weights = g[_arg(spec, ("weights", "w_proj", "kernel_w"))]
        bias = _arg(spec, ("bias", "b_proj"))
        v = np.einsum("kc,nchw->nkhw", weights, x) + (g[bias][None, :, None, None] if bias else 0)
        return {out: _activated(spec, v)}
    if "softmax" in d:
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return {out: e / e.sum(axis=1, keepdims=True)}
    if "mean and largest" in d:
        return {out: np.stack([x.mean(axis=1), x.max(axis=1)], axis=1)}
    assert "upsampling" in d, d
    coarse = g[_arg(spec, ("coarse", "low_res", "up_in"))].repeat(2, axis=2).repeat(2, axis=3)
    gain = next((float(a.value) for a in spec.args if a.role == "scalar"), 1.0)
    skip = _arg(spec, ("skip", "enc", "bridge"))
    return {out: gain * coarse + (g[skip] if skip else 0)}


@pytest.mark.parametrize("part", range(2))
def test_every_written_array_is_what_the_layer_gives(part):
    descriptions = set()
    for spec, given, written in _runs()[part::2]:
        expected = _expected(spec, given)
        assert set(expected) == set(written), spec.source
        for name, values in expected.items():
            np.testing.assert_allclose(written[name], values, rtol=1e-5, atol=1e-5, err_msg=f"{name}\n{spec.source}")
        descriptions.add(spec.description)
    for variant in ("at inference", "folded", "residual input", "max pooling", "average pooling",
                    "zero-padded borders", "clamped borders", "pointwise", "softmax", "mean and largest",
                    "skip connection", "scaled by a parameter", "leaky relu"):
        assert any(variant in d for d in descriptions), variant


def test_images_are_4d_and_the_batch_leads():
    """Each kernel reads or writes a 4-D array whose first extent is the launch's (the batch, which grows at
    bench size), and launches over 4 dimensions, or 3 when it loops over the channels."""
    for spec, _, _ in _runs():
        images = [a for a in spec.args if len(a.shape) == 4]
        assert images and all(a.shape[0] == spec.dim[0] for a in images), spec.source
        assert len(spec.dim) == (3 if "over the channels" in spec.description or "mean and largest" in spec.description else 4)


def test_other_stencil_kernels_keep_their_draws(monkeypatch):
    """Whether a stencil kernel works on images comes from a stream of its own: the other seeds draw
    exactly what they draw with image kernels switched off."""
    assert_others_keep_their_draws(monkeypatch, "stencil", channels, "chooses_channels")
