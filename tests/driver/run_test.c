/* run_test.c — `wavecc run K.json`: compile, run on the emulator, compare with
 * the interpreter; PASS/FAIL lines and exit codes. */
#include <stdlib.h>
#include <string.h>

#include "../../util/npy.h"
#include "../test.h"

static CmdResult wavecc(const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

/* `wavecc ARGS` must print PASS and exit 0. */
static void expect_pass(const char *args)
{
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}

START_TEST(copy_unaligned_passes)
{
	CmdResult r = wavecc("run examples/copy.json --seed 7");
	ck_assert_msg(r.status == 0, "status %d\n%s%s", r.status, r.out, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "PASS b: 90243 elements f16, max abs err 0"));
	ck_assert_ptr_nonnull(strstr(r.out, "\nPASS\n"));
	cmd_result_free(&r);
}
END_TEST

/* exp2, exp and log2 whose v_exp_f32 result or v_log_f32 input is a
 * denormal (the instructions flush there): the lowering rescales by 2^64 /
 * 2^32 around them as LLVM does; without it every element is 0 or -inf.
 * The kernels scale the tiny results back up so the tolerance sees them;
 * rtol 1e-2 allows for the few mantissa bits a denormal keeps. */
static const char *const denormal[] = {"exp2_denormal", "exp_denormal", "log2_denormal"};

START_TEST(denormal_transcendentals_pass)
{
	char args[256];
	snprintf(args, sizeof args, "run tests/driver/data/%s.json --rtol 1e-2 --mcpu %s --seed %d", denormal[_i / 2],
		_i % 2 ? "gfx90a" : "gfx942", 30 + _i);
	expect_pass(args);
}
END_TEST

START_TEST(add_passes_on_gfx90a)
{
	CmdResult r = wavecc("run examples/add.json --mcpu gfx90a");
	ck_assert_msg(r.status == 0, "status %d\n%s%s", r.status, r.out, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "PASS c: 19200 elements f16"));
	cmd_result_free(&r);
}
END_TEST

START_TEST(dynamic_symbols_need_values)
{
	/* a missing -D is bad usage, as in interp (issue 9) */
	CmdResult r = wavecc("run examples/copy_dynamic.json");
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "dynamic symbol M of kernel dynamic_copy needs a value: -D M=VAL"));
	cmd_result_free(&r);
	r = wavecc("run examples/copy_dynamic.json -D M=37 -D N=300");
	ck_assert_msg(r.status == 0, "status %d\n%s%s", r.status, r.out, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "elements f16"));
	cmd_result_free(&r);
}
END_TEST

/* Every compiled example passes on both targets (the reductions, softmax
 * and the MFMA GEMMs; copy/add/cast are above and in compile_test), the
 * gfx90a run under the emulator's adversarial and strict modes (random
 * wave order, reversed workgroups, garbage fill, late memory, races, the
 * buffer canary: docs/emulator.md). */
static const char *const passing[] = {"reduce_sum", "reduce_max", "reduce_block", "softmax", "softmax_wide",
	"gemm_global", "gemm_global_32x32x8", "gemm_global_unaligned", "gemm_16x16x16", "gemm_32x32x8", "gemm_unaligned", "batched_gemm"};

START_TEST(example_passes)
{
	const char *name = passing[_i / 2], *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char args[256];
	snprintf(args, sizeof args, "run examples/%s.json --mcpu %s --seed %d%s", name, mcpu, 3 + _i,
		 _i % 2 ? " --wave-order random --wg-order reverse --fill garbage --memory late --races --canary --order-seed 3"
			: "");
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	ck_assert_ptr_null(strstr(r.out, "FAIL"));
	cmd_result_free(&r);
}
END_TEST

/* Three orders, one result: each example on gfx942 under the default order
 * (one instruction per wave in turn, workgroups forward), under waves
 * running to their barriers with workgroups in a random order, and in the
 * cycle model's issue order (--wave-order model) with workgroups reversed,
 * on the same inputs, writes bit-identical outputs (none of them sums with
 * atomics). */
START_TEST(example_orders_agree)
{
	const char *name = passing[_i], *out = strncmp(name, "softmax", 7) ? "c" : "b";
	const char *dir = test_tmpdir("orders_agree");
	char args[1024], p0[600], p1[600], err[256];
	snprintf(p0, sizeof p0, "%s/%s_0.npy", dir, name);
	for (int k = 0; k < 3; k++) {
		snprintf(p1, sizeof p1, "%s/%s_%d.npy", dir, name, k);
		snprintf(args, sizeof args, "run examples/%s.json --seed 11 --out %s=%s%s", name, out, p1,
			k == 1 ? " --wave-order barrier --wg-order random --order-seed 7"
			: k == 2 ? " --wave-order model --wg-order reverse" : "");
		CmdResult r = wavecc(args);
		ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out,
			r.err);
		cmd_result_free(&r);
		if (k == 0)
			continue;
		NpyArray a, b;
		ck_assert_msg(npy_read(p0, &a, err, sizeof err) == 0, "%s", err);
		ck_assert_msg(npy_read(p1, &b, err, sizeof err) == 0, "%s", err);
		ck_assert(a.nbytes == b.nbytes && a.count > 0);
		ck_assert_msg(memcmp(a.data, b.data, a.nbytes) == 0, "%s: %s gives other outputs than the default order",
			name, args);
		npy_free(&a);
		npy_free(&b);
	}
}
END_TEST

/* Every example (the list must name each file of examples/) in the cycle
 * model's wave order (--wave-order model: waves issue as the CU model
 * issues them in time) with the strict modes, reversed workgroups and
 * garbage fill: the outputs match the interpreter, no race, no late read. */
static const char *const model_runs[] = {"add", "attention", "attention_masked", "batched_gemm", "cast",
	"conv2d_igemm", "copy", "copy_aligned", "copy_dynamic -D M=37 -D N=300", "decode_attention_phase0",
	"decode_attention_phase1", "gemm_16x16x16", "gemm_32x32x8", "gemm_dynamic -D M=100 -D N=70 -D K=90",
	"gemm_global", "gemm_global_32x32x8", "gemm_global_unaligned", "gemm_unaligned", "reduce_block", "reduce_max",
	"reduce_sum", "softmax", "softmax_wide"};

static int model_listed;
static void model_listed_has(const char *dir, const char *name)
{
	(void)dir;
	size_t n = strlen(name) - strlen(".json");
	for (size_t i = 0; i < ARRAY_LEN(model_runs); i++)
		if (strncmp(model_runs[i], name, n) == 0 && (model_runs[i][n] == 0 || model_runs[i][n] == ' ')) {
			model_listed++;
			return;
		}
	ck_abort_msg("examples/%s is not in model_runs[]", name);
}

