"""Bits: the unsigned-integer code GPU kernels are full of, one table entry per form (BIT_FORMS), as
the builtins are registered: integer hashes of an index or an id (PCG, Wang, MurmurHash3's finaliser;
not xorshift, a generator's step that leaves consecutive keys' outputs in a line) and what they are used for (the hash itself, a uniform number, a dropout mask, stratified
jitter, buckets counted, a colour per id), spatial hashing of a point's grid cell (Teschner et al.'s
primes, or the cell's coordinates packed into one key), Morton codes (a point in a box, 10 bits per
axis, for a BVH's sort; a pixel's Z-order; a code decoded back), RGBA8 colours packed into and
unpacked from a uint32, a radix sort's digit histogram, and occupancy bitsets (`wp.atomic_or`, a bit
tested). Warp's integer rules are kept: `wp.uint32(...)` around every literal an unsigned value meets
(Warp does not mix int32 and uint32), wrapping multiplication, C's shifts.

The arithmetic category draws these kernels (BITS_SHARE of it, a fifth), from a stream of its own."""
from __future__ import annotations

import random
from typing import Callable, NamedTuple

from synthesis.categories.common import early_return, pick_dim, takes_variant
from synthesis.categories.rich import RichKernelWriter
from synthesis.exprgen import Expr, KernelWriter
from synthesis.spec import KernelSpec

BITS_SHARE = 0.2  # of arithmetic kernels
U32 = 2.0 ** 32  # the bound of a uint32 value


def u32(value: int | str, spelling: str = "") -> str:
    """`wp.uint32(<literal>)`: Warp types a bare literal int32, which an unsigned operand refuses."""
    return f"wp.uint32({spelling or value})"


class BitHelper(NamedTuple):
    """A `@wp.func` on uint32 values: its parameters, its body, and the name people know it by."""

    params: tuple[str, ...]
    body: tuple[str, ...]
    known_as: str


# Hashes: each the published function, constants spelled as their authors wrote them.
HASHES: dict[str, BitHelper] = {
    "pcg_hash": BitHelper(("x",), (  # Jarzynski and Olano, "Hash Functions for GPU Rendering" (2020)
        f"state = x * {u32(747796405)} + {u32(2891336453)}",
        f"word = ((state >> ((state >> {u32(28)}) + {u32(4)})) ^ state) * {u32(277803737)}",
        f"return (word >> {u32(22)}) ^ word"), "PCG"),
    "wang_hash": BitHelper(("seed",), (
        f"h = (seed ^ {u32(61)}) ^ (seed >> {u32(16)})",
        f"h = h * {u32(9)}",
        f"h = h ^ (h >> {u32(4)})",
        f"h = h * {u32(0, '0x27D4EB2D')}",
        f"return h ^ (h >> {u32(15)})"), "Wang"),
    "fmix32": BitHelper(("key",), (  # MurmurHash3's finaliser
        f"h = key ^ (key >> {u32(16)})",
        f"h = h * {u32(0, '0x85EBCA6B')}",
        f"h = h ^ (h >> {u32(13)})",
        f"h = h * {u32(0, '0xC2B2AE35')}",
        f"return h ^ (h >> {u32(16)})"), "MurmurHash3 finaliser"),
}
# Spreading 10 bits three apart (a 30-bit 3-D Morton code), as a multiply-and-mask (Karras 2012) or
# as shifts; spreading 16 bits two apart (a 2-D code), and gathering them back.
SPREADS: dict[str, BitHelper] = {
    "expand_bits": BitHelper(("x",), (
        f"v = (x * {u32(0, '0x00010001')}) & {u32(0, '0xFF0000FF')}",
        f"v = (v * {u32(0, '0x00000101')}) & {u32(0, '0x0F00F00F')}",
        f"v = (v * {u32(0, '0x00000011')}) & {u32(0, '0xC30C30C3')}",
        f"v = (v * {u32(0, '0x00000005')}) & {u32(0, '0x49249249')}",
        "return v"), "multiply and mask"),
    "part1by2": BitHelper(("x",), (
        f"v = x & {u32(0, '0x000003FF')}",
        f"v = (v ^ (v << {u32(16)})) & {u32(0, '0xFF0000FF')}",
        f"v = (v ^ (v << {u32(8)})) & {u32(0, '0x0300F00F')}",
        f"v = (v ^ (v << {u32(4)})) & {u32(0, '0x030C30C3')}",
        f"v = (v ^ (v << {u32(2)})) & {u32(0, '0x09249249')}",
        "return v"), "shifts and masks"),
    "part1by1": BitHelper(("x",), (
        f"v = x & {u32(0, '0x0000FFFF')}",
        f"v = (v ^ (v << {u32(8)})) & {u32(0, '0x00FF00FF')}",
        f"v = (v ^ (v << {u32(4)})) & {u32(0, '0x0F0F0F0F')}",
        f"v = (v ^ (v << {u32(2)})) & {u32(0, '0x33333333')}",
        f"v = (v ^ (v << {u32(1)})) & {u32(0, '0x55555555')}",
        "return v"), "shifts and masks"),
    "compact1by1": BitHelper(("x",), (
        f"v = x & {u32(0, '0x55555555')}",
        f"v = (v ^ (v >> {u32(1)})) & {u32(0, '0x33333333')}",
        f"v = (v ^ (v >> {u32(2)})) & {u32(0, '0x0F0F0F0F')}",
        f"v = (v ^ (v >> {u32(4)})) & {u32(0, '0x00FF00FF')}",
        f"v = (v ^ (v >> {u32(8)})) & {u32(0, '0x0000FFFF')}",
        "return v"), "shifts and masks"),
}


