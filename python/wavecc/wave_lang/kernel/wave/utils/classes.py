"""Wave's wave_lang.kernel.wave.utils.classes: the enums Wave's tests import (CoalescingType, a hint wavecc's
compiler does not take: its own coalescing of global accesses applies)."""
import enum


class CoalescingType(enum.Enum):
    LINEAR = 0x00
    WAVE_TILE_ALIGNED = 0x10
