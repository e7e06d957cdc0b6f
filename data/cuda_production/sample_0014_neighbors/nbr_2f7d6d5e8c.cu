// Neighbour count within a radius (1-D launch 1000; grid 64^3, cell 0.25; for over a named query)
// Standalone CUDA translation of the Warp kernel `nbr_2f7d6d5e8c` (see nbr_2f7d6d5e8c.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// A wp.HashGrid as the kernel reads it (warp/native/hashgrid.h). main() builds it on the host as
// wp.HashGrid.build does and passes it by value; its arrays are in device memory.
struct HashGrid
{
    const int* point_ids;    // the points' indices sorted by cell (stably: a cell's points in index order)
    const int* cell_starts;  // per cell: where its points start in point_ids (0 for an empty cell)
    const int* cell_ends;    // per cell: one past where they end (0 for an empty cell)
    int dim_x, dim_y, dim_z;  // cells per axis: the unbounded grid of cells wraps onto these
    float cell_width_inv;    // 1 / cell width, computed in float as Warp does
};

// A position's cell coordinate along one axis, rounded down; values beyond the int range clamp to
// [INT_MIN, INT_MAX - 1] (so a query can step one cell past its end) and NaN maps to 0, as in Warp.
__host__ __device__ inline int hash_grid_cell_coord(float v)
{
#if defined(__CUDA_ARCH__)
    return min(__float2int_rd(v), 2147483646);  // rounds down, saturates, NaN -> 0 in one instruction
#else
    const float c = floorf(v);
    // float(INT_MAX) rounds up to 2^31: compare with the exact bounds -2^31 and 2^31
    if (c >= 2147483648.0f)
        return 2147483646;
    if (c >= -2147483648.0f)
        return (int)c;
    if (c < -2147483648.0f)
        return -2147483647 - 1;
    return 0;  // NaN
#endif
}

// The physical cell of cell (x, y, z): coordinates wrap modulo the grid's dims, negative ones too
__host__ __device__ inline int hash_grid_index(const HashGrid& grid, int x, int y, int z)
{
    int cx = x % grid.dim_x;
    int cy = y % grid.dim_y;
    int cz = z % grid.dim_z;
    if (cx < 0)
        cx += grid.dim_x;
    if (cy < 0)
        cy += grid.dim_y;
    if (cz < 0)
        cz += grid.dim_z;
    return cz * (grid.dim_x * grid.dim_y) + cy * grid.dim_x + cx;
}

// The cell a point falls in
__host__ __device__ inline int hash_grid_index(const HashGrid& grid, float3 p)
{
    return hash_grid_index(grid, hash_grid_cell_coord(p.x * grid.cell_width_inv),
                           hash_grid_cell_coord(p.y * grid.cell_width_inv),
                           hash_grid_cell_coord(p.z * grid.cell_width_inv));
}

// A neighbour query in progress (Warp's hash_grid_query_t): the box of cells within the radius of a
// position, the cell being visited, and the next of that cell's points.
struct HashGridQuery
{
    int x_start, y_start, z_start;  // the box of cells, both ends included
    int x_end, y_end, z_end;
    int x, y, z;     // the cell being visited
    int cell_index;  // the next position in point_ids of its points
    int cell_end;    // one past its last
    HashGrid grid;
};

__device__ __forceinline__ void hash_grid_query_set_cell(HashGridQuery& query)
{
    const int cell = hash_grid_index(query.grid, query.x, query.y, query.z);
    query.cell_index = query.grid.cell_starts[cell];
    query.cell_end = query.grid.cell_ends[cell];
}

// A range spanning a whole axis visits each of its cells once (compared in 64 bits: start + dim - 1
// would overflow near INT_MAX)
__device__ __forceinline__ int hash_grid_query_end(int start, int end, int dim)
{
    return (long long)end - (long long)start >= (long long)dim ? start + (dim - 1) : end;
}

