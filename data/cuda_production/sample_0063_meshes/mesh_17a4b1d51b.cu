// Counts and masses of points outside and inside a closed mesh (two atomic bins each) (1-D launch 2048; rock mesh of 3072 triangles, cell 0.0509; wp.mesh_query_point_sign_normal)
// Standalone CUDA translation of the Warp kernel `mesh_17a4b1d51b` (see mesh_17a4b1d51b.py); needs only the CUDA toolkit.
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

// A wp.Mesh as the kernel reads it: its triangles and a bounding volume hierarchy (BVH) over them.
// main() builds both on the host (build_rock_mesh) and passes the struct by value; its arrays are in
// device memory.
struct Mesh
{
    const float3* points;      // vertex positions
    const int* indices;        // three vertex indices per triangle, counter-clockwise seen from outside
    const BvhNode* nodes;  // the BVH, its root at 0
    const int* tri_order;      // triangle indices in leaf order
    const float3* tri_lowers;  // each triangle's box (its corners' minimum and maximum, as Warp's
    const float3* tri_uppers;  // mesh.lowers / uppers), in leaf order: what a box query tests
    int num_points;
    int num_tris;
    float average_edge_length;  // as Warp computes it: sign_normal's tolerance is a fraction of it
};

// What wp.mesh_query_point* return (Warp's mesh_query_point_t): whether a face lies strictly within
// max_dist (result), the point's side of the surface (sign: < 0 inside, > 0 outside; 0 from a query
// that computes none), the nearest face and the barycentric weights u, v of its first two corners at
// the nearest point (wp.mesh_eval_position(mesh, face, u, v) is that point). Without a result the
// other members stay 0, as in Warp.
struct MeshQueryPoint
{
    bool result;
    float sign;
    int face;
    float u;
    float v;
};

// The corners of triangle `face`, in its winding order
__device__ __forceinline__ void mesh_triangle(const Mesh& mesh, int face, float3& p, float3& q, float3& r)
{
    p = mesh.points[mesh.indices[face * 3 + 0]];
    q = mesh.points[mesh.indices[face * 3 + 1]];
    r = mesh.points[mesh.indices[face * 3 + 2]];
}

// Squared distance from p to the box [lower, upper], 0 inside it (Warp's distance_to_aabb_sq)
__device__ __forceinline__ float box_distance_sq(float3 p, float3 lower, float3 upper)
{
    const float dx = fminf(upper.x, fmaxf(lower.x, p.x)) - p.x;
    const float dy = fminf(upper.y, fmaxf(lower.y, p.y)) - p.y;
    const float dz = fminf(upper.z, fmaxf(lower.z, p.z)) - p.z;
    return dx * dx + dy * dy + dz * dz;
}

__device__ __forceinline__ float3 operator-(float3 a, float3 b)
{
    return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}

__device__ __forceinline__ float dot(float3 a, float3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

// The point of triangle (a, b, c) nearest p, as the barycentric weights (u, v) of a and b (c's is
// 1 - u - v): Ericson's tests of the Voronoi regions of the corners, the edges and the face (Real-Time
// Collision Detection, 5.1.5), as Warp's closest_point_to_triangle writes them, so they round alike.
__device__ inline float2 triangle_closest_point(float3 a, float3 b, float3 c, float3 p)
{
    const float3 ab = b - a;
    const float3 ac = c - a;
    const float3 ap = p - a;
    const float d1 = dot(ab, ap);
    const float d2 = dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f)
        return make_float2(1.0f, 0.0f);  // corner a
    const float3 bp = p - b;
    const float d3 = dot(ab, bp);
    const float d4 = dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3)
        return make_float2(0.0f, 1.0f);  // corner b
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {  // edge ab
        const float v = d1 / (d1 - d3);
        return make_float2(1.0f - v, v);
    }
    const float3 cp = p - c;
    const float d5 = dot(ab, cp);
    const float d6 = dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6)
        return make_float2(0.0f, 0.0f);  // corner c
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {  // edge ac
        const float w = d2 / (d2 - d6);
        return make_float2(1.0f - w, 0.0f);
    }
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {  // edge bc
        const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        const float v = 1.0f - w;
        return make_float2(1.0f - v - w, v);
    }
    const float denom = 1.0f / (va + vb + vc);  // inside the face
    const float v = vb * denom;
    const float w = vc * denom;
    return make_float2(1.0f - v - w, v);
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

