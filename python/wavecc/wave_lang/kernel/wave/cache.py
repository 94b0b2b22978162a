"""Wave's wave_lang.kernel.wave.cache: Wave's on-disk kernel cache (WAVE_CACHE_ON, a session cache with hit and
miss counts). wavecc's Python package keeps none of its own, so is_cache_enabled() is False (Wave's cache tests
skip, as they do with WAVE_CACHE_ON=0); libwavecc's opt-in compile cache is the command line's `--cache-dir`
(wavecc.Kernel.compile(cache_dir=...))."""


def is_cache_enabled():
    return False


def _no_cache(*args, **kwargs):
    raise NotImplementedError("wavecc keeps no Wave kernel cache (is_cache_enabled() is False); libwavecc's compile "
                              "cache is wavecc.Kernel.compile(cache_dir=...)")


get_cache_manager = _no_cache
reset_cache_manager = _no_cache
