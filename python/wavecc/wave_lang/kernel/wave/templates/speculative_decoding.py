"""Wave's wave_lang.kernel.wave.templates.speculative_decoding: not implemented by wavecc's templates.

Wave's speculative sampling kernel nests two while loops: the outer one's condition over a carried flag
(`Eq(GET_ITER_ARG(6), 0)`) is in wavecc-kernel/1 (docs/kernel-format.md, "Loops with a condition"), but the inner
loop's axis CUR_INDEX is itself a value read from memory (its start and next value are reads of the draft tree),
bounded by nothing but the data, and it runs inside a body that is conditional on read values; wavecc does not
compile such loops, so get_speculative_sampling_kernel raises NotImplementedError saying so.
"""

_WHY = ("its inner loop's axis CUR_INDEX is a value read from memory (the draft tree's next token and sibling), "
        "a loop wavecc-kernel/1 does not compile (docs/kernel-format.md, \"Loops with a condition\": conditions "
        "over carried values compile, loops over read indices do not)")


def get_speculative_sampling_kernel(*args, **kwargs):
    raise NotImplementedError(
        "templates.speculative_decoding.get_speculative_sampling_kernel is not implemented by wavecc: " + _WHY)


def get_speculative_decoding_kernel(*args, **kwargs):
    """Wave's earlier name of get_speculative_sampling_kernel (its tests until mid 2025)."""
    raise NotImplementedError(
        "templates.speculative_decoding.get_speculative_decoding_kernel is not implemented by wavecc: " + _WHY)
