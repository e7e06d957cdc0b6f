"""Run a sample's own .cu on the CPU, to prove it equal to Warp on machines without a GPU.

A stand-in `cuda_runtime.h` turns the CUDA constructs the translator emits into plain C++: thread
indices become globals that a launch loops over (one thread at a time, which is a valid schedule
of any kernel without barriers), atomics become plain read-modify-writes, the runtime API becomes
malloc/memcpy. A kernel with barriers (`__syncthreads()`: tiles) cannot run one thread at a time:
there (EMU_COOPERATIVE) each thread of a block is a fiber (ucontext) with its own stack, blocks one
after another; the block runs in rounds, every live thread to its next `__syncthreads()` or its end
(an exited thread no longer counts, as in CUDA), so a barrier completes when every thread of the
block has reached it. `__shared__` storage is `static` (one block at a time uses it); the fibers
share one OS thread, so atomics stay plain read-modify-writes. The only edit to the .cu itself is `k<<<grid, block>>>(args)` ->
`emu_launch(k, grid, block, args)`. Everything else, main() with its input hashing and its check
against expected.bin included, is the shipped file, compiled by g++.

This is tooling for tests and scripts; the shipped sample never includes it.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

EMULATION_HEADER = r'''// Host emulation of the CUDA runtime for equivalence tests (not part of any sample).
#pragma once
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
#define __constant__

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

#ifdef EMU_COOPERATIVE
#include <memory>
#include <ucontext.h>
// Not `static`: the compiler must assume a fiber switch (an external call) changes them.
inline dim3 threadIdx, blockIdx;
struct EmuFiber {
    ucontext_t context;
    dim3 thread;
    bool done = false;
};
inline ucontext_t emu_scheduler;
inline EmuFiber* emu_running = nullptr;
inline std::function<void()> emu_block_body;
inline void __syncthreads() { swapcontext(&emu_running->context, &emu_scheduler); }
inline void emu_fiber_main()
{
    emu_block_body();
    emu_running->done = true;  // returning resumes the scheduler (uc_link)
}
#else
static dim3 threadIdx, blockIdx;
#endif
static dim3 blockDim, gridDim;

#ifdef EMU_COOPERATIVE
// Warp shuffles: every thread of the block calls them at once (the translator shuffles in uniform code
// only). Each thread stores its value, a round, each reads thread `other`'s (its own where `inside` is
// false), a round: no value is overwritten before every thread has read it.
inline unsigned emu_thread() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned emu_threads() { return blockDim.x * blockDim.y * blockDim.z; }
template <typename T> inline T emu_exchange(T value, unsigned other, bool inside)
{
    static std::vector<T> slots;
    if (slots.size() < emu_threads())
        slots.resize(emu_threads());
    slots[emu_thread()] = value;
    __syncthreads();
    const T out = inside ? slots[other] : value;
    __syncthreads();
    return out;
}
// A lane's value `delta` lanes down its warp (its own where that lane is past the warp or the block).
template <typename T> inline T __shfl_down_sync(unsigned, T value, unsigned delta)
{
    const unsigned t = emu_thread();
    return emu_exchange(value, t + delta, (t % 32u) + delta < 32u && t + delta < emu_threads());
}
// A lane's value `delta` lanes up its warp (its own for the warp's first `delta` lanes).
template <typename T> inline T __shfl_up_sync(unsigned, T value, unsigned delta)
{
    const unsigned t = emu_thread();
    return emu_exchange(value, t - delta, t % 32u >= delta);
}
// The value of lane (own lane ^ mask) of the warp.
template <typename T> inline T __shfl_xor_sync(unsigned, T value, int mask)
{
    const unsigned other = emu_thread() ^ unsigned(mask);
    return emu_exchange(value, other, other < emu_threads());
}
#endif

struct float2 { float x, y; };
struct float3 { float x, y, z; };
struct float4 { float x, y, z, w; };
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float3 make_float3(float x, float y, float z) { return {x, y, z}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }

inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }

inline float atomicAdd(float* p, float v) { float old = *p; *p = old + v; return old; }
inline int atomicAdd(int* p, int v) { int old = *p; *p = old + v; return old; }
inline int atomicSub(int* p, int v) { int old = *p; *p = old - v; return old; }
inline int atomicMin(int* p, int v) { int old = *p; *p = old < v ? old : v; return old; }
inline int atomicMax(int* p, int v) { int old = *p; *p = old > v ? old : v; return old; }
inline int atomicCAS(int* p, int compare, int v) { int old = *p; if (old == compare) *p = v; return old; }
inline int atomicOr(int* p, int v) { int old = *p; *p = old | v; return old; }
inline int atomicAnd(int* p, int v) { int old = *p; *p = old & v; return old; }
inline int atomicXor(int* p, int v) { int old = *p; *p = old ^ v; return old; }
inline unsigned atomicAdd(unsigned* p, unsigned v) { unsigned old = *p; *p = old + v; return old; }
inline unsigned atomicSub(unsigned* p, unsigned v) { unsigned old = *p; *p = old - v; return old; }
inline unsigned atomicMin(unsigned* p, unsigned v) { unsigned old = *p; *p = old < v ? old : v; return old; }
inline unsigned atomicMax(unsigned* p, unsigned v) { unsigned old = *p; *p = old > v ? old : v; return old; }
inline unsigned atomicOr(unsigned* p, unsigned v) { unsigned old = *p; *p = old | v; return old; }
inline unsigned atomicAnd(unsigned* p, unsigned v) { unsigned old = *p; *p = old & v; return old; }
inline unsigned atomicXor(unsigned* p, unsigned v) { unsigned old = *p; *p = old ^ v; return old; }
inline int atomicExch(int* p, int v) { int old = *p; *p = v; return old; }
inline float atomicExch(float* p, float v) { float old = *p; *p = v; return old; }
inline int __float_as_int(float f) { int i; std::memcpy(&i, &f, 4); return i; }
inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, 4); return f; }
// A read-only load (through the texture cache on a GPU); by memcpy: a BvhNode is read as two float4s
template <typename T> inline T __ldg(const T* p) { T v; std::memcpy(&v, p, sizeof(T)); return v; }
inline unsigned __brev(unsigned v) { unsigned r = 0; for (int i = 0; i < 32; ++i, v >>= 1) r = (r << 1) | (v & 1u); return r; }

// float64: CUDA's double vectors and double atomics
struct double2 { double x, y; };
struct double3 { double x, y, z; };
struct double4 { double x, y, z, w; };
inline double2 make_double2(double x, double y) { return {x, y}; }
inline double3 make_double3(double x, double y, double z) { return {x, y, z}; }
inline double4 make_double4(double x, double y, double z, double w) { return {x, y, z, w}; }
inline double atomicAdd(double* p, double v) { double old = *p; *p = old + v; return old; }
inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long compare, unsigned long long v)
{
    unsigned long long old = *p; if (old == compare) *p = v; return old;
}
inline long long __double_as_longlong(double d) { long long i; std::memcpy(&i, &d, 8); return i; }
inline double __longlong_as_double(long long i) { double d; std::memcpy(&d, &i, 8); return d; }

// Warp-level intrinsics: each emulated thread runs alone, so it is the only lane of its warp that is
// active; a warp-aggregated atomic then combines a lane's own value and does its own atomic.
inline unsigned emu_lane() { return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u; }
inline unsigned __activemask() { return 1u << emu_lane(); }
inline unsigned __match_any_sync(unsigned mask, unsigned long long) { return mask & (1u << emu_lane()); }
template <typename T> inline T __shfl_sync(unsigned, T value, int) { return value; }
inline int __ffs(unsigned x) { return x ? __builtin_ctz(x) + 1 : 0; }

typedef int cudaError_t;
static const cudaError_t cudaSuccess = 0;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
template <class T> cudaError_t cudaMalloc(T** p, size_t n) { *p = static_cast<T*>(std::calloc(n ? n : 1, 1)); return 0; }
inline cudaError_t cudaFree(void* p) { std::free(p); return 0; }
inline cudaError_t cudaMemcpy(void* d, const void* s, size_t n, cudaMemcpyKind) { std::memcpy(d, s, n); return 0; }
inline cudaError_t cudaMemset(void* d, int v, size_t n) { std::memset(d, v, n); return 0; }
inline cudaError_t cudaGetLastError() { return 0; }
inline cudaError_t cudaDeviceSynchronize() { return 0; }
inline const char* cudaGetErrorString(cudaError_t) { return "emulated"; }

// Streams are one in-order queue, run at once; a graph records the launches made while its
// stream was being captured and replays them on cudaGraphLaunch.
struct EmuStream {};
typedef EmuStream* cudaStream_t;
struct EmuGraph { std::vector<std::function<void()>> launches; };
typedef EmuGraph* cudaGraph_t;
typedef EmuGraph* cudaGraphExec_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed };
static EmuGraph* emu_capturing = nullptr;
inline cudaError_t cudaStreamCreate(cudaStream_t* s) { *s = new EmuStream(); return 0; }
inline cudaError_t cudaStreamDestroy(cudaStream_t s) { delete s; return 0; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return 0; }
inline cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode) { emu_capturing = new EmuGraph(); return 0; }
inline cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t* g) { *g = emu_capturing; emu_capturing = nullptr; return 0; }
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* e, cudaGraph_t g, unsigned long long) { *e = g; return 0; }
inline cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t) { for (auto& f : e->launches) f(); return 0; }
inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t) { return 0; }
inline cudaError_t cudaGraphDestroy(cudaGraph_t g) { delete g; return 0; }

struct EmuEvent { std::chrono::steady_clock::time_point t; };
typedef EmuEvent* cudaEvent_t;
inline cudaError_t cudaEventCreate(cudaEvent_t* e) { *e = new EmuEvent(); return 0; }
inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return 0; }
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr) { e->t = std::chrono::steady_clock::now(); return 0; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return 0; }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b)
{
    *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count();
    return 0;
}

// A made-up device: 1 GHz memory clock, 64-bit bus (16 GB/s peak), so the bench figures are defined.
struct cudaDeviceProp { char name[256]; };
enum cudaDeviceAttr { cudaDevAttrMemoryClockRate, cudaDevAttrGlobalMemoryBusWidth };
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int)
{
    std::strcpy(prop->name, "host emulation");
    return 0;
}
inline cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int)
{
    *value = attr == cudaDevAttrMemoryClockRate ? 1000000 : 64;
    return 0;
}

// The launch configuration `<<<grid, block[, shared_bytes, stream]>>>`.
struct EmuConfig {
    dim3 grid, block;
    size_t shared_bytes = 0;
    cudaStream_t stream = nullptr;
};

template <class Kernel, class... Args>
void emu_run(Kernel kernel, dim3 grid, dim3 block, Args... args)
{
    gridDim = grid;
    blockDim = block;
#ifdef EMU_COOPERATIVE
    // Each block in turn; its threads are fibers run in rounds, each to its next barrier or its end.
    const unsigned threads = block.x * block.y * block.z;
    const unsigned long blocks = (unsigned long)grid.x * grid.y * grid.z;
    const size_t stack_bytes = 128 * 1024;
    std::unique_ptr<char[]> stacks(new char[stack_bytes * threads]);
    std::vector<EmuFiber> fibers(threads);
    emu_block_body = [&] { kernel(args...); };
    for (unsigned long b = 0; b < blocks; ++b) {
        blockIdx = dim3(b % grid.x, (b / grid.x) % grid.y, b / ((unsigned long)grid.x * grid.y));
        for (unsigned t = 0; t < threads; ++t) {
            EmuFiber& f = fibers[t];
            f.thread = dim3(t % block.x, (t / block.x) % block.y, t / (block.x * block.y));
            f.done = false;
            getcontext(&f.context);
            f.context.uc_stack.ss_sp = stacks.get() + stack_bytes * t;
            f.context.uc_stack.ss_size = stack_bytes;
            f.context.uc_link = &emu_scheduler;
            makecontext(&f.context, emu_fiber_main, 0);
        }
        for (bool live = true; live;) {
            live = false;
            for (EmuFiber& f : fibers) {
                if (f.done)
                    continue;
                threadIdx = f.thread;
                emu_running = &f;
                swapcontext(&emu_scheduler, &f.context);
                live = live || !f.done;
            }
        }
    }
    emu_running = nullptr;
    return;
#endif
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx)
                for (unsigned tz = 0; tz < block.z; ++tz)
                    for (unsigned ty = 0; ty < block.y; ++ty)
                        for (unsigned tx = 0; tx < block.x; ++tx) {
                            blockIdx = dim3(bx, by, bz);
                            threadIdx = dim3(tx, ty, tz);
                            kernel(args...);
                        }
}

template <class Kernel, class... Args>
void emu_launch(Kernel kernel, EmuConfig config, Args... args)
{
    if (emu_capturing)
        emu_capturing->launches.push_back([=] { emu_run(kernel, config.grid, config.block, args...); });
    else
        emu_run(kernel, config.grid, config.block, args...);
}
'''

# cuda_fp16.h on the host: __half as its 16 bits, converted to and from float with round to nearest
# even (as __float2half); no arithmetic on __half values themselves (the translator emits none).
FP16_HEADER = r'''// Host emulation of cuda_fp16.h for equivalence tests (not part of any sample).
#pragma once
#include <cstdint>
#include <cstring>

struct __half { uint16_t bits; };

inline float __half2float(__half h)
{
    uint32_t sign = (uint32_t)(h.bits & 0x8000u) << 16, exp = (h.bits >> 10) & 0x1fu, mant = h.bits & 0x3ffu, f;
    if (exp == 0x1fu)
        f = sign | 0x7f800000u | (mant << 13);
    else if (exp != 0)
        f = sign | ((exp + 112u) << 23) | (mant << 13);
    else if (mant == 0)
        f = sign;
    else {  // subnormal: normalise
        int e = -1;
        do { ++e; mant <<= 1; } while (!(mant & 0x400u));
        f = sign | ((uint32_t)(112 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
    float out;
    std::memcpy(&out, &f, 4);
    return out;
}

inline __half __float2half(float value)
{
    uint32_t x;
    std::memcpy(&x, &value, 4);
    uint32_t sign = (x >> 16) & 0x8000u, abs_x = x & 0x7fffffffu;
    uint16_t bits;
    if (abs_x >= 0x7f800000u)  // inf, nan
        bits = (uint16_t)(sign | 0x7c00u | (abs_x > 0x7f800000u ? 0x200u : 0u));
    else if (abs_x >= 0x477ff000u)  // rounds to beyond the largest half
        bits = (uint16_t)(sign | 0x7c00u);
    else if (abs_x < 0x38800000u) {  // subnormal half (or zero)
        float magnitude;
        uint32_t a = abs_x;
        std::memcpy(&magnitude, &a, 4);
        float scaled = magnitude * 16777216.0f;  // / 2^-24, exact; round to nearest even below
        uint32_t q = (uint32_t)scaled;
        float rest = scaled - (float)q;
        if (rest > 0.5f || (rest == 0.5f && (q & 1u)))
            ++q;
        bits = (uint16_t)(sign | q);
    } else {
        uint32_t mant = abs_x & 0x7fffffu, exp = (abs_x >> 23) - 112u;
        uint32_t h = (exp << 10) | (mant >> 13), rest = mant & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
            ++h;
        bits = (uint16_t)(sign | h);
    }
    return __half{bits};
}

inline __half __double2half(double value) { return __float2half((float)value); }
'''

# cuda_bf16.h on the host: __nv_bfloat16 as its 16 bits (float32's upper half), converted from float with
# round to nearest even (as __float2bfloat16 and Warp's float_to_bfloat16); no arithmetic on the values.
BF16_HEADER = r'''// Host emulation of cuda_bf16.h for equivalence tests (not part of any sample).
#pragma once
#include <cstdint>
#include <cstring>

struct __nv_bfloat16 { uint16_t bits; };

inline float __bfloat162float(__nv_bfloat16 h)
{
    uint32_t f = (uint32_t)h.bits << 16;
    float out;
    std::memcpy(&out, &f, 4);
    return out;
}

inline __nv_bfloat16 __float2bfloat16(float value)
{
    uint32_t x;
    std::memcpy(&x, &value, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)  // nan: kept quiet
        return __nv_bfloat16{(uint16_t)((x >> 16) | 0x40u)};
    return __nv_bfloat16{(uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16)};
}

inline __nv_bfloat16 __double2bfloat16(double value) { return __float2bfloat16((float)value); }
'''

# mma.h (nvcuda::wmma) on the host. On a GPU a fragment's elements are spread over the 32 lanes of a warp
# in an unspecified order; here every lane holds the whole block, in row-major order, and multiplies
# it alone (float products of the 16-bit values, summed in float along k). All lanes load and compute; only
# lane 0 of each warp stores, so that a lane run after it (the fibers of a block run one after another
# between barriers) cannot add its product to a block that lane 0 has already updated.
MMA_HEADER = r'''// Host emulation of mma.h (nvcuda::wmma) for equivalence tests (not part of any sample).
#pragma once
#include <type_traits>
#include "cuda_runtime.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"

namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

// The rows and columns of a fragment of an M x N x K product: a is M x K, b is K x N, the accumulator M x N.
template <typename Use, int M, int N, int K> struct emu_dims { enum { rows = M, cols = N }; };
template <int M, int N, int K> struct emu_dims<matrix_a, M, N, K> { enum { rows = M, cols = K }; };
template <int M, int N, int K> struct emu_dims<matrix_b, M, N, K> { enum { rows = K, cols = N }; };

template <typename Use, int M, int N, int K, typename T, typename Layout = void>
struct fragment {
    enum { rows = emu_dims<Use, M, N, K>::rows, cols = emu_dims<Use, M, N, K>::cols, num_elements = rows * cols };
    T x[rows * cols];  // element (r, c) at x[r * cols + c]
};

inline float emu_float(float v) { return v; }
inline float emu_float(__half v) { return __half2float(v); }
inline float emu_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename F, typename T>
inline void emu_load(F& f, const T* p, unsigned ldm, bool row_major_memory)
{
    for (int r = 0; r < F::rows; ++r)
        for (int c = 0; c < F::cols; ++c)
            f.x[r * F::cols + c] = row_major_memory ? p[r * ldm + c] : p[c * ldm + r];
}

template <typename Use, int M, int N, int K, typename T, typename Layout>
inline void load_matrix_sync(fragment<Use, M, N, K, T, Layout>& f, const T* p, unsigned ldm)
{
    emu_load(f, p, ldm, std::is_same<Layout, row_major>::value);
}

template <int M, int N, int K>
inline void load_matrix_sync(fragment<accumulator, M, N, K, float>& f, const float* p, unsigned ldm, layout_t layout)
{
    emu_load(f, p, ldm, layout == mem_row_major);
}

template <int M, int N, int K>
inline void store_matrix_sync(float* p, const fragment<accumulator, M, N, K, float>& f, unsigned ldm, layout_t layout)
{
    if ((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u != 0)
        return;  // lane 0 of each warp stores (see host_check.MMA_HEADER)
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c)
            (layout == mem_row_major ? p[r * ldm + c] : p[c * ldm + r]) = f.x[r * N + c];
}

template <typename Use, int M, int N, int K, typename T, typename Layout>
inline void fill_fragment(fragment<Use, M, N, K, T, Layout>& f, T value)
{
    for (int i = 0; i < fragment<Use, M, N, K, T, Layout>::num_elements; ++i)
        f.x[i] = value;
}

template <int M, int N, int K, typename T, typename LayoutA, typename LayoutB>
inline void mma_sync(fragment<accumulator, M, N, K, float>& d, const fragment<matrix_a, M, N, K, T, LayoutA>& a,
                     const fragment<matrix_b, M, N, K, T, LayoutB>& b, const fragment<accumulator, M, N, K, float>& c)
{
    float out[M * N];
    for (int r = 0; r < M; ++r)
        for (int col = 0; col < N; ++col) {
            float sum = c.x[r * N + col];
            for (int k = 0; k < K; ++k)
                sum += emu_float(a.x[r * K + k]) * emu_float(b.x[k * N + col]);
            out[r * N + col] = sum;
        }
    for (int i = 0; i < M * N; ++i)
        d.x[i] = out[i];
}
}  // namespace wmma
}  // namespace nvcuda
'''

_LAUNCH = re.compile(r"(\w+)<<<([^;]*?)>>>\(")


@dataclass
class HostRun:
    compiled: bool
    passed: bool
    returncode: int
    output: str


def rewrite_launches(cu_source: str) -> str:
    return _LAUNCH.sub(r"emu_launch(\1, EmuConfig{\2}, ", cu_source)


def compile_host(cu_path: Path, binary: Path, workdir: Path,
                 extra_flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """The .cu as a host program (g++, the emulation headers); `extra_flags` e.g. a sanitizer's."""
    include = workdir / "include"
    include.mkdir(exist_ok=True)
    (include / "cuda_runtime.h").write_text(EMULATION_HEADER)
    (include / "cuda_fp16.h").write_text(FP16_HEADER)
    (include / "cuda_bf16.h").write_text(BF16_HEADER)
    (include / "mma.h").write_text(MMA_HEADER)
    source = workdir / (cu_path.stem + ".cpp")
    text = rewrite_launches(cu_path.read_text())
    # barriers or shuffles: each block's threads run as fibers (a shuffle exchanges values between them)
    cooperative = any(f in text for f in ("__syncthreads", "__shfl_down_sync", "__shfl_up_sync", "__shfl_xor_sync"))
    source.write_text(("#define EMU_COOPERATIVE 1\n" if cooperative else "") + text)
    # printf format mismatches and reads of uninitialised variables are errors: both compile
    # silently into wrong behaviour otherwise.
    flags = ["-Wformat", "-Werror=format", "-Werror=return-type", "-Werror=uninitialized", "-Werror=maybe-uninitialized"]
    return subprocess.run(["g++", "-std=c++17", "-O1", *flags, *extra_flags, f"-I{include}", str(source), "-o", str(binary)],
                          capture_output=True, text=True)


