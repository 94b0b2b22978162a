"""bf16.py — bfloat16 from numpy, which has no such dtype.

A bf16 kernel argument is passed as an array of its raw bit patterns, uint16
(the upper half of the f32 bits): `to_bf16` rounds floats to them (to nearest,
ties to even; NaN stays a quiet NaN), `from_bf16` widens them back to float32
exactly. `bfloat16` is numpy's uint16 dtype tagged `{"wavecc": "bf16"}` in its
metadata: `np.zeros(shape, dtype=wavecc.bfloat16)` makes such an array (any
uint16 array is taken for a bf16 argument; the tag only documents it). Wave's
torch_utils helpers without torch take `dtype=tkl.bf16`, `"bfloat16"` or
`wavecc.bfloat16` and return these bit arrays (device_randn's values are
rounded to bf16).
"""
try:
    import numpy as _np
    bfloat16 = _np.dtype(_np.uint16, metadata={"wavecc": "bf16"})
except ImportError:  # tracing needs no numpy; running does
    _np = None
    bfloat16 = None


def to_bf16(x):
    """The bf16 bit patterns (uint16, dtype wavecc.bfloat16) of x rounded to nearest even."""
    f = _np.asarray(x, dtype=_np.float32)
    u = _np.ascontiguousarray(f).view(_np.uint32).astype(_np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    out = _np.where(_np.isnan(f), (u >> 16) | 0x40, rounded).astype(_np.uint16)
    return out.astype(bfloat16)


def from_bf16(bits):
    """The float32 values of bf16 bit patterns (a uint16 or int16 array)."""
    b = _np.asarray(bits)
    if b.dtype.itemsize != 2 or b.dtype.kind not in "iu":
        raise TypeError("from_bf16: expected 16-bit integer bit patterns, got %s" % b.dtype)
    return (b.astype(_np.uint16).astype(_np.uint32) << 16).view(_np.float32)


def is_bf16_dtype(d):
    """Whether d names bf16: wavecc.bfloat16, Wave's tkl.bf16, torch.bfloat16 or the name "bfloat16"/"bf16"."""
    if d is None:
        return False
    if _np is not None and isinstance(d, _np.dtype):
        return bool(d.metadata) and d.metadata.get("wavecc") == "bf16"
    name = getattr(d, "format_name", None) or str(d).replace("torch.", "")
    return name in ("bf16", "bfloat16")
