"""Tile prefix sums (cuda_production/tiles.py `scan`): in a block of whole warps, as Warp's GPU code
computes them (register shuffles within a warp, the warps' totals, a running total carried between
block-wide chunks of a longer tile); otherwise a shared-memory Hillis-Steele scan. Each kernel
translated and proven equal to Warp on the CPU (host emulation), Warp's results against numpy, and
the form each launch gets."""
from __future__ import annotations

import numpy as np
import pytest

from tests.cuda_production.harness import arrays_of, check_line, kernel_body, translate_checked

KERNELS_SOURCE = '''import warp as wp

LONG = 200
SHORT = 40


# translate: dim=3
# translate: flags shape=600 low=0 high=1
# translate: x shape=600
@wp.kernel
def chunked(flags: wp.array(dtype=int), x: wp.array(dtype=float), ranks: wp.array(dtype=int),
            before: wp.array(dtype=float), counts: wp.array(dtype=int)):
    i = wp.tid()
    f = wp.tile_load(flags, shape=LONG, offset=i * LONG)
    wp.tile_store(ranks, wp.tile_scan_inclusive(f), offset=i * LONG)
    wp.tile_store(before, wp.tile_scan_exclusive(wp.tile_load(x, shape=LONG, offset=i * LONG)), offset=i * LONG)
    wp.tile_store(counts, wp.tile_scan_exclusive(f), offset=i * LONG)


# translate: dim=2
# translate: x shape=80
@wp.kernel
def short_tile(x: wp.array(dtype=float), sums: wp.array(dtype=float)):
    i = wp.tid()
    wp.tile_store(sums, wp.tile_scan_inclusive(wp.tile_load(x, shape=SHORT, offset=i * SHORT)), offset=i * SHORT)


# translate: dim=2
# translate: x shape=80
@wp.kernel
def odd_block(x: wp.array(dtype=float), sums: wp.array(dtype=float)):
    i = wp.tid()
    wp.tile_store(sums, wp.tile_scan_inclusive(wp.tile_load(x, shape=SHORT, offset=i * SHORT)), offset=i * SHORT)


def launch(a, b, c, d, e):
    wp.launch_tiled(chunked, dim=[3], inputs=[a, b, c, d, e], block_dim=64)
    wp.launch_tiled(short_tile, dim=[2], inputs=[b, d], block_dim=64)
    wp.launch_tiled(odd_block, dim=[2], inputs=[b, d], block_dim=48)
'''
# chunked: tiles of 200 under blocks of 64 (4 chunks, the last one ragged): int inclusive, float
# exclusive, int exclusive; short_tile: a 40-element tile under 64 threads (one chunk, the last 24
# threads past it); odd_block: 48 threads, not whole warps (Hillis-Steele)
KERNELS = ("chunked", "short_tile", "odd_block")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "tiles_scan", KERNELS_SOURCE)


@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_equals_warp_on_the_cpu(run, kernel):
    line = check_line(run, kernel)
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def test_prefix_sums_over_chunks_are_numpys(run):
    inputs, written = arrays_of(run[3] / "chunked")
    flags, x = inputs["flags"].reshape(3, 200), inputs["x"].reshape(3, 200).astype(np.float64)
    assert 0 < flags.mean() < 1
    assert np.array_equal(written["ranks"].reshape(3, 200), np.cumsum(flags, axis=1))
    assert np.array_equal(written["counts"].reshape(3, 200), np.cumsum(flags, axis=1) - flags)
    want = np.concatenate([np.zeros((3, 1)), np.cumsum(x, axis=1)[:, :-1]], axis=1)
    np.testing.assert_allclose(written["before"].reshape(3, 200), want, rtol=1e-5, atol=1e-5)


def test_a_tile_shorter_than_the_block_is_scanned_by_its_own_threads(run):
    inputs, written = arrays_of(run[3] / "short_tile")
    x = inputs["x"].reshape(2, 40).astype(np.float64)
    np.testing.assert_allclose(written["sums"].reshape(2, 40), np.cumsum(x, axis=1), rtol=1e-5, atol=1e-5)


def test_whole_warps_scan_by_shuffles_and_carry_a_running_total_between_chunks(run):
    chunked, short = kernel_body(run[3], "chunked"), kernel_body(run[3], "short_tile")
    assert chunked.count("__shfl_up_sync") == 3 * 2 + 2  # 3 scans: a warp's steps, the totals'; 2 exclusive shifts
    assert "scan_carry" in chunked and "scan_step" not in chunked
    assert "__shfl_up_sync" in short and "scan_carry" not in short


def test_a_block_of_part_of_a_warp_scans_in_shared_memory(run):
    body = kernel_body(run[3], "odd_block")
    assert "__shfl_up_sync" not in body and "scan_step" in body
