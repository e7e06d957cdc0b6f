"""Staged stores (cuda_production/translator.py, stageable_arrays): a 1-D kernel's one top-level
`arr[tid] = value` of an array of 28-byte-or-larger elements (a transform, a mat33, ...) goes through
the block's shared memory and is copied out contiguously after a barrier; kernels where that would change the result keep the
plain store. Staged kernels run through Warp on the CPU and as their .cu under host emulation (the
emulator runs a block's threads as fibers, so the barrier is honoured)."""
import shutil

import pytest

from cuda_production.reference import warp_reference
from cuda_production.translator import translate_kernel
from tests.cuda_production.harness import arr, run_sample, spec, vec_value

N = 300  # a launch that is not a multiple of the 256-thread block: the last block copies out 44 elements

CASES = [
    spec("outer_scaled", '''
@wp.kernel
def outer_scaled(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.mat33),
                 trace_out: wp.array(dtype=float)):
    tid = wp.tid()
    m = wp.outer(a[tid], wp.cross(b[tid], a[tid]))
    out[tid] = 2.0625 * m
    trace_out[tid] = m[0, 0] + m[1, 1] + m[2, 2]
''', [arr("a", "vec3", shape=(N,)), arr("b", "vec3", shape=(N,)), arr("out", "mat33", "output", shape=(N,), bound=80.0),
      arr("trace_out", "float32", "output", shape=(N,), bound=40.0)], dim=(N,)),
    # reads its own element before the store (an inout array), and a 16-float element (padded stride 17)
    spec("blend44", '''
@wp.kernel
def blend44(a: wp.array(dtype=wp.mat44), out: wp.array(dtype=wp.mat44)):
    i = wp.tid()
    prev = out[i]
    out[i] = prev * 0.5 + wp.transpose(a[i])
''', [arr("a", "mat44", shape=(N,)), arr("out", "mat44", "inout", shape=(N,), bound=4.0)], dim=(N,)),
    spec("pick33d", '''
@wp.kernel
def pick33d(p: wp.array(dtype=wp.mat33d), q: wp.array(dtype=wp.mat33d), s: wp.array(dtype=wp.float64),
            out: wp.array(dtype=wp.mat33d), total: wp.array(dtype=wp.float64)):
    tid = wp.tid()
    m = p[tid]
    if s[tid] > wp.float64(0.0):
        m = q[tid]
    out[tid] = m
    total[tid] = m[0, 0] * s[tid] + m[2, 1]
''', [arr("p", "mat33d", shape=(N,)), arr("q", "mat33d", shape=(N,)), arr("s", "float64", shape=(N,)),
      arr("out", "mat33d", "output", shape=(N,)), arr("total", "float64", "output", shape=(N,), bound=8.0)], dim=(N,)),
    # a 28-byte transform: a body's frame composed with its parent's (odd width: stride 7)
    spec("compose_frames", '''
@wp.kernel
def compose_frames(X_wb: wp.array(dtype=wp.transform), parent: wp.transform, frames_out: wp.array(dtype=wp.transform),
                   points: wp.array(dtype=wp.vec3), x_world: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    X = wp.mul(parent, X_wb[tid])
    frames_out[tid] = X
    x_world[tid] = wp.transform_point(X, points[tid])
''', [arr("X_wb", "transform", shape=(N,)), vec_value("parent", "transform", (0.5, -0.25, 1.0, 0.0, 0.6, 0.0, 0.8)),
      arr("frames_out", "transform", "output", shape=(N,), bound=8.0), arr("points", "vec3", shape=(N,)),
      arr("x_world", "vec3", "output", shape=(N,), bound=16.0)], dim=(N,)),
    # the thread index only as a value (no `tid = wp.tid()`)
    spec("transpose_direct", '''
@wp.kernel
def transpose_direct(a: wp.array(dtype=wp.mat33), out: wp.array(dtype=wp.mat33)):
    out[wp.tid()] = wp.transpose(a[wp.tid()])
''', [arr("a", "mat33", shape=(N,)), arr("out", "mat33", "output", shape=(N,))], dim=(N,)),
]
BY_NAME = {c.name: c for c in CASES}


def kernel_code(case_source: str, name: str) -> str:
    return translate_kernel("import warp as wp\n" + case_source, name).kernel_code


