"""Wave's wave_lang.kernel.wave.utils.reference_kernel_utils in numpy (torch tensors go through numpy).

scaled_dot_product_attention_bhsd(query, key, value, is_causal, sliding_window, custom_mask): softmax(q k^T /
sqrt(D)) v over [B, H, S, D] arrays in float32; causal keeps k <= q (and q - k <= sliding_window when it is
>= 0); custom_mask [B, S_q] masks whole query rows (nonzero = masked); a row with every key masked gives 0.
"""


def _to_numpy(x):
    import numpy as np
    if hasattr(x, "detach"):  # a torch tensor
        x = x.detach().cpu().float().numpy()
    return np.asarray(x)


def scaled_dot_product_attention_bhsd(query, key, value, is_causal=False, sliding_window=-1, custom_mask=None):
    import numpy as np
    q, k, v = (_to_numpy(x).astype(np.float32) for x in (query, key, value))
    if sliding_window >= 0 and not is_causal:
        raise AssertionError("Sliding window only supported with causal")
    logits = (q @ np.swapaxes(k, -1, -2)) * np.float32(q.shape[-1] ** -0.5)
    sq, sk = logits.shape[-2:]
    if is_causal:
        rows, cols = np.arange(sq)[:, None], np.arange(sk)[None, :]
        keep = cols <= rows
        if sliding_window >= 0:
            keep &= cols >= rows - sliding_window
        logits = np.where(keep, logits, -np.inf)
    if custom_mask is not None:
        m = _to_numpy(custom_mask).astype(bool)[:, None, :, None]
        logits = np.where(m, -np.inf, logits)
    with np.errstate(invalid="ignore"):
        top = np.max(logits, axis=-1, keepdims=True)
        e = np.exp(logits - top)
        w = np.nan_to_num(e / e.sum(-1, keepdims=True), nan=0.0)
    out = (w @ v).astype(np.float32)
    try:
        import torch
        if hasattr(query, "detach"):
            return torch.from_numpy(out)
    except ImportError:
        pass
    return out
