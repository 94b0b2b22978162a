"""Wave's wave_lang.kernel.wave.utils.run_utils: set_default_run_config."""


def set_default_run_config(options):
    """Wave points the options at the local GPU; wavecc runs on its emulator, so the target stays."""
    return options
