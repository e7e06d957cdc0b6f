"""Lazy tile values (cuda_production/tiles.py): element-wise tile operations computed where they are
consumed instead of stored, buffers and barriers only where threads share elements, and the aliasing
rules (a lazy value read after the tile it was made from is rewritten, in straight-line code, across
a loop and a branch, and by an in-place product), each proven equal to Warp on the CPU.

One translate run (`--reference --check`) covers every kernel below."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda_production.bench import small_tables
from cuda_production.translator import translate_kernel, translate_source
from synthesis.categories import generate
from tests.cuda_production.harness import translate_checked

FUSION_KERNELS = '''import warp as wp

N = 8
BLOCK = 32


@wp.func
def soft(x: float) -> float:
    return x / (1.0 + wp.abs(x))


@wp.kernel
def symmetric(jacobians: wp.array2d(dtype=float), dt: wp.array2d(dtype=float), result: wp.array2d(dtype=float),
              sum_mats: wp.array2d(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(jacobians, shape=(N, N), offset=(i * N, 0))
    at = wp.tile_transpose(a)
    r = (a + at) * 0.5
    f = wp.tile_load(dt, shape=(1, 1), offset=(i, 0))
    r = r * wp.tile_broadcast(f, shape=(N, N))
    wp.tile_store(result, r, offset=(i * N, 0))
    wp.tile_atomic_add(sum_mats, r)


@wp.kernel
def rewritten(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(N, N), offset=(i * N, 0))
    u = wp.tile_transpose(t) * 2.0
    t = wp.tile_load(b, shape=(N, N), offset=(i * N, 0))
    wp.tile_store(out, u + t, offset=(i * N, 0))


@wp.kernel
def looped(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(N, N), offset=(i * N, 0))
    u = wp.tile_transpose(t) * 2.0
    for k in range(2):
        wp.tile_atomic_add(out, u, offset=(i * N, 0))
        t = wp.tile_load(b, shape=(N, N), offset=(i * N, k))
    wp.tile_atomic_add(out, t, offset=(i * N, 0))


@wp.kernel
def carried(a: wp.array2d(dtype=float), w: wp.array2d(dtype=float), out: wp.array2d(dtype=float),
            out2: wp.array2d(dtype=float)):
    i = wp.tid()
    acc = wp.tile_load(a, shape=(N, N), offset=(i * N, 0))
    before = acc * 0.5
    for k in range(3):
        acc = acc + wp.tile_transpose(acc) * 0.25
    c = wp.tile_load(w, shape=(N, N))
    kept = c * 3.0
    wp.tile_matmul(acc, before, c)
    wp.tile_store(out, before + acc, offset=(i * N, 0))
    wp.tile_store(out2, kept - c, offset=(i * N, 0))


@wp.kernel
def branched(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(N, N), offset=(i * N, 0))
    s = t * 2.0
    if i % 3 == 0:
        t = wp.tile_transpose(t)
    elif i % 3 == 1:
        t = wp.tile_map(soft, t)
    wp.tile_store(out, s + t, offset=(i * N, 0))


@wp.kernel
def repeated(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(N, N), offset=(i * N, 0))
    k = int(0)
    while k < 3:
        t = t * 0.5 + wp.tile_transpose(t)
        k = k + 1
    wp.tile_store(out, t, offset=(i * N, 0))


@wp.kernel
def reused(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float), out2: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(N, N), offset=(i * N, 0))
    v = wp.tile_map(soft, t)
    wp.tile_store(out, v, offset=(i * N, 0))
    wp.tile_store(out2, v * v, offset=(i * N, 0))


def launch(a, b, c, d):
    wp.launch_tiled(symmetric, dim=4, inputs=[a, b, c, d], block_dim=BLOCK)
    wp.launch_tiled(rewritten, dim=4, inputs=[a, b, c], block_dim=BLOCK)
    wp.launch_tiled(looped, dim=4, inputs=[a, b, c], block_dim=BLOCK)
    wp.launch_tiled(carried, dim=4, inputs=[a, b, c, d], block_dim=BLOCK)
    wp.launch_tiled(branched, dim=4, inputs=[a, b], block_dim=BLOCK)
    wp.launch_tiled(repeated, dim=4, inputs=[a, b], block_dim=BLOCK)
    wp.launch_tiled(reused, dim=4, inputs=[a, b, c], block_dim=64)
'''
# symmetric: the issue's example (transpose, element-wise arithmetic, a broadcast, two consumers)
# rewritten: `u` reads `t` at transposed elements, then `t` is loaded again
# looped: `u` reads `t` inside a loop that loads `t` again (each iteration must see the first `t`)
# carried: `before` reads `acc` before a loop rewrites it; `kept` reads `c` before an in-place tile_matmul
# branched: `s` reads `t` before one branch (of if / elif, no else) transposes it in place and the other maps it
# repeated: a tile carried through a while loop, each iteration reading it transposed
# reused: a tile_map of a @wp.func read twice
KERNELS = ("symmetric", "rewritten", "looped", "carried", "branched", "repeated", "reused")


@pytest.fixture(scope="module")
def fusion_run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "fusion", FUSION_KERNELS)[:3]


@pytest.fixture(scope="module")
def kernels():
    return translate_source(FUSION_KERNELS, "fusion.py")


def body(kernel_code: str) -> list[str]:
    """The kernel's lines after its opening brace, comments dropped."""
    lines = kernel_code[kernel_code.index("{", kernel_code.index("__global__")):].splitlines()
    return [line.split("//")[0].rstrip() for line in lines if line.split("//")[0].strip()]


