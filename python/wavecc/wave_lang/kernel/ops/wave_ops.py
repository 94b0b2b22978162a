"""Wave's wave_lang.kernel.ops.wave_ops: the tkw ops (wavecc/_ops.py records them)."""
from ...._ops import *  # noqa: F401,F403
from ...._ops import __all__  # noqa: F401
