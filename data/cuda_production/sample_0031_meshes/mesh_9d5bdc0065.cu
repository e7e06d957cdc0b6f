// Shadow rays: irradiance on a surface (Lambert's cosine, inverse square) from a point light where the mesh does not block it (1-D launch 512; rock mesh of 1200 triangles, cell 0.1001; points through an index array; wp.mesh_query_ray)
// Standalone CUDA translation of the Warp kernel `mesh_9d5bdc0065` (see mesh_9d5bdc0065.py); needs only the CUDA toolkit.
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

// The corners of triangle `face`, in its winding order
__device__ __forceinline__ void mesh_triangle(const Mesh& mesh, int face, float3& p, float3& q, float3& r)
{
    p = mesh.points[mesh.indices[face * 3 + 0]];
    q = mesh.points[mesh.indices[face * 3 + 1]];
    r = mesh.points[mesh.indices[face * 3 + 2]];
}

__device__ __forceinline__ float3 operator-(float3 a, float3 b)
{
    return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}

__device__ __forceinline__ float component(float3 a, int i)
{
    return reinterpret_cast<const float*>(&a)[i];
}

// A ray's nearest hit: where along the ray (t, in multiples of dir's length), the barycentric weights
// u, v of the triangle's first two corners there, the triangle, and the watertight test's determinant
// (det > 0: the ray meets the triangle's front, < 0: its back)
struct MeshRayHit
{
    float t;
    float u;
    float v;
    float det;
    int face;
};

// One axis of the slab test: clip [t_min, t_max] to where the ray is between the box's two planes
// across this axis; a ray parallel to them (dir 0: rcp_dir infinite) only needs to start between them
__device__ __forceinline__ bool ray_slab(float start, float dir, float rcp_dir, float lower, float upper,
                                         float& t_min, float& t_max)
{
    if (dir == 0.0f)
        return start >= lower && start <= upper;
    const float t0 = (lower - start) * rcp_dir;
    const float t1 = (upper - start) * rcp_dir;
    t_min = fmaxf(fminf(t0, t1), t_min);
    t_max = fminf(fmaxf(t0, t1), t_max);
    return true;
}

// Where the ray start + t dir enters the box [lower, upper] (negative when it starts inside), or false
// when it misses the box or the box lies behind it (Warp's intersect_ray_aabb_robust)
__device__ __forceinline__ bool ray_box_entry(float3 start, float3 dir, float3 rcp_dir, float3 lower, float3 upper,
                                              float& t_enter)
{
    float t_min = -INFINITY;
    float t_max = INFINITY;
    if (!ray_slab(start.x, dir.x, rcp_dir.x, lower.x, upper.x, t_min, t_max)
        || !ray_slab(start.y, dir.y, rcp_dir.y, lower.y, upper.y, t_min, t_max)
        || !ray_slab(start.z, dir.z, rcp_dir.z, lower.z, upper.z, t_min, t_max))
        return false;
    if (!(t_max >= 0.0f && t_max >= t_min))
        return false;
    t_enter = t_min;
    return true;
}

// a * b - c * d with the rounding error of c * d put back (Kahan's fma trick; Warp's diff_product)
__device__ __forceinline__ float diff_product(float a, float b, float c, float d)
{
    const float cd = c * d;
    const float diff = fmaf(a, b, -cd);
    const float error = fmaf(-c, d, cd);
    return diff + error;
}

