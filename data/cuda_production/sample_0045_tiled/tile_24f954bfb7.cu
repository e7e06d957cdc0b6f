// Fused element-wise tile map (wp.launch_tiled over 8 blocks of 64 threads; tile_map(gated); tile_map(sigmoid); result added to the output's block (tile_load, tile_store); tile_atomic_add total)
// Standalone CUDA translation of the Warp kernel `tile_24f954bfb7` (see tile_24f954bfb7.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int ROWS = 8;

__device__ float gated(float x, float y)
{
    float gate = 1.0f / (1.0f + expf(-y));
    return x * gate;
}

__device__ float sigmoid(float x)
{
    float e = expf(-x);
    return 1.0f / (1.0f + e);
}

// Threads per block, known when compiling: the launch and the kernel's cooperative loops use it
constexpr int TILE_THREADS = 64;

// Uses tiles: launched with blocks of 64 threads (wp.launch_tiled: one block per launch index); block_dim from declared block_dim.
// A tile is a __shared__ array the block's threads fill together, or an expression computed
// element by element where it is used.
__global__ void tile_24f954bfb7(
    const float* __restrict__ x,
    int x_dim0,
    int x_dim1,
    const float* __restrict__ b,
    int b_dim0,
    int b_dim1,
    float* err_map,
    int err_map_dim0,
    int err_map_dim1,
    float* total,
    int total_dim0,
    int n)
{
    // wp.launch_tiled: block b of 64 threads runs launch index b; its threads share the tiles
    const int i = blockIdx.x;

    __shared__ float ta[512];  // tile float32, shape 8x64
    __shared__ float tb[512];  // tile float32, shape 8x64
    __shared__ float z[512];  // tile float32, shape 8x64
    __shared__ float tile0[512];  // tile float32, shape 8x64
    __shared__ float total0[1];  // tile float32, shape 1
    __shared__ float warp_partial0[2];  // tile float32, shape 2

    const int offset0 = i * ROWS;
    // ta = 8x64 tile of x (outside the array: 0)
    for (int e0 = threadIdx.x; e0 < 512; e0 += TILE_THREADS) {
        const int row0 = offset0 + e0 / 64;
        const int col0 = e0 % 64;
        ta[e0] = (row0 < x_dim0 && col0 < x_dim1) ? x[row0 * x_dim1 + col0] : 0.0f;
    }
    // tb = 8x64 tile of b (outside the array: 0)
    for (int e1 = threadIdx.x; e1 < 512; e1 += TILE_THREADS) {
        const int row1 = offset0 + e1 / 64;
        const int col1 = e1 % 64;
        tb[e1] = (row1 < b_dim0 && col1 < b_dim1) ? b[row1 * b_dim1 + col1] : 0.0f;
    }
    // z = the tile computed by
    //   r = wp.tile_map(gated, ta, tb)
    //   z = wp.tile_map(sigmoid, r)
    for (int e2 = threadIdx.x; e2 < 512; e2 += TILE_THREADS) {
        z[e2] = sigmoid(gated(ta[e2], tb[e2]));
    }
    // tile0 = 8x64 tile of err_map (outside the array: 0)
    for (int e3 = threadIdx.x; e3 < 512; e3 += TILE_THREADS) {
        const int row2 = offset0 + e3 / 64;
        const int col2 = e3 % 64;
        tile0[e3] = (row2 < err_map_dim0 && col2 < err_map_dim1) ? err_map[row2 * err_map_dim1 + col2] : 0.0f;
    }
    for (int e4 = threadIdx.x; e4 < 512; e4 += TILE_THREADS) {
        const int row3 = offset0 + e4 / 64;
        const int col3 = e4 % 64;
        if (row3 < err_map_dim0 && col3 < err_map_dim1)
            err_map[row3 * err_map_dim1 + col3] = tile0[e4] + z[e4];
    }
    // total0 = sum of z: a strided partial per thread, each warp's by shuffles, then the 2 warps' in order
    float sum1 = 0.0f;
    for (int e6 = threadIdx.x; e6 < 512; e6 += TILE_THREADS)
        sum1 += z[e6];
    for (int offset1 = 16; offset1 > 0; offset1 /= 2)  // the warp's partials, lane by lane
        sum1 += __shfl_down_sync(0xffffffffu, sum1, offset1);
    if (threadIdx.x % 32 == 0)
        warp_partial0[threadIdx.x / 32] = sum1;
    __syncthreads();
    if (threadIdx.x == 0) {
        total0[0] = warp_partial0[0] + warp_partial0[1];
        atomicAdd(&total[0], total0[0]);
    }
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

template <typename T> struct CheckType;  // one specialisation per float type this program checks
template <> struct CheckType<float> {
    static double value(float x) { return x; }
    static constexpr double rel_floor = 1e-30;
    static constexpr int digits = 9;
};

template <typename T>
static bool check_values(const char* name, const T* got, const T* want, size_t count, double atol, double rtol,
                         CheckStats& stats)
{
    const double rel_floor = CheckType<T>::rel_floor;
    const int digits = CheckType<T>::digits;
    size_t first_bad = count;
    for (size_t i = 0; i < count; ++i) {
        const double got_i = CheckType<T>::value(got[i]);
        const double want_i = CheckType<T>::value(want[i]);
        double diff = std::fabs(got_i - want_i);
        double rel = diff / std::max(std::fabs(want_i), rel_floor);
        bool same_nan = std::isnan(got_i) && std::isnan(want_i);
        double allowed = atol + rtol * std::fabs(want_i);
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
        fprintf(stderr, "mismatch: %s[%zu] = %.*g, Warp computed %.*g\n", name, first_bad,
                digits, CheckType<T>::value(got[first_bad]), digits, CheckType<T>::value(want[first_bad]));
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
    bool bench = false;
    int bench_outer = 16384;  // outermost launch dimension at bench size (metadata.json: bench)
    int launches = 20;  // kernel launches per timed graph replay (--bench)
    int warmup = -1;  // -1: the mode's default
    int trials = -1;
    const char* expected_path = "expected.bin";
    const char* dump_path = nullptr;  // --bench: write the bench-size results here
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
            warmup = std::max(0, atoi(argv[++i]));
        else if (!strcmp(argv[i], "--trials") && i + 1 < argc)
            trials = std::max(1, atoi(argv[++i]));
        else if (!strcmp(argv[i], "--expected") && i + 1 < argc)
            expected_path = argv[++i];
        else if (!strcmp(argv[i], "--bench"))
            bench = true;
        else if (!strcmp(argv[i], "--bench-dim") && i + 1 < argc)
            bench_outer = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--launches") && i + 1 < argc)
            launches = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
            dump_path = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--warmup N] [--trials N] [--expected FILE] [--bench [--bench-dim N] [--launches N] [--dump FILE]]\n", argv[0]);
            return 2;
        }
    }
    if (bench_outer < 1 || launches < 1) {
        fprintf(stderr, "--bench-dim and --launches must be at least 1\n");
        return 2;
    }

    const uint32_t seed = 1719300793U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int n = bench ? bench_outer : 8;

    // Inputs (host)
    std::vector<float> h_x((size_t)n * 512);  // input, shape [64, 64] of float32
    fill_float(h_x.data(), h_x.size(), seed, 0, -256, 513U, 0.00390625f);
    std::vector<float> h_b((size_t)n * 512);  // input, shape [64, 64] of float32
    fill_float(h_b.data(), h_b.size(), seed, 1, -256, 513U, 0.00390625f);
    std::vector<float> h_err_map((size_t)n * 512);  // inout, shape [64, 64] of float32
    fill_float(h_err_map.data(), h_err_map.size(), seed, 2, -256, 513U, 0.00390625f);
    std::vector<float> h_total(1);  // output, shape [1] of float32

    // Device buffers
    float* d_x = nullptr;
    const size_t bytes_x = h_x.size() * sizeof(h_x[0]);
    CUDA_CHECK(cudaMalloc(&d_x, bytes_x));
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), bytes_x, cudaMemcpyHostToDevice));
    float* d_b = nullptr;
    const size_t bytes_b = h_b.size() * sizeof(h_b[0]);
    CUDA_CHECK(cudaMalloc(&d_b, bytes_b));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes_b, cudaMemcpyHostToDevice));
    float* d_err_map = nullptr;
    const size_t bytes_err_map = h_err_map.size() * sizeof(h_err_map[0]);
    CUDA_CHECK(cudaMalloc(&d_err_map, bytes_err_map));
    CUDA_CHECK(cudaMemcpy(d_err_map, h_err_map.data(), bytes_err_map, cudaMemcpyHostToDevice));
    float* d_total = nullptr;
    const size_t bytes_total = h_total.size() * sizeof(h_total[0]);
    CUDA_CHECK(cudaMalloc(&d_total, bytes_total));
    CUDA_CHECK(cudaMemcpy(d_total, h_total.data(), bytes_total, cudaMemcpyHostToDevice));

    const dim3 block(TILE_THREADS);  // block_dim: declared block_dim
    const dim3 grid(n);  // wp.launch_tiled: one block per launch index

    // Run once and check the results
    tile_24f954bfb7<<<grid, block>>>(d_x, 8 * n, 64, d_b, 8 * n, 64, d_err_map, 8 * n, 64, d_total, 1, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_err_map.data(), d_err_map, bytes_err_map, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_total.data(), d_total, bytes_total, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_err_map.data(), 1, bytes_err_map, dump) == bytes_err_map;
            dump_ok = dump_ok && fwrite(h_total.data(), 1, bytes_total, dump) == bytes_total;
            if (dump)
                dump_ok = (fclose(dump) == 0) && dump_ok;
            if (!dump_ok) {
                fprintf(stderr, "%s: cannot write the bench results\n", dump_path);
                return 2;
            }
        }
        warmup = warmup < 0 ? 2 : warmup;
        trials = trials < 0 ? 20 : trials;
        cudaStream_t stream;
        CUDA_CHECK(cudaStreamCreate(&stream));
        cudaGraph_t graph;
        cudaGraphExec_t graph_exec;
        CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        for (int i = 0; i < launches; ++i)
            tile_24f954bfb7<<<grid, block, 0, stream>>>(d_x, 8 * n, 64, d_b, 8 * n, 64, d_err_map, 8 * n, 64, d_total, 1, n);
        CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
        CUDA_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));
        for (int i = 0; i < warmup; ++i)
            CUDA_CHECK(cudaGraphLaunch(graph_exec, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        cudaEvent_t start, stop;
        CUDA_CHECK(cudaEventCreate(&start));
        CUDA_CHECK(cudaEventCreate(&stop));
        std::vector<double> times(trials);  // microseconds per launch, one per graph replay
        for (int t = 0; t < trials; ++t) {
            CUDA_CHECK(cudaEventRecord(start, stream));
            CUDA_CHECK(cudaGraphLaunch(graph_exec, stream));
            CUDA_CHECK(cudaEventRecord(stop, stream));
            CUDA_CHECK(cudaEventSynchronize(stop));
            float ms = 0.0f;
            CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
            times[t] = 1000.0 * ms / launches;
        }
        CUDA_CHECK(cudaGetLastError());
        std::sort(times.begin(), times.end());
        double sum = 0.0;
        for (double t : times)
            sum += t;
        const double mean = sum / trials;
        const double median = trials % 2 ? times[trials / 2] : 0.5 * (times[trials / 2 - 1] + times[trials / 2]);
        const double p95 = times[std::min(trials - 1, (int)std::ceil(0.95 * trials) - 1)];
        const size_t bytes_read = bytes_x + bytes_b + bytes_err_map;
        const size_t bytes_written = bytes_err_map + bytes_total;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"tile_24f954bfb7\", \"mode\": \"bench\", \"launch_dim\": [%d], "
               "\"launches\": %d, \"warmup\": %d, \"trials\": %d, \"median_us\": %.3f, \"mean_us\": %.3f, "
               "\"p95_us\": %.3f, \"min_us\": %.3f, \"bytes_read\": %zu, \"bytes_written\": %zu, "
               "\"gb_per_s\": %.2f, \"peak_gb_per_s\": %.2f, \"percent_of_peak\": %.2f, \"device\": \"%s\"}\n",
               n, launches, warmup, trials, median, mean, p95, times[0], bytes_read, bytes_written,
               gb_per_s, peak_gb_per_s, peak_gb_per_s > 0 ? 100.0 * gb_per_s / peak_gb_per_s : 0.0, prop.name);
        CUDA_CHECK(cudaEventDestroy(start));
        CUDA_CHECK(cudaEventDestroy(stop));
        CUDA_CHECK(cudaGraphExecDestroy(graph_exec));
        CUDA_CHECK(cudaGraphDestroy(graph));
        CUDA_CHECK(cudaStreamDestroy(stream));
        CUDA_CHECK(cudaFree(d_x));
        CUDA_CHECK(cudaFree(d_b));
        CUDA_CHECK(cudaFree(d_err_map));
        CUDA_CHECK(cudaFree(d_total));
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 16388) {
        fprintf(stderr, "%s: expected 16388 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_values("err_map", h_err_map.data(), reinterpret_cast<const float*>(expected.data() + 0), 4096,
                       0.0002f, 0.0001f, stats);
    ok &= check_values("total", h_total.data(), reinterpret_cast<const float*>(expected.data() + 16384), 1,
                       0.8192f, 0.0001f, stats);
    printf("%s tile_24f954bfb7: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        tile_24f954bfb7<<<grid, block>>>(d_x, 8 * n, 64, d_b, 8 * n, 64, d_err_map, 8 * n, 64, d_total, 1, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        tile_24f954bfb7<<<grid, block>>>(d_x, 8 * n, 64, d_b, 8 * n, 64, d_err_map, 8 * n, 64, d_total, 1, n);
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
    printf("{\"kernel\": \"tile_24f954bfb7\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_err_map));
    CUDA_CHECK(cudaFree(d_total));
    return ok ? 0 : 1;
}
