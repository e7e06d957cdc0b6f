// Matrix kernel (1-D launch 1024; mat22 elem)
// Standalone CUDA translation of the Warp kernel `mat_b8318ffa9b` (see mat_b8318ffa9b.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct mat22
{
    float m[2][2];  // row-major, like Warp's mat22
};

__device__ __forceinline__ mat22 operator+(const mat22& a, const mat22& b)
{
    mat22 r;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            r.m[i][j] = a.m[i][j] + b.m[i][j];
    return r;
}

__device__ __forceinline__ mat22 operator*(const mat22& a, const mat22& b)
{
    mat22 r;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < 2; ++k)
                sum = fmaf(a.m[i][k], b.m[k][j], sum);  // Warp accumulates with fma
            r.m[i][j] = sum;
        }
    return r;
}

__device__ __forceinline__ mat22 operator*(const mat22& a, float s)
{
    mat22 r;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            r.m[i][j] = a.m[i][j] * s;
    return r;
}

__device__ __forceinline__ mat22 operator*(float s, const mat22& a)
{
    return a * s;
}

__device__ __forceinline__ mat22 operator-(const mat22& a, const mat22& b)
{
    mat22 r;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            r.m[i][j] = a.m[i][j] - b.m[i][j];
    return r;
}

__device__ __forceinline__ mat22 outer(float2 a, float2 b)
{
    mat22 r;
    r.m[0][0] = a.x * b.x;
    r.m[0][1] = a.x * b.y;
    r.m[1][0] = a.y * b.x;
    r.m[1][1] = a.y * b.y;
    return r;
}

__global__ void mat_b8318ffa9b(
    const mat22* __restrict__ x,
    const float* __restrict__ u,
    float* dst,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    mat22 m1 = x[tid] + (1.0f * x[tid] + x[tid]);
    mat22 m2 = outer(make_float2(u[tid], fmaxf(u[tid], u[tid])), make_float2(u[tid], u[tid] + -2.25f)) * x[tid];
    mat22 m3 = m1 - m2;
    dst[tid] = m3.m[1][0];
}

// ---------------------------------------------------------------------------------------------
// Host side: deterministic inputs, a check against Warp's results, and timing.
// ---------------------------------------------------------------------------------------------

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            fprintf(stderr, "CUDA error at %s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
                    cudaGetErrorString(err_));                                             \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)

// Counter-based hash (lowbias32): input element i of argument `arg` is a pure function of
// (seed, arg, i), so the generator recomputes exactly the same inputs in Python for Warp.
static uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static uint32_t input_bits(uint32_t seed, uint32_t arg, uint32_t i)
{
    return mix32(mix32(seed + 0x9e3779b9U * (arg + 1U)) ^ i);
}

// Values on a grid: (lo + bits % span) * step, with step a power of two, so every value is exact.
static void fill_float(float* dst, size_t count, uint32_t seed, uint32_t arg, int lo, uint32_t span, float step)
{
    for (size_t i = 0; i < count; ++i)
        dst[i] = (float)(lo + (int)(input_bits(seed, arg, (uint32_t)i) % span)) * step;
}

struct CheckStats {
    double max_abs = 0.0;
    double max_rel = 0.0;
    double tolerance_used = 0.0;  // largest |error| / allowed error: above 1 is a mismatch
    size_t mismatches = 0;
};

static bool check_float(const char* name, const float* got, const float* want, size_t count,
                        float atol, float rtol, CheckStats& stats)
{
    size_t first_bad = count;
    for (size_t i = 0; i < count; ++i) {
        double diff = std::fabs((double)got[i] - (double)want[i]);
        double rel = diff / std::max(std::fabs((double)want[i]), 1e-30);
        bool same_nan = std::isnan(got[i]) && std::isnan(want[i]);
        double allowed = atol + rtol * std::fabs((double)want[i]);
        if (!same_nan) {
            stats.max_abs = std::max(stats.max_abs, diff);
            stats.tolerance_used = std::max(stats.tolerance_used, diff / allowed);
            if (diff > 0.0)
                stats.max_rel = std::max(stats.max_rel, rel);
        }
        if (!same_nan && !(diff <= allowed)) {
            if (first_bad == count)
                first_bad = i;
            ++stats.mismatches;
        }
    }
    if (first_bad < count)
        fprintf(stderr, "mismatch: %s[%zu] = %.9g, Warp computed %.9g\n", name, first_bad,
                got[first_bad], want[first_bad]);
    return first_bad == count;
}

