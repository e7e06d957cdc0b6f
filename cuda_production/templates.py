"""Host code, Makefile and metadata around a translated kernel: a sample that proves itself.

The .cu's `main` rebuilds every input from a counter-based hash of (seed, argument, element), so
the data is the same wherever it runs and Python (reference.py) recreates it bit for bit; it launches
the kernel, checks every CUDA call, compares each written array with Warp's own results
(expected.bin), times the kernel with CUDA events, and exits non-zero on any mismatch or error.
With --bench it runs at the bench size instead (cuda_production/bench.py: the same hashed inputs,
arrays shaped like the launch grown with it) and times CUDA-graph replays of back-to-back launches.
A hash grid argument is built on the host from its points, as wp.HashGrid.build builds it, and its
arrays copied to the device; a mesh argument is the rock of synthesis/mesh_geometry.py, built on the
host with a BVH over its triangles and copied to the device.
"""
from __future__ import annotations

from dataclasses import dataclass

from cuda_production.bench import (
    MAX_GRID_DIM, READ_ROLES, bench_launch_dim, block_shape, extra_rows, grid_points, index_scale, max_outer,
    pinned_launch, scale_factor, scales,
)
from cuda_production.cuda_types import ctype, required_arch
from cuda_production.translator import KernelParam, TranslatedKernel
from cuda_production.tiles import TILE_THREADS
from synthesis.dtypes import dtype as lookup_dtype
from synthesis.spec import ArgSpec

DEFAULT_ARCH = "sm_75"  # the oldest architecture CUDA 13 accepts; CUDA 12 accepts it too


@dataclass(frozen=True)
class Tolerance:
    """|got - want| <= atol * bound + rtol * |want|, per float element; integers must match exactly.

    `bound` is the generator's bound on the magnitude of the array's values: rounding error in
    float32 grows with the size of the intermediates, not with the (possibly small) final value.
    """

    atol: float = 1e-4
    rtol: float = 1e-4
    # float64 outputs are compared at float64 precision; float16 ones at float16's
    atol64: float = 1e-10
    rtol64: float = 1e-10
    atol16: float = 1e-2
    rtol16: float = 1e-2
    # bfloat16 keeps 8 significant bits (a spacing of 2**-7 near 1): four of its units
    atolbf16: float = 3e-2
    rtolbf16: float = 3e-2

    def for_dtype(self, scalar: str) -> tuple[float, float]:
        """(atol, rtol) for an array of `scalar` components."""
        return {"float64": (self.atol64, self.rtol64), "float16": (self.atol16, self.rtol16),
                "bfloat16": (self.atolbf16, self.rtolbf16)}.get(scalar, (self.atol, self.rtol))


def _fmt_float(x: float) -> str:
    text = repr(float(x))
    return (text if ("." in text or "e" in text) else text + ".0") + "f"


def _fmt_scalar(scalar: str, x) -> str:
    """A component of type `scalar` as a C constant."""
    if scalar == "float64":
        return _fmt_float(x)[:-1]
    if scalar == "float16":
        return f"__float2half({_fmt_float(x)})"
    if scalar == "bfloat16":
        return f"__float2bfloat16({_fmt_float(x)})"
    if scalar == "uint32":
        return f"{int(x) & 0xFFFFFFFF}U"
    if scalar in ("int32", "int8", "uint8", "int16", "uint16"):
        return str(int(x))
    if scalar == "int64":
        return f"{int(x)}LL"
    return _fmt_float(x)


PRELUDE = r'''#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
'''

HOST_HEADER = r'''
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
'''

HASH = r'''
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
'''

FILL_FLOAT = r'''
// Values on a grid: (lo + bits % span) * step, with step a power of two, so every value is exact.
static void fill_float(float* dst, size_t count, uint32_t seed, uint32_t arg, int lo, uint32_t span, float step)
{
    for (size_t i = 0; i < count; ++i)
        dst[i] = (float)(lo + (int)(input_bits(seed, arg, (uint32_t)i) % span)) * step;
}
'''

FILL_DOUBLE = r'''
static void fill_double(double* dst, size_t count, uint32_t seed, uint32_t arg, int lo, uint32_t span, double step)
{
    for (size_t i = 0; i < count; ++i)
        dst[i] = (double)(lo + (int)(input_bits(seed, arg, (uint32_t)i) % span)) * step;
}
'''

FILL_HALF = r'''
// float16 inputs: the float grid value rounded to nearest (exact for the grids used)
static void fill_half(__half* dst, size_t count, uint32_t seed, uint32_t arg, int lo, uint32_t span, float step)
{
    for (size_t i = 0; i < count; ++i)
        dst[i] = __float2half((float)(lo + (int)(input_bits(seed, arg, (uint32_t)i) % span)) * step);
}
'''

FILL_BF16 = r'''
// bfloat16 inputs: the float grid value rounded to nearest even (exact for the grids used)
static void fill_bf16(__nv_bfloat16* dst, size_t count, uint32_t seed, uint32_t arg, int lo, uint32_t span, float step)
{
    for (size_t i = 0; i < count; ++i)
        dst[i] = __float2bfloat16((float)(lo + (int)(input_bits(seed, arg, (uint32_t)i) % span)) * step);
}
'''

def _named_storage_ints(template: str, dtypes: set[str]) -> str:
    """A storage-int template whose comment names the 16-bit types too where the program has them."""
    if dtypes & {"int16", "uint16"}:
        return template.replace("// int8, uint8 and int64", "// int8, uint8, int16, uint16 and int64")
    return template


FILL_INT = r'''
static void fill_int(int* dst, size_t count, uint32_t seed, uint32_t arg, int lo, uint32_t span)
{
    for (size_t i = 0; i < count; ++i)
        dst[i] = lo + (int)(input_bits(seed, arg, (uint32_t)i) % span);
}
'''

FILL_INTS = r'''
// int8, uint8 and int64 inputs: the values fill_int would draw, in the array's own type
template <typename T>
static void fill_ints(T* dst, size_t count, uint32_t seed, uint32_t arg, int lo, uint32_t span)
{
    for (size_t i = 0; i < count; ++i)
        dst[i] = (T)(lo + (int)(input_bits(seed, arg, (uint32_t)i) % span));
}
'''

