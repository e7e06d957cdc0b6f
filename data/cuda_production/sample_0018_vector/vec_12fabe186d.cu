// Vector kernel (2-D launch 64x32; 2-D grid of elements; vectors stored as one array per component; point light (inverse-square falloff); coefficient as a module constant; module constants; Blinn-Phong shading; single-use loads indexed in place; running average of the output (exponential smoothing))
// Standalone CUDA translation of the Warp kernel `vec_12fabe186d` (see vec_12fabe186d.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

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

__device__ __forceinline__ float3 operator+(float3 a, float3 b)
{
    return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}

__device__ __forceinline__ float3 operator/(float3 a, float s)
{
    return make_float3(a.x / s, a.y / s, a.z / s);
}

__device__ __forceinline__ float3 operator-(float3 a, float3 b)
{
    return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}

constexpr float SPEC_POWER = 16.0f;

__global__ void vec_12fabe186d(
    const float* __restrict__ normals_x,
    int normals_x_dim1,
    const float* __restrict__ normals_y,
    int normals_y_dim1,
    const float* __restrict__ normals_z,
    int normals_z_dim1,
    const float* __restrict__ base_color,
    int base_color_dim1,
    const float* __restrict__ p_world_x,
    int p_world_x_dim1,
    const float* __restrict__ p_world_y,
    int p_world_y_dim1,
    const float* __restrict__ p_world_z,
    int p_world_z_dim1,
    float3 lamp,
    float ambient,
    float3 to_eye,
    float* running_radiance,
    int running_radiance_dim1,
    float momentum,
    int dim0,
    int dim1)
{
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= dim0 || j >= dim1)
        return;

    float3 normals_v = make_float3(normals_x[i * normals_x_dim1 + j], normals_y[i * normals_y_dim1 + j], normals_z[i * normals_z_dim1 + j]);
    float3 p_world_v = make_float3(p_world_x[i * p_world_x_dim1 + j], p_world_y[i * p_world_y_dim1 + j], p_world_z[i * p_world_z_dim1 + j]);
    float3 n = normalize(normals_v);
    float3 to_l = lamp - p_world_v;
    float dist2 = dot(to_l, to_l);
    float3 l = to_l / sqrtf(dist2);
    float ndotl = fmaxf(dot(n, l), 0.0f) * 16.0f / dist2;
    float3 h = normalize(l + normalize(to_eye));
    float spec = powf(fmaxf(dot(n, h), 0.0f), SPEC_POWER);
    running_radiance[i * running_radiance_dim1 + j] = (1.0f - momentum) * running_radiance[i * running_radiance_dim1 + j] + momentum * (base_color[i * base_color_dim1 + j] * (ambient + ndotl) + spec);
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
    int bench_outer = 131072;  // outermost launch dimension at bench size (metadata.json: bench)
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
    if (bench_outer > 524280) {
        fprintf(stderr, "--bench-dim %d: this launch's grid holds at most 524280 (CUDA allows 65535 blocks along y and z)\n", bench_outer);
        return 2;
    }

    const uint32_t seed = 3563640302U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int dim0 = bench ? bench_outer : 64;
    const int dim1 = 32;

    // Inputs (host)
    std::vector<float> h_normals_x((size_t)dim0 * 32);  // input, shape [64, 32] of float32
    fill_float(h_normals_x.data(), h_normals_x.size(), seed, 0, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_normals_y((size_t)dim0 * 32);  // input, shape [64, 32] of float32
    fill_float(h_normals_y.data(), h_normals_y.size(), seed, 1, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_normals_z((size_t)dim0 * 32);  // input, shape [64, 32] of float32
    fill_float(h_normals_z.data(), h_normals_z.size(), seed, 2, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_base_color((size_t)dim0 * 32);  // input, shape [64, 32] of float32
    fill_float(h_base_color.data(), h_base_color.size(), seed, 3, 0, 1025U, 0.0009765625f);
    std::vector<float> h_p_world_x((size_t)dim0 * 32);  // input, shape [64, 32] of float32
    fill_float(h_p_world_x.data(), h_p_world_x.size(), seed, 4, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_p_world_y((size_t)dim0 * 32);  // input, shape [64, 32] of float32
    fill_float(h_p_world_y.data(), h_p_world_y.size(), seed, 5, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_p_world_z((size_t)dim0 * 32);  // input, shape [64, 32] of float32
    fill_float(h_p_world_z.data(), h_p_world_z.size(), seed, 6, -2048, 4097U, 0.0009765625f);
    const float3 lamp = make_float3(-1.0f, 5.625f, 0.75f);
    const float ambient = 0.1f;
    const float3 to_eye = make_float3(-0.375f, -0.5f, -0.875f);
    std::vector<float> h_running_radiance((size_t)dim0 * 32);  // inout, shape [64, 32] of float32
    fill_float(h_running_radiance.data(), h_running_radiance.size(), seed, 10, -1024, 2049U, 0.0009765625f);
    const float momentum = 0.25f;

    // Device buffers
    float* d_normals_x = nullptr;
    const size_t bytes_normals_x = h_normals_x.size() * sizeof(h_normals_x[0]);
    CUDA_CHECK(cudaMalloc(&d_normals_x, bytes_normals_x));
    CUDA_CHECK(cudaMemcpy(d_normals_x, h_normals_x.data(), bytes_normals_x, cudaMemcpyHostToDevice));
    float* d_normals_y = nullptr;
    const size_t bytes_normals_y = h_normals_y.size() * sizeof(h_normals_y[0]);
    CUDA_CHECK(cudaMalloc(&d_normals_y, bytes_normals_y));
    CUDA_CHECK(cudaMemcpy(d_normals_y, h_normals_y.data(), bytes_normals_y, cudaMemcpyHostToDevice));
    float* d_normals_z = nullptr;
    const size_t bytes_normals_z = h_normals_z.size() * sizeof(h_normals_z[0]);
    CUDA_CHECK(cudaMalloc(&d_normals_z, bytes_normals_z));
    CUDA_CHECK(cudaMemcpy(d_normals_z, h_normals_z.data(), bytes_normals_z, cudaMemcpyHostToDevice));
    float* d_base_color = nullptr;
    const size_t bytes_base_color = h_base_color.size() * sizeof(h_base_color[0]);
    CUDA_CHECK(cudaMalloc(&d_base_color, bytes_base_color));
    CUDA_CHECK(cudaMemcpy(d_base_color, h_base_color.data(), bytes_base_color, cudaMemcpyHostToDevice));
    float* d_p_world_x = nullptr;
    const size_t bytes_p_world_x = h_p_world_x.size() * sizeof(h_p_world_x[0]);
    CUDA_CHECK(cudaMalloc(&d_p_world_x, bytes_p_world_x));
    CUDA_CHECK(cudaMemcpy(d_p_world_x, h_p_world_x.data(), bytes_p_world_x, cudaMemcpyHostToDevice));
    float* d_p_world_y = nullptr;
    const size_t bytes_p_world_y = h_p_world_y.size() * sizeof(h_p_world_y[0]);
    CUDA_CHECK(cudaMalloc(&d_p_world_y, bytes_p_world_y));
    CUDA_CHECK(cudaMemcpy(d_p_world_y, h_p_world_y.data(), bytes_p_world_y, cudaMemcpyHostToDevice));
    float* d_p_world_z = nullptr;
    const size_t bytes_p_world_z = h_p_world_z.size() * sizeof(h_p_world_z[0]);
    CUDA_CHECK(cudaMalloc(&d_p_world_z, bytes_p_world_z));
    CUDA_CHECK(cudaMemcpy(d_p_world_z, h_p_world_z.data(), bytes_p_world_z, cudaMemcpyHostToDevice));
    float* d_running_radiance = nullptr;
    const size_t bytes_running_radiance = h_running_radiance.size() * sizeof(h_running_radiance[0]);
    CUDA_CHECK(cudaMalloc(&d_running_radiance, bytes_running_radiance));
    CUDA_CHECK(cudaMemcpy(d_running_radiance, h_running_radiance.data(), bytes_running_radiance, cudaMemcpyHostToDevice));

    const dim3 block(32, 8);
    const dim3 grid((dim1 + block.x - 1) / block.x, (dim0 + block.y - 1) / block.y);

    // Run once and check the results
    vec_12fabe186d<<<grid, block>>>(d_normals_x, 32, d_normals_y, 32, d_normals_z, 32, d_base_color, 32, d_p_world_x, 32, d_p_world_y, 32, d_p_world_z, 32, lamp, ambient, to_eye, d_running_radiance, 32, momentum, dim0, dim1);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_running_radiance.data(), d_running_radiance, bytes_running_radiance, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_running_radiance.data(), 1, bytes_running_radiance, dump) == bytes_running_radiance;
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
            vec_12fabe186d<<<grid, block, 0, stream>>>(d_normals_x, 32, d_normals_y, 32, d_normals_z, 32, d_base_color, 32, d_p_world_x, 32, d_p_world_y, 32, d_p_world_z, 32, lamp, ambient, to_eye, d_running_radiance, 32, momentum, dim0, dim1);
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
        const size_t bytes_read = bytes_normals_x + bytes_normals_y + bytes_normals_z + bytes_base_color + bytes_p_world_x + bytes_p_world_y + bytes_p_world_z + bytes_running_radiance;
        const size_t bytes_written = bytes_running_radiance;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"vec_12fabe186d\", \"mode\": \"bench\", \"launch_dim\": [%d, %d], "
               "\"launches\": %d, \"warmup\": %d, \"trials\": %d, \"median_us\": %.3f, \"mean_us\": %.3f, "
               "\"p95_us\": %.3f, \"min_us\": %.3f, \"bytes_read\": %zu, \"bytes_written\": %zu, "
               "\"gb_per_s\": %.2f, \"peak_gb_per_s\": %.2f, \"percent_of_peak\": %.2f, \"device\": \"%s\"}\n",
               dim0, dim1, launches, warmup, trials, median, mean, p95, times[0], bytes_read, bytes_written,
               gb_per_s, peak_gb_per_s, peak_gb_per_s > 0 ? 100.0 * gb_per_s / peak_gb_per_s : 0.0, prop.name);
        CUDA_CHECK(cudaEventDestroy(start));
        CUDA_CHECK(cudaEventDestroy(stop));
        CUDA_CHECK(cudaGraphExecDestroy(graph_exec));
        CUDA_CHECK(cudaGraphDestroy(graph));
        CUDA_CHECK(cudaStreamDestroy(stream));
        CUDA_CHECK(cudaFree(d_normals_x));
        CUDA_CHECK(cudaFree(d_normals_y));
        CUDA_CHECK(cudaFree(d_normals_z));
        CUDA_CHECK(cudaFree(d_base_color));
        CUDA_CHECK(cudaFree(d_p_world_x));
        CUDA_CHECK(cudaFree(d_p_world_y));
        CUDA_CHECK(cudaFree(d_p_world_z));
        CUDA_CHECK(cudaFree(d_running_radiance));
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 8192) {
        fprintf(stderr, "%s: expected 8192 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_values("running_radiance", h_running_radiance.data(), reinterpret_cast<const float*>(expected.data() + 0), 2048,
                       0.00035f, 0.0001f, stats);
    printf("%s vec_12fabe186d: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        vec_12fabe186d<<<grid, block>>>(d_normals_x, 32, d_normals_y, 32, d_normals_z, 32, d_base_color, 32, d_p_world_x, 32, d_p_world_y, 32, d_p_world_z, 32, lamp, ambient, to_eye, d_running_radiance, 32, momentum, dim0, dim1);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        vec_12fabe186d<<<grid, block>>>(d_normals_x, 32, d_normals_y, 32, d_normals_z, 32, d_base_color, 32, d_p_world_x, 32, d_p_world_y, 32, d_p_world_z, 32, lamp, ambient, to_eye, d_running_radiance, 32, momentum, dim0, dim1);
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
    printf("{\"kernel\": \"vec_12fabe186d\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_normals_x));
    CUDA_CHECK(cudaFree(d_normals_y));
    CUDA_CHECK(cudaFree(d_normals_z));
    CUDA_CHECK(cudaFree(d_base_color));
    CUDA_CHECK(cudaFree(d_p_world_x));
    CUDA_CHECK(cudaFree(d_p_world_y));
    CUDA_CHECK(cudaFree(d_p_world_z));
    CUDA_CHECK(cudaFree(d_running_radiance));
    return ok ? 0 : 1;
}
