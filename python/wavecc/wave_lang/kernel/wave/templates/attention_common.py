"""Wave's wave_lang.kernel.wave.templates.attention_common: AttentionShape, the shape record attention tests pass
around (the fields Wave names; unset ones are None and skipped by iteration)."""
from dataclasses import dataclass, fields
from typing import Optional


@dataclass
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
