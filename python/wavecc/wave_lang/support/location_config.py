"""Wave's wave_lang.support.location_config: how much source location its MLIR carries. wavecc records the
Python file and line of every op regardless (the graph's `loc`), so the level is accepted and not read."""
import enum
from dataclasses import dataclass


class LocationCaptureLevel(enum.Enum):
    NONE = 0
    FILE_LINE_COL = 1
    STACK_TRACE = 2
    STACK_TRACE_WITH_SYSTEM = 3


@dataclass
class LocationCaptureConfig:
    level: LocationCaptureLevel = LocationCaptureLevel.NONE
