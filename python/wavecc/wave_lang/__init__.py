"""wavecc.wave_lang — Wave's public module paths over wavecc (docs/python.md)."""
