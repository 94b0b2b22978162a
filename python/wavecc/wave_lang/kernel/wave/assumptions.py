"""Wave's wave_lang.kernel.wave.assumptions."""
from ...._constraints import Assumption  # noqa: F401
