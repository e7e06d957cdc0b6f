"""nvcc validation: compile samples to PTX (and through ptxas, for resource usage).

Most of an nvcc call on a whole sample is spent parsing the host headers its main() includes, so
validation batches: the device part of each sample's .cu (its text up to the host section, verbatim:
helpers, structs, @wp.func translations, the kernel) goes into one translation unit per batch,
one namespace per sample, compiled once with `nvcc -ptx`, then `ptxas -v` reports registers,
spills and shared memory per kernel. A batch that fails is retried sample by sample on the full
.cu, so a failure is always attributed to its sample with its own error log. Batches run in
parallel. `full_ptx` compiles one whole .cu the plain way (what `make ptx` does).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cuda_production.cuda_types import required_arch
from cuda_production.templates import DEFAULT_ARCH, PRELUDE

HOST_MARKER = "\n// ---------------------------------------------------------------------------------------------\n// Host side:"
DEVICE_INCLUDES = "#include <cuda_runtime.h>\n#include <cmath>\n#include <cstdint>\n"
PRELUDE_INCLUDES = frozenset(line for line in PRELUDE.splitlines() if line.startswith("#include"))


@dataclass
class Validation:
    status: str  # ok | failed | skipped
    arch: str = DEFAULT_ARCH
    nvcc_version: str | None = None
    registers: int | None = None
    spill_stores_bytes: int | None = None
    spill_loads_bytes: int | None = None
    shared_memory_bytes: int | None = None
    stack_frame_bytes: int | None = None
    log: str | None = None  # the compiler's error output on failure; the reason when skipped
    method: str | None = None  # batched-device | full-file

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}


def find_nvcc() -> str | None:
    return shutil.which("nvcc")


def nvcc_version(nvcc: str) -> str:
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"release ([\d.]+), V([\d.]+)", out)
    return m.group(2) if m else out.strip().splitlines()[-1]


def device_includes(cu_text: str) -> str:
    """The headers the sample's device code needs: DEVICE_INCLUDES, and those its own code includes
    beyond the program's prelude (cuda_fp16.h, cuda_bf16.h, mma.h, ...)."""
    end = cu_text.find(HOST_MARKER)
    own = [line for line in cu_text[:end if end >= 0 else len(cu_text)].splitlines()
           if line.startswith("#include") and line not in PRELUDE_INCLUDES]
    return DEVICE_INCLUDES + "".join(line + "\n" for line in dict.fromkeys(own))


def device_part(cu_text: str) -> str:
    """The sample's device code: everything after the includes and before the host section."""
    end = cu_text.find(HOST_MARKER)
    if end < 0:
        raise ValueError("no host-section marker in the .cu")
    body = cu_text[:end]
    lines = [l for l in body.splitlines() if not l.startswith("#include")]
    return "\n".join(lines)


_ENTRY = re.compile(r"Compiling entry function '(\w+)'")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers(?:.*?(\d+) bytes smem)?")


def parse_ptxas(log: str) -> dict[str, dict]:
    """Per mangled entry function: registers, spills, stack and shared memory."""
    info: dict[str, dict] = {}
    current = None
    for line in log.splitlines():
        m = _ENTRY.search(line)
        if m:
            current = info.setdefault(m.group(1), {})
            continue
        if current is None:
            continue
        m = _FRAME.search(line)
        if m:
            current.update(stack_frame_bytes=int(m.group(1)), spill_stores_bytes=int(m.group(2)),
                           spill_loads_bytes=int(m.group(3)))
        m = _USED.search(line)
        if m:
            current.update(registers=int(m.group(1)), shared_memory_bytes=int(m.group(2) or 0))
    return info


def _resources_for(kernel: str, info: dict[str, dict]) -> dict:
    token = f"{len(kernel)}{kernel}"
    for mangled, res in info.items():
        if token in mangled:
            return res
    return {}


def full_ptx(cu_path: Path, arch: str = DEFAULT_ARCH, nvcc: str | None = None) -> tuple[bool, str]:
    """`nvcc -ptx` on a whole .cu, as `make ptx` does. Returns (ok, compiler output)."""
    nvcc = nvcc or find_nvcc()
    arch = required_arch(cu_path.read_text(), arch)
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run([nvcc, f"-arch={arch}", "-std=c++17", "-ptx", str(cu_path), "-o", str(Path(tmp) / "out.ptx")],
                              capture_output=True, text=True)
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