def shared_names(lines: list[str]) -> list[str]:
    return [m.group(1) for line in lines for m in [re.search(r"__shared__ \w+ (\w+)\[", line)] if m]


def barrier_faults(kernel_code: str) -> list[str]:
    """Barriers with nothing between them but lines touching no shared buffer, and barriers after
    which no line touches one."""
    lines = body(kernel_code)
    names = shared_names(lines)
    # pointers into a shared buffer (a row of a tile an FFT transforms: `float2* x0 = a + row * 64;`)
    names += [m.group(1) for line in lines
              for m in [re.search(r"\w+\* (\w+) = (\w+) \+", line)] if m and m.group(2) in names]
    touches = [not line.strip().startswith("__shared__") and any(re.search(rf"\b{n}\b", line) for n in names)
               for line in lines]
    barriers = [k for k, line in enumerate(lines) if line.strip() == "__syncthreads();"]
    faults = [f"barriers at lines {a} and {b} guard nothing between them"
              for a, b in zip(barriers, barriers[1:]) if not any(touches[a + 1:b])]
    if barriers and not any(touches[barriers[-1] + 1:]):
        faults.append(f"the last barrier (line {barriers[-1]}) guards nothing after it")
    return faults


@pytest.mark.parametrize("kernel", KERNELS)
def test_fused_tile_kernel_equals_warp_on_the_cpu(fusion_run, kernel):
    _, out, err = fusion_run
    line = next((x for x in out.splitlines() if x.startswith(f"{kernel}:")), f"no line for {kernel}: {err}")
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def test_element_wise_results_of_the_issue_example_are_not_stored(kernels):
    """Only the two loaded tiles live in shared memory: the transpose, the sums and products and the
    broadcast are computed in the store's and the atomic add's loops, and nothing is copied."""
    lines = body(kernels["symmetric"].kernel_code)
    assert shared_names(lines) == ["a", "f"]
    assert not [line for line in lines if re.fullmatch(r"\s*\w+\[e\d+\] = \w+\[e\d+\];", line)]


def test_the_issue_example_needs_one_barrier(kernels):
    """The loads write each thread's own elements; only the transpose reads other threads' elements."""
    assert sum(line.strip() == "__syncthreads();" for line in body(kernels["symmetric"].kernel_code)) == 1


def test_a_mapped_function_read_twice_is_computed_once(kernels):
    lines = body(kernels["reused"].kernel_code)
    assert sum(line.count("soft(") for line in lines) == 1 and "v" in shared_names(lines)


def test_a_tile_reloaded_while_a_lazy_value_reads_it_gets_a_new_buffer(kernels):
    lines = body(kernels["rewritten"].kernel_code)
    assert len(shared_names(lines)) == 2


@pytest.mark.parametrize("kernel", KERNELS)
def test_no_barrier_guards_nothing_in_the_fusion_kernels(kernels, kernel):
    assert barrier_faults(kernels[kernel].kernel_code) == []


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**31 - 1))
def test_no_barrier_guards_nothing_in_generated_tile_kernels(seed):
    spec = generate("tiled", seed)
    kernel = translate_kernel(spec.source, spec.name, f"{spec.name}.py", small_tables(list(spec.args), spec.dim),
                              spec.block_dim)
    assert barrier_faults(kernel.kernel_code) == []
