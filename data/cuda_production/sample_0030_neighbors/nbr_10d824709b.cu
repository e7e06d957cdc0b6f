// SPH density (poly6 kernel) over BVH neighbours (1-D launch 1024; BVH over zero-size boxes at the particles; BVH queried with a sphere around the particle; while wp.bvh_query_next)
// Standalone CUDA translation of the Warp kernel `nbr_10d824709b` (see nbr_10d824709b.py); needs only the CUDA toolkit.
// Build and check: make check   (make ARCH=sm_90 for an H100)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// A node of a bounding volume hierarchy over items (a mesh's triangles, a Bvh's boxes): main() builds
// the tree on the host (build_bvh_node), its root at 0. 32 bytes on a 16-byte boundary: a query reads
// a node in two 16-byte loads (load_node).
struct alignas(16) BvhNode
{
    float3 lower;  // the box around every item below this node
    int first;     // inner node: its children are nodes first and first + 1; leaf: its first slot in the item order
    float3 upper;
    int count;     // leaf: how many items it holds, order[first, first + count); inner node: 0
};

// Node `index` of a tree, in two 16-byte loads through the read-only data cache (as Warp's
// bvh_load_node): the tree does not change while a kernel runs
__device__ __forceinline__ BvhNode load_node(const BvhNode* nodes, int index)
{
    const float4* halves = reinterpret_cast<const float4*>(nodes + index);
    const float4 a = __ldg(halves), b = __ldg(halves + 1);
    return {make_float3(a.x, a.y, a.z), __float_as_int(a.w), make_float3(b.x, b.y, b.z), __float_as_int(b.w)};
}

// Entries a query's traversal stack holds: one more than the tree's depth, which main() checks (a
// median split of n items into leaves of k is about log2(n / k) deep)
constexpr int BVH_STACK_SIZE = 32;

// A wp.Bvh as the kernel reads it: one box per item and a bounding volume hierarchy over the boxes.
// main() builds both on the host (build_points_bvh) and passes the struct by value; its arrays are in
// device memory.
struct Bvh
{
    const float3* lowers;   // each item's box
    const float3* uppers;
    const BvhNode* nodes;   // the tree, its root at 0
    const int* item_order;  // item indices in leaf order
};

// Warp's intersect_aabb_aabb: boxes that touch overlap
__device__ __forceinline__ bool boxes_overlap(float3 a_lower, float3 a_upper, float3 b_lower, float3 b_upper)
{
    return !(a_lower.x > b_upper.x || a_lower.y > b_upper.y || a_lower.z > b_upper.z ||
             a_upper.x < b_lower.x || a_upper.y < b_lower.y || a_upper.z < b_lower.z);
}

// Threads per block of every launch of this program (main() launches no more)
constexpr int BVH_BLOCK_THREADS = 256;

// An iterating query's traversal stack (Warp's bvh_stack_t): this thread's column of one block-wide
// array in shared memory, entry `depth` at column[depth * BVH_BLOCK_THREADS]. The block's threads
// reach one level side by side (a bank each), and the stack takes no local memory.
struct BvhStack
{
    int* column;
    __device__ int& operator[](int depth) const { return column[depth * BVH_BLOCK_THREADS]; }
};

// This thread's traversal stack: one array per kernel for all its iterating queries, as in Warp. A
// query started inside another's loop would overwrite that one's stack; the translator refuses it.
__device__ __forceinline__ BvhStack bvh_shared_stack()
{
    __shared__ int stack[BVH_STACK_SIZE * BVH_BLOCK_THREADS];
    return {stack + threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)};
}

// What a query tests each box against (Warp's BvhQueryKind)
enum class BvhQueryKind { Box, Ray, Sphere };

