// Matrix kernel (1-D launch 64; angular velocity in the body frame; @wp.func helper (rotation step); rotation stepped and re-orthonormalised row by row (Gram-Schmidt))
// Standalone CUDA translation of the Warp kernel `mat_5ea53bacef` (see mat_5ea53bacef.py); needs only the CUDA toolkit.
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

__device__ __forceinline__ float3 cross(float3 a, float3 b)
{
    return make_float3(a.y * b.z - a.z * b.y,
                       a.z * b.x - a.x * b.z,
                       a.x * b.y - a.y * b.x);
}

__device__ __forceinline__ float dot(float3 a, float3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

__device__ __forceinline__ float3 get_row(const mat33& a, int r)
{
    return make_float3(a.m[r][0], a.m[r][1], a.m[r][2]);
}

__device__ __forceinline__ mat33 operator+(const mat33& a, const mat33& b)
{
    mat33 r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r.m[i][j] = a.m[i][j] + b.m[i][j];
    return r;
}

__device__ __forceinline__ mat33 operator*(const mat33& a, const mat33& b)
{
    mat33 r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < 3; ++k)
                sum = fmaf(a.m[i][k], b.m[k][j], sum);  // Warp accumulates with fma
            r.m[i][j] = sum;
        }
    return r;
}

__device__ __forceinline__ mat33 operator*(const mat33& a, float s)
{
    mat33 r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r.m[i][j] = a.m[i][j] * s;
    return r;
}

