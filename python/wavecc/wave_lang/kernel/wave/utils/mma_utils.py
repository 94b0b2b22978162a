"""Wave's wave_lang.kernel.wave.utils.mma_utils: elements per lane of an MFMA's operands and result.

For an m x n x k MFMA over 64 lanes an operand (m x k) holds m*k/64 elements per lane and the result (m x n)
m*n/64; the shape comes from the type's name (F32_16x16x32_K8_F16: 16, 16, 32)."""
import re


def _shape(mfma_variant):
    name = getattr(mfma_variant, "name", str(mfma_variant))
    m = re.search(r"(\d+)x(\d+)x(\d+)", name)
    if not m:
        raise ValueError("no MFMA shape in %s" % name)
    return tuple(int(x) for x in m.groups())


def get_mfma_load_elems_per_thread(mfma_variant):
    m, n, k = _shape(mfma_variant)
    return m * k // 64


def get_mfma_store_elems_per_thread(mfma_variant):
    m, n, k = _shape(mfma_variant)
    return m * n // 64