// wp.hash_grid_query(grid, pos, radius): every point of the cells the box [pos - radius, pos + radius]
// touches (no distance test: the kernel makes its own).
__device__ __forceinline__ HashGridQuery hash_grid_query(const HashGrid& grid, float3 pos, float radius)
{
    HashGridQuery query;
    query.grid = grid;
    const float cell_width_inv = grid.cell_width_inv;
    query.x_start = hash_grid_cell_coord((pos.x - radius) * cell_width_inv);
    query.y_start = hash_grid_cell_coord((pos.y - radius) * cell_width_inv);
    query.z_start = hash_grid_cell_coord((pos.z - radius) * cell_width_inv);
    query.x_end = hash_grid_query_end(query.x_start, hash_grid_cell_coord((pos.x + radius) * cell_width_inv), grid.dim_x);
    query.y_end = hash_grid_query_end(query.y_start, hash_grid_cell_coord((pos.y + radius) * cell_width_inv), grid.dim_y);
    query.z_end = hash_grid_query_end(query.z_start, hash_grid_cell_coord((pos.z + radius) * cell_width_inv), grid.dim_z);
    query.x = query.x_start;
    query.y = query.y_start;
    query.z = query.z_start;
    hash_grid_query_set_cell(query);
    return query;
}

// The query's next point, into `index`; false once every cell is visited. Warp's order: a cell's
// points in point_ids order, cells x fastest, then y, then z. Sums over neighbours depend on it.
__device__ __forceinline__ bool hash_grid_query_next(HashGridQuery& query, int& index)
{
    while (true) {
        if (query.cell_index < query.cell_end) {
            index = query.grid.point_ids[query.cell_index++];
            return true;
        }
        query.x++;
        if (query.x > query.x_end) {
            query.x = query.x_start;
            query.y++;
        }
        if (query.y > query.y_end) {
            query.y = query.y_start;
            query.z++;
        }
        if (query.z > query.z_end)
            return false;
        hash_grid_query_set_cell(query);
    }
}