CHECK_ARGS = ("--warmup", "0", "--trials", "1")


# Any read or write outside an allocation, and any undefined behaviour, ends the run with an error
# (UBSan alone would print and go on)
SANITIZED = ("-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g")


def run_on_host(sample_dir: Path, cu_name: str | None = None, timeout: float = 120,
                run_args: tuple[str, ...] = CHECK_ARGS, compile_flags: tuple[str, ...] = ()) -> HostRun:
    """Compile `sample_dir`'s .cu for the host and run it there (in `sample_dir`, as `make check` does)
    with `run_args` (e.g. `--bench --bench-dim 64` for a small emulated benchmark); `compile_flags`
    e.g. SANITIZED."""
    sample_dir = Path(sample_dir)
    cu_path = sample_dir / cu_name if cu_name else next(sample_dir.glob("*.cu"))
    if shutil.which("g++") is None:
        raise RuntimeError("g++ not found: the host equivalence check needs a C++17 compiler")
    with tempfile.TemporaryDirectory(prefix="hostcheck_") as tmp:
        work = Path(tmp)
        binary = work / cu_path.stem
        build = compile_host(cu_path, binary, work, compile_flags)
        if build.returncode != 0:
            return HostRun(False, False, build.returncode, build.stderr)
        try:
            proc = subprocess.run([str(binary), *run_args], cwd=sample_dir,
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return HostRun(True, False, -1, f"timed out after {timeout} s")
        out = proc.stdout + proc.stderr
        return HostRun(True, proc.returncode == 0 and "PASS" in proc.stdout, proc.returncode, out)
