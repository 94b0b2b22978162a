/* indices_test.c — `wavecc dump-indices`: the per-thread indices of index
 * analysis against the indices Wave expects for a 2x2-wave GEMM (its
 * index_sequence_analysis lit test).
 *
 * Wave's test hand-sets the wave ids (no floor on $T0/64); with the real wave ids
 * of a 2x2-wave GEMM (floor($T0/64) along M, $T1 along N) the same terms
 * read 32*floor($T0/64) and 32*$T1, which is what the lines below hold:
 *   register: M: $T0*BLOCK_M/128 + $WG0*BLOCK_M + 4*floor((Mod($T0, 64))/16) : 4 : 16
 *             N: $T1*BLOCK_N/2 + $WG1*BLOCK_N + Mod($T0, 16) : 1 : 1
 *   read a [M:1, K:1]: M: ... + Mod($T0, 16) + 16 : 1 : 1, K: ARGK*BLOCK_K + 4*floor((Mod($T0, 64))/16) + 16 : 4 : 1
 *   read b [N:1, K:0]: N: ... + Mod($T0, 16) + 16 : 1 : 1, K: ARGK*BLOCK_K + 4*floor((Mod($T0, 64))/16) : 4 : 1 */
#include <stdlib.h>
#include <string.h>

#include "../../test.h"

