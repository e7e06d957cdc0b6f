"""Test helpers: translate a kernel, give it Warp's (or numpy's) expected values, run its .cu on the CPU."""
from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

import pytest

from cuda_production.bench import small_tables
from cuda_production.host_check import SANITIZED, HostRun, run_on_host
from cuda_production.reference import input_seed, make_input, sample_args, warp_reference
from cuda_production.sample import write_sample
from cuda_production.templates import Tolerance
from cuda_production.translator import translate_kernel
from synthesis.spec import ArgSpec, KernelSpec


def arr(name: str, dtype: str = "float32", role: str = "input", shape=(64,), low=-2.0, high=2.0, bits=10,
        bound=4.0) -> ArgSpec:
    if role == "index":
        low, bits = 0, 0
    if dtype == "int32" and role != "index":
        bits = 0
    return ArgSpec(name, dtype, role, tuple(shape), low, high, bits, None, bound)


def scal(name: str, dtype: str, value) -> ArgSpec:
    return ArgSpec(name, dtype, "scalar", (), value, value, 0, value)


def spec(name: str, source: str, args: list[ArgSpec], dim=(64,)) -> KernelSpec:
    return KernelSpec(name, "test", f"test kernel {name}", source, tuple(args), tuple(dim), seed=12345)


def inputs(s: KernelSpec) -> dict:
    """The host arrays main() builds, by argument name (flat). Hashed positions count the flattened
    arguments: a struct takes one per field, a hash grid, mesh or BVH none."""
    seed = input_seed(s)
    arrays, position = {}, 0
    for a in sample_args(s):
        if a.kind == "array":
            arrays[a.name] = make_input(a, position, seed)
        position += len(a.flattened())
    return arrays


def write_spec_sample(tmp: Path, s: KernelSpec, expected: bytes | None, tolerance: Tolerance = Tolerance()) -> Path:
    """The sample folder of a generated kernel, translated as the pipeline does (no expected.bin: None)."""
    kernel = translate_kernel(s.source, s.name, f"{s.name}.py", small_tables(list(s.args), s.dim), s.block_dim)
    return write_sample(tmp / s.name, kernel, s.source, sample_args(s), s.dim, input_seed(s), tolerance,
                        expected, {"category": s.category, "description": s.description})


def sanitized_bench(folder: Path, outer: int) -> HostRun:
    """One launch of the sample's benchmark at outermost extent `outer`, built for the host with
    AddressSanitizer and UBSan: a read or write past an array fails the run."""
    return run_on_host(folder, run_args=("--bench", "--bench-dim", str(outer), "--launches", "1", "--warmup", "0",
                                         "--trials", "1"), compile_flags=SANITIZED)


def run_sample(tmp: Path, s: KernelSpec, expected: bytes, tolerance: Tolerance = Tolerance()) -> HostRun:
    return run_on_host(write_spec_sample(tmp, s, expected, tolerance))


def vec_value(name: str, dtype: str, value: tuple) -> ArgSpec:
    """A by-value vector/matrix/quat/transform argument (components flat, in Warp's memory order)."""
    return ArgSpec(name, dtype, "scalar", (), 0.0, 0.0, 0, tuple(value))


def struct(name: str, struct_name: str, fields: list[ArgSpec]) -> ArgSpec:
    return ArgSpec(name, struct_name, "struct", fields=tuple(fields))


def records(name: str, struct_name: str, fields: list[ArgSpec], shape=(64,)) -> ArgSpec:
    """An array of records: `fields` are its members (arrays of `shape`), the array's role the widest
    of theirs (output if only written, inout if any is read and any written, input if none is written)."""
    roles = {f.role for f in fields}
    role = "input" if not roles & {"output", "inout"} else "output" if roles == {"output"} else "inout"
    return ArgSpec(name, struct_name, role, tuple(shape), fields=tuple(fields))


def translate_checked(tmp_path_factory, name: str, source: str) -> tuple[int, str, str, Path]:
    """`translate.py FILE --reference --check` on `source` (a file of kernels) in a fresh folder, its
    output captured: (exit code, stdout, stderr, output folder). Skips the test without g++ (the
    check runs each .cu on the CPU)."""
    from cuda_production.translate import translate_file

    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    base = tmp_path_factory.mktemp(name)
    src = base / f"{name}.py"
    src.write_text(source)
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = translate_file(src, base / "out", reference=True, check=True)
    return code, stdout.getvalue(), stderr.getvalue(), base / "out"


def kernel_body(out_folder: Path, kernel: str) -> str:
    """The `__global__` function of a kernel `translate` wrote under `out_folder`, to its closing brace."""
    cu = (out_folder / kernel / f"{kernel}.cu").read_text()
    start = cu.index("__global__")
    return cu[start:cu.index("\n}\n", start)]


def check_line(run: tuple[int, str, str, Path], kernel: str) -> str:
    """The line `translate --reference --check` (a `translate_checked` run) printed for `kernel`."""
    _, out, err, _ = run
    return next((line for line in out.splitlines() if line.startswith(f"{kernel}:")), f"no line for {kernel}: {err}")


def refusal(source: str, kernel: str = "k") -> str:
    """The translator's one-line refusal of `kernel` in `source` (a file named user.py); fails the test
    when the kernel translates."""
    from cuda_production.translator import TranslationError, translate_source

    result = translate_source(source, "user.py")[kernel]
    assert isinstance(result, TranslationError), result
    return str(result)


def arrays_of(folder: Path) -> tuple[dict, dict]:
    """(the inputs main() builds, by name; Warp's written arrays from expected.bin, by name), each
    shaped as its argument (a vector's components last) for a translated kernel's folder."""
    import json

    import numpy as np

    meta = json.loads((folder / "metadata.json").read_text())
    args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
    inputs = {a.name: make_input(a, k, meta["input_seed"]) for k, a in enumerate(args) if a.is_array}
    raw, offset, written = (folder / "expected.bin").read_bytes(), 0, {}
    for name in meta["written_arrays"]:
        a = next(x for x in args if x.name == name)
        dtype, count = np.dtype(a.numpy_dtype), a.size * a.width
        written[name] = np.frombuffer(raw, dtype=dtype, count=count, offset=offset).reshape(
            tuple(a.shape) + ((a.width,) if a.width > 1 else ()))
        offset += count * dtype.itemsize
    return inputs, written


def warp_runs(specs: list[KernelSpec], module_name: str, shaped: bool = True) -> tuple[tuple[KernelSpec, dict, dict], ...]:
    """Each kernel run by Warp on the CPU: (spec, its input arrays by name, its written arrays by name),
    each array shaped as the argument (`shaped`, a vector's components last) or flat, element-major."""
    import numpy as np

    expected = warp_reference(specs, module_name)
    out = []
    for s in specs:
        by_name = {a.name: a for a in s.args}

        def shape(name: str, values):
            a = by_name[name]
            return values.reshape(tuple(a.shape) + ((a.width,) if a.width > 1 else ())) if shaped else values
        data, offset, written = expected[s.name], 0, {}
        for a in s.args:
            if a.is_written:
                n = a.count * a.width
                written[a.name] = shape(a.name, np.frombuffer(data, dtype=a.numpy_dtype, count=n, offset=offset))
                offset += n * a.component_bytes
        out.append((s, {name: shape(name, v) for name, v in inputs(s).items()}, written))
    return tuple(out)
