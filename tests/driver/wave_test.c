/* wave_test.c — Wave's own end-to-end tests (iree-org/wave,
 * tests/kernel/wave/e2e/), transcribed into wavecc kernels under
 * tests/driver/wave/ (which test each JSON transcribes: wave/README.md).
 *
 * Every case runs `wavecc run` on gfx942 and on gfx90a. A supported case
 * must print PASS; a case wavecc does not support yet must give a located
 * error (file:line:col: error:) containing the substring it lists. FAIL is
 * never accepted. Cases that expose a compiler bug (FAIL or an unlocated or
 * internal error) live in known_bugs[] and run only with WAVECC_WAVE_KNOWN=1,
 * so main stays green while the bug stays visible. */
#include <stdlib.h>
#include <string.h>

#include "../test.h"

typedef struct {
	const char *args;   /* kernel file under tests/driver/wave/ and its -D values */
	const char *reject; /* NULL: must PASS; else the expected located error text */
	const char *only;   /* NULL, or the one target that has the case's MMA
	                       instruction: the other must reject it, naming itself */
} WaveCase;

/* test_copy.py::test_copy, default_test_shapes of e2e/_test_util.py; BLOCK_N
 * is Max(Min(N, 256), 64) as in the Wave template. */
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
	/* test_elementwise.py::test_vector_add, the first two default shapes */
	{"vector_add.json -D M=1 -D N=27", NULL, NULL},
	{"vector_add.json -D M=111 -D N=813", NULL, NULL},
	/* test_elementwise.py::test_cast, f32 -> f16 at (256, 64) */
	{"cast.json -D M=256 -D N=64", NULL, NULL},
	/* test_reductions.py::test_reduce_sum: f16 operands and result,
	 * BLOCK_N = ceiling(N / 64) * 64 */
	{"reduce_sum.json -D M=1 -D N=27", "only f32 reductions of one source are compiled yet", NULL},
	{"reduce_sum.json -D M=111 -D N=813", "only f32 reductions of one source are compiled yet", NULL},
	{"reduce_sum.json -D M=1 -D N=128", "only f32 reductions of one source are compiled yet", NULL},
	{"reduce_sum.json -D M=256 -D N=64", "only f32 reductions of one source are compiled yet", NULL},
	{"reduce_sum.json -D M=256 -D N=128", "only f32 reductions of one source are compiled yet", NULL},
	{"reduce_sum.json -D M=256 -D N=256", "only f32 reductions of one source are compiled yet", NULL},
	{"reduce_sum.json -D M=256 -D N=1024", "only f32 reductions of one source are compiled yet", NULL},
	/* test_reductions.py::test_block_reduce_sum, f32, 4 waves, shapes of
	 * common/shapes.py "test_block_reduce" */
	{"block_reduce_sum.json -D M=1 -D N=37", NULL, NULL},
	{"block_reduce_sum.json -D M=1 -D N=312", NULL, NULL},
	{"block_reduce_sum.json -D M=256 -D N=256", NULL, NULL},
	{"block_reduce_sum.json -D M=256 -D N=1024", NULL, NULL},
	/* test_reductions.py::test_toy_online_softmax: iterate over N (tiling
	 * BLOCK_N = Max(Min(128, N), 64)), running max and sum, f32 */
	{"toy_online_softmax.json -D M=1 -D N=27", NULL, NULL},
	{"toy_online_softmax.json -D M=111 -D N=813", NULL, NULL},
	{"toy_online_softmax.json -D M=1 -D N=128", NULL, NULL},
	{"toy_online_softmax.json -D M=256 -D N=64", NULL, NULL},
	{"toy_online_softmax.json -D M=256 -D N=128", NULL, NULL},
	{"toy_online_softmax.json -D M=256 -D N=256", NULL, NULL},
	{"toy_online_softmax.json -D M=256 -D N=1024", NULL, NULL},
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
	/* test_transpose.py::test_transpose_write: default shapes, a[M,N]
	 * written through the mapping {M: i, N: j} into b[N,M] */
	{"transpose_write.json -D M=1 -D N=27", NULL, NULL},
	{"transpose_write.json -D M=111 -D N=813", NULL, NULL},
	{"transpose_write.json -D M=1 -D N=128", NULL, NULL},
	{"transpose_write.json -D M=256 -D N=64", NULL, NULL},
	{"transpose_write.json -D M=256 -D N=128", NULL, NULL},
	{"transpose_write.json -D M=256 -D N=256", NULL, NULL},
	{"transpose_write.json -D M=256 -D N=1024", NULL, NULL},
	/* test_advanced_ops.py::test_fused_softmax, f32, vector shape N = N */
	{"fused_softmax.json -D M=2 -D N=128", NULL, NULL},
	{"fused_softmax.json -D M=256 -D N=1024", NULL, NULL},
	/* test_advanced_ops.py::test_topk, f16 values and i32 indices: the op is
	 * not in the kernel format yet */
	{"topk.json -D M=32 -D N=64 -D K=2", "unknown op 'topk'", NULL},
	{"topk.json -D M=64 -D N=128 -D K=4", "unknown op 'topk'", NULL},
	{"topk.json -D M=128 -D N=256 -D K=8", "unknown op 'topk'", NULL},
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
	{"wg_gemm_dyn_16x16x16.json -D M=17 -D N=23 -D K=160", NULL, NULL},
	{"wg_gemm_dyn_32x32x8.json -D M=17 -D N=23 -D K=160", NULL, NULL},
	/* testGemmDumpOverrideSchedule's bf16 datatype (get_gemm_kernel, bf16
	 * operands under F32_16x16x16_F16) */
	{"wg_gemm_bf16_16x16x16.json -D M=17 -D N=23 -D K=32", NULL, NULL},
	/* testPingPongGemm: 128x256x64 tiles, 4x2 waves; 4096^3 is slow, here
	 * 256x512x256 */
	{"wg_gemm_pingpong_16x16x16.json -D M=256 -D N=512 -D K=256", NULL, NULL},
	/* testCDNA2IntGemm / testCDNA3IntGemm (i8 -> i32) and testF8Gemm (f16
	 * cast to f8e4m3fnuz in the loop) at test_gemm's first shape */
	/* testCDNA3IntGemm (I32_16x16x32_I8, I32_32x32x16_I8: gfx942 only),
	 * testCDNA2IntGemm (I32_16x16x16_I8, I32_32x32x8_I8: gfx90a only;
	 * static and dynamic with K > 4 * BLOCK_K) and testF8Gemm (f16 cast to
	 * f8e4m3fnuz in the loop; native and K4 types: gfx942 only), 64x64x32
	 * tiles; test_gemm's first shape runs with WAVECC_WAVE_SLOW=1 */
	{"wg_gemm_int_16x16x32_i8.json -D M=128 -D N=192 -D K=160", NULL, "gfx942"},
	{"wg_gemm_int_32x32x16_i8.json -D M=128 -D N=192 -D K=160", NULL, "gfx942"},
	{"wg_gemm_int_16x16x32_i8.json -D M=100 -D N=70 -D K=90", NULL, "gfx942"},
	{"wg_gemm_int_16x16x16_i8.json -D M=128 -D N=192 -D K=160", NULL, "gfx90a"},
	{"wg_gemm_int_32x32x8_i8.json -D M=128 -D N=192 -D K=160", NULL, "gfx90a"},
	{"wg_gemm_int_dyn_16x16x16_i8.json -D M=100 -D N=70 -D K=160", NULL, "gfx90a"},
	{"wg_gemm_int_dyn_32x32x8_i8.json -D M=100 -D N=70 -D K=160", NULL, "gfx90a"},
	{"wg_gemm_f8_16x16x32.json -D M=128 -D N=192 -D K=160", NULL, "gfx942"},
	{"wg_gemm_f8_32x32x16.json -D M=128 -D N=192 -D K=160", NULL, "gfx942"},
	{"wg_gemm_f8_k4_16x16x32.json -D M=128 -D N=192 -D K=160", NULL, "gfx942"},
	{"wg_gemm_f8_k4_32x32x16.json -D M=100 -D N=70 -D K=96", NULL, "gfx942"},
	/* wave_gemm_test.py::testBatchedGemmWithPermute: global a, b, c; c is
	 * [M, B, N] written from the permuted [B, M, N] accumulator; 32x32x16
	 * tiles, 2x2 waves, shapes of test_batched_gemm */
	{"batched_gemm_permute.json -D B=8 -D M=256 -D N=128 -D K=192", NULL, NULL},
	/* wave_gemm_test.py::testPackedGemm: a, b are i32[M, K/2] (f16 pairs)
	 * bitcast to f16 in the loop, 64x64x32 tiles, 2x2 waves, shared;
	 * F32_16x16x16_F16 and F32_32x32x8_F16 (format_ops_test.c runs them on
	 * f16 data against a host GEMM); test_gemm's first shape is slow */
	{"packed_gemm_16x16x16.json -D M=128 -D N=192 -D K=160", NULL, NULL},
	{"packed_gemm_32x32x8.json -D M=128 -D N=192 -D K=160", NULL, NULL},
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
	 * scalar argument threshold; Wave's threshold > scalar(10) as the
	 * condition expression threshold > 10: a scalar branch) */
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
	/* test_scan.py::test_block_scanop_cumsum: 4 waves along N, block=True,
	 * ELEMS_PER_WAVE = Max(ceiling(ceiling(N/4)/64)*64, 64); shapes of
	 * common/shapes.py "test_block_scan" */
	{"block_scan.json -D M=1 -D N=37", NULL, NULL},
	{"block_scan.json -D M=1 -D N=312", NULL, NULL},
	{"block_scan.json -D M=256 -D N=256", NULL, NULL},
	{"block_scan.json -D M=256 -D N=1024", NULL, NULL},
	{"block_scan.json -D M=145 -D N=32000", "125 elements of N per thread in one run: at most 64 are compiled yet", NULL},
	/* test_misc_ops.py::test_self_index: (48, 4, 128), i32: sum over N,
	 * broadcast, cumsum, ge, self_index, select */
	{"self_index.json", "graph[1]: only f32 reductions of one source are compiled yet", NULL},
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
};

