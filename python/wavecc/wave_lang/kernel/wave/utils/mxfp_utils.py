"""Wave's wave_lang.kernel.wave.utils.mxfp_utils in numpy: MXFP4 inputs, conversions, preshuffles and the
reference scaled GEMM. Packed FP4 (e2m1) is two values per uint8, the low nibble first; an e8m0 scale byte s is
2^(s - 127) (255 is NaN); one scale per SCALE_GROUP_SIZE k.
"""
import numpy as np

SCALE_GROUP_SIZE = 32

_E2M1 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0],
                 dtype=np.float32)


def _np(x):
    return x.detach().cpu().numpy() if hasattr(x, "detach") else np.asarray(x)


def generate_gemm_afp4wfp4_inputs(shape, device=None, seed=5):
    """(x [M, K/2] u8, w [K/2, N] u8 (transposed: the kernel takes w.T), x_scales [M, K/32], w_scales [N, K/32]):
    random nibbles, scales from 124 to 127 (0.125 to 1)."""
    m, n, k = shape
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 256, (m, k // 2), dtype=np.uint8)
    w = np.ascontiguousarray(rng.integers(0, 256, (n, k // 2), dtype=np.uint8).T)
    xs = rng.integers(124, 128, (m, k // SCALE_GROUP_SIZE), dtype=np.uint8)
    ws = rng.integers(124, 128, (n, k // SCALE_GROUP_SIZE), dtype=np.uint8)
    return x, w, xs, ws


def mxfp4_to_f32(x):
    """[R, C] packed bytes to [R, 2C] float32 values."""
    x = _np(x)
    out = np.empty((x.shape[0], x.shape[1] * 2), np.float32)
    out[:, 0::2] = _E2M1[x & 0xF]
    out[:, 1::2] = _E2M1[x >> 4]
    return out


def e8m0_to_f32(x):
    x = _np(x).astype(np.float32)
    out = np.exp2(x - 127.0).astype(np.float32)
    out[x == 255] = np.nan
    return out


def b_preshuffle(b):
    """Each 16-row x 32-byte tile of [N, K/2] reordered [n, k_sub, k_elem] -> [k_sub, n, k_elem]."""
    b = _np(b)
    n, kp = b.shape
    return np.ascontiguousarray(b.reshape(n // 16, 16, kp // 32, 2, 16).transpose(0, 2, 3, 1, 4)).reshape(n, kp)


def e8m0_shuffle(scale):
    """The hardware preshuffle layout of an [m, n] scale matrix (padded to 256 x 8 for the reorder)."""
    s = _np(scale)
    m, n = s.shape
    pm, pn = -(-m // 256) * 256, -(-n // 8) * 8
    p = np.zeros((pm, pn), s.dtype)
    p[:m, :n] = s
    p = p.reshape(pm // 32, 2, 16, pn // 8, 2, 4).transpose(0, 3, 5, 2, 4, 1)
    return np.ascontiguousarray(np.ascontiguousarray(p).reshape(pm, pn)[:m, :n])


def torchScaledGemmMXFP4(x, w, x_scales, w_scales):
    """x [M, K/2] and w [K/2, N] packed, scales [M, K/32] and [N, K/32]: the dequantised product, float32."""
    xf = mxfp4_to_f32(x) * np.repeat(e8m0_to_f32(x_scales), SCALE_GROUP_SIZE, axis=1)
    wf = mxfp4_to_f32(np.ascontiguousarray(_np(w).T)) * np.repeat(e8m0_to_f32(w_scales), SCALE_GROUP_SIZE, axis=1)
    return (xf.astype(np.float64) @ wf.astype(np.float64).T).astype(np.float32)
