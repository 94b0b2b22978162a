"""templates/_common.py — what wavecc's kernel templates share.

Wave's templates take torch dtypes (torch.float16 by default); wavecc's take a torch dtype, a numpy dtype, a
Wave dtype (tkl.f16) or its name, so they run without torch. `dims_to_dynamic` moves the sizes a template's
caller asked to be dynamic from the hyperparameters to the dynamic symbols, as Wave's templates do.
"""
from collections.abc import Sequence

from ..utils.general_utils import torch_dtype_to_wave

F16 = "float16"  # the default dtype: torch.float16 in Wave's signatures


def wave_dtype(dtype):
    """Wave's dtype of a torch / numpy / Wave dtype or a name ("float16")."""
    return torch_dtype_to_wave(dtype)


def per_dim(flag, n):
    """Wave's `bool | tuple[bool, ...]` arguments: one flag per dim."""
    if isinstance(flag, Sequence) and not isinstance(flag, str):
        if len(flag) != n:
            raise ValueError("expected %d flags, got %r" % (n, flag))
        return tuple(bool(f) for f in flag)
    return (bool(flag),) * n


def dims_to_dynamic(hyperparams, syms, flags):
    """Remove each flagged symbol's value from hyperparams; the list of them (Wave's dynamic_symbols)."""
    out = []
    for s, f in zip(syms, flags):
        if f:
            out.append(s)
            hyperparams.pop(s, None)
    return out