FILL_OFFSETS = r'''
// A compressed sparse row's row pointers, the prefix sums of its row lengths: rows 2k and 2k + 1 lie
// as far above and below the mean length (bits k of the hash), so pairs of rows hold twice the mean;
// the last row of an odd count, which has no partner, holds the mean (rows x mean entries in all)
static void fill_offsets(int* dst, size_t count, uint32_t seed, uint32_t arg, int mean, int spread)
{
    dst[0] = 0;
    for (size_t i = 1; i < count; ++i) {
        const size_t row = i - 1;
        const bool unpaired = row % 2 == 0 && row + 2 == count;
        const int offset = unpaired ? 0 : (int)(input_bits(seed, arg, (uint32_t)(row / 2)) % (uint32_t)(2 * spread + 1)) - spread;
        dst[i] = dst[i - 1] + mean + (row % 2 == 0 ? offset : -offset);
    }
}
'''

CHECK_STATS = r'''
struct CheckStats {
    double max_abs = 0.0;
    double max_rel = 0.0;
    double tolerance_used = 0.0;  // largest |error| / allowed error: above 1 is a mismatch
    size_t mismatches = 0;
};
'''

# How check_values reads each float element type: as a double, the smallest |want| a relative error
# divides by, and the significant digits a mismatch prints (enough to tell any two values apart).
CHECK_TYPES = {  # scalar -> (C type, the element x as a double, relative-error floor, digits printed)
    "float32": ("float", "x", "1e-30", 9),
    "float64": ("double", "x", "1e-300", 17),
    "float16": ("__half", "__half2float(x)", "1e-30", 9),
    "bfloat16": ("__nv_bfloat16", "__bfloat162float(x)", "1e-30", 9),
}


def check_types(scalars: set[str]) -> str:
    """CheckType<T> for each float scalar the program checks (check_values reads its elements through it)."""
    lines = ["template <typename T> struct CheckType;  // one specialisation per float type this program checks"]
    for scalar, (ctype_name, as_double, rel_floor, digits) in CHECK_TYPES.items():
        if scalar in scalars:
            lines += [f"template <> struct CheckType<{ctype_name}> {{",
                      f"    static double value({ctype_name} x) {{ return {as_double}; }}",
                      f"    static constexpr double rel_floor = {rel_floor};",
                      f"    static constexpr int digits = {digits};",
                      "};"]
    return "\n".join(lines)


CHECK_VALUES = r'''
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
'''

CHECK_INT = r'''
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
'''

CHECK_INTS = r'''
// int8, uint8 and int64 outputs: exactly Warp's
template <typename T>
static bool check_ints(const char* name, const T* got, const T* want, size_t count, CheckStats& stats)
{
    size_t first_bad = count;
    for (size_t i = 0; i < count; ++i) {
        stats.max_abs = std::max(stats.max_abs, std::fabs((double)got[i] - (double)want[i]));
        if (got[i] != want[i]) {
            if (first_bad == count)
                first_bad = i;
            ++stats.mismatches;
        }
    }
    if (first_bad < count)
        fprintf(stderr, "mismatch: %s[%zu] = %lld, Warp computed %lld\n", name, first_bad, (long long)got[first_bad],
                (long long)want[first_bad]);
    return first_bad == count;
}
'''

TO_RECORDS = r'''
// An array of records (a struct per element) on the host: a member of every record filled from a
// flat array of its components (each member has a hashed stream of its own).
template <typename Record, typename Member, typename T>
static void to_records(std::vector<Record>& records, Member Record::*member, const std::vector<T>& values)
{
    const size_t per = sizeof(Member) / sizeof(T);
    for (size_t i = 0; i < records.size(); ++i)
        memcpy(&(records[i].*member), &values[i * per], sizeof(Member));
}
'''

FROM_RECORDS = r'''
// A member of every record read back into a flat array of its components: expected.bin holds each
// written member's values in a block of their own.
template <typename Record, typename Member, typename T>
static void from_records(std::vector<T>& values, const std::vector<Record>& records, Member Record::*member)
{
    const size_t per = sizeof(Member) / sizeof(T);
    for (size_t i = 0; i < records.size(); ++i)
        memcpy(&values[i * per], &(records[i].*member), sizeof(Member));
}
'''

READ_FILE = r'''
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
'''


HASH_GRID_BUILD = r'''
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
'''

INTEGER_CBRT = r'''
// The largest s with s^3 <= x (at least 1): at bench size a hash grid's points domain and cells per
// axis grow s-fold when its points grow x-fold, so its density stays (cuda_production/bench.py)
static int integer_cbrt(int x)
{
    int s = 1;
    while ((long long)(s + 1) * (s + 1) * (s + 1) <= x)
        ++s;
    return s;
}
'''

BVH_BUILDER = r'''
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

'''

MESH_BUILD = r'''
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
'''


POINTS_BVH_BUILD = r'''
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
'''


# Names main() uses for itself: a scalar argument with one of these names gets an `arg_` prefix.
MAIN_NAMES = {"warmup", "trials", "expected_path", "seed", "ok", "stats", "expected", "start", "stop", "times",
              "sum", "mean", "median", "p95", "block", "grid", "argc", "argv", "i", "t", "checksum", "main",
              "bench", "bench_outer", "launches", "dump_path", "dump", "stream", "graph", "graph_exec",
              "bytes_read", "bytes_written", "gb_per_s", "peak_gb_per_s", "prop", "memory_clock_khz",
              "bus_width_bits", "ms", "dump_ok"}


def host_name(name: str) -> str:
    return f"arg_{name}" if name in MAIN_NAMES else name


@dataclass(frozen=True)
class HostArray:
    """An array main() fills, copies and (if written) checks: a kernel array or a struct's array member."""
    label: str  # the name in messages: `a`, or `s.a` for a struct member
    var: str  # suffix of its host variables h_<var>, d_<var>, bytes_<var>
    arg: ArgSpec
    position: int  # its input position (hash stream) in the flattened argument list
    param: KernelParam
    record: KernelParam | None = None  # the array of records whose member this is (one device buffer for all)


def host_arrays(kernel: TranslatedKernel, args: list[ArgSpec]) -> list[HostArray]:
    """Every array of the flattened argument list (struct members in place of their struct), in order."""
    by_name = {a.name: a for a in args}
    arrays, position = [], 0
    for p in kernel.params:
        a = by_name[p.name]
        if p.kind == "struct":
            members = {f.name: f for f in a.fields}
            for f in p.fields:
                if f.kind == "array":
                    arrays.append(HostArray(f"{p.name}.{f.name}", f"{p.cname}_{f.cname}", members[f.name], position, f))
                position += 1
            continue
        if p.kind in ("hash_grid", "mesh", "bvh"):  # built from its points, or the rock: no hashed input of its own
            continue
        if p.kind == "array" and p.fields:  # an array of records: a host array per member, one device buffer
            members = {f.name: f for f in a.fields}
            for f in p.fields:
                arrays.append(HostArray(f"{p.name}.{f.name}", f"{p.cname}_{f.cname}", members[f.name], position, f, p))
                position += 1
            continue
        if p.kind == "array":
            arrays.append(HostArray(p.name, p.cname, a, position, p))
        position += 1
    return arrays


