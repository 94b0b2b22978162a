"""Wave's wave_lang.support.detect_water: Wave's MLIR backend (water) is not part of wavecc, so none is found
(Wave's tests that need it skip)."""


def is_water_available():
    return False


def is_water_binary_available():
    return False


def find_binary(name):
    """Wave looks for its water tools; wavecc has none."""
    return None


def get_water_opt():
    raise RuntimeError("water-opt: Wave's MLIR backend is not part of wavecc")


def get_water_mlir_pkg_path():
    raise RuntimeError("water: Wave's MLIR backend is not part of wavecc")
