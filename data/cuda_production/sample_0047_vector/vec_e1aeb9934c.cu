// Vector kernel (1-D launch 100; active set through an index array; vectors stored as one array per component; point light (inverse-square falloff); coefficient per element; Blinn-Phong shading; results stored as one array per component; single-use loads indexed in place)
// Standalone CUDA translation of the Warp kernel `vec_e1aeb9934c` (see vec_e1aeb9934c.py); needs only the CUDA toolkit.
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

__global__ void vec_e1aeb9934c(
    const int* __restrict__ particle_ids,
    const float* __restrict__ surface_n_x,
    const float* __restrict__ surface_n_y,
    const float* __restrict__ surface_n_z,
    const float* __restrict__ diffuse_x,
    const float* __restrict__ diffuse_y,
    const float* __restrict__ diffuse_z,
    const float* __restrict__ positions_x,
    const float* __restrict__ positions_y,
    const float* __restrict__ positions_z,
    float3 lamp,
    const float* __restrict__ ka,
    float3 to_eye,
    float spec_power,
    float* color_x,
    float* color_y,
    float* color_z,
    int num_threads)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= num_threads)
        return;

    int i = particle_ids[tid];
    float3 surface_n_i = make_float3(surface_n_x[i], surface_n_y[i], surface_n_z[i]);
    float3 diffuse_i = make_float3(diffuse_x[i], diffuse_y[i], diffuse_z[i]);
    float3 positions_i = make_float3(positions_x[i], positions_y[i], positions_z[i]);
    float3 n = normalize(surface_n_i);
    float3 to_l = lamp - positions_i;
    float dist2 = dot(to_l, to_l);
    float3 l = to_l / sqrtf(dist2);
    float ndotl = fmaxf(dot(n, l), 0.0f) * 16.0f / dist2;
    float3 h = normalize(l + normalize(to_eye));
    float spec = powf(fmaxf(dot(n, h), 0.0f), spec_power);
    float3 color = diffuse_i * (ka[i] + ndotl) + make_float3(spec, spec, spec);
    color_x[i] = color.x;
    color_y[i] = color.y;
    color_z[i] = color.z;
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
    int bench_outer = 16777216;  // outermost launch dimension at bench size (metadata.json: bench)
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

    const uint32_t seed = 2035948074U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int num_threads = bench ? bench_outer : 100;

    // Inputs (host)
    std::vector<int> h_particle_ids((size_t)num_threads * 1);  // index, shape [100] of int32
    fill_int(h_particle_ids.data(), h_particle_ids.size(), seed, 0, 0, 150U);
    std::vector<float> h_surface_n_x(150);  // input, shape [150] of float32
    fill_float(h_surface_n_x.data(), h_surface_n_x.size(), seed, 1, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_surface_n_y(150);  // input, shape [150] of float32
    fill_float(h_surface_n_y.data(), h_surface_n_y.size(), seed, 2, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_surface_n_z(150);  // input, shape [150] of float32
    fill_float(h_surface_n_z.data(), h_surface_n_z.size(), seed, 3, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_diffuse_x(150);  // input, shape [150] of float32
    fill_float(h_diffuse_x.data(), h_diffuse_x.size(), seed, 4, 0, 1025U, 0.0009765625f);
    std::vector<float> h_diffuse_y(150);  // input, shape [150] of float32
    fill_float(h_diffuse_y.data(), h_diffuse_y.size(), seed, 5, 0, 1025U, 0.0009765625f);
    std::vector<float> h_diffuse_z(150);  // input, shape [150] of float32
    fill_float(h_diffuse_z.data(), h_diffuse_z.size(), seed, 6, 0, 1025U, 0.0009765625f);
    std::vector<float> h_positions_x(150);  // input, shape [150] of float32
    fill_float(h_positions_x.data(), h_positions_x.size(), seed, 7, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_positions_y(150);  // input, shape [150] of float32
    fill_float(h_positions_y.data(), h_positions_y.size(), seed, 8, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_positions_z(150);  // input, shape [150] of float32
    fill_float(h_positions_z.data(), h_positions_z.size(), seed, 9, -2048, 4097U, 0.0009765625f);
    const float3 lamp = make_float3(-0.25f, 4.625f, -0.75f);
    std::vector<float> h_ka(150);  // input, shape [150] of float32
    fill_float(h_ka.data(), h_ka.size(), seed, 11, 1, 2U, 0.0625f);
    const float3 to_eye = make_float3(0.625f, 0.375f, 0.25f);
    const float spec_power = 16.0f;
    std::vector<float> h_color_x(150);  // output, shape [150] of float32
    std::vector<float> h_color_y(150);  // output, shape [150] of float32
    std::vector<float> h_color_z(150);  // output, shape [150] of float32

    // Device buffers
    int* d_particle_ids = nullptr;
    const size_t bytes_particle_ids = h_particle_ids.size() * sizeof(h_particle_ids[0]);
    CUDA_CHECK(cudaMalloc(&d_particle_ids, bytes_particle_ids));
    CUDA_CHECK(cudaMemcpy(d_particle_ids, h_particle_ids.data(), bytes_particle_ids, cudaMemcpyHostToDevice));
    float* d_surface_n_x = nullptr;
    const size_t bytes_surface_n_x = h_surface_n_x.size() * sizeof(h_surface_n_x[0]);
    CUDA_CHECK(cudaMalloc(&d_surface_n_x, bytes_surface_n_x));
    CUDA_CHECK(cudaMemcpy(d_surface_n_x, h_surface_n_x.data(), bytes_surface_n_x, cudaMemcpyHostToDevice));
    float* d_surface_n_y = nullptr;
    const size_t bytes_surface_n_y = h_surface_n_y.size() * sizeof(h_surface_n_y[0]);
    CUDA_CHECK(cudaMalloc(&d_surface_n_y, bytes_surface_n_y));
    CUDA_CHECK(cudaMemcpy(d_surface_n_y, h_surface_n_y.data(), bytes_surface_n_y, cudaMemcpyHostToDevice));
    float* d_surface_n_z = nullptr;
    const size_t bytes_surface_n_z = h_surface_n_z.size() * sizeof(h_surface_n_z[0]);
    CUDA_CHECK(cudaMalloc(&d_surface_n_z, bytes_surface_n_z));
    CUDA_CHECK(cudaMemcpy(d_surface_n_z, h_surface_n_z.data(), bytes_surface_n_z, cudaMemcpyHostToDevice));
    float* d_diffuse_x = nullptr;
    const size_t bytes_diffuse_x = h_diffuse_x.size() * sizeof(h_diffuse_x[0]);
    CUDA_CHECK(cudaMalloc(&d_diffuse_x, bytes_diffuse_x));
    CUDA_CHECK(cudaMemcpy(d_diffuse_x, h_diffuse_x.data(), bytes_diffuse_x, cudaMemcpyHostToDevice));
    float* d_diffuse_y = nullptr;
    const size_t bytes_diffuse_y = h_diffuse_y.size() * sizeof(h_diffuse_y[0]);
    CUDA_CHECK(cudaMalloc(&d_diffuse_y, bytes_diffuse_y));
    CUDA_CHECK(cudaMemcpy(d_diffuse_y, h_diffuse_y.data(), bytes_diffuse_y, cudaMemcpyHostToDevice));
    float* d_diffuse_z = nullptr;
    const size_t bytes_diffuse_z = h_diffuse_z.size() * sizeof(h_diffuse_z[0]);
    CUDA_CHECK(cudaMalloc(&d_diffuse_z, bytes_diffuse_z));
    CUDA_CHECK(cudaMemcpy(d_diffuse_z, h_diffuse_z.data(), bytes_diffuse_z, cudaMemcpyHostToDevice));
    float* d_positions_x = nullptr;
    const size_t bytes_positions_x = h_positions_x.size() * sizeof(h_positions_x[0]);
    CUDA_CHECK(cudaMalloc(&d_positions_x, bytes_positions_x));
    CUDA_CHECK(cudaMemcpy(d_positions_x, h_positions_x.data(), bytes_positions_x, cudaMemcpyHostToDevice));
    float* d_positions_y = nullptr;
    const size_t bytes_positions_y = h_positions_y.size() * sizeof(h_positions_y[0]);
    CUDA_CHECK(cudaMalloc(&d_positions_y, bytes_positions_y));
    CUDA_CHECK(cudaMemcpy(d_positions_y, h_positions_y.data(), bytes_positions_y, cudaMemcpyHostToDevice));
    float* d_positions_z = nullptr;
    const size_t bytes_positions_z = h_positions_z.size() * sizeof(h_positions_z[0]);
    CUDA_CHECK(cudaMalloc(&d_positions_z, bytes_positions_z));
    CUDA_CHECK(cudaMemcpy(d_positions_z, h_positions_z.data(), bytes_positions_z, cudaMemcpyHostToDevice));
    float* d_ka = nullptr;
    const size_t bytes_ka = h_ka.size() * sizeof(h_ka[0]);
    CUDA_CHECK(cudaMalloc(&d_ka, bytes_ka));
    CUDA_CHECK(cudaMemcpy(d_ka, h_ka.data(), bytes_ka, cudaMemcpyHostToDevice));
    float* d_color_x = nullptr;
    const size_t bytes_color_x = h_color_x.size() * sizeof(h_color_x[0]);
    CUDA_CHECK(cudaMalloc(&d_color_x, bytes_color_x));
    CUDA_CHECK(cudaMemcpy(d_color_x, h_color_x.data(), bytes_color_x, cudaMemcpyHostToDevice));
    float* d_color_y = nullptr;
    const size_t bytes_color_y = h_color_y.size() * sizeof(h_color_y[0]);
    CUDA_CHECK(cudaMalloc(&d_color_y, bytes_color_y));
    CUDA_CHECK(cudaMemcpy(d_color_y, h_color_y.data(), bytes_color_y, cudaMemcpyHostToDevice));
    float* d_color_z = nullptr;
    const size_t bytes_color_z = h_color_z.size() * sizeof(h_color_z[0]);
    CUDA_CHECK(cudaMalloc(&d_color_z, bytes_color_z));
    CUDA_CHECK(cudaMemcpy(d_color_z, h_color_z.data(), bytes_color_z, cudaMemcpyHostToDevice));

    const dim3 block(256);
    const dim3 grid((num_threads + block.x - 1) / block.x);

    // Run once and check the results
    vec_e1aeb9934c<<<grid, block>>>(d_particle_ids, d_surface_n_x, d_surface_n_y, d_surface_n_z, d_diffuse_x, d_diffuse_y, d_diffuse_z, d_positions_x, d_positions_y, d_positions_z, lamp, d_ka, to_eye, spec_power, d_color_x, d_color_y, d_color_z, num_threads);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_color_x.data(), d_color_x, bytes_color_x, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_color_y.data(), d_color_y, bytes_color_y, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_color_z.data(), d_color_z, bytes_color_z, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_color_x.data(), 1, bytes_color_x, dump) == bytes_color_x;
            dump_ok = dump_ok && fwrite(h_color_y.data(), 1, bytes_color_y, dump) == bytes_color_y;
            dump_ok = dump_ok && fwrite(h_color_z.data(), 1, bytes_color_z, dump) == bytes_color_z;
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
            vec_e1aeb9934c<<<grid, block, 0, stream>>>(d_particle_ids, d_surface_n_x, d_surface_n_y, d_surface_n_z, d_diffuse_x, d_diffuse_y, d_diffuse_z, d_positions_x, d_positions_y, d_positions_z, lamp, d_ka, to_eye, spec_power, d_color_x, d_color_y, d_color_z, num_threads);
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
        const size_t bytes_read = bytes_particle_ids + bytes_surface_n_x + bytes_surface_n_y + bytes_surface_n_z + bytes_diffuse_x + bytes_diffuse_y + bytes_diffuse_z + bytes_positions_x + bytes_positions_y + bytes_positions_z + bytes_ka;
        const size_t bytes_written = bytes_color_x + bytes_color_y + bytes_color_z;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"vec_e1aeb9934c\", \"mode\": \"bench\", \"launch_dim\": [%d], "
               "\"launches\": %d, \"warmup\": %d, \"trials\": %d, \"median_us\": %.3f, \"mean_us\": %.3f, "
               "\"p95_us\": %.3f, \"min_us\": %.3f, \"bytes_read\": %zu, \"bytes_written\": %zu, "
               "\"gb_per_s\": %.2f, \"peak_gb_per_s\": %.2f, \"percent_of_peak\": %.2f, \"device\": \"%s\"}\n",
               num_threads, launches, warmup, trials, median, mean, p95, times[0], bytes_read, bytes_written,
               gb_per_s, peak_gb_per_s, peak_gb_per_s > 0 ? 100.0 * gb_per_s / peak_gb_per_s : 0.0, prop.name);
        CUDA_CHECK(cudaEventDestroy(start));
        CUDA_CHECK(cudaEventDestroy(stop));
        CUDA_CHECK(cudaGraphExecDestroy(graph_exec));
        CUDA_CHECK(cudaGraphDestroy(graph));
        CUDA_CHECK(cudaStreamDestroy(stream));
        CUDA_CHECK(cudaFree(d_particle_ids));
        CUDA_CHECK(cudaFree(d_surface_n_x));
        CUDA_CHECK(cudaFree(d_surface_n_y));
        CUDA_CHECK(cudaFree(d_surface_n_z));
        CUDA_CHECK(cudaFree(d_diffuse_x));
        CUDA_CHECK(cudaFree(d_diffuse_y));
        CUDA_CHECK(cudaFree(d_diffuse_z));
        CUDA_CHECK(cudaFree(d_positions_x));
        CUDA_CHECK(cudaFree(d_positions_y));
        CUDA_CHECK(cudaFree(d_positions_z));
        CUDA_CHECK(cudaFree(d_ka));
        CUDA_CHECK(cudaFree(d_color_x));
        CUDA_CHECK(cudaFree(d_color_y));
        CUDA_CHECK(cudaFree(d_color_z));
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 1800) {
        fprintf(stderr, "%s: expected 1800 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_values("color_x", h_color_x.data(), reinterpret_cast<const float*>(expected.data() + 0), 150,
                       0.00025f, 0.0001f, stats);
    ok &= check_values("color_y", h_color_y.data(), reinterpret_cast<const float*>(expected.data() + 600), 150,
                       0.00025f, 0.0001f, stats);
    ok &= check_values("color_z", h_color_z.data(), reinterpret_cast<const float*>(expected.data() + 1200), 150,
                       0.00025f, 0.0001f, stats);
    printf("%s vec_e1aeb9934c: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        vec_e1aeb9934c<<<grid, block>>>(d_particle_ids, d_surface_n_x, d_surface_n_y, d_surface_n_z, d_diffuse_x, d_diffuse_y, d_diffuse_z, d_positions_x, d_positions_y, d_positions_z, lamp, d_ka, to_eye, spec_power, d_color_x, d_color_y, d_color_z, num_threads);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        vec_e1aeb9934c<<<grid, block>>>(d_particle_ids, d_surface_n_x, d_surface_n_y, d_surface_n_z, d_diffuse_x, d_diffuse_y, d_diffuse_z, d_positions_x, d_positions_y, d_positions_z, lamp, d_ka, to_eye, spec_power, d_color_x, d_color_y, d_color_z, num_threads);
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
    printf("{\"kernel\": \"vec_e1aeb9934c\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_particle_ids));
    CUDA_CHECK(cudaFree(d_surface_n_x));
    CUDA_CHECK(cudaFree(d_surface_n_y));
    CUDA_CHECK(cudaFree(d_surface_n_z));
    CUDA_CHECK(cudaFree(d_diffuse_x));
    CUDA_CHECK(cudaFree(d_diffuse_y));
    CUDA_CHECK(cudaFree(d_diffuse_z));
    CUDA_CHECK(cudaFree(d_positions_x));
    CUDA_CHECK(cudaFree(d_positions_y));
    CUDA_CHECK(cudaFree(d_positions_z));
    CUDA_CHECK(cudaFree(d_ka));
    CUDA_CHECK(cudaFree(d_color_x));
    CUDA_CHECK(cudaFree(d_color_y));
    CUDA_CHECK(cudaFree(d_color_z));
    return ok ? 0 : 1;
}