__device__ __forceinline__ float dot(float3 a, float3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

__device__ __forceinline__ float length(float3 a)
{
    return sqrtf(dot(a, a));
}

__device__ __forceinline__ float3 operator-(float3 a, float3 b)
{
    return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}

__global__ void nbr_2f7d6d5e8c(
    HashGrid grid,
    const float3* positions,
    float radius,
    int* neighbor_count,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    float3 pos_i = positions[tid];
    int count = 0;
    HashGridQuery query = hash_grid_query(grid, pos_i, radius);
    int other = 0;
    while (hash_grid_query_next(query, other)) {
        float dist = length(pos_i - positions[other]);
        if (other != tid && dist <= radius) {
            count += 1;
        }
    }
    neighbor_count[tid] = count;
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

// A host vector of ints in a new device buffer
static int* device_copy(const std::vector<int>& host)
{
    int* device = nullptr;
    CUDA_CHECK(cudaMalloc(&device, host.size() * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
    return device;
}

// wp.HashGrid(dim_x, dim_y, dim_z).build(points, cell_width) on the host (warp/native/hashgrid.cpp),
// its arrays copied to the device: each point's cell; the point indices sorted by cell with a stable
// counting sort (Warp's radix sort is stable too: a cell's points keep their index order, the order
// queries visit them in, so sums over neighbours round as Warp's do); each cell's range [start, end)
// of that order, 0 and 0 for an empty cell.
static HashGrid build_hash_grid(const float* points, int num_points, int dim_x, int dim_y, int dim_z, float cell_width)
{
    HashGrid grid{};
    grid.dim_x = dim_x;
    grid.dim_y = dim_y;
    grid.dim_z = dim_z;
    grid.cell_width_inv = 1.0f / cell_width;
    const int num_cells = dim_x * dim_y * dim_z;
    std::vector<int> point_cells(num_points), cell_starts(num_cells, 0), cell_ends(num_cells, 0);
    for (int i = 0; i < num_points; ++i) {
        point_cells[i] = hash_grid_index(grid, make_float3(points[3 * i], points[3 * i + 1], points[3 * i + 2]));
        ++cell_ends[point_cells[i]];  // the cell's count, for now
    }
    std::vector<int> next(num_cells);  // where each cell's next point goes in point_ids
    int start = 0;
    for (int c = 0; c < num_cells; ++c) {
        const int count = cell_ends[c];
        next[c] = start;
        cell_starts[c] = count ? start : 0;
        cell_ends[c] = count ? start + count : 0;
        start += count;
    }
    std::vector<int> point_ids(num_points);
    for (int i = 0; i < num_points; ++i)  // in index order
        point_ids[next[point_cells[i]]++] = i;
    grid.point_ids = device_copy(point_ids);
    grid.cell_starts = device_copy(cell_starts);
    grid.cell_ends = device_copy(cell_ends);
    return grid;
}

static void free_hash_grid(const HashGrid& grid)
{
    CUDA_CHECK(cudaFree(const_cast<int*>(grid.point_ids)));
    CUDA_CHECK(cudaFree(const_cast<int*>(grid.cell_starts)));
    CUDA_CHECK(cudaFree(const_cast<int*>(grid.cell_ends)));
}

// The largest s with s^3 <= x (at least 1): at bench size a hash grid's points domain and cells per
// axis grow s-fold when its points grow x-fold, so its density stays (cuda_production/bench.py)
static int integer_cbrt(int x)
{
    int s = 1;
    while ((long long)(s + 1) * (s + 1) * (s + 1) <= x)
        ++s;
    return s;
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

    const uint32_t seed = 1003414466U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int n = bench ? bench_outer : 1000;
    // A hash grid keeps its density at bench size: its points' domain and its cells per axis grow
    // with the cube root of the points' growth (cuda_production/bench.py)
    const int positions_domain_scale = integer_cbrt(n / 1000);

    // Inputs (host)
    std::vector<float> h_positions((size_t)n * 3);  // input, shape [1000] of vec3
    // values in [-1.0 s, 1.0 s] for s = positions_domain_scale (1 at the check size)
    fill_float(h_positions.data(), h_positions.size(), seed, 0, -64 * positions_domain_scale, 128U * positions_domain_scale + 1U, 0.015625f);
    const float radius = 0.25f;
    std::vector<int> h_neighbor_count((size_t)n * 1);  // output, shape [1000] of int32

    // Device buffers
    float3* d_positions = nullptr;
    const size_t bytes_positions = h_positions.size() * sizeof(h_positions[0]);
    CUDA_CHECK(cudaMalloc(&d_positions, bytes_positions));
    CUDA_CHECK(cudaMemcpy(d_positions, h_positions.data(), bytes_positions, cudaMemcpyHostToDevice));
    int* d_neighbor_count = nullptr;
    const size_t bytes_neighbor_count = h_neighbor_count.size() * sizeof(h_neighbor_count[0]);
    CUDA_CHECK(cudaMalloc(&d_neighbor_count, bytes_neighbor_count));
    CUDA_CHECK(cudaMemcpy(d_neighbor_count, h_neighbor_count.data(), bytes_neighbor_count, cudaMemcpyHostToDevice));
    // Hash grid `grid`: wp.HashGrid(64, 64, 64) built over positions with cell width 0.25
    // (with --bench its cells per axis grow with the points' domain, up to 256)
    const HashGrid arg_grid = build_hash_grid(h_positions.data(), (int)(h_positions.size() / 3),
                                              std::min(64 * positions_domain_scale, 256),
                                              std::min(64 * positions_domain_scale, 256),
                                              std::min(64 * positions_domain_scale, 256),
                                              0.25f);

    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    nbr_2f7d6d5e8c<<<grid, block>>>(arg_grid, d_positions, radius, d_neighbor_count, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_neighbor_count.data(), d_neighbor_count, bytes_neighbor_count, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_neighbor_count.data(), 1, bytes_neighbor_count, dump) == bytes_neighbor_count;
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
            nbr_2f7d6d5e8c<<<grid, block, 0, stream>>>(arg_grid, d_positions, radius, d_neighbor_count, n);
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
        // each hash grid's point_ids or BVH's item order (one int per point) count as read; its cell        // tables or tree do not (bench.py)
        const size_t bytes_read = bytes_positions + h_positions.size() / 3 * sizeof(int);
        const size_t bytes_written = bytes_neighbor_count;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"nbr_2f7d6d5e8c\", \"mode\": \"bench\", \"launch_dim\": [%d], "
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
        CUDA_CHECK(cudaFree(d_positions));
        CUDA_CHECK(cudaFree(d_neighbor_count));
        free_hash_grid(arg_grid);
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 4000) {
        fprintf(stderr, "%s: expected 4000 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_int("neighbor_count", h_neighbor_count.data(), reinterpret_cast<const int*>(expected.data() + 0), 1000, stats);
    printf("%s nbr_2f7d6d5e8c: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        nbr_2f7d6d5e8c<<<grid, block>>>(arg_grid, d_positions, radius, d_neighbor_count, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        nbr_2f7d6d5e8c<<<grid, block>>>(arg_grid, d_positions, radius, d_neighbor_count, n);
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
    printf("{\"kernel\": \"nbr_2f7d6d5e8c\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_positions));
    CUDA_CHECK(cudaFree(d_neighbor_count));
    free_hash_grid(arg_grid);
    return ok ? 0 : 1;
}