def bit_helper(w: KernelWriter, name: str) -> str:
    """The helper `name` (HASHES or SPREADS) written once into the kernel's module, typed uint32 -> uint32
    (with the kernel's suffix while the kernel is drawn: `naming.plain_module_names` drops it)."""
    spec = HASHES.get(name) or SPREADS[name]
    local = f"{name}_{w.name.split('_')[-1]}"
    if local not in w.helper_names:
        params = ", ".join(f"{p}: wp.uint32" for p in spec.params)
        w.add_helper(f"@wp.func\ndef {local}({params}) -> wp.uint32:\n" + "\n".join(f"    {line}" for line in spec.body),
                     local)
    return local


def _read(w: KernelWriter, name: str) -> None:
    """`name` is read other than through `w.load` (an element indexed by the form itself): not a leaf left unused."""
    if name in w.unused:
        w.unused.remove(name)


def _u(src: str, mag: float = U32) -> Expr:
    return Expr(src, "uint32", mag, 0)


def _own_uint_output(w: KernelWriter, hints: tuple[str, ...]) -> str:
    return w.add_array(w.rng.choice(hints), "uint32", "output")


# ---- hashes and what they are used for -------------------------------------------------------------
def breadth(w: KernelWriter) -> random.Random:
    """Session 47's further forms of the pixel kernels (a frame in a pixel's hash, sub-pixel samples, a
    pixel's index beside its Morton code): a stream of their own per kernel, so the kernels whose draws there
    keep the earlier form draw exactly what they drew."""
    return random.Random(w.seed ^ 0x5E47B)  # (not 0xB175: chooses_bits draws from that one)


def _hash_key(w: KernelWriter, image: str, frame_form: str = "") -> tuple[str, str]:
    """What is hashed, as kernels hash it: the thread's index with a seed (a frame, a step), an id read
    from an array, or (2-D) a pixel's linear index in `image`, the output, alone, or with the frame
    (`frame_form`): noise that changes every frame, as a renderer's per-pixel random numbers do, the
    pixel's index in the frame's run of pixels, or the pixel's hash combined with the frame's.
    (key expression, feature)"""
    rng, t = w.rng, w.tid_names
    if len(t) == 2:
        pixel = f"{t[0]} * {image}.shape[1] + {t[1]}"
        if frame_form == "offset":
            frame = w.add_scalar(rng.choice(["frame", "frame_index", "sample_index"]), "int32", rng.choice([3, 17, 240]))
            return (f"wp.uint32({frame.src} * {image}.shape[0] * {image}.shape[1] + {pixel})",
                    "a pixel's index in a run of frames")
        if frame_form == "combined":
            frame = w.add_scalar(rng.choice(["frame", "frame_index", "sample_index"]), "int32", rng.choice([3, 17, 240]))
            return f"wp.uint32({pixel}) ^ {{fn}}(wp.uint32({frame.src}))", "a pixel's linear index and the frame's hash"
        return f"wp.uint32({pixel})", "a pixel's linear index"
    how = rng.random()
    if how < 0.35:
        ids = w.add_array(rng.choice(["ids", "particle_ids", "entity_ids"]), "uint32", "input", low=0, high=2 ** 20,
                          grid_bits=0)
        _read(w, ids)
        return f"{ids}[{t[0]}]", "an id from an array"
    seed = w.add_scalar(rng.choice(["seed", "frame", "step"]), "int32", rng.choice([7, 42, 1234, 2024]))
    if how < 0.7:  # the seed spread by the golden ratio, so consecutive seeds give unrelated streams
        return (f"wp.uint32({t[0]}) + wp.uint32({seed.src}) * {u32(0, '0x9E3779B9')}",
                "the thread index and a seed")
    return f"wp.uint32({t[0]}) ^ wp.uint32({seed.src})", "the thread index and a seed"


def _uniform(h: str) -> Expr:
    """A float in [0, 1) from the top 24 bits (exact in float32)."""
    return Expr(f"float({h} >> {u32(8)}) / 16777216.0", "float32", 1.0, 24)


