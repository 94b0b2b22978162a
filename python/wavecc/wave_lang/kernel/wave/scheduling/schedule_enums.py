"""Wave's wave_lang.kernel.wave.scheduling.schedule_enums: SchedulingType."""
from ....._compile import SchedulingType  # noqa: F401