__device__ __forceinline__ float length(float3 a)
{
    return sqrtf(dot(a, a));
}

__device__ __forceinline__ float3 cross(float3 a, float3 b)
{
    return make_float3(a.y * b.z - a.z * b.y,
                       a.z * b.x - a.x * b.z,
                       a.x * b.y - a.y * b.x);
}

__device__ __forceinline__ float3 normalize(float3 a)
{
    // Warp returns the zero vector for a zero-length input
    float l = length(a);
    return l > 0.0f ? make_float3(a.x / l, a.y / l, a.z / l) : make_float3(0.0f, 0.0f, 0.0f);
}

__device__ __forceinline__ float3 operator-(float3 a)
{
    return make_float3(-a.x, -a.y, -a.z);
}

// wp.mesh_query_point_sign_normal(mesh, point, max_dist, epsilon): the nearest point, and the point's
// side by the angle-weighted normal of the nearest feature (Baerentzen and Aanaes 2005), as Warp's
// mesh.h computes it: faces whose distance is within epsilon * the average edge length of the nearest
// count as equally near, each normal weighted by the angle the face spans at the nearest feature (its
// corner angle at a vertex, pi at an edge, 2 pi inside the face); the point is outside (+1) when it
// lies in front of their sum, else inside (-1). For a point off the surface the faces sharing its
// nearest feature decide, in whatever order they are found: the same side as Warp's.
__device__ inline MeshQueryPoint mesh_query_point_sign_normal(const Mesh& mesh, float3 point, float max_dist,
                                                              float epsilon = 1e-3f)
{
    const float eps_dist = mesh.average_edge_length * epsilon;
    const float eps_dist_sq = eps_dist * eps_dist;
    float min_dist = max_dist;
    int min_face = 0;
    float min_v = 0.0f;
    float min_w = 0.0f;
    float3 normal_sum = make_float3(0.0f, 0.0f, 0.0f);
    int stack[BVH_STACK_SIZE];
    int count = 0;
    stack[count++] = 0;
    while (count > 0) {
        const BvhNode node = load_node(mesh.nodes, stack[--count]);
        if (box_distance_sq(point, node.lower, node.upper) > (min_dist + eps_dist) * (min_dist + eps_dist))
            continue;
        if (node.count > 0) {
            for (int slot = node.first; slot < node.first + node.count; ++slot) {
                const int tri = mesh.tri_order[slot];
                float3 p, q, r;
                mesh_triangle(mesh, tri, p, q, r);
                const float3 e0 = q - p;
                const float3 e1 = r - p;
                const float3 e2 = r - q;
                const float3 normal = cross(e0, e1);
                const float e0_sq = dot(e0, e0);
                const float e1_sq = dot(e1, e1);
                const float e2_sq = dot(e2, e2);
                if (length(normal) / (e0_sq + e1_sq + e2_sq) < 1.e-6f)
                    continue;  // a sliver
                const float2 bary = triangle_closest_point(p, q, r, point);
                const float w = 1.0f - bary.x - bary.y;
                const float3 c = bary.x * p + bary.y * q + w * r;
                const float dist = sqrtf(dot(c - point, c - point));
                if (!(dist < min_dist + eps_dist))
                    continue;
                // the angle this face spans at the nearest feature
                const float3 cp = c - p;
                const float3 cq = c - q;
                const float3 cr = c - r;
                const float cp_sq = dot(cp, cp);
                const float cq_sq = dot(cq, cq);
                const float cr_sq = dot(cr, cr);
                float weight;
                if (cp_sq < eps_dist_sq) {
                    weight = acosf(dot(normalize(e0), normalize(e1)));  // at corner p
                } else if (cq_sq < eps_dist_sq) {
                    weight = acosf(dot(normalize(e2), normalize(-e0)));  // at corner q
                } else if (cr_sq < eps_dist_sq) {
                    weight = acosf(dot(normalize(-e1), normalize(-e2)));  // at corner r
                } else {
                    // on an edge when within eps of its line (squared distances times the edge's squared length)
                    const float e0cp = dot(e0, cp);
                    const float e2cq = dot(e2, cq);
                    const float e1cp = dot(e1, cp);
                    const bool on_edge = cp_sq * e0_sq - e0cp * e0cp < eps_dist_sq * e0_sq
                                         || cq_sq * e2_sq - e2cq * e2cq < eps_dist_sq * e2_sq
                                         || cp_sq * e1_sq - e1cp * e1cp < eps_dist_sq * e1_sq;
                    weight = on_edge ? 3.14159265359f : 2.0f * 3.14159265359f;
                }
                if (dist > min_dist - eps_dist) {  // as near as the nearest so far: its normal joins the sum
                    normal_sum = normal_sum + weight * normalize(normal);
                    if (dist < min_dist) {
                        min_dist = dist;
                        min_face = tri;
                        min_v = bary.y;
                        min_w = w;
                    }
                } else {  // nearer than every face so far: the sum starts again from this one
                    min_dist = dist;
                    min_face = tri;
                    min_v = bary.y;
                    min_w = w;
                    normal_sum = weight * normalize(normal);
                }
            }
        } else {
            const BvhNode left = load_node(mesh.nodes, node.first);
            const BvhNode right = load_node(mesh.nodes, node.first + 1);
            const float left_sq = box_distance_sq(point, left.lower, left.upper);
            const float right_sq = box_distance_sq(point, right.lower, right.upper);
            const float reach_sq = (min_dist + eps_dist) * (min_dist + eps_dist);
            const bool left_nearer = left_sq < right_sq;  // the nearer child on top of the stack
            if ((left_nearer ? right_sq : left_sq) < reach_sq)
                stack[count++] = left_nearer ? node.first + 1 : node.first;
            if ((left_nearer ? left_sq : right_sq) < reach_sq)
                stack[count++] = left_nearer ? node.first : node.first + 1;
        }
    }
    MeshQueryPoint query = {};
    if (min_dist < max_dist) {
        query.result = true;
        query.face = min_face;
        query.u = 1.0f - min_v - min_w;
        query.v = min_v;
        float3 p, q, r;
        mesh_triangle(mesh, min_face, p, q, r);
        const float3 nearest = p * query.u + q * query.v + r * min_w;
        query.sign = dot(normal_sum, point - nearest) > 0.0f ? 1.0f : -1.0f;
    }
    return query;
}

