"""The builtin table: every entry is usable as registered, and the table is what the translator consults."""
import pytest

from cuda_production import builtins
from cuda_production.cuda_types import (BVH, BVH_QUERY, HASH_GRID, HASH_GRID_QUERY, MESH, MESH_QUERY_AABB,
                                        MESH_QUERY_POINT, MESH_QUERY_RAY, render_snippets)
from cuda_production.translator import TranslationError, translate_kernel
from synthesis.dtypes import TYPES

ENTRIES = [b for overloads in builtins.BUILTINS.values() for b in overloads]
# the registry's, the hash grid's, the mesh's and the BVH's own (no data type), their queries, and the mesh
# queries' result structs
KNOWN_TYPES = {*TYPES, HASH_GRID, HASH_GRID_QUERY, MESH, MESH_QUERY_POINT, MESH_QUERY_RAY, MESH_QUERY_AABB, BVH,
               BVH_QUERY}


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"{b.key}{b.input_types}" for b in ENTRIES])
def test_entry_names_known_types_and_existing_snippets(entry):
    for t in (entry.input_types or ()) + ((entry.value_type,) if entry.value_type else ()):
        assert t in KNOWN_TYPES, t
    render_snippets(set(entry.snippets))  # KeyError for a snippet that does not exist
    assert entry.cuda is not None or entry.emit is not None


def test_overload_is_chosen_by_argument_types():
    assert builtins.lookup("min", ["int32", "int32"]).cuda == "min({0}, {1})"
    assert builtins.lookup("min", ["float32", "float32"]).cuda == "fminf({0}, {1})"
    with pytest.raises(builtins.BuiltinMismatch, match=r"wp.min\(\) of \['int32', 'float32'\]"):
        builtins.lookup("min", ["int32", "float32"])


def test_a_registered_builtin_is_translated_without_translator_changes(monkeypatch):
    monkeypatch.setitem(builtins.BUILTINS, "twice", [])
    builtins.add_builtin("twice", ("float32",), "float32", "(2.0f * {0})", arg_names=("x",))
    source = ("@wp.kernel\ndef k(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
              "    tid = wp.tid()\n    out[tid] = wp.twice(x=a[tid])\n")
    assert "out[tid] = (2.0f * a[tid]);" in translate_kernel(source, "k").kernel_code


def test_keyword_unknown_to_the_builtin_is_refused():
    source = ("@wp.kernel\ndef k(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
              "    tid = wp.tid()\n    out[tid] = wp.sin(y=a[tid])\n")
    with pytest.raises(TranslationError, match="unsupported: keyword argument 'y'"):
        translate_kernel(source, "k")


def test_a_builtin_spelling_writes_each_argument_once():
    # `wp.length_sq(xi - pos[j])` was spelled dot(xi - pos[j], xi - pos[j]): the expression written twice
    import re

    for entries in builtins.BUILTINS.values():
        for entry in entries:
            if entry.cuda:
                placeholders = re.findall(r"\{\d\}", entry.cuda)
                assert len(placeholders) == len(set(placeholders)), (entry.key, entry.cuda)
    src = ("import warp as wp\n\n@wp.kernel\ndef k(pos: wp.array(dtype=wp.vec3), r2: wp.array(dtype=float)):\n"
           "    tid = wp.tid()\n    r2[tid] = wp.length_sq(pos[tid] - pos[0])\n")
    code = translate_kernel(src, "k").kernel_code
    assert code.count("pos[tid] - pos[0]") == 1 and "length_sq(" in code


def test_an_in_place_product_on_an_array_element_writes_the_element_once():
    # Warp loads, multiplies and stores `a[i, j] *= s`; C's `*=` does the same with one index expression
    src = ("import warp as wp\n\n@wp.kernel\ndef k(a: wp.array2d(dtype=float), v: wp.array2d(dtype=wp.vec3), s: float):\n"
           "    i, j = wp.tid()\n    a[i, j] *= s\n    a[i, j] /= 2.0\n    v[i, j] *= s\n")
    code = translate_kernel(src, "k").kernel_code
    assert "a[i * a_dim1 + j] *= s;" in code and "a[i * a_dim1 + j] /= 2.0f;" in code
    assert "v[i * v_dim1 + j] = v[i * v_dim1 + j] * s;" in code  # no float3 *= operator: the expansion


def test_a_vector_of_one_float_is_the_one_argument_make_float3():
    # wp.vec3(2.0 * r) was make_float3(2.0f * r, 2.0f * r, 2.0f * r): the expression written three times
    src = ("import warp as wp\n\n@wp.kernel\ndef k(x: wp.array(dtype=wp.vec3), r: float):\n"
           "    tid = wp.tid()\n    x[tid] = x[tid] - wp.vec3(2.0 * r) + wp.vec3(r, 0.0, r)\n")
    code = translate_kernel(src, "k").kernel_code
    assert "make_float3(2.0f * r)" in code and code.count("2.0f * r") == 1 and "make_float3(r, 0.0f, r)" in code