START_TEST(example_in_model_order)
{
	if (_i == 0)
		ck_assert_int_eq(test_each_file("examples", ".json", model_listed_has), (int)ARRAY_LEN(model_runs));
	char name[128], args[512];
	snprintf(name, sizeof name, "%s", model_runs[_i]);
	char *sp = strchr(name, ' ');
	snprintf(args, sizeof args, "run examples/%.*s.json%s --seed %d --wave-order model --wg-order reverse --fill garbage "
		"--memory late --races --canary", sp ? (int)(sp - name) : (int)strlen(name), name, sp ? sp : "", 20 + _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n") && !strstr(r.out, "FAIL"), "%s: status %d\n%s%s", args,
		r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* GEMM epilogues in the accumulator layout (indices.c acc_forward): a cast
 * to f16 packed in pairs (or to bf16, rounded to nearest even on the bits;
 * bf16 arithmetic in f32, bf16 operands on the bf16 MFMAs under the _F16
 * MMA names), a bias along N or M read straight into the
 * lanes that add it, a ReLU against a scalar, f16 bias after the cast
 * (16-bit halves rearranged with v_perm_b32); global and shared operands,
 * both MFMA shapes, aligned and unaligned, both targets. */
static const char *const epilogues[] = {"gemm_cast", "gemm_bias_relu", "gemm_bias_m", "gemm_cast_bias",
	"gemm_bias_relu_shared", "gemm_bias_m_shared", "gemm_cast_bias_shared", "gemm_bias_relu_shared_32x32x8",
	"gemm_cast_bias_shared_32x32x8", "gemm_bf16_cast_bias", "gemm_bf16_32x32x8", "gemm_k8_16x16x32", "gemm_k8_32x32x16", "gemm_k8_bf16"};

START_TEST(epilogue_passes)
{
	const char *name = epilogues[_i / 4], *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	const char *shape = (_i / 2) % 2 ? " -D M=100 -D N=70 -D K=90" : "";
	char args[512];
	snprintf(args, sizeof args, "run tests/driver/data/%s.json --mcpu %s --seed %d%s", name, mcpu, 7 + _i, shape);
	expect_pass(args);
}
END_TEST

/* i8 and fp8 MMAs from global memory on gfx942 (its v_mfma_i32_*_i8 and
 * v_mfma_f32_*_fp8_fp8; 8-bit elements packed four per dword, read as
 * whole runs or byte by byte into place with v_perm_b32), the K4 fp8
 * layout (two runs of 4 k per lane), aligned and 100x70x96; gfx90a runs
 * the i8 types as two of its narrower i8 MFMAs and has no fp8 MFMA, which
 * it must say at the mma. */
static const char *const narrow[] = {"gemm_i8_global", "gemm_i8_global_32x32x16", "gemm_f8_global",
	"gemm_f8_k4_global_32x32x16"};

START_TEST(narrow_mma_passes)
{
	const char *name = narrow[_i / 2];
	const char *shape = _i % 2 ? " -D M=100 -D N=70 -D K=96" : "";
	char args[512];
	snprintf(args, sizeof args, "run tests/driver/data/%s.json --mcpu gfx942 --seed %d%s", name, 11 + _i, shape);
	expect_pass(args);
	snprintf(args, sizeof args, "run tests/driver/data/%s.json --mcpu gfx90a --seed %d%s", name, 11 + _i, shape);
	if (strstr(name, "_i8_")) {
		expect_pass(args);
		return;
	}
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 1 && strstr(r.err, ".json:") && strstr(r.err, "which gfx90a does not have"),
		"%s: status %d\n%s", args, r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

/* MMAs whose K step is longer than the loop's K tile: the lanes holding k
 * past the trip's window get zero operands (isel/mma.c): the K8 f16 type
 * (two 16x16x16 MFMAs per step) in K tiles of 8, 16 and 24, the i8 type
 * of K 32 in tiles of 16 (Wave's testI8HwTransposeGemm), both targets
 * (gfx90a: two 16x16x16 i8 MFMAs per step) */
static const char *const short_k[] = {"tests/driver/data/gemm_k8_16x16x32.json -D BLOCK_K=16",
	"tests/driver/data/gemm_k8_16x16x32.json -D BLOCK_K=8 -D M=100 -D N=70 -D K=90",
	"tests/driver/data/gemm_k8_16x16x32.json -D BLOCK_K=24 -D M=100 -D N=70 -D K=90",
	"tests/driver/data/gemm_i8_global.json -D BLOCK_K=16 -D M=100 -D N=70 -D K=90"};

START_TEST(short_k_tiles_pass)
{
	char args[512];
	snprintf(args, sizeof args, "run %s --mcpu %s --seed %d --wave-order random --fill garbage", short_k[_i / 2],
		_i % 2 ? "gfx90a" : "gfx942", 61 + _i);
	expect_pass(args);
}
END_TEST

/* 8-bit elements through memory: an i8 copy (Wave's copy kernel, 4 bytes
 * per lane) loads bytes into their place in a packed dword and stores
 * them back one by one (bytes 1-3 shifted down first), on unaligned
 * shapes, both targets. */
START_TEST(byte_copy_passes)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942", *shape = _i / 2 ? "-D M=111 -D N=813" : "-D M=1 -D N=27";
	char args[512];
	snprintf(args, sizeof args, "run tests/driver/data/copy_i8.json --mcpu %s --seed %d %s", mcpu, 5 + _i, shape);
	expect_pass(args);
}
END_TEST

/* LDS reuse (passes/plan/lds_place.c): two GEMM loops in a row stage their
 * tiles in the same 8192 bytes (unpadded, swizzled: 9216 padded would
 * allow 7 workgroups per CU, not 8) (one loop's tiles are dead when the next
 * begins; its first s_barrier keeps a fast wave from overwriting what a
 * slow one still reads), so occupancy stays what one GEMM allows. */
START_TEST(lds_reused_between_loops)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942", *shape = _i / 2 ? " -D M=100 -D N=70 -D K=90" : "";
	char args[512];
	snprintf(args, sizeof args, "run tests/driver/data/two_gemms_shared.json --mcpu %s --seed %d%s", mcpu, 9 + _i, shape);
	expect_pass(args);
	snprintf(args, sizeof args, "compile tests/driver/data/two_gemms_shared.json --mcpu %s --stats -o '%s/two%d.co'", mcpu,
		test_tmpdir("lds"), _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "lds bytes                 8192 "), "%s\n%s%s", args, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Selection's own LDS under a later region's tiles (passes/plan/lds_place.c,
 * isel/values.c isel_lds_place): Wave's GEMM-and-reduce with the loop's max
 * started from a max over the whole rows of A before the loop
 * (gemm_reduce_before_loop: the init moves into the loop's layout through
 * LDS at the iterate, before the loop's tiles are staged). The plan places
 * the loop's tiles right after A's whole-row tile (8192 bytes swizzled),
 * on the layout change's 256 bytes, which are dead by then; the loop's
 * first LDS writes come after an s_barrier. LDS 16384 bytes in all (the
 * tiles' own), where putting the tiles past that space took 18944 and
 * allowed 3 workgroups per CU, not 4. Run on both targets, gfx90a with
 * late memory and the race detector. */
START_TEST(lds_scratch_under_later_tiles)
{
	const char *mcpu = _i ? "gfx90a" : "gfx942", *strict = _i ? " --memory late --races" : "";
	char args[512];
	snprintf(args, sizeof args, "run tests/driver/data/gemm_reduce_before_loop.json --mcpu %s --seed %d%s", mcpu,
		21 + _i, strict);
	expect_pass(args);
	snprintf(args, sizeof args, "compile tests/driver/data/gemm_reduce_before_loop.json --mcpu %s --stats -o '%s/grb%d.co'",
		mcpu, test_tmpdir("lds"), _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "lds bytes                 16384 "), "%s\n%s%s", args, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Spilling to AGPRs (regalloc/spill.c): 128x128 tiles with 256-deep K
 * steps need more than the 256 VGPRs for operands and accumulators; the
 * operand tuples that live longest without use move to AGPRs and are read
 * back where the MFMAs use them. Both targets, aligned and unaligned. */
START_TEST(spilled_to_agprs_passes)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	const char *shape = _i / 2 ? "-D M=200 -D N=150 -D K=300" : "-D M=256 -D N=256 -D K=256";
	char args[512];
	snprintf(args, sizeof args,
		"run examples/gemm_global.json --mcpu %s --seed %d -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=256 %s", mcpu,
		13 + _i, shape);
	expect_pass(args);
	snprintf(args, sizeof args,
		"compile examples/gemm_global.json --mcpu %s -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=256 %s --stats -S -o "
		"'%s/spill%d.s'",
		mcpu, shape, test_tmpdir("spill"), _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "vgpr                      256") && !strstr(r.out, "agpr                      0\n"),
		"%s\n%s%s", args, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Gemm-and-reduce (Wave's reductions of the MMA result): a max or sum
 * over N or M of the accumulator keeps the other dim's accumulator layout
 * (indices.c acc_forward); the lanes that share a row are folded bit by
 * bit (over N: the 16 or 32 lanes of a row group by DPP and ds_swizzle;
 * over M: lanes 16 and 32 apart by ds_swizzle and ds_bpermute_b32), then
 * the waves along the reduced dim through per-lane LDS slots. Written as
 * [M] or [N], and broadcast back into an epilogue (c - rowmax). Both
 * targets, both MFMA shapes, N = 50 of a 64-wide tile (the lanes past N
 * take part with what the masked reads gave, Wave's semantics). */
/* the second shape of each: over M, M past 64 would be split over
 * workgroups (rejected as a race), so N grows instead */
static const char *const reduces[][2] = {{"gemm_reduce_max_n", " -D M=100 -D N=50 -D K=90"},
	{"gemm_reduce_max_m", " -D N=100 -D M=50 -D K=90"}, {"gemm_reduce_sum_n_32x32x8", " -D M=100 -D N=50 -D K=90"},
	{"gemm_reduce_max_m_32x32x8", " -D N=100 -D M=50 -D K=90"},
	{"gemm_reduce_softmax_epilogue", " -D M=100 -D N=50 -D K=90"}};

START_TEST(gemm_reduce_passes)
{
	const char *name = reduces[_i / 4][0], *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	const char *shape = (_i / 2) % 2 ? reduces[_i / 4][1] : "";
	char args[512];
	snprintf(args, sizeof args, "run tests/driver/data/%s.json --mcpu %s --seed %d%s", name, mcpu, 21 + _i, shape);
	expect_pass(args);
}
END_TEST

/* Values without an MMA role in an MMA kernel (passes/graph/indices.c
 * vs_index: Wave's vector-shape layout where the read/write anchors do not
 * cover the window): a copy beside the GEMM (in and out of the K loop,
 * which used to leave columns unwritten), and reductions beside it (Wave's
 * test_gemm_and_reduce and its kin, isel/reduce.c): a max over K of the B
 * operand and of a read no mma takes, an f32 sum over K of a cast of the A
 * operand, a max over N of a read outside the loop moved into the
 * accumulator's layout for the epilogue (each of the two waves along N
 * with its own window's maxima: isel/relayout.c's boxes per wave). Both
 * targets, the adversarial wave order, an unaligned shape each. */
static const char *const beside[] = {"gemm_copy_beside", "gemm_copy_k_beside", "gemm_rhs_max_k", "gemm_read_max_k",
	"gemm_read_max_k_32x32x8", "gemm_lhs_sum_k_f32", "gemm_read_max_n_epilogue", "gemm_read_max_n_epilogue_32x32x8"};

START_TEST(reductions_beside_mma_pass)
{
	const char *name = beside[_i / 4], *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	const char *shape = (_i / 2) % 2 ? " -D M=100 -D N=70 -D K=40" : "";
	char args[512];
	snprintf(args, sizeof args,
		"run tests/driver/data/%s.json --mcpu %s --seed %d --wave-order random --fill garbage%s", name, mcpu,
		31 + _i, shape);
	expect_pass(args);
}
END_TEST

/* Found by a configuration sweep and its probes: iter args whose outputs come back in
 * another order (or an iter arg passed through while another is updated
 * in place) are one parallel copy at the end of each trip; a one-wave
 * GEMM with runtime sizes and operands staged through LDS needs more than
 * the 102 SGPRs for its masks and offsets, which spill to VGPR lanes; a
 * runtime size of 0 is an empty launch. Both targets. */
static const char *const sweep_found[] = {"tests/driver/data/gemm_two_acc_swapped.json",
	"tests/driver/data/gemm_two_acc_swapped.json -D M=50 -D N=40 -D K=70",
	"tests/driver/data/gemm_acc_passthrough.json",
	"tests/driver/data/gemm_dynamic_sgpr_spill.json -D M=48 -D N=17 -D K=16",
	"tests/driver/data/gemm_dynamic_sgpr_spill.json -D M=100 -D N=70 -D K=90",
	"examples/gemm_dynamic.json -D M=0 -D N=64 -D K=64", "examples/gemm_dynamic.json -D M=5 -D N=0 -D K=64",
	/* an explicit broadcast of a bias into the accumulator layout, an
	 * elementwise op on an MMA operand in the loop (a*a as A), a negated
	 * f16 operand (a sign flip of both halves) */
	"tests/driver/data/gemm_bias_broadcast.json", "tests/driver/data/gemm_bias_broadcast.json -D M=100 -D N=70 -D K=90",
	"tests/driver/data/gemm_squared_operand.json", "tests/driver/data/gemm_two_acc_neg.json",
	/* K tiles of 24 and 48 staged in LDS: rows of 3 or 6 chunks that 256
	 * threads do not cover in whole rows; the box grows to 32 or 64 */
	"examples/gemm_16x16x16.json -D BLOCK_K=24 -D K=192", "examples/gemm_32x32x8.json -D BLOCK_K=48 -D M=100 -D N=70 -D K=90",
	/* a runtime K in tiles of 24 or 40: the trip count floor((K + 23) / 24)
	 * by a magic multiply (s_mul_hi_u32) on both sides of a multiple */
	"examples/gemm_dynamic.json -D BLOCK_K=24 -D M=16 -D N=16 -D K=47",
	"examples/gemm_dynamic.json -D BLOCK_K=24 -D M=16 -D N=16 -D K=49",
	"examples/gemm_dynamic.json -D BLOCK_K=40 -D M=100 -D N=70 -D K=121",
	/* scalars whose value is an integer expression (K; runtime K divides
	 * the sum: a mean), an epilogue and a block reduction on the
	 * get_results of a loop with two accumulators */
	"tests/driver/data/gemm_scalar_expr.json", "tests/driver/data/gemm_dynamic_mean.json -D M=100 -D N=70 -D K=90",
	"tests/driver/data/gemm_two_acc_epilogue.json", "tests/driver/data/gemm_two_acc_epilogue.json -D M=50 -D N=40 -D K=70",
	/* f16 epilogue math after the cast: sub (a + -b), truediv, exp2 and
	 * reciprocal through f32 and rounded back once */
	"tests/driver/data/gemm_f16_epilogue_math.json",
	"tests/driver/data/gemm_f16_epilogue_math.json -D M=100 -D N=70 -D K=90"};

START_TEST(sweep_found_passes)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char args[512];
	snprintf(args, sizeof args, "run %s --mcpu %s --seed %d", sweep_found[_i / 2], mcpu, 31 + _i);
	expect_pass(args);
}
END_TEST

/* f8 E4M3 FNUZ conversions both ways on gfx942: f32 -> f8 -> f32 and
 * f32 -> f8 -> f16 (v_cvt_pk_fp8_f32, then each code's byte moved down
 * and v_cvt_f32_fp8), Wave's copy tiling, two shapes; gfx90a says it has
 * no fp8 conversion. */
static const char *const fp8_casts[] = {"cast_f8_round_trip", "cast_f8_to_f16"};

START_TEST(fp8_casts_pass)
{
	const char *name = fp8_casts[_i / 2], *shape = _i % 2 ? " -D M=7 -D N=13" : "";
	char args[512];
	snprintf(args, sizeof args, "run tests/driver/data/%s.json --mcpu gfx942 --seed %d%s", name, 41 + _i, shape);
	expect_pass(args);
	snprintf(args, sizeof args, "run tests/driver/data/%s.json --mcpu gfx90a", name);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 1 && strstr(r.err, ".json:") && strstr(r.err, "which gfx90a does not have"), "%s\n%s",
		args, r.err);
	cmd_result_free(&r);
}
END_TEST

/* An int8 GEMM dequantised in its epilogue: i32 bias add, ReLU against an
 * i32 scalar, cast to f32 (v_cvt_f32_i32), scale, cast to f16; with
 * I32_16x16x32_I8 and I32_16x16x16_I8, each on both targets (the one
 * without the type's instruction runs it on the other shape of the i8
 * family: two 16x16x16 MFMAs on gfx90a, 16x16x32 with a zero dword on
 * gfx942; isel/mma.c mfma_on_target). */
START_TEST(i8_dequant_epilogue_passes)
{
	const char *shape = _i / 2 % 2 ? " -D M=100 -D N=70 -D K=96" : "";
	bool other = _i / 4; /* each file on the target without its MFMA */
	char args[512];
	snprintf(args, sizeof args, "run tests/driver/data/%s.json --mcpu %s --seed %d%s",
		_i % 2 ? "gemm_i8_dequant_cdna2" : "gemm_i8_dequant", (_i % 2) != other ? "gfx90a" : "gfx942", 51 + _i,
		shape);
	expect_pass(args);
}
END_TEST

/* workgroup_dims 3 and 4 folded into grid dim 2 (Wave's delinearized
 * $WG2), counts 3 x 5 x 2 that need a division by a non-power of two, and
 * runtime sizes on the slowest folded dim and the others; a workgroup
 * constraint with iters 1 (Wave's count: one of M's two tiles, so rows
 * 16-31 of c stay zero, as in the interpreter) */
static const char *const folded[] = {"tests/driver/data/gemm_wg_iters.json", "tests/driver/data/add_folded_wg.json",
	"tests/driver/data/add_folded_wg_dyn.json -D B=3 -D M=5 -D N=333",
	"tests/driver/data/batched_gemm_folded.json",
	"tests/driver/data/batched_gemm_folded_dyn.json -D B=2 -D M=33 -D N=65 -D K=47"};

START_TEST(folded_grid_passes)
{
	char args[512];
	snprintf(args, sizeof args, "run %s --mcpu %s --seed %d", folded[_i / 2], _i % 2 ? "gfx90a" : "gfx942", 40 + _i);
	expect_pass(args);
}
END_TEST

/* Loops (isel.c select_iterate): a tiling start (K from 24, unaligned,
 * operands staged in LDS), split K with start $WG2 * KPS and iters, and
 * runtime iters that reach 0 or below for the last split (the guard
 * skips the loop); nested iterates carrying values through both loops
 * (the outer count at run time, also 0) and the sequential batched GEMM
 * with runtime sizes (B = 0 and K = 0 too). */
static const char *const loops[] = {"tests/driver/data/gemm_k_start.json", "tests/driver/data/gemm_split_k.json",
	"tests/driver/data/gemm_split_k_dyn.json -D K=40", "tests/driver/data/gemm_split_k_dyn.json -D K=77",
	"tests/driver/data/nested_sum.json", "tests/driver/data/nested_sum_dyn.json -D M=4 -D I=5",
	"tests/driver/data/nested_sum_dyn.json -D M=3 -D I=0",
	"tests/driver/data/sequential_batched_gemm_dyn.json -D B=3 -D M=100 -D N=70 -D K=90",
	"tests/driver/data/sequential_batched_gemm_dyn.json -D B=2 -D M=10 -D N=7 -D K=0",
	/* loops whose condition names carried values (frontend/load_while.c):
	 * per lane (Collatz steps, each lane its own trip count, the bound
	 * reached by some at 40), and uniform (a rank-0 value doubled until it
	 * reaches LIMIT: a scalar branch; while_nested.json: the same with a
 * counted loop inside, which a uniform condition allows); a bound of a billion trips within
	 * --max-instructions checks that the loop is left when no lane runs it */
	"tests/driver/data/while_collatz.json", "tests/driver/data/while_collatz.json -D MAX_STEPS=40",
	"tests/driver/data/while_collatz.json -D MAX_STEPS=1000000000 --max-instructions 300000",
	"tests/driver/data/while_uniform.json -D LIMIT=0", "tests/driver/data/while_uniform.json -D LIMIT=100",
	"tests/driver/data/while_uniform.json -D LIMIT=100000000",
	"tests/driver/data/while_uniform.json -D MAX_TRIPS=1000000000 -D LIMIT=4000 --max-instructions 100000",
	"tests/driver/data/while_nested.json -D LIMIT=77", "tests/driver/data/while_nested.json -D LIMIT=0",
	/* volatile reads and writes (compile_test.c checks their code): the
	 * same values, and a GEMM whose volatile reads are not prefetched */
	"tests/driver/data/volatile_copy.json", "tests/driver/data/volatile_gemm.json",
	"tests/driver/data/release_acquire.json"};

START_TEST(loops_pass)
{
	char args[512];
	snprintf(args, sizeof args, "run %s --mcpu %s --seed %d", loops[_i / 2], _i % 2 ? "gfx90a" : "gfx942", 60 + _i);
	expect_pass(args);
}
END_TEST

/* A loop whose condition names a carried value, per lane, reading at the
 * value (tests/driver/data/while_chase.json): each lane follows a chain
 * nxt[i] until it is negative or 30 hops, summing val along it. The
 * chains (i*37 + 11 mod 200, ended at every 13th) take 0 to 30 hops
 * and some loop; the kernel's hops and sums are checked against the walk
 * done here, on both targets. */
START_TEST(while_chase_walks)
{
	enum { N = 200, MAX_HOPS = 30 };
	int32_t nxt[N], hops[N];
	float val[N], sum[N];
	for (int i = 0; i < N; i++) {
		nxt[i] = i % 13 ? (i * 37 + 11) % N : -1;
		val[i] = (float)(i % 9) * 0.25f;
	}
	int spread[MAX_HOPS + 1] = {0};
	for (int i = 0; i < N; i++) {
		int32_t idx = nxt[i];
		float acc = 0;
		int c = 0;
		while (c < MAX_HOPS && idx >= 0) {
			acc += val[idx];
			idx = nxt[idx];
			c++;
		}
		hops[i] = c;
		sum[i] = acc;
		spread[c]++;
	}
	ck_assert_int_gt(spread[0], 0);
	ck_assert_int_gt(spread[MAX_HOPS], 0);
	const char *dir = test_tmpdir(_i ? "while_chase_90a" : "while_chase_942");
	char p[4][512], err[256];
	const char *names[4] = {"nxt", "val", "hops", "sum"};
	for (int k = 0; k < 4; k++)
		snprintf(p[k], sizeof p[k], "%s/%s.npy", dir, names[k]);
	int64_t shape[1] = {N};
	ck_assert_msg(npy_write(p[0], DT_I32, 1, shape, nxt, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_write(p[1], DT_F32, 1, shape, val, err, sizeof err) == 0, "%s", err);
	char args[4096];
	snprintf(args, sizeof args,
		"run tests/driver/data/while_chase.json -D IDX=0 --mcpu %s --in nxt=%s --in val=%s --out hops=%s "
		"--out sum=%s",
		_i ? "gfx90a" : "gfx942", p[0], p[1], p[2], p[3]);
	expect_pass(args);
	NpyArray h, s;
	ck_assert_msg(npy_read(p[2], &h, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_read(p[3], &s, err, sizeof err) == 0, "%s", err);
	for (int i = 0; i < N; i++) {
		ck_assert_msg(((int32_t *)h.data)[i] == hops[i], "hops[%d] %d, want %d", i, ((int32_t *)h.data)[i], hops[i]);
		ck_assert_msg(((float *)s.data)[i] == sum[i], "sum[%d] %g, want %g", i, (double)((float *)s.data)[i],
			(double)sum[i]);
	}
	npy_free(&h);
	npy_free(&s);
}
END_TEST

/* Index mappings on global reads and writes (isel/memory.c): each memory
 * coordinate is the mapping's expression with the iterators bound to the
 * element's register coordinates; register and memory bounds both mask.
 * A read shifted by one (j - 1 reads before the row: masked, and the
 * uniform offset may be negative, so such elements carry their own
 * offsets), a write shifted by two, and conv2d NHWC x HWCF as an implicit
 * GEMM (im2col reads whose runs cross image rows: per-element offsets,
 * divisions by 36 and 6 by magic multiplies), with strides. */
static const char *const mapped[] = {"tests/driver/data/copy_shifted.json -D M=111 -D N=813",
	"tests/driver/data/copy_shifted.json -D M=1 -D N=27", "tests/driver/data/copy_shifted_write.json -D M=111 -D N=813",
	"tests/driver/data/conv2d_igemm_global.json", "tests/driver/data/conv2d_igemm_global.json -D stride=2",
	"tests/driver/data/conv2d_igemm_global.json -D N=3 -D H=10 -D W=9",
	/* the seed's conv, operands in shared memory: the mapped MMA operands
	 * are staged through LDS (isel/lds_stage.c) */
	"examples/conv2d_igemm.json", "examples/conv2d_igemm.json -D stride=2",
	/* decode attention's phase 1 (reads of the split logits through
	 * mappings, max and sum over the split) */
	"examples/decode_attention_phase1.json",
	/* and its phase 0: the split U, a symbolic_alias of K2, gives each
	 * wave its own slot for the partial result and log-sum-exp */
	"examples/decode_attention_phase0.json",
	/* found by a mapping sweep: reversed rows and columns (a lane part
	 * below 0 must not go into the unsigned lane offset; elements before
	 * the base carry their own), shifts crossing the row end with several
	 * elements per thread (each element bounded on its own), a GEMM whose
	 * B is read shifted along K */
	"tests/driver/data/copy_reversed.json", "tests/driver/data/copy_reversed_rows.json",
	"tests/driver/data/copy_shift_read_ept4.json", "tests/driver/data/copy_shift_write_ept4.json",
	"tests/driver/data/copy_shift_rows_cols.json", "tests/driver/data/gemm_b_shifted_k.json"};

/* A loop that steps to the next multiple of T (Wave's stream-K work unit
 * loop; docs/kernel-format.md, "Loops with a condition"):
 * while_next_multiple's workgroup g walks [13 g, 13 g + 13) from its start
 * to each multiple of 5, marking c there: 17 marks over the 5 workgroups
 * (0 5 10, 13 15 20 25, 26 30 35, 39 40 45 50, 52 55 60), checked against
 * that list, on both targets, and with fewer and more workgroups. */
START_TEST(next_multiple_loop)
{
	static const int marks[] = {0, 5, 10, 13, 15, 20, 25, 26, 30, 35, 39, 40, 45, 50, 52, 55, 60};
	const char *dir = test_tmpdir("next_multiple");
	for (int t = 0; t < 2; t++) {
		char args[2048], path[1024], err[256];
		snprintf(path, sizeof path, "%s/c%d.npy", dir, t);
		snprintf(args, sizeof args, "run tests/driver/data/while_next_multiple.json --mcpu %s --out c=%s",
			 t ? "gfx90a" : "gfx942", path);
		expect_pass(args);
		NpyArray c;
		ck_assert_msg(npy_read(path, &c, err, sizeof err) == 0, "%s", err);
		ck_assert_int_eq((int)c.count, 65);
		for (int i = 0, m = 0; i < 65; i++) {
			bool want = m < (int)ARRAY_LEN(marks) && marks[m] == i;
			m += want;
			/* the elements no trip marks keep the runner's fill (not 1) */
			ck_assert_msg((((float *)c.data)[i] == 1.0f) == want, "c[%d] = %g", i, ((float *)c.data)[i]);
		}
		npy_free(&c);
	}
	expect_pass("run tests/driver/data/while_next_multiple.json -D W=2 -D T=4");
	expect_pass("run tests/driver/data/while_next_multiple.json -D R=3 -D T=7 --wg-order reverse --memory late --races");
}
END_TEST

/* An mma whose rhs is read from a [K, N] buffer without a mapping: k by
 * name, through the loader's permute (docs/kernel-format.md, mma); it
 * was a located rejection, and an explicitly permuted read gave a wrong
 * product. Both targets, the second adversarially. */
START_TEST(mma_operand_k_not_last)
{
	expect_pass("run tests/driver/data/gemm_b_kn.json --mcpu gfx942");
	expect_pass("run tests/driver/data/gemm_b_kn.json --mcpu gfx90a --seed 3 --wg-order reverse --fill garbage "
		    "--memory late --races --canary");
}
END_TEST

/* Spin-waits (docs/kernel-format.md, "Spin-waits"): spin_ring's workgroup
 * g publishes its tile and a flag, waits for workgroup (g + 1) mod W's flag
 * and copies that one's tile (one after another, workgroup 0 would wait
 * forever). It passes on both targets and under the emulator's adversarial
 * orders and fill (the run is the concurrent order; late memory and the
 * race detector do not run with it: an error, not a silent pass). With
 * flags of 0 (spin_hang) nothing releases the waits: the interpreter and
 * the emulator each report a hang. A grid larger than the GPU holds at once
 * is refused at the launch; `wavecc profile` (its cycle model runs
 * workgroups one after another) refuses the kernel by name. */
START_TEST(spin_waits)
{
	expect_pass("run tests/driver/data/spin_ring.json --mcpu gfx942 --seed 5");
	expect_pass("run tests/driver/data/spin_ring.json --mcpu gfx90a --seed 6 --wave-order random --fill garbage --canary");
	expect_pass("run tests/driver/data/spin_ring.json -D W=7 --wave-order barrier --seed 7");
	CmdResult r = wavecc("run tests/driver/data/spin_ring.json --memory late");
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "the concurrent workgroup order does not run with late memory"), "%s", r.err);
	cmd_result_free(&r);
	r = wavecc("profile tests/driver/data/spin_ring.json");
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "kernel 'spin_ring' is co-resident (its workgroups wait for each other): the cycle "
				    "model and the instruction recording run workgroups one after another"),
		      "%s", r.err);
	cmd_result_free(&r);
	r = wavecc("run tests/driver/data/spin_hang.json");
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "tests/driver/data/spin_hang.json:151:3: error: graph[5]: interp: hang: every running "
				    "workgroup waits in a spin-wait and nothing was stored in a full round of them"),
		      "%s", r.err);
	cmd_result_free(&r);
	const char *dir = test_tmpdir("spin_waits");
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && '%s' compile tests/driver/data/spin_hang.json -o '%s/h.hsaco' --launch '%s/h.json' && "
		 "'%s' compile tests/driver/data/spin_ring.json -D W=9729 -o '%s/big.hsaco' --launch '%s/big.json' && "
		 "grep -q '\"co_resident\": true, \"workgroups_per_cu\": 32' '%s/h.json'",
		 test_root(), test_bin(), dir, dir, test_bin(), dir, dir, dir);
	r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	snprintf(cmd, sizeof cmd, "'%s' run '%s/h.json'", test_bin(), dir);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "emulator: hang: every running wave loops without change"), "%s", r.err);
	cmd_result_free(&r);
	snprintf(cmd, sizeof cmd, "'%s' run '%s/big.json'", test_bin(), dir);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "error: grid: 9729 workgroups, but kernel 'spin_ring' is co-resident"), "%s", r.err);
	ck_assert_msg(strstr(r.err, "holds at most 9728 of them at once (304 CUs x 32 workgroups per CU)"), "%s", r.err);
	cmd_result_free(&r);
}
END_TEST

