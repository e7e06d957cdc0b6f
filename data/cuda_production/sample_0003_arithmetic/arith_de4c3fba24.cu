// Float arithmetic kernel (3-D launch 8x4x8; ops abs, add, div_const, mul, sub)
// Standalone CUDA translation of the Warp kernel `arith_de4c3fba24` (see arith_de4c3fba24.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void arith_de4c3fba24(
    const float* __restrict__ a,
    int a_dim1,
    int a_dim2,
    const float* __restrict__ y,
    int y_dim1,
    int y_dim2,
    float* output,
    int output_dim1,
    int output_dim2,
    int dim0,
    int dim1,
    int dim2)
{
    const int i = blockIdx.z * blockDim.z + threadIdx.z;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= dim0 || j >= dim1 || k >= dim2)
        return;

    float v1 = (float)i;
    output[(i * output_dim1 + j) * output_dim2 + k] = y[(i * y_dim1 + j) * y_dim2 + k] + a[(i * a_dim1 + j) * a_dim2 + k] - v1;
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

    const uint32_t seed = 3364281374U;

    // Inputs (host)
    std::vector<float> h_a(256);  // input, shape [8, 4, 8] of float32
    fill_float(h_a.data(), h_a.size(), seed, 0, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_y(256);  // input, shape [8, 4, 8] of float32
    fill_float(h_y.data(), h_y.size(), seed, 1, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_output(256);  // output, shape [8, 4, 8] of float32

    // Device buffers
    float* d_a = nullptr;
    const size_t bytes_a = h_a.size() * sizeof(h_a[0]);
    CUDA_CHECK(cudaMalloc(&d_a, bytes_a));
    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), bytes_a, cudaMemcpyHostToDevice));
    float* d_y = nullptr;
    const size_t bytes_y = h_y.size() * sizeof(h_y[0]);
    CUDA_CHECK(cudaMalloc(&d_y, bytes_y));
    CUDA_CHECK(cudaMemcpy(d_y, h_y.data(), bytes_y, cudaMemcpyHostToDevice));
    float* d_output = nullptr;
    const size_t bytes_output = h_output.size() * sizeof(h_output[0]);
    CUDA_CHECK(cudaMalloc(&d_output, bytes_output));
    CUDA_CHECK(cudaMemcpy(d_output, h_output.data(), bytes_output, cudaMemcpyHostToDevice));

    const int dim0 = 8;
    const int dim1 = 4;
    const int dim2 = 8;
    const dim3 block(8, 8, 4);
    const dim3 grid((dim2 + block.x - 1) / block.x, (dim1 + block.y - 1) / block.y, (dim0 + block.z - 1) / block.z);

    // Run once and check the results
    arith_de4c3fba24<<<grid, block>>>(d_a, 4, 8, d_y, 4, 8, d_output, 4, 8, dim0, dim1, dim2);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_output.data(), d_output, bytes_output, cudaMemcpyDeviceToHost));

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 1024) {
        fprintf(stderr, "%s: expected 1024 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_float("output", h_output.data(), reinterpret_cast<const float*>(expected.data() + 0), 256,
                      0.0012000000000000001f, 0.0001f, stats);
    printf("%s arith_de4c3fba24: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing: warm-up launches, then one CUDA-event measurement per launch
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        arith_de4c3fba24<<<grid, block>>>(d_a, 4, 8, d_y, 4, 8, d_output, 4, 8, dim0, dim1, dim2);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        arith_de4c3fba24<<<grid, block>>>(d_a, 4, 8, d_y, 4, 8, d_output, 4, 8, dim0, dim1, dim2);
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
    printf("{\"kernel\": \"arith_de4c3fba24\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFree(d_output));
    return ok ? 0 : 1;
}