__device__ __forceinline__ mat33 operator*(float s, const mat33& a)
{
    return a * s;
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

__device__ __forceinline__ mat33 matrix_from_cols(float3 c0, float3 c1, float3 c2)
{
    return mat33{{{c0.x, c1.x, c2.x}, {c0.y, c1.y, c2.y}, {c0.z, c1.z, c2.z}}};
}

__device__ __forceinline__ mat33 quat_to_matrix(quat q)
{
    return matrix_from_cols(quat_rotate(q, make_float3(1.0f, 0.0f, 0.0f)),
                            quat_rotate(q, make_float3(0.0f, 1.0f, 0.0f)),
                            quat_rotate(q, make_float3(0.0f, 0.0f, 1.0f)));
}

__device__ __forceinline__ void set_row(mat33& a, int r, float3 v)
{
    a.m[r][0] = v.x;
    a.m[r][1] = v.y;
    a.m[r][2] = v.z;
}

__device__ __forceinline__ mat33 skew(float3 a)
{
    return mat33{{{0.0f, -a.z, a.y}, {a.z, 0.0f, -a.x}, {-a.y, a.x, 0.0f}}};
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

__device__ mat33 rotation_step(quat q, float3 omega, float dt)
{
    mat33 R = quat_to_matrix(normalize(q));
    R = R + dt * R * skew(omega);
    set_row(R, 0, normalize(get_row(R, 0)));
    float proj = dot(get_row(R, 1), get_row(R, 0));
    set_row(R, 1, normalize(get_row(R, 1) - proj * get_row(R, 0)));
    set_row(R, 2, cross(get_row(R, 0), get_row(R, 1)));
    return R;
}

// Threads per block: the launch and the kernel's staging arrays (stores of large elements) use it
constexpr int STAGE_THREADS = 256;

__global__ void mat_5ea53bacef(
    const quat* __restrict__ rot,
    const float3* ang_vel,
    float dt,
    mat33* body_R,
    int n)
{
    // body_R's 36-byte elements: the block stages its slice here and writes it out contiguously
    __shared__ float body_R_stage0[STAGE_THREADS * 9];
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        quat rot_v = rot[tid];
        float3 ang_vel_v = ang_vel[tid];
        const mat33 body_R_value0 = rotation_step(rot_v, ang_vel_v, dt);
        // body_R[tid] = body_R_value0: staged, written out by the block after the barrier
        body_R_stage0[threadIdx.x * 9 + 0] = body_R_value0.m[0][0];
        body_R_stage0[threadIdx.x * 9 + 1] = body_R_value0.m[0][1];
        body_R_stage0[threadIdx.x * 9 + 2] = body_R_value0.m[0][2];
        body_R_stage0[threadIdx.x * 9 + 3] = body_R_value0.m[1][0];
        body_R_stage0[threadIdx.x * 9 + 4] = body_R_value0.m[1][1];
        body_R_stage0[threadIdx.x * 9 + 5] = body_R_value0.m[1][2];
        body_R_stage0[threadIdx.x * 9 + 6] = body_R_value0.m[2][0];
        body_R_stage0[threadIdx.x * 9 + 7] = body_R_value0.m[2][1];
        body_R_stage0[threadIdx.x * 9 + 8] = body_R_value0.m[2][2];
    }
    __syncthreads();  // the block's staged elements are all in shared memory
    {
        // body_R[body_R_first0 .. body_R_first0 + body_R_count0 / 9): the elements of this block's threads inside the launch
        const int body_R_first0 = blockIdx.x * STAGE_THREADS;
        const int body_R_count0 = min(STAGE_THREADS, n - body_R_first0) * 9;
        float* body_R_slice0 = reinterpret_cast<float*>(body_R + body_R_first0);
        for (int body_R_k0 = threadIdx.x; body_R_k0 < body_R_count0; body_R_k0 += STAGE_THREADS)
            body_R_slice0[body_R_k0] = body_R_stage0[body_R_k0];
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

    const uint32_t seed = 3369948787U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int n = bench ? bench_outer : 64;

    // Inputs (host)
    std::vector<float> h_rot((size_t)n * 4);  // input, shape [64] of quat
    fill_float(h_rot.data(), h_rot.size(), seed, 0, 256, 769U, 0.0009765625f);
    std::vector<float> h_ang_vel((size_t)n * 3);  // input, shape [64] of vec3
    fill_float(h_ang_vel.data(), h_ang_vel.size(), seed, 1, -1024, 2049U, 0.0009765625f);
    const float dt = 0.03125f;
    std::vector<float> h_body_R((size_t)n * 9);  // output, shape [64] of mat33

    // Device buffers
    quat* d_rot = nullptr;
    const size_t bytes_rot = h_rot.size() * sizeof(h_rot[0]);
    CUDA_CHECK(cudaMalloc(&d_rot, bytes_rot));
    CUDA_CHECK(cudaMemcpy(d_rot, h_rot.data(), bytes_rot, cudaMemcpyHostToDevice));
    float3* d_ang_vel = nullptr;
    const size_t bytes_ang_vel = h_ang_vel.size() * sizeof(h_ang_vel[0]);
    CUDA_CHECK(cudaMalloc(&d_ang_vel, bytes_ang_vel));
    CUDA_CHECK(cudaMemcpy(d_ang_vel, h_ang_vel.data(), bytes_ang_vel, cudaMemcpyHostToDevice));
    mat33* d_body_R = nullptr;
    const size_t bytes_body_R = h_body_R.size() * sizeof(h_body_R[0]);
    CUDA_CHECK(cudaMalloc(&d_body_R, bytes_body_R));
    CUDA_CHECK(cudaMemcpy(d_body_R, h_body_R.data(), bytes_body_R, cudaMemcpyHostToDevice));

    const dim3 block(STAGE_THREADS);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    mat_5ea53bacef<<<grid, block>>>(d_rot, d_ang_vel, dt, d_body_R, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_body_R.data(), d_body_R, bytes_body_R, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_body_R.data(), 1, bytes_body_R, dump) == bytes_body_R;
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
            mat_5ea53bacef<<<grid, block, 0, stream>>>(d_rot, d_ang_vel, dt, d_body_R, n);
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
        const size_t bytes_read = bytes_rot + bytes_ang_vel;
        const size_t bytes_written = bytes_body_R;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"mat_5ea53bacef\", \"mode\": \"bench\", \"launch_dim\": [%d], "
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
        CUDA_CHECK(cudaFree(d_rot));
        CUDA_CHECK(cudaFree(d_ang_vel));
        CUDA_CHECK(cudaFree(d_body_R));
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 2304) {
        fprintf(stderr, "%s: expected 2304 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_values("body_R", h_body_R.data(), reinterpret_cast<const float*>(expected.data() + 0), 576,
                       0.0001f, 0.0001f, stats);
    printf("%s mat_5ea53bacef: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        mat_5ea53bacef<<<grid, block>>>(d_rot, d_ang_vel, dt, d_body_R, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        mat_5ea53bacef<<<grid, block>>>(d_rot, d_ang_vel, dt, d_body_R, n);
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
    printf("{\"kernel\": \"mat_5ea53bacef\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_rot));
    CUDA_CHECK(cudaFree(d_ang_vel));
    CUDA_CHECK(cudaFree(d_body_R));
    return ok ? 0 : 1;
}