START_TEST(mapped_access_passes)
{
	char args[512];
	snprintf(args, sizeof args, "run %s --mcpu %s --seed %d", mapped[_i / 2], _i % 2 ? "gfx90a" : "gfx942", 61 + _i);
	expect_pass(args);
}
END_TEST

/* Layout changes. Chained MMAs (passes/graph/indices.c forward_roles): attention's Q·Kᵀ
 * result keeps its accumulator layout through the online softmax (max and
 * sum over K2 as loop-carried values, exp2, the cast to f16) and the second
 * mma gathers its B operand from it in registers. Aligned, unaligned K2
 * and M, a batch of 3, a shorter K1. */
static const char *const chained[] = {"examples/attention.json", "examples/attention.json -D K2=192",
	"examples/attention.json -D K2=100", "examples/attention.json -D M=50",
	"examples/attention.json -D B=3 -D K1=32 -D M=128 -D N=128",
	/* Wave's type pairs: a K8 first mma, then the native one of its shape;
	 * 16x16x16 with q, k, v in global memory */
	"tests/driver/data/attention_k8_32x32.json", "tests/driver/data/attention_k8_16x16.json",
	"tests/driver/data/attention_16x16x16_global.json -D K2=100",
	/* the masked template (self_index, apply_expr, select of a bias) with
	 * an i32 index: the mask takes the accumulator layout of the scores */
	"tests/driver/data/attention_masked_i32.json", "tests/driver/data/attention_masked_i32.json -D K2=100",
	/* the same with the template's i64 index (isel/index64.c: held as
	 * 32-bit words, its coordinates proven below 2^31) */
	"examples/attention_masked.json", "examples/attention_masked.json -D K2=100",
	"examples/attention_masked.json -D K2=37",
	/* the second mma reads the first one's result as A with M in the M
	 * place of both: A's lanes hold other rows than the accumulator's, so
	 * the f16 probabilities move through LDS (isel/relayout.c) */
	"tests/driver/data/chained_mma_cross_lane.json", "tests/driver/data/chained_mma_cross_lane.json -D K2=100",
	"tests/driver/data/chained_mma_cross_lane.json -D B=1 -D M=128 -D N=128",
	/* a GEMM epilogue adding a transposed tensor: the permute's operand is
	 * read in the accumulator's lanes */
	"tests/driver/data/gemm_plus_transposed.json", "tests/driver/data/gemm_plus_transposed.json -D M=100 -D N=70"};

