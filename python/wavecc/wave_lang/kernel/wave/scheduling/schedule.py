"""Wave's wave_lang.kernel.wave.scheduling.schedule: SchedulingType."""
from ....._compile import SchedulingType  # noqa: F401
