/* wave_test.c — Wave's own end-to-end tests (iree-org/wave,
 * tests/kernel/e2e/ and the GEMM and attention tests of tests/kernel/),
 * transcribed into wavecc kernels under
 * tests/driver/wave/ (which test each JSON transcribes: wave/README.md).
 *
 * Every case runs `wavecc run` on gfx942 and on gfx90a, the gfx90a run in
 * the emulator's adversarial modes (random wave order, reversed workgroups,
 * garbage-filled memory and registers) and strict ones (late memory: a
 * missing s_waitcnt fails; races: a missing s_barrier or a write/write
 * between workgroups fails; canary: a buffer store just out of bounds
 * fails; docs/emulator.md). A supported case
 * must print PASS; a case wavecc does not support yet must give a located
 * error (file:line:col: error:) containing the substring it lists. FAIL is
 * never accepted. Cases that expose a compiler bug (FAIL or an unlocated or
 * internal error) live in known_bugs[] and run only with WAVECC_WAVE_KNOWN=1,
 * so main stays green while the bug stays visible. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../test.h"
#include "wave_inputs.h"

typedef struct {
	const char *args;   /* kernel file under tests/driver/wave/ and its -D values */
	const char *reject; /* NULL: must PASS; else the expected located error text */
	const char *only;   /* NULL, or the one target that has the case's MMA
	                       instruction: the other must reject it, naming itself */
} WaveCase;

/* test_copy.py::test_copy, default_test_shapes of e2e/_test_util.py; BLOCK_N
 * is Max(Min(N, 256), 64) as in the Wave template. */
/* test_conv.py::test_igemm_conv: templates/conv.py get_igemm_conv2d (64x128x32
 * tiles, 2x2 waves, ELEMS_PER_THREAD 4, f16 -> f32) in both layouts and both
 * memory spaces, at every shape of _igemm_cases (n, h, w, c, hf, wf, nf,
 * stride) but the perf_test ones; each case runs on both targets. */
static const char *const igemm_files[] = {
	"igemm_conv_nhwc_shared.json", "igemm_conv_nhwc_global.json",
	"igemm_conv_nchw_shared.json", "igemm_conv_nchw_global.json",
};
static const char *const igemm_shapes[] = {
	"-D N=1 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=2 -D stride=2",
	"-D N=2 -D H=5 -D W=5 -D C=3 -D HF=2 -D WF=2 -D NF=1 -D stride=1",
	"-D N=4 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=2 -D stride=1",
	"-D N=2 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=1 -D stride=1",
	"-D N=2 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=2 -D stride=1",
	"-D N=1 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=16 -D stride=1",
	"-D N=1 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=1 -D stride=2",
	"-D N=1 -D H=5 -D W=5 -D C=4 -D HF=2 -D WF=2 -D NF=2 -D stride=1",
	"-D N=4 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=2 -D stride=3",
	"-D N=4 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=1 -D stride=3",
	"-D N=4 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=16 -D stride=2",
	"-D N=1 -D H=5 -D W=5 -D C=3 -D HF=2 -D WF=2 -D NF=2 -D stride=2",
	"-D N=4 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=16 -D stride=1",
	"-D N=4 -D H=5 -D W=5 -D C=4 -D HF=2 -D WF=2 -D NF=16 -D stride=1",
	"-D N=2 -D H=5 -D W=5 -D C=4 -D HF=2 -D WF=2 -D NF=1 -D stride=3",
	"-D N=2 -D H=5 -D W=5 -D C=4 -D HF=2 -D WF=2 -D NF=2 -D stride=1",
	"-D N=1 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=16 -D stride=3",
	"-D N=4 -D H=5 -D W=5 -D C=4 -D HF=2 -D WF=2 -D NF=16 -D stride=2",
	"-D N=4 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=2 -D stride=1",
	"-D N=4 -D H=5 -D W=5 -D C=3 -D HF=2 -D WF=2 -D NF=1 -D stride=1",
	"-D N=4 -D H=5 -D W=5 -D C=4 -D HF=2 -D WF=2 -D NF=2 -D stride=1",
	"-D N=4 -D H=5 -D W=5 -D C=3 -D HF=2 -D WF=2 -D NF=2 -D stride=1",
	"-D N=2 -D H=5 -D W=5 -D C=1 -D HF=2 -D WF=2 -D NF=1 -D stride=3",
	"-D N=2 -D H=5 -D W=5 -D C=4 -D HF=2 -D WF=2 -D NF=2 -D stride=1",
	"-D N=2 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=16 -D stride=1",
	"-D N=1 -D H=5 -D W=5 -D C=1 -D HF=3 -D WF=3 -D NF=1 -D stride=1",
};

