"""Wave's wave_lang.kernel.wave.schedules.attention_prefetch: accepted by wave_compile, not applied
(schedules/_manual.py)."""
from ._manual import manual

get_attention_prefetch_schedule = manual("attention_prefetch_schedule", "prefetching attention schedule")