/* Scalar kernel arguments of the 16-bit and unsigned types (isel/scalar_arg.c:
 * a 16-bit value repeated into both halves of its dword), b = a + 1*c + d
 * at 3 x 300 (packed halves, a partial workgroup); seeded values, and
 * -D values that need every bit (exact: a bf16 and an f16 with low mantissa bits,
 * a u32 past 2^31). */
static const char *const scalar_args[] = {"scalar_arg_f16.json", "scalar_arg_f16.json -D c=-0.0009765625 -D d=1000.5",
	"scalar_arg_bf16.json", "scalar_arg_bf16.json -D c=3.015625 -D d=-65536", "scalar_arg_u32.json",
	"scalar_arg_u32.json -D c=4000000000 -D d=7"};

START_TEST(scalar_args_pass)
{
	char args[512];
	snprintf(args, sizeof args, "run tests/driver/data/%s --mcpu %s --seed %d --atol 0 --rtol 0", scalar_args[_i / 2],
		_i % 2 ? "gfx90a" : "gfx942", 5 + _i);
	expect_pass(args);
}
END_TEST

START_TEST(chained_mma_passes)
{
	char args[512];
	snprintf(args, sizeof args, "run %s --mcpu %s --seed %d", chained[_i / 2], _i % 2 ? "gfx90a" : "gfx942", 91 + _i);
	expect_pass(args);
}
END_TEST

