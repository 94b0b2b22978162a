"""wavecc.wave_lang.kernel — as Wave's wave_lang.kernel."""
