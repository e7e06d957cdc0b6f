"""One-row tiles as softmax and classifier kernels use them (cuda_production/tiles.py): `tile_max`,
`tile_sum`, reads of a one-element tile (`m[0]`), `tile_extract(t, 0, j)`. Translated and proven
equal to Warp on the CPU (one translate run, `--reference --check`), Warp's results checked against
numpy, and the shape of the .cu: a one-element tile is thread 0's statement, consecutive thread-0
statements are one block, the block index is the offset itself, `t[0, j]` is `t[j]`, and a block's
reduction halves by sequential addressing (`if (threadIdx.x < stride)`), not by `threadIdx.x % (2 * stride)`."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from cuda_production.reference import make_input
from synthesis.spec import ArgSpec
from tests.cuda_production.harness import check_line, kernel_body, translate_checked

KERNELS_SOURCE = '''import warp as wp

COLS = 128


# translate: dim=5
# translate: target role=index high=127
@wp.kernel
def cross_entropy(logits: wp.array2d(dtype=float), target: wp.array(dtype=int), probs: wp.array2d(dtype=float),
                  loss: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(logits, shape=(1, COLS), offset=(i, 0))
    m = wp.tile_max(t)
    e = wp.tile_map(wp.exp, t - wp.tile_broadcast(m, shape=(1, COLS)))
    s = wp.tile_sum(e)
    wp.tile_store(probs, e / wp.tile_broadcast(s, shape=(1, COLS)), offset=(i, 0))
    lse = m[0] + wp.log(s[0])
    loss[i] = lse - wp.tile_extract(t, 0, target[i])


# translate: dim=4
@wp.kernel
def block_sums(x: wp.array(dtype=float), partials: wp.array(dtype=float)):
    i = wp.tid()
    s = wp.tile_sum(wp.tile_load(x, shape=COLS, offset=i * COLS))
    wp.tile_store(partials, s, offset=i)


# translate: dim=3
# translate: block_dim=48
@wp.kernel
def odd_block(x: wp.array(dtype=float), sums: wp.array(dtype=float), smallest: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=200, offset=i * 200)
    wp.tile_store(sums, wp.tile_sum(t), offset=i)
    wp.tile_store(smallest, wp.tile_min(t), offset=i)
'''
# cross_entropy: a max-subtracted softmax of one row per block and its cross-entropy against a target
# column; block_sums: a block's sum stored as a one-element tile; odd_block: a sum and a minimum over a
# block of 48 threads (no power of two, no whole warps)
KERNELS = ("cross_entropy", "block_sums", "odd_block")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "tiles_softmax", KERNELS_SOURCE)


def _kernel_body(run, kernel: str) -> str:
    return kernel_body(run[3], kernel)


@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_equals_warp_on_the_cpu(run, kernel):
    line = check_line(run, kernel)
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def test_softmax_reference_is_numpys_softmax_and_cross_entropy(run):
    folder = run[3] / "cross_entropy"
    meta = json.loads((folder / "metadata.json").read_text())
    args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
    logits, target = (make_input(a, k, meta["input_seed"]).reshape(a.shape) for k, a in enumerate(args[:2]))
    raw = np.frombuffer((folder / "expected.bin").read_bytes(), dtype=np.float32)
    probs, loss = raw[: logits.size].reshape(logits.shape), raw[logits.size:]
    x = logits.astype(np.float64)
    want = np.exp(x - x.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(probs, want, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(loss, -np.log(want[np.arange(len(x)), target]), rtol=1e-5)


def test_one_element_tiles_are_thread_zeros_statements_not_loops(run):
    for kernel in KERNELS:
        body = _kernel_body(run, kernel)
        assert not re.search(r"e\d+ < 1;", body), kernel
        assert "if (threadIdx.x == 0)" in body, kernel


def test_consecutive_thread_zero_statements_are_one_block(run):
    """The block's sum goes to its slot and to the output in one `if (threadIdx.x == 0)` block."""
    body = _kernel_body(run, "block_sums")
    assert body.count("if (threadIdx.x == 0)") == 1
    block = body[body.index("if (threadIdx.x == 0) {"):]
    assert "s[0] = warp_partial" in block and "partials[i] = s[0];" in block


def test_the_block_index_is_the_offset_and_a_one_row_tile_is_read_by_column(run):
    body = _kernel_body(run, "cross_entropy")
    assert "const int offset" not in body and "logits[i * logits_dim1 + e" in body
    assert "t[target[i]]" in body


def test_a_block_of_whole_warps_reduces_by_shuffles_then_its_warps_partials(run):
    """64 threads: each warp's partials by __shfl_down_sync (no shared-memory tree, one barrier), then
    thread 0 combines the two warps' partials, as Warp's GPU code does."""
    body = _kernel_body(run, "block_sums")
    assert re.search(r"for \(int offset\d+ = 16; offset\d+ > 0; offset\d+ /= 2\)", body)
    assert "__shfl_down_sync(0xffffffffu, sum" in body and not re.search(r"\bstride\d", body)
    assert body.count("__syncthreads()") == 1
    assert re.search(r"s\[0\] = warp_partial\d+\[0\] \+ warp_partial\d+\[1\];", body)


def test_a_block_of_no_whole_warps_halves_by_sequential_addressing(run):
    """48 threads: the lower half of the live partials takes in the upper half; the last 16 first."""
    body = _kernel_body(run, "odd_block")
    assert "% (2 *" not in body and "__shfl" not in body
    assert re.search(r"for \(int stride\d+ = 16; stride\d+ > 0; stride\d+ /= 2\)", body)
    assert "if (threadIdx.x < 16)" in body and "[threadIdx.x + 32]" in body