static CmdResult dump(const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' dump-indices %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

#define HAS(r, line) ck_assert_msg(strstr((r).out, line), "missing line:\n%s\nin:\n%s%s", line, (r).out, (r).err)

START_TEST(gemm_16x16x16_matches_wave)
{
	CmdResult r = dump("examples/gemm_global.json");
	ck_assert_int_eq(r.status, 0);
	HAS(r, "kernel gemm_global: grid 2 x 2 x 1, workgroup 128 x 2 x 1, MMA indices\n");
	HAS(r, "register c_reg[M:0,N:0] {M: 64*$WG0 + 32*floor($T0/64) + 4*floor(Mod($T0, 64)/16) : 4 : 16, "
	       "N: 32*$T1 + 64*$WG1 + Mod($T0, 16) : 1 : 1}\n");
	HAS(r, "iterate repeat over K: 4 trips, $ARGK\n");
	HAS(r, "  read a_reg[M:1,K:1] {M: 64*$WG0 + 32*floor($T0/64) + Mod($T0, 16) + 16 : 1 : 1, "
	       "K: 32*$ARGK + 4*floor(Mod($T0, 64)/16) + 16 : 4 : 1}\n");
	HAS(r, "  read b_reg[N:1,K:0] {N: 32*$T1 + 64*$WG1 + Mod($T0, 16) + 16 : 1 : 1, "
	       "K: 32*$ARGK + 4*floor(Mod($T0, 64)/16) : 4 : 1}\n");
	/* the final write takes the accumulator's index (docs/wave-semantics.md) */
	HAS(r, "write write[M:1,N:1] {M: 64*$WG0 + 32*floor($T0/64) + 4*floor(Mod($T0, 64)/16) + 16 : 4 : 16, "
	       "N: 32*$T1 + 64*$WG1 + Mod($T0, 16) + 16 : 1 : 1}\n");
	cmd_result_free(&r);
}
END_TEST

/* Past the loop, ops on the accumulator keep its layout (acc_forward): the
 * cast, the f16 bias along N read straight into the lanes that add it, the
 * ReLU and the write. */
START_TEST(epilogue_keeps_mma_layout)
{
	CmdResult r = dump("tests/driver/data/gemm_cast_bias.json");
	ck_assert_int_eq(r.status, 0);
	HAS(r, "cast c16[M:1,N:0] {M: 64*$WG0 + 32*floor($T0/64) + 4*floor(Mod($T0, 64)/16) + 16 : 4 : 16, "
	       "N: 32*$T1 + 64*$WG1 + Mod($T0, 16) : 1 : 1}\n");
	HAS(r, "read bias_reg[N:1] {N: 32*$T1 + 64*$WG1 + Mod($T0, 16) + 16 : 1 : 1}\n");
	HAS(r, "maximum relu[M:1,N:1] {M: 64*$WG0 + 32*floor($T0/64) + 4*floor(Mod($T0, 64)/16) + 16 : 4 : 16, "
	       "N: 32*$T1 + 64*$WG1 + Mod($T0, 16) + 16 : 1 : 1}\n");
	HAS(r, "write write[M:1,N:1] {M: 64*$WG0 + 32*floor($T0/64) + 4*floor(Mod($T0, 64)/16) + 16 : 4 : 16, "
	       "N: 32*$T1 + 64*$WG1 + Mod($T0, 16) + 16 : 1 : 1}\n");
	cmd_result_free(&r);
}
END_TEST

START_TEST(gemm_32x32x8_layout)
{
	/* the 32x32x8 layout (docs/isa.md): A[lane%32][4*floor(lane/32)+i]; ACC rows 8*floor(g/4) + 4*floor(lane/32) + g%4 (16 per lane) */
	CmdResult r = dump("examples/gemm_global_32x32x8.json");
	ck_assert_int_eq(r.status, 0);
	HAS(r, "register c_reg {M: 64*$WG0 + 32*floor($T0/64) + 4*floor(Mod($T0, 64)/32) : 16 : 32, "
	       "N: 32*$T1 + 64*$WG1 + Mod($T0, 32) : 1 : 1}\n");
	HAS(r, "  read a_reg[K:3] {M: 64*$WG0 + 32*floor($T0/64) + Mod($T0, 32) : 1 : 1, "
	       "K: 32*$ARGK + 4*floor(Mod($T0, 64)/32) + 24 : 4 : 1}\n");
	cmd_result_free(&r);
}
END_TEST

START_TEST(reduction_and_read_write_anchors)
{
	/* reduce anchor: N gets lane*vs/64 : vs/64 : 1 (vs 256); M one element */
	CmdResult r = dump("examples/softmax.json");
	ck_assert_int_eq(r.status, 0);
	HAS(r, "reduction indices\n");
	HAS(r, "read val {M: $WG1 : 1 : 256, N: 4*$T0 : 4 : 1}\n");
	HAS(r, "max row_max {M: $WG1 : 1 : 1}\n");
	HAS(r, "broadcast denom_broadcast {M: $WG1 : 1 : 256, N: 4*$T0 : 4 : 1}\n");
	cmd_result_free(&r);
	/* four waves along N: the wave term 256*floor($T0/64) + 4*Mod($T0, 64) is 4*$T0 */
	r = dump("examples/reduce_block.json");
	HAS(r, "workgroup 256 x 1 x 1, reduction indices\n");
	HAS(r, "read lhs {M: $WG1 : 1 : 256, N: 4*$T0 : 4 : 1}\n");
	cmd_result_free(&r);
	/* read/write anchor: ept 4 along the fastest dim */
	r = dump("examples/copy.json");
	HAS(r, "read read {M: $WG1 : 1 : 256, N: 4*$T0 + 256*$WG0 : 4 : 1}\n");
	cmd_result_free(&r);
}
END_TEST

START_TEST(bad_input_and_usage)
{
	CmdResult r = dump("examples/nope.json");
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.out, "");
	cmd_result_free(&r);
	/* mapped reads and writes are indexed over their register dims */
	r = dump("examples/conv2d_igemm.json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "MMA indices"));
	cmd_result_free(&r);
	r = dump("");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
	r = dump("examples/copy.json --frobnicate");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
	r = dump("examples/copy_dynamic.json -D M=5 -D N=70");
	ck_assert_int_eq(r.status, 0);
	HAS(r, "grid 1 x 5 x 1");
	cmd_result_free(&r);
}
END_TEST

START_TEST(copies_follow_the_lanes_coverage)
{
	/* copy with BLOCK_M = 2 on workgroup dim 1: vector shape 2 along M,
	 * but a wave holds one row per copy, so two copies cover the tile
	 * (one copy read and wrote only the tile's first row) */
	CmdResult r = dump("examples/copy.json -D BLOCK_M=2");
	ck_assert_int_eq(r.status, 0);
	HAS(r, "read read[M:0] {M: 2*$WG1 : 1 : 256, N: 4*$T0 + 256*$WG0 : 4 : 1}\n");
	HAS(r, "read read[M:1] {M: 2*$WG1 + 1 : 1 : 256, N: 4*$T0 + 256*$WG0 : 4 : 1}\n");
	cmd_result_free(&r);
	/* the reductions of softmax get one result copy per row */
	r = dump("examples/softmax.json -D BLOCK_M=2");
	ck_assert_int_eq(r.status, 0);
	HAS(r, "max row_max[M:1] {M: 2*$WG1 + 1 : 1 : 1}\n");
	cmd_result_free(&r);
}
END_TEST

/* scaled_mma (Wave's ScaledMMAType offsets, constraints.py): F32_16x16x128
 * on f4 gives each lane one run of 32 k at 32*floor(lane/16) (the i8 read:
 * 16 bytes of K/2), on f8 two runs of 16 at 16*floor(lane/16), 64 apart;
 * the scales one e8m0 a lane at K/32 = floor(lane/16), in the loop's window
 * of K/32 (8*$ARGK for BLOCK_K 256) for the i8 read too; F32_32x32x64 one
 * run of 32 at 32*floor(lane/32) and the scale at floor(lane/32). */
START_TEST(scaled_mma_layouts)
{
	CmdResult r = dump("tests/driver/wave/scaled_gemm_mxfp4.json -D M=64 -D N=64 -D K=512");
	ck_assert_int_eq(r.status, 0);
	HAS(r, "  read a_reg[K/2:1] {M: 32*$WG0 + 16*floor($T0/64) + Mod($T0, 16) : 1 : 1, "
	       "K/2: 128*$ARGK + 16*floor(Mod($T0, 64)/16) + 64 : 16 : 1}\n");
	HAS(r, "  bitcast a_reg_1[K:1] {M: 32*$WG0 + 16*floor($T0/64) + Mod($T0, 16) : 1 : 1, "
	       "K: 256*$ARGK + 32*floor(Mod($T0, 64)/16) + 128 : 32 : 1}\n");
	HAS(r, "  read a_scale_reg[K/32:1] {M: 32*$WG0 + 16*floor($T0/64) + Mod($T0, 16) : 1 : 1, "
	       "K/32: 8*$ARGK + floor(Mod($T0, 64)/16) + 4 : 1 : 1}\n");
	HAS(r, "  bitcast b_scale_reg_1[K/32:0] {N: 16*$T1 + 32*$WG1 + Mod($T0, 16) : 1 : 1, "
	       "K/32: 8*$ARGK + floor(Mod($T0, 64)/16) : 1 : 1}\n");
	HAS(r, "  scaled_mma scaled_mma {M: 32*$WG0 + 16*floor($T0/64) + 4*floor(Mod($T0, 64)/16) : 4 : 16, "
	       "N: 16*$T1 + 32*$WG1 + Mod($T0, 16) : 1 : 1}\n");
	cmd_result_free(&r);
	r = dump("tests/driver/wave/scaled_gemm_mxfp8.json -D M=64 -D N=64 -D K=512");
	ck_assert_int_eq(r.status, 0);
	HAS(r, "  bitcast a_reg_1[K:1] {M: 32*$WG0 + 16*floor($T0/64) + Mod($T0, 16) : 1 : 1, "
	       "K: 256*$ARGK + 16*floor(Mod($T0, 64)/16) + 64 : 16 : 1}\n");
	cmd_result_free(&r);
	r = dump("tests/driver/wave/scaled_gemm_mxfp4_32x32x64.json -D M=64 -D N=64 -D K=512");
	ck_assert_int_eq(r.status, 0);
	HAS(r, "  bitcast a_reg_1[K:3] {M: 32*$WG0 + 16*floor($T0/64) + Mod($T0, 32) : 1 : 1, "
	       "K: 256*$ARGK + 32*floor(Mod($T0, 64)/32) + 192 : 32 : 1}\n");
	HAS(r, "  bitcast a_scale_reg_1[K/32:3] {M: 32*$WG0 + 16*floor($T0/64) + Mod($T0, 32) : 1 : 1, "
	       "K/32: 8*$ARGK + floor(Mod($T0, 64)/32) + 6 : 1 : 1}\n");
	cmd_result_free(&r);
}
END_TEST

/* get_result k of an iterate holds its output k's elements: paged decode
 * phase 1 with 64-head tiles carries an [S, B] max and sum and an [S, B, N]
 * accumulator; the accumulator's get_result and the division of it by the
 * sum keep N's 16 copies (they took the first output's [S, B] index, and
 * the division could not gather the accumulator into it) */
START_TEST(iterate_results_take_their_outputs_index)
{
	CmdResult r = dump("tests/driver/wave/paged_decode_phase1_f16_big_b.json -D S=2 -D SP1=3 -D B=128 -D N=80");
	ck_assert_msg(r.status == 0, "%s", r.err);
	HAS(r, "get_result res_sum {S: $WG2 : 1 : 64, B: $T0 + 64*$WG0 : 1 : 1}\n");
	HAS(r, "get_result res_mm[N:15] {S: $WG2 : 1 : 64, B: $T0 + 64*$WG0 : 1 : 1, N: 16*$WG1 + 15 : 1 : 1}\n");
	HAS(r, "truediv res[N:15] {S: $WG2 : 1 : 64, B: $T0 + 64*$WG0 : 1 : 1, N: 16*$WG1 + 15 : 1 : 1}\n");
	cmd_result_free(&r);
}
END_TEST

/* Wave's MMA mode gives no op a lane along a dim that is no MMA's M, N
 * or K: paged decode phase 0 reads request_indices along S (workgroup dim
 * 0, tile 1) at the workgroup's sequence in every lane ($WG0, not
 * $T0 + $WG0, which a set_symbol of an extent cannot take), and writes the
 * [U, S, N, B] broadcast of its [S, N, B] result in the result's own
 * layout, widened by the split U (no move through LDS inside the
 * conditional); dump-indices shows the conditional's body */
START_TEST(mma_kernel_batch_dim_without_lanes)
{
	CmdResult r = dump("tests/driver/wave/paged_decode_phase0_f16.json -D S=2 -D SP1=3 -D K2=200 -D N_KV=200");
	ck_assert_msg(r.status == 0, "%s", r.err);
	HAS(r, "read seq_end {S: $WG0 : 1 : 1}\n");
	HAS(r, "apply_expr split_len {S: $WG0 : 1 : 1}\n");
	HAS(r, "conditional then\n");
	HAS(r, "  write write[N:3] {U: $WG2 : 1 : 1, S: $WG0 : 1 : 1, N: 4*floor($T0/16) + 48 : 4 : 16, "
	       "B: Mod($T0, 16) : 1 : 1}\n");
	cmd_result_free(&r);
}
END_TEST

/* 64 query heads a kv head: four waves along B (wave tile 16, $T1) on
 * workgroup dim 1, whose primary dim BH has no wave constraint: the
 * workgroup has B's four waves, each holding BH's one window */
START_TEST(tied_dim_with_more_waves_than_its_primary)
{
	CmdResult r = dump("tests/driver/wave/paged_decode_phase0_f16.json -D S=2 -D SP1=3 -D K2=200 -D N_KV=200 -D B=64 "
			   "-D BLOCK_B=64 -D B_WAVES=4 -D K1=80 -D N=80");
	ck_assert_msg(r.status == 0, "%s", r.err);
	HAS(r, "kernel paged_decode_phase0_f16: grid 2 x 1 x 8, workgroup 64 x 4 x 1, MMA indices\n");
	HAS(r, "read q_reg[K1:0] {S: $WG0 : 1 : 1, B: 16*$T1 + Mod($T0, 16) : 1 : 1, K1: 4*floor($T0/16) : 4 : 1}\n");
	HAS(r, "write write_max {U: $WG2 : 1 : 1, S: $WG0 : 1 : 1, B: 16*$T1 + Mod($T0, 16) : 1 : 1}\n");
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("indices");
	TCase *t = tcase_create("dump");
	tcase_add_test(t, gemm_16x16x16_matches_wave);
	tcase_add_test(t, epilogue_keeps_mma_layout);
	tcase_add_test(t, gemm_32x32x8_layout);
	tcase_add_test(t, reduction_and_read_write_anchors);
	tcase_add_test(t, bad_input_and_usage);
	tcase_add_test(t, copies_follow_the_lanes_coverage);
	tcase_add_test(t, scaled_mma_layouts);
	tcase_add_test(t, iterate_results_take_their_outputs_index);
	tcase_add_test(t, mma_kernel_batch_dim_without_lanes);
	tcase_add_test(t, tied_dim_with_more_waves_than_its_primary);
	suite_add_tcase(s, t);
	return run_suite(s);
}