// A query in progress (Warp's bvh_query_t): a box, a ray (its start and 1 / dir per axis) or a sphere
// (its centre and squared radius), the nodes still to visit, and the leaf being read.
struct BvhQuery
{
    Bvh bvh;
    BvhQueryKind kind;
    float3 lower;  // the box; a ray's start; a sphere's centre
    float3 upper;  // the box; a ray's 1 / dir; a sphere's centre
    float radius_sq;
    int node;        // the node to test next; -1: the one on top of the stack
    BvhStack stack;  // the nodes to visit after it
    int count;       // entries on the stack
    int leaf_next, leaf_end;  // the leaf's items still to test, item_order[leaf_next, leaf_end)
};

// Warp's intersect_ray_aabb (slab test): whether the ray start + t dir, t >= 0, meets the box
__device__ __forceinline__ bool ray_meets_box(float3 start, float3 rcp_dir, float3 lower, float3 upper)
{
    float l1 = (lower.x - start.x) * rcp_dir.x, l2 = (upper.x - start.x) * rcp_dir.x;
    float lmin = fminf(l1, l2), lmax = fmaxf(l1, l2);
    l1 = (lower.y - start.y) * rcp_dir.y;
    l2 = (upper.y - start.y) * rcp_dir.y;
    lmin = fmaxf(fminf(l1, l2), lmin);
    lmax = fminf(fmaxf(l1, l2), lmax);
    l1 = (lower.z - start.z) * rcp_dir.z;
    l2 = (upper.z - start.z) * rcp_dir.z;
    lmin = fmaxf(fminf(l1, l2), lmin);
    lmax = fminf(fmaxf(l1, l2), lmax);
    return lmax >= 0.0f && lmax >= lmin;
}

// Warp's intersect_sphere_aabb: the squared distance from the centre to the box, per axis, at most r^2
__device__ __forceinline__ bool sphere_meets_box(float3 centre, float radius_sq, float3 lower, float3 upper)
{
    const float dx = fmaxf(fmaxf(lower.x - centre.x, centre.x - upper.x), 0.0f);
    const float dy = fmaxf(fmaxf(lower.y - centre.y, centre.y - upper.y), 0.0f);
    const float dz = fmaxf(fmaxf(lower.z - centre.z, centre.z - upper.z), 0.0f);
    return dx * dx + dy * dy + dz * dz <= radius_sq;
}

__device__ __forceinline__ bool bvh_query_hits(const BvhQuery& query, float3 lower, float3 upper)
{
    switch (query.kind) {
    case BvhQueryKind::Ray:
        return ray_meets_box(query.lower, query.upper, lower, upper);
    case BvhQueryKind::Sphere:
        return sphere_meets_box(query.lower, query.radius_sq, lower, upper);
    default:
        return boxes_overlap(query.lower, query.upper, lower, upper);
    }
}

// wp.bvh_query_aabb(bvh, lower, upper): every item whose box overlaps [lower, upper]
__device__ __forceinline__ BvhQuery bvh_query_aabb(const Bvh& bvh, float3 lower, float3 upper)
{
    BvhQuery query;
    query.bvh = bvh;
    query.kind = BvhQueryKind::Box;
    query.lower = lower;
    query.upper = upper;
    query.radius_sq = 0.0f;
    query.node = 0;  // the root
    query.stack = bvh_shared_stack();
    query.count = 0;
    query.leaf_next = query.leaf_end = 0;
    return query;
}

// wp.bvh_query_next(query, index): the query's next item, into `index`; false once none is left.
// Depth first: a node whose box the query misses is skipped with everything below it.
__device__ inline bool bvh_query_next(BvhQuery& query, int& index)
{
    while (true) {
        while (query.leaf_next < query.leaf_end) {
            const int item = query.bvh.item_order[query.leaf_next++];
            if (bvh_query_hits(query, query.bvh.lowers[item], query.bvh.uppers[item])) {
                index = item;
                return true;
            }
        }
        if (query.node < 0) {
            if (query.count == 0)
                return false;
            query.node = query.stack[--query.count];
        }
        const BvhNode node = load_node(query.bvh.nodes, query.node);
        query.node = -1;
        if (!bvh_query_hits(query, node.lower, node.upper))
            continue;
        if (node.count > 0) {  // a leaf: its items next
            query.leaf_next = node.first;
            query.leaf_end = node.first + node.count;
        } else {  // the left child next, without a trip through the stack; the right one after it
            query.stack[query.count++] = node.first + 1;
            query.node = node.first;
        }
    }
}