// Whether the ray start + t dir meets triangle (a, b, c), and where: Woop, Benthin and Wald's
// watertight test (JCGT 2013), as Warp's intersect_ray_tri_woop writes it. It is watertight: a ray
// through an edge or a vertex meets at least one of the triangles sharing it, never slips between
// them. t may be negative (the caller keeps t >= 0); u, v weight a and b; det's sign is the side hit.
__device__ inline bool ray_triangle_hit(float3 start, float3 dir, float3 a, float3 b, float3 c,
                                        float& t, float& u, float& v, float& det)
{
    // shear and scale space so that the ray runs along +z from the origin: kz is dir's longest axis
    // (the first of equals), kx and ky follow it, swapped for a negative kz to keep the winding
    int kz = 0;
    if (fabsf(dir.y) > fabsf(dir.x))
        kz = 1;
    if (fabsf(dir.z) > fabsf(component(dir, kz)))
        kz = 2;
    int kx = kz + 1 == 3 ? 0 : kz + 1;
    int ky = kx + 1 == 3 ? 0 : kx + 1;
    if (component(dir, kz) < 0.0f) {
        const int swap = kx;
        kx = ky;
        ky = swap;
    }
    const float Sx = component(dir, kx) / component(dir, kz);
    const float Sy = component(dir, ky) / component(dir, kz);
    const float Sz = 1.0f / component(dir, kz);

    const float3 A = a - start;
    const float3 B = b - start;
    const float3 C = c - start;
    const float Ax = component(A, kx) - Sx * component(A, kz);
    const float Ay = component(A, ky) - Sy * component(A, kz);
    const float Bx = component(B, kx) - Sx * component(B, kz);
    const float By = component(B, ky) - Sy * component(B, kz);
    const float Cx = component(C, kx) - Sx * component(C, kz);
    const float Cy = component(C, ky) - Sy * component(C, kz);

    // scaled barycentric coordinates: which side of each edge the ray passes
    float U = diff_product(Cx, By, Cy, Bx);
    float V = diff_product(Ax, Cy, Ay, Cx);
    float W = diff_product(Bx, Ay, By, Ax);
    if (U == 0.0f || V == 0.0f || W == 0.0f) {
        // on an edge: decide in double (float products are exact there), so neighbours agree
        U = (float)((double)Cx * (double)By - (double)Cy * (double)Bx);
        V = (float)((double)Ax * (double)Cy - (double)Ay * (double)Cx);
        W = (float)((double)Bx * (double)Ay - (double)By * (double)Ax);
    }
    if ((U < 0.0f || V < 0.0f || W < 0.0f) && (U > 0.0f || V > 0.0f || W > 0.0f))
        return false;  // outside an edge
    det = U + V + W;
    if (det == 0.0f)
        return false;  // the ray runs in the triangle's plane

    const float Az = Sz * component(A, kz);
    const float Bz = Sz * component(B, kz);
    const float Cz = Sz * component(C, kz);
    const float T = U * Az + V * Bz + W * Cz;  // det * t
    // behind the start: T's sign differs from det's (compared on the sign bits, as Warp does)
    if (__int_as_float(__float_as_int(T) ^ (__float_as_int(det) & 0x80000000)) < 0.0f)
        return false;
    const float rcp_det = 1.0f / det;
    u = U * rcp_det;
    v = V * rcp_det;
    t = T * rcp_det;
    return true;
}