@pytest.fixture(scope="module")
def warp_results():
    return warp_reference(CASES, "test_staged_stores_module")


def test_a_mat33_store_goes_through_shared_memory_and_out_contiguously():
    code = kernel_code(BY_NAME["outer_scaled"].source, "outer_scaled")
    assert "__shared__ float out_stage0[STAGE_THREADS * 9];" in code
    assert "if (tid < n) {" in code and "return;" not in code  # no thread skips the barrier
    assert code.index("out_stage0[threadIdx.x * 9 + 8] =") < code.index("__syncthreads();")
    assert "out_slice0[out_k0] = out_stage0[out_k0];" in code.split("__syncthreads();")[1]


def test_a_transform_store_is_staged_and_a_vec3_store_is_not():
    code = kernel_code(BY_NAME["compose_frames"].source, "compose_frames")
    assert "__shared__ float frames_out_stage0[STAGE_THREADS * 7];" in code
    assert "x_world_stage" not in code and "x_world[tid] = " in code


def test_an_even_element_width_is_padded_to_an_odd_stride():
    code = kernel_code(BY_NAME["blend44"].source, "blend44")
    assert "__shared__ float out_stage0[STAGE_THREADS * 17];" in code
    assert "out_stage0[out_k0 / 16 * 17 + out_k0 % 16]" in code


@pytest.mark.parametrize("name", list(BY_NAME))
def test_a_staged_kernel_equals_warp_on_the_cpu(tmp_path, warp_results, name):
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    run = run_sample(tmp_path, BY_NAME[name], warp_results[name])
    assert "STAGE_THREADS" in next(tmp_path.glob(f"{name}/*.cu")).read_text()
    assert run.passed, run.output


NOT_STAGED = {
    "in a branch": '''
    if a[tid][0, 0] > 0.0:
        out[tid] = a[tid]
''',
    "after an early return": '''
    if tid == 3:
        return
    out[tid] = a[tid]
''',
    "in a loop": '''
    for k in range(2):
        out[tid] = a[tid] * float(k)
''',
    "written twice": '''
    out[tid] = a[tid]
    out[tid] = a[tid] * 2.0
''',
    # `+=` on an array is Warp's atomic add (not translated for mat33); `*=` is a load and a store
    "updated in place": '''
    out[tid] *= 2.0
''',
    "read after the store": '''
    out[tid] = a[tid]
    total[tid] = out[tid][1, 1]
''',
    "another thread's element read": '''
    b = out[(tid + 1) % 8]
    out[tid] = a[tid] + b
''',
    "stored at another index": '''
    out[(tid + 1) % 8] = a[tid]
''',
    "passed to a helper": '''
    out[tid] = a[tid]
    poke(out, tid)
''',
}


@pytest.mark.parametrize("why", list(NOT_STAGED))
def test_a_store_the_rule_cannot_prove_safe_is_not_staged(why):
    source = ('''
@wp.func
def poke(m: wp.array(dtype=wp.mat33), i: int):
    m[i] = m[i] * 0.5


@wp.kernel
def k(a: wp.array(dtype=wp.mat33), out: wp.array(dtype=wp.mat33), total: wp.array(dtype=float)):
    tid = wp.tid()
''' + NOT_STAGED[why])
    code = kernel_code(source, "k")
    assert "__shared__" not in code and "__syncthreads" not in code and "STAGE_THREADS" not in code


def test_only_read_only_arrays_of_power_of_two_elements_are_restrict():
    """`__restrict__` on a read-only array whose element is a power of two bytes (a float, a vec4, a
    quat), none on a 12-byte vec3 or a 28-byte transform (on the H200 two frame kernels ran 13-23%
    slower with it, none faster) nor on a written array."""
    source = '''
@wp.kernel
def k(f: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), q: wp.array(dtype=wp.quat),
      x: wp.array(dtype=wp.transform), out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    out[tid] = wp.transform_point(x[tid], v[tid]) * f[tid] + wp.quat_rotate(q[tid], v[tid])
'''
    code = translate_kernel(source, "k", "restrict.py").kernel_code
    assert "const float* __restrict__ f" in code and "const quat* __restrict__ q" in code
    assert "const float3* v" in code and "const transform* x" in code and "float3* out" in code
