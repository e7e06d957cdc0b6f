"""Host code, Makefile and metadata around a translated kernel: a sample that proves itself.

The .cu's `main` rebuilds every input from a counter-based hash of (seed, argument, element), so
the data is the same wherever it runs and Python (reference.py) recreates it bit for bit; it launches
the kernel, checks every CUDA call, compares each written array with Warp's own results
(expected.bin), times the kernel with CUDA events, and exits non-zero on any mismatch or error.
"""
from __future__ import annotations

from dataclasses import dataclass

from cuda_production.cuda_types import ctype
from cuda_production.translator import TranslatedKernel
from synthesis.spec import ArgSpec

BLOCK_1D = 256
BLOCKS = {1: (256,), 2: (16, 16), 3: (8, 8, 4)}  # x, y, z
DEFAULT_ARCH = "sm_75"  # the oldest architecture CUDA 13 accepts; CUDA 12 accepts it too


@dataclass(frozen=True)
class Tolerance:
    """|got - want| <= atol * bound + rtol * |want|, per float element; integers must match exactly.

    `bound` is the generator's bound on the magnitude of the array's values: rounding error in
    float32 grows with the size of the intermediates, not with the (possibly small) final value.
    """

    atol: float = 1e-4
    rtol: float = 1e-4


def _fmt_float(x: float) -> str:
    text = repr(float(x))
    return (text if ("." in text or "e" in text) else text + ".0") + "f"


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

