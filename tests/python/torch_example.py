"""torch_example.py — Wave programs that work with torch, on CPU torch tensors (run in a process of
its own by run_tests.py: importing torch changes what Wave's torch_utils makers return).

Wave's 5_gemm.py GEMM as Wave writes it, its tensors made by torch on the CPU (Wave's `device="cuda"`
becomes "cpu"), and a bf16 GEMM whose tensors come from Wave's device_randn with torch dtypes; the
results are written into the torch tensors and checked with torch. Also the rule the makers follow:
torch tensors for a program that imported torch, numpy arrays where it names a numpy dtype.
Prints SKIP and passes without torch (Debian's python3-torch is optional)."""
import sys

try:
    import torch
except ImportError:
    print("SKIP: torch_example.py needs torch (python3-torch)")
    sys.exit(0)

import numpy as np

import wavecc.wave_lang.kernel.lang as tkl
import wavecc.wave_lang.kernel.wave as tkw
from wavecc.wave_lang.kernel.lang.global_symbols import GLOBAL_ADDRESS_SPACE
from wavecc.wave_lang.kernel.wave.compile import WaveCompileOptions, wave_compile
from wavecc.wave_lang.kernel.wave.utils.run_utils import set_default_run_config
from wavecc.wave_lang.kernel.wave.utils.torch_utils import device_randn, device_zeros

M, N, K = tkl.sym.M, tkl.sym.N, tkl.sym.K
BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE


def gemm_kernel(in_dtype):
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / 2),
        tkw.WaveConstraint(N, BLOCK_N / 2),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=tkw.MMAType.F32_16x16x16_F16,
                               vector_shapes={M: 16, N: 16, K: 16}),
    ]

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[M, K, ADDRESS_SPACE, in_dtype], b: tkl.Memory[N, K, ADDRESS_SPACE, in_dtype],
             c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        c_reg = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[c_reg])
        def repeat(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            a_reg = tkw.read(a)
            b_reg = tkw.read(b)
            acc = tkw.mma(a_reg, b_reg, acc)
            return acc

        tkw.write(repeat, c)

    return gemm


def compile_gemm(in_dtype, m, n, k):
    options = WaveCompileOptions(subs={ADDRESS_SPACE: GLOBAL_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64,
                                       BLOCK_K: 32, M: m, N: n, K: k})
    return wave_compile(set_default_run_config(options), gemm_kernel(in_dtype))


def gemm_torch_tensors():
    """5_gemm.py's test with torch tensors on the CPU."""
    m, n, k = 64, 64, 64
    torch.manual_seed(0)
    a = torch.randn(m, k, dtype=torch.float16, device="cpu")
    b = torch.randn(n, k, dtype=torch.float16, device="cpu")
    c = torch.zeros(m, n, dtype=torch.float32, device="cpu")
    compile_gemm(tkl.f16, m, n, k)(a, b, c)
    expected = torch.matmul(a.float(), b.float().T)
    torch.testing.assert_close(c, expected, rtol=1e-3, atol=1e-3)


def gemm_bf16_device_randn():
    """bf16 tensors from Wave's device_randn with torch's dtype, the result in a torch tensor."""
    m, n, k = 64, 128, 96
    a = device_randn(m, k, dtype=torch.bfloat16)
    b = device_randn(n, k, dtype=torch.bfloat16)
    c = device_zeros(m, n, dtype=torch.float32)
    assert isinstance(a, torch.Tensor) and a.dtype == torch.bfloat16 and isinstance(c, torch.Tensor)
    compile_gemm(tkl.bf16, m, n, k)(a, b, c)
    expected = torch.matmul(a.float(), b.float().T)
    torch.testing.assert_close(c, expected, rtol=1e-3, atol=1e-3)


def makers_follow_the_program():
    """torch imported: torch tensors for torch, Wave and no dtypes; numpy arrays for numpy dtypes."""
    assert isinstance(device_randn(4, 8), torch.Tensor)
    assert device_randn((4, 8), dtype=tkl.f16).dtype == torch.float16
    assert isinstance(device_zeros(4, 8, dtype=np.float16), np.ndarray)


def main():
    failed = 0
    for fn in (gemm_torch_tensors, gemm_bf16_device_randn, makers_follow_the_program):
        try:
            fn()
            print("PASS torch.%s" % fn.__name__)
        except Exception:
            import traceback
            failed += 1
            print("FAIL torch.%s" % fn.__name__)
            traceback.print_exc(file=sys.stdout)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