__device__ __forceinline__ unsigned lane_id()
{
    // warps are cut from the block's linear thread index, whatever the block's shape
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u;
}

__device__ __forceinline__ void warp_atomic_add(float* address, float val)
{
    // For a small table (a histogram, a few totals) most lanes of a warp hit the same few
    // addresses, and their atomics queue up one behind the other. The lanes that share an
    // address combine their values first (in lane order); one of them does the atomic.
    const unsigned peers = __match_any_sync(__activemask(), reinterpret_cast<unsigned long long>(address));
    float total = __shfl_sync(peers, val, __ffs(peers) - 1);
    for (unsigned rest = peers & (peers - 1); rest; rest &= rest - 1) {
        const float other = __shfl_sync(peers, val, __ffs(rest) - 1);
        total += other;
    }
    if (lane_id() == unsigned(__ffs(peers) - 1))
        atomicAdd(address, total);
}

__global__ void mesh_17a4b1d51b(
    const float3* particle_x,
    int* bins,
    const float* __restrict__ point_mass,
    float* binned_mass,
    Mesh geometry,
    int n)
{
    // bins: this block adds into its own copy in shared memory, and that into bins once, at the end
    __shared__ int bins_block[2];
    for (int k = threadIdx.x; k < 2; k += blockDim.x)
        bins_block[k] = 0;
    __syncthreads();
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float3 x_i = particle_x[tid];
        MeshQueryPoint query = mesh_query_point_sign_normal(geometry, x_i, 1000000.0f);
        int slot = 0;
        if (query.sign < 0.0f) {
            slot = 1;
        }
        atomicAdd(&bins_block[slot], 1);
        warp_atomic_add(&binned_mass[slot], point_mass[tid]);
    }
    __syncthreads();  // the block's additions are all in shared memory
    for (int k = threadIdx.x; k < 2; k += blockDim.x)
        if (bins_block[k] != 0)
            atomicAdd(&bins[k], bins_block[k]);
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

