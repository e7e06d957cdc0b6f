// Multi-way conditional kernel (1-D launch 1024; walls that stop the body; stick-slip friction under a normal force; regularised below the stick speed; single-use loads indexed in place)
// Standalone CUDA translation of the Warp kernel `cond_79cfefaccc` (see cond_79cfefaccc.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void cond_79cfefaccc(
    const float* __restrict__ px,
    const float* __restrict__ vel,
    const float* __restrict__ fn,
    float* px_out,
    float* vel_out,
    float* friction_force,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    float vel_v = vel[tid];
    float fn_v = fn[tid];
    float x_new = px[tid] + 0.25f * vel_v;
    float v_new = vel_v;
    if (x_new < -1.25f) {
        x_new = -1.25f;
        v_new = 0.0f;
    } else if (x_new > 1.75f) {
        x_new = 1.75f;
        v_new = 0.0f;
    }
    float speed = fabsf(vel_v);
    float friction = 0.0f;
    if (speed > 0.25f) {
        friction = -0.5f * fn_v * vel_v / speed;
    } else {
        friction = -2.0f * fn_v * vel_v;
    }
    px_out[tid] = x_new;
    vel_out[tid] = v_new;
    friction_force[tid] = friction;
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
    int bench_outer = 4194304;  // outermost launch dimension at bench size (metadata.json: bench)
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

    const uint32_t seed = 2470713198U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int n = bench ? bench_outer : 1024;

    // Inputs (host)
    std::vector<float> h_px((size_t)n * 1);  // input, shape [1024] of float32
    fill_float(h_px.data(), h_px.size(), seed, 0, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_vel((size_t)n * 1);  // input, shape [1024] of float32
    fill_float(h_vel.data(), h_vel.size(), seed, 1, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_fn((size_t)n * 1);  // input, shape [1024] of float32
    fill_float(h_fn.data(), h_fn.size(), seed, 2, 0, 4097U, 0.0009765625f);
    std::vector<float> h_px_out((size_t)n * 1);  // output, shape [1024] of float32
    std::vector<float> h_vel_out((size_t)n * 1);  // output, shape [1024] of float32
    std::vector<float> h_friction_force((size_t)n * 1);  // output, shape [1024] of float32

    // Device buffers
    float* d_px = nullptr;
    const size_t bytes_px = h_px.size() * sizeof(h_px[0]);
    CUDA_CHECK(cudaMalloc(&d_px, bytes_px));
    CUDA_CHECK(cudaMemcpy(d_px, h_px.data(), bytes_px, cudaMemcpyHostToDevice));
    float* d_vel = nullptr;
    const size_t bytes_vel = h_vel.size() * sizeof(h_vel[0]);
    CUDA_CHECK(cudaMalloc(&d_vel, bytes_vel));
    CUDA_CHECK(cudaMemcpy(d_vel, h_vel.data(), bytes_vel, cudaMemcpyHostToDevice));
    float* d_fn = nullptr;
    const size_t bytes_fn = h_fn.size() * sizeof(h_fn[0]);
    CUDA_CHECK(cudaMalloc(&d_fn, bytes_fn));
    CUDA_CHECK(cudaMemcpy(d_fn, h_fn.data(), bytes_fn, cudaMemcpyHostToDevice));
    float* d_px_out = nullptr;
    const size_t bytes_px_out = h_px_out.size() * sizeof(h_px_out[0]);
    CUDA_CHECK(cudaMalloc(&d_px_out, bytes_px_out));
    CUDA_CHECK(cudaMemcpy(d_px_out, h_px_out.data(), bytes_px_out, cudaMemcpyHostToDevice));
    float* d_vel_out = nullptr;
    const size_t bytes_vel_out = h_vel_out.size() * sizeof(h_vel_out[0]);
    CUDA_CHECK(cudaMalloc(&d_vel_out, bytes_vel_out));
    CUDA_CHECK(cudaMemcpy(d_vel_out, h_vel_out.data(), bytes_vel_out, cudaMemcpyHostToDevice));
    float* d_friction_force = nullptr;
    const size_t bytes_friction_force = h_friction_force.size() * sizeof(h_friction_force[0]);
    CUDA_CHECK(cudaMalloc(&d_friction_force, bytes_friction_force));
    CUDA_CHECK(cudaMemcpy(d_friction_force, h_friction_force.data(), bytes_friction_force, cudaMemcpyHostToDevice));

    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    cond_79cfefaccc<<<grid, block>>>(d_px, d_vel, d_fn, d_px_out, d_vel_out, d_friction_force, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_px_out.data(), d_px_out, bytes_px_out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_vel_out.data(), d_vel_out, bytes_vel_out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_friction_force.data(), d_friction_force, bytes_friction_force, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_px_out.data(), 1, bytes_px_out, dump) == bytes_px_out;
            dump_ok = dump_ok && fwrite(h_vel_out.data(), 1, bytes_vel_out, dump) == bytes_vel_out;
            dump_ok = dump_ok && fwrite(h_friction_force.data(), 1, bytes_friction_force, dump) == bytes_friction_force;
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
            cond_79cfefaccc<<<grid, block, 0, stream>>>(d_px, d_vel, d_fn, d_px_out, d_vel_out, d_friction_force, n);
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
        const size_t bytes_read = bytes_px + bytes_vel + bytes_fn;
        const size_t bytes_written = bytes_px_out + bytes_vel_out + bytes_friction_force;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"cond_79cfefaccc\", \"mode\": \"bench\", \"launch_dim\": [%d], "
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
        CUDA_CHECK(cudaFree(d_px));
        CUDA_CHECK(cudaFree(d_vel));
        CUDA_CHECK(cudaFree(d_fn));
        CUDA_CHECK(cudaFree(d_px_out));
        CUDA_CHECK(cudaFree(d_vel_out));
        CUDA_CHECK(cudaFree(d_friction_force));
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 12288) {
        fprintf(stderr, "%s: expected 12288 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_values("px_out", h_px_out.data(), reinterpret_cast<const float*>(expected.data() + 0), 1024,
                       0.0006000000000000001f, 0.0001f, stats);
    ok &= check_values("vel_out", h_vel_out.data(), reinterpret_cast<const float*>(expected.data() + 4096), 1024,
                       0.0002f, 0.0001f, stats);
    ok &= check_values("friction_force", h_friction_force.data(), reinterpret_cast<const float*>(expected.data() + 8192), 1024,
                       0.0016f, 0.0001f, stats);
    printf("%s cond_79cfefaccc: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        cond_79cfefaccc<<<grid, block>>>(d_px, d_vel, d_fn, d_px_out, d_vel_out, d_friction_force, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        cond_79cfefaccc<<<grid, block>>>(d_px, d_vel, d_fn, d_px_out, d_vel_out, d_friction_force, n);
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
    printf("{\"kernel\": \"cond_79cfefaccc\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_px));
    CUDA_CHECK(cudaFree(d_vel));
    CUDA_CHECK(cudaFree(d_fn));
    CUDA_CHECK(cudaFree(d_px_out));
    CUDA_CHECK(cudaFree(d_vel_out));
    CUDA_CHECK(cudaFree(d_friction_force));
    return ok ? 0 : 1;
}
