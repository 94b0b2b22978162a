"""Wave's wave_lang.kernel.wave.compile_options."""
from ...._compile import WaveCompileOptions  # noqa: F401
