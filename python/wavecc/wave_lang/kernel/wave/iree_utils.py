"""Wave's wave_lang.kernel.wave.iree_utils: generate_iree_ref, the reference results Wave's GEMM tests compare
with (Wave builds them with IREE). wavecc computes them with numpy, in f32 (f64 for f64 inputs): "mmt"
(out = lhs @ rhs^T), "bmmt" (batched), "chain_mmt" (attention's two GEMMs, the first result cast to the inputs'
dtype). bf16 numpy arrays are their bit patterns (wavecc.bfloat16, wavecc.bf16). The f8 kinds and convolutions
are not here."""


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


def generate_iree_ref(kernel_type, kernel_inputs, kernel_outputs, options=None, **kwargs):
    np = _np()
    ins = [_host(t) for t in kernel_inputs]
    if kernel_type in ("mmt", "bmmt"):
        r = _mmt(ins[0], ins[1])
    elif kernel_type == "chain_mmt":
        q, k, v = ins
        in_dt = kernel_inputs[0].dtype
        s = np.matmul(k, np.swapaxes(q, 1, 2))                       # [B, K2, M]
        if not _is_torch(kernel_inputs[0]):
            s = s.astype(in_dt).astype(np.float32)                    # the cast to the inputs' dtype
        r = np.swapaxes(np.matmul(np.swapaxes(s, 1, 2), np.swapaxes(v, 1, 2)), 1, 2)  # [B, N, M]
    else:
        raise NotImplementedError("generate_iree_ref(%r): wavecc's numpy reference has mmt, bmmt and chain_mmt"
                                  % kernel_type)
    _store(kernel_outputs[0], r)