static const WaveCase cases[] = {
	{"copy.json -D M=1 -D N=27", NULL, NULL},
	{"copy.json -D M=111 -D N=813", NULL, NULL},
	{"copy.json -D M=1 -D N=128", NULL, NULL},
	{"copy.json -D M=256 -D N=64", NULL, NULL},
	{"copy.json -D M=256 -D N=128", NULL, NULL},
	{"copy.json -D M=256 -D N=256", NULL, NULL},
	{"copy.json -D M=256 -D N=1024", NULL, NULL},
	/* test_copy.py::test_dynamic_copy: M and N dynamic, BLOCK_N fixed at
	 * compile time from the shape as Wave does */
	{"dynamic_copy.json -D M=1 -D N=27 -D BLOCK_N=64", NULL, NULL},
	{"dynamic_copy.json -D M=111 -D N=813 -D BLOCK_N=256", NULL, NULL},
	{"dynamic_copy.json -D M=1 -D N=128 -D BLOCK_N=128", NULL, NULL},
	{"dynamic_copy.json -D M=256 -D N=64 -D BLOCK_N=64", NULL, NULL},
	{"dynamic_copy.json -D M=256 -D N=128 -D BLOCK_N=128", NULL, NULL},
	{"dynamic_copy.json -D M=256 -D N=256 -D BLOCK_N=256", NULL, NULL},
	{"dynamic_copy.json -D M=256 -D N=1024 -D BLOCK_N=256", NULL, NULL},
	/* test_memory_ops.py::test_offset_read: b[i, j] = a[off[i, j], j] (the
	 * mapping {M: k, N: j}, k the dynamic value off[i, j]); test_copy shapes;
	 * the random i32 offsets (-8..7) put about half the rows out of bounds */
	{"offset_read.json -D M=1 -D N=27", NULL, NULL},
	{"offset_read.json -D M=111 -D N=813", NULL, NULL},
	{"offset_read.json -D M=1 -D N=128", NULL, NULL},
	{"offset_read.json -D M=256 -D N=64", NULL, NULL},
	{"offset_read.json -D M=256 -D N=128", NULL, NULL},
	{"offset_read.json -D M=256 -D N=256", NULL, NULL},
	{"offset_read.json -D M=256 -D N=1024", NULL, NULL},
	/* test_memory_ops.py::test_offset_write: b[i, off[i, j]] = a[i, j], off a
	 * permutation of each row (Wave's randperm(N).repeat(M, 1)) */
	{"offset_write.json -D M=1 -D N=27 --perm off:1,27,1", NULL, NULL},
	{"offset_write.json -D M=111 -D N=813 --perm off:111,813,1", NULL, NULL},
	{"offset_write.json -D M=1 -D N=128 --perm off:1,128,1", NULL, NULL},
	{"offset_write.json -D M=256 -D N=64 --perm off:256,64,1", NULL, NULL},
	{"offset_write.json -D M=256 -D N=128 --perm off:256,128,1", NULL, NULL},
	{"offset_write.json -D M=256 -D N=256 --perm off:256,256,1", NULL, NULL},
	{"offset_write.json -D M=256 -D N=1024 --perm off:256,1024,1", NULL, NULL},
	/* test_memory_ops.py::test_offset_read_one / test_offset_write_one: one
	 * offset per ELEMS_PER_THREAD = BLOCK_N/64 elements, off[M, N1] with
	 * Wave's dynamic_val_mappings {M: i, N1: j // ELEMS_PER_THREAD} (the
	 * offset read gets the index the access needs: passes/graph/dynindex.c);
	 * the write's offsets are Wave's randperm(N1) * ELEMS_PER_THREAD. Wave
	 * skips (111, 813) for the write (torch's scatter rejects the indices
	 * past N); here those stores are dropped, as the interpreter defines */
	{"offset_read_one.json -D M=1 -D N=27", NULL, NULL},
	{"offset_read_one.json -D M=111 -D N=813", NULL, NULL},
	{"offset_read_one.json -D M=1 -D N=128", NULL, NULL},
	{"offset_read_one.json -D M=256 -D N=64", NULL, NULL},
	{"offset_read_one.json -D M=256 -D N=128", NULL, NULL},
	{"offset_read_one.json -D M=256 -D N=256", NULL, NULL},
	{"offset_read_one.json -D M=256 -D N=1024", NULL, NULL},
	{"offset_write_one.json -D M=1 -D N=27 --perm off:1,27,1", NULL, NULL},
	{"offset_write_one.json -D M=111 -D N=813 --perm off:111,204,4", NULL, NULL},
	{"offset_write_one.json -D M=1 -D N=128 --perm off:1,64,2", NULL, NULL},
	{"offset_write_one.json -D M=256 -D N=64 --perm off:256,64,1", NULL, NULL},
	{"offset_write_one.json -D M=256 -D N=128 --perm off:256,64,2", NULL, NULL},
	{"offset_write_one.json -D M=256 -D N=256 --perm off:256,64,4", NULL, NULL},
	{"offset_write_one.json -D M=256 -D N=1024 --perm off:256,256,4", NULL, NULL},
	/* test_memory_ops.py::test_read_write_same: a = a + a in place */
	{"read_write_same.json -D M=1 -D N=27", NULL, NULL},
	{"read_write_same.json -D M=111 -D N=813", NULL, NULL},
	{"read_write_same.json -D M=1 -D N=128", NULL, NULL},
	{"read_write_same.json -D M=256 -D N=64", NULL, NULL},
	{"read_write_same.json -D M=256 -D N=128", NULL, NULL},
	{"read_write_same.json -D M=256 -D N=256", NULL, NULL},
	{"read_write_same.json -D M=256 -D N=1024", NULL, NULL},
	/* test_elementwise.py::test_vector_add, the first two default shapes */
	{"vector_add.json -D M=1 -D N=27", NULL, NULL},
	{"vector_add.json -D M=111 -D N=813", NULL, NULL},
	/* test_elementwise.py::test_cast, f32 -> f16 at (256, 64) */
	{"cast.json -D M=256 -D N=64", NULL, NULL},
	/* lit_tests/kernel/wave/casting.py::test_cast (a codegen test; here it
	 * runs) at its 16 x 16: f16 -> f32 -> i8 -> f16 -> i16 -> i32 -> f32 ->
	 * f16, then an i1 register cast to f16 written (the chain's value is
	 * dropped, as in Wave's test); lit_cast_chain writes the chain's value
	 * instead (arith.fptosi: toward zero, saturated to i32, wrapped to i8
	 * and i16) */
	{"lit_cast.json", NULL, NULL},
	{"lit_cast_chain.json", NULL, NULL},
	/* test_elementwise.py::test_broadcast_scaled_add at (256, 256): memory
	 * dims N/2 (an expression dim) */
	{"broadcast_scaled_add.json", NULL, NULL},
	/* test_scalar.py::test_scalar_codegen: scalar kernel arguments c and d
	 * (i32 and f32) at the first two test_copy shapes with Wave's values
	 * c = 1, d = 2 (e = Register(1) * c; b = a + e + d) */
	{"scalar_codegen_i32.json -D M=1 -D N=27 -D c=1 -D d=2", NULL, NULL},
	{"scalar_codegen_i32.json -D M=111 -D N=813 -D c=1 -D d=2", NULL, NULL},
	{"scalar_codegen_f32.json -D M=1 -D N=27 -D c=1.0 -D d=2.0", NULL, NULL},
	{"scalar_codegen_f32.json -D M=111 -D N=813 -D c=1.0 -D d=2.0", NULL, NULL},
	/* test_scalar.py::test_scalar_cond_copy, default shapes: a
	 * lane-dependent i32 scalar, lt, select of f16 scalars; the
	 * interpreter gives each element its thread's value (interp/threads.c) */
	{"scalar_cond_copy.json -D M=1 -D N=27", NULL, NULL},
	{"scalar_cond_copy.json -D M=111 -D N=813", NULL, NULL},
	{"scalar_cond_copy.json -D M=1 -D N=128", NULL, NULL},
	{"scalar_cond_copy.json -D M=256 -D N=64", NULL, NULL},
	{"scalar_cond_copy.json -D M=256 -D N=128", NULL, NULL},
	{"scalar_cond_copy.json -D M=256 -D N=256", NULL, NULL},
	{"scalar_cond_copy.json -D M=256 -D N=1024", NULL, NULL},
	/* test_reductions.py::test_reduce_sum: f16 operands and result,
	 * BLOCK_N = ceiling(N / 64) * 64. Kernel and interpreter sum in Wave's
	 * order (each lane's elements, then a butterfly over the lanes), each
	 * step rounded to f16: equal bit for bit */
	{"reduce_sum.json -D M=1 -D N=27", NULL, NULL},
	{"reduce_sum.json -D M=111 -D N=813", NULL, NULL},
	{"reduce_sum.json -D M=1 -D N=128", NULL, NULL},
	{"reduce_sum.json -D M=256 -D N=64", NULL, NULL},
	{"reduce_sum.json -D M=256 -D N=128", NULL, NULL},
	{"reduce_sum.json -D M=256 -D N=256", NULL, NULL},
	{"reduce_sum.json -D M=256 -D N=1024", NULL, NULL},
	/* test_reductions.py::test_block_reduce_sum, f32, 4 waves, shapes of
	 * common/shapes.py "test_block_reduce" */
	{"block_reduce_sum.json -D M=1 -D N=37", NULL, NULL},
	{"block_reduce_sum.json -D M=1 -D N=312", NULL, NULL},
	{"block_reduce_sum.json -D M=256 -D N=256", NULL, NULL},
	{"block_reduce_sum.json -D M=256 -D N=1024", NULL, NULL},
	/* tests/kernel/rmsnorm_test.py::test_rmsnorm (1, 5120): f16 block sum
	 * of squares over 4 waves, in Wave's order in kernel and interpreter */
	{"rmsnorm.json", NULL, NULL},
	/* test_reductions.py::test_toy_online_softmax: iterate over N (tiling
	 * BLOCK_N = Max(Min(128, N), 64)), running max and sum, f32 */
	{"toy_online_softmax.json -D M=1 -D N=27", NULL, NULL},
	{"toy_online_softmax.json -D M=111 -D N=813", NULL, NULL},
	{"toy_online_softmax.json -D M=1 -D N=128", NULL, NULL},
	{"toy_online_softmax.json -D M=256 -D N=64", NULL, NULL},
	{"toy_online_softmax.json -D M=256 -D N=128", NULL, NULL},
	{"toy_online_softmax.json -D M=256 -D N=256", NULL, NULL},
	{"toy_online_softmax.json -D M=256 -D N=1024", NULL, NULL},
	/* lit_tests/kernel/wave/codegen.py reductions (Wave checks their MLIR;
	 * here they run), at the lit tests' shapes and symbols */
	{"lit_multiple_local_reduce_sum.json", NULL, NULL}, /* f16 sum([a, b]) */
	{"lit_tiled_reduce_min.json", NULL, NULL},
	{"lit_tiled_reduce_min_unaligned.json", NULL, NULL},
	{"lit_tiled_reduce_max.json", "N is split over 4 waves", NULL},
	{"lit_reduction_and_elemwise.json", "N is split over 4 waves", NULL},
	/* lit_tests/kernel/wave/gemm.py::test_gemm_and_reduce (64, 128, 64),
	 * 32x32x16 tiles, 2x2 waves, F32_16x16x16_F16: a max over K of the A
	 * operand carried beside the accumulator, then c = acc / max (the max
	 * in the operand's rows, moved into the accumulator's for the
	 * division); also unaligned */
	{"lit_gemm_and_reduce.json", NULL, NULL},
	{"lit_gemm_and_reduce.json -D M=50 -D N=100 -D K=90", NULL, NULL},
	{"lit_multiple_reduction_iv.json", "N is split over 4 waves", NULL},
	{"lit_reduce_propagate_broadcast.json", "N is split over 8 waves", NULL},
	/* test_transpose.py::test_transpose_read: default shapes reversed
	 * (M = shape[1], N = shape[0]), a[M,N] read through the mapping
	 * {N: i, M: j} into b[N,M]; BLOCK_M = Max(Min(M, 256), 64), f16 */
	{"transpose_read.json -D M=27 -D N=1", NULL, NULL},
	{"transpose_read.json -D M=813 -D N=111", NULL, NULL},
	{"transpose_read.json -D M=128 -D N=1", NULL, NULL},
	{"transpose_read.json -D M=64 -D N=256", NULL, NULL},
	{"transpose_read.json -D M=128 -D N=256", NULL, NULL},
	{"transpose_read.json -D M=256 -D N=256", NULL, NULL},
	{"transpose_read.json -D M=1024 -D N=256", NULL, NULL},
	/* test_transpose.py::test_arbitrary_transpose: the same kernel (a[M,N]
	 * read through {N: i, M: j} into b[N,M], BLOCK_N 1, BLOCK_M =
	 * Max(Min(M, 256), 64)) at its shapes (M, N) = shape; use_buffer_ops
	 * chooses Wave's code generation only. (256, 256) is above. */
	{"transpose_read.json -D M=64 -D N=64", NULL, NULL},
	{"transpose_read.json -D M=512 -D N=512", NULL, NULL},
	{"transpose_read.json -D M=1024 -D N=1024", NULL, NULL},
	{"transpose_read.json -D M=512 -D N=256", NULL, NULL},
	{"transpose_read.json -D M=256 -D N=512", NULL, NULL},
	{"transpose_read.json -D M=1024 -D N=512", NULL, NULL},
	{"transpose_read.json -D M=512 -D N=1024", NULL, NULL},
	{"transpose_read.json -D M=2048 -D N=1024", NULL, NULL},
	{"transpose_read.json -D M=384 -D N=256", NULL, NULL},
	{"transpose_read.json -D M=768 -D N=512", NULL, NULL},
	{"transpose_read.json -D M=1280 -D N=512", NULL, NULL},
	{"transpose_read.json -D M=512 -D N=768", NULL, NULL},
	{"transpose_read.json -D M=64 -D N=1024", NULL, NULL},
	{"transpose_read.json -D M=1024 -D N=64", NULL, NULL},
	{"transpose_read.json -D M=128 -D N=2048", NULL, NULL},
	{"transpose_read.json -D M=2048 -D N=128", NULL, NULL},
	/* test_transpose.py::test_transpose_write: default shapes, a[M,N]
	 * written through the mapping {M: i, N: j} into b[N,M] */
	{"transpose_write.json -D M=1 -D N=27", NULL, NULL},
	{"transpose_write.json -D M=111 -D N=813", NULL, NULL},
	{"transpose_write.json -D M=1 -D N=128", NULL, NULL},
	{"transpose_write.json -D M=256 -D N=64", NULL, NULL},
	{"transpose_write.json -D M=256 -D N=128", NULL, NULL},
	{"transpose_write.json -D M=256 -D N=256", NULL, NULL},
	{"transpose_write.json -D M=256 -D N=1024", NULL, NULL},
	/* test_debug.py::test_debug_log_core: each debug_log is a write of
	 * its value to an output of its own (the buffer Wave adds), (256, 128)
	 * static and M, N dynamic; the log of the read through {M: i // 2}
	 * written back through the inverse mapping sends rows 2k and 2k + 1
	 * to row k, which is rejected (a race); test_debug_log_iteration_dims:
	 * the K loop's accumulator logged at [$ARGK, M, N] each trip (4 trips,
	 * (128, 256, 128), 64x64x32 tiles, 2x2 waves, a and b shared) */
	{"debug_log_core.json", NULL, NULL},
	{"debug_log_core_dyn.json -D M=256 -D N=128", NULL, NULL},
	{"debug_log_core_mapped.json", "the write's mapping sends two elements to the same place (through i): a race",
		NULL},
	{"debug_log_iteration_dims.json", NULL, NULL},
	/* test_advanced_ops.py::test_fused_softmax, f32, vector shape N = N */
	{"fused_softmax.json -D M=2 -D N=128", NULL, NULL},
	{"fused_softmax.json -D M=256 -D N=1024", NULL, NULL},
	/* test_advanced_ops.py::test_topk (wave64), f16 values and i32
	 * indices, one row per workgroup; the seeded fill's values repeat
	 * (Wave's allow_duplicates): ties go to the lower index, as the format
	 * defines and the kernel computes */
	{"topk.json -D M=32 -D N=64 -D K=2", NULL, NULL},
	{"topk.json -D M=64 -D N=128 -D K=4", NULL, NULL},
	{"topk.json -D M=128 -D N=256 -D K=8", NULL, NULL},
	/* wave_gemm_test.py::testGemmSmallTiles: BLOCK_M = BLOCK_N = BLOCK_K = 8,
	 * one wave, a and b in shared memory, both MFMA variants, shapes
	 * (32,32,32) and test_gemm's first (1024,5120,640) */
	{"gemm_small_tiles_16x16x16.json -D M=32 -D N=32 -D K=32", NULL, NULL},
	{"gemm_small_tiles_32x32x8.json -D M=32 -D N=32 -D K=32", NULL, NULL},
	/* testGemmSmallTiles with dynamic_dims: M, N, K kernel arguments and
	 * Wave's assumption K > 4 * BLOCK_K (K = 64 at (32,32,*)) */
	{"gemm_small_tiles_dyn_16x16x16.json -D M=32 -D N=32 -D K=64", NULL, NULL},
	{"gemm_small_tiles_dyn_32x32x8.json -D M=32 -D N=32 -D K=64", NULL, NULL},
	{"gemm_small_tiles_dyn_16x16x16.json -D M=100 -D N=70 -D K=90", NULL, NULL},
	/* wave_gemm_test.py::testGemmGatherToLDS: templates/gemm.py get_gemm_kernel
	 * (64x64x32 tiles, 2x2 waves, a and b shared, f16 -> f32) at its own
	 * shapes (17,23,32) and (15,13,4), static and with M, N dynamic (-D
	 * given at launch); Wave's use_global_to_shared is code generation */
	{"wg_gemm_16x16x16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_16x16x16.json -D M=15 -D N=13 -D K=4", NULL, NULL},
	{"wg_gemm_32x32x8.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_32x32x8.json -D M=15 -D N=13 -D K=4", NULL, NULL},
	{"wg_gemm_dynmn_16x16x16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_dynmn_16x16x16.json -D M=15 -D N=13 -D K=4", NULL, NULL},
	{"wg_gemm_dynmn_32x32x8.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_dynmn_32x32x8.json -D M=15 -D N=13 -D K=4", NULL, NULL},
	/* testVMFMAGemm (K8 types, 64x64x32) and testPureGemm's dynamic form
	 * (M, N, K dynamic, assumption K > 4 * BLOCK_K): at GatherToLDS's M, N
	 * with K = 160 (past the assumption); test_gemm's shapes run with
	 * WAVECC_WAVE_SLOW=1 */
	{"wg_gemm_vmfma_16x16x32_k8.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_vmfma_32x32x16_k8.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_vmfma_dyn_16x16x32_k8.json -D M=17 -D N=23 -D K=160", NULL, NULL},
	{"wg_gemm_vmfma_dyn_32x32x16_k8.json -D M=17 -D N=23 -D K=160", NULL, NULL},
	/* wave_gemm_test.py::testGemmDot: GenericDot MMA types (dot products
	 * on the vector ALU), (64, 64, 64), BLOCK 4x64x16 along N and 64x4x16
	 * along M, a and b shared, schedule none; static and M, N, K dynamic;
	 * Wave's xfails (out_vec_size 2 and 4) are rejections here */
	{"gemm_dot_m_kvec4.json", NULL, NULL},
	{"gemm_dot_m_kmult4.json", NULL, NULL},
	{"gemm_dot_n.json", NULL, NULL},
	{"gemm_dot_n_kmult2.json", NULL, NULL},
	{"gemm_dot_n_kmult4.json", NULL, NULL},
	{"gemm_dot_n_kvec1.json", NULL, NULL},
	{"gemm_dot_n_kvec2.json", NULL, NULL},
	{"gemm_dot_dyn_m_kvec4.json -D M=64 -D N=64 -D K=64", NULL, NULL},
	{"gemm_dot_dyn_m_kmult4.json -D M=64 -D N=64 -D K=64", NULL, NULL},
	{"gemm_dot_dyn_n.json -D M=64 -D N=64 -D K=64", NULL, NULL},
	{"gemm_dot_dyn_n_kmult2.json -D M=64 -D N=64 -D K=64", NULL, NULL},
	{"gemm_dot_dyn_n_kmult4.json -D M=64 -D N=64 -D K=64", NULL, NULL},
	{"gemm_dot_dyn_n_kvec1.json -D M=64 -D N=64 -D K=64", NULL, NULL},
	{"gemm_dot_dyn_n_kvec2.json -D M=64 -D N=64 -D K=64", NULL, NULL},
	{"gemm_dot_m_out4.json", "GenericDot with out_vec_size 4 and k_mult 1 is not compiled yet", NULL},
	{"gemm_dot_n_out2.json", "GenericDot with out_vec_size 2 and k_mult 1 is not compiled yet", NULL},
	{"gemm_dot_n_out4.json", "GenericDot with out_vec_size 4 and k_mult 1 is not compiled yet", NULL},
	{"wg_gemm_dyn_16x16x16.json -D M=17 -D N=23 -D K=160", NULL, NULL},
	{"wg_gemm_dyn_32x32x8.json -D M=17 -D N=23 -D K=160", NULL, NULL},
	/* testGemmDumpOverrideSchedule's bf16 datatype (get_gemm_kernel, bf16
	 * operands under F32_16x16x16_F16) */
	{"wg_gemm_bf16_16x16x16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	/* testPingPongGemm: 128x256x64 tiles, 4x2 waves; 4096^3 is slow, here
	 * 256x512x256 */
	{"wg_gemm_pingpong_16x16x16.json -D M=256 -D N=512 -D K=256", NULL, NULL},
	/* reordered_gemm_test.py::testReorderedPingPongGemm (templates/
	 * reordered_gemm.py: 128x256x64 tiles, 4x2 waves, GROUP_SIZE_M 16, the
	 * XCD-grouped workgroup order as two reordering constraints) at
	 * (256, 256, 256) and a cut of (2048, 1280, 5120) to K 256 (the whole
	 * shape with WAVECC_WAVE_SLOW=1) */
	{"reordered_gemm.json -D M=256 -D N=256 -D K=256", NULL, NULL},
	{"reordered_gemm.json -D M=2048 -D N=1280 -D K=256", NULL, NULL},
	/* the same with M, N, K dynamic (not Wave's test): its XCD-grouped order
	 * over run-time grids, unaligned, of 3 x 3 and 9 x 6 workgroups, and of
	 * 45 x 1, past the 44 the order is checked for (the plain order there) */
	{"reordered_gemm_dyn.json -D M=300 -D N=600 -D K=200", NULL, NULL},
	{"reordered_gemm_dyn.json -D M=1100 -D N=1300 -D K=64", NULL, NULL},
	{"reordered_gemm_dyn.json -D M=5760 -D N=256 -D K=64", NULL, NULL},
	/* reordered_gemm_test.py::testVariousDtypeReorderedGemm: the same
	 * template with f16 and bf16 inputs and output (the f32 accumulator
	 * cast before the write; F32_16x16x16_F16 on bf16 data is its bf16
	 * MFMA), (256, 256, 256), SchedulingType.PREFETCH */
	{"reordered_gemm_f16.json --schedule prefetch", NULL, NULL},
	{"reordered_gemm_bf16.json --schedule prefetch", NULL, NULL},
	/* e2e/test_loop_pipeline.py::test_gemm_pipelined_dynamic_K (64x64
	 * with a dynamic K, 32x32x32 tiles, 2x2 waves, schedule PREFETCH) at
	 * each K of the test: one tile (fewer than the stages), two, three,
	 * and 133 (no multiple of BLOCK_K); its RDNA4 parameter is not CDNA's */
	{"loop_pipeline_dynamic_k.json -D K=32 --schedule prefetch", NULL, NULL},
	{"loop_pipeline_dynamic_k.json -D K=64 --schedule prefetch", NULL, NULL},
	{"loop_pipeline_dynamic_k.json -D K=96 --schedule prefetch", NULL, NULL},
	/* lit_tests/kernel/wave/scheduling_to_mlir.py::test_gemm_dynamic_pipelined_trace:
	 * the same kernel at its subs (M 128, N 256, 64x64x32, K dynamic, PREFETCH) */
	{"loop_pipeline_dynamic_k.json -D M=128 -D N=256 -D BLOCK_M=64 -D BLOCK_N=64 -D K=128 --schedule prefetch", NULL,
	 NULL},
	{"loop_pipeline_dynamic_k.json -D M=128 -D N=256 -D BLOCK_M=64 -D BLOCK_N=64 -D K=133 --schedule prefetch", NULL,
	 NULL},
	{"loop_pipeline_dynamic_k.json -D K=133 --schedule prefetch", NULL, NULL},
	/* test_gemm_pipelined_remainder_start (require_cdna4 in Wave, an f16
	 * MFMA every CDNA target has): M, N, K dynamic, 64x64x256 tiles, at
	 * (640, 256, 768): three K tiles, fewer than the pipeline's rounding */
	{"loop_pipeline_remainder_start.json -D M=640 -D N=256 -D K=768 --schedule prefetch", NULL, NULL},
	/* lit_tests/kernel/wave/codegen.py's kernels that Wave only compiles
	 * (it checks their MLIR), run here at the test's own bindings (M, N, K
	 * 16 unless the test sets others; a dynamic S at 16): copies through
	 * mappings (diagonal, masked, dynamic offsets, broadcast, chained
	 * symbols), int-to-float, reductions, broadcasts, select, scalar and
	 * register codegen, a scalar-conditioned copy, a transposed load */
	{"lit_cg_block_reduce_sum.json", NULL, NULL},
	{"lit_cg_broadcast_add.json", NULL, NULL},
	{"lit_cg_explicit_broadcast.json", NULL, NULL},
	{"lit_cg_int_to_float_handler_conversion.json", NULL, NULL},
	{"lit_cg_read_write.json", NULL, NULL},
	{"lit_cg_read_write_diagonal.json", NULL, NULL},
	{"lit_cg_read_write_dynamic_mapping.json", NULL, NULL},
	{"lit_cg_read_write_dynamic_mapping_broadcast.json", NULL, NULL},
	{"lit_cg_read_write_dynamic_symbol.json -D S=16", NULL, NULL},
	{"lit_cg_read_write_dynamic_symbol_expr.json -D S=16", NULL, NULL},
	{"lit_cg_read_write_mapping.json", NULL, NULL},
	{"lit_cg_read_write_masked.json", NULL, NULL},
	{"lit_cg_read_write_masked_shared.json", NULL, NULL},
	{"lit_cg_reduce_sum.json", NULL, NULL},
	{"lit_cg_register_codegen_i32.json", NULL, NULL},
	{"lit_cg_scalar_codegen_f32.json", NULL, NULL},
	{"lit_cg_scalar_codegen_i32.json", NULL, NULL},
	{"lit_cg_scalar_cond_copy.json", NULL, NULL},
	{"lit_cg_select_with_broadcast.json", NULL, NULL},
	{"lit_cg_transposed_load.json", NULL, NULL},
	{"lit_cg_atomic_min_py.json", NULL, NULL},
	{"lit_cg_atomic_add_py.json", NULL, NULL},
	{"lit_broadcast_scaled_add.json", NULL, NULL},
	{"lit_broadcast_scaled_add.json -D M=37 -D N=100", NULL, NULL},
	/* lit_tests/kernel/wave/ pass tests (iteration, expansion, promotion,
	 * hoisting, barriers, dce, igemm, dynamic_strides, topk, scheduling,
	 * gather_to_shared, ...): Wave checks their MLIR, here their kernels
	 * run at the lit test's bindings (sizes the test leaves free: 64, B 4;
	 * its 1024 and larger shapes smaller; wave/README.md, a section per file) */
	{"lit_iteration_partial_unroll.json", NULL, NULL},
	{"lit_iteration_batched.json", NULL, NULL},
	/* iterate(B, start=init_value, condition=B < 10), init_value an i32
	 * scalar argument (a runtime value); 0, and 4 (c's first rows keep
	 * their contents) */
	{"lit_iteration_with_condition.json -D init_value=0", NULL, NULL},
	{"lit_iteration_with_condition.json -D init_value=4", NULL, NULL},
	{"lit_iteration_with_condition_and_init_value.json -D init_value=0", NULL, NULL},
	{"lit_iteration_with_condition_and_init_value.json -D init_value=3", NULL, NULL},
	{"lit_expansion_read_write.json", NULL, NULL},
	{"lit_expansion_gemm.json", NULL, NULL},
	{"lit_expansion_batched_gemm.json", NULL, NULL},
	{"lit_expansion_tiled_max.json", NULL, NULL},
	{"lit_expansion_attention.json", NULL, NULL},
	{"lit_expansion_chained_gemm_32x32x8.json", NULL, NULL},
	{"lit_promotion_gemm.json", "c has no dim K, but K is split over 2 workgroups", NULL},
	{"lit_promotion_read_write.json", NULL, NULL},
	{"lit_hoisting.json", NULL, NULL},
	{"lit_barriers_gemm.json", NULL, NULL},
	{"lit_barriers_split.json", "threads_per_wave 32", NULL},
	{"lit_dce_gemm.json", NULL, NULL},
	{"lit_igemm.json", "a dim written as an expression must use exactly one dim symbol", NULL},
	{"lit_dynamic_strides_gemm.json -D M=128 -D N=128 -D K=128", NULL, NULL},
	{"lit_topk.json", NULL, NULL},
	{"lit_scheduling_gemm_pipelined.json", NULL, NULL},
	{"lit_g2s_gemm.json", NULL, NULL},
	{"lit_g2s_gemm_cant_k.json", NULL, NULL},
	{"lit_g2s_gemm_dyn_k.json -D K=100", NULL, NULL},
	{"lit_g2s_gemm_wave_tile_aligned.json", NULL, NULL},
	{"lit_g2s_gemm_mixed_swizzle.json", NULL, NULL},
	{"lit_index_seq_gemm.json", NULL, NULL},
	{"lit_min_global_loads_gemm.json", NULL, NULL},
	{"lit_min_global_loads_padding.json", NULL, NULL},
	{"lit_multi_buffering_gemm.json", NULL, NULL},
	{"lit_min_shared_allocs_attention.json", NULL, NULL},
	{"lit_infer_gemm.json -D M=128 -D N=128 -D K=128", NULL, NULL},
	{"lit_infer_matrix_add.json", NULL, NULL},
	{"lit_infer_matrix_add_broadcast.json", NULL, NULL},
	{"lit_infer_attention.json", NULL, NULL},
	{"lit_infer_mma_chain.json", "waves_per_block[1] = 2 differs from the 1 waves the tiles of N give", NULL},
	{"lit_infer_multi_result_gemm.json", "waves_per_block[0] = 2 differs from the 1 waves the tiles of M give", NULL},
	{"lit_linearize_g2l_gemm.json", NULL, NULL},
	{"lit_attention_bias.json", NULL, NULL},
	{"lit_custom_attention_schedule.json", NULL, NULL},
	{"lit_pipelined_attention.json", NULL, NULL},
	{"lit_pipelined_attention_bshd.json", NULL, NULL},
	{"lit_mma_vector_shape_batched.json", NULL, NULL},
	/* its order is no permutation of a grid with fewer than GROUP_SIZE_N
	 * columns (nor of its run's 2 x 3): checked over the run-time grids */
	{"lit_bounds_reordering.json -D M=100 -D N=130 -D K=64",
		"workgroup (1, 0, 0) (in a grid of 2 x 1 x 1 workgroups) takes id 1 along grid dim 1, outside the grid's 1",
		NULL},
	/* a shared argument read (LDS staging, a barrier) under a uniform
	 * condition: a scalar branch with every lane; threshold > 0.5 reads,
	 * else the zero register */
	{"lit_conditional_return.json -D threshold=2", NULL, NULL},
	{"lit_conditional_return.json -D threshold=0.25", NULL, NULL},
	{"lit_unroll_gemm.json", NULL, NULL},
	{"lit_unroll_gemm_4.json", NULL, NULL},
	{"lit_unroll_then_pipeline.json", NULL, NULL},
	{"lit_unroll_g2s.json", NULL, NULL},
	{"lit_wave_schedule_gemm.json -D M=256 -D N=512 -D K=256", NULL, NULL},
	{"lit_expansion_gemm_32.json", NULL, NULL},
	{"lit_pipeline_then_unroll.json", NULL, NULL},
	{"lit_wave_schedule_gemm_prefetch.json", NULL, NULL},
	{"lit_wave_schedule_pingpong.json -D M=256 -D N=512 -D K=256", NULL, NULL},
	{"lit_pipelined_attention_prefetch.json -D M=256 -D K2=256 -D H=2", NULL, NULL},
	{"lit_pipelined_attention_pingpong.json -D M=256 -D K2=256 -D H=2", NULL, NULL},
	{"lit_pipelined_attention_dyn.json -D B=8 -D M=128 -D N=128 -D K2=256", NULL, NULL},
	{"lit_expansion_gemm_non_direct_acc.json", NULL, NULL},
	/* nn/wave_linear_test.py (nn/linear.py get_linear_kernel: B and M
	 * dynamic, B on workgroup dim 2 with vector shape 0, 64x64x32 tiles,
	 * 2x2 waves, f16 result; the bias version starts the accumulator at the
	 * broadcast bias): 32 rows of 64 -> 128 features, no batch, a batch of
	 * 16 and the 3-D batch [2, 4, 8] flattened to 64 */
	{"wave_linear_bias.json -D B=1 -D M=32 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"wave_linear.json -D B=16 -D M=32 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"wave_linear_bias.json -D B=16 -D M=32 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"wave_linear_bias.json -D B=64 -D M=32 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* nn/wave_quant_linear_test.py (nn/quant_linear.py: the same GEMM with
	 * f16 inputs scaled, clamped to +-240 and cast to f8e4m3fnuz in the
	 * loop, F32_16x16x32_F8, the f16 result scaled back; per-tensor scales
	 * 0.37 and 0.61 for the test's torch.rand(1)): gfx942's f8 MFMA */
	{"wave_quant_linear.json -D B=16 -D M=32", NULL, "gfx942"},
	/* nn/functional/wave_sdpa_test.py (nn/functional/attention.py: the
	 * vanilla attention template with B, M, N, K2 dynamic, head size 128,
	 * schedule none, waves_per_eu 2): SD, BSD, BHSD (4 x 8 heads) and
	 * causal BHSD */
	{"sdpa_16x16x16.json -D B=1 -D M=256 -D N=128 -D K2=256 --schedule none --waves-per-eu 2 --atol 1e-3 --rtol 1e-3",
		NULL, NULL},
	/* the BHSD shapes with 2 of the 32 heads (the whole test in slow[]) */
	{"sdpa_causal_16x16x16.json -D B=2 -D M=64 -D N=128 -D K2=256 --schedule none --waves-per-eu 2 --atol 1e-3 "
	 "--rtol 1e-3",
		NULL, NULL},
	/* nn/functional/wave_quant_attention_test.py (quant_attention.py: the
	 * brevitas per-tensor fp8 template on f32 inputs, the test's scales,
	 * F32_16x16x32_F8 and its K4 form, B, N_Q, N_KV dynamic, head size
	 * 128): SD, BSD, BHSD, causal BHSD; gfx942's f8 MFMAs */
	{"sdpa_fp8_16x16x32.json -D B=1 -D N_Q=256 -D N_KV=256 --schedule none --waves-per-eu 2", NULL, "gfx942"},
	{"sdpa_fp8_causal_16x16x32.json -D B=2 -D N_Q=64 -D N_KV=256 --schedule none --waves-per-eu 2", NULL, "gfx942"},
	/* test_cdna4_mfma's kernels on gfx942 and gfx90a: rejected, naming the
	 * gfx950 instruction (they run in gfx950[] below) */
	{"cdna4_gemm_16x16x32_f16_f16.json -D M=17 -D N=23 -D K=32", NULL, "gfx950"},
	{"cdna4_gemm_32x32x16_bf16_bf16.json -D M=17 -D N=23 -D K=32", NULL, "gfx950"},
	/* wave_gemm_mxfp_test.py's scaled GEMMs: gfx950's (v_mfma_scale_*), the
	 * other targets reject them naming themselves (gfx950[] runs them) */
	{"scaled_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, "gfx950"},
	{"scaled_gemm_mxfp8.json -D M=128 -D N=128 -D K=512 --mx a:128,512:e5m2 --mx a_scale:128,16:scale --mx b:128,512:e5m2 --mx b_scale:128,16:scale",
		NULL, "gfx950"},
	/* testCDNA2IntGemm / testCDNA3IntGemm (i8 -> i32) and testF8Gemm (f16
	 * cast to f8e4m3fnuz in the loop) at test_gemm's first shape */
	/* testCDNA3IntGemm (I32_16x16x32_I8, I32_32x32x16_I8: gfx942's
	 * instructions; gfx90a runs each as two of its 16x16x16 or 32x32x8
	 * MFMAs, a dword of each lane's 8 k apiece), testCDNA2IntGemm
	 * (I32_16x16x16_I8, I32_32x32x8_I8: gfx90a's; gfx942 runs each on its
	 * wider MFMA with a zero dword after each lane's 4 k; static and
	 * dynamic with K > 4 * BLOCK_K) and testF8Gemm (f16 cast to f8e4m3fnuz
	 * in the loop; native and K4 types: gfx942 only), 64x64x32 tiles;
	 * test_gemm's first shape runs with WAVECC_WAVE_SLOW=1 */
	{"wg_gemm_int_16x16x32_i8.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"wg_gemm_int_32x32x16_i8.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"wg_gemm_int_16x16x32_i8.json -D M=100 -D N=70 -D K=90", NULL, NULL},
	{"wg_gemm_int_16x16x16_i8.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"wg_gemm_int_32x32x8_i8.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"wg_gemm_int_dyn_16x16x16_i8.json -D M=100 -D N=70 -D K=160", NULL, NULL},
	{"wg_gemm_int_dyn_32x32x8_i8.json -D M=100 -D N=70 -D K=160", NULL, NULL},
	{"wg_gemm_f8_16x16x32.json -D M=128 -D N=192 -D K=160", NULL, "gfx942"},
	/* an f8 K step of 32 in a K tile of 16: the lanes whose k lie past the
	 * trip's window get zero operands */
	{"wg_gemm_f8_16x16x32.json -D M=100 -D N=70 -D K=90 -D BLOCK_K=16", NULL, "gfx942"},
	/* testF8Gemm with gfx950's fp8, the OCP f8e4m3fn and f8e5m2 (its fp8
	 * conversions and MFMAs read no FNUZ): gfx950's (gfx950[] below) */
	{"wg_gemm_f8_ocp_16x16x32.json -D M=128 -D N=192 -D K=160", NULL, "gfx950"},
	{"wg_gemm_bf8_ocp_32x32x16.json -D M=100 -D N=70 -D K=96", NULL, "gfx950"},
	/* wave_gemm_test.py::testI8HwTransposeGemm (gfx950's hardware transpose
	 * loads in Wave; here a mapped read): 16x16x16 tiles, one wave, a and
	 * b shared, b i8[K, N] read through {N: i, K: j}, I32_16x16x32_I8 and
	 * I32_32x32x16_I8. Under I32_16x16x32_I8 the K tile of 16 is half the
	 * MFMA's K: the lanes holding k 16-31 get zero operands (gfx942; no
	 * smaller i8 MFMA there) or run as two 16x16x16 MFMAs (gfx90a).
	 * Wave's (4096, 4096, 4096) is slow; BLOCK_K 8 and 24 too */
	{"i8_hw_transpose_gemm_16x16x32.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"i8_hw_transpose_gemm_32x32x16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"i8_hw_transpose_gemm_16x16x32.json -D M=100 -D N=70 -D K=90", NULL, NULL},
	{"i8_hw_transpose_gemm_16x16x32.json -D M=100 -D N=70 -D K=90 -D BLOCK_K=8", NULL, NULL},
	{"i8_hw_transpose_gemm_16x16x32.json -D M=100 -D N=70 -D K=90 -D BLOCK_K=24", NULL, NULL},
	{"i8_hw_transpose_gemm_16x16x32.json -D M=100 -D N=70 -D K=90 -D BLOCK_K=6",
		"a K tile of 6 is not a multiple of I32_16x16x32_I8's K 32: not compiled yet for this type (8-bit operands "
		"need a tile of whole dwords", NULL},
	{"wg_gemm_f8_32x32x16.json -D M=128 -D N=192 -D K=160", NULL, "gfx942"},
	{"wg_gemm_f8_k4_16x16x32.json -D M=128 -D N=192 -D K=160", NULL, "gfx942"},
	{"wg_gemm_f8_k4_32x32x16.json -D M=100 -D N=70 -D K=96", NULL, "gfx942"},
	/* wave_gemm_test.py::testBatchedGemmWithPermute: global a, b, c; c is
	 * [M, B, N] written from the permuted [B, M, N] accumulator; 32x32x16
	 * tiles, 2x2 waves, shapes of test_batched_gemm */
	{"batched_gemm_permute.json -D B=8 -D M=256 -D N=128 -D K=192", NULL, NULL},
	/* wave_gemm_test.py::testSequentialBatchedGemm: an iterate over B
	 * (tiling constraint, BLOCK_B = 1) around the K loop, 64x64x32 tiles,
	 * 2x2 waves; test_batched_gemm's first shape */
	{"sequential_batched_gemm.json -D B=8 -D M=256 -D N=128 -D K=192", NULL, NULL},
	/* wave_gemm_test.py::testPackedGemm: a, b are i32[M, K/2] (f16 pairs)
	 * bitcast to f16 in the loop, 64x64x32 tiles, 2x2 waves, shared;
	 * F32_16x16x16_F16 and F32_32x32x8_F16 (format_ops_test.c runs them on
	 * f16 data against a host GEMM); test_gemm's first shape is slow. The
	 * inputs are f16 pairs (--packed): the fill's negative i32 are NaN
	 * pairs, which made c NaN everywhere */
	{"packed_gemm_16x16x16.json -D M=128 -D N=192 -D K=160 --packed a:128,80 --packed b:192,80", NULL, NULL},
	{"packed_gemm_32x32x8.json -D M=128 -D N=192 -D K=160 --packed a:128,80 --packed b:192,80", NULL, NULL},
	/* wave_gemm_test.py::testPackedNonTransposeGemm: b is i32[K/2, N]
	 * (Wave's b.view(int32).T) read through the mapping {N: i, K/2: j}
	 * into [N, K/2], then bitcast to f16 [N, K]: the read indexed where
	 * the bitcast needs it (runs of 2 i32 for the MMA's runs of 4 f16),
	 * the bitcast a renaming of its dwords (isel/bitcast.c); (100, 70, 90)
	 * is unaligned */
	{"packed_nontranspose_gemm_16x16x16.json -D M=128 -D N=192 -D K=160 --packed a:128,80 --packed b:80,192", NULL,
		NULL},
	{"packed_nontranspose_gemm_32x32x8.json -D M=128 -D N=192 -D K=160 --packed a:128,80 --packed b:80,192", NULL,
		NULL},
	{"packed_nontranspose_gemm_16x16x16.json -D M=100 -D N=70 -D K=90 --packed a:100,45 --packed b:45,70", NULL, NULL},
	/* test_misc_ops.py::test_conditional: write a to b under mask > 0
	 * (apply_expr), BLOCK_N = 64, f16 data, i32 mask; default shapes */
	{"conditional.json -D M=1 -D N=27", NULL, NULL},
	{"conditional.json -D M=111 -D N=813", NULL, NULL},
	{"conditional.json -D M=1 -D N=128", NULL, NULL},
	{"conditional.json -D M=256 -D N=64", NULL, NULL},
	{"conditional.json -D M=256 -D N=128", NULL, NULL},
	{"conditional.json -D M=256 -D N=256", NULL, NULL},
	{"conditional.json -D M=256 -D N=1024", NULL, NULL},
	/* test_misc_ops.py::test_conditional_return: b = threshold > 10 ?
	 * a * 2.5 : a, the first default shape, threshold 2 and 50 (the i32
	 * scalar argument threshold compared with scalar(10) by gt: a rank-0
	 * condition value) */
	{"conditional_return.json -D threshold=2", NULL, NULL},
	{"conditional_return.json -D threshold=50", NULL, NULL},
	/* test_scan.py::test_1d_scanop_cumsum: i32, BLOCK_N = ceiling(N/64)*64,
	 * one wave */
	{"scan_1d.json -D N=27", NULL, NULL},
	{"scan_1d.json -D N=51", NULL, NULL},
	{"scan_1d.json -D N=64", NULL, NULL},
	{"scan_1d.json -D N=65", NULL, NULL},
	{"scan_1d.json -D N=128", NULL, NULL},
	{"scan_1d.json -D N=256", NULL, NULL},
	{"scan_1d.json -D N=500", NULL, NULL},
	{"scan_1d.json -D N=512", NULL, NULL},
	/* test_scan.py::test_2d_scanop_cumsum: rows of one wave each */
	{"scan_2d.json -D M=1 -D N=27", NULL, NULL},
	{"scan_2d.json -D M=1 -D N=64", NULL, NULL},
	{"scan_2d.json -D M=51 -D N=64", NULL, NULL},
	{"scan_2d.json -D M=128 -D N=64", NULL, NULL},
	{"scan_2d.json -D M=1 -D N=256", NULL, NULL},
	{"scan_2d.json -D M=1 -D N=512", NULL, NULL},
	{"scan_2d.json -D M=64 -D N=500", NULL, NULL},
	/* float cumsums, in element order (lit test_scanop_cumsum is f16) */
	{"lit_scanop_cumsum_f16.json", NULL, NULL},
	{"scan_2d_f32.json -D M=1 -D N=27", NULL, NULL},
	{"scan_2d_f32.json -D M=3 -D N=256", NULL, NULL},
	{"scan_2d_f32.json -D M=64 -D N=500", NULL, NULL},
	{"scan_2d_f16.json -D M=1 -D N=27", NULL, NULL},
	{"scan_2d_f16.json -D M=2 -D N=256", NULL, NULL},
	{"scan_2d_f16.json -D M=5 -D N=500", NULL, NULL},
	/* test_scan.py::test_block_scanop_cumsum: 4 waves along N, block=True,
	 * ELEMS_PER_WAVE = Max(ceiling(ceiling(N/4)/64)*64, 64); shapes of
	 * common/shapes.py "test_block_scan" */
	{"block_scan.json -D M=1 -D N=37", NULL, NULL},
	{"block_scan.json -D M=1 -D N=312", NULL, NULL},
	{"block_scan.json -D M=256 -D N=256", NULL, NULL},
	{"block_scan.json -D M=256 -D N=1024", NULL, NULL},
	/* (145, 32000): 125 elements of N a lane, as 5 copies of 25 chained
	 * (isel/scan.c); 3 rows here, Wave's 145 in slow[] */
	{"block_scan.json -D M=3 -D N=32000", NULL, NULL},
	/* test_misc_ops.py::test_self_index: (48, 4, 128), i32: sum over N,
	 * broadcast, cumsum, ge, self_index, select. Its 192 copies (M and K
	 * of vector shape 0) of 2 elements each keep 384 dwords of the read and
	 * as many of the cumsum live per thread: over the 512 VGPRs and AGPRs,
	 * so values spill to scratch memory (regalloc/spill.c); 8 x 4 and
	 * 24 x 4 (also unaligned N) run the same kernel without */
	{"self_index.json", NULL, NULL},
	{"self_index.json -D M=8 -D K=4", NULL, NULL},
	{"self_index.json -D M=24 -D K=4", NULL, NULL},
	{"self_index.json -D M=4 -D K=2 -D N=100", NULL, NULL},
	/* test_misc_ops.py::test_set_symbol: S (dynamic) set from off, a[S,N]
	 * read through the mapping {S: S, N: j}; default shapes, S bound to M */
	{"set_symbol.json -D M=1 -D N=27 -D S=1", NULL, NULL},
	{"set_symbol.json -D M=111 -D N=813 -D S=111", NULL, NULL},
	{"set_symbol.json -D M=1 -D N=128 -D S=1", NULL, NULL},
	{"set_symbol.json -D M=256 -D N=64 -D S=256", NULL, NULL},
	{"set_symbol.json -D M=256 -D N=128 -D S=256", NULL, NULL},
	{"set_symbol.json -D M=256 -D N=256 -D S=256", NULL, NULL},
	{"set_symbol.json -D M=256 -D N=1024 -D S=256", NULL, NULL},
	/* test_misc_ops.py::test_apply_expr: test_set_symbol with the offset
	 * turned into M - offset - 1 by apply_expr first; default shapes */
	{"apply_expr.json -D M=1 -D N=27 -D S=1", NULL, NULL},
	{"apply_expr.json -D M=111 -D N=813 -D S=111", NULL, NULL},
	{"apply_expr.json -D M=1 -D N=128 -D S=1", NULL, NULL},
	{"apply_expr.json -D M=256 -D N=64 -D S=256", NULL, NULL},
	{"apply_expr.json -D M=256 -D N=128 -D S=256", NULL, NULL},
	{"apply_expr.json -D M=256 -D N=256 -D S=256", NULL, NULL},
	{"apply_expr.json -D M=256 -D N=1024 -D S=256", NULL, NULL},
	/* test_conv.py::test_im2col (n, c, h, w = 1, 2, 9, 9; 2x2 filters; 64
	 * windows, K = 8 as workgroup dim 1, 4 elements per thread) and
	 * test_im2col_mma (1, 4, 9, 9; 64 filters; K = 16 in one tiling step) */
	{"im2col.json", NULL, NULL},
	{"im2col_mma.json", NULL, NULL},
	/* attention/chained_gemm_test.py::testChainedGemm (16x16x16, 32x32x8;
	 * 64x64 tiles, 2x2 waves, BLOCK_K2 32, k and v in shared memory) and
	 * testChainedGemmF8 (the f8 type, then its K4 form), at the first
	 * shape of get_test_shapes("chained_gemm"): (B, M, N, K1, K2) =
	 * (8, 128, 128, 64, 256). The f16 product of the first GEMM is
	 * rounded to f16 before the second: a last-bit difference in the f32
	 * sum (the MFMA's order against the interpreter's) can move it by an
	 * f16 ulp, so these compare with Wave's tolerances against torch,
	 * which `wavecc run` derives itself for the f16 ones (an f16 cast
	 * summed by an mma: driver/tolerance.c); the f8 ones give them, tighter
	 * than the derived f8 default */
	{"chained_gemm_16x16x16.json", NULL, NULL},
	{"chained_gemm_32x32x8.json", NULL, NULL},
	{"chained_gemm_f8_32x32x16.json --atol 5e-2 --rtol 5e-3", NULL, "gfx942"},
	{"chained_gemm_f8_16x16x32.json --atol 5e-2 --rtol 5e-3", NULL, "gfx942"},
	/* attention/decode_attention_test.py::testFlashDecoding
	 * (templates/decode_attention.py; 16x16x16 and 32x32x8) at
	 * get_test_shapes("decode_attention") = (8, 128, 128, 64, 256), the
	 * second shape (40, 1024, 64, 64, 1024) with B = 2 (B = 40 is slow).
	 * Phase 0 splits K2 into U = K2/32 slices, one per wave; phase 1
	 * combines them (tests/driver/decode_attention_test.c chains the two
	 * launches against softmax(q·kᵀ)·v). Phase 0 compares at Wave's
	 * tolerance (1e-3): the kernel's exp2 may differ from the interpreter's
	 * in the last f32 bit, enough to round a probability to the next f16.
	 * dynamic_dims: both pass (phase 0 folds the runtime B below the
	 * runtime K2 into grid dim 2: $WG2 divided by B at run time) */
	{"decode_attention_phase0_16x16x16.json --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"decode_attention_phase0_32x32x8.json --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"decode_attention_phase1.json", NULL, NULL},
	{"decode_attention_phase0_16x16x16.json -D B=2 -D M=1024 -D N=64 -D K1=64 -D K2=1024 --atol 1e-3 --rtol 1e-3",
		NULL, NULL},
	{"decode_attention_phase0_32x32x8.json -D B=2 -D M=1024 -D N=64 -D K1=64 -D K2=1024 --atol 1e-3 --rtol 1e-3",
		NULL, NULL},
	{"decode_attention_phase1.json -D B=2 -D M=1024 -D N=64 -D K2=1024", NULL, NULL},
	{"decode_attention_dyn_phase1.json -D B=8 -D M=128 -D N=128 -D U=8", NULL, NULL},
	{"decode_attention_dyn_phase1.json -D B=2 -D M=1024 -D N=64 -D U=32", NULL, NULL},
	{"decode_attention_dyn_phase0_16x16x16.json -D B=8 -D M=128 -D N=128 -D K1=64 -D K2=256", NULL, NULL},
	{"decode_attention_dyn_phase0_32x32x8.json -D B=8 -D M=128 -D N=128 -D K1=64 -D K2=256", NULL, NULL},
	/* decode_attention_test.py::testGqaFlashDecoding
	 * (templates/gqa_decode_attention.py) at gqa_bshd_decode_attention: 1
	 * sequence, 32 query heads on 1 kv head, 8000 keys in 8 splits, head
	 * size 256. Phase 0's mmas take k and v with the kv head H_KV (vector
	 * shape 0) that the accumulators lack; H_KV's workgroup constraint
	 * has iters, H_Q's is not primary (shares H_KV's workgroup id). H_KV's
	 * apply_fn wg // ceil(head_ratio / 32) is the identity at this shape;
	 * at 128 query heads on 2 kv heads (2000 keys) it sends workgroups 0-3
	 * to kv heads 0, 0, 1, 1 */
	{"decode_gqa_phase0_16x16x16.json", NULL, NULL},
	{"decode_gqa_phase0_32x32x8.json", NULL, NULL},
	{"decode_gqa_phase0_16x16x16.json -D H_Q=128 -D H_KV=2 -D N_KV=2000", NULL, NULL},
	{"decode_gqa_phase0_32x32x8.json -D H_Q=128 -D H_KV=2 -D N_KV=2000", NULL, NULL},
	{"decode_gqa_phase1.json", NULL, NULL},
	/* test_atomic.py::test_no_map_atomic_add: a register of ones added to a
	 * (a `shared` argument: still the global tensor), the old values to c */
	{"atomic_add_no_map.json", NULL, NULL},
	/* test_advanced_ops.py::test_scatter_add, wave64: a tkw.allocate'd tile
	 * zeroed, a workgroup_barrier, scatter_add along M (dim 0) of a =
	 * arange(M*N) at index = randint(0, M), read back into b; its four
	 * (shape, elems_per_thread) with BLOCK = the shape, one wave */
	{"scatter_add.json -D M=3840 -D N=1 --arange a:3840,1 --randint index:3840,1,0,3840", NULL, NULL},
	{"scatter_add.json -D M=64 -D N=64 --arange a:64,64 --randint index:64,64,0,64", NULL, NULL},
	{"scatter_add.json -D M=64 -D N=64 -D LOAD_ELEMS_PER_THREAD=2 -D STORE_ELEMS_PER_THREAD=2 --arange a:64,64 "
	 "--randint index:64,64,0,64",
	 NULL, NULL},
	{"scatter_add.json -D M=64 -D N=64 -D LOAD_ELEMS_PER_THREAD=4 -D STORE_ELEMS_PER_THREAD=4 --arange a:64,64 "
	 "--randint index:64,64,0,64",
	 NULL, NULL},
	/* test_atomic.py::test_atomic_min (2, 64): two waves min their rows
	 * into row 0 of a tkw.allocate'd (1, BLOCK_N) buffer set to 1e6, then
	 * read it back into both rows; a = randint(0, 10) */
	{"atomic_min.json --randint a:2,64,0,10", NULL, NULL},
	/* test_atomic.py::test_dyn_atomic_add (64, 4): a histogram in an
	 * allocation, atomic_add of ones at the bins idx = randint(0, 4) names
	 * (the register over NUMEL: see README.md) */
	{"dyn_atomic_add.json --randint indices:64,0,4", NULL, NULL},
	/* wave_gemm_test.py::test_explicit_shared_gemm: a and b tiles written
	 * into tkw.allocate'd buffers, a shared_memory_barrier, read back into
	 * the MMA; its seven (m, n, k) x block combinations */
	{"explicit_shared_gemm.json -D M=64 -D N=128 -D K=64", NULL, NULL},
	{"explicit_shared_gemm.json -D M=128 -D N=128 -D K=64", NULL, NULL},
	{"explicit_shared_gemm.json -D M=128 -D N=128 -D K=64 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64", NULL, NULL},
	{"explicit_shared_gemm.json -D M=128 -D N=256 -D K=128", NULL, NULL},
	{"explicit_shared_gemm.json -D M=128 -D N=256 -D K=128 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64", NULL, NULL},
	{"explicit_shared_gemm.json -D M=256 -D N=256 -D K=128", NULL, NULL},
	{"explicit_shared_gemm.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64", NULL, NULL},
	/* Wave's scheduling ops (lit codegen.py::test_scheduling_ops: the
	 * barriers, set_wave_prio, memory_counter_wait(_barrier); the lit test
	 * writes nothing, so the read is also written to b here) at its 16x16,
	 * unaligned and with the scheduling barriers; and inside the K loop of
	 * test_explicit_shared_gemm (memory_counter_wait_barrier as its barrier,
	 * s_setprio around the MMA), static, unaligned and dynamic */
	{"lit_scheduling_ops_write.json", NULL, NULL},
	{"lit_scheduling_ops_write.json -D M=37 -D N=50", NULL, NULL},
	{"explicit_shared_gemm_hints.json -D M=64 -D N=128 -D K=64", NULL, NULL},
	{"explicit_shared_gemm_hints.json -D M=100 -D N=70 -D K=96", NULL, NULL},
	{"explicit_shared_gemm_hints.json -D M=128 -D N=256 -D K=128 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64", NULL, NULL},
	{"explicit_shared_gemm_hints_dyn.json -D M=100 -D N=70 -D K=96", NULL, NULL},
	{"explicit_shared_gemm_hints_dyn.json -D M=128 -D N=128 -D K=64", NULL, NULL},
	/* tkw.softsign (lit codegen.py::test_unary_lowerings: after tanh_approx,
	 * logit_cap 30, apply_scaling, head_dim 128; 4 elements per thread, the
	 * test's 16x16) and unscaled with cap 2.5, f16 at 16x16, unaligned and
	 * 64x64; f32 with M, N dynamic */
	{"lit_softsign_f16.json", NULL, NULL},
	{"lit_softsign_f16.json -D M=37 -D N=50", NULL, NULL},
	{"lit_softsign_f16.json -D M=64 -D N=64", NULL, NULL},
	{"lit_softsign_f32_dyn.json -D M=37 -D N=50", NULL, NULL},
	{"lit_softsign_f32_dyn.json -D M=16 -D N=16", NULL, NULL},
	/* lit placeholder_iterate_in_conditional.py::test_iterate_result_placeholder
	 * (the GEMM loop's result as the init of a loop over ITER_IDX inside
	 * conditional(is_first == 1), partial written under its negation), at
	 * its (32, 32, 64), ITER_IDX 2; is_first 1, 0 and 7. A loop in a
	 * conditional whose condition is the same in every lane runs under a
	 * scalar branch: the K loop itself inside one (LDS-staged a and b, an
	 * else value in another layout), static, unaligned and M, N, K dynamic,
	 * and under an expression condition; a condition per lane is rejected */
	{"lit_iterate_in_conditional.json -D is_first=1", NULL, NULL},
	{"lit_iterate_in_conditional.json -D is_first=0", NULL, NULL},
	{"lit_iterate_in_conditional.json -D is_first=7", NULL, NULL},
	{"gemm_in_conditional.json -D is_first=1", NULL, NULL},
	{"gemm_in_conditional.json -D is_first=0", NULL, NULL},
	{"gemm_in_conditional.json -D is_first=1 -D M=100 -D N=70 -D K=96", NULL, NULL},
	{"gemm_in_conditional_dyn.json -D is_first=1 -D M=100 -D N=70 -D K=96", NULL, NULL},
	{"gemm_in_conditional_dyn.json -D is_first=0 -D M=128 -D N=64 -D K=128", NULL, NULL},
	{"gemm_in_conditional_dyn.json -D is_first=1 -D M=32 -D N=32 -D K=64", NULL, NULL},
	{"gemm_in_conditional_expr.json -D K=64", NULL, NULL},
	{"gemm_in_conditional_expr.json -D K=96 -D M=50 -D N=40", NULL, NULL},
	/* lit codegen.py::test_read_write_conditional (vector shapes 1x1: 16
	 * condition elements per lane, one per copy) at its 16x16, unaligned
	 * and 64x16; a condition of 4 contiguous elements per lane (gt of an
	 * i32 read) over a body with an add and a read, static, unaligned and
	 * dynamic: each element stored where its own condition element holds;
	 * with an else value (f16 pairs selected by halves) */
	{"lit_read_write_conditional.json", NULL, NULL},
	{"lit_read_write_conditional.json -D M=37 -D N=50", NULL, NULL},
	{"lit_read_write_conditional.json -D M=64 -D N=16", NULL, NULL},
	{"read_write_conditional_ept4.json -D M=16 -D N=16", NULL, NULL},
	{"read_write_conditional_ept4.json -D M=37 -D N=500", NULL, NULL},
	{"read_write_conditional_ept4_dyn.json -D M=37 -D N=500", NULL, NULL},
	{"read_write_conditional_ept4_dyn.json -D M=4 -D N=1024", NULL, NULL},
	{"read_write_conditional_else.json", NULL, NULL},
	{"read_write_conditional_else.json -D M=37 -D N=500", NULL, NULL},
	/* (an MMA without a loop under an expression condition, the else value
	 * a splat register: the result was left in the register's layout, a
	 * wrong kernel, until the else value moved into the MMA's) */
	{"mma_in_conditional_expr.json", NULL, NULL},
	{"mma_in_conditional_expr.json -D M=16", NULL, NULL},
	{"gemm_in_conditional_lane.json -D is_first=1",
		"op 'iterate' inside the conditional 'branch', whose condition 'cond' may differ between lanes", NULL},
	/* wave_gemm_test.py::testSplitKGemm (templates/gemm.py
	 * get_splitk_gemm_kernel): K split over workgroup dim 2, the partial
	 * products atomically added into c; (256,256,256) and (1024,1024,1024),
	 * 2 and 4 splits. Its windows of ceiling(K/S) tile K only when that is a
	 * multiple of BLOCK_K: at 250 in 3, 100 in 7 and 5 in 4 they overlap and
	 * the template adds the overlapped k once per window, in Wave as here
	 * (kernel-format.md, "A tiling constraint's window"), so those runs
	 * check that the kernel does what Wave's does, not a GEMM;
	 * splitk_gemm_exact.json rounds the window up to BLOCK_K and is the
	 * GEMM at the same shapes, splits past K's end included (a negative
	 * length runs no trip). tests/driver/splitk_test.c checks all of them
	 * against a GEMM (or the overlap relation) computed in the test. */
	{"splitk_gemm.json -D M=256 -D N=256 -D K=256 -D S=2", NULL, NULL},
	{"splitk_gemm.json -D M=256 -D N=256 -D K=256 -D S=4", NULL, NULL},
	{"splitk_gemm.json -D M=1024 -D N=1024 -D K=1024 -D S=2", NULL, NULL},
	{"splitk_gemm.json -D M=1024 -D N=1024 -D K=1024 -D S=4", NULL, NULL},
	{"splitk_gemm.json -D M=256 -D N=256 -D K=250 -D S=3", NULL, NULL},
	{"splitk_gemm.json -D M=64 -D N=64 -D K=100 -D S=7", NULL, NULL},
	{"splitk_gemm.json -D M=100 -D N=70 -D K=5 -D S=4", NULL, NULL},
	{"splitk_gemm_exact.json -D M=256 -D N=256 -D K=250 -D S=3", NULL, NULL},
	{"splitk_gemm_exact.json -D M=64 -D N=64 -D K=100 -D S=7", NULL, NULL},
	{"splitk_gemm_exact.json -D M=100 -D N=70 -D K=5 -D S=4", NULL, NULL},
	/* attention/vanilla_attention_test.py (templates/vanilla_attention.py),
	 * each of its four CDNA MMA pairs (32x32x16_K8 then 32x32x8, 16x16x32_K8
	 * then 16x16x16, 16x16x16 twice, 32x32x8 twice); BLOCK_M 128 over 4
	 * waves, BLOCK_N 64, BLOCK_K2 64, k and v in shared memory. Shapes of
	 * common/shapes.py with only the batch and head counts shrunk:
	 * "attention" (8, 128, 128, 64, 256) as B = 2, "unaligned_attention"
	 * (32, 1024, 128, 128, 1357) as B = 1. Tolerances are the tests'
	 * against torch, atol 1e-3 and rtol 1e-3: the probabilities are
	 * rounded to f16 before the second MMA, and an f32 last-bit difference
	 * (MFMA order, v_exp_f32) moves one by an f16 ulp.
	 * testAttentionPure (v [B, K2, N] read through v_mapping),
	 * testTransposedVAttentionPure (v [B, N, K2], static and with M, N, B,
	 * K2 dynamic) and testAttentionCausal (sliding window -1 and 1024):
	 * the template's K2 mask indexes in i64 and its window is an i64
	 * register, held as 32-bit words with their ranges proven
	 * (isel/index64.c); the window masks in sliding_window_test.c. */
	{"vanilla_attention_32x32x16_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_vt_32x32x16_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_vt_dyn_32x32x16_k8.json -D B=2 -D M=128 -D N=128 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_32x32x16_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_32x32x16_k8.json -D B=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_sw_32x32x16_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_sw_32x32x16_k8.json -D B=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_16x16x32_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_vt_16x16x32_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_vt_dyn_16x16x32_k8.json -D B=2 -D M=128 -D N=128 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_16x16x32_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_16x16x32_k8.json -D B=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_sw_16x16x32_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_sw_16x16x32_k8.json -D B=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* water_e2e_test.py::test_attention_water (the template through Wave's
	 * Water middle end: the same kernel), 8 heads of (256, 64, 64, 256) as
	 * B = 2 here, all 8 with WAVECC_WAVE_SLOW=1 */
	{"vanilla_attention_16x16x16.json -D B=2 -D M=256 -D N=64 -D K1=64 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL,
		NULL},
	{"vanilla_attention_vt_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_vt_dyn_16x16x16.json -D B=2 -D M=128 -D N=128 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_16x16x16.json -D B=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_sw_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_sw_16x16x16.json -D B=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_32x32x8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_vt_32x32x8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_vt_dyn_32x32x8.json -D B=2 -D M=128 -D N=128 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_32x32x8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_32x32x8.json -D B=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_sw_32x32x8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_sw_32x32x8.json -D B=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* testAttentionBias (an f32 bias [B, M, K2] read in the scores'
	 * layout and added), testAttentionSoftCap (15·log2(e)·tanh(x / that))
	 * and testAttentionF8 (q, k, v and the probabilities cast to
	 * f8e4m3fnuz; gfx942 only) at both "attention" shapes, B = 2 and 1 */
	{"vanilla_attention_bias_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_bias_16x16x16.json -D B=1 -D M=1024 -D N=64 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_bias_dyn_16x16x16.json -D B=2 -D M=128 -D N=128 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_bias_32x32x8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_bias_32x32x8.json -D B=1 -D M=1024 -D N=64 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_bias_dyn_32x32x8.json -D B=2 -D M=128 -D N=128 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_softcap_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_softcap_16x16x16.json -D B=1 -D M=1024 -D N=64 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_softcap_dyn_16x16x16.json -D B=2 -D M=128 -D N=128 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_softcap_32x32x8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_softcap_32x32x8.json -D B=1 -D M=1024 -D N=64 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_softcap_dyn_32x32x8.json -D B=2 -D M=128 -D N=128 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_f8_32x32x16.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, "gfx942"},
	{"vanilla_attention_f8_32x32x16.json -D B=1 -D M=1024 -D N=64 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, "gfx942"},
	{"vanilla_attention_f8_16x16x32.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, "gfx942"},
	{"vanilla_attention_f8_16x16x32.json -D B=1 -D M=1024 -D N=64 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, "gfx942"},
	/* testAttentionBHSDCausal (get_bhsd_attention_kernel, causal, i32
	 * index, q scaled in f16): "bhsd_attention" (4, 32, 128, 128, 128, 128)
	 * as B = 1, H = 2; the dynamic form (B, H, M, K2 at run time) folds two
	 * runtime counts into grid dim 2 ($WG2 divided by H at run time) */
	{"bhsd_attention_causal_32x32x16_k8.json -D B=1 -D H=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_dyn_32x32x16_k8.json -D B=1 -D H=2 -D M=128 -D K2=128 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_16x16x32_k8.json -D B=1 -D H=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_dyn_16x16x32_k8.json -D B=1 -D H=2 -D M=128 -D K2=128 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_16x16x16.json -D B=1 -D H=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_dyn_16x16x16.json -D B=1 -D H=2 -D M=128 -D K2=128 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_32x32x8.json -D B=1 -D H=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_dyn_32x32x8.json -D B=1 -D H=2 -D M=128 -D K2=128 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* testAttentionBSHD (get_bshd_attention_kernel with its custom i8
	 * mask [B, M], Wave's 0/1 values: a row with 1 is masked out and gives
	 * 0): H = 2 at "attention"'s (128, 128, 64, 256); the unaligned K2 =
	 * 1357 shapes are slow */
	{"bshd_attention_custom_mask_32x32x16_k8.json -D H=2 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,128", NULL, NULL},
	{"bshd_attention_custom_mask_16x16x32_k8.json -D H=2 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,128", NULL, NULL},
	{"bshd_attention_custom_mask_16x16x16.json -D H=2 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,128", NULL, NULL},
	{"bshd_attention_custom_mask_32x32x8.json -D H=2 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,128", NULL, NULL},
	/* gqa_vanilla_attention_test.py::testGQABSHDAttention (32x32x8 and
	 * 16x16x16 pairs; not causal, causal, causal with window 1024) at
	 * "gqa_bshd_attention" (1 seq, 32 query heads, 1 KV head, 8000, 256)
	 * with 2 query heads and sequence lengths 8000 cut to 320 (Wave's
	 * shape takes about 17 min a run; 320 keeps N_Q's partial last tile,
	 * 320 = 2.5 x 128): K and V are read through H_KV = j // 32, H_KV a
	 * non-primary workgroup dim on H's id, of vector shape 0 in the mmas */
	{"gqa_bshd_attention_32x32x8.json -D H=2 -D N_Q=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"gqa_bshd_attention_causal_32x32x8.json -D H=2 -D N_Q=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"gqa_bshd_attention_causal_sw_32x32x8.json -D H=2 -D N_Q=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"gqa_bshd_attention_16x16x16.json -D H=2 -D N_Q=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"gqa_bshd_attention_causal_16x16x16.json -D H=2 -D N_Q=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"gqa_bshd_attention_causal_sw_16x16x16.json -D H=2 -D N_Q=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* alibi_attention_test.py::test_alibi_attention
	 * (templates/alibi_attention.py, 16x16x16 for both mmas): shape
	 * (128 heads, 128 kv heads, 128, 128, 128, 128) with 2 heads */
	{"alibi_attention_16x16x16.json -D B=2", NULL, NULL},
	/* t5_rpe_attention_test.py::test_t5_rpe_attention
	 * (templates/t5_rpe_attention.py; 16x16x16 and 32x32x8): the rpe
	 * bias read at Piecewise((m - k2, 0 <= m - k2 < MAX_RPE), (MAX_RPE,
	 * True)) of two i64 self_index dynamic values (isel/dynself.c,
	 * isel/expr.c), max_rpe_context_length 10 and 128 (RPE is
	 * its + 1, Wave's MemoryLayout of rpe); 128 heads as 2 */
	{"t5_rpe_attention_16x16x16.json -D B=2", NULL, NULL},
	{"t5_rpe_attention_16x16x16.json -D B=2 -D MAX_RPE=128 -D RPE=129", NULL, NULL},
	{"t5_rpe_attention_32x32x8.json -D B=2", NULL, NULL},
	{"t5_rpe_attention_32x32x8.json -D B=2 -D MAX_RPE=128 -D RPE=129", NULL, NULL},
	/* evoformer_test.py::testEvoformerAttentionForward
	 * (templates/evoformer.py: 5-d q, k, v, c, workgroup dims 0-4, the
	 * mask [B, BN, K2] and bias [B, H, M, K2] added to the scores, bf16
	 * operands cast through f32 to f16, the result cast back) at both
	 * "evoformer" shapes with BN (256, 512) and H (4, 8) cut to 2 */
	{"evoformer_f16.json -D BN=2 -D H=2", NULL, NULL},
	{"evoformer_f16.json -D BN=2 -D H=2 -D K1=8 -D N=8", NULL, NULL},
	{"evoformer_bf16.json -D BN=2 -D H=2", NULL, NULL},
	{"evoformer_bf16.json -D BN=2 -D H=2 -D K1=8 -D N=8", NULL, NULL},
	/* quantized_attention_test.py::testAttentionPure
	 * (templates/quantized_attention.py, Brevitas per-tensor f8: the
	 * scales, exp2 offset log2(240), clamp at 240, v dequant; gfx942 only)
	 * on Wave's quantized_tensor inputs; "quantized_attention"'s
	 * (1, 4096, 64, 64, 4096) has one head and takes minutes (slow), here
	 * with N_Q = N_KV = 512 */
	{"quantized_attention_32x32x16.json -D N_Q=512 -D N_KV=512 --quant q:1,512,64,128 --quant k:1,512,64,128 --quant v:1,512,64,128", NULL, "gfx942"},
	{"quantized_attention_16x16x32.json -D N_Q=512 -D N_KV=512 --quant q:1,512,64,128 --quant k:1,512,64,128 --quant v:1,512,64,128", NULL, "gfx942"},
	/* testCausalGQABSHDAttentionF8 (use_fp8: q, k, v cast to f8, the
	 * Brevitas SDXL scales, exp2 offset log2(240), probabilities clamped
	 * at 240 and cast; gfx942 only), window -1 and 1024, on Wave's
	 * quantized_tensor inputs (integers in [-128, 128]) */
	{"gqa_bshd_attention_causal_f8_32x32x16.json -D H=2 -D N_Q=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3 --quant q:1,320,2,256,128 --quant k:1,320,1,256,128 --quant v:1,320,1,256,128", NULL, "gfx942"},
	{"gqa_bshd_attention_causal_f8_16x16x32.json -D H=2 -D N_Q=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3 --quant q:1,320,2,256,128 --quant k:1,320,1,256,128 --quant v:1,320,1,256,128", NULL, "gfx942"},
	{"gqa_bshd_attention_causal_sw_f8_32x32x16.json -D H=2 -D N_Q=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3 --quant q:1,320,2,256,128 --quant k:1,320,1,256,128 --quant v:1,320,1,256,128", NULL, "gfx942"},
	{"gqa_bshd_attention_causal_sw_f8_16x16x32.json -D H=2 -D N_Q=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3 --quant q:1,320,2,256,128 --quant k:1,320,1,256,128 --quant v:1,320,1,256,128", NULL, "gfx942"},
	/* extend_attention_test.py::testExtendAttention
	 * (templates/extend_attention.py) at get_test_shapes("extend")[0]: 2
	 * sequences, 16 query heads (2 here) on 1 kv head, head size 128,
	 * block_size 64, logit cap 30; the prefix and new-token lengths drawn
	 * here (Wave draws them from 1..511) unaligned to the tiles, the second
	 * sequence's new tokens spanning two workgroups. set_symbol makes N_Q
	 * and N_KV each sequence's lengths (their run-time extents). The
	 * buffers sharing N_KV are padded to the cache pool (247 rows), q and
	 * c to 200 rows past the 140 new tokens, which must stay 0 (--extend
	 * writes the index buffers). The interpreter is checked against a
	 * reference in tests/interp/attention_test.c */
#define EXTEND_ARGS " -D N_Q=200 -D N_KV=247 -D S=3 -D EXT_IDX=0 -D KV_START_IDX=0 -D MAX_EXTEND_SEQ_LEN=90 --atol 1e-3 --rtol 1e-3 --extend 37/50,70/90:247"
	{"extend_attention_16x16x16.json" EXTEND_ARGS, NULL, NULL},
	{"extend_attention_32x32x8.json" EXTEND_ARGS, NULL, NULL},
	{"extend_attention_causal_16x16x16.json" EXTEND_ARGS, NULL, NULL},
	{"extend_attention_causal_32x32x8.json" EXTEND_ARGS, NULL, NULL},
	/* testExtendAttention with use_custom_mask (the i8 custom_mask of
	 * each sequence's ext x (prefix + ext) block, Wave's causal values,
	 * at mask_offsets; SEQ_LEN, MASK_START_IDX and PREFIX_LEN set in the
	 * kernel, MASK_LEN 50·87 + 90·160) */
#define EXTEND_MASK_ARGS " -D N_Q=200 -D N_KV=247 -D S=3 -D EXT_IDX=0 -D KV_START_IDX=0 -D MAX_EXTEND_SEQ_LEN=90 " \
	"-D MASK_LEN=18750 -D SEQ_LEN=0 -D MASK_START_IDX=0 -D PREFIX_LEN=0 --atol 1e-3 --rtol 1e-3 --extend 37/50,70/90:247:mask"
	{"extend_attention_custom_mask_16x16x16.json" EXTEND_MASK_ARGS, NULL, NULL},
	{"extend_attention_custom_mask_32x32x8.json" EXTEND_MASK_ARGS, NULL, NULL},
	/* testExtendRpeAttention (templates/extend_attention_rpe.py, causal):
	 * its i64 self_index of N_Q (the rpe offset's d0) is proven to fit 32
	 * bits by the runtime grid's bound on $WG0 (N_Q's workgroup count is
	 * the runtime ceiling(MAX_EXTEND_SEQ_LEN / 64)) */
#define EXTEND_RPE_ARGS " -D N_Q=200 -D N_KV=247 -D S=3 -D EXT_IDX=0 -D KV_START_IDX=0 -D MAX_EXTEND_SEQ_LEN=90 " \
	"--atol 1e-3 --rtol 1e-3 --extend 37/50,70/90:247"
	{"extend_attention_rpe_16x16x16.json" EXTEND_RPE_ARGS, NULL, NULL},
	{"extend_attention_rpe_32x32x8.json" EXTEND_RPE_ARGS, NULL, NULL},
	/* prefill_attention_test.py::testPrefillAttention
	 * (templates/prefill_attention.py, 16x16x16 for both mmas) at both of
	 * its shapes, (1, 1, 13, 13, (64, 64)) and (4, 1, 64, 64, (128, 256)):
	 * the sequences packed along N_Q and N_KV, whose launch values are the
	 * total token count (Wave's MemoryLayouts of q, k, v, c), set_symbol
	 * making them each sequence's length; OFFSET its start */
	{"prefill_attention_16x16x16.json -D N_Q=128 -D N_KV=128 -D OFFSET=0 --atol 1e-3 --rtol 1e-3 --prefill 64,64",
		NULL, NULL},
	{"prefill_attention_16x16x16.json -D H=4 -D HEAD_RATIO=4 -D D_Q=64 -D D_KV=64 -D MAX_SEQ_LEN=256 -D N_Q=384 "
		"-D N_KV=384 -D OFFSET=0 --atol 1e-3 --rtol 1e-3 --prefill 128,256", NULL, NULL},
	/* backward_attention_test.py (five kernels written in the test:
	 * testAttentionForward, testAttentionBackward_dv, _dk, _dq and
	 * testAttentionBackward, the whole backward) at every shape of their
	 * parametrization, 16x16x16 with shapes_16x16x16 and 32x32x8 with the
	 * doubled shapes_32x32x32, plus big_shapes except (2, 1024, 64, 64,
	 * 1024), in slow[]; the whole backward at the small shapes only (as in
	 * Wave, which also skips its 32x32x8 form: here it passes). scale is
	 * sqrt(1 / K1), a scalar argument; Wave's tolerances 3e-3 */
	{"attention_fwd_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=32 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=32 -D K2=16 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=64 -D K2=16 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_16x16x16.json -D B=1 -D M=16 -D N=32 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_16x16x16.json -D B=1 -D M=32 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_16x16x16.json -D B=2 -D M=16 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_16x16x16.json -D B=2 -D M=64 -D N=128 -D K1=32 -D K2=256 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_16x16x16.json -D B=8 -D M=128 -D N=128 -D K1=64 -D K2=256 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=32 -D K2=64 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=64 -D K2=32 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=128 -D K2=32 -D scale=0.08838834764831845 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_32x32x8.json -D B=1 -D M=32 -D N=64 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_32x32x8.json -D B=1 -D M=64 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_32x32x8.json -D B=2 -D M=32 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_32x32x8.json -D B=2 -D M=64 -D N=128 -D K1=32 -D K2=256 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_32x32x8.json -D B=8 -D M=128 -D N=128 -D K1=64 -D K2=256 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=32 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=32 -D K2=16 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=64 -D K2=16 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_16x16x16.json -D B=1 -D M=16 -D N=32 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_16x16x16.json -D B=1 -D M=32 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_16x16x16.json -D B=2 -D M=16 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_16x16x16.json -D B=2 -D M=64 -D N=128 -D K1=32 -D K2=256 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_16x16x16.json -D B=8 -D M=128 -D N=128 -D K1=64 -D K2=256 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=32 -D K2=64 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=64 -D K2=32 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=128 -D K2=32 -D scale=0.08838834764831845 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_32x32x8.json -D B=1 -D M=32 -D N=64 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_32x32x8.json -D B=1 -D M=64 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_32x32x8.json -D B=2 -D M=32 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_32x32x8.json -D B=2 -D M=64 -D N=128 -D K1=32 -D K2=256 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_32x32x8.json -D B=8 -D M=128 -D N=128 -D K1=64 -D K2=256 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=32 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=32 -D K2=16 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=64 -D K2=16 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_16x16x16.json -D B=1 -D M=16 -D N=32 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_16x16x16.json -D B=1 -D M=32 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_16x16x16.json -D B=2 -D M=16 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_16x16x16.json -D B=2 -D M=64 -D N=128 -D K1=32 -D K2=256 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_16x16x16.json -D B=8 -D M=128 -D N=128 -D K1=64 -D K2=256 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=32 -D K2=64 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=64 -D K2=32 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=128 -D K2=32 -D scale=0.08838834764831845 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_32x32x8.json -D B=1 -D M=32 -D N=64 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_32x32x8.json -D B=1 -D M=64 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_32x32x8.json -D B=2 -D M=32 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_32x32x8.json -D B=2 -D M=64 -D N=128 -D K1=32 -D K2=256 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_32x32x8.json -D B=8 -D M=128 -D N=128 -D K1=64 -D K2=256 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=32 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=32 -D K2=16 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=64 -D K2=16 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_16x16x16.json -D B=1 -D M=16 -D N=32 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_16x16x16.json -D B=1 -D M=32 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_16x16x16.json -D B=2 -D M=16 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_16x16x16.json -D B=2 -D M=64 -D N=128 -D K1=32 -D K2=256 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_16x16x16.json -D B=8 -D M=128 -D N=128 -D K1=64 -D K2=256 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=32 -D K2=64 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=64 -D K2=32 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=128 -D K2=32 -D scale=0.08838834764831845 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_32x32x8.json -D B=1 -D M=32 -D N=64 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_32x32x8.json -D B=1 -D M=64 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_32x32x8.json -D B=2 -D M=32 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_32x32x8.json -D B=2 -D M=64 -D N=128 -D K1=32 -D K2=256 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_32x32x8.json -D B=8 -D M=128 -D N=128 -D K1=64 -D K2=256 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=32 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=32 -D K2=16 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=64 -D K2=16 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_16x16x16.json -D B=1 -D M=16 -D N=32 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_16x16x16.json -D B=1 -D M=32 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_16x16x16.json -D B=2 -D M=16 -D N=16 -D K1=16 -D K2=16 -D scale=0.25 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=32 -D K2=64 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=64 -D K2=32 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=128 -D K2=32 -D scale=0.08838834764831845 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_32x32x8.json -D B=1 -D M=32 -D N=64 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_32x32x8.json -D B=1 -D M=64 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_32x32x8.json -D B=2 -D M=32 -D N=32 -D K1=32 -D K2=32 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	/* ---- the sweep of wave_gemm_test.py and the other remaining Wave tests
	 * (wave/README.md, "The remaining tests"): one block, in the README's
	 * order ---- */
	/* testGemmTransposeAB (get_gemm_kernel_transpose_a_b: a [K, M] and b
	 * [K, N] read with source=(k, m), target=(m, k), i.e. the transposed
	 * mapping; 64x64x32, 2x2 waves, shared); static and M, N, K dynamic
	 * with K > 4 * BLOCK_K; test_gemm's first shape is slow */
	{"gemm_transpose_ab_16x16x16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"gemm_transpose_ab_32x32x8.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"gemm_transpose_ab_dyn_16x16x16.json -D M=100 -D N=70 -D K=160", NULL, NULL},
	{"gemm_transpose_ab_dyn_32x32x8.json -D M=100 -D N=70 -D K=160", NULL, NULL},
	/* the template with the reads' source/target left out (a, b read as [K, M], [K, N]: the mma takes them
	 * through its permute by dim name), and with a's permute written out */
	{"gemm_transpose_ab_nomap_16x16x16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"gemm_transpose_ab_nomap_32x32x8.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"gemm_transpose_ab_permute_16x16x16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"gemm_transpose_ab_permute_32x32x8.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	/* testGemmBench: get_gemm_kernel at (64, 64, 64), SchedulingType.NONE */
	{"wg_gemm_16x16x16.json -D M=64 -D N=64 -D K=64 --schedule none", NULL, NULL},
	/* testSequentialBatchedGemmWhile: iterate(B, start=init_value,
	 * condition=B < B's extent) stepped by set_symbol(B, self_index + 1),
	 * as Wave writes it (the loader folds it into the tiling constraint's
	 * start INIT and iters B - INIT; INIT a dynamic symbol for Wave's
	 * init_value argument); INIT 0 (Wave's), 3, and 9 (no trip: c keeps
	 * its contents) */
	{"sequential_batched_gemm_while.json -D INIT=0", NULL, NULL},
	{"sequential_batched_gemm_while.json -D INIT=3", NULL, NULL},
	{"sequential_batched_gemm_while.json -D INIT=9", NULL, NULL},
	/* testReferenceSpeculativeDecoding (both parametrisations) on random
	 * inputs: random indices walk anywhere, a read past a buffer gives 0
	 * (in both the kernel and the interpreter), the inner loop stops at
	 * max_trips; tests/driver/spec_decode_test.c runs Wave's own inputs and
	 * random draft trees against a C reference */
	{"speculative_sampling_t1.json -D num_spec_tokens=4 -D CUR_INDEX=0 -D DRAFT_TOKEN_ID=0 -D CUR_PROB_OFFSET=0 "
	 "-D LAST_ACCEPTED_RETRIEVE_IDX=0 -D NUM_ACCEPTED_TOKENS=0 -D LAST_OFFSET=0 -D LAST_IDX=0", NULL, NULL},
	{"speculative_sampling_t0.json -D num_spec_tokens=4 -D CUR_INDEX=0 -D DRAFT_TOKEN_ID=0 -D CUR_PROB_OFFSET=0 "
	 "-D LAST_ACCEPTED_RETRIEVE_IDX=0 -D NUM_ACCEPTED_TOKENS=0 -D LAST_OFFSET=0 -D LAST_IDX=0", NULL, NULL},
	/* lit_tests/kernel/wave/speculative_decoding.py::test_speculative_decoding:
	 * the template at batch 10, 3 speculative tokens, both thresholds 0.01 */
	{"speculative_sampling_lit.json -D BATCH_SIZE=10 -D NUM_SPECULATIVE_TOKENS=3 -D num_spec_tokens=3 -D CUR_INDEX=0 "
	 "-D DRAFT_TOKEN_ID=0 -D CUR_PROB_OFFSET=0 -D LAST_ACCEPTED_RETRIEVE_IDX=0 -D NUM_ACCEPTED_TOKENS=0 -D LAST_OFFSET=0 "
	 "-D LAST_IDX=0",
	 NULL, NULL},
	/* testSequentialBatchedGemmWhileWithOutputSum: its inner accumulator
	 * is [M, N] while a and b are [B, M, K] and [B, N, K] (B of vector
	 * shape 0, one index inside the loop over B); INIT 0 (Wave's) and 3 */
	{"sequential_batched_gemm_while_sum.json -D INIT=0", NULL, NULL},
	{"sequential_batched_gemm_while_sum.json -D INIT=3", NULL, NULL},
	/* test_persistent_gemm (templates/gemm.py get_persistent_gemm_kernel:
	 * GridConstraint(NUM_CTAS = 304), 128x256x64 tiles, a while loop over
	 * TILE_IDX from $WG0 stepped by NUM_CTAS, the tile's offsets set by
	 * set_symbol): its first shape at both MMA types and both wave
	 * layouts; with 4 and 5 workgroups each loops over several tiles
	 * (Wave's 304 CTAs take at most one tile at its shapes) */
	/* test_streamk_gemm (templates/gemm.py get_streamk_gemm_kernel as Wave
	 * traces it, (300, 300, 300), 304 CTAs): its spin-wait on lock_buffer
	 * compiles (a co-resident kernel: tests/driver/data/spin_ring.json),
	 * its work unit loop steps to the next tile's first k iteration
	 * (tests/driver/data/while_next_multiple.json), its K loop starts and
	 * runs as that loop sets; rejected where its reduction's conditional
	 * (a scalar branch: its condition is uniform) re-sets CTA_ID, which
	 * the work unit loop's next trip reads; past that, its final write,
	 * whose mapping puts every element of a thread's M at the row
	 * THREAD_ID (a per-lane symbol), is rejected too */
	{"streamk_gemm.json -D CTA_ID=0 -D WORK_UNIT_END=0 -D NEW_CTA_K_END=0 -D THREAD_ID=0 -D OUTPUT_TILE_ITER_END=0",
		"graph[18].body[26].body[10].body[2]: set_symbol 'set_cta_peer' inside the conditional 'reduce_partial' "
		"sets a symbol also set outside it", NULL},
	{"persistent_gemm_16x16x16_4x1.json", NULL, NULL},
	{"persistent_gemm_16x16x16_2x2.json", NULL, NULL},
	{"persistent_gemm_32x32x8_4x1.json", NULL, NULL},
	{"persistent_gemm_32x32x8_2x2.json", NULL, NULL},
	{"persistent_gemm_16x16x16_4x1.json -D NUM_CTAS=4", NULL, NULL},
	{"persistent_gemm_32x32x8_2x2.json -D NUM_CTAS=5", NULL, NULL},
	/* test_persistent_reordering_gemm (get_persistent_reordering_kernel:
	 * the XCD-chunked start and the grouped tile order inside the loop,
	 * whose offsets divide by Min(GROUP_SIZE_M, M_TILES - first row), a
	 * value of the loop's trip); also at 1100 rows, where the chunked
	 * start remaps workgroups 0-16 (tests/driver/persistent_test.c checks
	 * these against a GEMM) */
	{"persistent_reordering_gemm_16x16x16_4x1.json", NULL, NULL},
	{"persistent_reordering_gemm_16x16x16_2x2.json", NULL, NULL},
	{"persistent_reordering_gemm_32x32x8_4x1.json", NULL, NULL},
	{"persistent_reordering_gemm_32x32x8_2x2.json", NULL, NULL},
	{"persistent_reordering_gemm_32x32x8_4x1.json -D M=1100 -D K=64", NULL, NULL},
	/* testI8HwTransposeGemm (b i8 [K, N] read through {N: i, K: j}, one
	 * wave, 16x16x16 tiles; gfx942's i8 MFMAs); Wave's 4096^3 is not run
	 * (65536 workgroups of 256 trips), here (256, 256, 256) */
	{"i8_hw_transpose_gemm_16x16x32.json -D M=256 -D N=256 -D K=256", NULL, NULL},
	{"i8_hw_transpose_gemm_32x32x16.json -D M=256 -D N=256 -D K=256", NULL, NULL},
	/* testFloatHwTransposeGemm (f16 a [M, K], b [K, N] mapped; 128x256x64,
	 * 4x2 waves) with each of its ten MMA types at a cut of its shapes
	 * (partial tiles along M and N): the F16 16x16x32 and 32x32x16 types
	 * are gfx950's; Wave's BF16 and F8 types on f16 operands emit the same
	 * gfx950 f16 instruction (amdgpu.mfma picks it by the operand type):
	 * those six run in gfx950[] */
	{"float_hw_transpose_gemm_16x16x16_f16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_16x16x32_k8_f16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_32x32x16_k8_f16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_32x32x8_f16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_16x16x32_f16.json -D M=320 -D N=384 -D K=192", NULL, "gfx950"},
	{"float_hw_transpose_gemm_32x32x16_f16.json -D M=320 -D N=384 -D K=192", NULL, "gfx950"},
	{"float_hw_transpose_gemm_16x16x32_bf16.json -D M=320 -D N=384 -D K=192", NULL, "gfx950"},
	{"float_hw_transpose_gemm_32x32x16_bf16.json -D M=320 -D N=384 -D K=192", NULL, "gfx950"},
	{"float_hw_transpose_gemm_16x16x32_f8.json -D M=320 -D N=384 -D K=192", NULL, "gfx950"},
	{"float_hw_transpose_gemm_32x32x16_f8.json -D M=320 -D N=384 -D K=192", NULL, "gfx950"},
	/* testPackedNonTransposeGemm (a i32 [M, K/2], b i32 [K/2, N] read
	 * through {N: i, K: j}, both bitcast to f16; the sweep's transcription
	 * beside packed_nontranspose_gemm_*.json above): static and with M, N,
	 * K dynamic (K/2 windowed by the loop over K, not the runtime K/2),
	 * also at unaligned shapes */
	{"packed_non_transpose_gemm_16x16x16.json -D M=128 -D N=192 -D K=160 --packed a:128,80 --packed b:80,192", NULL,
		NULL},
	{"packed_non_transpose_gemm_32x32x8.json -D M=128 -D N=192 -D K=160 --packed a:128,80 --packed b:80,192", NULL,
		NULL},
	{"packed_non_transpose_gemm_dyn_16x16x16.json -D M=128 -D N=192 -D K=160 --packed a:128,80 --packed b:80,192",
		NULL, NULL},
	{"packed_non_transpose_gemm_dyn_32x32x8.json -D M=128 -D N=192 -D K=160 --packed a:128,80 --packed b:80,192",
		NULL, NULL},
	{"packed_non_transpose_gemm_dyn_16x16x16.json -D M=100 -D N=70 -D K=100 --packed a:100,50 --packed b:50,70",
		NULL, NULL},
	{"packed_non_transpose_gemm_dyn_32x32x8.json -D M=33 -D N=17 -D K=70 --packed a:33,35 --packed b:35,17",
		NULL, NULL},
	/* test_explicit_shared_gemm: tkw.allocate and shared_memory_barrier
	 * are not in format 1; the same GEMM with a and b shared arguments
	 * (wavecc stages them through LDS itself) at three of its (m, n, k) x
	 * block sets */
	{"wg_gemm_16x16x16.json -D M=64 -D N=128 -D K=64", NULL, NULL},
	{"wg_gemm_16x16x16.json -D M=256 -D N=256 -D K=128", NULL, NULL},
	{"wg_gemm_16x16x16.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64", NULL, NULL},
	/* the manual-schedule tests (templates/test_kernels.py and
	 * schedules/gemm_two_pp_cluster.py): their kernels are get_gemm_kernel's
	 * (64x64x32, 2x2 waves) and get_tagged_gemm's (4x2 waves, the
	 * pingpong JSON), at their shapes; the schedule is wavecc's own */
	{"wg_gemm_16x16x16.json -D M=512 -D N=512 -D K=512 --schedule prefetch", NULL, NULL},
	{"wg_gemm_pingpong_16x16x16.json -D M=128 -D N=256 -D K=1024", NULL, NULL},
	{"wg_gemm_16x16x16.json -D M=256 -D N=256 -D K=512", NULL, NULL},
	{"wg_gemm_16x16x16.json -D M=256 -D N=256 -D K=544", NULL, NULL},
	{"wg_gemm_pingpong_16x16x16.json -D M=256 -D N=256 -D K=232 -D BLOCK_M=64 -D BLOCK_N=32 -D BLOCK_K=64 "
	 "--schedule modulo", NULL, NULL},
	{"wg_gemm_pingpong_16x16x16.json -D M=512 -D N=512 -D K=512 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64",
		NULL, NULL},
	/* dynamic_strides_test.py: each strided view's buffer an argument of
	 * its own run-time row length (KA, KB, NC: dynamic symbols), the view
	 * its read or write mapping (the offset view: i + 4, j + 8), static
	 * and with M, N, K dynamic; Wave's shapes are slow, here (128, 192,
	 * 160) with the same row-length ratios */
	{"gemm_dynamic_strides.json -D M=128 -D N=192 -D K=160 -D KA=640 -D KB=320", NULL, NULL},
	{"gemm_dynamic_strides_dyn.json -D M=128 -D N=192 -D K=160 -D KA=640 -D KB=320", NULL, NULL},
	{"gemm_dynamic_strides_output.json -D M=128 -D N=192 -D K=160 -D NC=576", NULL, NULL},
	{"gemm_dynamic_strides_output_dyn.json -D M=128 -D N=192 -D K=160 -D NC=576", NULL, NULL},
	{"gemm_dynamic_strides_in_out.json -D M=128 -D N=192 -D K=160 -D KA=320 -D KB=320 -D NC=384", NULL, NULL},
	{"gemm_dynamic_strides_in_out_dyn.json -D M=128 -D N=192 -D K=160 -D KA=320 -D KB=320 -D NC=384", NULL, NULL},
	{"gemm_dynamic_strides_offset.json -D M=128 -D N=192 -D K=160 -D MA=132 -D KA=168 -D NB=194 -D KB=168",
		NULL, NULL},
	{"gemm_dynamic_strides_offset_dyn.json -D M=128 -D N=192 -D K=160 -D MA=132 -D KA=168 -D NB=194 -D KB=168",
		NULL, NULL},
	/* test_vector_shape_override.py: K 64 over F32_16x16x32_F16's 32
	 * (gfx950's MFMA: it runs in gfx950[]), M, N 32 over F32_16x16x16_F16's
	 * 16, and M 20, N 24 (Wave skips it: "known to give incorrect results";
	 * here it passes) */
	{"vector_shape_override_k.json", NULL, "gfx950"},
	{"vector_shape_override_mn.json", NULL, NULL},
	{"vector_shape_override_non_multiples.json", NULL, NULL},
	/* dist_gemm_test.py::testDistGemm (get_gemm_kernel with
	 * DeviceConstraint(M, DEVICE_M, 0), DeviceConstraint(N, DEVICE_N, 1)):
	 * wavecc runs every device's tile in one launch; DEVICE_M, DEVICE_N are
	 * M / device_m, N / device_n: one device, and (2, 4) devices */
	{"dist_gemm_16x16x16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"dist_gemm_32x32x8.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"dist_gemm_16x16x16.json -D M=128 -D N=192 -D K=160 -D DEVICE_M=64 -D DEVICE_N=48", NULL, NULL},
	/* moe_test.py::testReferenceMoe: its two kernels (templates/moe.py) at
	 * the loop's shapes: the gate/up GEMM (M tokens of an expert, K 511, N
	 * 128 or 1024), the down GEMM (K = n, N 511), silu_and_mul; f16 and
	 * bf16, waves_per_eu 2, denormals preserve-sign */
	{"moe_gemm_f16.json -D M=33 -D N=128 -D K=511", NULL, NULL},
	{"moe_gemm_f16.json -D M=1 -D N=1024 -D K=511", NULL, NULL},
	{"moe_gemm_f16.json -D M=9 -D N=511 -D K=128", NULL, NULL},
	{"moe_gemm_bf16.json -D M=33 -D N=1024 -D K=511", NULL, NULL},
	{"moe_gemm_bf16.json -D M=9 -D N=511 -D K=1024", NULL, NULL},
	{"moe_silu_and_mul_f16.json -D M=33 -D N=128", NULL, NULL},
	{"moe_silu_and_mul_f16.json -D M=1 -D N=1024", NULL, NULL},
	{"moe_silu_and_mul_bf16.json -D M=9 -D N=1024", NULL, NULL},
	{"moe_silu_and_mul_bf16.json -D M=33 -D N=128", NULL, NULL},
	/* attention/paged_attention_test.py (templates/paged_decode_attention.py,
	 * 8 KV splits): phase 0 (GQA; f16, and bf16 with logit_cap 30) at
	 * Wave's shapes (query heads B, kv heads BH, head size K1, head size kv
	 * N, sequences S, tokens): HEAD_BLOCK_SIZE = BLOCK_B = min(16 B_WAVES,
	 * B / BH), B_WAVES = clamp(B / BH / 16, 1, 4). The request_indices
	 * reads along S (workgroup dim 0, tile 1) hold the workgroup's sequence
	 * in every lane (Wave's MMA mode gives S no lane part), so K2's extent,
	 * the loop's start (KV_START_IDX, SPLIT_OFF) and trips (SPLIT_LEN) are
	 * one value per workgroup; --paged 2,3 and 1,9 leave splits empty (the
	 * Eq(SPLIT_LEN, 0) branch). With 64 query heads a kv head, four waves
	 * along B share the one wave's window of BH, the primary dim of
	 * workgroup dim 1 */
#define PAGED0_ARGS(S, SP1, B, BH, K1, N, BB, BW, K2, LEN) " -D S=" #S " -D SP1=" #SP1 " -D B=" #B " -D BH=" #BH \
	" -D K1=" #K1 " -D N=" #N " -D BLOCK_B=" #BB " -D B_WAVES=" #BW " -D K2=" #K2 " -D N_KV=" #K2 \
	" -D KV_START_IDX=0 -D SEQ_LEN=0 -D SPLIT_OFF=0 -D SPLIT_LEN=0 --paged " #S "," #LEN
	{"paged_decode_phase0_f16.json" PAGED0_ARGS(2, 3, 16, 1, 64, 64, 16, 1, 200, 100), NULL, NULL},
	{"paged_decode_phase0_f16.json" PAGED0_ARGS(2, 3, 16, 1, 65, 64, 16, 1, 200, 100), NULL, NULL},
	{"paged_decode_phase0_f16.json" PAGED0_ARGS(1, 2, 6, 1, 128, 128, 6, 1, 100, 100), NULL, NULL},
	{"paged_decode_phase0_f16.json" PAGED0_ARGS(1, 2, 64, 1, 13, 13, 64, 4, 100, 100), NULL, NULL},
	{"paged_decode_phase0_f16.json" PAGED0_ARGS(1, 2, 16, 2, 64, 64, 8, 1, 100, 100), NULL, NULL},
	{"paged_decode_phase0_f16.json" PAGED0_ARGS(2, 3, 16, 1, 64, 64, 16, 1, 6, 3), NULL, NULL},
	{"paged_decode_phase0_f16.json" PAGED0_ARGS(2, 3, 64, 1, 80, 80, 64, 4, 256, 128), NULL, NULL},
	{"paged_decode_phase0_f16.json" PAGED0_ARGS(2, 3, 128, 2, 80, 80, 64, 4, 1000, 500), NULL, NULL},
	{"paged_decode_phase0_f16.json" PAGED0_ARGS(1, 2, 17, 1, 1, 1, 16, 1, 1, 1), NULL, NULL},
	{"paged_decode_phase0_f16.json" PAGED0_ARGS(1, 2, 2, 1, 1, 1, 2, 1, 9, 9), NULL, NULL},
	{"paged_decode_phase0_bf16_cap.json" PAGED0_ARGS(2, 3, 16, 1, 64, 64, 16, 1, 200, 100), NULL, NULL},
	{"paged_decode_phase0_bf16_cap.json" PAGED0_ARGS(1, 2, 16, 2, 64, 64, 8, 1, 100, 100), NULL, NULL},
	{"paged_decode_phase0_bf16_cap.json" PAGED0_ARGS(2, 3, 16, 1, 64, 64, 16, 1, 6, 3), NULL, NULL},
	{"paged_decode_phase0_bf16_cap.json" PAGED0_ARGS(1, 2, 2, 1, 1, 1, 2, 1, 9, 9), NULL, NULL},
	{"paged_decode_phase0_bf16_cap.json" PAGED0_ARGS(2, 3, 64, 1, 80, 80, 64, 4, 256, 128), NULL, NULL},
	/* testPagedFlashDecodingMHA's phase 0 (traced from Wave's template by
	 * the Python package: BLOCK_K2 64, one head a workgroup, GenericDot
	 * along M for both products, k and v holding the head B, the N of
	 * both) at its shapes (heads, head size, head size kv, sequences,
	 * tokens); (128, 80, 80, 2, 500) in slow[] */
#define PAGED0_MHA_ARGS(S, SP1, B, K1, N, K2, LEN) " -D S=" #S " -D SP1=" #SP1 " -D B=" #B " -D K1=" #K1 " -D N=" #N \
	" -D K2=" #K2 " -D N_KV=" #K2 " -D KV_START_IDX=0 -D SEQ_LEN=0 -D SPLIT_OFF=0 -D SPLIT_LEN=0 --paged " #S "," #LEN
	{"paged_decode_mha_phase0_f16.json" PAGED0_MHA_ARGS(2, 3, 16, 64, 64, 200, 100), NULL, NULL},
	{"paged_decode_mha_phase0_f16.json" PAGED0_MHA_ARGS(2, 3, 16, 64, 64, 6, 3), NULL, NULL},
	{"paged_decode_mha_phase0_f16.json" PAGED0_MHA_ARGS(2, 3, 64, 80, 80, 256, 128), NULL, NULL},
	/* phase 1 (combining the splits; the same for testPagedFlashDecodingMHA)
	 * at every (query heads B, head_size_kv N, sequences S) of both tests'
	 * shapes: the loop over U runs SPLITS_ACTIVE = Min(sequence length, U)
	 * trips, set by set_symbol (the launch value 8 is not the set one where
	 * a sequence is shorter: --paged 2,3, 1,1 and 1,9) */
#define PAGED1_REJECT NULL
	{"paged_decode_phase1_f16.json -D S=2 -D SP1=3 -D B=16 -D N=64 -D SPLITS_ACTIVE=8 --paged 2,100", PAGED1_REJECT, NULL},
	{"paged_decode_phase1_f16.json -D S=2 -D SP1=3 -D B=16 -D N=64 -D SPLITS_ACTIVE=8 --paged 2,3", PAGED1_REJECT, NULL},
	{"paged_decode_phase1_f16.json -D S=1 -D SP1=2 -D B=6 -D N=128 -D SPLITS_ACTIVE=8 --paged 1,100", PAGED1_REJECT, NULL},
	{"paged_decode_phase1_f16.json -D S=1 -D SP1=2 -D B=64 -D N=13 -D SPLITS_ACTIVE=8 --paged 1,100", PAGED1_REJECT, NULL},
	{"paged_decode_phase1_f16.json -D S=1 -D SP1=2 -D B=16 -D N=64 -D SPLITS_ACTIVE=8 --paged 1,100", PAGED1_REJECT, NULL},
	{"paged_decode_phase1_f16.json -D S=2 -D SP1=3 -D B=64 -D N=80 -D SPLITS_ACTIVE=8 --paged 2,128", PAGED1_REJECT, NULL},
	{"paged_decode_phase1_f16.json -D S=1 -D SP1=2 -D B=17 -D N=1 -D SPLITS_ACTIVE=8 --paged 1,1", PAGED1_REJECT, NULL},
	{"paged_decode_phase1_f16.json -D S=1 -D SP1=2 -D B=2 -D N=1 -D SPLITS_ACTIVE=8 --paged 1,9", PAGED1_REJECT, NULL},
	{"paged_decode_phase1_bf16.json -D S=2 -D SP1=3 -D B=16 -D N=64 -D SPLITS_ACTIVE=8 --paged 2,100", PAGED1_REJECT, NULL},
	{"paged_decode_phase1_bf16.json -D S=2 -D SP1=3 -D B=64 -D N=80 -D SPLITS_ACTIVE=8 --paged 2,128", PAGED1_REJECT, NULL},
	/* more than 64 query heads: B in 64-head tiles, N in 16s; the
	 * division of the [S, B, N] sum by the [S, B] one is not compiled (its
	 * layout change through LDS) */
#define PAGED1_BIG_REJECT NULL
	{"paged_decode_phase1_f16_big_b.json -D S=2 -D SP1=3 -D B=128 -D N=80 -D SPLITS_ACTIVE=8 --paged 2,500",
		PAGED1_BIG_REJECT, NULL},
	{"paged_decode_phase1_bf16_big_b.json -D S=2 -D SP1=3 -D B=128 -D N=80 -D SPLITS_ACTIVE=8 --paged 2,500",
		PAGED1_BIG_REJECT, NULL},
	{"paged_decode_phase1_bf16_big_b.json -D S=32 -D SP1=33 -D B=128 -D N=512 -D SPLITS_ACTIVE=8 --paged 32,500",
		PAGED1_BIG_REJECT, NULL},
	/* ---- end of the sweep's block ---- */
	/* ---- independent transcriptions (wave/README.md, "Independent
	 * transcriptions"): lit_tests/kernel/wave/gemm.py, mma.py,
	 * attention/attention.py, bounds_check.py and codegen.py kernels
	 * written afresh from Wave's source at each test's own subs ---- */
	{"lit_gemm.json", NULL, NULL},
	{"lit_gemm_non_transposed.json", NULL, NULL},
	{"lit_gemm_small_tile.json", NULL, NULL},
	{"lit_gemm_dot.json", NULL, NULL},
	{"lit_gemm_cdna2_int.json", NULL, NULL},
	{"lit_gemm_cdna3_int.json", NULL, NULL},
	{"lit_gemm_packed.json --packed a:64,32 --packed b:128,32", NULL, NULL},
	{"lit_gemm_batched.json", NULL, NULL},
	{"lit_gemm_batched_permute.json", NULL, NULL},
	/* test_batched_gemm with the batch dim in the middle ([M, B, K], [N, B, K]) and last ([M, K, B], [N, K, B]
	 * into c [M, N, B]): the MMA's m, n are the accumulator's, k by name (B was taken for M) */
	{"batched_gemm_batch_middle.json", NULL, NULL},
	{"batched_gemm_batch_last.json", NULL, NULL},
	{"batched_gemm_batch_last.json -D M=96 -D N=64 -D K=48 -D B=3", NULL, NULL},
	/* b [K, N, B] in LDS: its box [16, 48, 1] grows along N, not the one-element B */
	{"batched_gemm_batch_last_kn.json", NULL, NULL},
	{"batched_gemm_batch_last_kn.json -D M=96 -D N=80 -D K=48 -D B=3", NULL, NULL},
	{"lit_gemm_broadcast_batched_vmma.json", NULL, NULL},
	{"lit_gemm_pipelined.json", NULL, NULL},
	{"lit_gemm_prefetch.json", NULL, NULL},
	{"lit_gemm_four_stage.json", NULL, NULL},
	{"lit_gemm_dynamic_pipelined.json -D M=128 -D N=128 -D K=160", NULL, NULL},
	{"lit_gemm_dynamic_pipelined.json -D M=100 -D N=70 -D K=160", NULL, NULL},
	/* test_gemm_two_cluster_pingpong's 4096^3 as (256, 512, 256) */
	{"lit_gemm_two_cluster_pingpong.json -D M=256 -D N=512 -D K=256", NULL, NULL},
	{"lit_gemm_gpr_offsets.json", NULL, "gfx942"},
	{"lit_gemm_max_shared_read_32x32x16.json", NULL, NULL},
	{"lit_gemm_max_shared_read_16x16x32.json", NULL, NULL},
	{"lit_chained_gemm.json", NULL, NULL},
	{"lit_chained_gemm_32x32x8.json", NULL, NULL},
	{"lit_chained_gemm_32x32x16.json", NULL, "gfx942"},
	{"lit_chained_gemm_16x16x32.json", NULL, "gfx942"},
	{"lit_mma.json", NULL, NULL},
	{"lit_mma_32x32x8.json", NULL, NULL},
	{"lit_mma_32x32x16.json", NULL, "gfx942"},
	{"lit_mma_16x16x32.json", NULL, "gfx942"},
	{"lit_mma_linear_shared_access.json", NULL, NULL},
	{"lit_attention_32x32x8.json", NULL, NULL},
	{"lit_attention_32x32x8_dyn.json -D B=8 -D M=128 -D N=128 -D K2=256", NULL, NULL},
	{"lit_attention_32x32x8_dyn.json -D B=2 -D M=100 -D N=70 -D K2=300", NULL, NULL},
	{"lit_bounds_check.json", NULL, NULL},
	{"lit_bounds_check_mapping.json", NULL, NULL},
	{"lit_bounds_check_mapping_dyn.json", NULL, NULL},
	{"lit_cg_atomic_min.json --randint a:2,256,0,10", NULL, NULL},
	/* lit codegen.py's elementwise lowerings: at the test's bindings (waves
	 * of 8x8 under a 16x16 vector shape, writing a in place) rejected as a
	 * race; with one wave per workgroup (_wt) they pass (i1 results of
	 * the comparisons written as bytes; the binary chain's remf exact) */
#define LIT_ELT_RACE "each wave writes 64 elements along M where its window is 8"
	{"lit_cg_unary_lowerings.json", LIT_ELT_RACE, NULL},
	{"lit_cg_binary_lowerings.json", LIT_ELT_RACE, NULL},
	{"lit_cg_int_comparisons.json", LIT_ELT_RACE, NULL},
	{"lit_cg_verbose_int_comparisons.json", LIT_ELT_RACE, NULL},
	{"lit_cg_float_comparisons.json", LIT_ELT_RACE, NULL},
	{"lit_cg_unary_lowerings_wt.json", NULL, NULL},
	{"lit_cg_binary_lowerings_wt.json", NULL, NULL},
	{"lit_cg_int_comparisons_wt.json", NULL, NULL},
	{"lit_cg_verbose_int_comparisons_wt.json", NULL, NULL},
	{"lit_cg_float_comparisons_wt.json", NULL, NULL},
	/* wave_gemm_test.py::testNonTransposeGemm (64x128x32, b [K, N] through
	 * {N: i, K: j}); test_gemm's shapes in slow[] */
	{"nontranspose_gemm_16x16x16.json -D M=128 -D N=256 -D K=160", NULL, NULL},
	{"nontranspose_gemm_32x32x8.json -D M=100 -D N=70 -D K=90", NULL, NULL},
	{"nontranspose_gemm_dyn_16x16x16.json -D M=100 -D N=70 -D K=160", NULL, NULL},
	{"nontranspose_gemm_dyn_32x32x8.json -D M=128 -D N=256 -D K=160", NULL, NULL},
	/* wave_gemm_test.py::testBatchedGemm at (8, 256, 128, 192) */
	{"batched_gemm.json", NULL, NULL},
	/* testGemmDumpOverrideSchedule's bf16 with dynamic_dims (MODULO) */
	{"wg_gemm_bf16_dyn_16x16x16.json -D M=100 -D N=70 -D K=160 --schedule modulo", NULL, NULL},
	/* vanilla_attention_test.py::testAttentionBSHD_Prefetch_MultiBuffer
	 * (get_bshd_attention_kernel without a mask, 8 waves, BLOCK_M 256;
	 * require_cdna4 in Wave for its benchmark, CDNA3 MMAs): its
	 * (64, 4096, 128, 128, 4096) as 2 heads of 256 queries and 300 keys
	 * (a partial K2 tile); lit attention.py's gather_to_shared form at 2
	 * of its 8 heads */
	{"bshd_attention_prefetch_mb_32x32x8.json -D H=2 -D M=256 -D K2=300 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bshd_attention_prefetch_mb_16x16x16.json -D H=2 -D M=256 -D K2=300 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"lit_attention_bshd_g2s.json -D H=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* manual_scheduled_attention_test.py::test_tagged_attention
	 * (templates/tagged_attention.py, use_global_to_shared: loaded straight
	 * into LDS on gfx950); its configs (heads, kv heads, N_Q = N_KV, 4 or 8
	 * waves) by -D, MANUAL as the default schedule; the F32_16x16x32_F16
	 * form in the gfx950 list */
	{"tagged_attention_16x16x16.json --schedule none --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x16.json -D NUM_WAVES=8 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x16.json -D NUM_WAVES=8 -D H=8 -D H_KV=2 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x16_causal.json --schedule none --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x16_causal.json -D NUM_WAVES=8 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x16_causal.json -D NUM_WAVES=8 -D H=8 -D H_KV=2 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* lit attention/evoformer.py::test_evoformer (its own kernel,
	 * F32_16x16x16_F16) with BN 256 and H 4 cut to 2; lit
	 * attention/prefill_attention.py's shape (16 query heads on 4 kv heads,
	 * head size 64, two sequences of at most 12 tokens, 20 in all) */
	{"lit_evoformer.json -D BN=2 -D H=2", NULL, NULL},
	{"prefill_attention_16x16x16.json -D H=16 -D H_KV=4 -D HEAD_RATIO=4 -D D_Q=64 -D D_KV=64 -D MAX_SEQ_LEN=12 "
		"-D N_Q=20 -D N_KV=20 -D OFFSET=0 --atol 1e-3 --rtol 1e-3 --prefill 12,8", NULL, NULL},
	/* lit codegen.py::test_atomic_add as Wave writes it (dyn_atomic_add.json
	 * is the histogram it means) */
	{"lit_cg_atomic_add_histogram.json --randint indices:64,0,4", "no expression for dim NUMEL of dynamic value 'idx'", NULL},
	/* ---- end of the independent transcriptions ---- */
	/* ---- xv2: independent transcriptions of this round (wave/README.md, "xv2") ---- */
	/* extend_attention_test.py::testExtendAttention at get_test_shapes("extend")[1] (one sequence, 16 query
	 * heads on 2 kv heads, head size 64, block_size 128: BLOCK_N_Q 128, BLOCK_N_KV 64) and [2] (four sequences,
	 * 4 query heads on 4 kv heads, head size 256, block_size 64), causal and not, lengths drawn in 1..511 as
	 * Wave's create_inputs does, the second N_Q tile partial; heads cut to 9 (head 8 reads kv head 1) and 2
	 * here, Wave's 16 and 4 at longer lengths in slow[] */
#define XV2_EXT1 " -D H=9 -D N_Q=160 -D N_KV=224 -D S=2 -D EXT_IDX=0 -D KV_START_IDX=0 -D MAX_EXTEND_SEQ_LEN=140 --atol 1e-3 --rtol 1e-3 --extend 75/140:224"
	{"xv2_extend_h16kv2_d64_causal_32x32x8.json" XV2_EXT1, NULL, NULL},
#define XV2_EXT2 " -D H=2 -D H_KV=2 -D N_Q=160 -D N_KV=416 -D S=5 -D EXT_IDX=0 -D KV_START_IDX=0 -D MAX_EXTEND_SEQ_LEN=70 --atol 1e-3 --rtol 1e-3 --extend 20/33,45/70,5/1,100/17:416"
	{"xv2_extend_h4kv4_d256_16x16x16.json" XV2_EXT2, NULL, NULL},
	/* testExtendAttention's use_custom_mask at the same shapes (custom_mask and mask_offsets as Wave's
	 * create_inputs writes them: --extend ...:mask; MASK_LEN the sum of ext x (prefix + ext)) */
#define XV2_EXT1_MASK " -D H=9 -D N_Q=160 -D N_KV=224 -D S=2 -D EXT_IDX=0 -D KV_START_IDX=0 -D MAX_EXTEND_SEQ_LEN=140 " \
	"-D MASK_LEN=30100 -D SEQ_LEN=0 -D MASK_START_IDX=0 -D PREFIX_LEN=0 --atol 1e-3 --rtol 1e-3 --extend 75/140:224:mask"
#define XV2_EXT2_MASK " -D H=2 -D H_KV=2 -D N_Q=160 -D N_KV=416 -D S=5 -D EXT_IDX=0 -D KV_START_IDX=0 -D MAX_EXTEND_SEQ_LEN=70 " \
	"-D MASK_LEN=11794 -D SEQ_LEN=0 -D MASK_START_IDX=0 -D PREFIX_LEN=0 --atol 1e-3 --rtol 1e-3 --extend 20/33,45/70,5/1,100/17:416:mask"
	{"xv2_extend_h4kv4_d256_custom_mask_32x32x8.json" XV2_EXT2_MASK, NULL, NULL},
	/* vanilla_attention_test.py::testAttentionPure (templates/vanilla_attention.py get_vanilla_attention_kernel,
	 * its four CDNA MMA pairs) and testTransposedVAttentionPure with dynamic_dims at get_test_shapes("attention")[1]
	 * (40, 1024, 64, 64, 1024): one head of the 40 (the dynamic kernel also at an unaligned M and K2), and
	 * testAttentionPure's MODULO schedule */
	{"xv2_vanilla_attention_32x32x16_k8.json -D B=1 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_vanilla_attention_vt_dyn_32x32x8.json -D B=1 -D M=1000 -D N=64 -D K2=1001 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* testAttentionBSHD (get_bshd_attention_kernel with is_custom_mask) at (40, 1024, 64, 64, 1024) under its
	 * MODULO schedule: one head, M cut to 256; its g2s form runs in gfx950[] */
	{"xv2_bshd_custom_mask_modulo_32x32x16_k8.json -D H=1 -D M=256 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,256", NULL, NULL},
	{"xv2_bshd_custom_mask_modulo_16x16x16.json -D H=1 -D M=256 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,256", NULL, NULL},
	/* decode_attention_test.py::testFlashDecoding (templates/decode_attention.py get_decode_attention_kernels:
	 * phase 0 without a loop, K2 over workgroups and 2 waves, U = ceiling(K2 / 32) its symbolic alias; phase 1 the
	 * loop over U, its reads at the trip's U) at get_test_shapes("decode_attention")[0] with B 2, static and
	 * dynamic; Wave also lists U among the dynamic symbols of its dynamic phase 0, which is rejected here, located
	 * (U is the alias's) */
	{"xv2_decode_phase0_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_decode_phase0_32x32x8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_decode_phase0_dyn_16x16x16.json -D B=2 -D M=128 -D N=128 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_decode_phase0_dyn_32x32x8.json -D B=2 -D M=100 -D N=70 -D K2=200 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_decode_phase0_dyn_u_16x16x16.json -D B=2 -D M=128 -D N=128 -D K2=256 -D U=8", "alias source 'U' is already defined", NULL},
	{"xv2_decode_phase1.json -D B=2", NULL, NULL},
	{"xv2_decode_phase1_dyn.json -D B=2 -D M=100 -D N=70 -D U=7", NULL, NULL},
	/* quantized_attention_test.py::testAttentionPure (templates/quantized_attention.py, the Brevitas SDXL
	 * per-tensor fp8 scales, both MMA pairs; gfx942 only) and the template's is_causal (wave_sdpa_fp8's), at
	 * N_Q 256 and an unaligned N_KV 300 on Wave's quantized_tensor inputs */
	{"xv2_quantized_attention_32x32x16.json -D N_Q=256 -D N_KV=300 --quant q:1,256,64,128 --quant k:1,300,64,128 --quant v:1,300,64,128", NULL, "gfx942"},
	{"xv2_quantized_attention_16x16x32.json -D N_Q=256 -D N_KV=300 --quant q:1,256,64,128 --quant k:1,300,64,128 --quant v:1,300,64,128", NULL, "gfx942"},
	{"xv2_quantized_attention_causal_32x32x16.json -D N_Q=256 -D N_KV=300 --quant q:1,256,64,128 --quant k:1,300,64,128 --quant v:1,300,64,128", NULL, "gfx942"},
	{"xv2_quantized_attention_causal_16x16x32.json -D N_Q=256 -D N_KV=300 --quant q:1,256,64,128 --quant k:1,300,64,128 --quant v:1,300,64,128", NULL, "gfx942"},
	/* paged_attention_test.py::testPagedFlashDecoding, phase 0 (templates/paged_decode_attention.py, GQA) in the
	 * two (dtype, logit_cap) combinations of its parametrization the paged_decode_phase0_* files leave out: f16
	 * with the cap 30 and bf16 without; one file per head size (the layer scale is a Python float); request
	 * indices as create_inputs jitters them (--paged), the block table Wave's arange (--iota); Wave's
	 * tolerances. HEAD_BLOCK_SIZE and B_WAVES as the template computes them from the head ratio */
#define XV2_PAGED_SET "-D SEQ_LEN=0 -D KV_START_IDX=0 -D SPLIT_OFF=0 -D SPLIT_LEN=0 --atol 1e-3 --rtol 1e-2"
	{"xv2_paged_phase0_f16_cap_d64.json -D B=16 -D BH=1 -D K1=64 -D N=64 -D HEAD_BLOCK_SIZE=16 -D B_WAVES=1 -D S=2 -D K2=200 -D N_KV=200 " XV2_PAGED_SET " --paged 2,100 --iota kv_indices:200", NULL, NULL},
	{"xv2_paged_phase0_f16_cap_d64.json -D B=16 -D BH=2 -D K1=64 -D N=64 -D HEAD_BLOCK_SIZE=8 -D B_WAVES=1 -D S=1 -D K2=100 -D N_KV=100 " XV2_PAGED_SET " --paged 1,100 --iota kv_indices:100", NULL, NULL},
	{"xv2_paged_phase0_f16_cap_d64.json -D B=16 -D BH=1 -D K1=64 -D N=64 -D HEAD_BLOCK_SIZE=16 -D B_WAVES=1 -D S=2 -D K2=6 -D N_KV=6 " XV2_PAGED_SET " --paged 2,3 --iota kv_indices:6", NULL, NULL},
	{"xv2_paged_phase0_f16_cap_d1.json -D B=2 -D BH=1 -D K1=1 -D N=1 -D HEAD_BLOCK_SIZE=2 -D B_WAVES=1 -D S=1 -D K2=9 -D N_KV=9 " XV2_PAGED_SET " --paged 1,9 --iota kv_indices:9", NULL, NULL},
	{"xv2_paged_phase0_f16_cap_d1.json -D B=17 -D BH=1 -D K1=1 -D N=1 -D HEAD_BLOCK_SIZE=16 -D B_WAVES=1 -D S=1 -D K2=1 -D N_KV=1 " XV2_PAGED_SET " --paged 1,1 --iota kv_indices:1", NULL, NULL},
	{"xv2_paged_phase0_bf16_d64.json -D B=16 -D BH=1 -D K1=64 -D N=64 -D HEAD_BLOCK_SIZE=16 -D B_WAVES=1 -D S=2 -D K2=200 -D N_KV=200 " XV2_PAGED_SET " --paged 2,100 --iota kv_indices:200", NULL, NULL},
	{"xv2_paged_phase0_bf16_d128.json -D B=6 -D BH=1 -D K1=128 -D N=128 -D HEAD_BLOCK_SIZE=6 -D B_WAVES=1 -D S=1 -D K2=100 -D N_KV=100 " XV2_PAGED_SET " --paged 1,100 --iota kv_indices:100", NULL, NULL},
	{"xv2_paged_phase0_bf16_d13.json -D B=64 -D BH=1 -D K1=13 -D N=13 -D HEAD_BLOCK_SIZE=64 -D B_WAVES=4 -D S=1 -D K2=100 -D N_KV=100 " XV2_PAGED_SET " --paged 1,100 --iota kv_indices:100", NULL, NULL},
	{"xv2_paged_phase0_bf16_d65.json -D B=16 -D BH=1 -D K1=65 -D N=64 -D HEAD_BLOCK_SIZE=16 -D B_WAVES=1 -D S=2 -D K2=200 -D N_KV=200 " XV2_PAGED_SET " --paged 2,100 --iota kv_indices:200", NULL, NULL},
	{"xv2_paged_phase0_bf16_d64.json -D B=16 -D BH=1 -D K1=64 -D N=64 -D HEAD_BLOCK_SIZE=16 -D B_WAVES=1 -D S=2 -D K2=6 -D N_KV=6 " XV2_PAGED_SET " --paged 2,3 --iota kv_indices:6", NULL, NULL},
	/* ---- end of xv2 ---- */
	/* ---- xv3: independent transcriptions of this round (wave/README.md, "xv3") ---- */
	/* testGQABSHDAttention (32 query heads on 1 kv head: the head ratio 32 is in the mappings; head size 256) and
	 * testCausalGQABSHDAttentionF8 at N_Q = N_KV = 130 (two N_Q tiles, the second partial); testChainedGemm(F8) */
	{"xv3_chained_gemm_f8_16x16x32.json -D B=1 --atol 5e-2 --rtol 5e-3", NULL, "gfx942"},
	{"xv3_evoformer_f16.json -D BN=1 -D H=1", NULL, NULL},
	{"xv3_gqa_bshd_causal_sw_16x16x16.json -D H=1 -D N_D=130 -D N_KV=130 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* testAttentionBackward_dv with the scale baked into the register as Wave's Python float (one file per K1) */
	{"xv3_attention_bwd_dv_16x16x16_k1_64.json -D B=1 -D M=16 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_32x32x8_k1_32.json -D B=1 -D M=64 -D N=32 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	/* testAttentionBackward (the whole backward) written with Wave's operand order, log2e * (s - lse): Wave types
	 * a product of the same dims in two orders with the rhs's order, the format with the lhs's; the mma after it
	 * finds its k by name and gets its operand through a permute (frontend/load_mma.c; wave/README.md, xv3) */
	{"xv3_attention_bwd_wave_order_16x16x16.json -D B=1 -D M=16 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_wave_order_16x16x16.json -D B=2 -D M=32 -D N=16 -D K2=48 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	/* bdo: testAttentionBackward_dk in Wave's order (scale_ds_reg * ds_ij), and a cumsum without dim of a
	 * product of the same dims in two orders (Wave's last dim: the rhs's order) */
	{"bdo_attention_bwd_dk_wave_order_16x16x16.json -D B=1 -D M=16 -D N=16 -D K1=16 -D K2=32 -D scale=0.25 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"bdo_attention_bwd_dk_wave_order_32x32x8.json -D B=1 -D M=32 -D N=32 -D K1=64 -D K2=32 -D scale=0.125 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"bdo_scan_wave_order.json -D M=3 -D N=27", NULL, NULL},
	{"xv3_attention_bwd_swapped_32x32x8_k1_32.json -D B=1 -D M=32 -D N=32 -D K2=64 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	/* ---- end of xv3 ---- */
};

/* Cases that take minutes on the emulator (81920 workgroups of 80 trips
 * for testGemmSmallTiles at test_gemm's first shape); they run only with
 * WAVECC_WAVE_SLOW=1. */
/* Wave's GEMM and attention tests also run under SchedulingType.MODULO and
 * FOUR_STAGE, and some attention tests with waves_per_eu (testPureGemm, testGemmCodegen, testAttention's
 * enable_scheduling), which wavecc compiles as prefetch with two LDS stages
 * (driver/options.c): a sample of those cases under each name. */
/* Wave's prefetched MXFP4 GEMM (256x256 tiles, 8 waves) and its
 * preshuffled-scale GEMM: 8 waves need 2 per SIMD, which allow each 256
 * VGPRs and AGPRs; prefetched they would need 284 and 312. The allocator
 * keeps them within 256: the first's named prefetch gives way to the
 * plain loop, the second's prefetched loop is scheduled within the cap
 * (docs/compiler.md, the workgroup's register cap); both run. */
static const WaveCase scheduled[] = {
	/* testNonTransposeGemm's and testBatchedGemm's schedules (Wave xfails
	 * the non-transposed one under PREFETCH) */
	{"nontranspose_gemm_16x16x16.json -D M=128 -D N=256 -D K=160 --schedule prefetch", NULL, NULL},
	{"nontranspose_gemm_16x16x16.json -D M=128 -D N=256 -D K=160 --schedule four_stage", NULL, NULL},
	{"nontranspose_gemm_32x32x8.json -D M=100 -D N=70 -D K=90 --schedule modulo", NULL, NULL},
	{"nontranspose_gemm_dyn_32x32x8.json -D M=128 -D N=256 -D K=160 --schedule four_stage", NULL, NULL},
	{"nontranspose_gemm_dyn_16x16x16.json -D M=100 -D N=70 -D K=160 --schedule modulo", NULL, NULL},
	{"batched_gemm.json --schedule modulo", NULL, NULL},
	{"batched_gemm.json --schedule four_stage", NULL, NULL},
	{"wg_gemm_16x16x16.json -D M=17 -D N=23 -D K=32 --schedule modulo", NULL, NULL},
	{"wg_gemm_32x32x8.json -D M=15 -D N=13 -D K=4 --schedule four_stage", NULL, NULL},
	{"wg_gemm_dynmn_16x16x16.json -D M=17 -D N=23 -D K=32 --schedule four_stage", NULL, NULL},
	{"wg_gemm_dyn_32x32x8.json -D M=17 -D N=23 -D K=160 --schedule modulo", NULL, NULL},
	{"wg_gemm_vmfma_dyn_16x16x32_k8.json -D M=17 -D N=23 -D K=160 --schedule four_stage", NULL, NULL},
	{"wg_gemm_bf16_16x16x16.json -D M=17 -D N=23 -D K=32 --schedule modulo", NULL, NULL},
	{"wg_gemm_pingpong_16x16x16.json -D M=256 -D N=512 -D K=256 --schedule modulo", NULL, NULL},
	{"wg_gemm_f8_16x16x32.json -D M=128 -D N=192 -D K=160 --schedule four_stage", NULL, "gfx942"},
	{"gemm_small_tiles_dyn_16x16x16.json -D M=100 -D N=70 -D K=90 --schedule modulo", NULL, NULL},
	{"vanilla_attention_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3 --schedule modulo", NULL, NULL},
	{"vanilla_attention_causal_32x32x8.json -D B=2 --atol 1e-3 --rtol 1e-3 --schedule modulo", NULL, NULL},
	/* waves_per_eu=2 of gqa_vanilla_attention_test.py, evoformer_test.py
	 * and quantized_attention_test.py: a target, warned about where the
	 * registers miss it */
	{"gqa_bshd_attention_16x16x16.json -D H=2 -D N_Q=320 -D N_KV=320 --waves-per-eu 2 --atol 1e-3 --rtol 1e-3", NULL,
		NULL},
	{"evoformer_f16.json -D BN=2 -D H=2 --waves-per-eu 2", NULL, NULL},
	{"quantized_attention_16x16x32.json -D N_Q=512 -D N_KV=512 --waves-per-eu 2 --quant q:1,512,64,128 --quant "
	 "k:1,512,64,128 --quant v:1,512,64,128",
		NULL, "gfx942"},
	/* the sweep's block: testGemmTransposeAB under Wave's other schedules
	 * (its PREFETCH is xfail in Wave; here it is the default) */
	{"gemm_transpose_ab_16x16x16.json -D M=128 -D N=192 -D K=160 --schedule four_stage", NULL, NULL},
	{"gemm_transpose_ab_dyn_32x32x8.json -D M=100 -D N=70 -D K=160 --schedule modulo", NULL, NULL},
	{"gemm_transpose_ab_dyn_16x16x16.json -D M=100 -D N=70 -D K=160 --schedule none", NULL, NULL},
	/* end of the sweep's block */
	/* wave_gemm_mxfp_test.py (MXFP4 / MXFP8 scaled GEMMs, tkw.scaled_mma on
	 * gfx950's v_mfma_scale_f32_*_f8f6f4): gfx950's own, run in gfx950[]
	 * below; gfx942 and gfx90a reject them naming themselves. Inputs as
	 * Wave's generate_gemm_afp4wfp4_inputs (--mx, wave_inputs.c); Wave's
	 * shapes in slow[] */
	{"scaled_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, "gfx950"},
	{"scaled_gemm_mxfp4_dyn.json -D M=160 -D N=96 -D K=768 --mx a:160,384:f4 --mx a_scale:160,24:scale --mx b:96,384:f4 --mx b_scale:96,24:scale",
		NULL, "gfx950"},
	{"scaled_gemm_mxfp8.json -D M=128 -D N=128 -D K=512 --mx a:128,512:e5m2 --mx a_scale:128,16:scale --mx b:128,512:e5m2 --mx b_scale:128,16:scale",
		NULL, "gfx950"},
	{"scaled_gemm_prefetch_mxfp4.json -D M=256 -D N=256 -D K=512 --mx a:256,256:f4 --mx a_scale:256,16:scale --mx b:256,256:f4 --mx b_scale:256,16:scale",
		NULL, "gfx950"},
	{"broadcasted_scale_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 --mx a:128,256:f4 --mx a_scale:128:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, "gfx950"},
	{"scaled_batched_gemm_mxfp4.json -D B=2 -D M=256 -D N=128 -D K=512 --mx a:2,256,256:f4 --mx a_scale:2,256,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, "gfx950"},
	{"scaled_gemm_mxfp4_preshuffle_scales.json -D M=256 -D N=256 -D K=2048 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, "gfx950"},
	{"scaled_gemm_mxfp4_32x32x64.json -D M=128 -D N=128 -D K=512 --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, "gfx950"},
};

static const WaveCase slow[] = {
	/* xv3: the GQA, chained GEMM and evoformer transcriptions' other forms and larger shapes (N 320, 1088 for
	 * the window; the head ratio 4 at 8 query heads on 2; Wave's evoformer shapes with BN and H cut) */
	{"xv3_gqa_bshd_causal_sw_16x16x16.json -D H=2 -D N_D=130 -D N_KV=130 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv3_gqa_bshd_32x32x8.json -D H=1 -D N_D=130 -D N_KV=130 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv3_gqa_bshd_causal_f8_32x32x16.json -D H=1 -D N_D=130 -D N_KV=130 --atol 1e-3 --rtol 1e-3", NULL, "gfx942"},
	{"xv3_gqa_bshd_16x16x16.json -D H=2 -D N_D=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv3_gqa_bshd_32x32x8.json -D H=2 -D N_D=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv3_gqa_bshd_causal_16x16x16.json -D H=2 -D N_D=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv3_gqa_bshd_causal_32x32x8.json -D H=2 -D N_D=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv3_gqa_bshd_causal_sw_16x16x16.json -D H=2 -D N_D=1088 -D N_KV=1088 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv3_gqa_bshd_causal_sw_32x32x8.json -D H=2 -D N_D=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv3_gqa_bshd_causal_f8_16x16x32.json -D H=2 -D N_D=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, "gfx942"},
	{"xv3_gqa_bshd_causal_f8_32x32x16.json -D H=2 -D N_D=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, "gfx942"},
	{"xv3_gqa_bshd_causal_sw_f8_16x16x32.json -D H=2 -D N_D=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, "gfx942"},
	{"xv3_gqa_bshd_causal_sw_f8_32x32x16.json -D H=2 -D N_D=320 -D N_KV=320 --atol 1e-3 --rtol 1e-3", NULL, "gfx942"},
	{"xv3_gqa_bshd_causal_r4_16x16x16.json -D H=8 -D H_KV=2 -D N_D=200 -D N_KV=200 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv3_gqa_bshd_causal_sw_r4_32x32x8.json -D H=8 -D H_KV=2 -D N_D=130 -D N_KV=130 -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv3_chained_gemm_16x16x16.json -D B=2 --atol 5e-2 --rtol 5e-3", NULL, NULL},
	{"xv3_chained_gemm_32x32x8.json -D B=2 --atol 5e-2 --rtol 5e-3", NULL, NULL},
	{"xv3_chained_gemm_32x32x8.json -D B=2 -D M=100 -D N=70 -D K2=200 --atol 5e-2 --rtol 5e-3", NULL, NULL},
	{"xv3_chained_gemm_f8_32x32x16.json -D B=2 --atol 5e-2 --rtol 5e-3", NULL, "gfx942"},
	{"xv3_evoformer_bf16.json -D BN=2 -D H=2", NULL, NULL},
	{"xv3_evoformer_f16.json -D BN=2 -D H=2", NULL, NULL},
	{"xv3_evoformer_bf16.json -D BN=2 -D K2=256 -D H=8 -D K1=8 -D N=8", NULL, NULL},
	{"xv3_evoformer_f16.json -D BN=2 -D K2=256 -D H=8 -D K1=8 -D N=8", NULL, NULL},
	/* xv3: testAttentionBackward (operands of log2e * (s - lse) swapped) at the rest of its shapes */
	{"xv3_attention_bwd_swapped_16x16x16_k1_16.json -D B=1 -D M=16 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_16x16x16_k1_16.json -D B=1 -D M=16 -D N=16 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_16x16x16_k1_32.json -D B=1 -D M=16 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_16x16x16_k1_64.json -D B=1 -D M=16 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_16x16x16_k1_16.json -D B=1 -D M=16 -D N=32 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_16x16x16_k1_16.json -D B=1 -D M=32 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_16x16x16_k1_16.json -D B=2 -D M=16 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_32x32x8_k1_32.json -D B=1 -D M=32 -D N=32 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_32x32x8_k1_64.json -D B=1 -D M=32 -D N=32 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_32x32x8_k1_128.json -D B=1 -D M=32 -D N=32 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_32x32x8_k1_32.json -D B=1 -D M=32 -D N=64 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_32x32x8_k1_32.json -D B=1 -D M=64 -D N=32 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_swapped_32x32x8_k1_32.json -D B=2 -D M=32 -D N=32 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	/* xv3: testAttentionBackward_dv at the rest of its shapes */
	{"xv3_attention_bwd_dv_16x16x16_k1_16.json -D B=1 -D M=16 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_16x16x16_k1_16.json -D B=1 -D M=16 -D N=16 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_16x16x16_k1_32.json -D B=1 -D M=16 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_16x16x16_k1_16.json -D B=1 -D M=16 -D N=32 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_16x16x16_k1_16.json -D B=1 -D M=32 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_16x16x16_k1_16.json -D B=2 -D M=16 -D N=16 -D K2=16 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_16x16x16_k1_32.json -D B=2 -D M=64 -D N=128 -D K2=256 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_16x16x16_k1_64.json -D B=8 -D M=128 -D N=128 -D K2=256 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_16x16x16_k1_64.json -D B=2 -D M=1024 -D N=64 -D K2=1024 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_32x32x8_k1_32.json -D B=1 -D M=32 -D N=32 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_32x32x8_k1_32.json -D B=1 -D M=32 -D N=32 -D K2=64 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_32x32x8_k1_64.json -D B=1 -D M=32 -D N=32 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_32x32x8_k1_128.json -D B=1 -D M=32 -D N=32 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_32x32x8_k1_32.json -D B=1 -D M=32 -D N=64 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_32x32x8_k1_32.json -D B=2 -D M=32 -D N=32 -D K2=32 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_32x32x8_k1_32.json -D B=2 -D M=64 -D N=128 -D K2=256 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_32x32x8_k1_64.json -D B=8 -D M=128 -D N=128 -D K2=256 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"xv3_attention_bwd_dv_32x32x8_k1_64.json -D B=2 -D M=1024 -D N=64 -D K2=1024 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	/* xv2: testExtendAttention at get_test_shapes("extend")[1] and [2] with all of Wave's heads */
#define XV2_EXT1_SLOW " -D N_Q=192 -D N_KV=384 -D S=2 -D EXT_IDX=0 -D KV_START_IDX=0 -D MAX_EXTEND_SEQ_LEN=161 --atol 1e-3 --rtol 1e-3 --extend 203/161:384"
	{"xv2_extend_h16kv2_d64_16x16x16.json" XV2_EXT1_SLOW, NULL, NULL},
	{"xv2_extend_h16kv2_d64_causal_32x32x8.json" XV2_EXT1_SLOW, NULL, NULL},
#define XV2_EXT2_SLOW " -D N_Q=896 -D N_KV=1568 -D S=5 -D EXT_IDX=0 -D KV_START_IDX=0 -D MAX_EXTEND_SEQ_LEN=411 --atol 1e-3 --rtol 1e-3 --extend 300/250,120/411,7/90,256/128:1568"
	{"xv2_extend_h4kv4_d256_32x32x8.json" XV2_EXT2_SLOW, NULL, NULL},
	{"xv2_extend_h4kv4_d256_causal_16x16x16.json" XV2_EXT2_SLOW, NULL, NULL},
	/* xv2: testFlashDecoding at get_test_shapes("decode_attention")[1] (40, 1024, 64, 64, 1024) with B 2 */
	{"xv2_decode_phase0_16x16x16.json -D B=2 -D M=1024 -D N=64 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_decode_phase0_32x32x8.json -D B=2 -D M=1024 -D N=64 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_decode_phase0_dyn_32x32x8.json -D B=2 -D M=1000 -D N=64 -D K2=1000 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_decode_phase1.json -D B=2 -D M=1024 -D N=64 -D U=32", NULL, NULL},
	{"xv2_decode_phase1_dyn.json -D B=2 -D M=1000 -D N=64 -D U=32", NULL, NULL},
	/* xv2: testAttentionPure (quantized) at N_Q = N_KV = 1024 of Wave's 4096 */
	{"xv2_quantized_attention_16x16x32.json -D N_Q=1024 -D N_KV=1024 --quant q:1,1024,64,128 --quant k:1,1024,64,128 --quant v:1,1024,64,128", NULL, "gfx942"},
	/* xv2: testPagedFlashDecoding phase 0, its other shapes (the 32 sequences of head size 512 cut to 2) */
	{"xv2_paged_phase0_f16_cap_d65.json -D B=16 -D BH=1 -D K1=65 -D N=64 -D HEAD_BLOCK_SIZE=16 -D B_WAVES=1 -D S=2 -D K2=200 -D N_KV=200 " XV2_PAGED_SET " --paged 2,100 --iota kv_indices:200", NULL, NULL},
	{"xv2_paged_phase0_f16_cap_d128.json -D B=6 -D BH=1 -D K1=128 -D N=128 -D HEAD_BLOCK_SIZE=6 -D B_WAVES=1 -D S=1 -D K2=100 -D N_KV=100 " XV2_PAGED_SET " --paged 1,100 --iota kv_indices:100", NULL, NULL},
	{"xv2_paged_phase0_f16_cap_d13.json -D B=64 -D BH=1 -D K1=13 -D N=13 -D HEAD_BLOCK_SIZE=64 -D B_WAVES=4 -D S=1 -D K2=100 -D N_KV=100 " XV2_PAGED_SET " --paged 1,100 --iota kv_indices:100", NULL, NULL},
	{"xv2_paged_phase0_f16_cap_d80.json -D B=64 -D BH=1 -D K1=80 -D N=80 -D HEAD_BLOCK_SIZE=64 -D B_WAVES=4 -D S=2 -D K2=256 -D N_KV=256 " XV2_PAGED_SET " --paged 2,128 --iota kv_indices:256", NULL, NULL},
	{"xv2_paged_phase0_f16_cap_d80.json -D B=128 -D BH=2 -D K1=80 -D N=80 -D HEAD_BLOCK_SIZE=64 -D B_WAVES=4 -D S=2 -D K2=1000 -D N_KV=1000 " XV2_PAGED_SET " --paged 2,500 --iota kv_indices:1000", NULL, NULL},
	{"xv2_paged_phase0_bf16_d64.json -D B=16 -D BH=2 -D K1=64 -D N=64 -D HEAD_BLOCK_SIZE=8 -D B_WAVES=1 -D S=1 -D K2=100 -D N_KV=100 " XV2_PAGED_SET " --paged 1,100 --iota kv_indices:100", NULL, NULL},
	{"xv2_paged_phase0_bf16_d80.json -D B=64 -D BH=1 -D K1=80 -D N=80 -D HEAD_BLOCK_SIZE=64 -D B_WAVES=4 -D S=2 -D K2=256 -D N_KV=256 " XV2_PAGED_SET " --paged 2,128 --iota kv_indices:256", NULL, NULL},
	{"xv2_paged_phase0_bf16_d80.json -D B=128 -D BH=2 -D K1=80 -D N=80 -D HEAD_BLOCK_SIZE=64 -D B_WAVES=4 -D S=2 -D K2=1000 -D N_KV=1000 " XV2_PAGED_SET " --paged 2,500 --iota kv_indices:1000", NULL, NULL},
	{"xv2_paged_phase0_bf16_d1.json -D B=2 -D BH=1 -D K1=1 -D N=1 -D HEAD_BLOCK_SIZE=2 -D B_WAVES=1 -D S=1 -D K2=9 -D N_KV=9 " XV2_PAGED_SET " --paged 1,9 --iota kv_indices:9", NULL, NULL},
	{"xv2_paged_phase0_bf16_d1.json -D B=17 -D BH=1 -D K1=1 -D N=1 -D HEAD_BLOCK_SIZE=16 -D B_WAVES=1 -D S=1 -D K2=1 -D N_KV=1 " XV2_PAGED_SET " --paged 1,1 --iota kv_indices:1", NULL, NULL},
	{"xv2_paged_phase0_f16_cap_d512.json -D B=128 -D BH=2 -D K1=512 -D N=512 -D HEAD_BLOCK_SIZE=64 -D B_WAVES=4 -D S=2 -D K2=1000 -D N_KV=1000 " XV2_PAGED_SET " --paged 2,500 --iota kv_indices:1000", NULL, NULL},
	{"xv2_paged_phase0_bf16_d512.json -D B=128 -D BH=2 -D K1=512 -D N=512 -D HEAD_BLOCK_SIZE=64 -D B_WAVES=4 -D S=2 -D K2=1000 -D N_KV=1000 " XV2_PAGED_SET " --paged 2,500 --iota kv_indices:1000", NULL, NULL},
	/* xv2: testPagedFlashDecoding's expensive shape (32, 8, 128, 128, 32, 1319, 1018) with 3 of its 1319
	 * sequences: head ratio 4, HEAD_BLOCK_SIZE 4 (four query heads in the 16-row MMA) */
	{"xv2_paged_phase0_f16_cap_d128.json -D B=32 -D BH=8 -D K1=128 -D N=128 -D HEAD_BLOCK_SIZE=4 -D B_WAVES=1 -D S=3 -D K2=3054 -D N_KV=3054 " XV2_PAGED_SET " --paged 3,1018 --iota kv_indices:3054", NULL, NULL},
	{"xv2_paged_phase0_bf16_d128.json -D B=32 -D BH=8 -D K1=128 -D N=128 -D HEAD_BLOCK_SIZE=4 -D B_WAVES=1 -D S=3 -D K2=3054 -D N_KV=3054 " XV2_PAGED_SET " --paged 3,1018 --iota kv_indices:3054", NULL, NULL},
	/* xv2: the rest of the main list's xv2 cases (make check runs half of them) */
	{"xv2_extend_h16kv2_d64_16x16x16.json" XV2_EXT1, NULL, NULL},
	{"xv2_extend_h16kv2_d64_custom_mask_16x16x16.json" XV2_EXT1_MASK, NULL, NULL},
	{"xv2_extend_h4kv4_d256_causal_32x32x8.json" XV2_EXT2, NULL, NULL},
	{"xv2_vanilla_attention_16x16x16.json -D B=1 --atol 1e-3 --rtol 1e-3 --schedule modulo", NULL, NULL},
	{"xv2_vanilla_attention_vt_dyn_16x16x32_k8.json -D B=1 -D M=1000 -D N=64 -D K2=1001 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_extend_h16kv2_d64_custom_mask_32x32x8.json" XV2_EXT1_MASK, NULL, NULL},
	{"xv2_extend_h4kv4_d256_custom_mask_16x16x16.json" XV2_EXT2_MASK, NULL, NULL},
	{"xv2_extend_h16kv2_d64_32x32x8.json" XV2_EXT1, NULL, NULL},
	{"xv2_extend_h16kv2_d64_causal_16x16x16.json" XV2_EXT1, NULL, NULL},
	{"xv2_extend_h4kv4_d256_32x32x8.json" XV2_EXT2, NULL, NULL},
	{"xv2_extend_h4kv4_d256_causal_16x16x16.json" XV2_EXT2, NULL, NULL},
	{"xv2_vanilla_attention_32x32x8.json -D B=1 --atol 1e-3 --rtol 1e-3 --schedule modulo", NULL, NULL},
	{"xv2_vanilla_attention_16x16x32_k8.json -D B=1 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_vanilla_attention_vt_dyn_32x32x16_k8.json -D B=1 -D M=1024 -D N=64 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_vanilla_attention_vt_dyn_16x16x16.json -D B=1 -D M=1024 -D N=64 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_bshd_custom_mask_modulo_16x16x32_k8.json -D H=1 -D M=256 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,256", NULL, NULL},
	{"xv2_bshd_custom_mask_modulo_32x32x8.json -D H=1 -D M=256 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,256", NULL, NULL},
	{"xv2_bshd_custom_mask_g2s_16x16x16.json -D H=1 -D M=256 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,256", NULL, NULL},
	{"lit_evoformer.json -D BN=16", NULL, NULL},
	{"tagged_attention_16x16x16.json -D NUM_WAVES=8 -D H=4 -D H_KV=4 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x16.json -D NUM_WAVES=8 -D H=4 -D H_KV=4 -D N_Q=512 -D N_KV=512 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x16_causal.json -D NUM_WAVES=8 -D H=4 -D H_KV=4 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x16_causal.json -D NUM_WAVES=8 -D H=4 -D H_KV=4 -D N_Q=512 -D N_KV=512 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bshd_attention_prefetch_mb_32x32x8.json -D H=2 -D M=1024 -D K2=1024 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"lit_attention_bshd_g2s.json --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"wg_gemm_bf16_dyn_16x16x16.json -D M=1024 -D N=5120 -D K=640 --schedule modulo", NULL, NULL},
	/* testNonTransposeGemm and testBatchedGemm at test_gemm's and
	 * test_batched_gemm's first/second shapes */
	{"nontranspose_gemm_16x16x16.json", NULL, NULL},
	{"nontranspose_gemm_32x32x8.json", NULL, NULL},
	{"nontranspose_gemm_dyn_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"batched_gemm.json -D B=32 -D M=1024 -D N=512 -D K=768", NULL, NULL},
	/* nn/functional/wave_sdpa_test.py and wave_quant_attention_test.py at
	 * their BSD and BHSD shapes (4 and 32 heads) */
	{"sdpa_16x16x16.json -D B=4 -D M=256 -D N=128 -D K2=256 --schedule none --waves-per-eu 2 --atol 1e-3 --rtol 1e-3",
		NULL, NULL},
	{"sdpa_16x16x16.json -D B=32 -D M=64 -D N=128 -D K2=256 --schedule none --waves-per-eu 2 --atol 1e-3 --rtol 1e-3",
		NULL, NULL},
	{"sdpa_causal_16x16x16.json -D B=32 -D M=64 -D N=128 -D K2=256 --schedule none --waves-per-eu 2 --atol 1e-3 "
	 "--rtol 1e-3",
		NULL, NULL},
	{"sdpa_fp8_16x16x32.json -D B=4 -D N_Q=256 -D N_KV=256 --schedule none --waves-per-eu 2", NULL, "gfx942"},
	{"sdpa_fp8_16x16x32.json -D B=32 -D N_Q=64 -D N_KV=256 --schedule none --waves-per-eu 2", NULL, "gfx942"},
	{"sdpa_fp8_causal_16x16x32.json -D B=32 -D N_Q=64 -D N_KV=256 --schedule none --waves-per-eu 2", NULL, "gfx942"},
	/* test_persistent_gemm's other shapes (up to 128 tiles of 32 trips) */
	{"persistent_gemm_16x16x16_4x1.json -D M=2048 -D N=2048 -D K=2048", NULL, NULL},
	{"persistent_gemm_32x32x8_2x2.json -D M=1792 -D N=2895 -D K=2048", NULL, NULL},
	{"persistent_reordering_gemm_16x16x16_2x2.json -D M=2048 -D N=2048 -D K=2048", NULL, NULL},
	{"persistent_reordering_gemm_32x32x8_4x1.json -D M=1792 -D N=2895 -D K=2048", NULL, NULL},
	{"reordered_gemm.json -D M=2048 -D N=1280 -D K=5120", NULL, NULL},
	/* backward_attention_test.py's kernels at big_shapes' (2, 1024, 64,
	 * 64, 1024) (3 to 8 s a run); the dq kernel there unrolls K2 = 1024
	 * whole (Wave's degenerate BLOCK_K2 = K2): values of 1024 f16 a lane,
	 * within the 512 registers a value may take (20 to 45 s a run) */
	{"attention_fwd_16x16x16.json -D B=2 -D M=1024 -D N=64 -D K1=64 -D K2=1024 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_fwd_32x32x8.json -D B=2 -D M=1024 -D N=64 -D K1=64 -D K2=1024 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_16x16x16.json -D B=2 -D M=1024 -D N=64 -D K1=64 -D K2=1024 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dv_32x32x8.json -D B=2 -D M=1024 -D N=64 -D K1=64 -D K2=1024 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_16x16x16.json -D B=2 -D M=1024 -D N=64 -D K1=64 -D K2=1024 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dk_32x32x8.json -D B=2 -D M=1024 -D N=64 -D K1=64 -D K2=1024 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"bdo_attention_bwd_dk_wave_order_16x16x16.json -D B=2 -D M=64 -D N=128 -D K1=32 -D K2=256 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"bdo_attention_bwd_dk_wave_order_32x32x8.json -D B=2 -D M=64 -D N=128 -D K1=32 -D K2=256 -D scale=0.1767766952966369 --atol 3e-3 --rtol 3e-3", NULL, NULL},
	{"attention_bwd_dq_16x16x16.json -D B=2 -D M=1024 -D N=64 -D K1=64 -D K2=1024 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	{"attention_bwd_dq_32x32x8.json -D B=2 -D M=1024 -D N=64 -D K1=64 -D K2=1024 -D scale=0.125 --atol 3e-3 --rtol 3e-3",
		NULL, NULL},
	/* quantized_attention_test.py::testAttentionPure at its shape */
	{"quantized_attention_32x32x16.json --quant q:1,4096,64,128 --quant k:1,4096,64,128 --quant v:1,4096,64,128", NULL, "gfx942"},
	{"quantized_attention_16x16x32.json --quant q:1,4096,64,128 --quant k:1,4096,64,128 --quant v:1,4096,64,128", NULL, "gfx942"},
	/* testAttentionBSHD at "unaligned_attention"'s shapes with one head
	 * (about 8 s a run) */
	{"bshd_attention_custom_mask_32x32x16_k8.json -D H=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,1024", NULL, NULL},
	{"bshd_attention_custom_mask_16x16x32_k8.json -D H=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,1024", NULL, NULL},
	{"bshd_attention_custom_mask_16x16x16.json -D H=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,1024", NULL, NULL},
	{"bshd_attention_custom_mask_32x32x8.json -D H=1 -D M=1024 -D N=128 -D K1=128 -D K2=1357 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,1024", NULL, NULL},
	/* testGQABSHDAttention causal with the 1024 window at 1088 queries
	 * and keys, where the window masks (about 11 s a run) */
	{"gqa_bshd_attention_causal_sw_32x32x8.json -D H=2 -D N_Q=1088 -D N_KV=1088 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"gqa_bshd_attention_causal_sw_16x16x16.json -D H=2 -D N_Q=1088 -D N_KV=1088 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* testAttentionBHSDCausal with all 32 heads of one batch */
	{"bhsd_attention_causal_32x32x16_k8.json -D B=1 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_16x16x32_k8.json -D B=1 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_16x16x16.json -D B=1 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_32x32x8.json -D B=1 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* testChainedGemm at get_test_shapes("chained_gemm")'s second shape */
	{"chained_gemm_16x16x16.json -D B=40 -D M=1024 -D N=64 -D K1=64 -D K2=1024 --atol 5e-2 --rtol 5e-3", NULL, NULL},
	{"chained_gemm_32x32x8.json -D B=40 -D M=1024 -D N=64 -D K1=64 -D K2=1024 --atol 5e-2 --rtol 5e-3", NULL, NULL},
	/* testFlashDecoding at the second shape with Wave's B = 40 */
	{"decode_attention_phase0_16x16x16.json -D B=40 -D M=1024 -D N=64 -D K1=64 -D K2=1024 --atol 1e-3 --rtol 1e-3",
		NULL, NULL},
	{"decode_attention_phase0_32x32x8.json -D B=40 -D M=1024 -D N=64 -D K1=64 -D K2=1024 --atol 1e-3 --rtol 1e-3",
		NULL, NULL},
	{"decode_attention_phase1.json -D B=40 -D M=1024 -D N=64 -D K2=1024", NULL, NULL},
	/* two of test_igemm_conv's perf_test shapes (n, h, w, c, hf, wf, nf, stride) */
	{"igemm_conv_nhwc_shared.json -D N=2 -D H=32 -D W=32 -D C=1280 -D HF=1 -D WF=1 -D NF=640 -D stride=1", NULL, NULL},
	{"igemm_conv_nhwc_shared.json -D N=2 -D H=64 -D W=64 -D C=320 -D HF=3 -D WF=3 -D NF=320 -D stride=1", NULL, NULL},
	{"gemm_small_tiles_16x16x16.json -D M=1024 -D N=5120 -D K=640 --max-instructions 20000000000", NULL, NULL},
	{"gemm_small_tiles_32x32x8.json -D M=1024 -D N=5120 -D K=640 --max-instructions 20000000000", NULL, NULL},
	{"batched_gemm_permute.json -D B=32 -D M=1024 -D N=512 -D K=768", NULL, NULL}, /* about 2 minutes */
	{"sequential_batched_gemm.json -D B=32 -D M=1024 -D N=512 -D K=768", NULL, NULL},
	/* testPureGemm, testVMFMAGemm, the bf16 GEMM at test_gemm's first shape
	 * (about 15 s each), static and dynamic; testPingPongGemm's 4096^3 */
	{"wg_gemm_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"packed_gemm_16x16x16.json -D M=1024 -D N=5120 -D K=640 --packed a:1024,320 --packed b:5120,320", NULL, NULL},
	{"packed_gemm_32x32x8.json -D M=1024 -D N=5120 -D K=640 --packed a:1024,320 --packed b:5120,320", NULL, NULL},
	{"packed_nontranspose_gemm_16x16x16.json -D M=1024 -D N=5120 -D K=640 --packed a:1024,320 --packed b:320,5120",
		NULL, NULL},
	{"packed_nontranspose_gemm_32x32x8.json -D M=1024 -D N=5120 -D K=640 --packed a:1024,320 --packed b:320,5120",
		NULL, NULL},
	{"wg_gemm_32x32x8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"vanilla_attention_16x16x16.json -D B=8 -D M=256 -D N=64 -D K1=64 -D K2=256 --atol 1e-3 --rtol 1e-3", NULL,
		NULL},
	{"wg_gemm_dyn_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_dyn_32x32x8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_vmfma_16x16x32_k8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_vmfma_32x32x16_k8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_vmfma_dyn_16x16x32_k8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_vmfma_dyn_32x32x16_k8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_bf16_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_pingpong_16x16x16.json -D M=4096 -D N=4096 -D K=4096 --max-instructions 100000000000", NULL, NULL},
	{"wg_gemm_int_16x16x32_i8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_int_32x32x16_i8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_int_16x16x16_i8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_int_32x32x8_i8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_int_dyn_16x16x16_i8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_int_dyn_32x32x8_i8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_f8_16x16x32.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx942"},
	{"i8_hw_transpose_gemm_16x16x32.json -D M=1024 -D N=1024 -D K=1024", NULL, NULL},
	{"i8_hw_transpose_gemm_32x32x16.json -D M=1024 -D N=1024 -D K=1024", NULL, NULL},
	{"wg_gemm_f8_32x32x16.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx942"},
	{"wg_gemm_f8_k4_16x16x32.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx942"},
	{"wg_gemm_f8_k4_32x32x16.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx942"},
	/* the sweep's block (wave/README.md, "The remaining tests") at Wave's
	 * shapes: testGemmTransposeAB at test_gemm's first (about 40 s a run),
	 * the sequential batched GEMM while-loop at test_batched_gemm's second,
	 * testFloatHwTransposeGemm at its all-unaligned (2560, 2560, 1536) */
	{"gemm_transpose_ab_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"gemm_transpose_ab_32x32x8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"gemm_transpose_ab_dyn_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"gemm_transpose_ab_dyn_32x32x8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"sequential_batched_gemm_while.json -D INIT=0 -D B=32 -D M=1024 -D N=512 -D K=768", NULL, NULL},
	{"sequential_batched_gemm_while_sum.json -D INIT=0 -D B=32 -D M=1024 -D N=512 -D K=768", NULL, NULL},
	{"block_scan.json -D M=145 -D N=32000", NULL, NULL},
	{"float_hw_transpose_gemm_16x16x16_f16.json -D M=2560 -D N=2560 -D K=1536", NULL, NULL},
	{"float_hw_transpose_gemm_32x32x8_f16.json -D M=2560 -D N=2560 -D K=1536", NULL, NULL},
	/* testDistGemm at test_gemm's first shape, one device */
	{"dist_gemm_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"dist_gemm_32x32x8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	/* test_gemm_two_async_cluster_pingpong's 4096^3 (128x128x64 tiles) */
	{"wg_gemm_pingpong_16x16x16.json -D M=4096 -D N=4096 -D K=4096 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 "
	 "--max-instructions 100000000000", NULL, NULL},
	/* dynamic_strides_test.py at Wave's shapes */
	/* paged decode phase 1 at the expensive shape (32, 8, 128, 128, 32,
	 * 1319, 1018) */
	{"paged_decode_phase1_f16.json -D S=1319 -D SP1=1320 -D B=32 -D N=128 -D SPLITS_ACTIVE=8 --paged 1319,1018",
		PAGED1_REJECT, NULL},
	/* paged decode MHA phase 0 at (128, 80, 80, 2, 500): 2048 workgroups */
	{"paged_decode_mha_phase0_f16.json" PAGED0_MHA_ARGS(2, 3, 128, 80, 80, 1000, 500), NULL, NULL},
	{"gemm_dynamic_strides.json -D KA=4096 -D KB=2048", NULL, NULL},
	{"gemm_dynamic_strides_dyn.json -D M=1024 -D N=1024 -D K=1024 -D KA=4096 -D KB=2048", NULL, NULL},
	{"gemm_dynamic_strides_output.json -D M=1024 -D N=512 -D K=512 -D NC=1536", NULL, NULL},
	{"gemm_dynamic_strides_in_out.json -D M=512 -D N=1024 -D K=2048 -D KA=4096 -D KB=4096 -D NC=2048", NULL, NULL},
	/* end of the sweep's block */
	/* wave_gemm_mxfp_test.py at Wave's shapes (1024^3; the broadcast scale
	 * at 512^3) */
	{"scaled_gemm_mxfp4.json --mx a:1024,512:f4 --mx a_scale:1024,32:scale --mx b:1024,512:f4 --mx b_scale:1024,32:scale",
		NULL, "gfx950"},
	{"scaled_gemm_mxfp8.json --mx a:1024,1024:e5m2 --mx a_scale:1024,32:scale --mx b:1024,1024:e5m2 --mx b_scale:1024,32:scale",
		NULL, "gfx950"},
	{"broadcasted_scale_gemm_mxfp4.json --mx a:512,256:f4 --mx a_scale:512:scale --mx b:512,256:f4 --mx b_scale:512,16:scale",
		NULL, "gfx950"},
};

/* Compiler bugs found by the transcription (see wave/README.md): none so
 * far. A case moves here with the reason; the list ends at {NULL, NULL, NULL}. */
static const WaveCase known_bugs[] = {
	{NULL, NULL, NULL},
};

static int known_bug_count(void)
{
	int n = 0;
	while (known_bugs[n].args)
		n++;
	return n;
}

/* The table the running case is from, for WAVECC_WAVE_ASM_DIR's names. */
static const char *case_tag = "case";

/* args without what only `wavecc run` takes: --atol/--rtol/--seed and
 * their values, -D of a non-integer value (a scalar argument's) and of
 * the names in drop (scalar arguments given integers). */
static void compile_args(const char *args, const char *drop, char *out, size_t n)
{
	char buf[1024], *save = NULL;
	snprintf(buf, sizeof buf, "%s", args);
	size_t len = 0;
	out[0] = 0;
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (!strcmp(t, "--atol") || !strcmp(t, "--rtol") || !strcmp(t, "--seed")) {
			strtok_r(NULL, " ", &save);
			continue;
		}
		if (!strcmp(t, "-D")) {
			char *d = strtok_r(NULL, " ", &save), *eq = d ? strchr(d, '=') : NULL, *end = NULL;
			if (!eq)
				continue;
			strtoll(eq + 1, &end, 10);
			char name[128];
			snprintf(name, sizeof name, " %.*s ", (int)(eq - d), d);
			if (*end || eq[1] == 0 || strstr(drop, name))
				continue;
			len += (size_t)snprintf(out + len, len < n ? n - len : 0, " -D %s", d);
			continue;
		}
		len += (size_t)snprintf(out + len, len < n ? n - len : 0, " %s", t);
	}
}

/* WAVECC_WAVE_ASM_DIR: case c compiled to assembly into that folder
 * (TAG-NNNN-MCPU.s, a first line naming the case) instead of run, for
 * tools/asm_snapshot.sh's before-and-after comparison. A -D the kernel has
 * no symbol for (a scalar argument) is dropped and the compile retried. */
static void asm_case(const char *dir, const WaveCase *c, int i, const char *mcpu, const char *args, const char *extra)
{
	char drop[512] = " ", cargs[1024], cmd[8192];
	for (int tries = 0; tries < 8; tries++) {
		compile_args(args, drop, cargs, sizeof cargs);
		snprintf(cmd, sizeof cmd,
			"cd '%s' && f='%s/%s-%04d-%s.s' && echo '// %s --mcpu %s' > \"$f\" && "
			"'%s' compile tests/driver/wave/%s --mcpu %s -S -o - %s >> \"$f\" 2>&1; cat \"$f\"",
			test_root(), dir, case_tag, i, mcpu, c->args, mcpu, test_bin(), cargs + (cargs[0] == ' '), mcpu,
			extra ? extra : "");
		CmdResult r = run_cmd(cmd, NULL);
		const char *at = strstr(r.out, "compile: -D "), *colon = at ? strchr(at + 12, ':') : NULL;
		bool retry = at && colon && strstr(at, "has no symbol of that name") && strlen(drop) + 64 < sizeof drop;
		if (retry)
			snprintf(drop + strlen(drop), sizeof drop - strlen(drop), "%.*s ", (int)(colon - at - 12), at + 12);
		/* a dynamic symbol a set_symbol sets is a launch value in `run`:
		 * compiled unbound */
		const char *set = strstr(r.out, "set_symbol of "), *sc = set ? strchr(set + 14, ':') : NULL;
		if (!retry && set && sc && strstr(sc, "is a compile-time integer here (bound with -D)") &&
			strlen(drop) + 64 < sizeof drop) {
			retry = true;
			snprintf(drop + strlen(drop), sizeof drop - strlen(drop), "%.*s ", (int)(sc - set - 14), set + 14);
		}
		cmd_result_free(&r);
		if (!retry)
			return;
	}
}

/* Each "FLAG SPEC" of args (FLAG with its spaces; SPEC up to the next
 * " --" or the end) cut from it, its input written by make, which appends
 * its --in option to in. */
static void take_inputs(char *args, const char *flag, const char *(*make)(const char *, char *, size_t), char *in,
	size_t len)
{
	char *at;
	while ((at = strstr(args, flag)) != NULL) {
		const char *from = at + strlen(flag);
		char *rest = strstr(from, " --");
		if (!rest)
			rest = at + strlen(at);
		char spec[128];
		snprintf(spec, sizeof spec, "%.*s", (int)(rest - from), from);
		memmove(at, rest, strlen(rest) + 1);
		make(spec, in, len);
	}
}

/* WAVECC_WAVE_FILTER: only the cases whose args contain it run (a file
 * name, "-D B=2", ...): one transcription's cases without the others */
static const char *case_filter;

/* make check runs each case of the main lists (cases[], igemm, scheduled[])
 * once: case k's run on gfx942 (plain) when k is even, on gfx90a
 * (adversarial and strict) when k is odd, so both kinds of run see every
 * kind of kernel and make check stays within its five minutes;
 * WAVECC_WAVE_RUNS=other runs the other half (.ci/run does, after make
 * check, so CI runs every case on both targets), =all runs both. A case
 * for one target only (`only`) runs both: the other target's run is a quick
 * rejection. gfx950[] runs one (adversarial) run a case in any mode; the
 * slow lists run both runs. */
static enum { RUNS_HALF, RUNS_ALL, RUNS_OTHER } runs_mode;

/* Does this run leave out run i of case c of list `tag` (under runs_mode)? */
static bool half_left_out(const char *tag, const WaveCase *c, int i)
{
	bool halved = !strcmp(tag, "case") || !strcmp(tag, "igemm") || !strcmp(tag, "scheduled");
	if (runs_mode == RUNS_OTHER && (!halved || c->only))
		return true; /* make check ran it whole */
	if (!halved || c->only || runs_mode == RUNS_ALL)
		return false;
	bool other = i % 2 != (i / 2) % 2; /* the run of the other half */
	return runs_mode == RUNS_HALF ? other : !other;
}

/* Case i of a list on target mcpu, adversarially where `adverse` (see
 * below). */
static void run_case_on(const WaveCase *c, int i, const char *mcpu, bool adverse_on);

/* Even runs on gfx942, odd ones on gfx90a in the adversarial modes. */
static void run_case(const WaveCase *c, int i) { run_case_on(c, i, i % 2 ? "gfx90a" : "gfx942", i % 2); }

static void run_case_on(const WaveCase *c, int i, const char *mcpu, bool adverse_on)
{
	/* "--perm SPEC" at the end of args: an input file wave_perm_input
	 * writes (a permutation, where random offsets would collide) */
	char cmd[8192], args[1024], in[4200] = "";
	snprintf(args, sizeof args, "%s", c->args);
	char *perm = strstr(args, " --perm ");
	if (perm) {
		*perm = 0;
		wave_perm_input(perm + strlen(" --perm "), in, sizeof in);
	}
	char *bits = strstr(args, " --bits "); /* an i8 0/1 input (wave_bits_input) */
	if (bits) {
		*bits = 0;
		wave_bits_input(bits + strlen(" --bits "), in, sizeof in);
	}
	char *ext = strstr(args, " --extend "); /* extend attention's indices */
	if (ext) {
		*ext = 0;
		wave_extend_input(ext + strlen(" --extend "), in, sizeof in);
	}
	char *pre = strstr(args, " --prefill "); /* prefill attention's offsets */
	if (pre) {
		*pre = 0;
		wave_prefill_input(pre + strlen(" --prefill "), in, sizeof in);
	}
	/* f16 inputs of Wave's quantized_tensor, one per --quant; i32 buffers
	 * of f16 pairs, one per --packed */
	take_inputs(args, " --quant ", wave_quant_input, in, sizeof in);
	take_inputs(args, " --packed ", wave_packed_input, in, sizeof in);
	take_inputs(args, " --paged ", wave_paged_input, in, sizeof in); /* paged attention's request_indices */
	take_inputs(args, " --mx ", wave_mx_input, in, sizeof in); /* MXFP data and e8m0 scales */
	/* Wave's randint and arange inputs (scatter indices, histogram bins) */
	take_inputs(args, " --randint ", wave_randint_input, in, sizeof in);
	take_inputs(args, " --arange ", wave_arange_input, in, sizeof in);
	take_inputs(args, " --iota ", wave_iota_input, in, sizeof in); /* an i32 0..N-1 vector (a block table) */
	take_inputs(args, " --zeros ", wave_zeros_input, in, sizeof in); /* atomic outputs from zero */
	/* WAVECC_WAVE_OPTIONS: compile options added to every case (e.g.
	 * "--lds-stages 2" or "--no-schedule": the cases under other options) */
	const char *extra = getenv("WAVECC_WAVE_OPTIONS");
	/* WAVECC_WAVE_ASM_DIR: compile each case to assembly in that folder
	 * (NNNN-MCPU.s, a first line naming the case) instead of running it,
	 * for tools/asm_snapshot.sh's before-and-after comparison */
	const char *asm_dir = getenv("WAVECC_WAVE_ASM_DIR");
	if (asm_dir && *asm_dir) {
		asm_case(asm_dir, c, i, mcpu, args, extra);
		return;
	}
	/* each case runs twice, once per target: on gfx942 in the emulator's
	 * default order (waves one instruction each in turn, workgroups
	 * forward, memory zeroed), on gfx90a adversarially (waves in a seeded
	 * random order, workgroups reversed, LDS and fresh registers garbage)
	 * and strictly (loads returning at their waits, races reported, the
	 * buffer canary), so that a race, a missing wait, a stray write or a
	 * read of unwritten memory fails (about 15% more time on those runs);
	 * every fourth case's gfx90a run issues its waves in the cycle
	 * model's order instead of the random one (--wave-order model: a
	 * wave waiting on memory falls behind as in time; about 1.7 times the
	 * run's emulator time, so a quarter of the cases) */
	const char *adverse = adverse_on ? "--wg-order reverse --fill garbage --memory late --races --canary --order-seed"
				    : NULL;
	char order[192] = "";
	if (adverse)
		snprintf(order, sizeof order, "--wave-order %s %s %d", i / 2 % 4 == 1 ? "model" : "random", adverse, i);
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run tests/driver/wave/%s --mcpu %s --seed %d %s %s %s", test_root(),
		test_bin(), args, mcpu, 5 + i, order, in, extra ? extra : "");
	/* WAVECC_WAVE_TIMES=FILE: one line per run appended, its seconds and
	 * the case (sort -n to find what make check's time goes to) */
	const char *times = getenv("WAVECC_WAVE_TIMES");
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CmdResult r = run_cmd(cmd, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (times && *times) {
		FILE *tf = fopen(times, "a");
		if (tf) {
			fprintf(tf, "%.2f %s --mcpu %s\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
				c->args, mcpu);
			fclose(tf);
		}
	}
	ck_assert_msg(!strstr(r.out, "FAIL"), "%s --mcpu %s: FAIL\n%s%s", c->args, mcpu, r.out, r.err);
	char absent[64];
	snprintf(absent, sizeof absent, "which %s does not have", mcpu);
	const char *reject = c->only && strcmp(c->only, mcpu) != 0 ? absent : c->reject;
	if (!reject) {
		ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s --mcpu %s: status %d\n%s%s", c->args,
			mcpu, r.status, r.out, r.err);
	} else {
		ck_assert_msg(r.status == 1, "%s --mcpu %s: status %d, expected a rejection\n%s%s", c->args, mcpu,
			r.status, r.out, r.err);
		ck_assert_msg(strstr(r.err, "tests/driver/wave/") && strstr(r.err, ": error: ") && strstr(r.err, reject),
			"%s --mcpu %s: expected located error '%s'\n%s", c->args, mcpu, reject, r.err);
	}
	cmd_result_free(&r);
}

/* Under the sanitizer build (make check-asan) the cases are sampled: one
 * in WAVECC_WAVE_SAMPLE, those whose number is WAVECC_WAVE_SAMPLE_AT
 * modulo it. The plain build runs them all; the sanitizers look for memory
 * and UB bugs in code paths, which a sample covers at a fraction of the
 * time (every case is an emulator run of seconds under ASan). .ci/run
 * samples the slow shapes (WAVECC_WAVE_SLOW=1) the same way, a different
 * slice each day. */
static int sample_every = 1, sample_at;
/* WAVECC_WAVE_JOBS processes share the (sampled) cases, case n in process
 * (n / sample_every) % jobs: each case is an emulator run of its own, so
 * on a machine of J cores J shards take about 1/J of the time. */
static int shard_jobs = 1, shard_index;

static bool sampled_out(int i)
{
	int n = i / 2;
	return n % sample_every != sample_at || (n / sample_every) % shard_jobs != shard_index;
}

/* Is run i of case c of list `tag` left out of this process: sampled out
 * or another shard's (`sampled`; else only shard 0 runs the list), not
 * matching WAVECC_WAVE_FILTER, or the other half's (not for snapshots,
 * which take every case)? */
static bool left_out(const char *tag, const WaveCase *c, int i, bool sampled)
{
	if (sampled ? sampled_out(i) : shard_index != 0)
		return true;
	if (case_filter && *case_filter && !strstr(c->args, case_filter))
		return true;
	const char *asm_dir = getenv("WAVECC_WAVE_ASM_DIR");
	return !(asm_dir && *asm_dir) && half_left_out(tag, c, i);
}

/* The runs of a list this process takes, by their numbers in the list.
 * Only those are registered: Check forks a process for every test, and a
 * test that returned at once still cost its fork and, under the
 * sanitizers, its exit's leak scan (the 2176 runs registered while one in
 * 24 ran took 157 s of check-asan's 310 s in this suite, 2026-12-08). */
typedef struct {
	int *at, n;
} Runs;

static Runs runs_of(int n, bool (*out)(int i))
{
	Runs r = {calloc((size_t)n + 1, sizeof(int)), 0};
	for (int i = 0; r.at && i < n; i++)
		if (!out(i))
			r.at[r.n++] = i;
	return r;
}

static Runs case_runs, igemm_runs, scheduled_runs, gfx950_runs, slow_runs, slow950_runs, huge_runs, known_runs;

static bool case_out(int i) { return left_out("case", &cases[i / 2], i, true); }

/* igemm run i: a file of igemm_files at a shape of igemm_shapes */
static WaveCase igemm_case(int i, char *args, size_t n)
{
	int nf = (int)ARRAY_LEN(igemm_files);
	snprintf(args, n, "%s %s", igemm_files[i / 2 % nf], igemm_shapes[i / 2 / nf]);
	return (WaveCase){args, NULL, NULL};
}

static bool igemm_out(int i)
{
	char args[512];
	WaveCase c = igemm_case(i, args, sizeof args);
	return left_out("igemm", &c, i, true);
}

static bool scheduled_out(int i) { return left_out("scheduled", &scheduled[i / 2], i, true); }

START_TEST(wave_case)
{
	int i = case_runs.at[_i];
	case_tag = "case";
	run_case(&cases[i / 2], i);
}
END_TEST

START_TEST(wave_igemm)
{
	int i = igemm_runs.at[_i];
	char args[512];
	WaveCase c = igemm_case(i, args, sizeof args);
	case_tag = "igemm";
	run_case(&c, i);
}
END_TEST

START_TEST(wave_scheduled)
{
	int i = scheduled_runs.at[_i];
	case_tag = "scheduled";
	run_case(&scheduled[i / 2], i);
}
END_TEST

/* Wave's shapes that take ten minutes or more each on the emulator, too
 * long for .ci/run's daily slice of slow[]: run by hand with
 * WAVECC_WAVE_SLOW=1 CK_RUN_CASE=huge */
static const WaveCase huge[] = {
	/* test_gemm_dynamic_strides_offset at Wave's shape: about 11 minutes */
	{"gemm_dynamic_strides_offset.json -D M=4096 -D N=2048 -D K=4096 -D MA=4100 -D KA=4104 -D NB=2050 -D KB=4104 "
	 "--max-instructions 100000000000", NULL, NULL},
};

static bool huge_out(int i) { return left_out("huge", &huge[i / 2], i, false); }
static bool slow_out(int i) { return left_out("slow", &slow[i / 2], i, true); }

START_TEST(wave_huge)
{
	int i = huge_runs.at[_i];
	case_tag = "huge";
	run_case(&huge[i / 2], i);
}
END_TEST

START_TEST(wave_slow)
{
	int i = slow_runs.at[_i];
	case_tag = "slow";
	run_case(&slow[i / 2], i);
}
END_TEST

/* gfx950 (CDNA4): wave_gemm_test.py::test_cdna4_mfma (get_gemm_kernel,
 * 64x64x32, 2x2 waves, shared a/b, each of gfx950's four MMA types with f16
 * and with bf16 data; Wave's 4096^3 cut to (128,192,160) and (17,23,32)),
 * and a sample of the other transcriptions, whose K8 types gfx950 runs as
 * one v_mfma_f32_16x16x32 / 32x32x16 per K step. Each case runs once,
 * adversarially (as gfx90a's runs: wave_gfx950). */
static const WaveCase gfx950[] = {
	/* xv3: testGQABSHDAttention (require_cdna_2_or_3_or_4, so gfx950 too) */
	{"xv3_gqa_bshd_32x32x8.json -D H=1 -D N_D=130 -D N_KV=130 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* xv2: manual_scheduled_attention_test.py::test_tagged_attention (templates/tagged_attention.py, g2s,
	 * waves_per_eu 2) at its five configurations, both MMA pairs, causal and not; Wave's MANUAL schedule is its
	 * own code generation (the default prefetch here), its NONE configuration --schedule none; (1, 1, 128, 128) and the GQA
	 * (8, 2, 256, 256) (two of its four forms) here, the rest in slow950[] */
	{"xv2_tagged_attention_qk16_r1.json -D H=1 -D H_KV=1 -D N_Q=128 -D N_KV=128 -D NUM_WAVES=4 --schedule none --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk16_r1_causal.json -D H=1 -D H_KV=1 -D N_Q=128 -D N_KV=128 -D NUM_WAVES=4 --schedule none --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk16_r4_causal.json -D H=8 -D H_KV=2 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk32_r1.json -D H=1 -D H_KV=1 -D N_Q=128 -D N_KV=128 -D NUM_WAVES=4 --schedule none --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk32_r4.json -D H=8 -D H_KV=2 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk32_r1_causal.json -D H=1 -D H_KV=1 -D N_Q=128 -D N_KV=128 -D NUM_WAVES=4 --schedule none --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* xv2: test_arbitrary_transpose (require_cdna4; test_transpose_read's kernel), six of its 17 shapes (the
	 * others in slow950[]) */
	{"xv2_arbitrary_transpose.json -D M=64 -D N=64", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=512 -D N=256", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=384 -D N=256", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=1280 -D N=512", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=1024 -D N=64", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=128 -D N=2048", NULL, NULL},
	/* xv2: wave_gemm_mxfp_test.py::testScaledGemmMXFP4 (32x32x256, 2x2 waves) under its four schedules, with and
	 * without use_global_to_shared, static at (128, 128, 512) and dynamic at (160, 96, 768) */
	{"xv2_scaled_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 --schedule none --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 --schedule prefetch --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 --schedule modulo --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 --schedule four_stage --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4_g2s.json -D M=128 -D N=128 -D K=512 --schedule none --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4_g2s.json -D M=128 -D N=128 -D K=512 --schedule prefetch --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4_g2s.json -D M=128 -D N=128 -D K=512 --schedule modulo --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4_g2s.json -D M=128 -D N=128 -D K=512 --schedule four_stage --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4_dyn.json -D M=160 -D N=96 -D K=768 --schedule none --mx a:160,384:f4 --mx a_scale:160,24:scale --mx b:96,384:f4 --mx b_scale:96,24:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4_dyn.json -D M=160 -D N=96 -D K=768 --schedule four_stage --mx a:160,384:f4 --mx a_scale:160,24:scale --mx b:96,384:f4 --mx b_scale:96,24:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4_dyn_g2s.json -D M=160 -D N=96 -D K=768 --schedule none --mx a:160,384:f4 --mx a_scale:160,24:scale --mx b:96,384:f4 --mx b_scale:96,24:scale", NULL, NULL},
	{"xv2_scaled_gemm_mxfp4_dyn_g2s.json -D M=160 -D N=96 -D K=768 --schedule four_stage --mx a:160,384:f4 --mx a_scale:160,24:scale --mx b:96,384:f4 --mx b_scale:96,24:scale", NULL, NULL},
	/* xv2: testAttentionPure's and testAttentionBSHD's use_global_to_shared (gfx95 only in Wave) with each of
	 * their CDNA MMA pairs, at (40, 1024, 64, 64, 1024) cut to one head and M 256 */
	{"xv2_vanilla_attention_g2s_32x32x16_k8.json -D B=1 -D M=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_vanilla_attention_g2s_16x16x16.json -D B=1 -D M=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_bshd_custom_mask_g2s_16x16x16.json -D H=1 -D M=256 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,256", NULL, NULL},
	{"xv2_bshd_custom_mask_g2s_32x32x8.json -D H=1 -D M=256 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,256", NULL, NULL},
	/* test_tagged_attention: GQA k through {H_KV: j // ratio} loaded straight into LDS (a wrong kernel before
	 * isel/lds_stage.c applied the mapping to its direct-to-LDS loads) */
	{"tagged_attention_16x16x16.json -D NUM_WAVES=8 -D H=8 -D H_KV=2 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x16_causal.json -D NUM_WAVES=8 -D H=8 -D H_KV=2 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x32.json --schedule none --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x32.json -D NUM_WAVES=8 -D H=8 -D H_KV=2 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x32_causal.json --schedule none --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x32_causal.json -D NUM_WAVES=8 -D H=8 -D H_KV=2 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x32.json -D H=2 -D H_KV=1 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"lit_attention_bshd_g2s.json -D H=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"loop_pipeline_remainder_start.json -D M=640 -D N=256 -D K=768 --schedule prefetch", NULL, NULL},
	{"loop_pipeline_dynamic_k.json -D K=133 --schedule prefetch", NULL, NULL},
	{"cdna4_gemm_16x16x32_f16_f16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"cdna4_gemm_16x16x32_f16_bf16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"cdna4_gemm_32x32x16_f16_f16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"cdna4_gemm_32x32x16_f16_bf16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"cdna4_gemm_16x16x32_bf16_bf16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"cdna4_gemm_16x16x32_bf16_f16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"cdna4_gemm_32x32x16_bf16_bf16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"cdna4_gemm_32x32x16_bf16_f16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"wg_gemm_16x16x16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_bf16_16x16x16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_vmfma_16x16x32_k8.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_vmfma_32x32x16_k8.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_vmfma_dyn_16x16x32_k8.json -D M=17 -D N=23 -D K=160", NULL, NULL},
	{"wg_gemm_pingpong_16x16x16.json -D M=256 -D N=512 -D K=256", NULL, NULL},
	{"reordered_gemm.json -D M=256 -D N=256 -D K=256", NULL, NULL},
	{"gemm_small_tiles_16x16x16.json -D M=32 -D N=32 -D K=32", NULL, NULL},
	{"vanilla_attention_16x16x32_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_32x32x16_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_16x16x32_k8.json --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_causal_sw_32x32x16_k8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"decode_attention_phase0_16x16x16.json", NULL, NULL},
	{"decode_attention_phase1.json", NULL, NULL},
	{"chained_gemm_16x16x16.json --atol 5e-2 --rtol 5e-3", NULL, NULL},
	{"fused_softmax.json -D M=256 -D N=1024", NULL, NULL},
	{"copy.json -D M=111 -D N=813", NULL, NULL},
	{"lit_tiled_reduce_max.json", "N is split over 4 waves", NULL},
	/* testI8HwTransposeGemm is a gfx950 test in Wave (require_cdna4): its
	 * K tile of 16 under I32_16x16x32_I8, and the CDNA2 i8 type on the
	 * wider MFMA */
	{"i8_hw_transpose_gemm_16x16x32.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"i8_hw_transpose_gemm_32x32x16.json -D M=100 -D N=70 -D K=90", NULL, NULL},
	{"wg_gemm_int_16x16x16_i8.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	/* gfx950's fp8 is OCP (e4m3fn): testF8Gemm on f8e4m3fn and f8e5m2,
	 * with the K tile one MFMA's K (v_mfma_f32_16x16x32_fp8_fp8 on OCP
	 * bytes) and four (the unscaled v_mfma_f32_16x16x128_f8f6f4 and
	 * 32x32x64 take four K copies at once); the i8 GEMMs with two K copies
	 * a step (v_mfma_i32_16x16x64_i8, 32x32x32); unaligned shapes too */
	{"wg_gemm_f8_ocp_16x16x32.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"wg_gemm_f8_ocp_16x16x32.json -D M=128 -D N=192 -D K=160 -D BLOCK_K=128", NULL, NULL},
	{"wg_gemm_f8_ocp_16x16x32.json -D M=100 -D N=70 -D K=96 -D BLOCK_K=128", NULL, NULL},
	{"wg_gemm_bf8_ocp_32x32x16.json -D M=128 -D N=192 -D K=160 -D BLOCK_K=64", NULL, NULL},
	{"wg_gemm_bf8_ocp_32x32x16.json -D M=100 -D N=70 -D K=96", NULL, NULL},
	{"wg_gemm_int_16x16x32_i8.json -D M=128 -D N=192 -D K=160 -D BLOCK_K=64", NULL, NULL},
	{"wg_gemm_int_32x32x16_i8.json -D M=100 -D N=70 -D K=90", NULL, NULL},
	/* gfx950's fp8 is OCP (e4m3fn): the FNUZ transcriptions are rejected */
	{"wg_gemm_f8_16x16x32.json -D M=128 -D N=192 -D K=160", "whose fp8 instructions use the OCP encodings",
		NULL},
	/* the sweep's block (wave/README.md, "The remaining tests"): Wave's
	 * gfx950 (require_cdna4) tests, and a sample of the others */
	{"float_hw_transpose_gemm_16x16x32_f16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_32x32x16_f16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_16x16x32_bf16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_32x32x16_bf16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_16x16x32_f8.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_32x32x16_f8.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_16x16x32_k8_f16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"i8_hw_transpose_gemm_32x32x16.json -D M=256 -D N=256 -D K=256", NULL, NULL},
	{"i8_hw_transpose_gemm_16x16x32.json -D M=256 -D N=256 -D K=256", NULL, NULL},
	{"vector_shape_override_k.json", NULL, NULL},
	{"vector_shape_override_mn.json", NULL, NULL},
	{"vector_shape_override_non_multiples.json", NULL, NULL},
	{"gemm_transpose_ab_dyn_16x16x16.json -D M=100 -D N=70 -D K=160", NULL, NULL},
	{"dist_gemm_16x16x16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	/* end of the sweep's block */
	/* wave_gemm_mxfp_test.py (scaled_mma on v_mfma_scale_f32_*_f8f6f4) */
	{"scaled_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, NULL},
	{"scaled_gemm_mxfp4_dyn.json -D M=160 -D N=96 -D K=768 --mx a:160,384:f4 --mx a_scale:160,24:scale --mx b:96,384:f4 --mx b_scale:96,24:scale",
		NULL, NULL},
	{"scaled_gemm_mxfp8.json -D M=128 -D N=128 -D K=512 --mx a:128,512:e5m2 --mx a_scale:128,16:scale --mx b:128,512:e5m2 --mx b_scale:128,16:scale",
		NULL, NULL},
	{"scaled_gemm_prefetch_mxfp4.json -D M=256 -D N=256 -D K=512 --mx a:256,256:f4 --mx a_scale:256,16:scale --mx b:256,256:f4 --mx b_scale:256,16:scale",
		NULL, NULL},
	{"broadcasted_scale_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 --mx a:128,256:f4 --mx a_scale:128:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, NULL},
	{"scaled_batched_gemm_mxfp4.json -D B=2 -D M=256 -D N=128 -D K=512 --mx a:2,256,256:f4 --mx a_scale:2,256,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, NULL},
	{"scaled_gemm_mxfp4_preshuffle_scales.json -D M=256 -D N=256 -D K=2048 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	/* the same template with its output_dtype = bf16 (a cast before the
	 * write), 2x2 workgroups */
	{"scaled_gemm_mxfp4_preshuffle_scales_bf16.json -D M=512 -D N=512 -D K=2048 --mx a:512,1024:f4 --mx a_scale:512,64:scale_shuffled --mx b:512,1024:f4 --mx b_scale:512,64:scale_shuffled",
		NULL, NULL},
	{"scaled_gemm_mxfp4_32x32x64.json -D M=128 -D N=128 -D K=512 --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, NULL},
	/* unaligned M, N and a K that is not whole K tiles (a masked tail:
	 * zero operands, whatever scale beside them, add nothing), static and
	 * dynamic */
	{"scaled_gemm_mxfp4.json -D M=100 -D N=70 -D K=288 --mx a:100,144:f4 --mx a_scale:100,9:scale --mx b:70,144:f4 --mx b_scale:70,9:scale",
		NULL, NULL},
	{"scaled_gemm_mxfp4_dyn.json -D M=100 -D N=70 -D K=288 --mx a:100,144:f4 --mx a_scale:100,9:scale --mx b:70,144:f4 --mx b_scale:70,9:scale",
		NULL, NULL},
	/* gfx950's transposing LDS reads (ds_read_b64_tr_b16 where gfx942
	 * gathers the operand element by element; passes/plan/lds_tr.c):
	 * attention's V and transposed-B GEMMs, aligned, unaligned (M, N past
	 * the tiles), dynamic, two LDS buffers; i8 takes ds_read_b64_tr_b8 */
	{"vanilla_attention_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"vanilla_attention_32x32x8.json -D B=2 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"bhsd_attention_causal_dyn_16x16x32_k8.json -D B=1 -D H=2 -D M=128 -D K2=128 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"gemm_transpose_ab_16x16x16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"gemm_transpose_ab_dyn_32x32x8.json -D M=100 -D N=70 -D K=160 --schedule modulo", NULL, NULL},
	{"float_hw_transpose_gemm_16x16x16_f16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"float_hw_transpose_gemm_32x32x8_f16.json -D M=320 -D N=384 -D K=192", NULL, NULL},
	{"decode_gqa_phase0_16x16x16.json", NULL, NULL},
	/* wave_gemm_test.py::testGemmGlobalToLDS (use_global_to_shared: on
	 * gfx950 the staged tiles outside pipelined loops load straight into
	 * LDS, buffer_load_dwordx4 ... lds) at its small shapes under its
	 * schedules, M, N dynamic, and F32_32x32x16_F16 (require_cdna4);
	 * a multi-trip K loop without pipelining; vanilla_attention_test.py's
	 * g2s parameter (attention loops are not pipelined by default) */
	{"wg_gemm_g2s_16x16x16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_g2s_16x16x16.json -D M=15 -D N=13 -D K=4", NULL, NULL},
	{"wg_gemm_g2s_32x32x8.json -D M=17 -D N=23 -D K=32 --schedule modulo", NULL, NULL},
	{"wg_gemm_g2s_dynmn_16x16x16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"cdna4_gemm_g2s_32x32x16_f16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	{"wg_gemm_g2s_16x16x16.json -D M=256 -D N=256 -D K=128 --schedule none", NULL, NULL},
	{"vanilla_attention_g2s_16x16x16.json -D B=2 --atol 1e-3 --rtol 1e-3 --schedule none", NULL, NULL},
	/* asm/test_waveasm_e2e.py (WaveASM's end-to-end tests, all require_cdna4;
	 * wave/README.md, "WaveASM"): test_copy_kernel_cpp_backend, the single
	 * MMA at each mma_type / k_size / load_elems, the multi-workgroup single
	 * wave and multi-wave MMAs (8192x8192 in slow950[]) */
	{"waveasm_copy.json", NULL, NULL},
	{"waveasm_mma_16x16x16.json", NULL, NULL},
	{"waveasm_mma_16x16x32.json", NULL, NULL},
	{"waveasm_mma_16x16x16.json -D M=32 -D N=32 -D K=16", NULL, NULL},
	{"waveasm_mma_16x16x16.json -D M=64 -D N=64 -D K=16", NULL, NULL},
	{"waveasm_mma_16x16x16.json -D M=128 -D N=128 -D K=16", NULL, NULL},
	{"waveasm_mma_16x16x16.json -D M=256 -D N=256 -D K=16", NULL, NULL},
	{"waveasm_mma_16x16x16.json -D M=256 -D N=256 -D K=16 -D BLOCK_M=64 -D BLOCK_N=64", NULL, NULL},
	{"waveasm_mma_16x16x16.json -D M=64 -D N=64 -D K=16 -D BLOCK_M=64 -D BLOCK_N=64", NULL, NULL},
	{"waveasm_mma_16x16x16.json -D M=64 -D N=32 -D K=16 -D BLOCK_M=64 -D BLOCK_N=32", NULL, NULL},
	{"waveasm_mma_16x16x16.json -D M=128 -D N=64 -D K=16 -D BLOCK_M=32 -D BLOCK_N=32", NULL, NULL},
	/* test_gemm_cpp_backend: its 12 shape / BLOCK_K / tile configurations
	 * for both MMA types, with and without use_global_to_shared (BLOCK_K at
	 * least 32 for F32_16x16x32_F16, as the test bumps it); its K-unroll
	 * variant's two configurations are among these (16x16x32, g2s) */
	{"waveasm_gemm_16x16x16.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=16", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=16", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=128 -D N=128 -D K=64 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=16", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=64 -D N=128 -D K=64 -D BLOCK_M=32 -D BLOCK_N=64 -D BLOCK_K=16", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=128 -D N=64 -D K=64 -D BLOCK_M=64 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=64 -D N=128 -D K=64 -D BLOCK_M=32 -D BLOCK_N=64 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=64 -D WAVE_M=32 -D WAVE_N=32",
		NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=16", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=16", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=128 -D N=128 -D K=64 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=16", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=64 -D N=128 -D K=64 -D BLOCK_M=32 -D BLOCK_N=64 -D BLOCK_K=16", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=128 -D N=64 -D K=64 -D BLOCK_M=64 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=64 -D N=128 -D K=64 -D BLOCK_M=32 -D BLOCK_N=64 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=64 -D WAVE_M=32 -D WAVE_N=32",
		NULL, NULL},
	{"waveasm_gemm_16x16x32.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x32.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x32.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x32.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x32.json -D M=128 -D N=128 -D K=64 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x32.json -D M=64 -D N=128 -D K=64 -D BLOCK_M=32 -D BLOCK_N=64 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x32.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x32.json -D M=128 -D N=64 -D K=64 -D BLOCK_M=64 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x32.json -D M=64 -D N=128 -D K=64 -D BLOCK_M=32 -D BLOCK_N=64 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x32.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=64 -D WAVE_M=32 -D WAVE_N=32",
		NULL, NULL},
	{"waveasm_gemm_16x16x32_g2s.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x32_g2s.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x32_g2s.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x32_g2s.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x32_g2s.json -D M=128 -D N=128 -D K=64 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x32_g2s.json -D M=64 -D N=128 -D K=64 -D BLOCK_M=32 -D BLOCK_N=64 -D BLOCK_K=32", NULL, NULL},
	{"waveasm_gemm_16x16x32_g2s.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x32_g2s.json -D M=128 -D N=64 -D K=64 -D BLOCK_M=64 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x32_g2s.json -D M=64 -D N=128 -D K=64 -D BLOCK_M=32 -D BLOCK_N=64 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_16x16x32_g2s.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=64 -D WAVE_M=32 -D WAVE_N=32",
		NULL, NULL},
	/* test_gemm_pipelined_cpp_backend (SchedulingType.PREFETCH; its
	 * use_buffer_ops has no counterpart) and test_bf16_gemm_cpp_backend */
	{"waveasm_gemm_16x16x16.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=16 --schedule prefetch",
		NULL, NULL},
	{"waveasm_gemm_16x16x16.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=16 --schedule prefetch",
		NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=16 --schedule prefetch",
		NULL, NULL},
	{"waveasm_gemm_16x16x16_g2s.json -D M=64 -D N=64 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=16 --schedule prefetch",
		NULL, NULL},
	{"waveasm_gemm_bf16.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=16", NULL, NULL},
	{"waveasm_gemm_bf16.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	{"waveasm_gemm_bf16_g2s.json -D M=64 -D N=64 -D K=64 -D BLOCK_M=16 -D BLOCK_N=16 -D BLOCK_K=16", NULL, NULL},
	{"waveasm_gemm_bf16_g2s.json -D M=256 -D N=256 -D K=128 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64", NULL, NULL},
	/* test_mxfp4_scaled_gemm_cpp_backend: 32x32x128 tiles, 2x2 waves, with
	 * and without use_global_to_shared */
	{"scaled_gemm_mxfp4.json -D M=32 -D N=32 -D K=128 -D BLOCK_K=128 --mx a:32,64:f4 --mx a_scale:32,4:scale --mx b:32,64:f4 --mx b_scale:32,4:scale",
		NULL, NULL},
	{"scaled_gemm_mxfp4.json -D M=64 -D N=64 -D K=512 -D BLOCK_K=128 --mx a:64,256:f4 --mx a_scale:64,16:scale --mx b:64,256:f4 --mx b_scale:64,16:scale",
		NULL, NULL},
	{"scaled_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 -D BLOCK_K=128 --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, NULL},
	{"scaled_gemm_mxfp4_g2s.json -D M=32 -D N=32 -D K=128 -D BLOCK_K=128 --mx a:32,64:f4 --mx a_scale:32,4:scale --mx b:32,64:f4 --mx b_scale:32,4:scale",
		NULL, NULL},
	{"scaled_gemm_mxfp4_g2s.json -D M=64 -D N=64 -D K=512 -D BLOCK_K=128 --mx a:64,256:f4 --mx a_scale:64,16:scale --mx b:64,256:f4 --mx b_scale:64,16:scale",
		NULL, NULL},
	{"scaled_gemm_mxfp4_g2s.json -D M=128 -D N=128 -D K=512 -D BLOCK_K=128 --mx a:128,256:f4 --mx a_scale:128,16:scale --mx b:128,256:f4 --mx b_scale:128,16:scale",
		NULL, NULL},
	/* test_dbuf_4wave_mxfp4_gemm_cpp_backend (get_tagged_mxfp4_gemm_preshuffle_b:
	 * a_scale through e8m0_shuffle, b through aiter's preshuffle, b and
	 * b_scale global, grouped workgroup order unless dynamic): each block
	 * shape once, one workgroup (K 2048: the template assumes K > 6 BLOCK_K),
	 * f32 / bf16 and static / dynamic in turn; the whole matrix at Wave's
	 * shapes in slow950[]. 256x192 (1x4 waves): a's value of 1024 f4 per lane
	 * (128 VGPRs, within the 512 registers a value may take); use_schedule=False as
	 * --schedule none */
	{"mxfp4_preshuffle_b.json -D M=128 -D N=256 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:128,1024:f4 --mx a_scale:128,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_bf16.json -D M=128 -D N=32 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=32 -D WAVES_M=2 -D WAVES_N=2 --mx a:128,1024:f4 --mx a_scale:128,64:scale --mx b:32,1024:f4 --mx b_scale:32,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=224 -D N=160 -D K=2048 -D BLOCK_M=224 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:224,1024:f4 --mx a_scale:224,64:scale --mx b:160,1024:f4 --mx b_scale:160,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=256 -D N=192 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=192 -D WAVES_M=1 -D WAVES_N=4 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:192,1024:f4 --mx b_scale:192,64:scale",
		NULL, NULL},
	/* test_dbuf_4wave_mxfp4_dynamic_mn_reorder_cpp_backend: the grouped order
	 * over a grid of run-time size; test_dbuf_8wave_mxfp4_gemm_cpp_backend
	 * (get_tagged_mxfp4_gemm, 256x256x256, 4x2 waves): compiled unpipelined
	 * by default, and under prefetch too (prefetched it would pass the 256
	 * registers its 8 waves allow: the named prefetch gives way) */
	{"mxfp4_preshuffle_b_dyn_reorder.json -D M=128 -D N=256 -D K=2048 --mx a:128,1024:f4 --mx a_scale:128,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale",
		NULL, NULL},
	/* the same over grids of several workgroups: a group size of 2 gives
	 * both of the order's branches (full groups of 2 columns and the
	 * remainder's) at 3x5 workgroups, none left over at 2x4 (the remainder
	 * branch's divisor 0, never taken), and tiles past M and N at 2x3 */
	{"mxfp4_preshuffle_b_dyn_reorder.json -D M=96 -D N=320 -D K=2048 -D BLOCK_M=32 -D BLOCK_N=64 -D WAVES_M=1 -D WAVES_N=4 -D GROUP_SIZE_N=2 --mx a:96,1024:f4 --mx a_scale:96,64:scale --mx b:320,1024:f4 --mx b_scale:320,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn_reorder.json -D M=64 -D N=256 -D K=2048 -D BLOCK_M=32 -D BLOCK_N=64 -D WAVES_M=1 -D WAVES_N=4 -D GROUP_SIZE_N=2 --mx a:64,1024:f4 --mx a_scale:64,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn_reorder.json -D M=96 -D N=352 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=128 -D WAVES_M=1 -D WAVES_N=4 -D GROUP_SIZE_N=2 --mx a:96,1024:f4 --mx a_scale:96,64:scale --mx b:352,1024:f4 --mx b_scale:352,64:scale",
		NULL, NULL},
	{"mxfp4_tagged_8wave.json -D M=256 -D N=256 -D K=2048 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale",
		NULL, NULL},
	{"mxfp4_tagged_8wave.json -D M=256 -D N=256 -D K=2048 --schedule prefetch --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale",
		NULL, NULL},
	/* the split-K MXFP4 tests with bf16 atomics (test_splitk_mxfp4_bf16_atomic_,
	 * _preshuffle_scales_: the latter at 128x128, Wave's 512x512 in slow950[]),
	 * the same templates with f32 output (not Wave tests), and
	 * test_splitk_mxfp4_f32_atomic_ */
	{"splitk_mxfp4_bf16.json --atol 1 --rtol 5e-2 --mx a:256,256:f4 --mx a_scale:256,16:scale --mx b:256,256:f4 --mx b_scale:256,16:scale --zeros c:256,256:bf16",
		NULL, NULL},
	{"splitk_mxfp4_preshuffle_scales_bf16.json --atol 2 --rtol 5e-2 -D M=128 -D N=128 -D K=2048 -D S=2 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled --zeros c:128,128:bf16",
		NULL, NULL},
	{"splitk_mxfp4_preshuffle_scales_bf16.json --atol 4 --rtol 5e-2 -D M=128 -D N=128 -D K=2048 -D S=4 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled --zeros c:128,128:bf16",
		NULL, NULL},
	{"splitk_mxfp4_f32.json --mx a:256,256:f4 --mx a_scale:256,16:scale --mx b:256,256:f4 --mx b_scale:256,16:scale",
		NULL, NULL},
	{"splitk_mxfp4_preshuffle_scales_f32.json -D M=128 -D N=128 -D K=2048 -D S=4 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"splitk_mxfp4_inline_f32.json -D K=256 -D S=1 --mx a:256,128:f4 --mx a_scale:256,8:scale --mx b:256,128:f4 --mx b_scale:256,8:scale",
		NULL, NULL},
	{"splitk_mxfp4_inline_f32.json -D K=256 -D S=2 --mx a:256,128:f4 --mx a_scale:256,8:scale --mx b:256,128:f4 --mx b_scale:256,8:scale",
		NULL, NULL},
	/* end of asm/test_waveasm_e2e.py */
	/* lit_tests/kernel/wave/ kernels with gfx950 MFMAs or global-to-LDS
	 * loads (scaled_gemm.py and merge_scale_reads.py with Wave's MXFP4
	 * inputs; wave/README.md) */
	{"lit_g2s_scaled_gemm.json -D M=64 -D N=64 -D K=512 --mx a:64,256:f4 --mx a_scale:64,16:scale --mx b:64,256:f4 --mx b_scale:64,16:scale", NULL, NULL},
	{"lit_g2s_scaled_gemm_no_min_allocs.json -D M=64 -D N=64 -D K=512 --mx a:64,256:f4 --mx a_scale:64,16:scale --mx b:64,256:f4 --mx b_scale:64,16:scale", NULL, NULL},
	{"lit_infer_gemm_32x32x16.json -D M=128 -D N=128 -D K=128", NULL, NULL},
	{"lit_scaled_gemm_mxfp4.json -D M=64 -D N=64 -D K=256 --mx a:64,128:f4 --mx a_scale:64,8:scale --mx b:64,128:f4 --mx b_scale:64,8:scale", NULL, NULL},
	{"lit_scaled_gemm_mxfp8.json -D M=64 -D N=64 -D K=256 --mx a:64,256:e5m2@mem --mx a_scale:64,8:scale@mem --mx b:64,256:e5m2@mem --mx b_scale:64,8:scale@mem", NULL, NULL},
	{"lit_scaled_gemm_unaligned.json -D M=64 -D N=64 --mx a:64,96:f4 --mx a_scale:64,6:scale --mx b:64,96:f4 --mx b_scale:64,6:scale", NULL, NULL},
	{"lit_scaled_gemm_packed_prefetch.json -D M=256 -D N=256 -D K=512 --mx a:256,256:f4 --mx a_scale:256,16:scale --mx b:256,256:f4 --mx b_scale:256,16:scale", NULL, NULL},
	{"lit_scaled_gemm_packed_g2s.json -D M=256 -D N=256 -D K=512 --mx a:256,256:f4 --mx a_scale:256,16:scale --mx b:256,256:f4 --mx b_scale:256,16:scale", NULL, NULL},
	{"lit_scaled_gemm_batched_prefetch.json -D B=2 -D M=256 -D N=256 -D K=512 --mx a:2,256,256:f4 --mx a_scale:2,256,16:scale --mx b:256,256:f4 --mx b_scale:256,16:scale", NULL, NULL},
	{"lit_scaled_gemm_batched_unaligned.json -D B=2 -D M=100 -D N=256 -D K=512 --mx a:2,100,256:f4 --mx a_scale:2,100,16:scale --mx b:256,256:f4 --mx b_scale:256,16:scale", NULL, NULL},
	{"lit_scaled_gemm_broadcast_scale.json --mx a:32,128:f4 --mx a_scale:32:scale --mx b:32,128:f4 --mx b_scale:32,8:scale", NULL, NULL},
	{"lit_scaled_gemm_dyn.json -D M=64 -D N=96 -D K=256 --mx a:64,128:f4 --mx a_scale:64,8:scale --mx b:96,128:f4 --mx b_scale:96,8:scale", NULL, NULL},
	{"lit_g2s_gemm.json", NULL, NULL},
	{"lit_g2s_gemm_dyn_k.json -D K=100", NULL, NULL},
	{"lit_unroll_g2s.json", NULL, NULL},
	{"lit_wave_schedule_pingpong.json -D M=256 -D N=512 -D K=256", NULL, NULL},
	{"lit_merge_scale_reads_bk128.json -D M=128 -D N=128 -D K=512 -D K_SCALE_SHUFFLED=16 --mx a:128,256:f4 --mx a_scale:128,16:scale_shuffled --mx b:128,256:f4 --mx b_scale:128,16:scale_shuffled", NULL, NULL},
	{"lit_merge_scale_reads_bk256.json -D M=128 -D N=128 -D K=512 -D K_SCALE_SHUFFLED=16 --mx a:128,256:f4 --mx a_scale:128,16:scale_shuffled --mx b:128,256:f4 --mx b_scale:128,16:scale_shuffled", NULL, NULL},
	/* wave_gemm_mxfp_test.py's tagged MXFP4 GEMMs (wave/README.md, the
	 * rows after testScaledGemmMXFP4; Wave's manual, asymmetric and ping-pong
	 * schedules and eliminate_epilogue are Wave code generation: wavecc's
	 * default schedule). testScaledGemmMXFP4ManualDoubleBuf at 2x2 waves (its
	 * 4x2 is test_dbuf_8wave's row above); _AsymmetricSchedule and
	 * _PreshuffleB at 256x256 (1x4 waves): the 256x64 wave tile's A value is
	 * 1024 f4 a lane (128 VGPRs) */
	{"mxfp4_tagged_8wave.json -D M=256 -D N=256 -D K=2048 -D WAVES_M=2 -D WAVES_N=2 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale",
		NULL, NULL},
	{"mxfp4_tagged_b_global.json -D M=256 -D N=256 -D K=2048 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale",
		NULL, NULL},
	{"mxfp4_tagged_b_global_bf16.json -D M=64 -D N=192 -D K=2048 --mx a:64,1024:f4 --mx a_scale:64,64:scale --mx b:192,1024:f4 --mx b_scale:192,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=256 -D N=256 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=64 -D N=192 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=192 -D WAVES_M=1 -D WAVES_N=4 --mx a:64,1024:f4 --mx a_scale:64,64:scale_shuffled --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	/* testScaledGemmMXFP4PreshuffleMacrotiles (a_scale not preshuffled): a
	 * sample of its 19 blocks here, the rest in slow950[] */
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=256 -D N=256 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=256 -D BLOCK_K=128 -D WAVES_M=1 -D WAVES_N=4 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=128 -D N=128 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=128 -D WAVES_M=1 -D WAVES_N=4 --mx a:128,1024:f4 --mx a_scale:128,64:scale --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=64 -D N=192 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=192 -D BLOCK_K=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:64,1024:f4 --mx a_scale:64,64:scale --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=32 -D N=64 -D K=2048 -D BLOCK_M=32 -D BLOCK_N=64 -D BLOCK_K=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:32,1024:f4 --mx a_scale:32,64:scale --mx b:64,1024:f4 --mx b_scale:64,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=128 -D N=32 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=32 -D BLOCK_K=256 -D WAVES_M=2 -D WAVES_N=2 --mx a:128,1024:f4 --mx a_scale:128,64:scale --mx b:32,1024:f4 --mx b_scale:32,64:scale_shuffled",
		NULL, NULL},
	/* testScaledGemmMXFP4PreshuffleBDynamic and _DynamicWaveRuntime (128x256):
	 * their grouped order over a run-time grid is rejected (the
	 * mxfp4_preshuffle_b_dyn_reorder row above, and at 32x64 here); their
	 * blocks without that order (not Wave's), 256x224 in slow950[] */
	{"mxfp4_preshuffle_b_dyn_reorder.json -D M=32 -D N=64 -D K=2048 -D BLOCK_M=32 -D BLOCK_N=64 -D WAVES_M=1 -D WAVES_N=4 --mx a:32,1024:f4 --mx a_scale:32,64:scale_shuffled --mx b:64,1024:f4 --mx b_scale:64,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=128 -D N=32 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=32 -D WAVES_M=2 -D WAVES_N=2 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:32,1024:f4 --mx b_scale:32,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=128 -D N=256 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=32 -D N=64 -D K=2048 -D BLOCK_M=32 -D BLOCK_N=64 -D WAVES_M=1 -D WAVES_N=4 --mx a:32,1024:f4 --mx a_scale:32,64:scale_shuffled --mx b:64,1024:f4 --mx b_scale:64,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=64 -D N=64 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=64 -D WAVES_M=1 -D WAVES_N=4 --mx a:64,1024:f4 --mx a_scale:64,64:scale_shuffled --mx b:64,1024:f4 --mx b_scale:64,64:scale_shuffled",
		NULL, NULL},
	/* testScaledGemmMXFP4PreshuffleBWideStores (256x192, 2x2 waves, bf16,
	 * operands swapped into an [N, M] accumulator), with the grouped order
	 * over a run-time grid (one workgroup here, 2 x 3 with groups of 2 in
	 * slow950[]), and without it (not Wave's) */
	{"mxfp4_preshuffle_b_wide_store.json -D M=256 -D N=192 -D K=2048 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_wide_store_in_order.json -D M=256 -D N=192 -D K=2048 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	/* testScaledGemmMXFP48WavePingpongPreshuffleScalesAndB and _AndBLDS
	 * (4x2 waves; B global, or through LDS), static at
	 * 256x256, dynamic at 64x64; the rest in slow950[] */
	{"mxfp4_preshuffle_scales_and_b.json -D M=256 -D N=256 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=256 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_dyn.json -D M=64 -D N=64 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=64 --mx a:64,1024:f4 --mx a_scale:64,64:scale_shuffled --mx b:64,1024:f4 --mx b_scale:64,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds.json -D M=256 -D N=256 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=256 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds_dyn.json -D M=64 -D N=64 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=64 --mx a:64,1024:f4 --mx a_scale:64,64:scale_shuffled --mx b:64,1024:f4 --mx b_scale:64,64:scale_shuffled",
		NULL, NULL},
};

/* one run per case, the adversarial one (the strict modes find what the
 * default order would, and more; the plain gfx950 run of every case cost
 * make check about 25 s): run 2i + 1 of case i */
static bool gfx950_out(int i) { return left_out("gfx950", &gfx950[i], 2 * i + 1, true); }

START_TEST(wave_gfx950)
{
	int i = gfx950_runs.at[_i];
	case_tag = "gfx950";
	run_case_on(&gfx950[i], 2 * i + 1, "gfx950", true);
}
END_TEST

/* gfx950 cases that take minutes on the emulator (Wave's shapes of the
 * gfx950 list's cutdowns); they run only with WAVECC_WAVE_SLOW=1 */
static const WaveCase slow950[] = {
	/* xv2: test_tagged_attention at (1, 1, 256, 256), (4, 4, 256, 256) and (4, 4, 512, 512) */
	{"xv2_tagged_attention_qk16_r1.json -D H=1 -D H_KV=1 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk16_r1.json -D H=4 -D H_KV=4 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk16_r1_causal.json -D H=1 -D H_KV=1 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk16_r1_causal.json -D H=4 -D H_KV=4 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk32_r1.json -D H=1 -D H_KV=1 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk32_r1.json -D H=4 -D H_KV=4 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk32_r1_causal.json -D H=1 -D H_KV=1 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk32_r1_causal.json -D H=4 -D H_KV=4 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk16_r1.json -D H=4 -D H_KV=4 -D N_Q=512 -D N_KV=512 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk16_r1_causal.json -D H=4 -D H_KV=4 -D N_Q=512 -D N_KV=512 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk32_r1.json -D H=4 -D H_KV=4 -D N_Q=512 -D N_KV=512 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk32_r1_causal.json -D H=4 -D H_KV=4 -D N_Q=512 -D N_KV=512 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* xv2: the rest of gfx950[]'s xv2 cases */
	{"xv2_arbitrary_transpose.json -D M=256 -D N=256", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=512 -D N=512", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=1024 -D N=1024", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=256 -D N=512", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=1024 -D N=512", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=512 -D N=1024", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=2048 -D N=1024", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=768 -D N=512", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=512 -D N=768", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=64 -D N=1024", NULL, NULL},
	{"xv2_arbitrary_transpose.json -D M=2048 -D N=128", NULL, NULL},
	{"xv2_tagged_attention_qk16_r4.json -D H=8 -D H_KV=2 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_tagged_attention_qk32_r4_causal.json -D H=8 -D H_KV=2 -D N_Q=256 -D N_KV=256 -D NUM_WAVES=8 --schedule prefetch --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_vanilla_attention_g2s_16x16x32_k8.json -D B=1 -D M=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_vanilla_attention_g2s_32x32x8.json -D B=1 -D M=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"xv2_bshd_custom_mask_g2s_32x32x16_k8.json -D H=1 -D M=256 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,256", NULL, NULL},
	{"xv2_bshd_custom_mask_g2s_16x16x32_k8.json -D H=1 -D M=256 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,256", NULL, NULL},
	{"xv2_bshd_custom_mask_modulo_16x16x16.json -D H=1 -D M=256 --atol 1e-3 --rtol 1e-3 --bits custom_mask:1,256", NULL, NULL},
	{"tagged_attention_16x16x32.json -D NUM_WAVES=8 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x32.json -D NUM_WAVES=8 -D H=4 -D H_KV=4 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x32.json -D NUM_WAVES=8 -D H=4 -D H_KV=4 -D N_Q=512 -D N_KV=512 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x32_causal.json -D NUM_WAVES=8 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x32_causal.json -D NUM_WAVES=8 -D H=4 -D H_KV=4 -D N_Q=256 -D N_KV=256 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	{"tagged_attention_16x16x32_causal.json -D NUM_WAVES=8 -D H=4 -D H_KV=4 -D N_Q=512 -D N_KV=512 --atol 1e-3 --rtol 1e-3", NULL, NULL},
	/* with two LDS buffers at K = 8192, 16 s (bench/gemm_mxfp4_aiter.py's form:
	 * one barrier a trip, scheduled at the wave's LDS share, sched.c's
	 * region_lds_share) */
	{"scaled_gemm_mxfp4_preshuffle_scales_bf16.json --lds-stages 2 -D M=256 -D N=256 -D K=8192 --mx a:256,4096:f4 --mx a_scale:256,256:scale_shuffled --mx b:256,4096:f4 --mx b_scale:256,256:scale_shuffled",
		NULL, NULL},
	/* testScaledGemmMXFP4PreshuffleBWideStores' grouped order over 2 x 3
	 * workgroups, groups of 2 (both branches; about 13 s a run) */
	{"mxfp4_preshuffle_b_wide_store.json -D M=512 -D N=576 -D K=2048 -D GROUP_SIZE_N=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale_shuffled --mx b:576,1024:f4 --mx b_scale:576,64:scale_shuffled",
		NULL, NULL},
	/* test_dbuf_4wave_mxfp4_dynamic_mn_reorder_cpp_backend at Wave's shape:
	 * the grouped order over 8 x 4 workgroups of run-time M and N */
	{"mxfp4_preshuffle_b_dyn_reorder.json -D M=1024 -D N=1024 -D K=8192 --mx a:1024,4096:f4 --mx a_scale:1024,256:scale --mx b:1024,4096:f4 --mx b_scale:1024,256:scale",
		NULL, NULL},
	/* test_dbuf_4wave_mxfp4_gemm_cpp_backend: the rest of its one-workgroup
	 * rows (the main list keeps three blocks) */
	{"mxfp4_preshuffle_b_dyn_bf16.json -D M=256 -D N=160 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:160,1024:f4 --mx b_scale:160,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=256 -D N=224 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=224 -D WAVES_M=2 -D WAVES_N=2 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:224,1024:f4 --mx b_scale:224,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=128 -D N=256 -D K=2048 --schedule none --mx a:128,1024:f4 --mx a_scale:128,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale",
		NULL, NULL},
	/* asm/test_waveasm_e2e.py: the multi-wave MMA's 8192x8192; the 4-wave
	 * preshuffled-B MXFP4 GEMM's whole matrix (f32 / bf16, static / dynamic)
	 * at 2x2 workgroups, and at Wave's shapes (K 8192, about 6 CPU minutes
	 * a run) with f32 static; the 8-wave tagged GEMM at Wave's shape; the
	 * preshuffled-scale split-K (bf16, and f32) at Wave's */
	{"waveasm_mma_16x16x16.json -D M=8192 -D N=8192 -D K=16 -D BLOCK_M=32 -D BLOCK_N=32", NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=256 -D N=512 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:512,1024:f4 --mx b_scale:512,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=256 -D N=64 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=32 -D WAVES_M=2 -D WAVES_N=2 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:64,1024:f4 --mx b_scale:64,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=448 -D N=320 -D K=2048 -D BLOCK_M=224 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:448,1024:f4 --mx a_scale:448,64:scale --mx b:320,1024:f4 --mx b_scale:320,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=512 -D N=384 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=192 -D WAVES_M=1 -D WAVES_N=4 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:384,1024:f4 --mx b_scale:384,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=512 -D N=320 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:320,1024:f4 --mx b_scale:320,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=512 -D N=448 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=224 -D WAVES_M=2 -D WAVES_N=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:448,1024:f4 --mx b_scale:448,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_bf16.json -D M=256 -D N=512 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:512,1024:f4 --mx b_scale:512,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_bf16.json -D M=256 -D N=64 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=32 -D WAVES_M=2 -D WAVES_N=2 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:64,1024:f4 --mx b_scale:64,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_bf16.json -D M=448 -D N=320 -D K=2048 -D BLOCK_M=224 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:448,1024:f4 --mx a_scale:448,64:scale --mx b:320,1024:f4 --mx b_scale:320,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_bf16.json -D M=512 -D N=384 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=192 -D WAVES_M=1 -D WAVES_N=4 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:384,1024:f4 --mx b_scale:384,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_bf16.json -D M=512 -D N=320 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:320,1024:f4 --mx b_scale:320,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_bf16.json -D M=512 -D N=448 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=224 -D WAVES_M=2 -D WAVES_N=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:448,1024:f4 --mx b_scale:448,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=256 -D N=512 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:512,1024:f4 --mx b_scale:512,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=256 -D N=64 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=32 -D WAVES_M=2 -D WAVES_N=2 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:64,1024:f4 --mx b_scale:64,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=448 -D N=320 -D K=2048 -D BLOCK_M=224 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:448,1024:f4 --mx a_scale:448,64:scale --mx b:320,1024:f4 --mx b_scale:320,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=512 -D N=384 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=192 -D WAVES_M=1 -D WAVES_N=4 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:384,1024:f4 --mx b_scale:384,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=512 -D N=320 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:320,1024:f4 --mx b_scale:320,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn.json -D M=512 -D N=448 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=224 -D WAVES_M=2 -D WAVES_N=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:448,1024:f4 --mx b_scale:448,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn_bf16.json -D M=256 -D N=512 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:512,1024:f4 --mx b_scale:512,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn_bf16.json -D M=256 -D N=64 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=32 -D WAVES_M=2 -D WAVES_N=2 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:64,1024:f4 --mx b_scale:64,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn_bf16.json -D M=448 -D N=320 -D K=2048 -D BLOCK_M=224 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:448,1024:f4 --mx a_scale:448,64:scale --mx b:320,1024:f4 --mx b_scale:320,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn_bf16.json -D M=512 -D N=384 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=192 -D WAVES_M=1 -D WAVES_N=4 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:384,1024:f4 --mx b_scale:384,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn_bf16.json -D M=512 -D N=320 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:320,1024:f4 --mx b_scale:320,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b_dyn_bf16.json -D M=512 -D N=448 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=224 -D WAVES_M=2 -D WAVES_N=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale --mx b:448,1024:f4 --mx b_scale:448,64:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=1024 -D N=1024 -D K=8192 -D BLOCK_M=128 -D BLOCK_N=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:1024,4096:f4 --mx a_scale:1024,256:scale --mx b:1024,4096:f4 --mx b_scale:1024,256:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=1024 -D N=1024 -D K=8192 -D BLOCK_M=128 -D BLOCK_N=32 -D WAVES_M=2 -D WAVES_N=2 --mx a:1024,4096:f4 --mx a_scale:1024,256:scale --mx b:1024,4096:f4 --mx b_scale:1024,256:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=896 -D N=640 -D K=8192 -D BLOCK_M=224 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:896,4096:f4 --mx a_scale:896,256:scale --mx b:640,4096:f4 --mx b_scale:640,256:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=1024 -D N=768 -D K=8192 -D BLOCK_M=256 -D BLOCK_N=192 -D WAVES_M=1 -D WAVES_N=4 --mx a:1024,4096:f4 --mx a_scale:1024,256:scale --mx b:768,4096:f4 --mx b_scale:768,256:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=1024 -D N=640 -D K=8192 -D BLOCK_M=256 -D BLOCK_N=160 -D WAVES_M=2 -D WAVES_N=2 --mx a:1024,4096:f4 --mx a_scale:1024,256:scale --mx b:640,4096:f4 --mx b_scale:640,256:scale",
		NULL, NULL},
	{"mxfp4_preshuffle_b.json -D M=1024 -D N=896 -D K=8192 -D BLOCK_M=256 -D BLOCK_N=224 -D WAVES_M=2 -D WAVES_N=2 --mx a:1024,4096:f4 --mx a_scale:1024,256:scale --mx b:896,4096:f4 --mx b_scale:896,256:scale",
		NULL, NULL},
	{"mxfp4_tagged_8wave.json --mx a:1024,4096:f4 --mx a_scale:1024,256:scale --mx b:1024,4096:f4 --mx b_scale:1024,256:scale",
		NULL, NULL},
	{"splitk_mxfp4_preshuffle_scales_bf16.json --atol 2 --rtol 5e-2 -D M=512 -D N=512 -D K=2048 -D S=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale_shuffled --mx b:512,1024:f4 --mx b_scale:512,64:scale_shuffled --zeros c:512,512:bf16",
		NULL, NULL},
	{"splitk_mxfp4_preshuffle_scales_bf16.json --atol 4 --rtol 5e-2 -D M=512 -D N=512 -D K=2048 -D S=4 --mx a:512,1024:f4 --mx a_scale:512,64:scale_shuffled --mx b:512,1024:f4 --mx b_scale:512,64:scale_shuffled --zeros c:512,512:bf16",
		NULL, NULL},
	{"splitk_mxfp4_preshuffle_scales_f32.json -D M=512 -D N=512 -D K=2048 -D S=2 --mx a:512,1024:f4 --mx a_scale:512,64:scale_shuffled --mx b:512,1024:f4 --mx b_scale:512,64:scale_shuffled",
		NULL, NULL},
	{"splitk_mxfp4_preshuffle_scales_f32.json -D M=512 -D N=512 -D K=2048 -D S=4 --mx a:512,1024:f4 --mx a_scale:512,64:scale_shuffled --mx b:512,1024:f4 --mx b_scale:512,64:scale_shuffled",
		NULL, NULL},
	/* testScaledGemmMXFP4PreshuffleMacrotiles: the blocks the gfx950 list
	 * leaves out (each under 2 s) */
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=256 -D N=192 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=192 -D BLOCK_K=128 -D WAVES_M=1 -D WAVES_N=4 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=256 -D N=128 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=128 -D BLOCK_K=128 -D WAVES_M=1 -D WAVES_N=4 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=128 -D N=256 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 -D BLOCK_K=128 -D WAVES_M=1 -D WAVES_N=4 --mx a:128,1024:f4 --mx a_scale:128,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=128 -D N=192 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=192 -D BLOCK_K=128 -D WAVES_M=1 -D WAVES_N=4 --mx a:128,1024:f4 --mx a_scale:128,64:scale --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=128 -D N=128 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:128,1024:f4 --mx a_scale:128,64:scale --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=64 -D N=256 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=256 -D BLOCK_K=128 -D WAVES_M=1 -D WAVES_N=4 --mx a:64,1024:f4 --mx a_scale:64,64:scale --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=64 -D N=192 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=192 -D BLOCK_K=128 -D WAVES_M=1 -D WAVES_N=4 --mx a:64,1024:f4 --mx a_scale:64,64:scale --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=64 -D N=128 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=128 -D BLOCK_K=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:64,1024:f4 --mx a_scale:64,64:scale --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=64 -D N=128 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=128 -D BLOCK_K=128 -D WAVES_M=1 -D WAVES_N=4 --mx a:64,1024:f4 --mx a_scale:64,64:scale --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=64 -D N=64 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=128 -D WAVES_M=1 -D WAVES_N=4 --mx a:64,1024:f4 --mx a_scale:64,64:scale --mx b:64,1024:f4 --mx b_scale:64,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=64 -D N=64 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:64,1024:f4 --mx a_scale:64,64:scale --mx b:64,1024:f4 --mx b_scale:64,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=32 -D N=192 -D K=2048 -D BLOCK_M=32 -D BLOCK_N=192 -D BLOCK_K=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:32,1024:f4 --mx a_scale:32,64:scale --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=32 -D N=128 -D K=2048 -D BLOCK_M=32 -D BLOCK_N=128 -D BLOCK_K=256 -D WAVES_M=1 -D WAVES_N=4 --mx a:32,1024:f4 --mx a_scale:32,64:scale --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_b_plain_ascale.json -D M=256 -D N=224 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=224 -D BLOCK_K=256 -D WAVES_M=2 -D WAVES_N=2 --mx a:256,1024:f4 --mx a_scale:256,64:scale --mx b:224,1024:f4 --mx b_scale:224,64:scale_shuffled",
		NULL, NULL},
	/* testScaledGemmMXFP4PreshuffleBDynamic's 256x224 (2x2 waves) */
	{"mxfp4_preshuffle_b_dyn.json -D M=256 -D N=224 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=224 -D WAVES_M=2 -D WAVES_N=2 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:224,1024:f4 --mx b_scale:224,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b.json -D M=64 -D N=64 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=64 --mx a:64,1024:f4 --mx a_scale:64,64:scale_shuffled --mx b:64,1024:f4 --mx b_scale:64,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_dyn.json -D M=256 -D N=256 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=256 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds.json -D M=64 -D N=64 -D K=2048 -D BLOCK_M=64 -D BLOCK_N=64 --mx a:64,1024:f4 --mx a_scale:64,64:scale_shuffled --mx b:64,1024:f4 --mx b_scale:64,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds_dyn.json -D M=256 -D N=256 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=256 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	/* testScaledGemmMXFP48WavePingpongPreshuffleScalesAndB(LDS): the other
	 * blocks and forms at one workgroup */
	{"mxfp4_preshuffle_scales_and_b.json -D M=256 -D N=192 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=192 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b.json -D M=128 -D N=256 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b.json -D M=128 -D N=128 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=128 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b.json -D M=256 -D N=160 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=160 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:160,1024:f4 --mx b_scale:160,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_dyn.json -D M=256 -D N=192 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=192 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_dyn.json -D M=128 -D N=256 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_dyn.json -D M=128 -D N=128 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=128 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_dyn.json -D M=256 -D N=160 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=160 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:160,1024:f4 --mx b_scale:160,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds.json -D M=256 -D N=192 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=192 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds.json -D M=128 -D N=256 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds.json -D M=128 -D N=128 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=128 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds.json -D M=256 -D N=160 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=160 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:160,1024:f4 --mx b_scale:160,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds_dyn.json -D M=256 -D N=192 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=192 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:192,1024:f4 --mx b_scale:192,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds_dyn.json -D M=128 -D N=256 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=256 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:256,1024:f4 --mx b_scale:256,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds_dyn.json -D M=128 -D N=128 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=128 --mx a:128,1024:f4 --mx a_scale:128,64:scale_shuffled --mx b:128,1024:f4 --mx b_scale:128,64:scale_shuffled",
		NULL, NULL},
	{"mxfp4_preshuffle_scales_and_b_lds_dyn.json -D M=256 -D N=160 -D K=2048 -D BLOCK_M=256 -D BLOCK_N=160 --mx a:256,1024:f4 --mx a_scale:256,64:scale_shuffled --mx b:160,1024:f4 --mx b_scale:160,64:scale_shuffled",
		NULL, NULL},
};

static bool slow950_out(int i) { return left_out("slow950", &slow950[i / 2], i, false); }

START_TEST(wave_slow950)
{
	int i = slow950_runs.at[_i];
	case_tag = "slow950";
	run_case_on(&slow950[i / 2], i, "gfx950", i % 2);
}
END_TEST

/* asm/test_waveasm_e2e.py also checks the assembly: split-K MXFP4 with bf16
 * atomics (test_splitk_mxfp4_bf16_asm_emission: buffer_atomic_pk_add_bf16,
 * v_mfma_scale_f32_16x16x128_f8f6f4, v_cvt_pk_bf16_f32) and with f32 ones
 * (test_splitk_mxfp4_f32_atomic_cpp_backend: buffer_atomic_add_f32); the
 * bf16 result of test_bf16_gemm_cpp_backend packed by v_cvt_pk_bf16_f32. */
START_TEST(waveasm_emission)
{
	static const struct {
		const char *args, *want1, *want2;
	} k[] = {
		{"splitk_mxfp4_inline_f32.json -D K=256", "v_mfma_scale_f32_16x16x128_f8f6f4", "buffer_atomic_add_f32"},
		{"splitk_mxfp4_f32.json", "v_mfma_scale_f32_16x16x128_f8f6f4", "buffer_atomic_add_f32"},
		{"waveasm_gemm_bf16.json", "v_cvt_pk_bf16_f32", "v_mfma_f32_16x16x16_f16"},
		{"mxfp4_preshuffle_b_bf16.json -D M=128 -D N=256 -D K=2048", "v_mfma_scale_f32_16x16x128_f8f6f4",
			"v_cvt_pk_bf16_f32"},
	};
	for (size_t i = 0; i < ARRAY_LEN(k); i++) {
		CmdResult r = test_wavecc("compile tests/driver/wave/%s --mcpu gfx950 -S -o -", k[i].args);
		ck_assert_msg(r.status == 0 && strstr(r.out, k[i].want1) && strstr(r.out, k[i].want2), "%s: %s",
			k[i].args, r.err);
		cmd_result_free(&r);
	}
	CmdResult r = test_wavecc("compile tests/driver/wave/splitk_mxfp4_bf16.json --mcpu gfx950 -S -o -");
	ck_assert_msg(r.status == 0 && strstr(r.out, "buffer_atomic_pk_add_bf16") &&
			      strstr(r.out, "v_mfma_scale_f32_16x16x128_f8f6f4") && strstr(r.out, "v_cvt_pk_bf16_f32"),
		"%s", r.err);
	cmd_result_free(&r);
}
END_TEST

static bool known_out(int i) { return left_out("known", &known_bugs[i / 2], i, false); }

START_TEST(wave_known_bug)
{
	int i = known_runs.at[_i];
	case_tag = "known";
	run_case(&known_bugs[i / 2], i);
}
END_TEST

int main(void)
{
	const char *every = getenv("WAVECC_WAVE_SAMPLE"), *at = getenv("WAVECC_WAVE_SAMPLE_AT");
	case_filter = getenv("WAVECC_WAVE_FILTER");
	const char *rm = getenv("WAVECC_WAVE_RUNS");
	runs_mode = !rm ? RUNS_HALF : strcmp(rm, "all") == 0 ? RUNS_ALL : strcmp(rm, "other") == 0 ? RUNS_OTHER : RUNS_HALF;
	if (every && atoi(every) > 1) {
		sample_every = atoi(every);
		sample_at = at ? abs(atoi(at)) % sample_every : 0;
		printf("wave: running the cases numbered %d modulo %d (WAVECC_WAVE_SAMPLE, WAVECC_WAVE_SAMPLE_AT)\n",
			sample_at, sample_every);
	}
	/* the shards first: each registers the runs it takes */
	const char *jobs = getenv("WAVECC_WAVE_JOBS");
	shard_jobs = jobs && atoi(jobs) > 1 ? (atoi(jobs) > 16 ? 16 : atoi(jobs)) : 1;
	pid_t child[16];
	int nchild = 0;
	fflush(stdout);
	for (int j = 1; j < shard_jobs; j++) {
		pid_t pid = fork();
		if (pid == 0) {
			shard_index = j;
			nchild = 0;
			char tag[32]; /* its own input files (test_tmpdir) */
			snprintf(tag, sizeof tag, ".shard%d", j);
			setenv("WAVECC_TEST_TMP_TAG", tag, 1);
			break;
		}
		if (pid < 0) {
			perror("wave: fork");
			return EXIT_FAILURE;
		}
		child[nchild++] = pid;
	}
	case_runs = runs_of((int)(2 * ARRAY_LEN(cases)), case_out);
	igemm_runs = runs_of((int)(2 * ARRAY_LEN(igemm_files) * ARRAY_LEN(igemm_shapes)), igemm_out);
	scheduled_runs = runs_of((int)(2 * ARRAY_LEN(scheduled)), scheduled_out);
	gfx950_runs = runs_of((int)ARRAY_LEN(gfx950), gfx950_out);
	Suite *s = suite_create("compile/wave");
	TCase *tc = tcase_create("wave");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, wave_case, 0, case_runs.n);
	tcase_add_loop_test(tc, wave_igemm, 0, igemm_runs.n);
	tcase_add_loop_test(tc, wave_scheduled, 0, scheduled_runs.n);
	tcase_add_loop_test(tc, wave_gfx950, 0, gfx950_runs.n);
	/* compile-only checks: once (shard 0), not under a filter, and not
	 * again in the runs make check leaves out (WAVECC_WAVE_RUNS=other) */
	if (shard_index == 0 && !(case_filter && *case_filter) && runs_mode != RUNS_OTHER)
		tcase_add_test(tc, waveasm_emission);
	const char *slow_on = getenv("WAVECC_WAVE_SLOW");
	if (slow_on && strcmp(slow_on, "1") == 0) {
		TCase *ts = tcase_create("slow");
		tcase_set_timeout(ts, 3600);
		slow_runs = runs_of((int)(2 * ARRAY_LEN(slow)), slow_out);
		tcase_add_loop_test(ts, wave_slow, 0, slow_runs.n);
		suite_add_tcase(s, ts);
		/* gfx950's slow shapes, a case of their own (CK_RUN_CASE=slow950):
		 * several run for minutes each, too long for .ci/run's slice */
		TCase *t9 = tcase_create("slow950");
		tcase_set_timeout(t9, 3600);
		slow950_runs = runs_of((int)(2 * ARRAY_LEN(slow950)), slow950_out);
		tcase_add_loop_test(t9, wave_slow950, 0, slow950_runs.n);
		suite_add_tcase(s, t9);
		TCase *th = tcase_create("huge");
		tcase_set_timeout(th, 7200);
		huge_runs = runs_of((int)(2 * ARRAY_LEN(huge)), huge_out);
		tcase_add_loop_test(th, wave_huge, 0, huge_runs.n);
		suite_add_tcase(s, th);
	}
	const char *known = getenv("WAVECC_WAVE_KNOWN");
	if (known && strcmp(known, "1") == 0 && known_bug_count() > 0) {
		known_runs = runs_of(2 * known_bug_count(), known_out);
		tcase_add_loop_test(tc, wave_known_bug, 0, known_runs.n);
	}
	suite_add_tcase(s, tc);
	int rc = run_suite(s);
	for (int j = 0; j < nchild; j++) {
		int st = 0;
		if (waitpid(child[j], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			rc = EXIT_FAILURE;
	}
	return rc;
}
