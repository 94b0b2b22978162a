"""Wave's wave_lang.kernel.wave.utils.compile_utils: set_default_compile_config (its lit tests' options)."""


def set_default_compile_config(options):
    """Wave's: the hip device and gfx942 (wavecc's default target too)."""
    options.device = "hip"
    options.target = "gfx942"
    return options