@dataclass(frozen=True)
class HostGrid:
    """A hash grid or a BVH main() builds on the host over one of its arrays (its points) and passes by value."""
    var: str  # its host variable (a HashGrid or a Bvh)
    arg: ArgSpec
    points: HostArray
    scale: str | None  # the host variable of its points' domain scale at bench size (None: they keep their size)


def host_grids(kernel: TranslatedKernel, args: list[ArgSpec], arrays: list[HostArray], scalar_names: dict[str, str],
               launch_dim: tuple[int, ...]) -> list[HostGrid]:
    """The hash grid and BVH parameters, each with its points array and bench-size domain scale (bench.py)."""
    by_name = {a.name: a for a in args}
    grids = []
    for p in kernel.params:
        if p.kind not in ("hash_grid", "bvh"):
            continue
        a = by_name[p.name]
        points = next(h for h in arrays if h.label == grid_points(a, args).name)
        scale = f"{points.var}_domain_scale" if scales(points.arg, launch_dim) else None
        grids.append(HostGrid(scalar_names[p.name], a, points, scale))
    return grids


@dataclass(frozen=True)
class HostMesh:
    """A mesh main() builds on the host (the rock of synthesis/mesh_geometry.py) and passes by value."""
    var: str  # its host variable (a Mesh)
    arg: ArgSpec


def host_meshes(kernel: TranslatedKernel, args: list[ArgSpec], scalar_names: dict[str, str]) -> list[HostMesh]:
    """The mesh parameters, in order."""
    by_name = {a.name: a for a in args}
    return [HostMesh(scalar_names[p.name], by_name[p.name]) for p in kernel.params if p.kind == "mesh"]


def _render_mesh(m: HostMesh) -> list[str]:
    """A mesh built as the reference builds it (salted by the input seed); the same at bench size."""
    from synthesis.mesh_geometry import rock_triangle_count

    cells, width = m.arg.shape[0], float(m.arg.value)
    return [f"    // Mesh `{m.arg.name}`: the rock of synthesis/mesh_geometry.py, {cells} cells per edge of width {width!r}",
            f"    // ({rock_triangle_count(cells)} triangles), bumps salted by the input seed; the same mesh at --bench",
            f"    const Mesh {m.var} = build_rock_mesh({cells}, {width!r}, seed);"]


def value_literal(dtype: str, value) -> str:
    """A by-value argument's value in C: a number, or a vector/matrix/quat/transform built from its
    components in Warp's memory order (a single number is broadcast to every component)."""
    t = lookup_dtype(dtype)
    if t.kind == "scalar":
        if t.scalar == "bool":
            return "true" if value else "false"
        return _fmt_scalar(t.scalar, value)
    comps = list(value) if isinstance(value, (tuple, list)) else [value] * t.width
    if len(comps) != t.width:
        raise ValueError(f"{dtype} takes {t.width} values, got {len(comps)}")
    f = [_fmt_scalar(t.scalar, c) for c in comps]
    if t.kind == "vector":
        return f"make_{t.ctype}({', '.join(f)})"
    if t.kind == "matrix":
        n = t.shape[0]
        rows = ", ".join("{" + ", ".join(f[r * n:(r + 1) * n]) + "}" for r in range(n))
        return f"{t.ctype}{{{{{rows}}}}}"
    if t.kind == "quaternion":
        return f"quat{{{', '.join(f)}}}"
    return f"transform{{make_float3({', '.join(f[:3])}), quat{{{', '.join(f[3:])}}}}}"


def _host_scalar_names(kernel: TranslatedKernel, arrays: list[HostArray]) -> dict[str, str]:
    """Host variable per by-value parameter: its C name, unless main() or an array's host variables use it."""
    taken = set(MAIN_NAMES) | set(kernel.launch_names) | {f"{pre}_{h.var}" for h in arrays for pre in ("h", "d", "bytes")}
    taken |= {f"{h.var}_domain_scale" for h in arrays}  # a hash grid's points (host_grids)
    names = {}
    for p in kernel.params:
        if p.kind == "array":
            continue
        name = host_name(p.cname)
        while name in taken:
            name = f"arg_{name}"
        taken.add(name)
        names[p.name] = name
    return names


def _render_host_array(w, h: HostArray, kernel: TranslatedKernel, launch_dim: tuple[int, ...],
                       domain_scale: str | None = None, index_rows: int = 0) -> None:
    """`domain_scale`: a hash grid's points array, whose value range grows by this host variable at
    bench size (lo and the span's steps multiplied by it: the same grid step over a wider range).
    `index_rows`: K for an index array into arrays of K rows per outermost launch index, whose values
    span those arrays at bench size too (bench.index_scale)."""
    a = h.arg
    elem = lookup_dtype(a.dtype).component_ctype
    total = _element_count(a, kernel, launch_dim)
    w(f"    std::vector<{elem}> h_{h.var}({total});  // {a.role}, shape {list(a.shape)} of {a.dtype}")
    if a.role == "offsets":
        mean, spread = (int(a.low) + int(a.high)) // 2, (int(a.high) - int(a.low)) // 2
        w(f"    fill_offsets(h_{h.var}.data(), h_{h.var}.size(), seed, {h.position}, {mean}, {spread});  "
          f"// rows of {int(a.low)}-{int(a.high)} entries")
        return
    if a.role in ("input", "inout", "index"):
        lo, span, step = a.fill
        if domain_scale and not a.is_int:
            w(f"    // values in [{a.low!r} s, {a.high!r} s] for s = {domain_scale} (1 at the check size)")
            w(f"    fill_float(h_{h.var}.data(), h_{h.var}.size(), seed, {h.position}, {lo} * {domain_scale}, "
              f"{span - 1}U * {domain_scale} + 1U, {_fmt_float(step)});")
            return
        if a.is_int:
            fill = "fill_ints" if a.is_storage_int else "fill_int"  # int8, uint8, int64: converted
            data = f"h_{h.var}.data()" if elem != "uint32_t" else f"reinterpret_cast<int*>(h_{h.var}.data())"
            if index_rows:
                outer = kernel.launch_names[0]
                rows = outer if index_rows == 1 else f"{index_rows} * {outer}"
                w(f"    // indices into arrays of {rows} rows: their whole extent, at bench size too")
                w(f"    {fill}({data}, h_{h.var}.size(), seed, {h.position}, {lo}, (uint32_t)({rows}));")
                return
            w(f"    {fill}({data}, h_{h.var}.size(), seed, {h.position}, {lo}, {span}U);")
        elif elem in ("double", "__half", "__nv_bfloat16"):
            fill = {"double": "fill_double", "__half": "fill_half", "__nv_bfloat16": "fill_bf16"}[elem]
            w(f"    {fill}(h_{h.var}.data(), h_{h.var}.size(), seed, {h.position}, {lo}, {span}U, "
              f"{_fmt_scalar('float64', step) if elem == 'double' else _fmt_float(step)});")
        else:
            w(f"    fill_float(h_{h.var}.data(), h_{h.var}.size(), seed, {h.position}, {lo}, {span}U, {_fmt_float(step)});")