/* Cases that take minutes on the emulator (81920 workgroups of 80 trips
 * for testGemmSmallTiles at test_gemm's first shape); they run only with
 * WAVECC_WAVE_SLOW=1. */
static const WaveCase slow[] = {
	{"gemm_small_tiles_16x16x16.json -D M=1024 -D N=5120 -D K=640 --max-instructions 20000000000", NULL, NULL},
	{"gemm_small_tiles_32x32x8.json -D M=1024 -D N=5120 -D K=640 --max-instructions 20000000000", NULL, NULL},
	{"batched_gemm_permute.json -D B=32 -D M=1024 -D N=512 -D K=768", NULL, NULL}, /* about 2 minutes */
	/* testPureGemm, testVMFMAGemm, the bf16 GEMM at test_gemm's first shape
	 * (about 15 s each), static and dynamic; testPingPongGemm's 4096^3 */
	{"wg_gemm_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"packed_gemm_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"packed_gemm_32x32x8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_32x32x8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_dyn_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_dyn_32x32x8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_vmfma_16x16x32_k8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_vmfma_32x32x16_k8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_vmfma_dyn_16x16x32_k8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_vmfma_dyn_32x32x16_k8.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_bf16_16x16x16.json -D M=1024 -D N=5120 -D K=640", NULL, NULL},
	{"wg_gemm_pingpong_16x16x16.json -D M=4096 -D N=4096 -D K=4096 --max-instructions 100000000000", NULL, NULL},
	{"wg_gemm_int_16x16x32_i8.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx942"},
	{"wg_gemm_int_32x32x16_i8.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx942"},
	{"wg_gemm_int_16x16x16_i8.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx90a"},
	{"wg_gemm_int_32x32x8_i8.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx90a"},
	{"wg_gemm_int_dyn_16x16x16_i8.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx90a"},
	{"wg_gemm_int_dyn_32x32x8_i8.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx90a"},
	{"wg_gemm_f8_16x16x32.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx942"},
	{"wg_gemm_f8_32x32x16.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx942"},
	{"wg_gemm_f8_k4_16x16x32.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx942"},
	{"wg_gemm_f8_k4_32x32x16.json -D M=1024 -D N=5120 -D K=640", NULL, "gfx942"},
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

static void run_case(const WaveCase *c, int i)
{
	const char *mcpu = i % 2 ? "gfx90a" : "gfx942";
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run tests/driver/wave/%s --mcpu %s --seed %d", test_root(),
		test_bin(), c->args, mcpu, 5 + i);
	CmdResult r = run_cmd(cmd, NULL);
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

START_TEST(wave_case)
{
	run_case(&cases[_i / 2], _i);
}
END_TEST

START_TEST(wave_slow)
{
	run_case(&slow[_i / 2], _i);
}
END_TEST

START_TEST(wave_known_bug)
{
	run_case(&known_bugs[_i / 2], _i);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/wave");
	TCase *tc = tcase_create("wave");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, wave_case, 0, (int)(2 * ARRAY_LEN(cases)));
	const char *slow_on = getenv("WAVECC_WAVE_SLOW");
	if (slow_on && strcmp(slow_on, "1") == 0) {
		TCase *ts = tcase_create("slow");
		tcase_set_timeout(ts, 3600);
		tcase_add_loop_test(ts, wave_slow, 0, (int)(2 * ARRAY_LEN(slow)));
		suite_add_tcase(s, ts);
	}
	const char *known = getenv("WAVECC_WAVE_KNOWN");
	if (known && strcmp(known, "1") == 0 && known_bug_count() > 0)
		tcase_add_loop_test(tc, wave_known_bug, 0, 2 * known_bug_count());
	suite_add_tcase(s, tc);
	return run_suite(s);
}