// wp.bvh_query_sphere(bvh, centre, radius): every item whose box comes within `radius` of `centre`
__device__ __forceinline__ BvhQuery bvh_query_sphere(const Bvh& bvh, float3 centre, float radius)
{
    BvhQuery query = bvh_query_aabb(bvh, centre, centre);
    query.kind = BvhQueryKind::Sphere;
    const float r = fmaxf(radius, 0.0f);
    query.radius_sq = r * r;
    return query;
}

__device__ __forceinline__ float dot(float3 a, float3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

__device__ __forceinline__ float3 operator-(float3 a, float3 b)
{
    return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}

constexpr float POLY6_NORM = 20.87f;

__global__ void nbr_10d824709b(
    Bvh bvh,
    const float3* pos,
    float smoothing_length,
    const float* __restrict__ mass,
    float* densities,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    float3 p = pos[tid];
    float h2 = smoothing_length * smoothing_length;
    float density = 0.0f;
    BvhQuery candidates = bvh_query_sphere(bvh, p, smoothing_length);
    int other = 0;
    while (bvh_query_next(candidates, other)) {
        float3 delta = p - pos[other];
        float r2 = dot(delta, delta);
        if (r2 < h2) {
            density += mass[other] * powf(h2 - r2, 3.0f);
        }
    }
    densities[tid] = density * POLY6_NORM;
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

// The largest s with s^3 <= x (at least 1): at bench size a hash grid's points domain and cells per
// axis grow s-fold when its points grow x-fold, so its density stays (cuda_production/bench.py)
static int integer_cbrt(int x)
{
    int s = 1;
    while ((long long)(s + 1) * (s + 1) * (s + 1) <= x)
        ++s;
    return s;
}

// A host vector in a new device buffer
template <typename T>
static const T* device_upload(const std::vector<T>& host)
{
    T* device = nullptr;
    CUDA_CHECK(cudaMalloc(&device, host.size() * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    return device;
}

// Splits items order[first, first + count) of a node in two halves by the centres of their boxes along
// `axis` (the widest spread of those centres; ties by index: the tree is the same on every machine).
// Returns the size of the first half. (A split for build_bvh_node, which also passes the centres'
// bounds and the node's depth: a median split needs neither.)
static int median_split(std::vector<int>& order, int first, int count, const std::vector<float3>& lowers,
                        const std::vector<float3>& uppers, int axis, float3 /* centre_lower */,
                        float3 /* centre_upper */, int /* depth */)
{
    auto centre = [&](int item) {  // twice the centre
        const float lo[3] = {lowers[item].x, lowers[item].y, lowers[item].z};
        const float hi[3] = {uppers[item].x, uppers[item].y, uppers[item].z};
        return lo[axis] + hi[axis];
    };
    std::sort(order.begin() + first, order.begin() + first + count, [&](int s, int t) {
        const float cs = centre(s), ct = centre(t);
        return cs < ct || (cs == ct && s < t);
    });
    return count / 2;
}

// Node `node` of the BVH over order[first, first + count) (a mesh's triangles, a Bvh's items): its box,
// then either a leaf of at most `leaf_size` items or two children, side by side, over the two parts
// `split(order, first, count, lowers, uppers, axis, centre_min, centre_max, depth)` makes (it
// reorders the items and returns the size of the first part). Returns the depth of the subtree below
// the node.
template <typename Split>
static int build_bvh_node(std::vector<BvhNode>& nodes, int node, std::vector<int>& order, int first, int count,
                          const std::vector<float3>& lowers, const std::vector<float3>& uppers, int leaf_size,
                          Split split, int depth = 0)
{
    float3 lower = lowers[order[first]], upper = uppers[order[first]];
    float3 centre_min = make_float3(INFINITY, INFINITY, INFINITY), centre_max = make_float3(-INFINITY, -INFINITY, -INFINITY);
    for (int n = first; n < first + count; ++n) {
        const float3 lo = lowers[order[n]], hi = uppers[order[n]];
        lower = make_float3(std::min(lower.x, lo.x), std::min(lower.y, lo.y), std::min(lower.z, lo.z));
        upper = make_float3(std::max(upper.x, hi.x), std::max(upper.y, hi.y), std::max(upper.z, hi.z));
        const float3 centre = make_float3(lo.x + hi.x, lo.y + hi.y, lo.z + hi.z);  // twice the centre
        centre_min = make_float3(std::min(centre_min.x, centre.x), std::min(centre_min.y, centre.y), std::min(centre_min.z, centre.z));
        centre_max = make_float3(std::max(centre_max.x, centre.x), std::max(centre_max.y, centre.y), std::max(centre_max.z, centre.z));
    }
    nodes[node].lower = lower;
    nodes[node].upper = upper;
    if (count <= leaf_size) {
        nodes[node].first = first;
        nodes[node].count = count;
        return 0;
    }
    const float spread[3] = {centre_max.x - centre_min.x, centre_max.y - centre_min.y, centre_max.z - centre_min.z};
    const int axis = spread[0] >= spread[1] && spread[0] >= spread[2] ? 0 : (spread[1] >= spread[2] ? 1 : 2);
    const int left = split(order, first, count, lowers, uppers, axis, centre_min, centre_max, depth);
    const int child = (int)nodes.size();  // the two children sit side by side
    nodes.resize(nodes.size() + 2);
    nodes[node].first = child;
    nodes[node].count = 0;
    const int depth_left = build_bvh_node(nodes, child, order, first, left, lowers, uppers, leaf_size, split, depth + 1);
    const int depth_right = build_bvh_node(nodes, child + 1, order, first + left, count - left, lowers, uppers,
                                           leaf_size, split, depth + 1);
    return 1 + std::max(depth_left, depth_right);
}

// Boxes per BVH leaf, at most: two (measured on an H100 at bench size, within 10% of one and four per
// leaf, box and sphere queries a little ahead)
constexpr int BVH_LEAF_SIZE = 2;

// wp.Bvh(lowers, uppers) over one box per point, [x - half, x + half] per axis (computed in float, as the
// reference computes them), with this program's tree over the boxes, copied to the device
static Bvh build_points_bvh(const float* points, int num_points, float half)
{
    std::vector<float3> lowers(num_points), uppers(num_points);
    for (int i = 0; i < num_points; ++i) {
        const float3 x = make_float3(points[3 * i], points[3 * i + 1], points[3 * i + 2]);
        lowers[i] = make_float3(x.x - half, x.y - half, x.z - half);
        uppers[i] = make_float3(x.x + half, x.y + half, x.z + half);
    }
    std::vector<BvhNode> nodes(1);
    std::vector<int> item_order(num_points);
    for (int i = 0; i < num_points; ++i)
        item_order[i] = i;
    const int depth = build_bvh_node(nodes, 0, item_order, 0, num_points, lowers, uppers, BVH_LEAF_SIZE,
                                     median_split);
    if (depth + 1 > BVH_STACK_SIZE) {
        fprintf(stderr, "BVH of depth %d: the queries' stacks hold %d levels\n", depth, BVH_STACK_SIZE);
        exit(2);
    }
    Bvh bvh{};
    bvh.lowers = device_upload(lowers);
    bvh.uppers = device_upload(uppers);
    bvh.nodes = device_upload(nodes);
    bvh.item_order = device_upload(item_order);
    return bvh;
}

static void free_bvh(const Bvh& bvh)
{
    CUDA_CHECK(cudaFree(const_cast<float3*>(bvh.lowers)));
    CUDA_CHECK(cudaFree(const_cast<float3*>(bvh.uppers)));
    CUDA_CHECK(cudaFree(const_cast<BvhNode*>(bvh.nodes)));
    CUDA_CHECK(cudaFree(const_cast<int*>(bvh.item_order)));
}

int main(int argc, char** argv)
{
    bool bench = false;
    int bench_outer = 1048576;  // outermost launch dimension at bench size (metadata.json: bench)
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

    const uint32_t seed = 725153704U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int n = bench ? bench_outer : 1024;
    // A BVH's points keep their density at bench size: their domain grows with the cube root of
    // their growth (cuda_production/bench.py)
    const int pos_domain_scale = integer_cbrt(n / 1024);

    // Inputs (host)
    std::vector<float> h_pos((size_t)n * 3);  // input, shape [1024] of vec3
    // values in [-3.0 s, 3.0 s] for s = pos_domain_scale (1 at the check size)
    fill_float(h_pos.data(), h_pos.size(), seed, 0, -192 * pos_domain_scale, 384U * pos_domain_scale + 1U, 0.015625f);
    const float smoothing_length = 0.75f;
    std::vector<float> h_mass((size_t)n * 1);  // input, shape [1024] of float32
    fill_float(h_mass.data(), h_mass.size(), seed, 2, 4, 29U, 0.0625f);
    std::vector<float> h_densities((size_t)n * 1);  // output, shape [1024] of float32

    // Device buffers
    float3* d_pos = nullptr;
    const size_t bytes_pos = h_pos.size() * sizeof(h_pos[0]);
    CUDA_CHECK(cudaMalloc(&d_pos, bytes_pos));
    CUDA_CHECK(cudaMemcpy(d_pos, h_pos.data(), bytes_pos, cudaMemcpyHostToDevice));
    float* d_mass = nullptr;
    const size_t bytes_mass = h_mass.size() * sizeof(h_mass[0]);
    CUDA_CHECK(cudaMalloc(&d_mass, bytes_mass));
    CUDA_CHECK(cudaMemcpy(d_mass, h_mass.data(), bytes_mass, cudaMemcpyHostToDevice));
    float* d_densities = nullptr;
    const size_t bytes_densities = h_densities.size() * sizeof(h_densities[0]);
    CUDA_CHECK(cudaMalloc(&d_densities, bytes_densities));
    CUDA_CHECK(cudaMemcpy(d_densities, h_densities.data(), bytes_densities, cudaMemcpyHostToDevice));
    // BVH `bvh`: wp.Bvh over the boxes [x - 0.0f, x + 0.0f] around each point x of pos
    const Bvh bvh = build_points_bvh(h_pos.data(), (int)(h_pos.size() / 3), 0.0f);

    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    nbr_10d824709b<<<grid, block>>>(bvh, d_pos, smoothing_length, d_mass, d_densities, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_densities.data(), d_densities, bytes_densities, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_densities.data(), 1, bytes_densities, dump) == bytes_densities;
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
            nbr_10d824709b<<<grid, block, 0, stream>>>(bvh, d_pos, smoothing_length, d_mass, d_densities, n);
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
        const size_t bytes_read = bytes_pos + bytes_mass + h_pos.size() / 3 * sizeof(int);
        const size_t bytes_written = bytes_densities;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"nbr_10d824709b\", \"mode\": \"bench\", \"launch_dim\": [%d], "
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
        CUDA_CHECK(cudaFree(d_pos));
        CUDA_CHECK(cudaFree(d_mass));
        CUDA_CHECK(cudaFree(d_densities));
        free_bvh(bvh);
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 4096) {
        fprintf(stderr, "%s: expected 4096 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_values("densities", h_densities.data(), reinterpret_cast<const float*>(expected.data() + 0), 1024,
                       0.035650707252584554f, 0.0001f, stats);
    printf("%s nbr_10d824709b: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        nbr_10d824709b<<<grid, block>>>(bvh, d_pos, smoothing_length, d_mass, d_densities, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        nbr_10d824709b<<<grid, block>>>(bvh, d_pos, smoothing_length, d_mass, d_densities, n);
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
    printf("{\"kernel\": \"nbr_10d824709b\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_pos));
    CUDA_CHECK(cudaFree(d_mass));
    CUDA_CHECK(cudaFree(d_densities));
    free_bvh(bvh);
    return ok ? 0 : 1;
}