def hashed_values(w: KernelWriter) -> None:
    """An integer hash of a key, used as kernels use one."""
    rng = w.rng
    kind = rng.choice(list(HASHES))
    use = rng.choice(["hash", "uniform", "uniform", "point", "dropout", "jitter", "buckets", "colour"]
                     if len(w.dim) == 1 else ["hash", "uniform", "colour"])
    frame_form = ""
    if len(w.dim) == 2:  # session 47: sub-pixel samples, and the frame in the key
        more = breadth(w)
        if more.random() < 0.25:
            use = "subpixel"
        frame_form = more.choices(["", "offset", "combined"], weights=[0.5, 0.25, 0.25])[0]
    # the array a use stores the thread's value in (a 2-D key reads its width)
    make_output = {"hash": lambda: _own_uint_output(w, ("hashes", "keys", "hash_out")),
                   "uniform": lambda: w.add_array(rng.choice(["noise", "rand_u", "samples"]), "float32", "output"),
                   "colour": lambda: w.add_array(rng.choice(["colors", "id_color", "rgb"]), "vec3", "output"),
                   "point": lambda: w.add_array(rng.choice(["sample_points", "uv", "points2d"]), "vec2", "output"),
                   "subpixel": lambda: w.add_array(rng.choice(["uv", "pixel_uv", "ray_uv"]), "vec2", "output")}
    out = make_output[use]() if use in make_output else ""  # the other uses make their arrays below
    key, key_feature = _hash_key(w, out, frame_form)
    fn = bit_helper(w, kind)
    key = key.replace("{fn}", fn)
    w.feature(f"integer hash ({HASHES[kind].known_as}) of {key_feature}")
    h = w.fresh("h")
    w.emit(f"{h} = {fn}({key})")
    own = w.own_index()
    if use == "hash":
        w.store(out, _u(h))
        if rng.random() < 0.4:  # and the bucket it falls in, as a hash table does
            table = w.add_scalar(rng.choice(["table_size", "n_buckets", "capacity"]), "int32",
                                 rng.choice([1000, 4096, 65536]))
            slot = w.add_array(rng.choice(["slots", "bucket_ids"]), "int32", "output")
            w.emit(f"{slot}[{own}] = int({h} % wp.uint32({table.src}))")
            w.feature("bucket by remainder")
        return
    if use == "uniform":
        u = w.assign(_uniform(h), "u")
        if rng.random() < 0.5:  # in a range people pass: [lo, hi)
            lo = w.add_scalar(rng.choice(["lo", "low", "min_value"]), "float32", rng.choice([-1.0, 0.0, 0.5]))
            hi = w.add_scalar(rng.choice(["hi", "high", "max_value"]), "float32", rng.choice([1.0, 2.0, 4.0]))
            value = Expr(f"{lo.src} + ({hi.src} - {lo.src}) * {u.src}", "float32", 4.0, None)
            w.feature("uniform random number in a range")
        else:
            value = u
            w.feature("uniform random number in [0, 1)")
        w.store(out, value)
        return
    if use == "subpixel":  # a jittered sample inside the pixel, in [0, 1)^2 over the image (a ray's uv)
        h2 = w.fresh("h")
        w.emit(f"{h2} = {fn}({h})")
        u, v = w.assign(_uniform(h), "u"), w.assign(_uniform(h2), "v")
        i, j = w.tid_names
        w.store(out, Expr(f"wp.vec2((float({j}) + {u.src}) / float({out}.shape[1]), "
                          f"(float({i}) + {v.src}) / float({out}.shape[0]))", "vec2", 1.0, None))
        w.feature("a jittered sample inside each pixel (uv over the image)")
        return
    if use == "point":  # a 2-D sample: the hash hashed again gives the stream's next number
        h2 = w.fresh("h")
        w.emit(f"{h2} = {fn}({h})")
        u, v = w.assign(_uniform(h), "u"), w.assign(_uniform(h2), "v")
        w.store(out, Expr(f"wp.vec2({u.src}, {v.src})", "vec2", 1.0, None))
        w.feature("a 2-D sample point (two numbers)")
        return
    if use == "dropout":  # inverted dropout: kept values scaled by 1 / (1 - p)
        x = w.add_array(rng.choice(["x", "activations", "inp"]), "float32", "input")
        p = w.add_scalar(rng.choice(["drop_prob", "p", "rate"]), "float32", rng.choice([0.1, 0.2, 0.25, 0.5]))
        y = w.add_array(rng.choice(["y", "dropped", "out"]), "float32", "output")
        u = w.assign(_uniform(h), "u")
        xv = w.load(x)
        if rng.random() < 0.5:
            w.emit(f"{y}[{own}] = wp.where({u.src} < {p.src}, 0.0, {xv.src} / (1.0 - {p.src}))")
        else:
            with w.block(f"if {u.src} < {p.src}:"):
                w.emit(f"{y}[{own}] = 0.0")
            with w.block("else:"):
                w.emit(f"{y}[{own}] = {xv.src} / (1.0 - {p.src})")
        if rng.random() < 0.4:  # the mask kept for the backward pass
            mask = w.add_array(rng.choice(["keep_mask", "mask"]), "int32", "output")
            w.emit(f"{mask}[{own}] = wp.where({u.src} < {p.src}, 0, 1)")
        w.note_bound(y, 2.0 / (1.0 - 0.5))
        w.feature("dropout mask from a hash")
        return
    if use == "jitter":  # stratified sampling: one random point in each cell of a 1-D grid
        spacing = w.add_scalar(rng.choice(["spacing", "cell_size", "dx"]), "float32", rng.choice([0.25, 0.5, 0.125]))
        u = w.assign(_uniform(h), "u")
        value = Expr(f"(float({w.tid_names[0]}) + {u.src}) * {spacing.src}", "float32", w.dim[0] * 0.5, None)
        w.store(w.add_array(rng.choice(["positions", "sample_x", "jittered"]), "float32", "output"), value)
        w.feature("stratified jitter")
        return
    if use == "buckets":  # a hash table's load: entries per bucket
        counts = w.add_array(rng.choice(["bucket_counts", "occupancy", "load"]), "int32", "output",
                             shape=(rng.choice([16, 64, 256]),))
        b = w.fresh("b")
        if rng.random() < 0.5:
            w.emit(f"{b} = int({h} % wp.uint32({counts}.shape[0]))")
        else:  # a power-of-two table: the low bits
            w.emit(f"{b} = int({h} & wp.uint32({counts}.shape[0] - 1))")
        w.emit(f"wp.atomic_add({counts}, {b}, 1)")
        w.feature("hashed into buckets (atomic count)")
        return
    # a colour per id (instance or cluster colouring): three bytes of the hash
    parts = [f"float({h} & {u32(255)})", f"float(({h} >> {u32(8)}) & {u32(255)})",
             f"float(({h} >> {u32(16)}) & {u32(255)})"]
    w.store(out, Expr(f"wp.vec3({', '.join(parts)}) / 255.0", "vec3", 1.0, None))
    w.feature("colour per id from a hash")