BENCH_LAUNCHES = 20  # kernel launches per timed CUDA-graph replay
BENCH_WARMUP = 2  # untimed graph replays first (module load, clocks, caches)
BENCH_TRIALS = 20  # timed graph replays: the statistics are over these


def _main_options(bench_outer: int, largest_outer: int | None = None, why: str = "") -> list[str]:
    """main()'s command line: the check run (default) and the benchmark (--bench). `largest_outer`: the
    largest outermost extent --bench-dim may ask for (a launch of 2 to 4 dimensions: CUDA allows
    65,535 blocks along y and z; a pinned launch: its check size), and `why`, said when it is passed."""
    usage = ("usage: %s [--warmup N] [--trials N] [--expected FILE] "
             "[--bench [--bench-dim N] [--launches N] [--dump FILE]]\\n")
    return [
        "    bool bench = false;",
        f"    int bench_outer = {bench_outer};  // outermost launch dimension at bench size (metadata.json: bench)",
        f"    int launches = {BENCH_LAUNCHES};  // kernel launches per timed graph replay (--bench)",
        "    int warmup = -1;  // -1: the mode's default",
        "    int trials = -1;",
        '    const char* expected_path = "expected.bin";',
        "    const char* dump_path = nullptr;  // --bench: write the bench-size results here",
        "    for (int i = 1; i < argc; ++i) {",
        '        if (!strcmp(argv[i], "--warmup") && i + 1 < argc)',
        "            warmup = std::max(0, atoi(argv[++i]));",
        '        else if (!strcmp(argv[i], "--trials") && i + 1 < argc)',
        "            trials = std::max(1, atoi(argv[++i]));",
        '        else if (!strcmp(argv[i], "--expected") && i + 1 < argc)',
        "            expected_path = argv[++i];",
        '        else if (!strcmp(argv[i], "--bench"))',
        "            bench = true;",
        '        else if (!strcmp(argv[i], "--bench-dim") && i + 1 < argc)',
        "            bench_outer = atoi(argv[++i]);",
        '        else if (!strcmp(argv[i], "--launches") && i + 1 < argc)',
        "            launches = atoi(argv[++i]);",
        '        else if (!strcmp(argv[i], "--dump") && i + 1 < argc)',
        "            dump_path = argv[++i];",
        "        else {",
        f'            fprintf(stderr, "{usage}", argv[0]);',
        "            return 2;",
        "        }",
        "    }",
        "    if (bench_outer < 1 || launches < 1) {",
        '        fprintf(stderr, "--bench-dim and --launches must be at least 1\\n");',
        "        return 2;",
        "    }",
    ] + ([
        f"    if (bench_outer > {largest_outer}) {{",
        f'        fprintf(stderr, "--bench-dim %d: {why}\\n", bench_outer);',
        "        return 2;",
        "    }",
    ] if largest_outer is not None else [])


def _launch_dims(kernel: TranslatedKernel, launch_dim: tuple[int, ...]) -> list[str]:
    """The launch extents: the check size, or with --bench the outermost one grown (bench.py)."""
    lines = ["    // Launch size: the check size, or with --bench the bench size (cuda_production/bench.py)"]
    outer, *inner = kernel.launch_names
    lines.append(f"    const int {outer} = bench ? bench_outer : {launch_dim[0]};")
    lines.extend(f"    const int {b} = {d};" for b, d in zip(inner, launch_dim[1:]))
    return lines


def _element_count(arg: ArgSpec, kernel: TranslatedKernel, launch_dim: tuple[int, ...]) -> str:
    """C++ expression for the number of 32-bit values of `arg`'s host array (bench.py's scaling rule)."""
    if not scales(arg, launch_dim):
        return str(arg.count * arg.width)
    extra = extra_rows(arg)
    per_outer = arg.count // arg.shape[0] * arg.width * scale_factor(arg, launch_dim)
    return f"(size_t){kernel.launch_names[0]} * {per_outer}" + (f" + {extra}" if extra else "")


def _extent(arg: ArgSpec, axis: int, kernel: TranslatedKernel, launch_dim: tuple[int, ...]) -> str:
    """C++ expression for an array's extent along `axis`: the bench-grown outer launch extent where
    the array scales with the launch (bench.py), its fixed size otherwise."""
    factor = scale_factor(arg, launch_dim) if axis == 0 else 0
    if factor:
        rows = kernel.launch_names[0] if factor == 1 else f"{factor} * {kernel.launch_names[0]}"
        return f"{rows} + {extra_rows(arg)}" if extra_rows(arg) else rows
    return str(arg.shape[axis])


def _render_grid(g: HostGrid) -> list[str]:
    """A hash grid built over its (host) points, as the reference builds it with wp.HashGrid; at bench
    size its cells per axis grow with its points' domain (bench.grid_dims). A BVH over the boxes
    around its points, as the reference builds wp.Bvh."""
    a, points = g.arg, g.points  # a vec3 array (bench.grid_points)
    if a.role == "bvh":
        half = _fmt_float(float(a.value))
        return [f"    // BVH `{a.name}`: wp.Bvh over the boxes [x - {half}, x + {half}] around each point x of {points.label}",
                f"    const Bvh {g.var} = build_points_bvh(h_{points.var}.data(), (int)(h_{points.var}.size() / 3), {half});"]
    dims = [f"std::min({d} * {g.scale}, {MAX_GRID_DIM})" if g.scale and d < MAX_GRID_DIM else str(d) for d in a.shape]
    shape = ", ".join(map(str, a.shape))
    lines = [f"    // Hash grid `{a.name}`: wp.HashGrid({shape}) built over {points.label} with cell width {a.value!r}"]
    if g.scale:
        lines.append(f"    // (with --bench its cells per axis grow with the points' domain, up to {MAX_GRID_DIM})")
    head = f"    const HashGrid {g.var} = build_hash_grid("
    rest = [f"h_{points.var}.data(), (int)(h_{points.var}.size() / 3),", f"{', '.join(dims)}, {_fmt_float(float(a.value))});"]
    if len(head) + len(rest[0]) + len(rest[1]) < 110:
        return lines + [head + " ".join(rest)]
    if len(head) + len(rest[1]) > 120:  # one cell count per line
        rest = rest[:1] + [f"{d}," for d in dims] + [f"{_fmt_float(float(a.value))});"]
    return lines + [head + rest[0]] + [" " * len(head) + r for r in rest[1:]]


