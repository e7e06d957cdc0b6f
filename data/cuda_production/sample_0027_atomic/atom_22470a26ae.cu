// Atomic-update kernel (1-D launch 64; int32 atomic_add, atomic_sub)
// Standalone CUDA translation of the Warp kernel `atom_22470a26ae` (see atom_22470a26ae.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void atom_22470a26ae(
    const int* __restrict__ b,
    const int* __restrict__ x,
    int* total,
    const int* __restrict__ idx,
    int* total2,
    int* acc,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    atomicSub(&total[idx[tid]], tid);
    atomicAdd(&total2[0], max(b[tid], x[tid]));
    atomicAdd(&acc[tid % 8], min(1, min(3, x[tid])));
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

    const uint32_t seed = 1124438330U;

    // Inputs (host)
    std::vector<int> h_b(64);  // input, shape [64] of int32
    fill_int(h_b.data(), h_b.size(), seed, 0, -50, 101U);
    std::vector<int> h_x(64);  // input, shape [64] of int32
    fill_int(h_x.data(), h_x.size(), seed, 1, -50, 101U);
    std::vector<int> h_total(32);  // inout, shape [32] of int32
    fill_int(h_total.data(), h_total.size(), seed, 2, -4, 9U);
    std::vector<int> h_idx(64);  // index, shape [64] of int32
    fill_int(h_idx.data(), h_idx.size(), seed, 3, 0, 32U);
    std::vector<int> h_total2(1);  // inout, shape [1] of int32
    fill_int(h_total2.data(), h_total2.size(), seed, 4, -4, 9U);
    std::vector<int> h_acc(8);  // inout, shape [8] of int32
    fill_int(h_acc.data(), h_acc.size(), seed, 5, -4, 9U);

    // Device buffers
    int* d_b = nullptr;
    const size_t bytes_b = h_b.size() * sizeof(h_b[0]);
    CUDA_CHECK(cudaMalloc(&d_b, bytes_b));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes_b, cudaMemcpyHostToDevice));
    int* d_x = nullptr;
    const size_t bytes_x = h_x.size() * sizeof(h_x[0]);
    CUDA_CHECK(cudaMalloc(&d_x, bytes_x));
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), bytes_x, cudaMemcpyHostToDevice));
    int* d_total = nullptr;
    const size_t bytes_total = h_total.size() * sizeof(h_total[0]);
    CUDA_CHECK(cudaMalloc(&d_total, bytes_total));
    CUDA_CHECK(cudaMemcpy(d_total, h_total.data(), bytes_total, cudaMemcpyHostToDevice));
    int* d_idx = nullptr;
    const size_t bytes_idx = h_idx.size() * sizeof(h_idx[0]);
    CUDA_CHECK(cudaMalloc(&d_idx, bytes_idx));
    CUDA_CHECK(cudaMemcpy(d_idx, h_idx.data(), bytes_idx, cudaMemcpyHostToDevice));
    int* d_total2 = nullptr;
    const size_t bytes_total2 = h_total2.size() * sizeof(h_total2[0]);
    CUDA_CHECK(cudaMalloc(&d_total2, bytes_total2));
    CUDA_CHECK(cudaMemcpy(d_total2, h_total2.data(), bytes_total2, cudaMemcpyHostToDevice));
    int* d_acc = nullptr;
    const size_t bytes_acc = h_acc.size() * sizeof(h_acc[0]);
    CUDA_CHECK(cudaMalloc(&d_acc, bytes_acc));
    CUDA_CHECK(cudaMemcpy(d_acc, h_acc.data(), bytes_acc, cudaMemcpyHostToDevice));

    const int n = 64;
    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    atom_22470a26ae<<<grid, block>>>(d_b, d_x, d_total, d_idx, d_total2, d_acc, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_total.data(), d_total, bytes_total, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_total2.data(), d_total2, bytes_total2, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_acc.data(), d_acc, bytes_acc, cudaMemcpyDeviceToHost));

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 164) {
        fprintf(stderr, "%s: expected 164 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_int("total", h_total.data(), reinterpret_cast<const int*>(expected.data() + 0), 32, stats);
    ok &= check_int("total2", h_total2.data(), reinterpret_cast<const int*>(expected.data() + 128), 1, stats);
    ok &= check_int("acc", h_acc.data(), reinterpret_cast<const int*>(expected.data() + 132), 8, stats);
    printf("%s atom_22470a26ae: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing: warm-up launches, then one CUDA-event measurement per launch
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        atom_22470a26ae<<<grid, block>>>(d_b, d_x, d_total, d_idx, d_total2, d_acc, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        atom_22470a26ae<<<grid, block>>>(d_b, d_x, d_total, d_idx, d_total2, d_acc, n);
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
    printf("{\"kernel\": \"atom_22470a26ae\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_total));
    CUDA_CHECK(cudaFree(d_idx));
    CUDA_CHECK(cudaFree(d_total2));
    CUDA_CHECK(cudaFree(d_acc));
    return ok ? 0 : 1;
}
