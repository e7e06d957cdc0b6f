"""Extract one kernel's own forward/backward functions from the code Warp generates for its module."""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from extraction import warp_compat

DEVICES = ("cpu", "cuda")


@dataclass(frozen=True)
class KernelIR:
    kernel_name: str
    device: str
    forward_name: str
    forward: str
    backward_name: str | None
    backward: str | None
    helpers: str  # the @wp.func functions (forward and adjoint) that this kernel calls
    warp_version: str

    def to_dict(self) -> dict:
        return asdict(self)


class ExtractionError(RuntimeError):
    pass


def _function_header(symbol: str, device: str, direction: str) -> str:
    if device == "cuda":
        return f'extern "C" __global__ void {symbol}_cuda_kernel_{direction}('
    return f"static void {symbol}_cpu_kernel_{direction}("


def _cut_function(source: str, start: int) -> str:
    """From `start` (a definition's first line) to its closing brace in column 0."""
    end = source.find("\n}\n", start)
    if end < 0:
        raise ExtractionError("unterminated function in Warp output")
    return source[start : end + 2]


def _find_function(source: str, symbol: str, device: str, direction: str) -> tuple[str, str, int]:
    """The function's name, its text, and where the text starts in `source`."""
    header = _function_header(symbol, device, direction)
    at = source.find(header)
    if at < 0:
        raise ExtractionError(f"{direction} function for {symbol} not found in Warp's {device} output")
    if device == "cpu":  # CPU kernels are templates: keep the template line with the definition
        template = source.rfind("template <", 0, at)
        if template >= 0 and source.count("\n", template, at) == 1:
            at = template
    name = f"{symbol}_{device}_kernel_{direction}"
    return name, _cut_function(source, at), at


# @wp.func definitions: `static CUDA_CALLABLE T name_0(` for CUDA, `static T name_0(` for the CPU.
_HELPER_DEF = re.compile(r"^static (?:CUDA_CALLABLE )?[^\n(]*?\b(adj_)?(\w+_\d+)\($", re.M)
# Any @wp.func definition's first line ends so: `name_<n>(` (n counts the process's functions of that
# name, so not always 0).
_ANY_HELPER_DEF = re.compile(r"_\d+\(\n")


def _is_called(name: str, text: str) -> bool:
    """`name(` in `text` as a whole word: `name` not the tail of a longer identifier (`adj_name(`)."""
    needle = name + "("
    at = text.find(needle)
    while at >= 0:
        if at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_"):
            return True
        at = text.find(needle, at + 1)
    return False


def _helpers_called(source: str, prefix_end: int, bodies: list[str]) -> str:
    """The @wp.func definitions (forward and adjoint) whose name the kernel's bodies call. They precede
    the kernels: only `source[:prefix_end]` is scanned, and only if it defines any; each definition's
    name is looked up in the bodies, not every call."""
    if _ANY_HELPER_DEF.search(source, 0, prefix_end) is None:
        return ""
    text = "\n".join(bodies)
    called: dict[str, bool] = {}
    pieces = []
    for match in _HELPER_DEF.finditer(source, 0, prefix_end):
        name = match.group(2)
        if name not in called:
            called[name] = _is_called(name, text)
        if called[name]:
            pieces.append(_cut_function(source, match.start()))
    return "\n".join(pieces)


def extract_ir_devices(kernel: Any, devices: tuple[str, ...] = DEVICES,
                       include_backward: bool = True, block_dim: int = 0) -> dict[str, KernelIR]:
    """Build `kernel`'s module once and cut its functions out of the code for each device.
    `block_dim`: the threads per block of a tiled kernel's launch (its code is built for them)."""
    for device in devices:
        if device not in DEVICES:
            raise ValueError(f"unknown device {device!r}; expected one of {DEVICES}")
    warp_compat.init_warp()
    include_backward = include_backward and warp_compat.has_backward(kernel)  # else Warp emits none: record none
    builder = warp_compat.build_module(kernel, include_backward, block_dim)
    symbol = warp_compat.kernel_symbol(warp_compat.built_instance(kernel))
    result = {}
    for device in devices:
        source = warp_compat.codegen(builder, device)
        fwd_name, forward, forward_at = _find_function(source, symbol, device, "forward")
        bwd_name = backward = None
        if include_backward:
            bwd_name, backward, _ = _find_function(source, symbol, device, "backward")
        helpers = _helpers_called(source, forward_at, [forward] + ([backward] if backward else []))
        result[device] = KernelIR(kernel.key, device, fwd_name, forward, bwd_name, backward,
                                  helpers, warp_compat.WARP_VERSION)
    return result


def extract_ir(kernel: Any, device: str = "cpu", include_backward: bool = True) -> KernelIR:
    """The forward (and backward) functions Warp emits for `kernel` on `device` ("cpu" or "cuda")."""
    return extract_ir_devices(kernel, (device,), include_backward)[device]