def _render_records(w, p: KernelParam, members: list[HostArray], arg: ArgSpec) -> None:
    """An array of records on the host: its members' arrays (filled above) copied into the records."""
    first = members[0]
    per = lookup_dtype(first.arg.dtype).width
    count = f"h_{first.var}.size()" if per == 1 else f"h_{first.var}.size() / {per}"
    w(f"    std::vector<{p.dtype}> h_{p.cname}({count});  // {arg.role}, shape {list(arg.shape)} of struct {p.dtype}")
    for h in members:
        if h.arg.role in ("input", "inout"):
            w(f"    to_records(h_{p.cname}, &{p.dtype}::{h.param.cname}, h_{h.var});")


def _device_buffers(kernel: TranslatedKernel, arrays: list[HostArray]) -> list[str]:
    """The device buffers main() allocates: one per array, one per array of records (not per member)."""
    return [h.var for h in arrays if h.record is None] + [p.cname for p in kernel.params if p.kind == "array" and p.fields]


def _free_grid(g: HostGrid) -> str:
    return f"free_bvh({g.var})" if g.arg.role == "bvh" else f"free_hash_grid({g.var})"


def _bench_block(kernel: TranslatedKernel, arrays: list[HostArray], launch: str, grids: list[HostGrid],
                 meshes: list[HostMesh]) -> list[str]:
    """--bench: dump the one launch's results, then time `launches` back-to-back launches per
    CUDA-graph replay between one event pair, and print one JSON line."""
    written = [h for h in arrays if h.param.written]
    read_terms = [f"bytes_{h.var}" for h in arrays if h.arg.role in READ_ROLES]
    # a hash grid's point_ids or a BVH's item order, one int per point (bench.py BYTE_RULE)
    read_terms += [f"h_{g.points.var}.size() / 3 * sizeof(int)" for g in grids]
    read_terms = read_terms or ["0"]
    written_terms = [f"bytes_{h.var}" for h in arrays if h.arg.is_written] or ["0"]
    on_stream = launch.replace("<<<grid, block>>>", "<<<grid, block, 0, stream>>>")
    lines = [
        "    if (bench) {",
        "        // Bench size: the one launch above, from fresh inputs, is what --dump writes (the layout",
        "        // of expected.bin); the timed launches below run on (inout arrays keep accumulating).",
        "        if (dump_path) {",
        '            FILE* dump = fopen(dump_path, "wb");',
        "            bool dump_ok = dump != nullptr;",
    ]
    for h in written:
        lines.append(f"            dump_ok = dump_ok && fwrite(h_{h.var}.data(), 1, bytes_{h.var}, dump) == bytes_{h.var};")
    lines += [
        "            if (dump)",
        "                dump_ok = (fclose(dump) == 0) && dump_ok;",
        "            if (!dump_ok) {",
        '                fprintf(stderr, "%s: cannot write the bench results\\n", dump_path);',
        "                return 2;",
        "            }",
        "        }",
        f"        warmup = warmup < 0 ? {BENCH_WARMUP} : warmup;",
        f"        trials = trials < 0 ? {BENCH_TRIALS} : trials;",
        "        cudaStream_t stream;",
        "        CUDA_CHECK(cudaStreamCreate(&stream));",
        "        cudaGraph_t graph;",
        "        cudaGraphExec_t graph_exec;",
        "        CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));",
        "        for (int i = 0; i < launches; ++i)",
        f"            {on_stream}",
        "        CUDA_CHECK(cudaStreamEndCapture(stream, &graph));",
        "        CUDA_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));",
        "        for (int i = 0; i < warmup; ++i)",
        "            CUDA_CHECK(cudaGraphLaunch(graph_exec, stream));",
        "        CUDA_CHECK(cudaStreamSynchronize(stream));",
        "        cudaEvent_t start, stop;",
        "        CUDA_CHECK(cudaEventCreate(&start));",
        "        CUDA_CHECK(cudaEventCreate(&stop));",
        "        std::vector<double> times(trials);  // microseconds per launch, one per graph replay",
        "        for (int t = 0; t < trials; ++t) {",
        "            CUDA_CHECK(cudaEventRecord(start, stream));",
        "            CUDA_CHECK(cudaGraphLaunch(graph_exec, stream));",
        "            CUDA_CHECK(cudaEventRecord(stop, stream));",
        "            CUDA_CHECK(cudaEventSynchronize(stop));",
        "            float ms = 0.0f;",
        "            CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));",
        "            times[t] = 1000.0 * ms / launches;",
        "        }",
        "        CUDA_CHECK(cudaGetLastError());",
        "        std::sort(times.begin(), times.end());",
        "        double sum = 0.0;",
        "        for (double t : times)",
        "            sum += t;",
        "        const double mean = sum / trials;",
        "        const double median = trials % 2 ? times[trials / 2] : 0.5 * (times[trials / 2 - 1] + times[trials / 2]);",
        "        const double p95 = times[std::min(trials - 1, (int)std::ceil(0.95 * trials) - 1)];",
        *(["        // each hash grid's point_ids or BVH's item order (one int per point) count as read; its cell"
           "        // tables or tree do not (bench.py)"] if grids else []),
        f"        const size_t bytes_read = {' + '.join(read_terms)};",
        f"        const size_t bytes_written = {' + '.join(written_terms)};",
        "        const double gb_per_s = (double)(bytes_read + bytes_written) / (median * 1e3);",
        "        cudaDeviceProp prop;",
        "        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));",
        "        int memory_clock_khz = 0, bus_width_bits = 0;",
        "        CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));",
        "        CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));",
        "        const double peak_gb_per_s = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8) / 1e9;",
        f'        printf("{{\\"kernel\\": \\"{kernel.name}\\", \\"mode\\": \\"bench\\", \\"launch_dim\\": [{", ".join(["%d"] * kernel.launch_ndim)}], "',
        '               "\\"launches\\": %d, \\"warmup\\": %d, \\"trials\\": %d, \\"median_us\\": %.3f, \\"mean_us\\": %.3f, "',
        '               "\\"p95_us\\": %.3f, \\"min_us\\": %.3f, \\"bytes_read\\": %zu, \\"bytes_written\\": %zu, "',
        '               "\\"gb_per_s\\": %.2f, \\"peak_gb_per_s\\": %.2f, \\"percent_of_peak\\": %.2f, \\"device\\": \\"%s\\"}\\n",',
        f"               {', '.join(kernel.launch_names)}, launches, warmup, trials, median, mean, p95, times[0], bytes_read, bytes_written,",
        "               gb_per_s, peak_gb_per_s, peak_gb_per_s > 0 ? 100.0 * gb_per_s / peak_gb_per_s : 0.0, prop.name);",
        "        CUDA_CHECK(cudaEventDestroy(start));",
        "        CUDA_CHECK(cudaEventDestroy(stop));",
        "        CUDA_CHECK(cudaGraphExecDestroy(graph_exec));",
        "        CUDA_CHECK(cudaGraphDestroy(graph));",
        "        CUDA_CHECK(cudaStreamDestroy(stream));",
    ]
    lines += [f"        CUDA_CHECK(cudaFree(d_{var}));" for var in _device_buffers(kernel, arrays)]
    lines += [f"        {_free_grid(g)};" for g in grids]
    lines += [f"        free_mesh({m.var});" for m in meshes]
    lines += ["        return 0;", "    }"]
    return lines