/* Large tiles: a 256x256 workgroup tile of four 128x128 waves holds 256
 * accumulator dwords per lane, all of the AGPR file (isel/mma.c): MFMAs
 * read and write them there, stores take them directly, and epilogues
 * read each dword into a VGPR and write an f32 result back in place. */
static const char *const large[] = {"examples/gemm_16x16x16.json", "tests/driver/data/gemm_bias_relu_shared.json",
	"tests/driver/data/gemm_cast_bias_shared.json", "tests/driver/data/gemm_bf16_cast_bias.json",
	"examples/gemm_32x32x8.json"};

START_TEST(large_tile_passes)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char args[512];
	snprintf(args, sizeof args,
		"run %s --mcpu %s --seed %d -D BLOCK_M=256 -D BLOCK_N=256 -D M=512 -D N=512 -D K=128", large[_i / 2],
		mcpu, 3 + _i);
	expect_pass(args);
	/* the accumulators fill the AGPR file */
	snprintf(args, sizeof args, "compile %s --mcpu %s -D BLOCK_M=256 -D BLOCK_N=256 -D M=512 -D N=512 -D K=128 --stats -o '%s/large%d.co'",
		large[_i / 2], mcpu, test_tmpdir("large"), _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "agpr                      256\n"), "%s\n%s%s", args, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Runtime shapes through the CLI: `wavecc run` compiles the dynamic symbols
 * as kernel arguments and gives their -D values at launch; the launch
 * descriptor's grid and shapes are expressions of them. */
