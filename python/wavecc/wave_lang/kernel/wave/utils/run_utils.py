"""Wave's wave_lang.kernel.wave.utils.run_utils: set_default_run_config."""


def set_default_run_config(options):
    """Wave points the options at the local GPU's target; wavecc runs on its emulator, so the target stays, but
    for $WAVECC_TARGET (e.g. gfx950: the target Wave's require_cdna4 tests want, get_default_arch's answer)."""
    import os
    if os.environ.get("WAVECC_TARGET"):
        options.target = os.environ["WAVECC_TARGET"]
    return options


def get_default_arch():
    """The target wavecc compiles for by default (Wave: the local GPU's): $WAVECC_TARGET, else gfx942."""
    import os
    return os.environ.get("WAVECC_TARGET") or "gfx942"


def get_arch_family():
    return "CDNA"
