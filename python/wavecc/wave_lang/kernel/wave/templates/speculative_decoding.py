"""Wave's wave_lang.kernel.wave.templates.speculative_decoding: not implemented by wavecc's templates.

Wave's speculative sampling kernel leaves its loops on flags it reads from memory (a loop condition on a read
value), which wavecc-kernel/1 does not compile (docs/kernel-format.md, "Loops with a condition"), so
get_speculative_sampling_kernel raises NotImplementedError saying so.
"""


def get_speculative_sampling_kernel(*args, **kwargs):
    raise NotImplementedError(
        "templates.speculative_decoding.get_speculative_sampling_kernel is not implemented by wavecc: its loops end "
        "on flags read from memory (a loop condition on a read value), which wavecc-kernel/1 does not compile")


def get_speculative_decoding_kernel(*args, **kwargs):
    """Wave's earlier name of get_speculative_sampling_kernel (its tests until mid 2025)."""
    raise NotImplementedError(
        "templates.speculative_decoding.get_speculative_decoding_kernel is not implemented by wavecc: its loops end "
        "on flags read from memory (a loop condition on a read value), which wavecc-kernel/1 does not compile")
