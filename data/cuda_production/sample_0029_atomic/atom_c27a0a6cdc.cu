// Atomic-update kernel (1-D launch 256; old value returned; float32 atomic_add, atomic_sub)
// Standalone CUDA translation of the Warp kernel `atom_c27a0a6cdc` (see atom_c27a0a6cdc.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void atom_c27a0a6cdc(
    const float* __restrict__ u,
    const float* __restrict__ p,
    float* bins,
    const int* __restrict__ idx,
    float* total,
    float* slots,
    float* prev,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    atomicAdd(&bins[idx[tid]], -fabsf(fabsf(u[tid])));
    atomicAdd(&total[tid % 8], p[tid]);
    float old1 = atomicAdd(&slots[tid], -(p[tid] * u[tid]));
    prev[tid] = old1;
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

    const uint32_t seed = 614758503U;

    // Inputs (host)
    std::vector<float> h_u(256);  // input, shape [256] of float32
    fill_float(h_u.data(), h_u.size(), seed, 0, -32, 65U, 0.125f);
    std::vector<float> h_p(256);  // input, shape [256] of float32
    fill_float(h_p.data(), h_p.size(), seed, 1, -32, 65U, 0.125f);
    std::vector<float> h_bins(16);  // inout, shape [16] of float32
    fill_float(h_bins.data(), h_bins.size(), seed, 2, -32, 65U, 0.125f);
    std::vector<int> h_idx(256);  // index, shape [256] of int32
    fill_int(h_idx.data(), h_idx.size(), seed, 3, 0, 16U);
    std::vector<float> h_total(8);  // inout, shape [8] of float32
    fill_float(h_total.data(), h_total.size(), seed, 4, -32, 65U, 0.125f);
    std::vector<float> h_slots(256);  // inout, shape [256] of float32
    fill_float(h_slots.data(), h_slots.size(), seed, 5, -32, 65U, 0.125f);
    std::vector<float> h_prev(256);  // output, shape [256] of float32

    // Device buffers
    float* d_u = nullptr;
    const size_t bytes_u = h_u.size() * sizeof(h_u[0]);
    CUDA_CHECK(cudaMalloc(&d_u, bytes_u));
    CUDA_CHECK(cudaMemcpy(d_u, h_u.data(), bytes_u, cudaMemcpyHostToDevice));
    float* d_p = nullptr;
    const size_t bytes_p = h_p.size() * sizeof(h_p[0]);
    CUDA_CHECK(cudaMalloc(&d_p, bytes_p));
    CUDA_CHECK(cudaMemcpy(d_p, h_p.data(), bytes_p, cudaMemcpyHostToDevice));
    float* d_bins = nullptr;
    const size_t bytes_bins = h_bins.size() * sizeof(h_bins[0]);
    CUDA_CHECK(cudaMalloc(&d_bins, bytes_bins));
    CUDA_CHECK(cudaMemcpy(d_bins, h_bins.data(), bytes_bins, cudaMemcpyHostToDevice));
    int* d_idx = nullptr;
    const size_t bytes_idx = h_idx.size() * sizeof(h_idx[0]);
    CUDA_CHECK(cudaMalloc(&d_idx, bytes_idx));
    CUDA_CHECK(cudaMemcpy(d_idx, h_idx.data(), bytes_idx, cudaMemcpyHostToDevice));
    float* d_total = nullptr;
    const size_t bytes_total = h_total.size() * sizeof(h_total[0]);
    CUDA_CHECK(cudaMalloc(&d_total, bytes_total));
    CUDA_CHECK(cudaMemcpy(d_total, h_total.data(), bytes_total, cudaMemcpyHostToDevice));
    float* d_slots = nullptr;
    const size_t bytes_slots = h_slots.size() * sizeof(h_slots[0]);
    CUDA_CHECK(cudaMalloc(&d_slots, bytes_slots));
    CUDA_CHECK(cudaMemcpy(d_slots, h_slots.data(), bytes_slots, cudaMemcpyHostToDevice));
    float* d_prev = nullptr;
    const size_t bytes_prev = h_prev.size() * sizeof(h_prev[0]);
    CUDA_CHECK(cudaMalloc(&d_prev, bytes_prev));
    CUDA_CHECK(cudaMemcpy(d_prev, h_prev.data(), bytes_prev, cudaMemcpyHostToDevice));

    const int n = 256;
    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    atom_c27a0a6cdc<<<grid, block>>>(d_u, d_p, d_bins, d_idx, d_total, d_slots, d_prev, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_bins.data(), d_bins, bytes_bins, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_total.data(), d_total, bytes_total, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_slots.data(), d_slots, bytes_slots, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_prev.data(), d_prev, bytes_prev, cudaMemcpyDeviceToHost));

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 2144) {
        fprintf(stderr, "%s: expected 2144 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_float("bins", h_bins.data(), reinterpret_cast<const float*>(expected.data() + 0), 16,
                      0.1028f, 0.0001f, stats);
    ok &= check_float("total", h_total.data(), reinterpret_cast<const float*>(expected.data() + 64), 8,
                      0.1028f, 0.0001f, stats);
    ok &= check_float("slots", h_slots.data(), reinterpret_cast<const float*>(expected.data() + 96), 256,
                      0.002f, 0.0001f, stats);
    ok &= check_float("prev", h_prev.data(), reinterpret_cast<const float*>(expected.data() + 1120), 256,
                      0.0004f, 0.0001f, stats);
    printf("%s atom_c27a0a6cdc: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing: warm-up launches, then one CUDA-event measurement per launch
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        atom_c27a0a6cdc<<<grid, block>>>(d_u, d_p, d_bins, d_idx, d_total, d_slots, d_prev, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        atom_c27a0a6cdc<<<grid, block>>>(d_u, d_p, d_bins, d_idx, d_total, d_slots, d_prev, n);
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
    printf("{\"kernel\": \"atom_c27a0a6cdc\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_u));
    CUDA_CHECK(cudaFree(d_p));
    CUDA_CHECK(cudaFree(d_bins));
    CUDA_CHECK(cudaFree(d_idx));
    CUDA_CHECK(cudaFree(d_total));
    CUDA_CHECK(cudaFree(d_slots));
    CUDA_CHECK(cudaFree(d_prev));
    return ok ? 0 : 1;
}
