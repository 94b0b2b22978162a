"""wavecc — compile Wave kernels with wavecc, from Python.

`wavecc.wave_lang` mirrors the module paths of Wave's public API (iree-org/wave,
package `wave_lang`): a Wave program runs after `wave_lang` becomes
`wavecc.wave_lang` in its imports (docs/python.md). The kernel function is
traced into a wavecc-kernel/1 graph (docs/kernel-format.md), compiled in process
by libwavecc through ctypes, and run on wavecc's CPU emulator of the code object.

The lower level: wavecc.Kernel (a parsed JSON graph), .compile(), .run(),
.interpret() — include/wavecc.h in Python.
"""
from ._lib import WaveccError, NoDeviceError, Diagnostic, Kernel, Compiled, ArgInfo, ParamInfo, version, \
    WAVECC_BACKEND_EMULATOR, WAVECC_BACKEND_HIP
from ._trace import TraceError
from .bf16 import bfloat16, to_bf16, from_bf16

__version__ = "0.3.0"
__all__ = ["WaveccError", "NoDeviceError", "Diagnostic", "TraceError", "Kernel", "Compiled", "ArgInfo", "ParamInfo",
           "version", "WAVECC_BACKEND_EMULATOR", "bfloat16", "to_bf16", "from_bf16",
           "WAVECC_BACKEND_HIP"]
