// Vector kernel (1-D launch 1024; triangle corners through a 2-D index array; generic @wp.func over arrays of any type (wp.array(dtype=Any)); results stored as one array per component; vertex attributes interpolated (verts, density, colors, normals))
// Standalone CUDA translation of the Warp kernel `vec_b738b5b622` (see vec_b738b5b622.py); needs only the CUDA toolkit.
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

__device__ __forceinline__ float4 operator+(float4 a, float4 b)
{
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__device__ __forceinline__ float3 operator*(float3 a, float s)
{
    return make_float3(a.x * s, a.y * s, a.z * s);
}

__device__ __forceinline__ float3 operator*(float s, float3 a)
{
    return make_float3(s * a.x, s * a.y, s * a.z);
}

__device__ __forceinline__ float4 operator*(float4 a, float s)
{
    return make_float4(a.x * s, a.y * s, a.z * s, a.w * s);
}

__device__ __forceinline__ float4 operator*(float s, float4 a)
{
    return make_float4(s * a.x, s * a.y, s * a.z, s * a.w);
}

__device__ float3 interpolate(const float3* values, int values_dim0, int i, int j, int k, float u, float v)
{
    return values[i] * (1.0f - u - v) + values[j] * u + values[k] * v;
}

__device__ float interpolate(const float* values, int values_dim0, int i, int j, int k, float u, float v)
{
    return values[i] * (1.0f - u - v) + values[j] * u + values[k] * v;
}

__device__ float4 interpolate(const float4* values, int values_dim0, int i, int j, int k, float u, float v)
{
    return values[i] * (1.0f - u - v) + values[j] * u + values[k] * v;
}

__global__ void vec_b738b5b622(
    const int* __restrict__ face_ids,
    const int* __restrict__ tri_indices,
    int tri_indices_dim1,
    const float2* __restrict__ uv_coords,
    const float3* verts,
    int verts_dim0,
    float* sample_points_x,
    float* sample_points_y,
    float* sample_points_z,
    const float* __restrict__ density,
    int density_dim0,
    float* sample_values,
    const float4* __restrict__ colors,
    int colors_dim0,
    float4* sample_colors,
    const float3* normals,
    int normals_dim0,
    float3* sample_normals,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    int f = face_ids[tid];
    int i0 = tri_indices[f * tri_indices_dim1 + 0];
    int i1 = tri_indices[f * tri_indices_dim1 + 1];
    int i2 = tri_indices[f * tri_indices_dim1 + 2];
    float2 uv = uv_coords[tid];
    float u = uv.x;
    float v = uv.y;
    float3 sample_points = interpolate(verts, verts_dim0, i0, i1, i2, u, v);
    sample_points_x[tid] = sample_points.x;
    sample_points_y[tid] = sample_points.y;
    sample_points_z[tid] = sample_points.z;
    sample_values[tid] = interpolate(density, density_dim0, i0, i1, i2, u, v);
    sample_colors[tid] = interpolate(colors, colors_dim0, i0, i1, i2, u, v);
    sample_normals[tid] = normalize(interpolate(normals, normals_dim0, i0, i1, i2, u, v));
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

    const uint32_t seed = 1115407454U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int n = bench ? bench_outer : 1024;

    // Inputs (host)
    std::vector<int> h_face_ids((size_t)n * 1);  // index, shape [1024] of int32
    fill_int(h_face_ids.data(), h_face_ids.size(), seed, 0, 0, 257U);
    std::vector<int> h_tri_indices(771);  // index, shape [257, 3] of int32
    fill_int(h_tri_indices.data(), h_tri_indices.size(), seed, 1, 0, 131U);
    std::vector<float> h_uv_coords((size_t)n * 2);  // input, shape [1024] of vec2
    fill_float(h_uv_coords.data(), h_uv_coords.size(), seed, 2, 0, 513U, 0.0009765625f);
    std::vector<float> h_verts(393);  // input, shape [131] of vec3
    fill_float(h_verts.data(), h_verts.size(), seed, 3, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_sample_points_x((size_t)n * 1);  // output, shape [1024] of float32
    std::vector<float> h_sample_points_y((size_t)n * 1);  // output, shape [1024] of float32
    std::vector<float> h_sample_points_z((size_t)n * 1);  // output, shape [1024] of float32
    std::vector<float> h_density(131);  // input, shape [131] of float32
    fill_float(h_density.data(), h_density.size(), seed, 7, 0, 1025U, 0.0009765625f);
    std::vector<float> h_sample_values((size_t)n * 1);  // output, shape [1024] of float32
    std::vector<float> h_colors(524);  // input, shape [131] of vec4
    fill_float(h_colors.data(), h_colors.size(), seed, 9, 0, 1025U, 0.0009765625f);
    std::vector<float> h_sample_colors((size_t)n * 4);  // output, shape [1024] of vec4
    std::vector<float> h_normals(393);  // input, shape [131] of vec3
    fill_float(h_normals.data(), h_normals.size(), seed, 11, 205, 820U, 0.0009765625f);
    std::vector<float> h_sample_normals((size_t)n * 3);  // output, shape [1024] of vec3

    // Device buffers
    int* d_face_ids = nullptr;
    const size_t bytes_face_ids = h_face_ids.size() * sizeof(h_face_ids[0]);
    CUDA_CHECK(cudaMalloc(&d_face_ids, bytes_face_ids));
    CUDA_CHECK(cudaMemcpy(d_face_ids, h_face_ids.data(), bytes_face_ids, cudaMemcpyHostToDevice));
    int* d_tri_indices = nullptr;
    const size_t bytes_tri_indices = h_tri_indices.size() * sizeof(h_tri_indices[0]);
    CUDA_CHECK(cudaMalloc(&d_tri_indices, bytes_tri_indices));
    CUDA_CHECK(cudaMemcpy(d_tri_indices, h_tri_indices.data(), bytes_tri_indices, cudaMemcpyHostToDevice));
    float2* d_uv_coords = nullptr;
    const size_t bytes_uv_coords = h_uv_coords.size() * sizeof(h_uv_coords[0]);
    CUDA_CHECK(cudaMalloc(&d_uv_coords, bytes_uv_coords));
    CUDA_CHECK(cudaMemcpy(d_uv_coords, h_uv_coords.data(), bytes_uv_coords, cudaMemcpyHostToDevice));
    float3* d_verts = nullptr;
    const size_t bytes_verts = h_verts.size() * sizeof(h_verts[0]);
    CUDA_CHECK(cudaMalloc(&d_verts, bytes_verts));
    CUDA_CHECK(cudaMemcpy(d_verts, h_verts.data(), bytes_verts, cudaMemcpyHostToDevice));
    float* d_sample_points_x = nullptr;
    const size_t bytes_sample_points_x = h_sample_points_x.size() * sizeof(h_sample_points_x[0]);
    CUDA_CHECK(cudaMalloc(&d_sample_points_x, bytes_sample_points_x));
    CUDA_CHECK(cudaMemcpy(d_sample_points_x, h_sample_points_x.data(), bytes_sample_points_x, cudaMemcpyHostToDevice));
    float* d_sample_points_y = nullptr;
    const size_t bytes_sample_points_y = h_sample_points_y.size() * sizeof(h_sample_points_y[0]);
    CUDA_CHECK(cudaMalloc(&d_sample_points_y, bytes_sample_points_y));
    CUDA_CHECK(cudaMemcpy(d_sample_points_y, h_sample_points_y.data(), bytes_sample_points_y, cudaMemcpyHostToDevice));
    float* d_sample_points_z = nullptr;
    const size_t bytes_sample_points_z = h_sample_points_z.size() * sizeof(h_sample_points_z[0]);
    CUDA_CHECK(cudaMalloc(&d_sample_points_z, bytes_sample_points_z));
    CUDA_CHECK(cudaMemcpy(d_sample_points_z, h_sample_points_z.data(), bytes_sample_points_z, cudaMemcpyHostToDevice));
    float* d_density = nullptr;
    const size_t bytes_density = h_density.size() * sizeof(h_density[0]);
    CUDA_CHECK(cudaMalloc(&d_density, bytes_density));
    CUDA_CHECK(cudaMemcpy(d_density, h_density.data(), bytes_density, cudaMemcpyHostToDevice));
    float* d_sample_values = nullptr;
    const size_t bytes_sample_values = h_sample_values.size() * sizeof(h_sample_values[0]);
    CUDA_CHECK(cudaMalloc(&d_sample_values, bytes_sample_values));
    CUDA_CHECK(cudaMemcpy(d_sample_values, h_sample_values.data(), bytes_sample_values, cudaMemcpyHostToDevice));
    float4* d_colors = nullptr;
    const size_t bytes_colors = h_colors.size() * sizeof(h_colors[0]);
    CUDA_CHECK(cudaMalloc(&d_colors, bytes_colors));
    CUDA_CHECK(cudaMemcpy(d_colors, h_colors.data(), bytes_colors, cudaMemcpyHostToDevice));
    float4* d_sample_colors = nullptr;
    const size_t bytes_sample_colors = h_sample_colors.size() * sizeof(h_sample_colors[0]);
    CUDA_CHECK(cudaMalloc(&d_sample_colors, bytes_sample_colors));
    CUDA_CHECK(cudaMemcpy(d_sample_colors, h_sample_colors.data(), bytes_sample_colors, cudaMemcpyHostToDevice));
    float3* d_normals = nullptr;
    const size_t bytes_normals = h_normals.size() * sizeof(h_normals[0]);
    CUDA_CHECK(cudaMalloc(&d_normals, bytes_normals));
    CUDA_CHECK(cudaMemcpy(d_normals, h_normals.data(), bytes_normals, cudaMemcpyHostToDevice));
    float3* d_sample_normals = nullptr;
    const size_t bytes_sample_normals = h_sample_normals.size() * sizeof(h_sample_normals[0]);
    CUDA_CHECK(cudaMalloc(&d_sample_normals, bytes_sample_normals));
    CUDA_CHECK(cudaMemcpy(d_sample_normals, h_sample_normals.data(), bytes_sample_normals, cudaMemcpyHostToDevice));

    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    vec_b738b5b622<<<grid, block>>>(d_face_ids, d_tri_indices, 3, d_uv_coords, d_verts, 131, d_sample_points_x, d_sample_points_y, d_sample_points_z, d_density, 131, d_sample_values, d_colors, 131, d_sample_colors, d_normals, 131, d_sample_normals, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_sample_points_x.data(), d_sample_points_x, bytes_sample_points_x, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_sample_points_y.data(), d_sample_points_y, bytes_sample_points_y, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_sample_points_z.data(), d_sample_points_z, bytes_sample_points_z, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_sample_values.data(), d_sample_values, bytes_sample_values, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_sample_colors.data(), d_sample_colors, bytes_sample_colors, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_sample_normals.data(), d_sample_normals, bytes_sample_normals, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_sample_points_x.data(), 1, bytes_sample_points_x, dump) == bytes_sample_points_x;
            dump_ok = dump_ok && fwrite(h_sample_points_y.data(), 1, bytes_sample_points_y, dump) == bytes_sample_points_y;
            dump_ok = dump_ok && fwrite(h_sample_points_z.data(), 1, bytes_sample_points_z, dump) == bytes_sample_points_z;
            dump_ok = dump_ok && fwrite(h_sample_values.data(), 1, bytes_sample_values, dump) == bytes_sample_values;
            dump_ok = dump_ok && fwrite(h_sample_colors.data(), 1, bytes_sample_colors, dump) == bytes_sample_colors;
            dump_ok = dump_ok && fwrite(h_sample_normals.data(), 1, bytes_sample_normals, dump) == bytes_sample_normals;
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
            vec_b738b5b622<<<grid, block, 0, stream>>>(d_face_ids, d_tri_indices, 3, d_uv_coords, d_verts, 131, d_sample_points_x, d_sample_points_y, d_sample_points_z, d_density, 131, d_sample_values, d_colors, 131, d_sample_colors, d_normals, 131, d_sample_normals, n);
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
        const size_t bytes_read = bytes_face_ids + bytes_tri_indices + bytes_uv_coords + bytes_verts + bytes_density + bytes_colors + bytes_normals;
        const size_t bytes_written = bytes_sample_points_x + bytes_sample_points_y + bytes_sample_points_z + bytes_sample_values + bytes_sample_colors + bytes_sample_normals;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"vec_b738b5b622\", \"mode\": \"bench\", \"launch_dim\": [%d], "
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
        CUDA_CHECK(cudaFree(d_face_ids));
        CUDA_CHECK(cudaFree(d_tri_indices));
        CUDA_CHECK(cudaFree(d_uv_coords));
        CUDA_CHECK(cudaFree(d_verts));
        CUDA_CHECK(cudaFree(d_sample_points_x));
        CUDA_CHECK(cudaFree(d_sample_points_y));
        CUDA_CHECK(cudaFree(d_sample_points_z));
        CUDA_CHECK(cudaFree(d_density));
        CUDA_CHECK(cudaFree(d_sample_values));
        CUDA_CHECK(cudaFree(d_colors));
        CUDA_CHECK(cudaFree(d_sample_colors));
        CUDA_CHECK(cudaFree(d_normals));
        CUDA_CHECK(cudaFree(d_sample_normals));
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 45056) {
        fprintf(stderr, "%s: expected 45056 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_values("sample_points_x", h_sample_points_x.data(), reinterpret_cast<const float*>(expected.data() + 0), 1024,
                       0.0002f, 0.0001f, stats);
    ok &= check_values("sample_points_y", h_sample_points_y.data(), reinterpret_cast<const float*>(expected.data() + 4096), 1024,
                       0.0002f, 0.0001f, stats);
    ok &= check_values("sample_points_z", h_sample_points_z.data(), reinterpret_cast<const float*>(expected.data() + 8192), 1024,
                       0.0002f, 0.0001f, stats);
    ok &= check_values("sample_values", h_sample_values.data(), reinterpret_cast<const float*>(expected.data() + 12288), 1024,
                       0.0001f, 0.0001f, stats);
    ok &= check_values("sample_colors", h_sample_colors.data(), reinterpret_cast<const float*>(expected.data() + 16384), 4096,
                       0.0001f, 0.0001f, stats);
    ok &= check_values("sample_normals", h_sample_normals.data(), reinterpret_cast<const float*>(expected.data() + 32768), 3072,
                       0.0001f, 0.0001f, stats);
    printf("%s vec_b738b5b622: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        vec_b738b5b622<<<grid, block>>>(d_face_ids, d_tri_indices, 3, d_uv_coords, d_verts, 131, d_sample_points_x, d_sample_points_y, d_sample_points_z, d_density, 131, d_sample_values, d_colors, 131, d_sample_colors, d_normals, 131, d_sample_normals, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        vec_b738b5b622<<<grid, block>>>(d_face_ids, d_tri_indices, 3, d_uv_coords, d_verts, 131, d_sample_points_x, d_sample_points_y, d_sample_points_z, d_density, 131, d_sample_values, d_colors, 131, d_sample_colors, d_normals, 131, d_sample_normals, n);
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
    printf("{\"kernel\": \"vec_b738b5b622\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_face_ids));
    CUDA_CHECK(cudaFree(d_tri_indices));
    CUDA_CHECK(cudaFree(d_uv_coords));
    CUDA_CHECK(cudaFree(d_verts));
    CUDA_CHECK(cudaFree(d_sample_points_x));
    CUDA_CHECK(cudaFree(d_sample_points_y));
    CUDA_CHECK(cudaFree(d_sample_points_z));
    CUDA_CHECK(cudaFree(d_density));
    CUDA_CHECK(cudaFree(d_sample_values));
    CUDA_CHECK(cudaFree(d_colors));
    CUDA_CHECK(cudaFree(d_sample_colors));
    CUDA_CHECK(cudaFree(d_normals));
    CUDA_CHECK(cudaFree(d_sample_normals));
    return ok ? 0 : 1;
}
