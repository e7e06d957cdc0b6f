"""Two tile rules of cuda_production/tiles.py: consecutive stores and atomic adds of tiles share one
element loop (a value both consume computed once), unless a hazard forbids it; a 2-D shared tile
read through a transpose gets a row stride of cols + 1, every access placed accordingly. Each kernel
is proven equal to Warp on the CPU (one translate run, `--reference --check`)."""
from __future__ import annotations

import contextlib
import io
import re
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda_production.tiles import padded_index
from cuda_production.translate import translate_file
from cuda_production.translator import translate_source

KERNELS = '''import warp as wp

M = 32
BLOCK = 64


@wp.kernel
def store_and_add(jacobians: wp.array2d(dtype=float), dt: wp.array2d(dtype=float), result: wp.array2d(dtype=float),
                  sum_mats: wp.array2d(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(jacobians, shape=(M, M), offset=(i * M, 0))
    at = wp.tile_transpose(a)
    r = (a + at) * 0.5
    f = wp.tile_load(dt, shape=(1, 1), offset=(i, 0))
    r = r * wp.tile_broadcast(f, shape=(M, M))
    wp.tile_store(result, r, offset=(i * M, 0))
    wp.tile_atomic_add(sum_mats, r)


@wp.kernel
def same_target(x: wp.array2d(dtype=float), out: wp.array2d(dtype=float), unused: wp.array2d(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(x, shape=(M, 4), offset=(i * M, 0))
    r = a * 2.0
    wp.tile_store(out, r, offset=(i * M, 0))
    wp.tile_atomic_add(out, r, offset=(i * M + 1, 0))


@wp.kernel
def offset_reads_array(x: wp.array2d(dtype=float), rows: wp.array(dtype=int), out: wp.array2d(dtype=float),
                       out2: wp.array2d(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(x, shape=(M, 4), offset=(i * M, 0))
    r = a * 2.0
    wp.tile_store(out, r, offset=(i * M, 0))
    wp.tile_store(out2, r, offset=(rows[i], 0))


@wp.kernel
def transposed_product(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float), out: wp.array2d(dtype=float),
                       scale: wp.array2d(dtype=int)):
    i = wp.tid()
    a = wp.tile_load(x, shape=(M, M), offset=(i * M, 0))
    b = wp.tile_load(y, shape=(M, M), offset=(i * M, 0))
    p = wp.tile_matmul(a, wp.tile_transpose(b))
    wp.tile_store(out, p + wp.tile_transpose(a), offset=(i * M, 0))
    k = wp.tile_load(scale, shape=(2, M), offset=(i * 2, 0))
    wp.tile_store(scale, wp.tile_transpose(wp.tile_transpose(k)) * 3, offset=(i * 2, 0))


def launch(a, b, c, d):
    wp.launch_tiled(store_and_add, dim=3, inputs=[a, b, c, d], block_dim=BLOCK)
    wp.launch_tiled(same_target, dim=3, inputs=[a, b, c], block_dim=BLOCK)
    wp.launch_tiled(offset_reads_array, dim=3, inputs=[a, b, c, d], block_dim=BLOCK)
    wp.launch_tiled(transposed_product, dim=3, inputs=[a, b, c, d], block_dim=BLOCK)
'''
# store_and_add: the kernel (store and atomic add of one value, read through a transpose)
# same_target: both consumers write `out` (one's elements overlap the other's): two loops
# offset_reads_array: the second store's offset reads an array: evaluated after the first store, two loops
# transposed_product: a product with a transposed operand, a transposed element-wise read, and an int
#   tile of 2 rows read through two transposes (too few rows to pad)
NAMES = ("store_and_add", "same_target", "offset_reads_array", "transposed_product")
COOPERATIVE_LOOP = re.compile(r"for \(int (\w+) = threadIdx\.x;")


