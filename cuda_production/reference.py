"""Expected outputs: the same inputs the .cu builds, run through the Python kernel by Warp on the CPU.

Only kernels the pipeline generated itself are executed here. Many kernels share one Warp module,
because Warp compiles a whole module (about 1.5 s) on its first CPU launch. Helpers and constants are
named as people name them (`huber`, `DT`), so two kernels often both define one: each kernel's are
renamed apart in the shared module (`own_module_names`); kernels whose struct classes clash go to
separate modules. Struct arguments are
built from their fields, each field an input position of its own (`ArgSpec.flattened`).
"""
from __future__ import annotations

import ast
import dataclasses
import hashlib
import re

import numpy as np

from synthesis.dtypes import bfloat16_bits, dtype as lookup_dtype
from synthesis.spec import ArgSpec, KernelSpec

M1, M2, GOLDEN = np.uint32(0x7FEB352D), np.uint32(0x846CA68B), np.uint32(0x9E3779B9)


def mix32(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.uint32, copy=True)
    x ^= x >> np.uint32(16)
    x *= M1
    x ^= x >> np.uint32(15)
    x *= M2
    x ^= x >> np.uint32(16)
    return x


def input_bits(seed: int, arg: int, count: int) -> np.ndarray:
    """numpy twin of the .cu's input_bits(seed, arg, i) for i in [0, count)."""
    with np.errstate(over="ignore"):
        key = mix32(np.array([np.uint32(seed) + GOLDEN * np.uint32(arg + 1)], dtype=np.uint32))[0]
        return mix32(np.arange(count, dtype=np.uint32) ^ key)