static const char *const dynamic_runs[] = {"examples/gemm_dynamic.json -D M=128 -D N=128 -D K=128",
	"examples/gemm_dynamic.json -D M=100 -D N=70 -D K=90", "examples/gemm_dynamic.json -D M=64 -D N=64 -D K=0",
	"examples/copy_dynamic.json -D M=37 -D N=300"};

START_TEST(runtime_shapes_pass)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char args[512];
	snprintf(args, sizeof args, "run %s --mcpu %s --seed %d", dynamic_runs[_i / 2], mcpu, 5 + _i);
	expect_pass(args);
}
END_TEST

START_TEST(runtime_shapes_launch_descriptor)
{
	const char *dir = test_tmpdir("dyn");
	char args[1024], path[1024];
	snprintf(args, sizeof args, "compile examples/gemm_dynamic.json -o '%s/g.hsaco' --launch '%s/g.launch.json'", dir,
		dir);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof path, "%s/g.launch.json", dir);
	size_t len;
	char *l = read_file(path, &len);
	ck_assert_ptr_nonnull(l);
	ck_assert_msg(strstr(l, "\"grid\": [\"ceiling(M/64)\", \"ceiling(N/64)\", 1]"), "%s", l);
	ck_assert_msg(strstr(l, "\"shape\": [\"M\", \"K\"]"), "%s", l);
	ck_assert_msg(strstr(l, "{\"name\": \"K\", \"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 32}"), "%s", l);
	free(l);
}
END_TEST

