"""Device helpers for Warp's random numbers (warp/native/rand.h) and Perlin noise (noise.h), and for
the float64 and float16 types: the snippets `cuda_types.snippet` hands out for these names.

Each function mirrors Warp's native one statement for statement (same PCG hash, same integer
arithmetic, same float conversions), so the integer results (rand_init, randi, randu, the state)
are equal to Warp's bit for bit and the float results round the same way. Where Warp's C++ leaves
the order of two calls that advance the state unspecified (randn's two randf calls in one
expression), the helper fixes it left to right, as Warp's compilers evaluate it.
"""
from __future__ import annotations

_FN = "__device__ __forceinline__ "

# rand.h, one helper per function and overload: a kernel's .cu defines only those it calls.
# name -> (source, helpers it calls)
RAND: dict[str, tuple[str, tuple[str, ...]]] = {
    "rand_pcg": (_FN + r"""uint32_t rand_pcg(uint32_t state)
{
    // PCG hash (Jarzynski and Olano, JCGT 2020), as warp/native/rand.h
    uint32_t b = state * 747796405u + 2891336453u;
    uint32_t c = ((b >> ((b >> 28u) + 4u)) ^ b) * 277803737u;
    return (c >> 22u) ^ c;
}""", ()),
    "rand_init:1": (_FN + r"""uint32_t rand_init(int seed)
{
    return rand_pcg((uint32_t)seed);
}""", ("rand_pcg",)),
    "rand_init:2": (_FN + r"""uint32_t rand_init(int seed, int offset)
{
    return rand_pcg((uint32_t)seed + rand_pcg((uint32_t)offset));
}""", ("rand_pcg",)),
    "randi:1": (_FN + r"""int randi(uint32_t& state)
{
    state = rand_pcg(state);
    return (int)state;
}""", ("rand_pcg",)),
    "randi:3": (_FN + r"""int randi(uint32_t& state, int min, int max)
{
    state = rand_pcg(state);
    return state % (max - min) + min;  // unsigned arithmetic, as Warp's
}""", ("rand_pcg",)),
    "randu:1": (_FN + r"""uint32_t randu(uint32_t& state)
{
    state = rand_pcg(state);
    return state;
}""", ("rand_pcg",)),
    "randu:3": (_FN + r"""uint32_t randu(uint32_t& state, uint32_t min, uint32_t max)
{
    state = rand_pcg(state);
    return state % (max - min) + min;
}""", ("rand_pcg",)),
    "randf:1": (_FN + r"""float randf(uint32_t& state)
{
    // the top 24 bits: uniform on [0, 1 - 2^-24] in steps of 2^-24
    state = rand_pcg(state);
    return (state >> 8) * (1.0f / 16777216.0f);
}""", ("rand_pcg",)),
    "randf:3": (_FN + r"""float randf(uint32_t& state, float min, float max)
{
    return (max - min) * randf(state) + min;
}""", ("randf:1",)),
    "randn": (_FN + r"""float randn(uint32_t& state)
{
    // Box-Muller; the two uniforms are drawn left to right
    float u1 = randf(state);
    float u2 = randf(state);
    return sqrtf(-2.f * logf(u1 + 5.96e-8f)) * cosf(2.f * 3.14159265358979323846f * u2);
}""", ("randf:1",)),
}

# noise.h: gradients from a hash of the lattice point, blended with smootherstep
NOISE_COMMON = _FN + r"""float noise_interpolate(float a0, float a1, float t)
{
    float s = t * t * t * (t * (t * 6.f - 15.f) + 10.f);  // smootherstep
    return (a1 - a0) * s + a0;
}"""

_PRIMES = ("73856093", "19349663", "53471161", "10000019")
_AXES = "xyzt"


def _gradient(n: int) -> str:
    """random_gradient_{n}d and dot_grid_gradient_{n}d of noise.h."""
    ints = ", ".join(f"int i{a}" for a in _AXES[:n])
    consts = "".join(f"    const uint32_t p{k + 1} = {_PRIMES[k]};\n" for k in range(n))
    # C precedence as in Warp's source: `ix * p1 ^ iy * p2 + state` is (ix*p1) ^ ((iy*p2) + state)
    terms = [f"i{a} * p{k + 1}" for k, a in enumerate(_AXES[:n])]
    terms[-1] += " + state"
    hashed = f"{consts}    uint32_t idx = {' ^ '.join(terms)};\n"
    if n == 1:
        gradient = _FN + f"float random_gradient_1d(uint32_t state, {ints})\n{{\n{hashed}    return randf(idx, -1.f, 1.f);\n}}"
        dot = (_FN + "float dot_grid_gradient_1d(uint32_t state, int ix, float dx)\n{\n"
               "    float gradient = random_gradient_1d(state, ix);\n    return dx * gradient;\n}")
        return gradient + "\n\n" + dot
    v = f"float{n}"
    draws = "".join(f"    float c{k} = randf(idx) - 0.5f;\n" for k in range(n))
    gradient = (_FN + f"{v} random_gradient_{n}d(uint32_t state, {ints})\n{{\n{hashed}{draws}"
                f"    return normalize(make_{v}({', '.join(f'c{k}' for k in range(n))}));\n}}")
    comps = "xyzw"
    deltas = ", ".join(f"float d{a}" for a in _AXES[:n])
    body = " + ".join(f"d{a} * gradient.{comps[k]}" for k, a in enumerate(_AXES[:n]))
    dot = (_FN + f"float dot_grid_gradient_{n}d(uint32_t state, {ints}, {deltas})\n{{\n"
           f"    {v} gradient = random_gradient_{n}d(state, {', '.join(f'i{a}' for a in _AXES[:n])});\n"
           f"    return ({body});\n}}")
    return gradient + "\n\n" + dot


