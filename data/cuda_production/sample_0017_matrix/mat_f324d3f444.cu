// Matrix kernel (1-D launch 500; mat22 elem)
// Standalone CUDA translation of the Warp kernel `mat_f324d3f444` (see mat_f324d3f444.py); needs only the CUDA toolkit.
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

__device__ __forceinline__ mat22 outer(float2 a, float2 b)
{
    mat22 r;
    r.m[0][0] = a.x * b.x;
    r.m[0][1] = a.x * b.y;
    r.m[1][0] = a.y * b.x;
    r.m[1][1] = a.y * b.y;
    return r;
}

__global__ void mat_f324d3f444(
    const float2* __restrict__ q,
    const float2* __restrict__ a,
    float* output,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    mat22 m2 = outer(a[tid], q[tid]);
    mat22 m4 = m2;
    output[tid] = m4.m[1][1];
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

    const uint32_t seed = 274202806U;

    // Inputs (host)
    std::vector<float> h_q(1000);  // input, shape [500] of vec2
    fill_float(h_q.data(), h_q.size(), seed, 0, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_a(1000);  // input, shape [500] of vec2
    fill_float(h_a.data(), h_a.size(), seed, 1, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_output(500);  // output, shape [500] of float32

    // Device buffers
    float2* d_q = nullptr;
    const size_t bytes_q = h_q.size() * sizeof(h_q[0]);
    CUDA_CHECK(cudaMalloc(&d_q, bytes_q));
    CUDA_CHECK(cudaMemcpy(d_q, h_q.data(), bytes_q, cudaMemcpyHostToDevice));
    float2* d_a = nullptr;
    const size_t bytes_a = h_a.size() * sizeof(h_a[0]);
    CUDA_CHECK(cudaMalloc(&d_a, bytes_a));
    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), bytes_a, cudaMemcpyHostToDevice));
    float* d_output = nullptr;
    const size_t bytes_output = h_output.size() * sizeof(h_output[0]);
    CUDA_CHECK(cudaMalloc(&d_output, bytes_output));
    CUDA_CHECK(cudaMemcpy(d_output, h_output.data(), bytes_output, cudaMemcpyHostToDevice));

    const int n = 500;
    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    mat_f324d3f444<<<grid, block>>>(d_q, d_a, d_output, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_output.data(), d_output, bytes_output, cudaMemcpyDeviceToHost));

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 2000) {
        fprintf(stderr, "%s: expected 2000 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_float("output", h_output.data(), reinterpret_cast<const float*>(expected.data() + 0), 500,
                      0.0001f, 0.0001f, stats);
    printf("%s mat_f324d3f444: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing: warm-up launches, then one CUDA-event measurement per launch
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        mat_f324d3f444<<<grid, block>>>(d_q, d_a, d_output, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        mat_f324d3f444<<<grid, block>>>(d_q, d_a, d_output, n);
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
    printf("{\"kernel\": \"mat_f324d3f444\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_q));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_output));
    return ok ? 0 : 1;
}
