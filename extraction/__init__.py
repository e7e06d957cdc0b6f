"""Warp IR extraction: the C++/CUDA that Warp's own code generator emits for a kernel."""
from extraction.ir_extractor import KernelIR, extract_ir, extract_ir_devices
from extraction.loader import KernelLoadError, load_kernels

__all__ = ["KernelIR", "KernelLoadError", "extract_ir", "extract_ir_devices", "load_kernels"]
