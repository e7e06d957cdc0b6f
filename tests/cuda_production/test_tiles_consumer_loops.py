"""Tile rules of cuda_production/tiles.py: the block size is one compile-time constant (TILE_THREADS)
that the launch and the cooperative loops use; consecutive stores and atomic adds of tiles are one
run, a value they share computed once per element into registers (Warp's register tile: one unrolled
loop computing it, then each consumer's unrolled loop, stores first), or in one shared loop past the
register cap, unless a hazard keeps them apart; a 2-D shared tile read through a transpose gets a row
stride of cols + 1, every access placed accordingly. Each kernel is proven equal to Warp on the CPU
(one translate run, `--reference --check`)."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda_production.tiles import padded_index
from cuda_production.translator import translate_source
from tests.cuda_production.harness import translate_checked

KERNELS = '''import warp as wp

M = 32
BIG = 64
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


@wp.kernel
def add_then_store(x: wp.array2d(dtype=float), sums: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(x, shape=(10, 10), offset=(i * 10, 0))
    r = a * a * 0.5
    wp.tile_atomic_add(sums, r)
    wp.tile_store(out, r, offset=(i * 10, 0))


@wp.kernel
def over_the_register_cap(x: wp.array2d(dtype=float), out: wp.array2d(dtype=float), sums: wp.array2d(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(x, shape=(BIG, BIG), offset=(i * BIG, 0))
    r = (a + a) * 3.0
    wp.tile_store(out, r, offset=(i * BIG, 0))
    wp.tile_atomic_add(sums, r)


@wp.kernel
def vector_store_and_add(x: wp.array2d(dtype=wp.vec3), out: wp.array2d(dtype=wp.vec3), sums: wp.array2d(dtype=wp.vec3)):
    i = wp.tid()
    a = wp.tile_load(x, shape=(4, 24), offset=(i * 4, 0))
    r = a * 2.0 + a
    wp.tile_store(out, r, offset=(i * 4, 0))
    wp.tile_atomic_add(sums, r)


def launch(a, b, c, d):
    wp.launch_tiled(store_and_add, dim=3, inputs=[a, b, c, d], block_dim=BLOCK)
    wp.launch_tiled(same_target, dim=3, inputs=[a, b, c], block_dim=BLOCK)
    wp.launch_tiled(offset_reads_array, dim=3, inputs=[a, b, c, d], block_dim=BLOCK)
    wp.launch_tiled(transposed_product, dim=3, inputs=[a, b, c, d], block_dim=BLOCK)
    wp.launch_tiled(add_then_store, dim=3, inputs=[a, b, c], block_dim=BLOCK)
    wp.launch_tiled(over_the_register_cap, dim=3, inputs=[a, b, c], block_dim=BLOCK)
    wp.launch_tiled(vector_store_and_add, dim=3, inputs=[a, b, c], block_dim=BLOCK)
'''
# store_and_add: the issue's kernel (store and atomic add of one value, read through a transpose)
# same_target: both consumers write `out` (one's elements overlap the other's): two loops
# offset_reads_array: the second store's offset reads an array: evaluated after the first store, two loops
# transposed_product: a product with a transposed operand, a transposed element-wise read, and an int
#   tile of 2 rows read through two transposes (too few rows to pad)
# add_then_store: an atomic add, then a store, of a 10x10 value (100 elements: 2 registers at 64
#   threads, the second one past the tile for some threads)
# over_the_register_cap: a 64x64 value over 64 threads (64 registers, over the cap of 32): one loop
# vector_store_and_add: a vec3 value (2 registers of float3 per thread)
NAMES = ("store_and_add", "same_target", "offset_reads_array", "transposed_product", "add_then_store",
         "over_the_register_cap", "vector_store_and_add")
COOPERATIVE_LOOP = re.compile(r"for \(int (\w+) = threadIdx\.x;")
# a loop over the thread's registers: `const int e = threadIdx.x + k * TILE_THREADS;` starts its body
REGISTER_ELEMENT = re.compile(r"const int (\w+) = threadIdx\.x \+ (\w+) \* TILE_THREADS;")
REGISTER_ARRAY = re.compile(r"^\s*(\w+) (\w+_reg\d+)\[(\d+)\](?: = \{\})?;$")  # zeroed where a slot may stay unset


@pytest.fixture(scope="module")
def host_run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "consumer_loops", KERNELS)[1:]


@pytest.fixture(scope="module")
def kernels():
    return translate_source(KERNELS, "consumer_loops.py")


def code_lines(kernel_code: str) -> list[str]:
    """The kernel's lines after its opening brace, comments dropped."""
    lines = kernel_code[kernel_code.index("{", kernel_code.index("__global__")):].splitlines()
    return [line.split("//")[0].rstrip() for line in lines if line.split("//")[0].strip()]


def element_loops(lines: list[str]) -> list[tuple[str, list[str], bool]]:
    """Each loop over tile elements, in order: its element variable, the lines of its body up to the
    next such loop, and whether it goes over the thread's registers (else it is cooperative)."""
    loops: list[tuple[str, list[str], bool]] = []
    for line in lines:
        m = COOPERATIVE_LOOP.search(line) or REGISTER_ELEMENT.search(line)
        if m:
            loops.append((m.group(1), [], m.re is REGISTER_ELEMENT))
        elif loops:
            loops[-1][1].append(line)
    return loops