// The nearest hit of the ray start + t dir with 0 <= t < max_t (false if there is none). As Warp's
// mesh_query_ray, a hit must be strictly nearer than the best so far. The BVH is searched depth first
// with a small stack, the child the ray enters first on top: its hits prune the farther boxes.
__device__ inline bool mesh_nearest_hit(const Mesh& mesh, float3 start, float3 dir, float max_t, MeshRayHit& hit)
{
    const float3 rcp_dir = make_float3(1.0f / dir.x, 1.0f / dir.y, 1.0f / dir.z);
    int stack[BVH_STACK_SIZE];
    float entry[BVH_STACK_SIZE];  // where the ray enters each stacked node's box
    int count = 0;
    float t_root;
    const BvhNode root = load_node(mesh.nodes, 0);
    if (ray_box_entry(start, dir, rcp_dir, root.lower, root.upper, t_root) && t_root < max_t) {
        stack[0] = 0;
        entry[0] = t_root;
        count = 1;
    }
    bool found = false;
    hit = {max_t, 0.0f, 0.0f, 0.0f, 0};  // t: nearer than max_t, then than the nearest hit so far
    while (count > 0) {
        --count;
        if (!(entry[count] < hit.t))
            continue;  // a nearer hit was found since this node was pushed
        const BvhNode node = load_node(mesh.nodes, stack[count]);
        if (node.count > 0) {
            for (int slot = node.first; slot < node.first + node.count; ++slot) {
                const int tri = mesh.tri_order[slot];
                float3 p, q, r;
                mesh_triangle(mesh, tri, p, q, r);
                float t, u, v, det;
                if (ray_triangle_hit(start, dir, p, q, r, t, u, v, det) && t < hit.t && t >= 0.0f) {
                    hit.t = t;
                    hit.u = u;
                    hit.v = v;
                    hit.det = det;
                    hit.face = tri;
                    found = true;
                }
            }
        } else {
            const BvhNode left = load_node(mesh.nodes, node.first);
            const BvhNode right = load_node(mesh.nodes, node.first + 1);
            float t_left, t_right;
            const bool enters_left = ray_box_entry(start, dir, rcp_dir, left.lower, left.upper, t_left) && t_left < hit.t;
            const bool enters_right = ray_box_entry(start, dir, rcp_dir, right.lower, right.upper, t_right) && t_right < hit.t;
            // the child entered first goes on top of the stack
            const bool left_first = enters_left && (!enters_right || t_left < t_right);
            if (left_first ? enters_right : enters_left) {
                stack[count] = left_first ? node.first + 1 : node.first;
                entry[count++] = left_first ? t_right : t_left;
            }
            if (left_first || enters_right) {
                stack[count] = left_first ? node.first : node.first + 1;
                entry[count++] = left_first ? t_left : t_right;
            }
        }
    }
    return found;
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

// What wp.mesh_query_ray returns (Warp's mesh_query_ray_t): whether the ray hits the mesh within
// max_t (result), the hit's determinant (sign: > 0 on a triangle's front, < 0 on its back), the face,
// where along the ray (t, in multiples of dir's length: the hit is start + t * dir), the barycentric
// weights u, v of the face's first two corners there, and its unit normal by winding order. Without a
// hit the other members stay 0, as in Warp.
struct MeshQueryRay
{
    bool result;
    float sign;
    int face;
    float t;
    float u;
    float v;
    float3 normal;
};

// wp.mesh_query_ray(mesh, start, dir, max_t): the nearest hit of start + t dir with 0 <= t < max_t
__device__ inline MeshQueryRay mesh_query_ray(const Mesh& mesh, float3 start, float3 dir, float max_t)
{
    MeshQueryRay query = {};
    MeshRayHit hit;
    if (mesh_nearest_hit(mesh, start, dir, max_t, hit)) {
        float3 p, q, r;
        mesh_triangle(mesh, hit.face, p, q, r);
        query.result = true;
        query.sign = hit.det;
        query.face = hit.face;
        query.t = hit.t;
        query.u = hit.u;
        query.v = hit.v;
        query.normal = normalize(cross(q - p, r - p));
    }
    return query;
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

constexpr float INTENSITY = 1.0f;
constexpr float OFFSET = 0.0001f;

__global__ void mesh_9d5bdc0065(
    Mesh mesh,
    const float3* pos,
    float3 light,
    const int* __restrict__ indices,
    float* light_in,
    const float3* normals,
    int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;

    int pid = indices[tid];
    float3 point = pos[pid];
    float3 d = light - point;
    float dist = length(d);
    float3 wi = d / dist;
    float3 origin_biased = point + wi * OFFSET;
    MeshQueryRay q = mesh_query_ray(mesh, origin_biased, wi, dist);
    float n_dot_l = fmaxf(dot(normalize(normals[pid]), d) / dist, 0.0f);
    if (!q.result) {
        light_in[tid] = INTENSITY * n_dot_l / (dist * dist);
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

    const uint32_t seed = 1413179712U;

    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)
    const int n = bench ? bench_outer : 512;

    // Inputs (host)
    std::vector<float> h_pos((size_t)n * 3);  // input, shape [512] of vec3
    fill_float(h_pos.data(), h_pos.size(), seed, 0, -1207068, 2414138U, 9.5367431640625e-07f);
    const float3 light = make_float3(-0.001220703125f, 3.453125f, 0.002685546875f);
    std::vector<int> h_indices((size_t)n * 1);  // index, shape [512] of int32
    // indices into arrays of n rows: their whole extent, at bench size too
    fill_int(h_indices.data(), h_indices.size(), seed, 2, 0, (uint32_t)(n));
    std::vector<float> h_light_in((size_t)n * 1);  // output, shape [512] of float32
    std::vector<float> h_normals((size_t)n * 3);  // input, shape [512] of vec3
    fill_float(h_normals.data(), h_normals.size(), seed, 4, -1048576, 2097153U, 9.5367431640625e-07f);

    // Device buffers
    float3* d_pos = nullptr;
    const size_t bytes_pos = h_pos.size() * sizeof(h_pos[0]);
    CUDA_CHECK(cudaMalloc(&d_pos, bytes_pos));
    CUDA_CHECK(cudaMemcpy(d_pos, h_pos.data(), bytes_pos, cudaMemcpyHostToDevice));
    int* d_indices = nullptr;
    const size_t bytes_indices = h_indices.size() * sizeof(h_indices[0]);
    CUDA_CHECK(cudaMalloc(&d_indices, bytes_indices));
    CUDA_CHECK(cudaMemcpy(d_indices, h_indices.data(), bytes_indices, cudaMemcpyHostToDevice));
    float* d_light_in = nullptr;
    const size_t bytes_light_in = h_light_in.size() * sizeof(h_light_in[0]);
    CUDA_CHECK(cudaMalloc(&d_light_in, bytes_light_in));
    CUDA_CHECK(cudaMemcpy(d_light_in, h_light_in.data(), bytes_light_in, cudaMemcpyHostToDevice));
    float3* d_normals = nullptr;
    const size_t bytes_normals = h_normals.size() * sizeof(h_normals[0]);
    CUDA_CHECK(cudaMalloc(&d_normals, bytes_normals));
    CUDA_CHECK(cudaMemcpy(d_normals, h_normals.data(), bytes_normals, cudaMemcpyHostToDevice));
    // Mesh `mesh`: the rock of synthesis/mesh_geometry.py, 10 cells per edge of width 0.1001
    // (1200 triangles), bumps salted by the input seed; the same mesh at --bench
    const Mesh mesh = build_rock_mesh(10, 0.1001, seed);

    const dim3 block(256);
    const dim3 grid((n + block.x - 1) / block.x);

    // Run once and check the results
    mesh_9d5bdc0065<<<grid, block>>>(mesh, d_pos, light, d_indices, d_light_in, d_normals, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_light_in.data(), d_light_in, bytes_light_in, cudaMemcpyDeviceToHost));

    if (bench) {
        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout
        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).
        if (dump_path) {
            FILE* dump = fopen(dump_path, "wb");
            bool dump_ok = dump != nullptr;
            dump_ok = dump_ok && fwrite(h_light_in.data(), 1, bytes_light_in, dump) == bytes_light_in;
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
            mesh_9d5bdc0065<<<grid, block, 0, stream>>>(mesh, d_pos, light, d_indices, d_light_in, d_normals, n);
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
        const size_t bytes_read = bytes_pos + bytes_indices + bytes_normals;
        const size_t bytes_written = bytes_light_in;
        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        int memory_clock_khz = 0, bus_width_bits = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;
        printf("{\"kernel\": \"mesh_9d5bdc0065\", \"mode\": \"bench\", \"launch_dim\": [%d], "
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
        CUDA_CHECK(cudaFree(d_indices));
        CUDA_CHECK(cudaFree(d_light_in));
        CUDA_CHECK(cudaFree(d_normals));
        free_mesh(mesh);
        return 0;
    }

    bool ok = true;
    CheckStats stats;
    const std::vector<char> expected = read_file(expected_path);
    if (expected.size() != 2048) {
        fprintf(stderr, "%s: expected 2048 bytes of Warp results, found %zu\n", expected_path, expected.size());
        return 2;
    }
    ok &= check_values("light_in", h_light_in.data(), reinterpret_cast<const float*>(expected.data() + 0), 512,
                       0.01f, 0.0001f, stats);
    printf("%s mesh_9d5bdc0065: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\n",
           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);

    // Timing at the check size (a launch-overhead figure; --bench times the kernel)
    warmup = warmup < 0 ? 10 : warmup;
    trials = trials < 0 ? 100 : trials;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        mesh_9d5bdc0065<<<grid, block>>>(mesh, d_pos, light, d_indices, d_light_in, d_normals, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> times(trials);
    for (int t = 0; t < trials; ++t) {
        CUDA_CHECK(cudaEventRecord(start));
        mesh_9d5bdc0065<<<grid, block>>>(mesh, d_pos, light, d_indices, d_light_in, d_normals, n);
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
    printf("{\"kernel\": \"mesh_9d5bdc0065\", \"passed\": %s, \"max_abs_err\": %.6g, \"max_rel_err\": %.6g, "
           "\"tolerance_used\": %.6g, \"warmup\": %d, \"trials\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f, \"p95_ms\": %.6f, \"min_ms\": %.6f}\n",
           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_pos));
    CUDA_CHECK(cudaFree(d_indices));
    CUDA_CHECK(cudaFree(d_light_in));
    CUDA_CHECK(cudaFree(d_normals));
    free_mesh(mesh);
    return ok ? 0 : 1;
}
