"""Wave's wave_lang.kernel.wave.templates.conv, written for wavecc's tracer.

get_igemm_conv2d: a 2-D convolution (no padding) as an implicit GEMM: out[m, nf] = sum_k x[m, k] w[nf, k] with
m = (image, output row, output column) and k = (filter row, filter column, channel) flattened; the image and the
filters are read through index expressions of the GEMM's iterators m, k, nf (bound to the dims M, K, NF), so no
im2col buffer exists. Layouts "nchw_fchw" and "nhwc_hwcf". Returns (kernel, symbols).

Wave writes the GEMM's dims M and K and the output extents as expressions of the image's symbols; the format names
a register's dims by symbols, so here M, K, H_OUT, W_OUT and SZ_OUT are symbols whose values (in the returned
symbols) are those expressions.
"""
from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE


def get_igemm_conv2d(layout, n, h, w, c, hf, wf, nf, stride, input_dtype, output_dtype,
                     mem_space=SHARED_ADDRESS_SPACE, block_m=None, block_n=None, block_k=None, ratio_m=None,
                     ratio_n=None):
    if input_dtype != tkl.f16:
        raise AssertionError("Unsupported input dtype: %s" % input_dtype)
    if output_dtype != tkl.f32:
        raise AssertionError("Unsupported output dtype: %s" % output_dtype)
    S = tkl.sym
    N, C, H, W, NF, HF, WF = S.N, S.C, S.H, S.W, S.NF, S.HF, S.WF
    M, K, H_OUT, W_OUT, SZ_OUT = S.M, S.K, S.H_OUT, S.W_OUT, S.SZ_OUT
    BLOCK_M, BLOCK_N, BLOCK_K, AS, EPT = S.BLOCK_M, S.BLOCK_N, S.BLOCK_K, S.ADDRESS_SPACE, S.ELEMS_PER_THREAD
    symbols = {N: n, C: c, W: w, H: h, NF: nf, WF: wf, HF: hf,
               H_OUT: (H - HF) // stride + 1, W_OUT: (W - WF) // stride + 1, SZ_OUT: H_OUT * W_OUT,
               K: HF * WF * C, M: SZ_OUT * N,
               BLOCK_M: block_m or 64, BLOCK_N: block_n or 128, BLOCK_K: block_k or 32, EPT: 4, AS: mem_space}

    # the GEMM's iterators and what they index
    im, ik, inf = S.m, S.k, S.nf
    f_col = (ik // C) // WF         # Wave's order: k = (filter column, filter row, channel)
    f_row = (ik // C) % WF
    chan = ik % C
    img = im // SZ_OUT
    o_row = (im % SZ_OUT) % W_OUT
    o_col = (im % SZ_OUT) // W_OUT
    x_row, x_col = o_row * stride + f_row, o_col * stride + f_col
    if layout == "nchw_fchw":
        x_t = tkl.Memory[N, C, H, W, AS, input_dtype]
        w_t = tkl.Memory[NF, C, HF, WF, AS, input_dtype]
        o_t = tkl.Memory[N, NF, H_OUT, W_OUT, GLOBAL_ADDRESS_SPACE, output_dtype]
        x_at, w_at, o_at = (img, chan, x_row, x_col), (inf % NF, chan, f_row, f_col), (img, inf, o_row, o_col)
    elif layout == "nhwc_hwcf":
        x_t = tkl.Memory[N, H, W, C, AS, input_dtype]
        w_t = tkl.Memory[HF, WF, C, NF, AS, input_dtype]
        o_t = tkl.Memory[N, H_OUT, W_OUT, NF, GLOBAL_ADDRESS_SPACE, output_dtype]
        x_at, w_at, o_at = (img, x_row, x_col, chan), (f_row, f_col, chan, inf % NF), (img, o_row, o_col, inf)
    else:
        raise ValueError("Unsupported layout: %s" % layout)

    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 1),
        tkw.WorkgroupConstraint(NF, BLOCK_N, 0),
        tkw.WaveConstraint(M, BLOCK_M / (ratio_m or 2)),
        tkw.WaveConstraint(NF, BLOCK_N / (ratio_n or 2)),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.HardwareConstraint(threads_per_wave=64),
        tkw.IteratorBindings({im: M, ik: K, inf: NF}),
    ]

    @tkw.wave(constraints)
    def conv(x: x_t, we: w_t, out: o_t):
        zero = tkl.Register[M, NF, output_dtype](0.0)

        @tkw.iterate(K, init_args=[zero])
        def k_loop(acc: tkl.Register[M, NF, output_dtype]) -> tkl.Register[M, NF, output_dtype]:
            xs = tkw.read(x, source=x_at, target=(im, ik), elements_per_thread=EPT)
            ws = tkw.read(we, source=w_at, target=(inf, ik), elements_per_thread=EPT)
            return tkw.mma(xs, ws, acc)

        tkw.write(k_loop, out, source=(im, inf), target=o_at, elements_per_thread=EPT)

    return conv, symbols
