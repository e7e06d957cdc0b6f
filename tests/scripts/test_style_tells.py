"""The tells scripts/style_tells.py counts, on planted examples."""
from scripts.style_tells import generic_output_names, hashed_module_names, literal_extents, mixed_spellings

KERNEL = "@wp.kernel\ndef k_ab12cd34ef(x: {a}, y: {b}):\n    tid = wp.tid()\n    y[tid] = {body}\n"


def test_two_spellings_of_one_family_in_a_module_are_mixed():
    assert mixed_spellings(KERNEL.format(a="wp.array(dtype=float)", b="wp.array[float]", body="x[tid]"))
    assert mixed_spellings(KERNEL.format(a="wp.array(dtype=float)", b="wp.array(dtype=wp.float32)", body="x[tid]"))
    assert mixed_spellings(KERNEL.format(a="wp.array(dtype=float)", b="wp.array(dtype=float)",
                                         body="wp.min(x[tid], max(x[tid], 0.0))"))
    assert not mixed_spellings(KERNEL.format(a="wp.array[float]", b="wp.array[float]",
                                             body="min(float(tid), wp.float64(1.0))"))


def test_a_count_by_update_beside_a_sum_by_call_is_mixed_and_an_own_element_update_is_not():
    kernel = ("@wp.kernel\ndef k(b: wp.array(dtype=int), hist: wp.array(dtype=int), s: wp.array(dtype=float)):\n"
              "    tid = wp.tid()\n    hist[b[tid]] += 1\n    wp.atomic_add(s, b[tid], 1.0)\n")
    assert mixed_spellings(kernel)
    assert not mixed_spellings(kernel.replace("hist[b[tid]] += 1", "hist[tid] += 1"))
    assert not mixed_spellings(kernel.replace("hist[b[tid]] += 1", "wp.atomic_add(hist, b[tid], 1)"))


def test_a_helper_or_constant_with_the_kernels_hash_is_hashed():
    helper = "@wp.func\ndef huber_ab12cd34ef(r: float) -> float:\n    return r\n\n"
    plain = KERNEL.format(a="wp.array(dtype=float)", b="wp.array(dtype=float)", body="x[tid]")
    assert hashed_module_names(helper + plain, "k_ab12cd34ef")
    assert hashed_module_names("MU_AB12CD34EF = wp.constant(0.5)\n" + plain, "k_ab12cd34ef")
    assert not hashed_module_names(helper.replace("_ab12cd34ef", "") + plain, "k_ab12cd34ef")


def test_an_extent_written_as_a_literal_is_found_and_shape_is_not():
    literal = KERNEL.format(a="wp.array(dtype=float)", b="wp.array(dtype=float)", body="x[wp.min(tid + 1, 255)]")
    shaped = literal.replace("255", "x.shape[0] - 1")
    assert literal_extents(literal, {256, 255}) and not literal_extents(shaped, {256, 255})


def test_a_tiles_compile_time_shape_is_not_a_literal_extent():
    tiled = ("@wp.kernel\ndef k(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):\n    i = wp.tid()\n"
             "    t = wp.tile_load(x, shape=(16, 32), offset=(i * 16, 0))\n    wp.tile_store(y, t, offset=(i * 16, 0))\n")
    assert not literal_extents(tiled.replace("i * 16", "i * TILE"), {16, 32})
    assert literal_extents(tiled, {16, 32})  # the offset's row step is still counted


def test_an_output_named_only_as_written_is_generic_and_one_named_for_its_value_is_not():
    assert generic_output_names(["rms", "result2"]) and generic_output_names(["out"])
    assert not generic_output_names(["rms", "soft_min", "u_new", "output_mask"])


def test_generated_outputs_are_named_for_what_they_hold():
    from synthesis.categories import CATEGORY_NAMES, generate
    outputs = [[a.name for a in spec.args if a.role in ("output", "inout")]
               for spec in (generate(category, seed) for category in CATEGORY_NAMES for seed in range(20))]
    generic = sum(generic_output_names(names) for names in outputs)
    assert generic <= len(outputs) // 20, generic  # at most 5% of kernels (tile matmuls' `out` remains)