def row_lengths(arg: ArgSpec, position: int, seed: int, rows: int) -> np.ndarray:
    """A compressed sparse row's row lengths (role "offsets"): rows 2k and 2k + 1 as far above and
    below the mean (low + high) / 2, by bits k of the input's hash, so pairs of rows hold twice the mean;
    the last row of an odd count holds the mean (rows x mean entries in all, the size of the arrays
    they index, at any count)."""
    mean, spread = (int(arg.low) + int(arg.high)) // 2, (int(arg.high) - int(arg.low)) // 2
    k = np.arange(rows) // 2
    offset = (input_bits(seed, position, (rows + 1) // 2) % np.uint32(2 * spread + 1)).astype(np.int64)[k] - spread
    if rows % 2:
        offset[-1] = 0
    return mean + np.where(np.arange(rows) % 2 == 0, offset, -offset)


def make_input(arg: ArgSpec, position: int, seed: int) -> np.ndarray:
    """The host array main() builds for `arg` (flat, element-major: element i, then components)."""
    total = arg.count * arg.width
    if arg.role == "offsets":
        return np.concatenate([[0], np.cumsum(row_lengths(arg, position, seed, total - 1))]).astype(np.int32)
    if arg.role not in ("input", "inout", "index"):
        return np.zeros(total, dtype=arg.numpy_dtype)
    lo, span, step = arg.fill
    bits = input_bits(seed, position, total) % np.uint32(span)
    grid = np.int64(lo) + bits.astype(np.int64)
    if arg.is_storage_int:  # int8, uint8, int64: the values, in the array's type
        return grid.astype(arg.numpy_dtype)
    if arg.is_int:  # a uint32 array holds the same bits as the int32 values (two's complement)
        return grid.astype(np.int32).view(arg.numpy_dtype)
    if arg.numpy_dtype == "float64":
        return grid.astype(np.float64) * np.float64(step)
    values = grid.astype(np.float32) * np.float32(step)
    if lookup_dtype(arg.dtype).scalar == "bfloat16":  # its bits, as Warp's bfloat16 arrays hold them
        return bfloat16_bits(values)
    return values.astype(np.float16) if arg.numpy_dtype == "float16" else values


def sample_args(spec: KernelSpec) -> list[ArgSpec]:
    return list(spec.args)


def input_seed(spec: KernelSpec) -> int:
    return spec.seed % (2**32)


def top_level_names(source: str) -> set[str]:
    """Names a kernel's source defines at module level: constants, struct classes, helpers, the kernel."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


_UNIQUE_MODULE = re.compile(r'(?:, )?module="unique"(?:, )?(?=[^)]*\))')


def own_module_names(spec: KernelSpec, tag: str) -> KernelSpec:
    """`spec` with its helpers and module constants renamed `<name>__<tag>` (its kernel and struct
    classes keep theirs: the launch looks them up by name), so that kernels defining the same helper
    or constant can share a module. Renaming changes no value the kernel computes. A kernel declared
    as a module of its own (`module="unique"`) joins the shared one: one CPU build for the batch,
    the same values."""
    if 'module="unique"' in spec.source:
        spec = dataclasses.replace(spec, source=_UNIQUE_MODULE.sub("", spec.source))
    tree = ast.parse(spec.source)
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name != spec.name]
    names += [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)]
    if not names:
        return spec
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")(?!\w)")
    return dataclasses.replace(spec, source=pattern.sub(lambda m: f"{m.group(1)}__{tag}", spec.source))


def module_groups(specs: list[KernelSpec]) -> list[list[KernelSpec]]:
    """Split kernels into as few modules as possible with no module-level name defined twice.

    Two kernels may both define `DT` or `class Particles` with different contents; Warp resolves a
    kernel's globals in its module, so each must sit in a module of its own. Tiled kernels launched
    with different block_dims go to different modules too: Warp builds a whole module for the
    block_dim of the launch, and some tile code is valid for its own block_dim only (on the CPU,
    `wp.tile_fft` of rows of 32 refuses a block of 256). Kernels launched without tiles go to modules
    of their own as well: their launch builds the module for Warp's default block, where a tiled
    kernel's `wp.tile(v)` has another shape (a batch holding both failed, and each of its kernels
    was rebuilt alone).
    """
    groups: list[tuple[set[str], set[int], list[KernelSpec]]] = []
    for spec in specs:
        names = top_level_names(spec.source)
        block_dims = {spec.block_dim}  # 0: launched without tiles
        for taken, launched, members in groups:
            if not taken & names and len(launched | block_dims) <= 1:
                taken |= names
                launched |= block_dims
                members.append(spec)
                break
        else:
            groups.append((set(names), block_dims, [spec]))
    return [members for _, _, members in groups]


def warp_value(arg: ArgSpec):
    """A by-value argument as Warp takes it: a number, or the type built from its components."""
    if isinstance(arg.value, tuple):
        return lookup_dtype(arg.dtype).warp_type()(*arg.value)
    return float(arg.value) if lookup_dtype(arg.dtype).is_float else int(arg.value)


def warp_reference(specs: list[KernelSpec], module_name: str) -> dict[str, bytes]:
    """For each kernel, Warp's values of every written array, concatenated in flattened argument order."""
    from extraction.warp_compat import cpu_compiler_quiet

    results: dict[str, bytes] = {}
    specs = [own_module_names(spec, f"k{i}") for i, spec in enumerate(specs)]
    with cpu_compiler_quiet():
        for k, group in enumerate(module_groups(specs)):
            results.update(_run_module(group, module_name if k == 0 else f"{module_name}_{k}"))
    return results


class RecordMember:
    """One member of an array of records, read back as a flat array of its own (expected.bin's layout)."""

    def __init__(self, array, name: str):
        self.array, self.name = array, name

    def numpy(self) -> np.ndarray:
        return np.ascontiguousarray(self.array.numpy()[self.name])


class GridId(int):
    """A `wp.HashGrid`'s, `wp.Mesh`'s or `wp.Bvh`'s id as a kernel takes it (a uint64), holding the structure:
    Warp frees its memory with its Python object, which must outlive the launch."""

    grid: object

    def __new__(cls, grid) -> "GridId":
        value = super().__new__(cls, grid.id)
        value.grid = grid
        return value


def warp_arguments(args: list[ArgSpec], module, seed: int, device: str | None = None) -> tuple[list, list]:
    """The launch arguments of `args` for Warp, built as the .cu's main() builds them (hashed
    positions over the flattened arguments; structs from the kernel's `module`; by-value values;
    hash grids built over their points array; BVHs over the boxes around their points; meshes from
    synthesis/mesh_geometry.py, salted by `seed`), and the written arrays among them, in order."""
    import warp as wp

    positions = iter(range(10**9))
    written: list = []
    arrays: dict[str, object] = {}

    def build(arg: ArgSpec):
        if arg.kind in ("hash_grid", "mesh", "bvh"):  # built once every array exists: points may come later
            return arg
        if arg.kind == "struct":
            instance = getattr(module, arg.dtype)()
            for f in arg.fields:
                setattr(instance, f.name, build(f))
            return instance
        if arg.is_records:  # each member from its own hashed stream, as main() fills them
            struct = getattr(module, arg.dtype)
            records = np.zeros(arg.shape, dtype=struct.numpy_dtype())
            for f in arg.fields:
                records[f.name] = make_input(f, next(positions), seed).reshape(records[f.name].shape)
            array = wp.array(records, dtype=struct, device=device)
            written.extend(RecordMember(array, f.name) for f in arg.fields if f.is_written)
            arrays[arg.name] = array
            return array
        position = next(positions)
        if arg.kind == "scalar":
            return warp_value(arg)
        t = lookup_dtype(arg.dtype)
        array = wp.array(make_input(arg, position, seed).reshape(arg.shape + t.shape), dtype=t.warp_type(), device=device)
        if arg.is_written:
            written.append(array)
        arrays[arg.name] = array
        return array

    def build_grid(arg: ArgSpec) -> GridId:
        grid = wp.HashGrid(*arg.shape, device=device)
        grid.build(arrays[arg.points], float(arg.value))
        return GridId(grid)

    def build_mesh(arg: ArgSpec) -> GridId:
        from synthesis.mesh_geometry import rock_mesh

        points, triangles = rock_mesh(arg.shape[0], float(arg.value), seed)
        return GridId(wp.Mesh(points=wp.array(np.array(points, dtype=np.float32), dtype=wp.vec3, device=device),
                              indices=wp.array(np.array(triangles, dtype=np.int32), dtype=wp.int32, device=device)))

    def build_bvh(arg: ArgSpec) -> GridId:
        # the boxes in float32, as the .cu computes them: x - h and x + h per component
        points = arrays[arg.points].numpy()
        half = np.float32(arg.value)
        lowers = wp.array(points - half, dtype=wp.vec3, device=device)
        uppers = wp.array(points + half, dtype=wp.vec3, device=device)
        return GridId(wp.Bvh(lowers, uppers))

    builders = {"hash_grid": build_grid, "mesh": build_mesh, "bvh": build_bvh}
    built = [build(arg) for arg in args]
    return [a if not isinstance(a, ArgSpec) else builders[a.kind](a) for a in built], written


def cache_safe_module_name(module_name: str, source: str) -> str:
    """`module_name` with a digest of the module's whole source: the name Warp's kernel cache keeps a
    CPU build under. Warp's own hash of a module leaves out a @wp.func that is passed by name rather
    than called (`wp.tile_map(f, t)`, warp 1.19), so a module of the same name whose only change is
    in such a helper would run the old build, and its expected values be the old code's."""
    return f"{module_name}_{hashlib.sha256(source.encode()).hexdigest()[:12]}"


def _run_module(specs: list[KernelSpec], module_name: str) -> dict[str, bytes]:
    import sys

    import warp as wp

    from extraction.loader import load_kernels, unload

    source = "\n\n".join(s.source for s in specs)
    module_name = cache_safe_module_name(module_name, source)
    kernels = load_kernels(source, module_name)
    module = sys.modules[module_name]
    try:
        results = {}
        for spec in specs:
            launch_args, written = warp_arguments(list(spec.args), module, input_seed(spec), "cpu")
            if spec.block_dim:  # one block of block_dim threads per launch index (Warp's CPU runs them as fibers)
                # without enable_cpu_blocks Warp's CPU blocks are one thread wide: tile_load and the
                # reductions give the same values, but `wp.tile(v)` would hold lane 0's value alone
                previous = wp.config.enable_cpu_blocks
                wp.config.enable_cpu_blocks = True
                try:
                    wp.launch_tiled(kernels[spec.name], dim=spec.dim, inputs=launch_args, block_dim=spec.block_dim,
                                    device="cpu")
                finally:
                    wp.config.enable_cpu_blocks = previous
            else:
                wp.launch(kernels[spec.name], dim=spec.dim, inputs=launch_args, device="cpu")
            results[spec.name] = b"".join(a.numpy().tobytes() for a in written)
        return results
    finally:
        unload(module_name)
