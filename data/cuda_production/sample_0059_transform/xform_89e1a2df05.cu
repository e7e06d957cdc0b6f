// Rigid-body transform kernel (1-D launch 100; normalised quaternion array; wp.transform; transform_point; offset by a by-value origin; module constants; plane contact (vec4 helper); weighted per element; moment arm from the body origin; skew matrix (wp.mat33))
// Standalone CUDA translation of the Warp kernel `xform_89e1a2df05` (see xform_89e1a2df05.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct mat33
{
    float m[3][3];  // row-major, like Warp's mat33
};

struct quat
{
    float x, y, z, w;  // Warp's order: vector part, then scalar part
};

struct transform
{
    float3 p;  // translation
    quat q;    // rotation
};

__device__ __forceinline__ float3 operator*(const mat33& a, float3 b)
{
    return make_float3(a.m[0][0] * b.x + a.m[0][1] * b.y + a.m[0][2] * b.z,
                       a.m[1][0] * b.x + a.m[1][1] * b.y + a.m[1][2] * b.z,
                       a.m[2][0] * b.x + a.m[2][1] * b.y + a.m[2][2] * b.z);
}

__device__ __forceinline__ float dot(quat a, quat b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

__device__ __forceinline__ float length(quat a)
{
    return sqrtf(dot(a, a));
}

__device__ __forceinline__ quat normalize(quat a)
{
    // Warp returns the identity for a zero-length input
    float l = length(a);
    if (l > 0.0f) {
        float inv_l = 1.0f / l;
        return quat{a.x * inv_l, a.y * inv_l, a.z * inv_l, a.w * inv_l};
    }
    return quat{0.0f, 0.0f, 0.0f, 1.0f};
}

__device__ __forceinline__ float3 quat_rotate(quat q, float3 x)
{
    float c = (2.0f * q.w * q.w - 1.0f);
    float d = 2.0f * (q.x * x.x + q.y * x.y + q.z * x.z);
    return make_float3(x.x * c + q.x * d + (q.y * x.z - q.z * x.y) * q.w * 2.0f,
                       x.y * c + q.y * d + (q.z * x.x - q.x * x.z) * q.w * 2.0f,
                       x.z * c + q.z * d + (q.x * x.y - q.y * x.x) * q.w * 2.0f);
}

__device__ __forceinline__ float3 transform_point(transform t, float3 x)
{
    float3 r = quat_rotate(t.q, x);
    return make_float3(t.p.x + r.x, t.p.y + r.y, t.p.z + r.z);
}

__device__ __forceinline__ float3 operator+(float3 a, float3 b)
{
    return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
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

constexpr float STIFFNESS = 2.4375f;

__device__ float plane_sdf(float4 plane, float3 p)
{
    return plane.x * p.x + plane.y * p.y + plane.z * p.z + plane.w;
}

__global__ void xform_89e1a2df05(
    const float3* com,
    const quat* __restrict__ body_rot,
    const float3* verts,
    float3 shift,
    float3* x_world,
    float4 ground_plane,
    const float* __restrict__ scale,
    float3* f_contact,
    const float3* omega_world,
    float3 v_com,
    float3* vel_out,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    quat q = normalize(body_rot[tid]);
    transform X = transform{com[tid], q};
    float3 p = verts[tid];
    float3 p_world = transform_point(X, p);
    x_world[tid] = p_world + shift;
    float depth = fminf(plane_sdf(ground_plane, p_world), 0.0f);
    float s = scale[tid];
    f_contact[tid] = s * (-STIFFNESS * depth * make_float3(ground_plane.x, ground_plane.y, ground_plane.z));
    float3 w = omega_world[tid];
    float3 arm = p_world - X.p;
    mat33 W = mat33{{{0.0f, -w.z, w.y}, {w.z, 0.0f, -w.x}, {-w.y, w.x, 0.0f}}};
    vel_out[tid] = v_com + W * arm;
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

    const uint32_t seed = 3257178018U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int n = bench ? bench_outer : 100;

    // Inputs (host)
    std::vector<float> h_com((size_t)n * 3);  // input, shape [100] of vec3
    fill_float(h_com.data(), h_com.size(), seed, 0, -2048, 4097U, 0.0009765625f);
    std::vector<float> h_body_rot((size_t)n * 4);  // input, shape [100] of quat
    fill_float(h_body_rot.data(), h_body_rot.size(), seed, 1, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_verts((size_t)n * 3);  // input, shape [100] of vec3
    fill_float(h_verts.data(), h_verts.size(), seed, 2, -1024, 2049U, 0.0009765625f);
    const float3 shift = make_float3(-1.0f, 1.0f, 1.0f);
    std::vector<float> h_x_world((size_t)n * 3);  // output, shape [100] of vec3
    const float4 ground_plane = make_float4(-0.1875f, 0.875f, -0.75f, -0.0625f);
    std::vector<float> h_scale((size_t)n * 1);  // input, shape [100] of float32
    fill_float(h_scale.data(), h_scale.size(), seed, 6, 0, 2049U, 0.0009765625f);
    std::vector<float> h_f_contact((size_t)n * 3);  // output, shape [100] of vec3
    std::vector<float> h_omega_world((size_t)n * 3);  // input, shape [100] of vec3
    fill_float(h_omega_world.data(), h_omega_world.size(), seed, 8, -1024, 2049U, 0.0009765625f);
    const float3 v_com = make_float3(-1.5625f, 1.4375f, -1.8125f);
    std::vector<float> h_vel_out((size_t)n * 3);  // output, shape [100] of vec3

    // Device buffers
    float3* d_com = nullptr;
    const size_t bytes_com = h_com.size() * sizeof(h_com[0]);
    CUDA_CHECK(cudaMalloc(&d_com, bytes_com));
    CUDA_CHECK(cudaMemcpy(d_com, h_com.data(), bytes_com, cudaMemcpyHostToDevice));
    quat* d_body_rot = nullptr;
    const size_t bytes_body_rot = h_body_rot.size() * sizeof(h_body_rot[0]);
    CUDA_CHECK(cudaMalloc(&d_body_rot, bytes_body_rot));
    CUDA_CHECK(cudaMemcpy(d_body_rot, h_body_rot.data(), bytes_body_rot, cudaMemcpyHostToDevice));
    float3* d_verts = nullptr;
    const size_t bytes_verts = h_verts.size() * sizeof(h_verts[0]);
    CUDA_CHECK(cudaMalloc(&d_verts, bytes_verts));
    CUDA_CHECK(cudaMemcpy(d_verts, h_verts.data(), bytes_verts, cudaMemcpyHostToDevice));
    float3* d_x_world = nullptr;
    const size_t bytes_x_world = h_x_world.size() * sizeof(h_x_world[0]);
    CUDA_CHECK(cudaMalloc(&d_x_world, bytes_x_world));
    CUDA_CHECK(cudaMemcpy(d_x_world, h_x_world.data(), bytes_x_world, cudaMemcpyHostToDevice));
    float* d_scale = nullptr;
    const size_t bytes_scale = h_scale.size() * sizeof(h_scale[0]);
    CUDA_CHECK(cudaMalloc(&d_scale, bytes_scale));
    CUDA_CHECK(cudaMemcpy(d_scale, h_scale.data(), bytes_scale, cudaMemcpyHostToDevice));
    float3* d_f_contact = nullptr;
    const size_t bytes_f_contact = h_f_contact.size() * sizeof(h_f_contact[0]);
    CUDA_CHECK(cudaMalloc(&d_f_contact, bytes_f_contact));
    CUDA_CHECK(cudaMemcpy(d_f_contact, h_f_contact.data(), bytes_f_contact, cudaMemcpyHostToDevice));
    float3* d_omega_world = nullptr;
    const size_t bytes_omega_world = h_omega_world.size() * sizeof(h_omega_world[0]);
    CUDA_CHECK(cudaMalloc(&d_omega_world, bytes_omega_world));
    CUDA_CHECK(cudaMemcpy(d_omega_world, h_omega_world.data(), bytes_omega_world, cudaMemcpyHostToDevice));
    float3* d_vel_out = nullptr;
    const size_t bytes_vel_out = h_vel_out.size() * sizeof(h_vel_out[0]);
    CUDA_CHECK(cudaMalloc(&d_vel_out, bytes_vel_out));
    CUDA_CHECK(cudaMemcpy(d_vel_out, h_vel_out.data(), bytes_vel_out, cudaMemcpyHostToDevice));

    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    xform_89e1a2df05<<<grid, block>>>(d_com, d_body_rot, d_verts, shift, d_x_world, ground_plane, d_scale, d_f_contact, d_omega_world, v_com, d_vel_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_x_world.data(), d_x_world, bytes_x_world, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_f_contact.data(), d_f_contact, bytes_f_contact, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_vel_out.data(), d_vel_out, bytes_vel_out, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_x_world.data(), 1, bytes_x_world, dump) == bytes_x_world;
            dump_ok = dump_ok && fwrite(h_f_contact.data(), 1, bytes_f_contact, dump) == bytes_f_contact;
            dump_ok = dump_ok && fwrite(h_vel_out.data(), 1, bytes_vel_out, dump) == bytes_vel_out;
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
            xform_89e1a2df05<<<grid, block, 0, stream>>>(d_com, d_body_rot, d_verts, shift, d_x_world, ground_plane, d_scale, d_f_contact, d_omega_world, v_com, d_vel_out, n);
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
        const size_t bytes_read = bytes_com + bytes_body_rot + bytes_verts + bytes_scale + bytes_omega_world;
        const size_t bytes_written = bytes_x_world + bytes_f_contact + bytes_vel_out;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"xform_89e1a2df05\", \"mode\": \"bench\", \"launch_dim\": [%d], "
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
        CUDA_CHECK(cudaFree(d_com));
        CUDA_CHECK(cudaFree(d_body_rot));
        CUDA_CHECK(cudaFree(d_verts));
        CUDA_CHECK(cudaFree(d_x_world));
        CUDA_CHECK(cudaFree(d_scale));
        CUDA_CHECK(cudaFree(d_f_contact));
        CUDA_CHECK(cudaFree(d_omega_world));
        CUDA_CHECK(cudaFree(d_vel_out));
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 3600) {
        fprintf(stderr, "%s: expected 3600 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_values("x_world", h_x_world.data(), reinterpret_cast<const float*>(expected.data() + 0), 300,
                       0.001f, 0.0001f, stats);
    ok &= check_values("f_contact", h_f_contact.data(), reinterpret_cast<const float*>(expected.data() + 1200), 300,
                       0.0141375f, 0.0001f, stats);
    ok &= check_values("vel_out", h_vel_out.data(), reinterpret_cast<const float*>(expected.data() + 2400), 300,
                       0.0024000000000000002f, 0.0001f, stats);
    printf("%s xform_89e1a2df05: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        xform_89e1a2df05<<<grid, block>>>(d_com, d_body_rot, d_verts, shift, d_x_world, ground_plane, d_scale, d_f_contact, d_omega_world, v_com, d_vel_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        xform_89e1a2df05<<<grid, block>>>(d_com, d_body_rot, d_verts, shift, d_x_world, ground_plane, d_scale, d_f_contact, d_omega_world, v_com, d_vel_out, n);
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
    printf("{\"kernel\": \"xform_89e1a2df05\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_com));
    CUDA_CHECK(cudaFree(d_body_rot));
    CUDA_CHECK(cudaFree(d_verts));
    CUDA_CHECK(cudaFree(d_x_world));
    CUDA_CHECK(cudaFree(d_scale));
    CUDA_CHECK(cudaFree(d_f_contact));
    CUDA_CHECK(cudaFree(d_omega_world));
    CUDA_CHECK(cudaFree(d_vel_out));
    return ok ? 0 : 1;
}
