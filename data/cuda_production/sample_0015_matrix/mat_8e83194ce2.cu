// Matrix kernel (1-D launch 1000; mat44 vec/mat)
// Standalone CUDA translation of the Warp kernel `mat_8e83194ce2` (see mat_8e83194ce2.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct mat44
{
    float m[4][4];  // row-major, like Warp's mat44
};

__device__ __forceinline__ mat44 operator*(const mat44& a, const mat44& b)
{
    mat44 r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < 4; ++k)
                sum = fmaf(a.m[i][k], b.m[k][j], sum);  // Warp accumulates with fma
            r.m[i][j] = sum;
        }
    return r;
}

__device__ __forceinline__ float4 operator*(const mat44& a, float4 b)
{
    return make_float4(a.m[0][0] * b.x + a.m[0][1] * b.y + a.m[0][2] * b.z + a.m[0][3] * b.w,
                       a.m[1][0] * b.x + a.m[1][1] * b.y + a.m[1][2] * b.z + a.m[1][3] * b.w,
                       a.m[2][0] * b.x + a.m[2][1] * b.y + a.m[2][2] * b.z + a.m[2][3] * b.w,
                       a.m[3][0] * b.x + a.m[3][1] * b.y + a.m[3][2] * b.z + a.m[3][3] * b.w);
}

__device__ __forceinline__ mat44 outer(float4 a, float4 b)
{
    mat44 r;
    r.m[0][0] = a.x * b.x;
    r.m[0][1] = a.x * b.y;
    r.m[0][2] = a.x * b.z;
    r.m[0][3] = a.x * b.w;
    r.m[1][0] = a.y * b.x;
    r.m[1][1] = a.y * b.y;
    r.m[1][2] = a.y * b.z;
    r.m[1][3] = a.y * b.w;
    r.m[2][0] = a.z * b.x;
    r.m[2][1] = a.z * b.y;
    r.m[2][2] = a.z * b.z;
    r.m[2][3] = a.z * b.w;
    r.m[3][0] = a.w * b.x;
    r.m[3][1] = a.w * b.y;
    r.m[3][2] = a.w * b.z;
    r.m[3][3] = a.w * b.w;
    return r;
}

__device__ __forceinline__ mat44 transpose(const mat44& a)
{
    mat44 r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = a.m[j][i];
    return r;
}

__global__ void mat_8e83194ce2(
    const mat44* __restrict__ b,
    const float4* __restrict__ w,
    const float4* __restrict__ x,
    float4* out,
    mat44* dst,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    mat44 m1 = transpose(b[tid] * b[tid] * outer(make_float4(0.6875f + -1.6875f, 2.25f + 2.1875f, fmaxf(2.5f, 1.3125f), -0.3125f - -1.8125f), x[tid]));
    out[tid] = m1 * w[tid];
    dst[tid] = m1;
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

    const uint32_t seed = 1045153685U;

    // Inputs (host)
    std::vector<float> h_b(16000);  // input, shape [1000] of mat44
    fill_float(h_b.data(), h_b.size(), seed, 0, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_w(4000);  // input, shape [1000] of vec4
    fill_float(h_w.data(), h_w.size(), seed, 1, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_x(4000);  // input, shape [1000] of vec4
    fill_float(h_x.data(), h_x.size(), seed, 2, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_out(4000);  // output, shape [1000] of vec4
    std::vector<float> h_dst(16000);  // output, shape [1000] of mat44

    // Device buffers
    mat44* d_b = nullptr;
    const size_t bytes_b = h_b.size() * sizeof(h_b[0]);
    CUDA_CHECK(cudaMalloc(&d_b, bytes_b));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes_b, cudaMemcpyHostToDevice));
    float4* d_w = nullptr;
    const size_t bytes_w = h_w.size() * sizeof(h_w[0]);
    CUDA_CHECK(cudaMalloc(&d_w, bytes_w));
    CUDA_CHECK(cudaMemcpy(d_w, h_w.data(), bytes_w, cudaMemcpyHostToDevice));
    float4* d_x = nullptr;
    const size_t bytes_x = h_x.size() * sizeof(h_x[0]);
    CUDA_CHECK(cudaMalloc(&d_x, bytes_x));
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), bytes_x, cudaMemcpyHostToDevice));
    float4* d_out = nullptr;
    const size_t bytes_out = h_out.size() * sizeof(h_out[0]);
    CUDA_CHECK(cudaMalloc(&d_out, bytes_out));
    CUDA_CHECK(cudaMemcpy(d_out, h_out.data(), bytes_out, cudaMemcpyHostToDevice));
    mat44* d_dst = nullptr;
    const size_t bytes_dst = h_dst.size() * sizeof(h_dst[0]);
    CUDA_CHECK(cudaMalloc(&d_dst, bytes_dst));
    CUDA_CHECK(cudaMemcpy(d_dst, h_dst.data(), bytes_dst, cudaMemcpyHostToDevice));

    const int n = 1000;
    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    mat_8e83194ce2<<<grid, block>>>(d_b, d_w, d_x, d_out, d_dst, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, bytes_out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_dst.data(), d_dst, bytes_dst, cudaMemcpyDeviceToHost));

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 80000) {
        fprintf(stderr, "%s: expected 80000 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_float("out", h_out.data(), reinterpret_cast<const float*>(expected.data() + 0), 4000,
                      0.0284f, 0.0001f, stats);
    ok &= check_float("dst", h_dst.data(), reinterpret_cast<const float*>(expected.data() + 16000), 16000,
                      0.0071f, 0.0001f, stats);
    printf("%s mat_8e83194ce2: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing: warm-up launches, then one CUDA-event measurement per launch
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        mat_8e83194ce2<<<grid, block>>>(d_b, d_w, d_x, d_out, d_dst, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        mat_8e83194ce2<<<grid, block>>>(d_b, d_w, d_x, d_out, d_dst, n);
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
    printf("{\"kernel\": \"mat_8e83194ce2\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_w));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_dst));
    return ok ? 0 : 1;
}
