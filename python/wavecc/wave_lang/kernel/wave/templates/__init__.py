"""Wave's wave_lang.kernel.wave.templates: only attention_common's AttentionShape is here (Wave's kernel
templates are Wave's programs, not part of wavecc)."""
