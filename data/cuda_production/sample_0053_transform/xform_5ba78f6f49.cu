// Rigid-body transform kernel (1-D launch 128; module constants; plane contact (vec4 helper); quat_from_axis_angle; wp.transform; transform_point; transform_vector; weighted per element; gather through body index; transform composition)
// Standalone CUDA translation of the Warp kernel `xform_5ba78f6f49` (see xform_5ba78f6f49.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct quat
{
    float x, y, z, w;  // Warp's order: vector part, then scalar part
};

struct transform
{
    float3 p;  // translation
    quat q;    // rotation
};

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

__device__ __forceinline__ quat quat_from_axis_angle(float3 axis, float angle)
{
    float half = angle * 0.5f;
    float w = cosf(half);
    float s = sinf(half);
    return quat{axis.x * s, axis.y * s, axis.z * s, w};
}

__device__ __forceinline__ float3 quat_rotate(quat q, float3 x)
{
    float c = (2.0f * q.w * q.w - 1.0f);
    float d = 2.0f * (q.x * x.x + q.y * x.y + q.z * x.z);
    return make_float3(x.x * c + q.x * d + (q.y * x.z - q.z * x.y) * q.w * 2.0f,
                       x.y * c + q.y * d + (q.z * x.x - q.x * x.z) * q.w * 2.0f,
                       x.z * c + q.z * d + (q.x * x.y - q.y * x.x) * q.w * 2.0f);
}