START_TEST(emulator_failure_is_reported)
{
	/* an instruction cap far too small: the run stops, nothing is compared */
	CmdResult r = wavecc("run examples/copy.json --max-instructions 3");
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_null(strstr(r.out, "PASS"));
	ck_assert_ptr_nonnull(strstr(r.err, "error"));
	cmd_result_free(&r);
	r = wavecc("run examples/copy.json --backend hip");
	ck_assert_int_ne(r.status, 0);
	ck_assert_ptr_null(strstr(r.out, "PASS"));
	ck_assert_ptr_nonnull(strstr(r.err, "HIP"));
	cmd_result_free(&r);
}
END_TEST

START_TEST(bad_usage_and_unsupported_kernels)
{
	CmdResult r = wavecc("run examples/copy.json --in nosuch=x.npy");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
	r = wavecc("run examples/copy.json --atol -1");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
	r = wavecc("run examples/copy.json --mcpu gfx1100");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
	/* a kernel the compiler rejects: a located error, exit 1 */
	r = wavecc("run tests/driver/data/softmax_big_workgroup.json");
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "tests/driver/data/softmax_big_workgroup.json:13:5: error:"));
	ck_assert_ptr_null(strstr(r.out, "PASS"));
	cmd_result_free(&r);
}
END_TEST

