"""Wave's wave_lang.kernel.wave.compile: WaveCompileOptions and wave_compile."""
from ...._compile import WaveCompileOptions, wave_compile, WaveKernel  # noqa: F401
