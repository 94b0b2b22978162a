/* mapped_lds_test.c — mapped MMA operands in shared memory staged through
 * LDS (isel/lds_stage.c): the implicit-GEMM conv and im2col_mma with their
 * operands in shared memory, at strides 1-3, shapes no tile divides and a
 * runtime batch size; the conv's main loop reads its operands from LDS
 * (the global variant does not); a GEMM whose shared operand is gathered
 * through dynamic values still reads that operand from global memory. */
#include <string.h>

#include "../test.h"

/* conv2d NHWC x HWCF (32x32x16 tiles, 2x2 waves), x and we in shared
 * memory: strides 1-3, M, K and NF not multiples of their tiles, K shorter
 * than one K step, a 1x1 filter over one channel, two K steps of 32 */
static const char *const conv_shapes[] = {"-D stride=1", "-D stride=2", "-D stride=3",
	"-D N=3 -D H=10 -D W=9 -D C=10 -D NF=20", "-D N=3 -D H=10 -D W=9 -D C=10 -D NF=20 -D stride=2",
	"-D C=3 -D HF=2 -D WF=2 -D NF=5 -D stride=3", "-D N=1 -D H=7 -D W=11 -D C=5 -D NF=33",
	"-D C=1 -D HF=1 -D WF=1 -D NF=1", "-D N=2 -D H=16 -D W=16 -D C=32 -D NF=64 -D BLOCK_K=32"};

/* the same conv with N a runtime size (M = SZ_OUT·N), its output written
 * as the GEMM's [M, NF] */
static const char *const dyn_shapes[] = {"-D N=1", "-D N=2", "-D N=3 -D stride=2", "-D N=5 -D stride=3"};

static void run_pass(const char *file, const char *args, int i)
{
	const char *mcpu = i % 2 ? "gfx90a" : "gfx942";
	CmdResult r = test_wavecc("run %s %s --mcpu %s --seed %d", file, args, mcpu, 31 + i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s %s --mcpu %s: status %d\n%s%s", file, args, mcpu,
		r.status, r.out, r.err);
	cmd_result_free(&r);
}

START_TEST(conv_shared_passes)
{
	run_pass("tests/driver/data/conv2d_igemm_shared.json", conv_shapes[_i / 2], _i);
}
END_TEST

START_TEST(conv_shared_runtime_batch_passes)
{
	run_pass("tests/driver/data/conv2d_igemm_shared_dyn.json", dyn_shapes[_i / 2], _i);
}
END_TEST

/* test_im2col_mma's kernel (NCHW x FCHW, K in one step) with shared operands */
START_TEST(im2col_mma_shared_passes)
{
	run_pass("tests/driver/data/im2col_mma_shared.json", "", _i);
}
END_TEST

/* dyn_paged_gemm with shared operands: A is staged, B (gathered through a
 * block table) is read from global memory */
START_TEST(dynamic_mapping_stays_global)
{
	run_pass("tests/driver/data/dyn_paged_gemm_shared.json", _i / 2 ? "-D P=16 -D K=128" : "-D P=4", _i);
}
END_TEST

/* The text of the main loop: from its label to its backward branch. */
static char *main_loop(const char *s)
{
	const char *a = strstr(s, "\n.LBB_1:"), *b = a ? strstr(a, "s_cbranch_scc1 .LBB_1") : NULL;
	ck_assert_msg(a && b, "no main loop:\n%s", s);
	return strndup(a, (size_t)(b - a));
}

/* The conv's loop loads both tiles once per workgroup, writes them to LDS
 * between barriers and feeds the MFMA from ds_read_b64 (the loop of the
 * schedule none: the prefetch schedule's is tests/driver/prefetch_test.c's);
 * in global memory the same kernel has no DS instruction. */
START_TEST(conv_loop_reads_lds)
{
	const char *mcpu = _i ? "gfx90a" : "gfx942";
	CmdResult r = test_wavecc("compile tests/driver/data/conv2d_igemm_shared.json --schedule none --mcpu %s -S -o -",
		mcpu);
	ck_assert_msg(r.status == 0, "%s", r.err);
	char *loop = main_loop(r.out);
	const char *w = strstr(loop, "ds_write_b"), *bar = w ? strstr(w, "s_barrier") : NULL;
	const char *rd = bar ? strstr(bar, "ds_read_b64") : NULL, *mf = rd ? strstr(rd, "v_mfma_f32_16x16x16") : NULL;
	ck_assert_msg(w && bar && rd && mf && strstr(loop, "buffer_load"), "%s: loop without LDS staging:\n%s", mcpu, loop);
	free(loop);
	cmd_result_free(&r);
	r = test_wavecc("compile tests/driver/data/conv2d_igemm_global.json --mcpu %s -S -o -", mcpu);
	ck_assert_msg(r.status == 0 && !strstr(r.out, "\tds_"), "%s: DS instructions in the global conv\n%s", mcpu, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Wave's igemm template (64x128x32 tiles): A is 64x32 f16 and B 128x32.
 * Padded by 8 bytes a row they would take 13824 bytes, 4 workgroups per
 * CU; unpadded and swizzled (isel/lds_layout.c) (64·32 + 128·32)·2 bytes,
 * 5 workgroups. */
START_TEST(wave_igemm_lds_bytes)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/igemm_conv_nhwc_shared.json -D N=2 -D H=32 -D W=32 -D C=64 "
				  "-D HF=3 -D WF=3 -D NF=128 -D stride=1 --stats -o %s/igemm.co",
		test_tmpdir("mapped_lds"));
	ck_assert_msg(r.status == 0 && strstr(r.out, "lds bytes                 12288 "), "%s%s", r.out, r.err);
	ck_assert_msg(!strstr(r.out, "inst lds                  0\n"), "%s", r.out);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/mapped_lds");
	TCase *tc = tcase_create("mapped_lds");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, conv_shared_passes, 0, (int)(2 * ARRAY_LEN(conv_shapes)));
	tcase_add_loop_test(tc, conv_shared_runtime_batch_passes, 0, (int)(2 * ARRAY_LEN(dyn_shapes)));
	tcase_add_loop_test(tc, im2col_mma_shared_passes, 0, 2);
	tcase_add_loop_test(tc, dynamic_mapping_stays_global, 0, 4);
	tcase_add_loop_test(tc, conv_loop_reads_lds, 0, 2);
	tcase_add_test(tc, wave_igemm_lds_bytes);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
