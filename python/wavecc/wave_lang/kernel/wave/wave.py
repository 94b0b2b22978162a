"""Wave's wave_lang.kernel.wave.wave: the @wave decorator."""
from ...._compile import wave, wave_trace_only, LaunchableWave  # noqa: F401