// Triangles per BVH leaf, at most: one (measured on an H100 at bench size, point, ray and box queries
// ran 1.3-2x faster than with four per leaf)
constexpr int MESH_LEAF_SIZE = 1;

// Bins per axis in which sah_split weighs the planes it may split a node at
constexpr int SAH_BINS = 16;

// Splits a mesh node's triangles where the surface area heuristic is lowest (binned, as in Wald's "On
// fast construction of SAH-based bounding volume hierarchies", 2007): the triangles binned by the
// centres of their boxes along each axis, each plane between two bins costed as the area of the box
// on each side times the triangles in it (a ray meets a box about in proportion to its surface), the
// cheapest plane of the three axes taken (ties: the first). A ray then passes through few empty
// boxes: the rock's flat faces end up in boxes of their own, where halving by the median makes boxes
// as big as half the rock. Areas and costs are taken in double from the float boxes: the same tree on
// every machine. A node whose centres share one bin, or that lies so deep that uneven splits could
// outgrow the queries' stacks, is halved by the median instead. Returns the size of the first part
// (the triangles of the lower bins, in their order before).
static int sah_split(std::vector<int>& order, int first, int count, const std::vector<float3>& lowers,
                     const std::vector<float3>& uppers, int axis, float3 centre_lower, float3 centre_upper, int depth)
{
    int levels = 0;  // a median split from here on adds ceil(log2(count)) levels
    while ((1 << levels) < count)
        ++levels;
    if (depth + levels + 2 >= BVH_STACK_SIZE)
        return median_split(order, first, count, lowers, uppers, axis, centre_lower, centre_upper, depth);
    auto coord = [](const float3& v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); };
    const float centre_low[3] = {centre_lower.x, centre_lower.y, centre_lower.z};  // twice the centres
    const float centre_high[3] = {centre_upper.x, centre_upper.y, centre_upper.z};
    auto bin_of = [&](int item, int a) {
        const float centre = coord(lowers[item], a) + coord(uppers[item], a);
        const int bin = (int)((centre - centre_low[a]) * ((float)SAH_BINS / (centre_high[a] - centre_low[a])));
        return std::min(std::max(bin, 0), SAH_BINS - 1);
    };
    auto half_area = [&](const float3& lo, const float3& hi) {
        const double dx = hi.x - lo.x, dy = hi.y - lo.y, dz = hi.z - lo.z;
        return dx * dy + dy * dz + dz * dx;
    };
    auto grow = [](float3& lo, float3& hi, const float3& add_lo, const float3& add_hi) {
        lo = make_float3(std::min(lo.x, add_lo.x), std::min(lo.y, add_lo.y), std::min(lo.z, add_lo.z));
        hi = make_float3(std::max(hi.x, add_hi.x), std::max(hi.y, add_hi.y), std::max(hi.z, add_hi.z));
    };
    const float3 empty_lo = make_float3(INFINITY, INFINITY, INFINITY), empty_hi = make_float3(-INFINITY, -INFINITY, -INFINITY);
    double best_cost = INFINITY;
    int best_axis = -1, best_plane = 0;  // split after bin best_plane of axis best_axis
    for (int a = 0; a < 3; ++a) {
        if (!(centre_high[a] > centre_low[a]))
            continue;
        float3 bin_lo[SAH_BINS], bin_hi[SAH_BINS];
        int bin_count[SAH_BINS] = {};
        for (int b = 0; b < SAH_BINS; ++b) {
            bin_lo[b] = empty_lo;
            bin_hi[b] = empty_hi;
        }
        for (int n = first; n < first + count; ++n) {
            const int item = order[n], b = bin_of(item, a);
            ++bin_count[b];
            grow(bin_lo[b], bin_hi[b], lowers[item], uppers[item]);
        }
        double above_area[SAH_BINS];  // the box of bins b.. and the triangles in them
        int above_count[SAH_BINS];
        float3 lo = empty_lo, hi = empty_hi;
        int n = 0;
        for (int b = SAH_BINS - 1; b > 0; --b) {
            grow(lo, hi, bin_lo[b], bin_hi[b]);
            n += bin_count[b];
            above_area[b] = n ? half_area(lo, hi) : 0.0;
            above_count[b] = n;
        }
        lo = empty_lo;
        hi = empty_hi;
        n = 0;
        for (int b = 0; b + 1 < SAH_BINS; ++b) {
            grow(lo, hi, bin_lo[b], bin_hi[b]);
            n += bin_count[b];
            if (n == 0 || above_count[b + 1] == 0)
                continue;
            const double cost = half_area(lo, hi) * n + above_area[b + 1] * above_count[b + 1];
            if (cost < best_cost) {
                best_cost = cost;
                best_axis = a;
                best_plane = b;
            }
        }
    }
    if (best_axis < 0)
        return median_split(order, first, count, lowers, uppers, axis, centre_lower, centre_upper, depth);
    const auto middle = std::stable_partition(order.begin() + first, order.begin() + first + count,
                                              [&](int item) { return bin_of(item, best_axis) <= best_plane; });
    return (int)(middle - (order.begin() + first));
}

