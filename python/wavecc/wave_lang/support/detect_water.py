"""Wave's wave_lang.support.detect_water: Wave's MLIR backend (water) is not part of wavecc."""


def is_water_available():
    return False
