"""Turn Python source that the pipeline generated into live `wp.Kernel` objects.

Warp reads kernel source through `inspect`, so the source is registered with `linecache` under a
unique pseudo-filename before it is executed. Only pipeline-generated code goes through here: a
user's file given to the translator is parsed, never executed.
"""
from __future__ import annotations

import linecache
import sys
import types
from typing import Any

from extraction import warp_compat

PRELUDE = "import warp as wp\n\n"


class KernelLoadError(RuntimeError):
    pass


def load_kernels(source: str, module_name: str) -> dict[str, Any]:
    """Execute generated `source` as module `module_name`; return its kernels by name."""
    warp_compat.init_warp()
    text = PRELUDE + source
    filename = f"<generated:{module_name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    module = types.ModuleType(module_name)
    module.__file__ = filename
    sys.modules[module_name] = module
    try:
        with warp_compat.function_ids_restored():  # a helper's C++ name, whatever was loaded before
            exec(compile(text, filename, "exec"), module.__dict__)
    except Exception as exc:  # the reason is recorded per sample by the caller
        unload(module_name)
        raise KernelLoadError(f"{type(exc).__name__}: {exc}") from exc
    kernels = {k: v for k, v in module.__dict__.items() if type(v).__name__ == "Kernel"}
    if not kernels:
        unload(module_name)
        raise KernelLoadError("source defines no @wp.kernel")
    return kernels


def unload(module_name: str) -> None:
    """Forget everything `load_kernels` registered for `module_name`, and the Warp module of each of
    its kernels that has one of its own (`@wp.kernel(module="unique")`)."""
    module = sys.modules.pop(module_name, None)
    for value in (module.__dict__.values() if module is not None else ()):
        if type(value).__name__ == "Kernel" and value.module.name != module_name:
            warp_compat.forget_module(value.module.name)
    linecache.cache.pop(f"<generated:{module_name}>", None)
    warp_compat.forget_module(module_name)
