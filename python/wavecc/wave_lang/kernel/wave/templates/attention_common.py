"""Wave's wave_lang.kernel.wave.templates.attention_common: AttentionShape, the shape record attention tests pass
around (the fields Wave names; unset ones are None and skipped by iteration), and the symbols the attention
templates share (H_Q, N_KV, D_KV, BLOCK_*: Wave's names; N_Q is the symbol N_D, as in Wave)."""
from dataclasses import dataclass, fields
from typing import Optional


@dataclass(frozen=True)
class AttentionShape:
    num_query_heads: int
    num_kv_heads: int
    head_size: int
    head_size_kv: int
    batch_size: Optional[int] = None
    num_seqs: Optional[int] = None
    max_seq_len: Optional[int] = None
    total_seq_len: Optional[int] = None
    context_len: Optional[int] = None
    fixed_seq_len_prefix: Optional[int] = None
    fixed_seq_len_extend: Optional[int] = None
    query_seq_len: Optional[int] = None
    kv_seq_len: Optional[int] = None
    block_size: Optional[int] = None

    def __iter__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if v:
                yield v


def _symbols():
    from ...lang import sym
    return sym


_S = _symbols()
H = _S.H
H_Q = _S.H_Q
H_KV = _S.H_KV
N_Q = _S.N_D
N_KV = _S.N_KV
D_Q = _S.D_Q
D_KV = _S.D_KV
BLOCK_H = _S.BLOCK_H
BLOCK_H_Q = _S.BLOCK_H_Q
BLOCK_H_KV = _S.BLOCK_H_KV
BLOCK_N_Q = _S.BLOCK_N_Q
BLOCK_N_KV = _S.BLOCK_N_KV
BLOCK_D_Q = _S.BLOCK_D_Q
BLOCK_D_KV = _S.BLOCK_D_KV