static std::vector<char> read_file(const char* path)
{
    std::vector<char> data;
    FILE* f = fopen(path, "rb");
    if (!f)
        return data;
    char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
        data.insert(data.end(), buf, buf + got);
    fclose(f);
    return data;
}

int main(int argc, char** argv)
{
    int warmup = 10;
    int trials = 100;
    const char* expected_path = "expected.bin";
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
            warmup = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--trials") && i + 1 < argc)
            trials = std::max(1, atoi(argv[++i]));
        else if (!strcmp(argv[i], "--expected") && i + 1 < argc)
            expected_path = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--warmup N] [--trials N] [--expected FILE]\n", argv[0]);
            return 2;
        }
    }

    const uint32_t seed = 3563640302U;

    // Inputs (host)
    std::vector<float> h_x(4096);  // input, shape [1024] of mat22
    fill_float(h_x.data(), h_x.size(), seed, 0, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_u(1024);  // input, shape [1024] of float32
    fill_float(h_u.data(), h_u.size(), seed, 1, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_dst(1024);  // output, shape [1024] of float32

    // Device buffers
    mat22* d_x = nullptr;
    const size_t bytes_x = h_x.size() * sizeof(h_x[0]);
    CUDA_CHECK(cudaMalloc(&d_x, bytes_x));
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), bytes_x, cudaMemcpyHostToDevice));
    float* d_u = nullptr;
    const size_t bytes_u = h_u.size() * sizeof(h_u[0]);
    CUDA_CHECK(cudaMalloc(&d_u, bytes_u));
    CUDA_CHECK(cudaMemcpy(d_u, h_u.data(), bytes_u, cudaMemcpyHostToDevice));
    float* d_dst = nullptr;
    const size_t bytes_dst = h_dst.size() * sizeof(h_dst[0]);
    CUDA_CHECK(cudaMalloc(&d_dst, bytes_dst));
    CUDA_CHECK(cudaMemcpy(d_dst, h_dst.data(), bytes_dst, cudaMemcpyHostToDevice));

    const int n = 1024;
    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    mat_b8318ffa9b<<<grid, block>>>(d_x, d_u, d_dst, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_dst.data(), d_dst, bytes_dst, cudaMemcpyDeviceToHost));

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 4096) {
        fprintf(stderr, "%s: expected 4096 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_float("dst", h_dst.data(), reinterpret_cast<const float*>(expected.data() + 0), 1024,
                      0.00095f, 0.0001f, stats);
    printf("%s mat_b8318ffa9b: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing: warm-up launches, then one CUDA-event measurement per launch
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        mat_b8318ffa9b<<<grid, block>>>(d_x, d_u, d_dst, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        mat_b8318ffa9b<<<grid, block>>>(d_x, d_u, d_dst, n);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&times[t], start, stop));
    }
    CUDA_CHECK(cudaGetLastError());
    std::sort(times.begin(), times.end());
    double sum = 0.0;
    for (float t : times)
        sum += t;
    const double mean = sum / trials;
    const double median = trials % 2 ? times[trials / 2] : 0.5 * (times[trials / 2 - 1] + times[trials / 2]);
    const double p95 = times[std::min(trials - 1, (int)std::ceil(0.95 * trials) - 1)];
    printf("{\"kernel\": \"mat_b8318ffa9b\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_u));
    CUDA_CHECK(cudaFree(d_dst));
    return ok ? 0 : 1;
}
