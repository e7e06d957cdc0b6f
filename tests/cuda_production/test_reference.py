"""Warp's reference outputs for struct, by-value and module-constant kernels (cuda_production/reference.py)."""
from __future__ import annotations

import dataclasses

import numpy as np

from cuda_production.reference import input_seed, make_input, module_groups, own_module_names, warp_reference
from synthesis.spec import ArgSpec, KernelSpec

N = 32


def arr(name: str, role: str = "input", dtype: str = "float32") -> ArgSpec:
    return ArgSpec(name, dtype, role, (N,), -2.0, 2.0, 6)


def spec(name: str, source: str, args: list[ArgSpec]) -> KernelSpec:
    return KernelSpec(name, "test", "test", source, tuple(args), (N,), seed=777)


def floats(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32)


def test_struct_fields_take_flattened_input_positions():
    source = """
@wp.struct
class RefBox:
    scale: float
    vals: wp.array(dtype=float)


@wp.kernel
def ref_struct_inputs(b: RefBox, c: wp.array(dtype=float), out: wp.array(dtype=float)):
    tid = wp.tid()
    out[tid] = b.vals[tid] * b.scale + c[tid]
"""
    vals, c = arr("vals"), arr("c")
    box = ArgSpec("b", "RefBox", "struct", fields=(ArgSpec("scale", "float32", "scalar", (), 0.5, 0.5, 0, 0.5), vals))
    s = spec("ref_struct_inputs", source, [box, c, arr("out", "output")])
    seed = input_seed(s)
    want = make_input(vals, 1, seed) * np.float32(0.5) + make_input(c, 2, seed)  # scale is position 0
    assert np.array_equal(floats(warp_reference([s], "t_ref_struct_inputs")[s.name]), want)


def test_written_struct_fields_come_first_in_argument_order():
    source = """
@wp.struct
class RefOut:
    first: wp.array(dtype=float)


@wp.kernel
def ref_struct_outputs(o: RefOut, second: wp.array(dtype=float), src: wp.array(dtype=float)):
    tid = wp.tid()
    o.first[tid] = src[tid] + 1.0
    second[tid] = src[tid] * 2.0
"""
    src = arr("src")
    s = spec("ref_struct_outputs", source,
             [ArgSpec("o", "RefOut", "struct", fields=(arr("first", "output"),)), arr("second", "output"), src])
    x = make_input(src, 2, input_seed(s))
    got = floats(warp_reference([s], "t_ref_struct_outputs")[s.name])
    assert np.array_equal(got, np.concatenate([x + np.float32(1.0), x * np.float32(2.0)]))


def test_by_value_vector_is_passed_with_its_components():
    source = """
@wp.kernel
def ref_by_value(p: wp.array(dtype=wp.vec3), offset: wp.vec3, out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    out[tid] = p[tid] + offset
"""
    p = ArgSpec("p", "vec3", "input", (N,), -1.0, 1.0, 6)
    s = spec("ref_by_value", source, [p, ArgSpec("offset", "vec3", "scalar", (), -3.0, 3.0, 0, (1.0, -2.0, 3.0)),
                                      ArgSpec("out", "vec3", "output", (N,))])
    want = make_input(p, 0, input_seed(s)).reshape(N, 3) + np.array([1.0, -2.0, 3.0], dtype=np.float32)
    assert np.array_equal(floats(warp_reference([s], "t_ref_by_value")[s.name]).reshape(N, 3), want)


def _constant_kernel(name: str, value: float) -> KernelSpec:
    source = f"""
SCALE = wp.constant({value})


@wp.kernel
def {name}(out: wp.array(dtype=float)):
    tid = wp.tid()
    out[tid] = float(tid) * SCALE
"""
    return spec(name, source, [arr("out", "output")])


def test_kernels_defining_the_same_constant_each_see_their_own():
    a, b = _constant_kernel("ref_const_a", 2.0), _constant_kernel("ref_const_b", 3.0)
    got = warp_reference([a, b], "t_ref_constants")
    assert np.array_equal(floats(got[a.name]), np.arange(N, dtype=np.float32) * 2)
    assert np.array_equal(floats(got[b.name]), np.arange(N, dtype=np.float32) * 3)


def test_module_groups_share_a_module_when_names_do_not_clash():
    a, b, c = _constant_kernel("g_a", 2.0), _constant_kernel("g_b", 3.0), spec("g_c", "@wp.kernel\ndef g_c():\n    pass\n", [])
    assert [[s.name for s in g] for g in module_groups([a, b, c])] == [["g_a", "g_c"], ["g_b"]]


