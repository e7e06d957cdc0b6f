// Vector kernel (1-D launch 256; vec3)
// Standalone CUDA translation of the Warp kernel `vec_aadbeb725f` (see vec_aadbeb725f.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__device__ __forceinline__ float3 cross(float3 a, float3 b)
{
    return make_float3(a.y * b.z - a.z * b.y,
                       a.z * b.x - a.x * b.z,
                       a.x * b.y - a.y * b.x);
}

__device__ __forceinline__ float dot(float3 a, float3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

__device__ __forceinline__ float length(float3 a)
{
    return sqrtf(dot(a, a));
}

__device__ __forceinline__ float3 normalize(float3 a)
{
    // Warp returns the zero vector for a zero-length input
    float l = length(a);
    return l > 0.0f ? make_float3(a.x / l, a.y / l, a.z / l) : make_float3(0.0f, 0.0f, 0.0f);
}

__device__ __forceinline__ float3 max(float3 a, float3 b)
{
    return make_float3(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z));
}

__device__ __forceinline__ float3 operator-(float3 a)
{
    return make_float3(-a.x, -a.y, -a.z);
}

__device__ __forceinline__ float3 operator*(float3 a, float s)
{
    return make_float3(a.x * s, a.y * s, a.z * s);
}

__device__ __forceinline__ float3 operator*(float s, float3 a)
{
    return make_float3(s * a.x, s * a.y, s * a.z);
}

__device__ __forceinline__ float3 operator-(float3 a, float3 b)
{
    return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}

__global__ void vec_aadbeb725f(
    const float3* __restrict__ b,
    const float3* __restrict__ u,
    const float* __restrict__ w,
    float3* y_out,
    float* y_out2,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    float3 t1 = cross(u[tid], b[tid] * w[tid]) - max(u[tid] - b[tid], u[tid] - u[tid]);
    float3 t2 = max((w[tid] - w[tid]) * max(t1, t1), u[tid]);
    y_out[tid] = -normalize(t2);
    y_out2[tid] = dot(t1, make_float3(fabsf(w[tid]), w[tid], w[tid]));
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

    const uint32_t seed = 3750352679U;

    // Inputs (host)
    std::vector<float> h_b(768);  // input, shape [256] of vec3
    fill_float(h_b.data(), h_b.size(), seed, 0, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_u(768);  // input, shape [256] of vec3
    fill_float(h_u.data(), h_u.size(), seed, 1, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_w(256);  // input, shape [256] of float32
    fill_float(h_w.data(), h_w.size(), seed, 2, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_y_out(768);  // output, shape [256] of vec3
    std::vector<float> h_y_out2(256);  // output, shape [256] of float32

    // Device buffers
    float3* d_b = nullptr;
    const size_t bytes_b = h_b.size() * sizeof(h_b[0]);
    CUDA_CHECK(cudaMalloc(&d_b, bytes_b));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes_b, cudaMemcpyHostToDevice));
    float3* d_u = nullptr;
    const size_t bytes_u = h_u.size() * sizeof(h_u[0]);
    CUDA_CHECK(cudaMalloc(&d_u, bytes_u));
    CUDA_CHECK(cudaMemcpy(d_u, h_u.data(), bytes_u, cudaMemcpyHostToDevice));
    float* d_w = nullptr;
    const size_t bytes_w = h_w.size() * sizeof(h_w[0]);
    CUDA_CHECK(cudaMalloc(&d_w, bytes_w));
    CUDA_CHECK(cudaMemcpy(d_w, h_w.data(), bytes_w, cudaMemcpyHostToDevice));
    float3* d_y_out = nullptr;
    const size_t bytes_y_out = h_y_out.size() * sizeof(h_y_out[0]);
    CUDA_CHECK(cudaMalloc(&d_y_out, bytes_y_out));
    CUDA_CHECK(cudaMemcpy(d_y_out, h_y_out.data(), bytes_y_out, cudaMemcpyHostToDevice));
    float* d_y_out2 = nullptr;
    const size_t bytes_y_out2 = h_y_out2.size() * sizeof(h_y_out2[0]);
    CUDA_CHECK(cudaMalloc(&d_y_out2, bytes_y_out2));
    CUDA_CHECK(cudaMemcpy(d_y_out2, h_y_out2.data(), bytes_y_out2, cudaMemcpyHostToDevice));

    const int n = 256;
    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    vec_aadbeb725f<<<grid, block>>>(d_b, d_u, d_w, d_y_out, d_y_out2, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_y_out.data(), d_y_out, bytes_y_out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_y_out2.data(), d_y_out2, bytes_y_out2, cudaMemcpyDeviceToHost));

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 4096) {
        fprintf(stderr, "%s: expected 4096 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_float("y_out", h_y_out.data(), reinterpret_cast<const float*>(expected.data() + 0), 768,
                      0.0001f, 0.0001f, stats);
    ok &= check_float("y_out2", h_y_out2.data(), reinterpret_cast<const float*>(expected.data() + 3072), 256,
                      0.012f, 0.0001f, stats);
    printf("%s vec_aadbeb725f: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing: warm-up launches, then one CUDA-event measurement per launch
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        vec_aadbeb725f<<<grid, block>>>(d_b, d_u, d_w, d_y_out, d_y_out2, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        vec_aadbeb725f<<<grid, block>>>(d_b, d_u, d_w, d_y_out, d_y_out2, n);
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
    printf("{\"kernel\": \"vec_aadbeb725f\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_u));
    CUDA_CHECK(cudaFree(d_w));
    CUDA_CHECK(cudaFree(d_y_out));
    CUDA_CHECK(cudaFree(d_y_out2));
    return ok ? 0 : 1;
}
