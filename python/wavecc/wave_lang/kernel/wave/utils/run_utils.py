"""Wave's wave_lang.kernel.wave.utils.run_utils: set_default_run_config and the environment flags Wave's tests
read (WAVE_DUMP_MLIR, WAVE_USE_SCHED_BARRIERS, WAVE_CHECK_INDIV_KERNS, as Wave reads them)."""
import os

dump_generated_mlir = int(os.environ.get("WAVE_DUMP_MLIR", 0))
dump_generated_mlir_file = os.environ.get("WAVE_DUMP_MLIR_FILE", None)
enable_scheduling_barriers = os.environ.get("WAVE_USE_SCHED_BARRIERS", None)
check_individual_kernels = os.environ.get("WAVE_CHECK_INDIV_KERNS", None)


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