/* In-range edits of the examples that compiled with exit 0 and gave wrong
 * results (issue 9): a run whose first element was proved in bounds but
 * whose last was not (gemm K=61..63, 95; reduce N=255, reduce_max N=127)
 * read past the row as one wide access; an odd number of elements per lane
 * (BLOCK_N 192, 384; N=300, 777) dropped one from the lane's sum. With N
 * over the tile (BLOCK_N=192 at N=200) the sums race: reject_test.c. */
static const char *const edits[] = {"gemm_global.json -D K=63", "gemm_global.json -D K=61 -D M=64 -D N=64",
	"gemm_global.json -D K=95", "gemm_global_32x32x8.json -D K=63", "reduce_sum.json -D N=192",
	"reduce_sum.json -D N=255", "reduce_sum.json -D N=300", "reduce_sum.json -D N=777",
	"reduce_sum.json -D N=150 -D BLOCK_N=192", "reduce_sum.json -D BLOCK_N=384", "reduce_max.json -D N=127",
	"reduce_max.json -D N=192", "reduce_block.json -D N=700 -D ELEMS_PER_WAVE=192",
	/* BLOCK_M > 1 along workgroup dim 1 (vector shape BLOCK_M, one row per
	 * copy): only the first row of each tile was read and written */
	"copy.json -D BLOCK_M=2", "copy.json -D BLOCK_M=7", "add.json -D BLOCK_M=3", "cast.json -D BLOCK_M=4",
	"softmax.json -D BLOCK_M=2", "softmax_wide.json -D BLOCK_M=3", "reduce_sum.json -D BLOCK_M=4 -D M=30",
	"reduce_block.json -D BLOCK_M=2 -D M=7"};

START_TEST(edited_example_passes)
{
	const char *edit = edits[_i / 2], *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char args[256];
	snprintf(args, sizeof args, "run examples/%s --mcpu %s --seed %d", edit, mcpu, 11 + _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	ck_assert_ptr_null(strstr(r.out, "FAIL"));
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/run");
	TCase *tc = tcase_create("run");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, copy_unaligned_passes);
	test_add_loop_sampled(tc, folded_grid_passes, (int)(2 * ARRAY_LEN(folded)));
	test_add_loop_sampled(tc, loops_pass, (int)(2 * ARRAY_LEN(loops)));
	tcase_add_loop_test(tc, while_chase_walks, 0, 2);
	tcase_add_test(tc, mma_operand_k_not_last);
	tcase_add_test(tc, spin_waits);
	tcase_add_test(tc, next_multiple_loop);
	tcase_add_test(tc, add_passes_on_gfx90a);
	test_add_loop_sampled(tc, denormal_transcendentals_pass, (int)(2 * ARRAY_LEN(denormal)));
	tcase_add_test(tc, dynamic_symbols_need_values);
	tcase_add_test(tc, emulator_failure_is_reported);
	test_add_loop_sampled(tc, runtime_shapes_pass, (int)(2 * ARRAY_LEN(dynamic_runs)));
	tcase_add_test(tc, runtime_shapes_launch_descriptor);
	test_add_loop_sampled(tc, narrow_mma_passes, (int)(2 * ARRAY_LEN(narrow)));
	tcase_add_loop_test(tc, byte_copy_passes, 0, 4);
	tcase_add_loop_test(tc, lds_reused_between_loops, 0, 4);
	tcase_add_loop_test(tc, lds_scratch_under_later_tiles, 0, 2);
	tcase_add_loop_test(tc, spilled_to_agprs_passes, 0, 4);
	test_add_loop_sampled(tc, gemm_reduce_passes, (int)(4 * ARRAY_LEN(reduces)));
	test_add_loop_sampled(tc, reductions_beside_mma_pass, (int)(4 * ARRAY_LEN(beside)));
	test_add_loop_sampled(tc, sweep_found_passes, (int)(2 * ARRAY_LEN(sweep_found)));
	test_add_loop_sampled(tc, fp8_casts_pass, (int)(2 * ARRAY_LEN(fp8_casts)));
	test_add_loop_sampled(tc, i8_dequant_epilogue_passes, 8);
	test_add_loop_sampled(tc, short_k_tiles_pass, (int)(2 * ARRAY_LEN(short_k)));
	test_add_loop_sampled(tc, mapped_access_passes, (int)(2 * ARRAY_LEN(mapped)));
	test_add_loop_sampled(tc, chained_mma_passes, (int)(2 * ARRAY_LEN(chained)));
	test_add_loop_sampled(tc, scalar_args_pass, (int)(2 * ARRAY_LEN(scalar_args)));
	test_add_loop_sampled(tc, large_tile_passes, (int)(2 * ARRAY_LEN(large)));
	test_add_loop_sampled(tc, epilogue_passes, (int)(4 * ARRAY_LEN(epilogues)));
	test_add_loop_sampled(tc, example_passes, (int)(2 * ARRAY_LEN(passing)));
	tcase_add_loop_test(tc, example_orders_agree, 0, (int)ARRAY_LEN(passing));
	tcase_add_loop_test(tc, example_in_model_order, 0, (int)ARRAY_LEN(model_runs));
	tcase_add_test(tc, bad_usage_and_unsupported_kernels);
	test_add_loop_sampled(tc, edited_example_passes, (int)(2 * ARRAY_LEN(edits)));
	suite_add_tcase(s, tc);
	return run_suite(s);
}