@pytest.fixture(scope="module")
def host_run(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    base = tmp_path_factory.mktemp("consumer_loops")
    src = base / "consumer_loops.py"
    src.write_text(KERNELS)
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        translate_file(src, base / "out", reference=True, check=True)
    return stdout.getvalue(), stderr.getvalue()


@pytest.fixture(scope="module")
def kernels():
    return translate_source(KERNELS, "consumer_loops.py")


def code_lines(kernel_code: str) -> list[str]:
    """The kernel's lines after its opening brace, comments dropped."""
    lines = kernel_code[kernel_code.index("{", kernel_code.index("__global__")):].splitlines()
    return [line.split("//")[0].rstrip() for line in lines if line.split("//")[0].strip()]


def loops_writing(lines: list[str], array: str) -> set[str]:
    """The element variables of the cooperative loops whose body writes `array`."""
    found, current = set(), None
    for line in lines:
        m = COOPERATIVE_LOOP.search(line)
        if m:
            current = m.group(1)
        elif current and re.search(rf"\b{array}\[[^\]]*\] (\+?=)|&{array}\[", line):
            found.add(current)
    return found


@pytest.mark.parametrize("kernel", NAMES)
def test_kernel_equals_warp_on_the_cpu(host_run, kernel):
    out, err = host_run
    line = next((x for x in out.splitlines() if x.startswith(f"{kernel}:")), f"no line for {kernel}: {err}")
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def test_a_store_and_an_atomic_add_of_one_value_share_one_loop_computing_it_once(kernels):
    lines = code_lines(kernels["store_and_add"].kernel_code)
    assert loops_writing(lines, "result") == loops_writing(lines, "sum_mats") != set()
    transposed_reads = [line for line in lines if re.search(r"a\[\(e\d+ % 32\) \* \d+ \+ e\d+ / 32\]", line)]
    assert len(transposed_reads) == 1 and re.match(r"\s*const float r_e\d+ = ", transposed_reads[0])
    assert sum(bool(COOPERATIVE_LOOP.search(line)) for line in lines) == 3  # two loads, one for both consumers


@pytest.mark.parametrize("kernel, first, second", [("same_target", "out", "out"),
                                                   ("offset_reads_array", "out", "out2")])
def test_a_hazard_keeps_the_consumers_loops_apart(kernels, kernel, first, second):
    lines = code_lines(kernels[kernel].kernel_code)
    writers = loops_writing(lines, first) | loops_writing(lines, second)
    assert len(writers) == 2
    assert sum(bool(COOPERATIVE_LOOP.search(line)) for line in lines) == 3  # one load, one loop per consumer


def test_a_tile_read_through_a_transpose_gets_a_padded_row_stride(kernels):
    lines = code_lines(kernels["store_and_add"].kernel_code)
    assert "__shared__ float a[1056];" in [line.strip() for line in lines]  # 32 rows of 33
    accesses = [m.group(1) for line in lines for m in re.finditer(r"\ba\[([^\]]+)\]", line) if "__shared__" not in line]
    assert accesses and all("33" in index for index in accesses)


def test_a_product_reads_a_padded_transposed_operand_by_row_and_column(kernels):
    lines = code_lines(kernels["transposed_product"].kernel_code)
    declared = {m.group(1): int(m.group(2)) for line in lines for m in [re.search(r"__shared__ \w+ (\w+)\[(\d+)\]", line)] if m}
    assert declared["a"] == declared["b"] == 32 * 33
    assert [line for line in lines if re.search(r"\bb\[col\d+ \* 33 \+ k\d+\]", line)]
    assert declared["k"] == 2 * 32  # two rows: padding would leave its 2-way conflict as it is


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 4), cols=st.sampled_from([32, 64]), form=st.sampled_from(["flat", "transposed", "sum", "digit"]),
       data=st.data())
def test_padded_index_puts_every_element_at_its_row_and_column(rows, cols, form, data):
    """The C index `padded_index` gives, evaluated for every element, is row * (cols + 1) + col."""
    pitch = cols + 1
    size = rows * cols
    e = data.draw(st.integers(0, size - 1))
    if form == "flat":
        index, flat = "e", e
    elif form == "transposed":  # element e of the transpose (cols x rows) reads (e % rows, e / rows)
        index, flat = f"(e % {rows}) * {cols} + e / {rows}", (e % rows) * cols + e // rows
    elif form == "sum":
        index, flat = "e - 0 + 0", e
    else:
        index, flat = str(e), e
    code = padded_index(index, rows, cols, pitch, {})
    value = eval(code.replace("/", "//"), {}, {"e": e})  # non-negative operands: C's / is Python's //
    assert value == flat // cols * pitch + flat % cols
