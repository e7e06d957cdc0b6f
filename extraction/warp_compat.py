"""The only module that touches Warp internals.

Warp's code generator is not public API: in 1.10 `warp.context` moved to `warp._src.context`. Every
internal name the project uses is looked up here, once, with a clear error naming the Warp version
when it is missing.
"""
from __future__ import annotations

import importlib
import os
from typing import Any

os.environ.setdefault("WARP_QUIET", "1")
import warp as wp  # noqa: E402

WARP_VERSION: str = wp.__version__


class WarpCompatError(RuntimeError):
    pass


def _internal(attr: str) -> Any:
    for module_name in ("warp._src.context", "warp.context"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if hasattr(module, attr):
            return getattr(module, attr)
    raise WarpCompatError(
        f"warp-lang {WARP_VERSION}: internal '{attr}' not found in warp._src.context or warp.context; "
        "this project supports warp-lang 1.10 to 1.x (tested with 1.19)"
    )


_initialised = False


def init_warp() -> None:
    """Initialise Warp once per process, quietly; works without a GPU or CUDA driver."""
    global _initialised
    if not _initialised:
        wp.config.quiet = True
        if hasattr(wp, "LOG_WARNING"):
            wp.config.log_level = wp.LOG_WARNING  # no start-up banner on stdout
        wp.init()
        _initialised = True


def module_options(kernel: Any, enable_backward: bool) -> dict:
    options = dict(kernel.module.options)
    options["enable_backward"] = enable_backward
    # Tile builtins (tile_matmul, ...) read the target architecture while lowering; None is what
    # Warp itself passes when it only needs the code (its generic tile path, no MathDx LTO).
    options.setdefault("output_arch", None)
    return options


def build_module(kernel: Any, enable_backward: bool) -> Any:
    """Build (type-check and lower) the Warp module holding `kernel`, once for all devices."""
    builder_cls = _internal("ModuleBuilder")
    try:
        return builder_cls(kernel.module, module_options(kernel, enable_backward), target="cuda")
    except TypeError:  # releases whose ModuleBuilder has no `target` keyword
        return builder_cls(kernel.module, module_options(kernel, enable_backward))


def codegen(builder: Any, device: str) -> str:
    return builder.codegen(device)


def kernel_symbol(kernel: Any) -> str:
    """The mangled prefix Warp gives the kernel's functions: `<key>_<hash8>`."""
    return f"{kernel.get_mangled_name()}"


def forget_module(module_name: str) -> None:
    """Drop a generated module from Warp's registry so long runs do not grow without bound."""
    registry = _internal("user_modules")
    registry.pop(module_name, None)