// 32-bit hash of a lattice point, in unsigned arithmetic (synthesis/mesh_geometry.py: bump_hash)
static uint32_t rock_bump_hash(uint32_t i, uint32_t j, uint32_t k, uint32_t salt)
{
    uint32_t h = (i * 73856093U) ^ (j * 19349663U) ^ (k * 83492791U) ^ salt;
    h ^= h >> 16;
    h *= 0x45D9F3BU;
    h ^= h >> 16;
    return h;
}

// The closed, bumpy "rock" a mesh argument stands for. synthesis/mesh_geometry.py (rock_mesh) builds
// the same mesh for Warp's reference: the same vertices and triangles in the same order, every
// coordinate the same float (an exact multiple of a quarter cell, times the cell width, rounded to
// float once). The cube [-cells/2, cells/2]^3 (in cells) has each face cut into cells x cells squares
// of two triangles, wound counter-clockwise seen from outside; a vertex inside a face (on no edge of
// the cube) moves outward along the face's normal by 0-3 quarters of a cell, by the hash of its
// lattice point and the salt. A move is under a cell, so the surface never crosses itself.
static void rock_mesh(int cells, double cell_width, uint32_t salt, std::vector<float3>& points, std::vector<int>& indices)
{
    const int half = cells / 2;
    const int side = cells + 1;
    std::vector<int> vertex(side * side * side, -1);  // lattice point (i, j, k) -> its vertex
    for (int i = 0; i <= cells; ++i)
        for (int j = 0; j <= cells; ++j)
            for (int k = 0; k <= cells; ++k) {
                const int lattice[3] = {i, j, k};
                int faces = 0, axis = 0;  // how many faces of the cube it lies on, and one of their axes
                for (int a = 0; a < 3; ++a)
                    if (lattice[a] == 0 || lattice[a] == cells) {
                        ++faces;
                        axis = a;
                    }
                if (faces == 0)
                    continue;  // inside the cube
                double coords[3] = {(double)(i - half), (double)(j - half), (double)(k - half)};
                if (faces == 1) {  // inside one face: bump it outward
                    const double bump = 0.25 * (rock_bump_hash(i, j, k, salt) % 4U);
                    coords[axis] += lattice[axis] == cells ? bump : -bump;
                }
                vertex[(i * side + j) * side + k] = (int)points.size();
                points.push_back(make_float3((float)(coords[0] * cell_width), (float)(coords[1] * cell_width),
                                             (float)(coords[2] * cell_width)));
            }
    for (int a = 0; a < 3; ++a) {
        const int b = (a + 1) % 3, c = (a + 2) % 3;  // (b, c, a) is right-handed
        for (int plane = 0; plane <= cells; plane += cells)
            for (int u = 0; u < cells; ++u)
                for (int w = 0; w < cells; ++w) {
                    int corner[4];  // the square's corners (u, w), (u + 1, w), (u + 1, w + 1), (u, w + 1)
                    for (int n = 0; n < 4; ++n) {
                        int lattice[3];
                        lattice[a] = plane;
                        lattice[b] = u + (n == 1 || n == 2);
                        lattice[c] = w + (n >= 2);
                        corner[n] = vertex[(lattice[0] * side + lattice[1]) * side + lattice[2]];
                    }
                    // counter-clockwise seen from outside: from +a on the far face, from -a on the near one
                    const int order[2][6] = {{0, 2, 1, 0, 3, 2}, {0, 1, 2, 0, 2, 3}};
                    for (int n : order[plane == cells])
                        indices.push_back(corner[n]);
                }
    }
}

