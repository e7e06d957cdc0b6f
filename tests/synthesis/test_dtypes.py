"""The type registry: each entry agrees with Warp's own type and with numpy about size and layout."""
import numpy as np
import pytest
import warp as wp

from synthesis.dtypes import ALIASES, TYPES, dtype

ENTRIES = list(TYPES.values())


@pytest.mark.parametrize("t", ENTRIES, ids=[t.name for t in ENTRIES])
def test_entry_has_warps_size_and_component_count(t):
    warp_type = t.warp_type()
    assert wp.types.type_size_in_bytes(warp_type) == t.nbytes
    assert wp.types.type_size(warp_type) == t.width
    assert np.dtype(t.numpy_scalar).itemsize == t.component_bytes


@pytest.mark.parametrize("t", ENTRIES, ids=[t.name for t in ENTRIES])
def test_every_spelling_is_a_warp_attribute_naming_the_same_type(t):
    for spelling in t.spellings:
        if spelling in ("float", "int", "bool"):
            continue
        assert getattr(wp, spelling) is t.warp_type() or wp.types.types_equal(getattr(wp, spelling), t.warp_type())
        assert ALIASES[spelling] == t.name


def test_float64_types_are_doubles_in_cuda():
    assert dtype("wp.float64".removeprefix("wp.")).ctype == "double"
    assert dtype("vec3d").ctype == "double3" and dtype("vec3d").scalar == "float64"
    assert dtype("mat33d").component_ctype == "double"
    assert dtype("uint32").component_ctype == "uint32_t" and dtype("uint32").is_int
    assert dtype("float16").component_bytes == 2 and dtype("float16").is_float
    with pytest.raises(KeyError, match="unknown type 'float128'"):
        dtype("float128")
