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


def write_file(filename, mode, data):
    with open(str(filename), mode) as f:
        f.write(data)


def print_bench_result(result, filename):
    """Wave's: the benchmark results as JSON (sorted keys, indent 4) into filename, else printed."""
    import json
    res = json.dumps(result, sort_keys=True, indent=4)
    if filename is not None:
        write_file(filename, "w", res)
    else:
        print(res)


def get_benchmark_flags(options):
    flags = {"batch_size": options.benchmark_batch_size}
    if options.benchmark_repetitions is not None:
        flags["benchmark_repetitions"] = int(options.benchmark_repetitions)
    return flags


def bench_results(name, seconds, repetitions, source):
    """Results in the shape of Wave's (iree-benchmark-module's lines as BenchmarkResult tuples: benchmark_name,
    time, cpu_time, iterations, user_counters), one per repetition, with `source` saying where the time comes
    from: wavecc runs nothing on a GPU, so a kernel's time is the cycle model's estimate."""
    t = "%.3f us" % (seconds * 1e6)
    reps = max(int(repetitions or 1), 1)
    return [["BM_%s/process_time/real_time" % name, t, t, "1", source] for _ in range(reps)]