// The rock mesh of `cells` cells per cube edge of `cell_width`, salted by `salt` (synthesis/mesh_geometry.py
// builds it for Warp), with a BVH over its triangles, copied to the device. Each triangle's box is
// padded by a hair (1e-5 of the rock's size): a box's slab test rounds, and could otherwise miss a
// ray's hit on a triangle lying in the box's face (the rock's flat stretches do), which the watertight
// triangle test finds.
static Mesh build_rock_mesh(int cells, double cell_width, uint32_t salt)
{
    std::vector<float3> points;
    std::vector<int> indices;
    rock_mesh(cells, cell_width, salt, points, indices);
    const int num_tris = (int)indices.size() / 3;
    float size = 0.0f;
    for (const float3& p : points)
        size = std::max(size, std::max(std::fabs(p.x), std::max(std::fabs(p.y), std::fabs(p.z))));
    const float pad = 1e-5f * size;
    std::vector<float3> lowers(num_tris), uppers(num_tris);
    float edge_sum = 0.0f;  // Warp's average_edge_length: every triangle's three edges, summed in float
    for (int t = 0; t < num_tris; ++t) {
        const float3 p = points[indices[3 * t]], q = points[indices[3 * t + 1]], r = points[indices[3 * t + 2]];
        lowers[t] = make_float3(std::min(p.x, std::min(q.x, r.x)) - pad, std::min(p.y, std::min(q.y, r.y)) - pad,
                                std::min(p.z, std::min(q.z, r.z)) - pad);
        uppers[t] = make_float3(std::max(p.x, std::max(q.x, r.x)) + pad, std::max(p.y, std::max(q.y, r.y)) + pad,
                                std::max(p.z, std::max(q.z, r.z)) + pad);
        const float pq = std::sqrt((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) + (p.z - q.z) * (p.z - q.z));
        const float pr = std::sqrt((p.x - r.x) * (p.x - r.x) + (p.y - r.y) * (p.y - r.y) + (p.z - r.z) * (p.z - r.z));
        const float rq = std::sqrt((r.x - q.x) * (r.x - q.x) + (r.y - q.y) * (r.y - q.y) + (r.z - q.z) * (r.z - q.z));
        edge_sum += pq + pr + rq;
    }
    std::vector<BvhNode> nodes(1);
    std::vector<int> tri_order(num_tris);
    for (int t = 0; t < num_tris; ++t)
        tri_order[t] = t;
    const int depth = build_bvh_node(nodes, 0, tri_order, 0, num_tris, lowers, uppers, MESH_LEAF_SIZE, sah_split);
    if (depth + 1 > BVH_STACK_SIZE) {
        fprintf(stderr, "mesh BVH of depth %d: the queries' stacks hold %d levels\n", depth, BVH_STACK_SIZE);
        exit(2);
    }
    std::vector<float3> tri_lowers(num_tris), tri_uppers(num_tris);  // the unpadded boxes, in leaf order
    for (int slot = 0; slot < num_tris; ++slot) {
        const int t = tri_order[slot];
        const float3 p = points[indices[3 * t]], q = points[indices[3 * t + 1]], r = points[indices[3 * t + 2]];
        tri_lowers[slot] = make_float3(std::min(p.x, std::min(q.x, r.x)), std::min(p.y, std::min(q.y, r.y)),
                                       std::min(p.z, std::min(q.z, r.z)));
        tri_uppers[slot] = make_float3(std::max(p.x, std::max(q.x, r.x)), std::max(p.y, std::max(q.y, r.y)),
                                       std::max(p.z, std::max(q.z, r.z)));
    }
    Mesh mesh{};
    mesh.points = device_upload(points);
    mesh.indices = device_upload(indices);
    mesh.nodes = device_upload(nodes);
    mesh.tri_order = device_upload(tri_order);
    mesh.tri_lowers = device_upload(tri_lowers);
    mesh.tri_uppers = device_upload(tri_uppers);
    mesh.num_points = (int)points.size();
    mesh.num_tris = num_tris;
    mesh.average_edge_length = edge_sum / (num_tris * 3);
    return mesh;
}

