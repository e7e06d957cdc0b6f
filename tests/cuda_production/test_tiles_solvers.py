"""Tile linear algebra as batched least-squares solvers write it (cuda_production/tiles.py): normal
equations damped by `tile_diag_add`, `tile_cholesky`, `tile_cholesky_solve`, `tile_lower_solve` and
`tile_upper_solve` (of a transposed factor too), log det from the factor's diagonal read by
`tile_extract` in a loop. Each kernel translated and proven equal to Warp on the CPU (one translate
run, `--reference --check`), Warp's results checked against numpy, and the shape of the .cu: what a
person writes (no copy of a transposed factor, no barrier in a loop that only reads tiles, one
offset local for loads at one offset, no `* 1.0f`, no `/ 1` for a one-column product)."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from cuda_production.reference import make_input
from synthesis.spec import ArgSpec
from tests.cuda_production.harness import check_line, kernel_body, translate_checked

KERNELS_SOURCE = '''import warp as wp

ROWS = 16
N = 8
RHS = 3
LAMBDA = wp.constant(0.75)


# translate: dim=3
# translate: damping low=0.5 high=1
@wp.kernel
def triangles(a_in: wp.array2d(dtype=float), b_in: wp.array2d(dtype=float), damping: wp.array(dtype=float),
              x_out: wp.array2d(dtype=float), z_out: wp.array2d(dtype=float), logdet: wp.array(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(a_in, shape=(ROWS, N), offset=(i * ROWS, 0))
    b = wp.tile_load(b_in, shape=(ROWS, RHS), offset=(i * ROWS, 0))
    at = wp.tile_transpose(a)
    h = wp.tile_diag_add(wp.tile_matmul(at, a), wp.tile_load(damping, shape=N))
    g = wp.tile_matmul(at, b)
    L = wp.tile_cholesky(h)
    z = wp.tile_lower_solve(L, g)
    x = wp.tile_upper_solve(wp.tile_transpose(L), z)
    wp.tile_store(x_out, x, offset=(i * N, 0))
    wp.tile_store(z_out, z, offset=(i * N, 0))
    s = float(0.0)
    for d in range(N):
        s += wp.log(wp.tile_extract(L, d, d))
    logdet[i] = 2.0 * s


# translate: dim=2
@wp.kernel
def upper_vector(a_in: wp.array2d(dtype=wp.float64), b_in: wp.array2d(dtype=wp.float64), x_out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = wp.tile_load(a_in, shape=(ROWS, N), offset=(i * ROWS, 0))
    b = wp.tile_load(b_in, shape=(ROWS, 1), offset=(i * ROWS, 0))
    at = wp.tile_transpose(a)
    h = wp.tile_diag_add(wp.tile_matmul(at, a), wp.tile_ones(shape=N, dtype=wp.float64))
    U = wp.tile_cholesky(h, fill_mode="upper")
    z = wp.tile_lower_solve(wp.tile_transpose(U), wp.tile_matmul(at, b))
    x = wp.tile_upper_solve(U, z)
    wp.tile_store(x_out, x, offset=(i * N, 0))


# translate: dim=2
# translate: w low=0 high=1
@wp.kernel
def ridge(a_in: wp.array2d(dtype=float), b_in: wp.array2d(dtype=float), w: wp.array2d(dtype=float),
          x_out: wp.array2d(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(a_in, shape=(ROWS, N), offset=(i * ROWS, 0))
    b = wp.tile_load(b_in, shape=(ROWS, 1), offset=(i * ROWS, 0))
    wt = wp.tile_load(w, shape=(ROWS, 1), offset=(i * ROWS, 0))
    aw = a * wp.tile_broadcast(wt, shape=(ROWS, N))
    at = wp.tile_transpose(aw)
    h = wp.tile_diag_add(wp.tile_matmul(at, a), wp.tile_ones(shape=N, dtype=float) * LAMBDA)
    x = wp.tile_cholesky_solve(wp.tile_cholesky(h), wp.tile_matmul(at, b))
    wp.tile_store(x_out, x, offset=(i * N, 0))


# translate: dim=3
# translate: lam low=0.5 high=1
@wp.kernel
def in_place(a_in: wp.array2d(dtype=float), b_in: wp.array2d(dtype=float), lam: wp.array(dtype=float),
             x_out: wp.array2d(dtype=float), f_out: wp.array2d(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(a_in, shape=(ROWS, N), offset=(i * ROWS, 0))
    b = wp.tile_load(b_in, shape=(ROWS, 2), offset=(i * ROWS, 0))
    at = wp.tile_transpose(a)
    h = wp.tile_diag_add(wp.tile_matmul(at, a), wp.tile_load(lam, shape=N))
    g = wp.tile_matmul(at, b)
    wp.tile_cholesky_inplace(h)
    wp.tile_cholesky_solve_inplace(h, g)
    wp.tile_store(x_out, g, offset=(i * N, 0))
    wp.tile_store(f_out, h, offset=(i * N, 0))


# translate: dim=2
@wp.kernel
def upper_in_place(a_in: wp.array2d(dtype=wp.float64), b_in: wp.array(dtype=wp.float64), x_out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    a = wp.tile_load(a_in, shape=(ROWS, N), offset=(i * ROWS, 0))
    h = wp.tile_diag_add(wp.tile_matmul(wp.tile_transpose(a), a), wp.tile_ones(shape=N, dtype=wp.float64))
    wp.tile_cholesky_inplace(h, fill_mode="upper")
    y = wp.tile_load(b_in, shape=N, offset=i * N)
    wp.tile_lower_solve_inplace(wp.tile_transpose(h), y)
    wp.tile_upper_solve_inplace(h, y)
    wp.tile_store(x_out, y, offset=i * N)


# translate: dim=2
@wp.kernel
def panels(a_in: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    h = wp.tile_zeros(shape=(N, N), dtype=float)
    for p in range(3):
        a = wp.tile_load(a_in, shape=(ROWS, N), offset=((i * 3 + p) * ROWS, 0))
        wp.tile_matmul(wp.tile_transpose(a), a, h)
    wp.tile_store(out, h, offset=(i * N, 0))


# translate: dim=2
@wp.kernel
def k_loop(a_in: wp.array2d(dtype=float), w: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    acc = wp.tile_zeros(shape=(ROWS, N), dtype=float)
    for k in range(2):
        a = wp.tile_load(a_in, shape=(ROWS, N), offset=(i * ROWS, k * N))
        b = wp.tile_load(w, shape=(N, N), offset=(k * N, 0))
        wp.tile_matmul(a, b, acc)
    wp.tile_store(out, acc, offset=(i * ROWS, 0))
'''
# triangles: a float32 damped least-squares solve by two triangular solves, the second of the factor's
# transpose, and log det by tile_extract in a loop; upper_vector: float64, fill_mode="upper", a
# one-column right-hand side, the lower solve of the upper factor's transpose; ridge: weighted normal
# equations (a broadcast column read through a transpose), a constant damping `tile_ones(...) * c`;
# in_place: tile_cholesky_inplace and tile_cholesky_solve_inplace (the factor over h, the solution over g);
# upper_in_place: float64, the upper factor in place, lower then upper triangular solves in place of a
# vector; panels: a Gram matrix accumulated over row panels loaded in a loop; k_loop: a GEMM's K loop
KERNELS = ("triangles", "upper_vector", "ridge", "in_place", "upper_in_place", "panels", "k_loop")
BLOCKS = {"triangles": 3, "upper_vector": 2, "ridge": 2, "in_place": 3, "upper_in_place": 2}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "tiles_solvers", KERNELS_SOURCE)


def _kernel_body(run, kernel: str) -> str:
    return kernel_body(run[3], kernel)


def _results(run, kernel: str) -> tuple[dict, dict]:
    """(inputs by name, Warp's written arrays by name) of a translated kernel's folder."""
    folder = run[3] / kernel
    meta = json.loads((folder / "metadata.json").read_text())
    args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
    inputs = {a.name: make_input(a, k, meta["input_seed"]).reshape(a.shape) for k, a in enumerate(args)}
    raw, got, offset = (folder / "expected.bin").read_bytes(), {}, 0
    for name in meta["written_arrays"]:
        a = next(x for x in args if x.name == name)
        dtype = np.float64 if a.dtype == "float64" else np.float32
        n = int(np.prod(a.shape)) * np.dtype(dtype).itemsize
        got[name], offset = np.frombuffer(raw[offset: offset + n], dtype=dtype).reshape(a.shape), offset + n
    return inputs, got


def _damped_system(inputs: dict, block: int, damping: str):
    """Block `block`'s rows of a_in and b_in (16 each) and its matrix A^T A + diag(damping), in float64."""
    a = inputs["a_in"][block * 16:(block + 1) * 16].astype(np.float64)
    b = inputs["b_in"][block * 16:(block + 1) * 16].astype(np.float64)
    return a, b, a.T @ a + np.diag(inputs[damping][:8])


@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_equals_warp_on_the_cpu(run, kernel):
    line = check_line(run, kernel)
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def test_triangular_solves_reference_is_numpys_least_squares_solution(run):
    """Warp's results (what the .cu was checked against): x solves (A^T A + diag(d)) x = A^T b, z = L^-1 A^T b."""
    inputs, got = _results(run, "triangles")
    for i in range(BLOCKS["triangles"]):
        a, b, h = _damped_system(inputs, i, "damping")
        factor = np.linalg.cholesky(h)
        rows = slice(i * 8, (i + 1) * 8)
        assert np.allclose(got["x_out"][rows], np.linalg.solve(h, a.T @ b), rtol=1e-4, atol=1e-5)
        assert np.allclose(got["z_out"][rows], np.linalg.solve(factor, a.T @ b), rtol=1e-4, atol=1e-5)
        assert np.isclose(got["logdet"][i], np.linalg.slogdet(h)[1], rtol=1e-5)


def test_upper_factor_solves_reference_is_numpys_solution(run):
    inputs, got = _results(run, "upper_vector")
    for i in range(BLOCKS["upper_vector"]):
        a, b = inputs["a_in"][i * 16:(i + 1) * 16], inputs["b_in"][i * 16:(i + 1) * 16]
        h = a.T @ a + np.eye(8)
        assert np.allclose(got["x_out"][i * 8:(i + 1) * 8], np.linalg.solve(h, a.T @ b), rtol=1e-10, atol=1e-12)


def test_weighted_ridge_reference_is_numpys_solution(run):
    inputs, got = _results(run, "ridge")
    for i in range(BLOCKS["ridge"]):
        a = inputs["a_in"][i * 16:(i + 1) * 16].astype(np.float64)
        b = inputs["b_in"][i * 16:(i + 1) * 16].astype(np.float64)
        w = inputs["w"][i * 16:(i + 1) * 16].astype(np.float64)
        h = (a * w).T @ a + 0.75 * np.eye(8)
        assert np.allclose(got["x_out"][i * 8:(i + 1) * 8], np.linalg.solve(h, (a * w).T @ b), rtol=1e-4, atol=1e-5)


def test_a_transposed_factor_is_read_in_place_not_copied(run):
    """`tile_upper_solve(wp.tile_transpose(L), z)` reads L's buffer transposed: no loop copies L into a
    transposed tile, and the only 8x8 tiles are the normal matrix (the product and its damped copy, or
    one) and the factor."""
    for kernel, factor, square_tiles in (("triangles", "L", 3), ("upper_vector", "U", 3)):
        body = _kernel_body(run, kernel)
        assert not re.search(rf"\w+\[\w+\] = {factor}\[\(\w+ % \d+\) \* \d+ \+ \w+ / \d+\];", body), kernel
        assert body.count("shape 8x8") == square_tiles, kernel


def test_a_loop_reading_tiles_only_has_no_barrier(run):
    body = _kernel_body(run, "triangles")
    loop = body[body.index("for (int d = 0;"):]
    assert "__syncthreads" not in loop and "logf(L[d * 8 + d])" in loop


def test_loads_at_one_offset_share_its_local(run):
    body = _kernel_body(run, "ridge")
    assert len(re.findall(r"const int offset\d+ = i \* ROWS;", body)) == 1


def test_a_constant_damping_is_added_without_a_tile_or_a_unit_factor(run):
    body = _kernel_body(run, "ridge")
    assert "+ LAMBDA" in body and "1.0f *" not in body and "* 1.0f" not in body
    assert not re.search(r"shape 8$", body, re.MULTILINE)  # no 1-D tile of eight LAMBDAs


def test_a_one_column_product_indexes_by_row_alone(run):
    """at (8x16) @ b (16x1): element e is row e; no `e / 1`, `e % 1` or `k * 1 + col`."""
    for kernel in ("upper_vector", "ridge"):
        body = _kernel_body(run, kernel)
        assert not re.search(r"/ 1\b|% 1\b|\* 1 \+", body), kernel


def test_a_broadcast_column_read_through_a_transpose_is_read_by_its_row(run):
    """(a * broadcast(w))^T: element e reads w at its source row `e % 16`, not `((e % 16) * 8 + e / 16) / 8`."""
    body = _kernel_body(run, "ridge")
    assert re.search(r"wt\[e\d+ % 16\]", body) and not re.search(r"wt\[\(", body)


def test_a_loop_reloading_a_tile_waits_at_the_top_of_its_body(run):
    """Each iteration's load overwrites what the previous iteration's product read: the body starts
    with the barrier (where a person puts it), then one between the load and the product."""
    body = _kernel_body(run, "panels")
    start = body.index("    for (int p = 0;")
    loop = body[start:body.index("\n    }\n", start)]  # up to the loop's closing brace
    lines = [line.strip() for line in loop.splitlines()[1:] if line.strip()]
    assert lines[0] == "__syncthreads();" and loop.count("__syncthreads();") == 2


def test_in_place_factor_and_solution_are_numpys(run):
    """Warp's results: h holds L (its upper triangle zeroed), g the solution of h x = A^T b."""
    inputs, got = _results(run, "in_place")
    for i in range(BLOCKS["in_place"]):
        a, b, h = _damped_system(inputs, i, "lam")
        rows = slice(i * 8, (i + 1) * 8)
        np.testing.assert_allclose(got["f_out"][rows], np.linalg.cholesky(h), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got["x_out"][rows], np.linalg.solve(h, a.T @ b), rtol=1e-4, atol=1e-5)
    inputs, got = _results(run, "upper_in_place")
    for i in range(BLOCKS["upper_in_place"]):
        a, y = inputs["a_in"][i * 16:(i + 1) * 16], inputs["b_in"][i * 8:(i + 1) * 8]
        np.testing.assert_allclose(got["x_out"][i * 8:(i + 1) * 8], np.linalg.solve(a.T @ a + np.eye(8), y), rtol=1e-10)


def test_in_place_operations_write_their_own_tiles(run):
    """No solution or factor buffer besides the kernel's tiles: the factor overwrites h, the
    solution g (or y), with a barrier after each column's diagonal read (thread 0 overwrites it)."""
    body = _kernel_body(run, "in_place")
    shared = re.findall(r"__shared__ \w+ (\w+)\[", body)
    assert not [name for name in shared if name.startswith(("factor", "solution"))], shared
    assert "every thread has read the diagonal" in body
    body = _kernel_body(run, "upper_in_place")
    assert not [name for name in re.findall(r"__shared__ \w+ (\w+)\[", body) if name.startswith(("factor", "solution"))]


def test_an_offset_the_loop_does_not_change_is_evaluated_once_before_it(run):
    """`i * ROWS` (row panel of the block) is declared before the K loop and serves the store after
    it; `k * N` (it reads the loop variable) stays inside."""
    body = _kernel_body(run, "k_loop")
    rows = re.findall(r"const int (offset\d+) = i \* ROWS;", body)
    assert len(rows) == 1 and body.index(f"const int {rows[0]} = i * ROWS;") < body.index("for (int k = 0;")
    inside = body[body.index("for (int k = 0;"):]
    assert re.search(r"const int offset\d+ = k \* N;", inside)
    after = inside[inside.index("\n    }\n"):]
    assert f"{rows[0]} + " in after  # the store's rows