FILL_INT = r'''
static void fill_int(int* dst, size_t count, uint32_t seed, uint32_t arg, int lo, uint32_t span)
{
    for (size_t i = 0; i < count; ++i)
        dst[i] = lo + (int)(input_bits(seed, arg, (uint32_t)i) % span);
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

CHECK_FLOAT = r'''
static bool check_float(const char* name, const float* got, const float* want, size_t count,
                        float atol, float rtol, CheckStats& stats)
{
    size_t first_bad = count;
    for (size_t i = 0; i < count; ++i) {
        double diff = std::fabs((double)got[i] - (double)want[i]);
        double rel = diff / std::max(std::fabs((double)want[i]), 1e-30);
        bool same_nan = std::isnan(got[i]) && std::isnan(want[i]);
        double allowed = atol + rtol * std::fabs((double)want[i]);
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
        fprintf(stderr, "mismatch: %s[%zu] = %.9g, Warp computed %.9g\n", name, first_bad,
                got[first_bad], want[first_bad]);
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



# Names main() uses for itself: a scalar argument with one of these names gets an `arg_` prefix.
MAIN_NAMES = {"warmup", "trials", "expected_path", "seed", "ok", "stats", "expected", "start", "stop", "times",
              "sum", "mean", "median", "p95", "block", "grid", "argc", "argv", "i", "t", "checksum", "main"}


def host_name(name: str) -> str:
    return f"arg_{name}" if name in MAIN_NAMES else name


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

    written = [p for p in kernel.params if p.kind == "array" and p.written]
    # Only the host helpers this sample uses, so the file compiles without unused-function warnings.
    filled = [by_name[p.name] for p in kernel.params if p.kind == "array" and by_name[p.name].role in ("input", "inout", "index")]
    w("")
    w(HOST_HEADER.strip("\n"))
    if filled:
        w("")
        w(HASH.strip("\n"))
    if any(not a.is_int for a in filled):
        w("")
        w(FILL_FLOAT.strip("\n"))
    if any(a.is_int for a in filled):
        w("")
        w(FILL_INT.strip("\n"))
    w("")
    w(CHECK_STATS.strip("\n"))
    if has_reference and any(not by_name[p.name].is_int for p in written):
        w("")
        w(CHECK_FLOAT.strip("\n"))
    if has_reference and any(by_name[p.name].is_int for p in written):
        w("")
        w(CHECK_INT.strip("\n"))
    if has_reference:
        w("")
        w(READ_FILE.strip("\n"))
    w("")
    w("int main(int argc, char** argv)")
    w("{")
    w("    int warmup = 10;")
    w("    int trials = 100;")
    w('    const char* expected_path = "expected.bin";')
    w("    for (int i = 1; i < argc; ++i) {")
    w('        if (!strcmp(argv[i], "--warmup") && i + 1 < argc)')
    w("            warmup = atoi(argv[++i]);")
    w('        else if (!strcmp(argv[i], "--trials") && i + 1 < argc)')
    w("            trials = std::max(1, atoi(argv[++i]));")
    w('        else if (!strcmp(argv[i], "--expected") && i + 1 < argc)')
    w("            expected_path = argv[++i];")
    w("        else {")
    w('            fprintf(stderr, "usage: %s [--warmup N] [--trials N] [--expected FILE]\\n", argv[0]);')
    w("            return 2;")
    w("        }")
    w("    }")
    w("")
    if filled:
        w(f"    const uint32_t seed = {input_seed}U;")
        w("")
    w("    // Inputs (host)")
    for k, p in enumerate(kernel.params):
        a = by_name[p.name]
        if p.kind == "scalar":
            lit = _fmt_float(a.value) if a.dtype == "float32" else str(int(a.value))
            w(f"    const {ctype(a.dtype)} {host_name(p.name)} = {lit};")
            continue
        elem = "int" if a.is_int else "float"
        total = a.count * a.width
        w(f"    std::vector<{elem}> h_{p.name}({total});  // {a.role}, shape {list(a.shape)} of {a.dtype}")
        if a.role in ("input", "inout", "index"):
            lo, span, step = a.fill
            if a.is_int:
                w(f"    fill_int(h_{p.name}.data(), h_{p.name}.size(), seed, {k}, {lo}, {span}U);")
            else:
                w(f"    fill_float(h_{p.name}.data(), h_{p.name}.size(), seed, {k}, {lo}, {span}U, {_fmt_float(step)});")
    w("")
    w("    // Device buffers")
    for p in kernel.params:
        if p.kind != "array":
            continue
        a = by_name[p.name]
        ct = ctype(a.dtype)
        w(f"    {ct}* d_{p.name} = nullptr;")
        w(f"    const size_t bytes_{p.name} = h_{p.name}.size() * sizeof(h_{p.name}[0]);")
        w(f"    CUDA_CHECK(cudaMalloc(&d_{p.name}, bytes_{p.name}));")
        w(f"    CUDA_CHECK(cudaMemcpy(d_{p.name}, h_{p.name}.data(), bytes_{p.name}, cudaMemcpyHostToDevice));")
    w("")
    # launch configuration
    nd = kernel.launch_ndim
    if nd == 1:
        w(f"    const int {kernel.launch_names[0]} = {launch_dim[0]};")
        w(f"    const dim3 block({BLOCK_1D});")
        w(f"    const dim3 grid(({kernel.launch_names[0]} + block.x - 1) / block.x);")
    else:
        for b, d in zip(kernel.launch_names, launch_dim):
            w(f"    const int {b} = {d};")
        bx = BLOCKS[nd]
        w(f"    const dim3 block({', '.join(map(str, bx))});")
        # x covers the last launch dimension (see the kernel's index mapping)
        extents = list(kernel.launch_names)[::-1]
        parts = [f"({e} + block.{ax} - 1) / block.{ax}" for e, ax in zip(extents, "xyz")]
        w(f"    const dim3 grid({', '.join(parts)});")
    call_args = []
    for p in kernel.params:
        if p.kind == "array":
            call_args.append(f"d_{p.name}")
            call_args.extend(str(by_name[p.name].shape[k]) for k in range(1, p.ndim))
        else:
            call_args.append(host_name(p.name))
    call_args.extend(kernel.launch_names)
    launch = f"{name}<<<grid, block>>>({', '.join(call_args)});"
    w("")
    w("    // Run once and check the results")
    w(f"    {launch}")
    w("    CUDA_CHECK(cudaGetLastError());")
    w("    CUDA_CHECK(cudaDeviceSynchronize());")
    for p in written:
        w(f"    CUDA_CHECK(cudaMemcpy(h_{p.name}.data(), d_{p.name}, bytes_{p.name}, cudaMemcpyDeviceToHost));")
    w("")
    w("    bool ok = true;")
    w("    CheckStats stats;")
    if has_reference:
        expected_bytes = sum(by_name[p.name].count * by_name[p.name].width * 4 for p in written)
        w("    const std::vector<char> expected = read_file(expected_path);")
        w(f"    if (expected.size() != {expected_bytes}) {{")
        w(f'        fprintf(stderr, "%s: expected {expected_bytes} bytes of Warp results, found %zu\\n", expected_path, expected.size());')
        w("        return 2;")
        w("    }")
        offset = 0
        for p in written:
            a = by_name[p.name]
            n = a.count * a.width
            if a.is_int:
                w(f'    ok &= check_int("{p.name}", h_{p.name}.data(), reinterpret_cast<const int*>(expected.data() + {offset}), {n}, stats);')
            else:
                w(f'    ok &= check_float("{p.name}", h_{p.name}.data(), reinterpret_cast<const float*>(expected.data() + {offset}), {n},')
                w(f"                      {_fmt_float(tolerance.atol * a.bound)}, {_fmt_float(tolerance.rtol)}, stats);")
            offset += 4 * n
        w(f'    printf("%s {name}: %zu mismatches, max_abs_err=%.3g max_rel_err=%.3g tolerance_used=%.3g\\n",')
        w('           ok ? "PASS" : "FAIL", stats.mismatches, stats.max_abs, stats.max_rel, stats.tolerance_used);')
    else:
        w("    // No reference values for this kernel: report a checksum of what it wrote instead.")
        w("    double checksum = 0.0;")
        for p in written:
            w(f"    for (size_t i = 0; i < h_{p.name}.size(); ++i)")
            w(f"        checksum += (double)h_{p.name}[i];")
        w(f'    printf("RAN {name} (no reference values to compare): checksum=%.9g\\n", checksum);')
    w("")
    w("    // Timing: warm-up launches, then one CUDA-event measurement per launch")
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
    for p in kernel.params:
        if p.kind == "array":
            w(f"    CUDA_CHECK(cudaFree(d_{p.name}));")
    w("    return ok ? 0 : 1;")
    w("}")
    return "\n".join(lines) + "\n"


def render_makefile(name: str) -> str:
    return f"""# {name}: standalone CUDA sample translated from a Warp kernel.
#   make            build
#   make ptx        write PTX (works without a GPU)
#   make run        build and run (prints PASS/FAIL and a JSON timing line)
#   make check      build, run, and fail unless the results match Warp's
#   make clean
# ARCH defaults to {DEFAULT_ARCH}, the oldest architecture CUDA 13 still supports (CUDA 12 too);
# set it for your GPU, e.g. `make ARCH=sm_90` on an H100.
NVCC      ?= nvcc
ARCH      ?= {DEFAULT_ARCH}
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

clean:
\trm -f $(TARGET) $(TARGET).ptx

.PHONY: all ptx run check clean
"""