static void free_mesh(const Mesh& mesh)
{
    CUDA_CHECK(cudaFree(const_cast<float3*>(mesh.points)));
    CUDA_CHECK(cudaFree(const_cast<int*>(mesh.indices)));
    CUDA_CHECK(cudaFree(const_cast<BvhNode*>(mesh.nodes)));
    CUDA_CHECK(cudaFree(const_cast<int*>(mesh.tri_order)));
    CUDA_CHECK(cudaFree(const_cast<float3*>(mesh.tri_lowers)));
    CUDA_CHECK(cudaFree(const_cast<float3*>(mesh.tri_uppers)));
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

    const uint32_t seed = 1400242887U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int n = bench ? bench_outer : 2048;

    // Inputs (host)
    std::vector<float> h_particle_x((size_t)n * 3);  // input, shape [2048] of vec3
    fill_float(h_particle_x.data(), h_particle_x.size(), seed, 0, -700514, 1401030U, 9.5367431640625e-07f);
    std::vector<int> h_bins(2);  // output, shape [2] of int32
    std::vector<float> h_point_mass((size_t)n * 1);  // input, shape [2048] of float32
    fill_float(h_point_mass.data(), h_point_mass.size(), seed, 2, 4, 29U, 0.0625f);
    std::vector<float> h_binned_mass(2);  // output, shape [2] of float32

    // Device buffers
    float3* d_particle_x = nullptr;
    const size_t bytes_particle_x = h_particle_x.size() * sizeof(h_particle_x[0]);
    CUDA_CHECK(cudaMalloc(&d_particle_x, bytes_particle_x));
    CUDA_CHECK(cudaMemcpy(d_particle_x, h_particle_x.data(), bytes_particle_x, cudaMemcpyHostToDevice));
    int* d_bins = nullptr;
    const size_t bytes_bins = h_bins.size() * sizeof(h_bins[0]);
    CUDA_CHECK(cudaMalloc(&d_bins, bytes_bins));
    CUDA_CHECK(cudaMemcpy(d_bins, h_bins.data(), bytes_bins, cudaMemcpyHostToDevice));
    float* d_point_mass = nullptr;
    const size_t bytes_point_mass = h_point_mass.size() * sizeof(h_point_mass[0]);
    CUDA_CHECK(cudaMalloc(&d_point_mass, bytes_point_mass));
    CUDA_CHECK(cudaMemcpy(d_point_mass, h_point_mass.data(), bytes_point_mass, cudaMemcpyHostToDevice));
    float* d_binned_mass = nullptr;
    const size_t bytes_binned_mass = h_binned_mass.size() * sizeof(h_binned_mass[0]);
    CUDA_CHECK(cudaMalloc(&d_binned_mass, bytes_binned_mass));
    CUDA_CHECK(cudaMemcpy(d_binned_mass, h_binned_mass.data(), bytes_binned_mass, cudaMemcpyHostToDevice));
    // Mesh `geometry`: the rock of synthesis/mesh_geometry.py, 16 cells per edge of width 0.0509
    // (3072 triangles), bumps salted by the input seed; the same mesh at --bench
    const Mesh geometry = build_rock_mesh(16, 0.0509, seed);

    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    mesh_17a4b1d51b<<<grid, block>>>(d_particle_x, d_bins, d_point_mass, d_binned_mass, geometry, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_bins.data(), d_bins, bytes_bins, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_binned_mass.data(), d_binned_mass, bytes_binned_mass, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_bins.data(), 1, bytes_bins, dump) == bytes_bins;
            dump_ok = dump_ok && fwrite(h_binned_mass.data(), 1, bytes_binned_mass, dump) == bytes_binned_mass;
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
            mesh_17a4b1d51b<<<grid, block, 0, stream>>>(d_particle_x, d_bins, d_point_mass, d_binned_mass, geometry, n);
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
        const size_t bytes_read = bytes_particle_x + bytes_point_mass;
        const size_t bytes_written = bytes_bins + bytes_binned_mass;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"mesh_17a4b1d51b\", \"mode\": \"bench\", \"launch_dim\": [%d], "
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
        CUDA_CHECK(cudaFree(d_particle_x));
        CUDA_CHECK(cudaFree(d_bins));
        CUDA_CHECK(cudaFree(d_point_mass));
        CUDA_CHECK(cudaFree(d_binned_mass));
        free_mesh(geometry);
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 16) {
        fprintf(stderr, "%s: expected 16 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_int("bins", h_bins.data(), reinterpret_cast<const int*>(expected.data() + 0), 2, stats);
    ok &= check_values("binned_mass", h_binned_mass.data(), reinterpret_cast<const float*>(expected.data() + 8), 2,
                       0.4096f, 0.0001f, stats);
    printf("%s mesh_17a4b1d51b: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        mesh_17a4b1d51b<<<grid, block>>>(d_particle_x, d_bins, d_point_mass, d_binned_mass, geometry, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        mesh_17a4b1d51b<<<grid, block>>>(d_particle_x, d_bins, d_point_mass, d_binned_mass, geometry, n);
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
    printf("{\"kernel\": \"mesh_17a4b1d51b\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_particle_x));
    CUDA_CHECK(cudaFree(d_bins));
    CUDA_CHECK(cudaFree(d_point_mass));
    CUDA_CHECK(cudaFree(d_binned_mass));
    free_mesh(geometry);
    return ok ? 0 : 1;
}
