"""wave_kernels.py — tests/driver/wave/*.json written in the Python DSL (filled in below)."""


def tests():
    return []
