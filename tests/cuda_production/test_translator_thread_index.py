"""`wp.tid()` used as a value (`x = a[wp.tid()]`): the thread's index in a 1-D launch, equal to Warp on
the CPU; where it would be a tuple (a tiled launch) it is refused with one line."""
from __future__ import annotations

import contextlib
import io
import shutil

import pytest

from cuda_production.translate import translate_file
from cuda_production.translator import TranslationError, translate_source

SOURCE = '''import warp as wp


@wp.kernel
def gather(idx: wp.array(dtype=int), a: wp.array(dtype=float), out: wp.array(dtype=float)):
    j = idx[wp.tid()]
    if j > 2:
        out[wp.tid()] = a[j] * 2.0


@wp.kernel
def block_energy(a: wp.array(dtype=float), total: wp.array(dtype=float)):
    v = a[wp.tid()]
    wp.tile_atomic_add(total, wp.tile_sum(wp.tile(v * v)))


def launch(i, a, o, t):
    wp.launch(gather, dim=64, inputs=[i, a, o])
    wp.launch(block_energy, dim=64, inputs=[a, t], block_dim=32)
'''


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    base = tmp_path_factory.mktemp("tid_value")
    (base / "kernels.py").write_text(SOURCE)
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = translate_file(base / "kernels.py", base / "out", reference=True, check=True)
    return code, stdout.getvalue(), stderr.getvalue()


@pytest.mark.parametrize("kernel", ("gather", "block_energy"))
def test_tid_as_a_value_equals_warp_on_the_cpu(run, kernel):
    _, out, err = run
    line = next((line for line in out.splitlines() if line.startswith(f"{kernel}:")), f"no line for {kernel}: {err}")
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def test_every_use_reads_the_one_thread_index():
    code = translate_source(SOURCE, "user.py")["gather"].kernel_code
    assert "const int tid = blockIdx.x * blockDim.x + threadIdx.x;" in code
    assert "int j = idx[tid];" in code and "out[tid] = a[j] * 2.0f;" in code


def test_tid_as_a_value_in_a_tiled_launch_is_refused():
    source = ("import warp as wp\n\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n"
              "    t = wp.tile_load(a, shape=8, offset=wp.tid() * 8)\n    wp.tile_store(a, t * 2.0)\n\n\n"
              "def go(a):\n    wp.launch_tiled(k, dim=[4], inputs=[a], block_dim=8)\n")
    result = translate_source(source, "user.py")["k"]
    assert isinstance(result, TranslationError)
    assert str(result) == ("user.py:5:41: unsupported: wp.tid() as a value in a launch of several dimensions "
                           "(wp.launch_tiled adds the block's); assign it: `i, j = wp.tid()`")