def render_cu(kernel: TranslatedKernel, args: list[ArgSpec], launch_dim: tuple[int, ...], input_seed: int,
              tolerance: Tolerance, has_reference: bool, title: str) -> str:
    name = kernel.name
    by_name = {a.name: a for a in args}
    lines: list[str] = []
    w = lines.append

    w(f"// {title}")
    w(f"// Standalone CUDA translation of the Warp kernel `{name}` (see {name}.py); needs only the CUDA toolkit.")
    w("// Build and check: make check   (make ARCH=sm_90 for an H100)")
    w(PRELUDE)
    if kernel.device_code:
        w(kernel.device_code)
        w("")
    w(kernel.kernel_code)

    arrays = host_arrays(kernel, args)
    scalar_names = _host_scalar_names(kernel, arrays)
    written = [h for h in arrays if h.param.written]
    # Only the host helpers this sample uses, so the file compiles without unused-function warnings.
    filled = [h.arg for h in arrays if h.arg.role in ("input", "inout", "index", "offsets")]
    w("")
    w(HOST_HEADER.strip("\n"))
    if filled:
        w("")
        w(HASH.strip("\n"))
    filled_scalars = {lookup_dtype(a.dtype).scalar for a in filled}
    if "float32" in filled_scalars:
        w("")
        w(FILL_FLOAT.strip("\n"))
    if "float64" in filled_scalars:
        w("")
        w(FILL_DOUBLE.strip("\n"))
    if "float16" in filled_scalars:
        w("")
        w(FILL_HALF.strip("\n"))
    if "bfloat16" in filled_scalars:
        w("")
        w(FILL_BF16.strip("\n"))
    if any(a.is_int and not a.is_storage_int and a.role != "offsets" for a in filled):
        w("")
        w(FILL_INT.strip("\n"))
    if any(a.is_storage_int for a in filled):
        w("")
        w(_named_storage_ints(FILL_INTS, {a.dtype for a in filled}).strip("\n"))
    if any(a.role == "offsets" for a in filled):
        w("")
        w(FILL_OFFSETS.strip("\n"))
    w("")
    w(CHECK_STATS.strip("\n"))
    written_floats = {lookup_dtype(h.arg.dtype).scalar for h in written} & set(CHECK_TYPES)
    if has_reference and written_floats:
        w("")
        w(check_types(written_floats))
        w("")
        w(CHECK_VALUES.strip("\n"))
    if has_reference and any(h.arg.is_int and not h.arg.is_storage_int for h in written):
        w("")
        w(CHECK_INT.strip("\n"))
    if has_reference and any(h.arg.is_storage_int for h in written):
        w("")
        w(_named_storage_ints(CHECK_INTS, {h.arg.dtype for h in written}).strip("\n"))
    records = [p for p in kernel.params if p.kind == "array" and p.fields]
    if any(h.record is not None and h.arg.role in ("input", "inout") for h in arrays):
        w("")
        w(TO_RECORDS.strip("\n"))
    if any(h.record is not None for h in written):
        w("")
        w(FROM_RECORDS.strip("\n"))
    if has_reference:
        w("")
        w(READ_FILE.strip("\n"))
    grids = host_grids(kernel, args, arrays, scalar_names, launch_dim)
    if any(g.arg.role == "hash_grid" for g in grids):
        w("")
        w(HASH_GRID_BUILD.strip("\n"))
    if any(g.scale for g in grids):
        w("")
        w(INTEGER_CBRT.strip("\n"))
    meshes = host_meshes(kernel, args, scalar_names)
    if meshes or any(g.arg.role == "bvh" for g in grids):
        w("")
        w(BVH_BUILDER.strip("\n"))
    if meshes:
        w("")
        w(MESH_BUILD.strip("\n"))
    if any(g.arg.role == "bvh" for g in grids):
        w("")
        w(POINTS_BVH_BUILD.strip("\n"))
    w("")
    w("int main(int argc, char** argv)")
    w("{")
    largest = max_outer(launch_dim) if len(launch_dim) > 1 and not kernel.tiled else None  # a tiled grid is 1-D
    why = "this launch's grid holds at most {n} (CUDA allows 65535 blocks along y and z)"
    if pinned_launch(args, launch_dim):
        largest = launch_dim[0]
        why = ("this kernel's code holds its launch's extents ({n} rows), so its arrays keep their size: it runs "
               "at {n} rows or fewer")
    for line in _main_options(bench_launch_dim(args, launch_dim, kernel.block_dim if kernel.tiled else 1)[0], largest,
                              why.format(n=largest)):
        w(line)
    w("")
    if filled or meshes:
        w(f"    const uint32_t seed = {input_seed}U;")
        w("")
    for line in _launch_dims(kernel, launch_dim):
        w(line)
    scaled = {g.points.var: g.scale for g in grids if g.scale}
    if scaled:
        if any(g.arg.role == "hash_grid" and g.scale for g in grids):
            w("    // A hash grid keeps its density at bench size: its points' domain and its cells per axis grow")
            w("    // with the cube root of the points' growth (cuda_production/bench.py)")
        else:
            w("    // A BVH's points keep their density at bench size: their domain grows with the cube root of")
            w("    // their growth (cuda_production/bench.py)")
        for var, scale in scaled.items():
            w(f"    const int {scale} = integer_cbrt({kernel.launch_names[0]} / {launch_dim[0]});")
    w("")
    w("    // Inputs (host)")
    for p in kernel.params:
        if p.kind == "scalar":
            a = by_name[p.name]
            if a.launch_bound:  # at bench size too, the launch's last few threads have no element
                padding = launch_dim[0] - int(a.value)
                if padding:
                    w(f"    const int {scalar_names[p.name]} = {kernel.launch_names[0]} - {padding};"
                      f"  // elements: the launch is padded by {padding}")
                else:
                    w(f"    const int {scalar_names[p.name]} = {kernel.launch_names[0]};  // elements: one per thread")
                continue
            w(f"    const {ctype(a.dtype)} {scalar_names[p.name]} = {value_literal(a.dtype, a.value)};")
            continue
        for h in arrays:
            if h.label == p.name or h.label.startswith(f"{p.name}."):
                _render_host_array(w, h, kernel, launch_dim, scaled.get(h.var), index_scale(h.arg, args, launch_dim))
        if p in records:
            _render_records(w, p, [h for h in arrays if h.record is p], by_name[p.name])
    w("")
    w("    // Device buffers")
    def device_buffer(var: str, ct: str, element: str) -> None:
        w(f"    {ct}* d_{var} = nullptr;")
        w(f"    const size_t bytes_{var} = h_{var}.size() * sizeof({element});")
        w(f"    CUDA_CHECK(cudaMalloc(&d_{var}, bytes_{var}));")
        w(f"    CUDA_CHECK(cudaMemcpy(d_{var}, h_{var}.data(), bytes_{var}, cudaMemcpyHostToDevice));")

    for k, h in enumerate(arrays):
        if h.record is None:
            device_buffer(h.var, ctype(h.arg.dtype), f"h_{h.var}[0]")
            continue
        # a member of an array of records: its bytes count in the bench figures; the records, one buffer
        w(f"    const size_t bytes_{h.var} = h_{h.var}.size() * sizeof(h_{h.var}[0]);")
        if k + 1 == len(arrays) or arrays[k + 1].record is not h.record:
            device_buffer(h.record.cname, h.record.dtype, h.record.dtype)
    for p in kernel.params:
        if p.kind != "struct":
            continue
        # a struct travels by value: its members set one by one, arrays as device pointer and extents
        var = scalar_names[p.name]
        members = {f.name: f for f in by_name[p.name].fields}
        w(f"    {p.dtype} {var}{{}};")
        for f in p.fields:
            fa = members[f.name]
            if f.kind == "array":
                w(f"    {var}.{f.cname} = d_{p.cname}_{f.cname};")
                for k in range(f.ndim):
                    w(f"    {var}.{f.cname}_dim{k} = {_extent(fa, k, kernel, launch_dim)};")
            else:
                w(f"    {var}.{f.cname} = {value_literal(fa.dtype, fa.value)};")
    for g in grids:
        for line in _render_grid(g):
            w(line)
    for m in meshes:
        for line in _render_mesh(m):
            w(line)
    w("")
    # launch configuration
    nd = kernel.launch_ndim
    if kernel.block_dim:  # tiles: 1-D blocks of block_dim threads (the kernel unravels Warp's indices)
        threads = " * ".join(kernel.launch_names)
        w(f"    const dim3 block({TILE_THREADS});  // block_dim: {kernel.block_dim_origin}")
        if kernel.tiled:
            w(f"    const dim3 grid({threads});  // wp.launch_tiled: one block per launch index")
        else:
            w(f"    const dim3 grid(({threads} + block.x - 1) / block.x);")
    elif nd == 1 and kernel.stage_threads:
        # the kernel stages stores in __shared__ arrays sized for this block (the same constant)
        w("    const dim3 block(STAGE_THREADS);")
        w(f"    const dim3 grid(({kernel.launch_names[0]} + block.x - 1) / block.x);")
    elif nd == 1:
        w(f"    const dim3 block({block_shape(launch_dim)[0]});")
        w(f"    const dim3 grid(({kernel.launch_names[0]} + block.x - 1) / block.x);")
    else:
        bx = block_shape(launch_dim)  # fitted to the inner extents (bench.py)
        w(f"    const dim3 block({', '.join(map(str, bx))});")
        # x covers the last launch dimension (see the kernel's index mapping)
        extents = list(kernel.launch_names)[::-1]
        parts = [f"({e} + block.{ax} - 1) / block.{ax}" for e, ax in zip(extents, "xyz")]
        if nd == 4:  # z counts the (n, c) planes: the kernel divides its plane by dim1
            parts[2] = f"({kernel.launch_names[0]} * {kernel.launch_names[1]} + block.z - 1) / block.z"
        w(f"    const dim3 grid({', '.join(parts)});")
    call_args = []
    for p in kernel.params:
        if p.kind == "array":
            call_args.append(f"d_{p.cname}")
            call_args.extend(_extent(by_name[p.name], k, kernel, launch_dim) for k in p.dim_axes())
        else:
            call_args.append(scalar_names[p.name])
    call_args.extend(kernel.launch_names)
    launch = f"{kernel.cname}<<<grid, block>>>({', '.join(call_args)});"
    w("")
    w("    // Run once and check the results")
    w(f"    {launch}")
    w("    CUDA_CHECK(cudaGetLastError());")
    w("    CUDA_CHECK(cudaDeviceSynchronize());")
    for h in written:
        if h.record is None:
            w(f"    CUDA_CHECK(cudaMemcpy(h_{h.var}.data(), d_{h.var}, bytes_{h.var}, cudaMemcpyDeviceToHost));")
    for p in records:
        members = [h for h in written if h.record is p]
        if members:
            w(f"    CUDA_CHECK(cudaMemcpy(h_{p.cname}.data(), d_{p.cname}, bytes_{p.cname}, cudaMemcpyDeviceToHost));")
            w(f"    // the members of {p.name} the kernel writes, each read back into an array of its own")
        for h in members:
            w(f"    from_records(h_{h.var}, h_{p.cname}, &{p.dtype}::{h.param.cname});")
    w("")
    for line in _bench_block(kernel, arrays, launch, grids, meshes):
        w(line)
    w("")
    w("    bool ok = true;")
    w("    CheckStats stats;")
    if has_reference:
        expected_bytes = sum(h.arg.count * h.arg.width * h.arg.component_bytes for h in written)
        w("    const std::vector<char> expected = read_file(expected_path);")
        w(f"    if (expected.size() != {expected_bytes}) {{")
        w(f'        fprintf(stderr, "%s: expected {expected_bytes} bytes of Warp results, found %zu\\n", expected_path, expected.size());')
        w("        return 2;")
        w("    }")
        offset = 0
        for h in written:
            a = h.arg
            n = a.count * a.width
            elem = lookup_dtype(a.dtype).component_ctype
            if a.is_storage_int:  # int8, uint8, int64
                w(f'    ok &= check_ints("{h.label}", h_{h.var}.data(), reinterpret_cast<const {elem}*>(expected.data() + {offset}), {n}, stats);')
            elif a.is_int:
                got = f"h_{h.var}.data()" if elem == "int" else f"reinterpret_cast<const int*>(h_{h.var}.data())"
                w(f'    ok &= check_int("{h.label}", {got}, reinterpret_cast<const int*>(expected.data() + {offset}), {n}, stats);')
            else:
                atol, rtol = tolerance.for_dtype(lookup_dtype(a.dtype).scalar)
                # float32/float16 tolerances as float constants, float64's as double (the values compared before)
                fmt = (lambda x: _fmt_scalar("float64", x)) if elem == "double" else _fmt_float
                w(f'    ok &= check_values("{h.label}", h_{h.var}.data(), reinterpret_cast<const {elem}*>(expected.data() + {offset}), {n},')
                w(f"                       {fmt(atol * a.bound)}, {fmt(rtol)}, stats);")
            offset += a.component_bytes * n
        w(f'    printf("%s {name}: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\\n",')
        w('           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);')
    else:
        w("    // No reference values for this kernel: report a checksum of what it wrote instead.")
        w("    double checksum = 0.0;")
        for h in written:
            w(f"    for (size_t i = 0; i < h_{h.var}.size(); ++i)")
            w(f"        checksum += (double)h_{h.var}[i];")
        w(f'    printf("RAN {name} (no reference values to compare): checksum=%.9g\\n", checksum);')
    w("")
    w("    // Timing at the check size (a launch-overhead figure; --bench times the kernel)")
    w("    warmup = warmup < 0 ? 10 : warmup;")
    w("    trials = trials < 0 ? 100 : trials;")
    w("    cudaEvent_t start, stop;")
    w("    CUDA_CHECK(cudaEventCreate(&start));")
    w("    CUDA_CHECK(cudaEventCreate(&stop));")
    w("    for (int i = 0; i < warmup; ++i)")
    w(f"        {launch}")
    w("    CUDA_CHECK(cudaGetLastError());")
    w("    CUDA_CHECK(cudaDeviceSynchronize());")
    w("    std::vector<float> times(trials);")
    w("    for (int t = 0; t < trials; ++t) {")
    w("        CUDA_CHECK(cudaEventRecord(start));")
    w(f"        {launch}")
    w("        CUDA_CHECK(cudaEventRecord(stop));")
    w("        CUDA_CHECK(cudaEventSynchronize(stop));")
    w("        CUDA_CHECK(cudaEventElapsedTime(&times[t], start, stop));")
    w("    }")
    w("    CUDA_CHECK(cudaGetLastError());")
    w("    std::sort(times.begin(), times.end());")
    w("    double sum = 0.0;")
    w("    for (float t : times)")
    w("        sum += t;")
    w("    const double mean = sum / trials;")
    w("    const double median = trials % 2 ? times[trials / 2] : 0.5 * (times[trials / 2 - 1] + times[trials / 2]);")
    w("    const double p95 = times[std::min(trials - 1, (int)std::ceil(0.95 * trials) - 1)];")
    w(f'    printf("{{\\"kernel\\": \\"{name}\\", \\"passed\\": %s, \\"max_abs_err\\": %.6g, \\"max_rel_err\\": %.6g, "')
    w('           "\\"tolerance_used\\": %.6g, \\"warmup\\": %d, \\"trials\\": %d, \\"mean_ms\\": %.6f, \\"median_ms\\": %.6f, \\"p95_ms\\": %.6f, \\"min_ms\\": %.6f}\\n",')
    w('           ok ? "true" : "false", stats.max_abs, stats.max_rel, stats.tolerance_used, warmup, trials, mean, median, p95, (double)times[0]);')
    w("")
    w("    CUDA_CHECK(cudaEventDestroy(start));")
    w("    CUDA_CHECK(cudaEventDestroy(stop));")
    for var in _device_buffers(kernel, arrays):
        w(f"    CUDA_CHECK(cudaFree(d_{var}));")
    for g in grids:
        w(f"    {_free_grid(g)};")
    for m in meshes:
        w(f"    free_mesh({m.var});")
    w("    return ok ? 0 : 1;")
    w("}")
    return "\n".join(lines) + "\n"