__device__ __forceinline__ quat operator*(quat a, quat b)
{
    return quat{a.w * b.x + b.w * a.x + a.y * b.z - b.y * a.z, a.w * b.y + b.w * a.y + a.z * b.x - b.z * a.x,
                a.w * b.z + b.w * a.z + a.x * b.y - b.x * a.y, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

__device__ __forceinline__ transform transform_multiply(transform a, transform b)
{
    float3 r = quat_rotate(a.q, b.p);
    return transform{make_float3(r.x + a.p.x, r.y + a.p.y, r.z + a.p.z), a.q * b.q};
}

__device__ __forceinline__ float3 transform_point(transform t, float3 x)
{
    float3 r = quat_rotate(t.q, x);
    return make_float3(t.p.x + r.x, t.p.y + r.y, t.p.z + r.z);
}

__device__ __forceinline__ float3 transform_vector(transform t, float3 x)
{
    return quat_rotate(t.q, x);
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

constexpr float DT = 0.125f;
constexpr float FRAME_DT = 0.4375f;
constexpr float KE = 2.375f;

__device__ float xform_5ba78f6f49_plane_distance(float4 plane, float3 p)
{
    float3 normal = make_float3(plane.x, plane.y, plane.z);
    return dot(normal, p) + plane.w;
}

__global__ void xform_5ba78f6f49(
    float4 plane,
    const float3* __restrict__ x_local,
    float3* contact_force,
    const float3* __restrict__ origins,
    float3 axis,
    const float* __restrict__ omega,
    const float3* __restrict__ anchors,
    const float3* __restrict__ dirs,
    const float* __restrict__ weights,
    float3* out,
    const transform* __restrict__ poses,
    const int* __restrict__ body_id,
    transform root,
    float3* out2,
    quat* q_out,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    float3 r = x_local[tid];
    float depth = fminf(xform_5ba78f6f49_plane_distance(plane, r), 0.0f);
    contact_force[tid] = -KE * depth * make_float3(plane.x, plane.y, plane.z);
    quat q = quat_from_axis_angle(normalize(axis), omega[tid] * FRAME_DT);
    transform X = transform{origins[tid], q};
    float3 r2 = anchors[tid];
    float3 p_world = transform_point(X, r2);
    float3 r3 = dirs[tid];
    float3 v_world = transform_vector(X, r3);
    out[tid] = weights[tid] * (p_world + v_world * DT);
    int b = body_id[tid];
    transform X2 = poses[b];
    transform X_child = transform_multiply(root, X2);
    float3 t = X_child.p;
    quat rq = X_child.q;
    out2[tid] = quat_rotate(rq, t);
    q_out[tid] = rq;
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

    const uint32_t seed = 53069388U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int n = bench ? bench_outer : 128;

    // Inputs (host)
    const float4 plane = make_float4(-0.125f, 0.75f, 0.5625f, 0.9375f);
    std::vector<float> h_x_local((size_t)n * 3);  // input, shape [128] of vec3
    fill_float(h_x_local.data(), h_x_local.size(), seed, 1, -512, 1025U, 0.00390625f);
    std::vector<float> h_contact_force((size_t)n * 3);  // output, shape [128] of vec3
    std::vector<float> h_origins((size_t)n * 3);  // input, shape [128] of vec3
    fill_float(h_origins.data(), h_origins.size(), seed, 3, -2048, 4097U, 0.0009765625f);
    const float3 axis = make_float3(0.875f, -0.8125f, 0.125f);
    std::vector<float> h_omega((size_t)n * 1);  // input, shape [128] of float32
    fill_float(h_omega.data(), h_omega.size(), seed, 5, -4096, 8193U, 0.0009765625f);
    std::vector<float> h_anchors((size_t)n * 3);  // input, shape [128] of vec3
    fill_float(h_anchors.data(), h_anchors.size(), seed, 6, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_dirs((size_t)n * 3);  // input, shape [128] of vec3
    fill_float(h_dirs.data(), h_dirs.size(), seed, 7, -1024, 2049U, 0.0009765625f);
    std::vector<float> h_weights((size_t)n * 1);  // input, shape [128] of float32
    fill_float(h_weights.data(), h_weights.size(), seed, 8, 0, 2049U, 0.0009765625f);
    std::vector<float> h_out((size_t)n * 3);  // output, shape [128] of vec3
    std::vector<float> h_poses(28);  // input, shape [4] of transform
    fill_float(h_poses.data(), h_poses.size(), seed, 10, -1024, 2049U, 0.0009765625f);
    std::vector<int> h_body_id((size_t)n * 1);  // index, shape [128] of int32
    fill_int(h_body_id.data(), h_body_id.size(), seed, 11, 0, 4U);
    const transform root = transform{make_float3(0.0625f, 0.125f, -1.8125f), quat{-0.26688024401664734f, -0.5871365666389465f, 0.3202562928199768f, -0.6938886642456055f}};
    std::vector<float> h_out2((size_t)n * 3);  // output, shape [128] of vec3
    std::vector<float> h_q_out((size_t)n * 4);  // output, shape [128] of quat

    // Device buffers
    float3* d_x_local = nullptr;
    const size_t bytes_x_local = h_x_local.size() * sizeof(h_x_local[0]);
    CUDA_CHECK(cudaMalloc(&d_x_local, bytes_x_local));
    CUDA_CHECK(cudaMemcpy(d_x_local, h_x_local.data(), bytes_x_local, cudaMemcpyHostToDevice));
    float3* d_contact_force = nullptr;
    const size_t bytes_contact_force = h_contact_force.size() * sizeof(h_contact_force[0]);
    CUDA_CHECK(cudaMalloc(&d_contact_force, bytes_contact_force));
    CUDA_CHECK(cudaMemcpy(d_contact_force, h_contact_force.data(), bytes_contact_force, cudaMemcpyHostToDevice));
    float3* d_origins = nullptr;
    const size_t bytes_origins = h_origins.size() * sizeof(h_origins[0]);
    CUDA_CHECK(cudaMalloc(&d_origins, bytes_origins));
    CUDA_CHECK(cudaMemcpy(d_origins, h_origins.data(), bytes_origins, cudaMemcpyHostToDevice));
    float* d_omega = nullptr;
    const size_t bytes_omega = h_omega.size() * sizeof(h_omega[0]);
    CUDA_CHECK(cudaMalloc(&d_omega, bytes_omega));
    CUDA_CHECK(cudaMemcpy(d_omega, h_omega.data(), bytes_omega, cudaMemcpyHostToDevice));
    float3* d_anchors = nullptr;
    const size_t bytes_anchors = h_anchors.size() * sizeof(h_anchors[0]);
    CUDA_CHECK(cudaMalloc(&d_anchors, bytes_anchors));
    CUDA_CHECK(cudaMemcpy(d_anchors, h_anchors.data(), bytes_anchors, cudaMemcpyHostToDevice));
    float3* d_dirs = nullptr;
    const size_t bytes_dirs = h_dirs.size() * sizeof(h_dirs[0]);
    CUDA_CHECK(cudaMalloc(&d_dirs, bytes_dirs));
    CUDA_CHECK(cudaMemcpy(d_dirs, h_dirs.data(), bytes_dirs, cudaMemcpyHostToDevice));
    float* d_weights = nullptr;
    const size_t bytes_weights = h_weights.size() * sizeof(h_weights[0]);
    CUDA_CHECK(cudaMalloc(&d_weights, bytes_weights));
    CUDA_CHECK(cudaMemcpy(d_weights, h_weights.data(), bytes_weights, cudaMemcpyHostToDevice));
    float3* d_out = nullptr;
    const size_t bytes_out = h_out.size() * sizeof(h_out[0]);
    CUDA_CHECK(cudaMalloc(&d_out, bytes_out));
    CUDA_CHECK(cudaMemcpy(d_out, h_out.data(), bytes_out, cudaMemcpyHostToDevice));
    transform* d_poses = nullptr;
    const size_t bytes_poses = h_poses.size() * sizeof(h_poses[0]);
    CUDA_CHECK(cudaMalloc(&d_poses, bytes_poses));
    CUDA_CHECK(cudaMemcpy(d_poses, h_poses.data(), bytes_poses, cudaMemcpyHostToDevice));
    int* d_body_id = nullptr;
    const size_t bytes_body_id = h_body_id.size() * sizeof(h_body_id[0]);
    CUDA_CHECK(cudaMalloc(&d_body_id, bytes_body_id));
    CUDA_CHECK(cudaMemcpy(d_body_id, h_body_id.data(), bytes_body_id, cudaMemcpyHostToDevice));
    float3* d_out2 = nullptr;
    const size_t bytes_out2 = h_out2.size() * sizeof(h_out2[0]);
    CUDA_CHECK(cudaMalloc(&d_out2, bytes_out2));
    CUDA_CHECK(cudaMemcpy(d_out2, h_out2.data(), bytes_out2, cudaMemcpyHostToDevice));
    quat* d_q_out = nullptr;
    const size_t bytes_q_out = h_q_out.size() * sizeof(h_q_out[0]);
    CUDA_CHECK(cudaMalloc(&d_q_out, bytes_q_out));
    CUDA_CHECK(cudaMemcpy(d_q_out, h_q_out.data(), bytes_q_out, cudaMemcpyHostToDevice));

    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    xform_5ba78f6f49<<<grid, block>>>(plane, d_x_local, d_contact_force, d_origins, axis, d_omega, d_anchors, d_dirs, d_weights, d_out, d_poses, d_body_id, root, d_out2, d_q_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_contact_force.data(), d_contact_force, bytes_contact_force, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, bytes_out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_out2.data(), d_out2, bytes_out2, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_q_out.data(), d_q_out, bytes_q_out, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_contact_force.data(), 1, bytes_contact_force, dump) == bytes_contact_force;
            dump_ok = dump_ok && fwrite(h_out.data(), 1, bytes_out, dump) == bytes_out;
            dump_ok = dump_ok && fwrite(h_out2.data(), 1, bytes_out2, dump) == bytes_out2;
            dump_ok = dump_ok && fwrite(h_q_out.data(), 1, bytes_q_out, dump) == bytes_q_out;
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
            xform_5ba78f6f49<<<grid, block, 0, stream>>>(plane, d_x_local, d_contact_force, d_origins, axis, d_omega, d_anchors, d_dirs, d_weights, d_out, d_poses, d_body_id, root, d_out2, d_q_out, n);
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
        const size_t bytes_read = bytes_x_local + bytes_origins + bytes_omega + bytes_anchors + bytes_dirs + bytes_weights + bytes_poses + bytes_body_id;
        const size_t bytes_written = bytes_contact_force + bytes_out + bytes_out2 + bytes_q_out;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"xform_5ba78f6f49\", \"mode\": \"bench\", \"launch_dim\": [%d], "
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
        CUDA_CHECK(cudaFree(d_x_local));
        CUDA_CHECK(cudaFree(d_contact_force));
        CUDA_CHECK(cudaFree(d_origins));
        CUDA_CHECK(cudaFree(d_omega));
        CUDA_CHECK(cudaFree(d_anchors));
        CUDA_CHECK(cudaFree(d_dirs));
        CUDA_CHECK(cudaFree(d_weights));
        CUDA_CHECK(cudaFree(d_out));
        CUDA_CHECK(cudaFree(d_poses));
        CUDA_CHECK(cudaFree(d_body_id));
        CUDA_CHECK(cudaFree(d_out2));
        CUDA_CHECK(cudaFree(d_q_out));
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 6656) {
        fprintf(stderr, "%s: expected 6656 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_values("contact_force", h_contact_force.data(), reinterpret_cast<const float*>(expected.data() + 0), 384,
                       0.0019f, 0.0001f, stats);
    ok &= check_values("out", h_out.data(), reinterpret_cast<const float*>(expected.data() + 1536), 384,
                       0.0032f, 0.0001f, stats);
    ok &= check_values("out2", h_out2.data(), reinterpret_cast<const float*>(expected.data() + 3072), 384,
                       0.0064f, 0.0001f, stats);
    ok &= check_values("q_out", h_q_out.data(), reinterpret_cast<const float*>(expected.data() + 4608), 512,
                       0.0004f, 0.0001f, stats);
    printf("%s xform_5ba78f6f49: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        xform_5ba78f6f49<<<grid, block>>>(plane, d_x_local, d_contact_force, d_origins, axis, d_omega, d_anchors, d_dirs, d_weights, d_out, d_poses, d_body_id, root, d_out2, d_q_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        xform_5ba78f6f49<<<grid, block>>>(plane, d_x_local, d_contact_force, d_origins, axis, d_omega, d_anchors, d_dirs, d_weights, d_out, d_poses, d_body_id, root, d_out2, d_q_out, n);
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
    printf("{\"kernel\": \"xform_5ba78f6f49\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_x_local));
    CUDA_CHECK(cudaFree(d_contact_force));
    CUDA_CHECK(cudaFree(d_origins));
    CUDA_CHECK(cudaFree(d_omega));
    CUDA_CHECK(cudaFree(d_anchors));
    CUDA_CHECK(cudaFree(d_dirs));
    CUDA_CHECK(cudaFree(d_weights));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_poses));
    CUDA_CHECK(cudaFree(d_body_id));
    CUDA_CHECK(cudaFree(d_out2));
    CUDA_CHECK(cudaFree(d_q_out));
    return ok ? 0 : 1;
}
