"""Wave's wave_lang.kernel.wave.execution_engine: Wave's MLIR execution engine is not part of wavecc."""


def is_execution_engine_available():
    return False