def _full_validation(cu_path: Path, kernel: str, arch: str, nvcc: str, version: str) -> Validation:
    with tempfile.TemporaryDirectory() as tmp:
        ptx = Path(tmp) / "out.ptx"
        proc = subprocess.run([nvcc, f"-arch={arch}", "-std=c++17", "-ptx", str(cu_path), "-o", str(ptx)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            return Validation("failed", arch, version, log=(proc.stdout + proc.stderr).strip()[-4000:], method="full-file")
        asm = subprocess.run(["ptxas", "-v", f"-arch={arch}", str(ptx), "-o", str(Path(tmp) / "out.cubin")],
                             capture_output=True, text=True)
        if asm.returncode != 0:
            return Validation("failed", arch, version, log=asm.stderr.strip()[-4000:], method="full-file")
    return Validation("ok", arch, version, method="full-file", **_resources_for(kernel, parse_ptxas(asm.stderr)))


# A sample's helpers may overload a global function (`make_float3(float s)`, `min(float3, float3)`):
# inside a namespace that overload would hide the global ones from the sample's other calls
# (`make_float3(x, y, z)`), which compile in the sample's own file, at global scope. The batch brings
# the global overloads into each namespace, so that both are found, as in the file.
BATCH_USING = "using ::min;\nusing ::max;\nusing ::make_float2;\nusing ::make_float3;\nusing ::make_float4;"


def _validate_batch(items: list[tuple[Path, str]], arch: str, nvcc: str, version: str) -> list[Validation]:
    texts = [cu.read_text() for cu, _ in items]
    # every header any of the batch's programs needs, once, before the namespaces
    parts = ["".join(dict.fromkeys(line for text in texts for line in device_includes(text).splitlines(True)))]
    for i, text in enumerate(texts):
        parts.append(f"namespace sample_{i} {{\n{BATCH_USING}\n{device_part(text)}\n}}  // namespace sample_{i}\n")
    with tempfile.TemporaryDirectory() as tmp:
        src, ptx = Path(tmp) / "batch.cu", Path(tmp) / "batch.ptx"
        src.write_text("\n".join(parts))
        proc = subprocess.run([nvcc, f"-arch={arch}", "-std=c++17", "-ptx", str(src), "-o", str(ptx)],
                              capture_output=True, text=True)
        asm = None
        if proc.returncode == 0:
            asm = subprocess.run(["ptxas", "-v", f"-arch={arch}", str(ptx), "-o", str(Path(tmp) / "batch.cubin")],
                                 capture_output=True, text=True)
        if proc.returncode != 0 or asm.returncode != 0:
            # Attribute the failure: every sample of the batch on its own, whole file.
            return [_full_validation(cu, k, arch, nvcc, version) for cu, k in items]
        info = parse_ptxas(asm.stderr)
    return [Validation("ok", arch, version, method="batched-device", **_resources_for(k, info)) for _, k in items]


def validate_samples(items: list[tuple[Path, str]], arch: str = DEFAULT_ARCH, workers: int = 2,
                     batch_size: int = 16) -> list[Validation]:
    """Validate (cu_path, kernel_name) pairs; results in the same order. No nvcc: all 'skipped'."""
    nvcc = find_nvcc()
    if nvcc is None:
        return [Validation("skipped", arch, log="nvcc not found on PATH") for _ in items]
    version = nvcc_version(nvcc)
    if shutil.which("ptxas") is None:
        return [Validation("skipped", arch, version, log="ptxas not found on PATH") for _ in items]
    # a program whose code needs a newer architecture (its #error guard: bfloat16 tensor cores) is
    # built for that one, in batches of its own
    archs = [required_arch(cu.read_text(), arch) for cu, _ in items]
    batches = []
    for target in dict.fromkeys(archs):
        chosen = [i for i, a in enumerate(archs) if a == target]
        batches += [(target, chosen[i:i + batch_size]) for i in range(0, len(chosen), batch_size)]
    with ThreadPoolExecutor(max(1, workers)) as pool:  # the work happens in nvcc subprocesses
        results = list(pool.map(lambda b: _validate_batch([items[i] for i in b[1]], b[0], nvcc, version), batches))
    out: list[Validation | None] = [None] * len(items)
    for (_, chosen), batch in zip(batches, results):
        for i, v in zip(chosen, batch):
            out[i] = v
    return out