# ---- spatial hashing -------------------------------------------------------------------------------
PRIMES = (73856093, 19349663, 83492791)  # Teschner et al., "Optimized Spatial Hashing" (2003)


def spatial_hash(w: KernelWriter) -> None:
    """A point's grid cell, hashed into a table (Teschner's primes) or packed into one key."""
    rng = w.rng
    dims = rng.choice([2, 3, 3])
    vec = f"vec{dims}"
    points = w.add_array(rng.choice(["points", "positions", "x"]), vec, "input", low=-8.0, high=8.0, grid_bits=6)
    _read(w, points)
    inv = rng.random() < 0.5
    size = w.add_scalar(rng.choice(["inv_cell", "inv_cell_size"] if inv else ["cell_size", "h"]), "float32",
                        rng.choice([2.0, 4.0]) if inv else rng.choice([0.25, 0.5, 1.0]))
    own = w.own_index()
    p = w.fresh("p")
    if rng.random() < 0.4:  # relative to the grid's lower corner
        lower = w.add_value(rng.choice(["grid_origin", "lower", "domain_min"]), vec, (-8.0,) * dims)
        w.emit(f"{p} = {points}[{own}] - {lower.src}")
        w.feature("cells from the grid's lower corner")
    else:
        w.emit(f"{p} = {points}[{own}]")
    cells = [w.fresh(f"c{'xyz'[k]}") for k in range(dims)]
    for k, c in enumerate(cells):
        scaled = f"{p}[{k}] * {size.src}" if inv else f"{p}[{k}] / {size.src}"
        w.emit(f"{c} = int(wp.floor({scaled}))")
    if rng.random() < 0.7:
        h = w.fresh("h")
        terms = [f"(wp.uint32({c}) * {u32(PRIMES[k])})" for k, c in enumerate(cells)]
        w.emit(f"{h} = {' ^ '.join(terms)}")
        if rng.random() < 0.5:  # the table's size from the array it indexes
            counts = w.add_array(rng.choice(["cell_counts", "bucket_counts"]), "int32", "output",
                                 shape=(rng.choice([512, 1024, 4093]),))
            slot = w.fresh("slot")
            w.emit(f"{slot} = int({h} % wp.uint32({counts}.shape[0]))")
            w.emit(f"wp.atomic_add({counts}, {slot}, 1)")
            if rng.random() < 0.5:
                w.emit(f"{w.add_array(rng.choice(['cell_ids', 'slots']), 'int32', 'output')}[{own}] = {slot}")
            w.feature("points counted per hashed cell")
        else:
            table = w.add_scalar(rng.choice(["table_size", "num_buckets"]), "int32", rng.choice([1021, 4096, 65536]))
            w.emit(f"{w.add_array(rng.choice(['cell_ids', 'hash_ids']), 'int32', 'output')}[{own}] = "
                   f"int({h} % wp.uint32({table.src}))")
        w.feature("spatial hash of a grid cell (Teschner's primes)")
        return
    # the cell's coordinates, offset to be non-negative and packed 10 bits each into one sort key
    bias = w.add_scalar(rng.choice(["cell_offset", "bias"]), "int32", 512)
    key = w.fresh("key")
    fields = [f"(wp.uint32({c} + {bias.src}) & {u32(0, '0x3FF')})" for c in cells]
    shifted = [f"({f} << {u32(10 * (dims - 1 - k))})" if k < dims - 1 else f for k, f in enumerate(fields)]
    w.emit(f"{key} = {' | '.join(shifted)}")
    w.store(_own_uint_output(w, ("cell_keys", "keys", "sort_keys")), _u(key, 2.0 ** 30))
    w.feature("grid cell packed into a sort key")