def writes(line: str, array: str) -> bool:
    return bool(re.search(rf"\b{array}\[[^\]]*\] (\+?=)|&{array}\[", line))


def loops_writing(lines: list[str], array: str) -> set[str]:
    """The element variables of the element loops whose body writes `array`."""
    return {e for e, body, _ in element_loops(lines) if any(writes(line, array) for line in body)}


def loop_writing(lines: list[str], array: str) -> int:
    """The position, among the element loops, of the one loop writing `array`."""
    found = [k for k, (_, body, _) in enumerate(element_loops(lines)) if any(writes(line, array) for line in body)]
    assert len(found) == 1, found
    return found[0]


def register_arrays(lines: list[str]) -> list[tuple[str, str, int]]:
    """(C type, name, registers) of each per-thread register array the kernel declares."""
    return [(m.group(1), m.group(2), int(m.group(3))) for m in map(REGISTER_ARRAY.match, lines) if m]


@pytest.mark.parametrize("kernel", NAMES)
def test_kernel_equals_warp_on_the_cpu(host_run, kernel):
    out, err, _ = host_run
    line = next((x for x in out.splitlines() if x.startswith(f"{kernel}:")), f"no line for {kernel}: {err}")
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def test_the_block_size_is_one_constant_that_the_loops_and_the_launch_use(host_run):
    cu = (host_run[2] / "store_and_add" / "store_and_add.cu").read_text()
    assert re.findall(r"\bTILE_THREADS = (\d+);", cu) == ["64"]  # defined once: the launch's block_dim
    assert "blockDim" not in cu[cu.index("__global__"):cu.index("// Host side")]
    strides = re.findall(r"for \(int (\w+) = threadIdx\.x; \1 < \d+; \1 \+= (\w+)\)", cu)
    assert strides and {s for _, s in strides} == {"TILE_THREADS"}
    assert "const dim3 block(TILE_THREADS);" in cu and "store_and_add<<<grid, block>>>" in cu


def test_a_value_a_store_and_an_atomic_add_share_is_held_in_registers(kernels):
    """32x32 over 64 threads: 16 registers, computed in one unrolled loop (the transposed read is
    there only), then the store's loop, then the atomic add's, both reading the registers."""
    lines = code_lines(kernels["store_and_add"].kernel_code)
    ((ctype, name, registers),) = register_arrays(lines)
    assert (ctype, registers) == ("float", 16)
    transposed_reads = [line for line in lines if re.search(r"a\[\(e\d+ % 32\) \* \d+ \+ e\d+ / 32\]", line)]
    assert len(transposed_reads) == 1 and re.match(rf"\s*{name}\[k\d+\] = ", transposed_reads[0])
    loops = element_loops(lines)
    store, atomic = loop_writing(lines, "result"), loop_writing(lines, "sum_mats")
    assert store + 1 == atomic == len(loops) - 1  # the value's loop, then the store's, then the atomic add's
    # a's load, then the registers' three loops (f's one-element load is thread 0's, not a loop)
    assert [in_registers for _, _, in_registers in loops] == [False, True, True, True]
    assert any(re.fullmatch(r"\s*if \(threadIdx\.x == 0\)", line) for line in lines)
    for k in (store, atomic):
        assert any(f"{name}[k" in line for line in loops[k][1])
    pragmas = sum(line.strip() == "#pragma unroll" for line in lines)
    assert pragmas == 3


def test_stores_are_emitted_before_atomic_adds_whatever_the_source_order(kernels):
    lines = code_lines(kernels["add_then_store"].kernel_code)
    assert loop_writing(lines, "out") < loop_writing(lines, "sums")


def test_registers_past_the_tile_are_skipped(kernels):
    """100 elements over 64 threads: 2 registers, each loop skipping elements 100..127."""
    lines = code_lines(kernels["add_then_store"].kernel_code)
    assert [r for _, _, r in register_arrays(lines)] == [2]
    loops = [(e, body) for e, body, in_registers in element_loops(lines) if in_registers]
    assert len(loops) == 3 and all(body[0].strip() == f"if ({e} < 100) {{" for e, body in loops)


def test_a_vector_value_is_held_in_registers_of_its_type(kernels):
    lines = code_lines(kernels["vector_store_and_add"].kernel_code)
    assert [(t, r) for t, _, r in register_arrays(lines)] == [("float3", 2)]


def test_a_shared_value_over_the_register_cap_keeps_one_loop(kernels):
    """64x64 over 64 threads would take 64 registers: one loop computes it into a local and does both."""
    lines = code_lines(kernels["over_the_register_cap"].kernel_code)
    assert register_arrays(lines) == []
    assert loops_writing(lines, "out") == loops_writing(lines, "sums") != set()
    assert sum(bool(re.match(r"\s*const float r_e\d+ = ", line)) for line in lines) == 1


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