def _noise(n: int, periodic: bool = False) -> str:
    """noise(state, x) for a float (n = 1) or a float{n}: noise.h's noise and noise_{n}d, inlined;
    with `periodic`, pnoise(state, x, px[, py...]): the lattice wraps with C's `%`, as Warp's mod(int).

    Corners are blended along x first, then y, z and t, as noise_{n}d does."""
    lines = []
    for k, a in enumerate(_AXES[:n]):
        comp = "p" if n == 1 else f"p.{'xyzw'[k]}"
        lines.append(f"    float d{a} = {comp} - floorf({comp});")
        if periodic:
            lines.append(f"    int {a}0 = ((int)floorf({comp})) % p{a};")
            lines.append(f"    int {a}1 = ({a}0 + 1) % p{a};")
        else:
            lines.append(f"    int {a}0 = (int)floorf({comp});")
            lines.append(f"    int {a}1 = {a}0 + 1;")

    def corner(bits: tuple[int, ...]) -> str:
        idx = ", ".join(f"{a}{b}" for a, b in zip(_AXES, bits))
        deltas = ", ".join(f"d{a} - 1.f" if b else f"d{a}" for a, b in zip(_AXES, bits))
        return f"dot_grid_gradient_{n}d(state, {idx}, {deltas})"

    def nested(axis: int, high: tuple[int, ...]) -> str:
        """The value blended over axes 0..axis, the bits of the axes above fixed to `high` (x first)."""
        if axis == 0:
            return f"noise_interpolate({corner((0,) + high)}, {corner((1,) + high)}, dx)"
        return f"noise_interpolate({nested(axis - 1, (0,) + high)}, {nested(axis - 1, (1,) + high)}, d{_AXES[axis]})"

    arg = "float p" if n == 1 else f"float{n} p"
    if periodic:
        arg += "".join(f", int p{a}" for a in _AXES[:n])
    return (_FN + f"float {'pnoise' if periodic else 'noise'}(uint32_t state, {arg})\n{{\n" + "\n".join(lines) +
            f"\n    return {nested(n - 1, ())};\n}}")


ATOMIC_DOUBLE = {
    kind: _FN + f"double atomic{kind.capitalize()}Double(double* address, double val)\n{{\n"
    "    // no native double atomic min/max: compare-and-swap until no other thread intervened,\n"
    "    // leaving at once when the stored value already wins (it only moves one way)\n"
    "    unsigned long long* address_as_ull = reinterpret_cast<unsigned long long*>(address);\n"
    "    unsigned long long old = *address_as_ull;\n    unsigned long long assumed;\n    do {\n"
    "        assumed = old;\n"
    f"        const double result = {'fmin' if kind == 'min' else 'fmax'}(val, __longlong_as_double((long long)assumed));\n"
    "        if ((unsigned long long)__double_as_longlong(result) == assumed)\n            break;\n"
    "        old = atomicCAS(address_as_ull, assumed, (unsigned long long)__double_as_longlong(result));\n"
    "    } while (assumed != old);\n    return __longlong_as_double((long long)old);\n}"
    for kind in ("min", "max")
}


def snippet(name: str) -> tuple[str, tuple[str, ...]] | None:
    """Source and dependencies of helper `name`, or None when it is not one of these."""
    kind, _, arg = name.partition(":")
    if name in RAND:
        return RAND[name]
    if kind == "noise_common":
        return NOISE_COMMON, ()
    if kind == "noise_gradient":
        n = int(arg)
        deps = ("randf:3",) if n == 1 else ("randf:1", f"normalize:{n}")
        return _gradient(n), deps
    if kind in ("noise", "pnoise"):
        return _noise(int(arg), kind == "pnoise"), ("noise_common", f"noise_gradient:{arg}")
    if kind == "matd":
        n = int(arg)
        return f"struct mat{n}{n}d\n{{\n    double m[{n}][{n}];  // row-major, like Warp's mat{n}{n}d\n}};", ()
    if kind == "half":
        return "#include <cuda_fp16.h>", ()
    if kind == "bf16":
        return "#include <cuda_bf16.h>", ()
    if kind in ("atomic_min_d", "atomic_max_d"):
        return ATOMIC_DOUBLE[kind.split("_")[1]], ()
    return None
