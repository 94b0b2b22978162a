"""Wave's wave_lang.kernel.wave.utils.general_utils: the helpers Wave's tests import."""
from ....._compile import SchedulingType  # noqa: F401


def get_default_scheduling_params():
    """Wave's scheduling delays and units: wavecc's scheduler has its own model; accepted in subs, not emitted."""
    from ...lang import global_symbols as g
    return {g.READ_SHARED_DELAY: 1, g.WRITE_SHARED_DELAY: 1, g.READ_GLOBAL_DELAY: 2, g.WRITE_GLOBAL_DELAY: 2,
            g.MMA_DELAY: 1, g.VALU_DELAY: 1, g.SHUFFLE_DELAY: 1, g.SHARED_MEMORY_UNITS: 4,
            g.GLOBAL_MEMORY_UNITS: 4, g.MMA_UNITS: 4, g.VALU_UNITS: 2, g.SHUFFLE_UNITS: 2}
