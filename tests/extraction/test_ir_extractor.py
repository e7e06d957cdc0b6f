import re

import pytest
import warp as wp
from hypothesis import given, strategies as st

from extraction import extract_ir, extract_ir_devices, load_kernels
from extraction import warp_compat
from extraction.ir_extractor import _is_called
from extraction.loader import KernelLoadError, unload

SOURCE = '''
@wp.func
def twice(x: float) -> float:
    return 2.0 * x

@wp.kernel
def saxpy(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    tid = wp.tid()
    out[tid] = twice(a[tid]) + wp.sin(b[tid])
'''


@pytest.fixture(scope="module")
def kernel():
    kernels = load_kernels(SOURCE, "test_extract_saxpy")
    yield kernels["saxpy"]
    unload("test_extract_saxpy")


def test_cuda_forward_uses_the_thread_grid(kernel):
    ir = extract_ir(kernel, device="cuda")
    assert ir.forward.startswith('extern "C" __global__ void saxpy_')
    assert "blockIdx" in ir.forward and "threadIdx" in ir.forward
    assert ir.forward_name.endswith("_cuda_kernel_forward")


def test_cpu_forward_uses_task_index_not_the_grid(kernel):
    ir = extract_ir(kernel, device="cpu")
    assert "task_index" in ir.forward
    assert "blockIdx" not in ir.forward and "threadIdx" not in ir.forward
    assert ir.forward_name.endswith("_cpu_kernel_forward")


def test_backward_is_the_adjoint_and_can_be_left_out(kernel):
    ir = extract_ir(kernel, device="cuda")
    assert ir.backward_name.endswith("_cuda_kernel_backward")
    assert "adj_sin" in ir.backward and "adj_out" in ir.backward
    no_bwd = extract_ir(kernel, device="cuda", include_backward=False)
    assert no_bwd.backward is None and no_bwd.backward_name is None


def test_only_this_kernels_functions_not_the_module_preamble(kernel):
    ir = extract_ir(kernel, device="cuda")
    assert "#define" not in ir.forward and "#include" not in ir.forward
    assert ir.forward.count("__global__") == 1 and ir.forward.rstrip().endswith("}")


def test_wp_func_helpers_are_extracted_for_each_device(kernel):
    irs = extract_ir_devices(kernel, ("cpu", "cuda"))
    for device in ("cpu", "cuda"):
        assert "twice_0(" in irs[device].helpers
        assert "adj_twice_0(" in irs[device].helpers
    assert "CUDA_CALLABLE" in irs["cuda"].helpers


def test_a_helper_is_named_as_in_a_fresh_process_whatever_was_loaded_before(kernel):
    # Warp numbers a @wp.func name's definitions across the process (the second `twice` would be
    # `twice_1`); the loader puts the count back, so a kernel's code does not depend on its worker's past
    other = load_kernels(SOURCE, "test_extract_saxpy_again")["saxpy"]
    try:
        helpers = extract_ir(other, device="cuda").helpers
    finally:
        unload("test_extract_saxpy_again")
    assert re.search(r"\btwice_0\(\n", helpers) and re.search(r"\badj_twice_0\(\n", helpers)
    assert extract_ir(kernel, device="cuda").helpers == helpers


# Pieces of C++ around a helper's name: the name called, the name as the tail or the head of a longer
# identifier, the name not called, separators.
_PIECES = ["{n}(", "adj_{n}(", "x{n}(", "{n}1(", "{n}_2(", "{n} (", "{n}", "(", " ", "\n", "_", "a", "1", ":"]


@given(stem=st.sampled_from(["a", "ab", "b_a", "_a"]), number=st.sampled_from(["0", "1", "10"]),
       pieces=st.lists(st.sampled_from(_PIECES), max_size=8))
def test_a_helper_counts_as_called_exactly_when_a_call_names_it_as_a_whole_word(stem, number, pieces):
    name = f"{stem}_{number}"
    text = "".join(piece.format(n=name) for piece in pieces)
    calls = set(re.findall(r"\b(\w+_\d+)\(", text))  # every whole identifier ending in _<n> before "("
    assert _is_called(name, text) == (name in calls)


def test_records_the_warp_version(kernel):
    assert extract_ir(kernel, device="cpu").warp_version == wp.__version__


def test_unknown_device_is_rejected(kernel):
    with pytest.raises(ValueError, match="unknown device 'metal'"):
        extract_ir(kernel, device="metal")


def test_missing_internals_name_the_warp_version(monkeypatch):
    monkeypatch.setattr(warp_compat.importlib, "import_module", lambda name: (_ for _ in ()).throw(ImportError(name)))
    with pytest.raises(warp_compat.WarpCompatError, match=f"warp-lang {wp.__version__}: internal 'ModuleBuilder'"):
        warp_compat._internal("ModuleBuilder")


def test_a_source_that_does_not_compile_is_a_load_error():
    with pytest.raises(KernelLoadError, match="SyntaxError"):
        load_kernels("@wp.kernel\ndef broken(:\n    pass\n", "test_broken")


def test_unloading_forgets_a_kernels_own_module():
    """A kernel declared `module="unique"` gets a Warp module of its own; unloading the generated
    module drops it too, so a long run's registry does not grow."""
    import warp._src.context as context

    from extraction.loader import load_kernels, unload

    source = ('@wp.kernel(module="unique")\ndef own_mod(x: wp.array(dtype=float), y: wp.array(dtype=float)):\n'
              "    i = wp.tid()\n    y[i] = 3.0 * x[i]\n")
    kernel = load_kernels(source, "t_own_module")["own_mod"]
    own = kernel.module.name
    assert own != "t_own_module" and own in context.user_modules
    unload("t_own_module")
    assert own not in context.user_modules


TILED_SOURCE = '''
@wp.kernel
def block_total(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i, lane = wp.tid()
    v = x[i * wp.block_dim() + lane]
    t = wp.tile(v)
    wp.tile_store(out, wp.tile_sum(t), offset=i)
'''


@pytest.mark.parametrize("block_dim", [32, 64])
def test_a_tiled_kernels_code_is_built_for_its_launch_block_dim(block_dim):
    """Warp sizes a tile gathered from the block's threads by the launch's block_dim: the recorded
    code is that of `wp.launch_tiled(..., block_dim=B)`, not of Warp's default 256."""
    name = f"test_extract_tiled_{block_dim}"
    kernel = load_kernels(TILED_SOURCE, name)["block_total"]
    try:
        forward = extract_ir_devices(kernel, ("cuda",), False, block_dim)["cuda"].forward
    finally:
        unload(name)
    assert f"tile_shape_t<{block_dim}>" in forward and "tile_shape_t<256>" not in forward


def test_a_forward_only_module_records_no_adjoint():
    """`wp.set_module_options({"enable_backward": False})` in the source: Warp builds no adjoint for its
    kernels (and a bfloat16 tile product needs it), so none is recorded, though one was asked for."""
    source = 'wp.set_module_options({"enable_backward": False})\n\n' + SOURCE
    try:
        irs = extract_ir_devices(load_kernels(source, "test_extract_forward_only")["saxpy"], ("cpu", "cuda"), True)
    finally:
        unload("test_extract_forward_only")
    assert all(ir.backward is None and ir.forward for ir in irs.values())
    plain = extract_ir_devices(load_kernels(SOURCE, "test_extract_with_adjoint")["saxpy"], ("cuda",), True)
    unload("test_extract_with_adjoint")
    assert plain["cuda"].backward is not None
