// Integer arithmetic kernel (1-D launch 64; int32 / // % semantics)
// Standalone CUDA translation of the Warp kernel `arith_b1d6d23a69` (see arith_b1d6d23a69.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void arith_b1d6d23a69(
    const int* __restrict__ w,
    const int* __restrict__ u,
    int* output,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    output[tid] = u[tid] - tid - w[tid] / -3 + w[tid] / 5;
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

static void fill_int(int* dst, size_t count, uint32_t seed, uint32_t arg, int lo, uint32_t span)
{
    for (size_t i = 0; i < count; ++i)
        dst[i] = lo + (int)(input_bits(seed, arg, (uint32_t)i) % span);
}

struct CheckStats {
    double max_abs = 0.0;
    double max_rel = 0.0;
    double tolerance_used = 0.0;  // largest |error| / allowed error: above 1 is a mismatch
    size_t mismatches = 0;
};

static bool check_int(const char* name, const int* got, const int* want, size_t count, CheckStats& stats)
{
    size_t first_bad = count;
    for (size_t i = 0; i < count; ++i) {
        double diff = std::fabs((double)got[i] - (double)want[i]);
        stats.max_abs = std::max(stats.max_abs, diff);
        if (got[i] != want[i]) {
            if (first_bad == count)
                first_bad = i;
            ++stats.mismatches;
        }
    }
    if (first_bad < count)
        fprintf(stderr, "mismatch: %s[%zu] = %d, Warp computed %d\n", name, first_bad, got[first_bad], want[first_bad]);
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

    const uint32_t seed = 2000529259U;

    // Inputs (host)
    std::vector<int> h_w(64);  // input, shape [64] of int32
    fill_int(h_w.data(), h_w.size(), seed, 0, -100, 201U);
    std::vector<int> h_u(64);  // input, shape [64] of int32
    fill_int(h_u.data(), h_u.size(), seed, 1, -100, 201U);
    std::vector<int> h_output(64);  // output, shape [64] of int32

    // Device buffers
    int* d_w = nullptr;
    const size_t bytes_w = h_w.size() * sizeof(h_w[0]);
    CUDA_CHECK(cudaMalloc(&d_w, bytes_w));
    CUDA_CHECK(cudaMemcpy(d_w, h_w.data(), bytes_w, cudaMemcpyHostToDevice));
    int* d_u = nullptr;
    const size_t bytes_u = h_u.size() * sizeof(h_u[0]);
    CUDA_CHECK(cudaMalloc(&d_u, bytes_u));
    CUDA_CHECK(cudaMemcpy(d_u, h_u.data(), bytes_u, cudaMemcpyHostToDevice));
    int* d_output = nullptr;
    const size_t bytes_output = h_output.size() * sizeof(h_output[0]);
    CUDA_CHECK(cudaMalloc(&d_output, bytes_output));
    CUDA_CHECK(cudaMemcpy(d_output, h_output.data(), bytes_output, cudaMemcpyHostToDevice));

    const int n = 64;
    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    arith_b1d6d23a69<<<grid, block>>>(d_w, d_u, d_output, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_output.data(), d_output, bytes_output, cudaMemcpyDeviceToHost));

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 256) {
        fprintf(stderr, "%s: expected 256 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_int("output", h_output.data(), reinterpret_cast<const int*>(expected.data() + 0), 64, stats);
    printf("%s arith_b1d6d23a69: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing: warm-up launches, then one CUDA-event measurement per launch
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        arith_b1d6d23a69<<<grid, block>>>(d_w, d_u, d_output, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        arith_b1d6d23a69<<<grid, block>>>(d_w, d_u, d_output, n);
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
    printf("{\"kernel\": \"arith_b1d6d23a69\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_w));
    CUDA_CHECK(cudaFree(d_u));
    CUDA_CHECK(cudaFree(d_output));
    return ok ? 0 : 1;
}
