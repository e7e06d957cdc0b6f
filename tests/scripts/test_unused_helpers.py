"""scripts/unused_helpers.py: what a program defines and never uses, on planted programs."""
from scripts.unused_helpers import unused_definitions

PROGRAM = """
struct mat22
{
    float m[2][2];  // mat33 is named only in this comment
};

struct mat33
{
    float m[3][3];
};

constexpr int LEAF_SIZE = 2;

__device__ __forceinline__ float twice(float x)
{
    return x + x;  // twice(x) in a comment is not a use
}

__device__ __forceinline__ uint32_t randu(uint32_t& state)
{
    return state;
}

__device__ __forceinline__ uint32_t randu(uint32_t& state, uint32_t lo, uint32_t hi)
{
    return randu(state) % (hi - lo) + lo;
}

__device__ __forceinline__ float2 operator+(float2 a, float2 b)
{
    return make_float2(a.x + b.x, a.y + b.y);
}

template <int N>
__device__ void scan(float* x)
{
    x[0] += N;
}

__global__ void k(mat22* out, uint32_t* s, float* x)
{
    scan<4>(x);
    s[0] = randu(s[0], 0u, 4u);
    out[0].m[0][0] = 1.0f;
}

int main()
{
    k<<<1, 1>>>(nullptr, nullptr, nullptr);
    return 0;
}
"""


def test_a_struct_constant_and_function_nothing_uses_are_listed():
    assert sorted(unused_definitions(PROGRAM)) == ["LEAF_SIZE", "mat33", "twice"]


def test_an_overload_is_used_only_by_a_call_with_its_number_of_arguments():
    # randu/1 is called inside randu/3, which the kernel calls: both used
    assert not [n for n in unused_definitions(PROGRAM) if n.startswith("randu")]
    only_three = PROGRAM.replace("return randu(state) % (hi - lo) + lo;", "return state % (hi - lo) + lo;")
    assert "randu/1" in unused_definitions(only_three)


def test_used_definitions_templates_and_operators_are_not_listed():
    uses = PROGRAM.replace("out[0].m[0][0] = 1.0f;", "out[0].m[0][0] = twice((float)LEAF_SIZE); mat33 unused_m;")
    assert unused_definitions(uses) == []
    assert "scan" not in unused_definitions(PROGRAM) and "main" not in unused_definitions(PROGRAM)


def test_a_template_called_with_explicit_arguments_is_used_and_one_never_called_is_not():
    assert "scan" in unused_definitions(PROGRAM.replace("scan<4>(x);", ""))


def test_nvcc_warns_about_a_local_never_read_and_not_about_a_clean_program():
    import shutil

    import pytest

    from scripts.unused_helpers import compiler_warnings

    if shutil.which("nvcc") is None:
        pytest.skip("nvcc not installed")
    clean = "__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n"
    unused = "__global__ void k(float* x) { const int row = threadIdx.x / 16; x[threadIdx.x] *= 2.0f; }\n"
    assert compiler_warnings(clean) == []
    assert compiler_warnings(unused) == ['warning #177-D: variable "X" was declared but never referenced']