def test_tiled_kernels_of_different_block_dims_get_modules_of_their_own():
    """Warp builds a module for the block_dim of each launch, and a tile FFT of 32-element rows is
    refused at 256 threads on the CPU: kernels of one block_dim share; plain kernels share theirs."""
    def tiled(name: str, block_dim: int) -> KernelSpec:
        return dataclasses.replace(spec(name, f"@wp.kernel\ndef {name}():\n    pass\n", []), block_dim=block_dim)

    plain = spec("t_plain", "@wp.kernel\ndef t_plain():\n    pass\n", [])
    groups = module_groups([tiled("t_32a", 32), tiled("t_256", 256), plain, tiled("t_32b", 32)])
    assert [[s.name for s in g] for g in groups] == [["t_32a", "t_32b"], ["t_256"], ["t_plain"]]


def test_a_plain_kernel_launched_after_a_tiled_one_leaves_the_tiled_one_its_block():
    """A plain launch builds its module for Warp's default block, where `wp.tile(v)` of a kernel
    launched with blocks of 32 has another shape: in one module, Warp refused the batch."""
    from synthesis.categories import generate

    tiled = next(s for s in (generate("tiled", k) for k in range(400))
                 if "wp.tile(" in s.source and "wp.tile_broadcast" in s.source)
    plain = generate("arithmetic", 1)
    results = warp_reference([tiled, plain], "t_tiled_then_plain")
    assert set(results) == {tiled.name, plain.name} and any(results[tiled.name])


def test_a_tile_fft_kernel_batched_with_a_wider_block_gets_its_reference():
    from synthesis.categories import generate

    fft = next(s for s in (generate("tiled", k) for k in range(400))
               if "wp.tile_fft" in s.source and s.args[0].shape[-1] < 256)
    wide = next(s for s in (generate("tiled", k) for k in range(400)) if s.block_dim == 256)
    results = warp_reference([wide, fft], "t_mixed_block_dims")
    assert set(results) == {wide.name, fft.name} and any(results[fft.name])


def test_kernels_defining_the_same_constant_are_renamed_apart_into_one_module():
    a, b = _constant_kernel("own_a", 2.0), _constant_kernel("own_b", 3.0)
    assert len(module_groups([a, b])) == 2
    renamed = [own_module_names(a, "k0"), own_module_names(b, "k1")]
    assert len(module_groups(renamed)) == 1
    assert "SCALE__k0 = wp.constant(2.0)" in renamed[0].source and "* SCALE__k0" in renamed[0].source
    assert renamed[0].name == "own_a" and "def own_a(" in renamed[0].source


def test_a_kernel_of_its_own_module_joins_the_batch_and_keeps_its_values():
    """`@wp.kernel(module="unique")` is dropped for the CPU reference (one build for the batch), and
    the values are those of the kernel as written."""
    body = "def {name}(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n" \
           "    i = wp.tid()\n    out[i] = 2.0 * a[i] + 1.0\n"
    unique = spec("k_unique", '@wp.kernel(enable_backward=False, module="unique")\n' + body.format(name="k_unique"),
                  [arr("a"), arr("out", "output")])
    assert own_module_names(unique, "k0").source.startswith("@wp.kernel(enable_backward=False)\n")
    got = floats(warp_reference([unique], "t_ref_unique")["k_unique"])
    np.testing.assert_array_equal(got, 2.0 * make_input(unique.args[0], 0, input_seed(unique)) + 1.0)


def test_an_edit_to_a_mapped_func_alone_is_seen_under_the_same_module_name():
    """Warp 1.19's module hash leaves out a @wp.func that `wp.tile_map` takes by name, so a module of
    the same name whose only change is that helper's body would run the build Warp's kernel cache
    kept from before (the tiled tests' compaction kernels ran their older slot helper so)."""
    source = ("@wp.func\ndef op(v: float) -> float:\n    return {body}\n\n\n"
              "@wp.kernel\ndef mapped(x: wp.array(dtype=float), y: wp.array(dtype=float)):\n"
              "    i = wp.tid()\n    wp.tile_store(y, wp.tile_map(op, wp.tile_load(x, shape=32, offset=i * 32)), offset=i * 32)\n")
    args = [arr("x"), arr("y", "output")]
    got = []
    for body in ("v * 2.0", "v * 3.0"):
        kernel = dataclasses.replace(spec("mapped", source.format(body=body), args), dim=(1,), block_dim=32)
        got.append(floats(warp_reference([kernel], "t_ref_edited_map")["mapped"]))
    x = make_input(args[0], 0, input_seed(kernel)).astype(np.float32)
    assert np.array_equal(got[0], x * 2) and np.array_equal(got[1], x * 3)