def render_makefile(name: str, program: str = "") -> str:
    """The sample's Makefile, building for the oldest architecture its `program` (the .cu) runs on."""
    arch = required_arch(program, DEFAULT_ARCH)
    why = ("the oldest architecture CUDA 13 still supports (CUDA 12 too)" if arch == DEFAULT_ARCH
           else "the oldest architecture this kernel's code runs on (its #error line says why)")
    return f"""# {name}: standalone CUDA sample translated from a Warp kernel.
#   make            build
#   make ptx        write PTX (works without a GPU)
#   make run        build and run (prints PASS/FAIL and a JSON timing line)
#   make check      build, run, and fail unless the results match Warp's
#   make bench      build and time the kernel at the bench size (metadata.json: bench): one JSON
#                   line with us per launch, bytes moved, GB/s and % of the GPU's peak bandwidth
#   make clean
# ARCH defaults to {arch}, {why};
# set it for your GPU, e.g. `make ARCH=sm_90` on an H100.
NVCC      ?= nvcc
ARCH      ?= {arch}
NVCCFLAGS ?= -O3 -std=c++17 -lineinfo
TARGET    := {name}

all: $(TARGET)

$(TARGET): $(TARGET).cu
\t$(NVCC) $(NVCCFLAGS) -arch=$(ARCH) $< -o $@

ptx: $(TARGET).ptx

$(TARGET).ptx: $(TARGET).cu
\t$(NVCC) $(NVCCFLAGS) -arch=$(ARCH) -ptx $< -o $@

run: $(TARGET)
\t-./$(TARGET)

check: $(TARGET)
\t./$(TARGET)

bench: $(TARGET)
\t./$(TARGET) --bench

clean:
\trm -f $(TARGET) $(TARGET).ptx

.PHONY: all ptx run check bench clean
"""