# ---- Morton codes -----------------------------------------------------------------------------------
def morton_codes(w: RichKernelWriter) -> None:
    """Morton (Z-order) codes: a point in a box quantised to 10 bits per axis and interleaved (the keys a
    linear BVH sorts), a 2-D launch's pixels in Z-order, or a 2-D code decoded back to its cell."""
    rng = w.rng
    own = w.own_index()
    if len(w.dim) == 2:
        fn = bit_helper(w, "part1by1")
        i, j = w.tid_names
        if rng.random() < 0.5:  # the pixels of a tile of a larger image: its origin added
            x0 = w.add_scalar(rng.choice(["x0", "tile_x", "origin_x"]), "int32", rng.choice([0, 64, 256]))
            y0 = w.add_scalar(rng.choice(["y0", "tile_y", "origin_y"]), "int32", rng.choice([0, 128, 512]))
            j, i = f"{j} + {x0.src}", f"{i} + {y0.src}"
            w.feature("tile origin")
        # session 47: the pixel's linear index stored beside its code (the payload a sort by code
        # carries). (Not a swizzle of texels into Z-order: its array would have to grow as the square
        # of a bench-size launch's longer side.)
        payload = breadth(w).random() < 0.35
        code = w.fresh("code")
        if j == w.tid_names[1] and takes_variant(w.seed, 0x711E, 0.3):
            # block-linear, as GPUs lay out textures: 8 x 8 tiles in row-major order, Z-order inside each
            tiles = w.add_scalar(rng.choice(["tiles_per_row", "tiles_x", "tile_cols"]), "int32", (w.dim[1] + 7) // 8)
            tile, local = w.fresh("tile"), w.fresh("local")
            w.emit(f"{tile} = wp.uint32(({i} >> 3) * {tiles.src} + ({j} >> 3))")
            w.emit(f"{local} = {fn}(wp.uint32({j} & 7)) | ({fn}(wp.uint32({i} & 7)) << {u32(1)})")
            w.emit(f"{code} = ({tile} << {u32(6)}) | {local}")
            w.feature("block-linear order (8 x 8 tiles, Z-order within each)")
        else:
            w.emit(f"{code} = {fn}(wp.uint32({j})) | ({fn}(wp.uint32({i})) << {u32(1)})")
        if takes_variant(w.seed, 0xB1D, 0.3):
            # pixels outside a mask get the largest key, so a sort by code puts them last (and drops them)
            valid = w.add_array(rng.choice(["valid", "mask", "coverage"]), "int32", "input", low=0, high=1, grid_bits=0)
            w.unused.remove(valid)
            w.emit(f"if {valid}[{own}] == 0:")
            w.emit(f"    {code} = wp.uint32(0xFFFFFFFF)")
            w.feature("masked pixels keyed last (0xFFFFFFFF)")
        w.store(_own_uint_output(w, ("z_order", "morton", "codes")), _u(code, 2.0 ** 32))
        if payload:
            order = w.add_array(rng.choice(["pixel_ids", "order", "values"]), "int32", "output")
            w.store(order, Expr(f"{w.tid_names[0]} * {order}.shape[1] + {w.tid_names[1]}", "int32",
                                float(w.dim[0] * w.dim[1]), 0))
            w.feature("the pixel's linear index beside its code (a sort's payload)")
        w.feature("Morton code of a pixel (Z-order)")
        return
    if rng.random() < 0.25:  # decode: the cell a 2-D code stands for
        codes = w.add_array(rng.choice(["codes", "morton", "keys"]), "uint32", "input", low=0, high=2 ** 20 - 1,
                            grid_bits=0)
        _read(w, codes)
        fn = bit_helper(w, "compact1by1")
        c = w.fresh("code")
        w.emit(f"{c} = {codes}[{own}]")
        cx, cy = w.fresh("ix"), w.fresh("iy")
        w.emit(f"{cx} = int({fn}({c}))")
        w.emit(f"{cy} = int({fn}({c} >> {u32(1)}))")
        if rng.random() < 0.5:
            cell = w.add_scalar(rng.choice(["cell_size", "dx"]), "float32", rng.choice([0.25, 0.5]))
            centres = w.add_array(rng.choice(["centres", "cell_pos"]), "vec2", "output")
            w.store(centres, Expr(f"wp.vec2(float({cx}) + 0.5, float({cy}) + 0.5) * {cell.src}", "vec2", 600.0, None))
        else:
            w.store(w.add_array(rng.choice(["cell_x", "col"]), "int32", "output"), Expr(cx, "int32", 1024.0, 0))
            w.store(w.add_array(rng.choice(["cell_y", "row"]), "int32", "output"), Expr(cy, "int32", 1024.0, 0))
        w.feature("Morton code decoded")
        return
    fn = bit_helper(w, rng.choice(["expand_bits", "part1by2"]))
    points = w.add_array(rng.choice(["points", "centroids", "positions"]), "vec3", "input", low=-4.0, high=4.0,
                         grid_bits=6)
    _read(w, points)
    lower = w.add_value(rng.choice(["lower", "box_min", "origin"]), "vec3", (-4.0, -4.0, -4.0))
    inv = w.add_scalar(rng.choice(["inv_extent", "inv_size", "scale"]), "float32", 0.125)
    q = w.fresh("q")
    w.emit(f"{q} = ({points}[{own}] - {lower.src}) * {inv.src}")  # in [0, 1] inside the box
    axes = []
    for k, name in enumerate(("x", "y", "z")):
        a = w.fresh(f"{name}i")
        w.emit(f"{a} = wp.uint32(wp.clamp({q}[{k}] * 1024.0, 0.0, 1023.0))")
        axes.append(a)
    code = w.fresh("code")
    w.emit(f"{code} = ({fn}({axes[0]}) << {u32(2)}) | ({fn}({axes[1]}) << {u32(1)}) | {fn}({axes[2]})")
    w.store(_own_uint_output(w, ("morton_codes", "codes", "keys")), _u(code, 2.0 ** 30))
    if rng.random() < 0.4:  # and the index sorted along with it
        w.store(w.add_array(rng.choice(["values", "order", "perm"]), "int32", "output"),
                Expr(w.tid_names[0], "int32", float(w.dim[0]), 0))
    w.feature(f"Morton code (30-bit, {SPREADS[fn.rsplit('_', 1)[0]].known_as})")


# ---- colours ------------------------------------------------------------------------------------------
def packed_colours(w: KernelWriter) -> None:
    """8-bit colours in a uint32: floats in [0, 1] rounded to bytes and packed (RGBA, red lowest, or
    BGRA, as a window system's surface holds them), or unpacked back to floats (a colour, with its
    alpha, or a luminance by Rec. 709 or Rec. 601 weights)."""
    rng = w.rng
    own = w.own_index()
    order = rng.choice(["rgba", "rgba", "bgra"])  # the channel in each byte, lowest first
    if rng.random() < 0.5:
        n = rng.choice([3, 4])
        colours = w.add_array(rng.choice(["colors", "rgba", "pixels"]), f"vec{n}", "input", low=-0.25, high=1.25,
                              grid_bits=8)
        _read(w, colours)
        c = w.fresh("c")
        w.emit(f"{c} = {colours}[{own}]")
        clamp = rng.choice(["wp.clamp({x}, 0.0, 1.0)", "wp.clamp({x}, 0.0, 1.0)", "wp.min(wp.max({x}, 0.0), 1.0)"])
        channels = {}
        for k, name in enumerate("rgba"[:n]):
            ch = w.fresh(name)
            w.emit(f"{ch} = wp.uint32({clamp.format(x=f'{c}[{k}]')} * 255.0 + 0.5)")
            channels[name] = ch
        if n == 3:  # opaque
            channels["a"] = u32(0, "0xFF")
        ordered = [channels[name] for name in order]
        packed = " | ".join([ordered[0]] + [f"({ch} << {u32(8 * k)})" for k, ch in enumerate(ordered) if k])
        w.store(_own_uint_output(w, ("packed", "rgba8", "image") if order == "rgba" else ("bgra8", "surface")),
                _u(packed))
        w.feature(f"colour packed to {order.upper()}8")
        return
    packed = w.add_array(rng.choice(["packed", "rgba8", "image"] if order == "rgba" else ["bgra8", "surface"]),
                         "uint32", "input", low=0, high=2 ** 31 - 1, grid_bits=0)
    _read(w, packed)
    p = w.fresh("p")
    w.emit(f"{p} = {packed}[{own}]")
    byte = {name: (f"float({p} & {u32(255)})" if k == 0 else f"float(({p} >> {u32(8 * k)}) & {u32(255)})")
            for k, name in enumerate(order)}
    rgb = w.fresh("rgb")
    w.emit(f"{rgb} = wp.vec3({byte['r']}, {byte['g']}, {byte['b']}) / 255.0")
    if rng.random() < 0.4:
        weights, standard = rng.choice([("0.2126, 0.7152, 0.0722", "Rec. 709"), ("0.299, 0.587, 0.114", "Rec. 601")])
        w.store(w.add_array(rng.choice(["luma", "gray", "luminance"]), "float32", "output"),
                Expr(f"wp.dot({rgb}, wp.vec3({weights}))", "float32", 1.0, None))
        w.feature(f"luminance ({standard}) of packed pixels")
    elif rng.random() < 0.5:  # with its alpha, as one vec4
        a = byte["a"].replace(f" & {u32(255)}", "") if order.index("a") == 3 else byte["a"]  # the top byte needs no mask
        w.store(w.add_array(rng.choice(["colors", "rgba_out"]), "vec4", "output"),
                Expr(f"wp.vec4({rgb}[0], {rgb}[1], {rgb}[2], {a} / 255.0)", "vec4", 1.0, None))
    else:
        w.store(w.add_array(rng.choice(["colors", "rgb_out"]), "vec3", "output"), Expr(rgb, "vec3", 1.0, None))
        if rng.random() < 0.5:
            alpha = w.add_array(rng.choice(["alpha", "opacity"]), "float32", "output")
            w.store(alpha, Expr(f"float({p} >> {u32(24)}) / 255.0", "float32", 1.0, None))
    w.feature(f"colour unpacked from {order.upper()}8")


# ---- a radix sort's pass --------------------------------------------------------------------------------
def radix_digits(w: KernelWriter) -> None:
    """One pass of an LSD radix sort: each key's digit at the pass's shift, counted into a histogram.
    Keys are uint32, or int32 with the sign bit flipped (so that negative keys sort first); the shift
    is a parameter or the pass's index times the digit's width; a descending sort counts the digit's
    complement; a launch padded to the block size returns past the last key."""
    rng = w.rng
    own = w.own_index()
    bits = rng.choice([4, 8])
    if len(w.dim) == 1 and rng.random() < 0.3:
        early_return(w)
    signed = rng.random() < 0.35
    sweep = random.Random(w.seed ^ 0x0E5E)
    one_sweep = sweep.random() < ONE_SWEEP_SHARE
    # keys known to fit fewer bits (a depth quantised to 24 bits, 16-bit material ids): a sort of them
    # makes only the passes their bits need (CUB's end_bit); a flipped sign bit needs all 32
    key_bits = sweep.choice(SHORT_KEY_BITS) if one_sweep and not signed and sweep.random() < SHORT_KEYS_SHARE else 32
    keys = w.add_array(rng.choice(["keys", "sort_keys", "codes"]), "int32" if signed else "uint32", "input",
                       low=-2 ** 30 if signed else 0, high=2 ** 30 if signed else min(2 ** key_bits, 2 ** 31) - 1,
                       grid_bits=0)
    _read(w, keys)
    key = f"(wp.uint32({keys}[{own}]) ^ {u32(0, '0x80000000')})" if signed else f"{keys}[{own}]"
    if one_sweep:
        _all_digits_at_once(w, sweep, key, 11 if sweep.random() < WIDE_DIGIT_SHARE else bits, key_bits)
        return
    if rng.random() < 0.5:
        shift = w.add_scalar(rng.choice(["shift", "pass_shift", "bit_offset"]), "int32", bits * rng.randint(0, 32 // bits - 1))
        shift_text = f"wp.uint32({shift.src})"
    else:
        index = w.add_scalar(rng.choice(["pass_index", "digit_pass", "pass_id"]), "int32", rng.randint(0, 32 // bits - 1))
        shift_text = f"wp.uint32({index.src} * {bits})"
    mask = u32(0, "0xF" if bits == 4 else "0xFF")
    # one bin per digit value at any launch: 256 bins beside a launch of 128 (or 16 beside 8) would grow
    # with it by the shape rule, and shrink below the digits at a smaller one
    histogram = w.add_array(rng.choice(["histogram", "digit_counts", "counts"]), "int32", "output",
                            shape=(2 ** bits,), keeps_size=True)
    d = w.fresh("digit")
    if rng.random() < 0.25:  # a descending sort: the largest digit first
        w.emit(f"{d} = int({mask} - (({key} >> {shift_text}) & {mask}))")
        w.feature("descending")
    else:
        w.emit(f"{d} = int(({key} >> {shift_text}) & {mask})")
    if rng.random() < 0.5:
        w.emit(f"wp.atomic_add({histogram}, {d}, 1)")
    else:
        w.emit(f"{histogram}[{d}] += 1")
    if rng.random() < 0.4:
        w.store(w.add_array(rng.choice(["digits", "bins"]), "int32", "output"), Expr(d, "int32", 2.0 ** bits, 0))
    w.feature(f"radix sort digit histogram ({bits}-bit digits{', signed keys' if signed else ''})")


# Session 57: of the radix kernels, those that count every pass's digit in one sweep over the keys (drawn
# from a stream of their own: the others keep every draw)
ONE_SWEEP_SHARE = 0.35
# Session 58, of those (the same stream): keys of fewer bits than 32 (their sort makes fewer passes),
# 11-bit digits (three passes cover 32-bit keys, 2048 bins a pass), passes given as a parameter or
# walked by their shift, and CUB's flat layout of the bins (pass p's at p * radix)
SHORT_KEYS_SHARE = 0.35
SHORT_KEY_BITS = (16, 24, 30)
WIDE_DIGIT_SHARE = 0.2
PASSES_PARAMETER_SHARE = 0.3
SHIFT_LOOP_SHARE = 0.3
FLAT_BINS_SHARE = 0.4


def _all_digits_at_once(w: KernelWriter, sweep: random.Random, key: str, bits: int, key_bits: int) -> None:
    """Onesweep's upsweep (Adinets and Merrill 2022): every pass's digit histogram counted in one read of
    the keys, a row per pass (or pass p's bins at p * radix in one flat array, as CUB lays them out),
    so the sort's passes need no further histogram launch. `sweep`: the variants' own random stream."""
    rng = w.rng
    passes = -(-key_bits // bits)
    radix = 2 ** bits
    mask = u32(0, {4: "0xF", 8: "0xFF", 11: "0x7FF"}[bits])
    flat = sweep.random() < FLAT_BINS_SHARE
    histograms = w.add_array(rng.choice(["histograms", "pass_counts", "digit_counts"]), "int32", "output",
                             shape=(passes * radix,) if flat else (passes, radix), keeps_size=True)
    u = w.fresh("key")  # read (and a signed key made unsigned) once, before every pass reads it
    w.emit(f"{u} = {key[1:-1] if key.startswith('(') else key}")
    key = u
    how = sweep.random()
    d = w.fresh("digit")
    if how < SHIFT_LOOP_SHARE:  # the loop walks the digit's shift; the pass is the shift over the width
        shift = w.fresh("shift")
        loop, digit, row = (f"for {shift} in range(0, {key_bits}, {bits}):",
                            f"int(({key} >> wp.uint32({shift})) & {mask})", f"({shift} // {bits})")
        w.feature("the loop walks the digit's shift")
    else:
        p = w.fresh("p")
        count = (w.add_scalar(sweep.choice(["num_passes", "passes", "pass_count"]), "int32", passes).src
                 if how < SHIFT_LOOP_SHARE + PASSES_PARAMETER_SHARE else str(passes))
        loop, digit, row = f"for {p} in range({count}):", f"int(({key} >> wp.uint32({p} * {bits})) & {mask})", p
    with w.block(loop):
        w.emit(f"{d} = {digit}")
        if flat:
            w.emit(rng.choice([f"wp.atomic_add({histograms}, {row} * {radix} + {d}, 1)",
                               f"{histograms}[{row} * {radix} + {d}] += 1"]))
        else:
            row = row.strip("()")
            w.emit(rng.choice([f"wp.atomic_add({histograms}, {row}, {d}, 1)", f"{histograms}[{row}, {d}] += 1"]))
    if "0x80000000" in key:
        w.feature("signed keys, the sign bit flipped")
    elif key_bits < 32:
        w.feature(f"{key_bits}-bit keys, {passes} passes")
    if flat:
        w.feature("bins of pass p at p * radix")
    w.feature(f"every pass's digit counted in one sweep ({bits}-bit digits)")


# ---- bitsets ------------------------------------------------------------------------------------------
def bitsets(w: KernelWriter) -> None:
    """Occupancy bitsets, 32 cells a word: a cell's bit set atomically, or tested."""
    rng = w.rng
    own = w.own_index()
    words = rng.choice([8, 32, 64])
    # the grid's cells fill the last word part way: an odd count, so never a multiple of a launch's
    # (even) size, which the bench would read as indices into arrays that grow with the launch
    n_cells = 32 * words - rng.choice([1, 5, 11])
    cells = w.add_array(rng.choice(["cells", "cell_ids", "voxel_ids"]), "int32", "index", index_high=n_cells - 1)
    _read(w, cells)
    c = w.fresh("c")
    w.emit(f"{c} = {cells}[{own}]")
    word, bit = (f"{c} >> 5", f"{c} & 31") if rng.random() < 0.5 else (f"{c} // 32", f"{c} % 32")
    if rng.random() < 0.6:
        how = rng.choice(["set", "set", "clear", "toggle"])
        occupied = w.add_array(rng.choice(["occupied", "bitset", "mask_words"] if how != "clear" else ["free", "alive"]),
                               "uint32", "output" if how == "set" else "inout", shape=(words,), low=0, high=2 ** 31 - 1,
                               grid_bits=0)
        b = w.fresh("bit")
        w.emit(f"{b} = {u32(1)} << wp.uint32({bit})")
        update = {"set": (f"wp.atomic_or({occupied}, {word}, {b})", f"{occupied}[{word}] |= {b}"),
                  "clear": (f"wp.atomic_and({occupied}, {word}, ~{b})", f"{occupied}[{word}] &= ~{b}"),
                  "toggle": (f"wp.atomic_xor({occupied}, {word}, {b})", f"{occupied}[{word}] ^= {b}")}[how]
        if rng.random() < 0.4:  # only where the cell's value passes a threshold (a non-empty voxel)
            x = w.add_array(rng.choice(["density", "weights", "values"]), "float32", "input")
            threshold = w.add_scalar(rng.choice(["threshold", "iso", "min_density"]), "float32", rng.choice([0.0, 0.5]))
            with w.block(f"if {w.load(x).src} > {threshold.src}:"):
                w.emit(rng.choice(update))
            w.feature("where a value passes a threshold")
        else:
            w.emit(rng.choice(update))
        w.feature(f"occupancy bitset ({ {'set': 'atomic or', 'clear': 'atomic and of the complement', 'toggle': 'atomic xor'}[how] })")
        return
    mask = w.add_array(rng.choice(["occupied", "bitset", "visited"]), "uint32", "input", shape=(words,), low=0,
                       high=2 ** 31 - 1, grid_bits=0)
    shifted = rng.random() < 0.5  # the word shifted down to the cell's bit, or masked by it
    held = (f"(({mask}[{word}] >> wp.uint32({bit})) & {u32(1)})" if shifted
            else f"({mask}[{word}] & ({u32(1)} << wp.uint32({bit})))")
    if rng.random() < 0.5:
        flag = f"int({held})" if shifted else f"wp.where({held} != {u32(0)}, 1, 0)"
        w.store(w.add_array(rng.choice(["is_set", "hit", "occupied_out"]), "int32", "output"), Expr(flag, "int32", 1.0, 0))
    else:  # the value kept where the cell is occupied
        x = w.add_array(rng.choice(["values", "density", "x"]), "float32", "input")
        xv = w.load(x)
        w.store(w.add_array(rng.choice(["masked", "kept"]), "float32", "output"),
                Expr(f"wp.where({held} != {u32(0)}, {xv.src}, 0.0)", "float32", 2.0, None))
    w.feature("bit tested in a bitset")


BIT_FORMS: dict[str, Callable[[KernelWriter], None]] = {
    "hash": hashed_values,
    "spatial hash": spatial_hash,
    "Morton code": morton_codes,
    "packed colour": packed_colours,
    "radix digits": radix_digits,
    "bitset": bitsets,
}


# the hash has the most uses (values, numbers, dropout, jitter, buckets, colours): drawn as often as three forms
FORM_DRAWS = ("hash", "hash", "hash", *(f for f in BIT_FORMS if f != "hash"))


def chooses_bits(seed: int) -> bool:
    """Whether arithmetic kernel `seed` is a bit kernel: a stream of its own, so the others keep every draw."""
    return random.Random(seed ^ 0xB175).random() < BITS_SHARE


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    form = rng.choice(FORM_DRAWS)
    if form in ("hash", "Morton code") and rng.random() < 0.3:  # an image's pixels
        dim = (rng.choice([8, 16, 32, 64]), rng.choice([8, 16, 32, 64]))
    else:
        dim = pick_dim(rng)
    w = RichKernelWriter(rng, name, "arithmetic", seed, dim)
    if len(dim) == 1 and form != "radix digits" and rng.random() < 0.2:  # radix digits draws its own
        early_return(w)  # a launch padded to whole blocks, or elements skipped by a mask or a flag
    # a hash or a code is stored as it is: an update in place (`h += ...`) or an intermediate kept
    # would mean nothing
    w.output_update_share = 0.0
    w.intermediate_output_share = 0.0
    BIT_FORMS[form](w)
    w.describe_operations("ops", ("min", "max", "abs", "clamp"), operators=True)  # as every arithmetic kernel
    return w.finish("Bit kernel")
