"""Wave's wave_lang.kernel.wave.iree_utils: generate_iree_ref, the reference results Wave's GEMM tests compare
with (Wave builds them with IREE). wavecc computes them with numpy, in f32 (f64 for f64 inputs): "mmt"
(out = lhs @ rhs^T), "bmmt" (batched), "chain_mmt" (attention's two GEMMs, the first result cast to the inputs'
dtype), "mmt_f8" and "chain_mmt_f8" (the inputs, and the first GEMM's result, rounded to f8e4m3fnuz, as Wave's f8
kernels cast them). bf16 numpy arrays are their bit patterns (wavecc.bfloat16, wavecc.bf16). The f8 kinds and convolutions
are not here. With options.run_bench the numpy reference's host time is written as Wave's benchmark results.
"""


def _np():
    import numpy
    return numpy


def _is_torch(t):
    return not isinstance(t, _np().ndarray) and hasattr(t, "detach")


def _host(t):
    """A float32 numpy copy of a numpy array or a CPU torch tensor."""
    np = _np()
    if _is_torch(t):
        t = t.detach().float().cpu().numpy()
    a = np.asarray(t)
    from .... import bf16
    if bf16.is_bf16_dtype(a.dtype):
        return bf16.from_bf16(a)
    return a.astype(np.float64 if a.dtype == np.float64 else np.float32)


def _store(out, r):
    np = _np()
    if _is_torch(out):
        import torch
        out[...] = torch.from_numpy(np.ascontiguousarray(r)).to(out.dtype)
    else:
        from .... import bf16
        out[...] = bf16.to_bf16(r) if bf16.is_bf16_dtype(out.dtype) else r.astype(out.dtype)


def _mmt(a, b):
    np = _np()
    return np.matmul(a, np.swapaxes(b, -1, -2))


# f8e4m3fnuz: 3 mantissa bits, smallest normal exponent -7, largest value 240
_F8_E4M3FNUZ = (3, -7, 240.0)


def round_to_f8(x, fmt=_F8_E4M3FNUZ):
    """x (float32) rounded to an f8 format's values (to nearest, ties to even; beyond the largest: saturated)."""
    np = _np()
    mant, min_exp, largest = fmt
    x = np.asarray(x, dtype=np.float64)
    mag = np.abs(x)
    e = np.floor(np.log2(np.where(mag > 0, mag, 1.0)))
    step = np.exp2(np.maximum(e, min_exp) - mant)
    r = np.round(x / step) * step
    return np.clip(r, -largest, largest).astype(np.float32)


def generate_iree_ref(kernel_type, kernel_inputs, kernel_outputs, options=None, **kwargs):
    import time
    t0 = time.perf_counter()
    _reference(kernel_type, kernel_inputs, kernel_outputs)
    if options is not None and getattr(options, "run_bench", False):
        # Wave benchmarks IREE's module; wavecc's reference is numpy, so its results are numpy's wall time on
        # the host (a measurement of the reference, not of a GPU), in Wave's format
        from .utils.run_utils import bench_results, print_bench_result
        print_bench_result(bench_results("numpy_reference_%s" % kernel_type, time.perf_counter() - t0,
                                         options.benchmark_repetitions, "numpy_reference_on_host_cpu"),
                           options.benchmark_results_file)


def _reference(kernel_type, kernel_inputs, kernel_outputs):
    np = _np()
    ins = [_host(t) for t in kernel_inputs]
    if kernel_type in ("mmt", "bmmt"):
        r = _mmt(ins[0], ins[1])
    elif kernel_type == "mmt_f8":
        r = _mmt(round_to_f8(ins[0]), round_to_f8(ins[1]))
    elif kernel_type == "chain_mmt":
        q, k, v = ins
        in_dt = kernel_inputs[0].dtype
        s = np.matmul(k, np.swapaxes(q, 1, 2))                       # [B, K2, M]
        if not _is_torch(kernel_inputs[0]):
            s = s.astype(in_dt).astype(np.float32)                    # the cast to the inputs' dtype
        r = np.swapaxes(np.matmul(np.swapaxes(s, 1, 2), np.swapaxes(v, 1, 2)), 1, 2)  # [B, N, M]
    elif kernel_type == "chain_mmt_f8":
        q, k, v = (round_to_f8(x) for x in ins)
        s = round_to_f8(np.matmul(k, np.swapaxes(q, 1, 2)))          # [B, K2, M], cast to f8
        r = np.swapaxes(np.matmul(np.swapaxes(s, 1, 2), np.swapaxes(v, 1, 2)), 1, 2)  # [B, N, M]
    else:
        raise NotImplementedError("generate_iree_ref(%r): wavecc's numpy reference has mmt, bmmt, mmt_f8, "
                                  "chain_mmt and chain_mmt_f8"
                                  % kernel_type)
    _store(kernel_outputs[0], r)
