/* lds_swizzle_test.c — staged GEMM tiles laid out unpadded with the XOR
 * swizzle (isel/lds_layout.c) where row padding would cost a workgroup per
 * CU: a 128x128x64 f16 tiling takes 32768 bytes of LDS (34816 padded, one
 * workgroup per CU) and so allows two; the swizzled kernels pass on the
 * emulator at aligned and unaligned shapes, prefetched and not, with the
 * 16x16x16 and 32x32x8 MFMAs, rows of 128 and 64 bytes; tiles that fit
 * only unpadded (64 KiB exactly) are swizzled whatever the registers; and the cycle
 * model sees no LDS bank conflict in them (unpadded unswizzled rows of 128
 * bytes would put the 16 rows of each ds_read_b64 group on one bank pair). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test.h"

static const char *mcpu(int i) { return i % 2 ? "gfx90a" : "gfx942"; }

/* 128x128x64: 2·128·64·2 bytes, no padding, two workgroups per CU by LDS;
 * the tiles go in as ds_write_b64 (no access crosses an 8-byte granule)
 * at addresses made with v_xor_b32. */
START_TEST(tiles_128x128x64_take_32768_bytes)
{
	CmdResult r = test_wavecc("compile examples/gemm_16x16x16.json --mcpu %s -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 "
				  "-D M=4096 -D N=4096 -D K=4096 --stats -o %s/t%d.co",
		mcpu(_i), test_tmpdir("lds_swizzle"), _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "lds bytes                 32768 ") && strstr(r.out, "LDS allows 2)"),
		"%s: %s%s", mcpu(_i), r.out, r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile examples/gemm_16x16x16.json --mcpu %s -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 "
			"-D M=4096 -D N=4096 -D K=4096 -S -o -",
		mcpu(_i));
	ck_assert_msg(r.status == 0 && strstr(r.out, "\tv_xor_b32") && strstr(r.out, "\tds_write_b64") &&
			      !strstr(r.out, "\tds_write_b128") && !strstr(r.out, "\tds_read_b128"),
		"%s: %s", mcpu(_i), r.err);
	cmd_result_free(&r);
}
END_TEST

/* The padded layout stays where it costs no workgroup: 256x128x64 tiles
 * take 52224 bytes padded and 49152 unpadded, one workgroup per CU
 * either way. */
START_TEST(padding_kept_where_it_costs_nothing)
{
	CmdResult r = test_wavecc("compile examples/gemm_16x16x16.json --mcpu %s -D BLOCK_M=256 -D BLOCK_N=128 -D BLOCK_K=64 "
				  "-D M=4096 -D N=4096 -D K=4096 --stats -o %s/p%d.co",
		mcpu(_i), test_tmpdir("lds_swizzle"), _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "lds bytes                 52224 "), "%s: %s%s", mcpu(_i), r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Nor where the registers cap the workgroups anyway: Wave's vanilla
 * attention swizzled would take 16384 bytes (4 workgroups per CU by LDS
 * instead of 3) but its 164 VGPRs hold 3 waves per SIMD either way, so it
 * is selected again padded (allocate_registers), with its b128 accesses. */
START_TEST(padding_kept_where_registers_cap)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/vanilla_attention_16x16x16.json --mcpu %s --stats -o %s/a%d.co",
		mcpu(_i), test_tmpdir("lds_swizzle"), _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "lds bytes                 17408 ") &&
			      strstr(r.out, "waves per SIMD            3 (limited by VGPRs"),
		"%s: %s%s", mcpu(_i), r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* A tile the plan cannot swizzle keeps its row padding (nothing else
 * spreads its MFMA reads over the banks): Wave's GQA decode phase 0 stages
 * k as 32 rows of D_Q 256 f16 through a mapping with no swizzled layout,
 * padded to 32·(512 + 8) = 16640 bytes (16384 unpadded); v, which has one,
 * beside it. The cycle model's count of bank-conflict cycles stays at the
 * padded layout's (8192, from other accesses; unpadded k adds more).
 * (--dump-plan writes to stderr, --stats to stdout.) */
START_TEST(padding_on_tiles_that_cannot_be_swizzled)
{
	const char *dir = test_tmpdir("lds_swizzle");
	CmdResult r = test_wavecc("compile tests/driver/wave/decode_gqa_phase0_32x32x8.json --mcpu %s --dump-plan --stats "
				  "-o %s/g%d.co --launch %s/g%d.json",
		mcpu(_i), dir, _i, dir, _i);
	ck_assert_msg(r.status == 0 &&
			      strstr(r.err, "read k_reg: staged, box B 1 x H_KV 1 x N_KV 32 x D_Q 256, chunks of 8, 16640 B "
					    "padded; at 0 padded\n") &&
			      strstr(r.out, "lds bytes                 35072 "),
		"%s: %s%s", mcpu(_i), r.out, r.err);
	cmd_result_free(&r);
	r = test_wavecc("profile %s/g%d.json", dir, _i);
	const char *at = strstr(r.out, "LDS bank-conflict cycles ");
	ck_assert_msg(r.status == 0 && at, "%s: %s%s", mcpu(_i), r.out, r.err);
	long cycles = strtol(at + strlen("LDS bank-conflict cycles "), NULL, 10);
	ck_assert_msg(cycles <= 8192, "%s: %ld LDS bank-conflict cycles, more than the padded layout's 8192", mcpu(_i),
		cycles);
	cmd_result_free(&r);
}
END_TEST

/* Where padded tiles do not fit at all, unpadded ones that do are
 * swizzled whatever the registers: Wave's 256x256x64 f16 GEMM with A and
 * B in shared memory takes 2·256·64·2 = 65536 bytes unpadded (69632
 * padded), 128x128x128 likewise; pipelined (one buffer) and not. */
static const char *const exact_fits[] = {
	"-D BLOCK_M=256 -D BLOCK_N=256 -D BLOCK_K=64",
	"-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=128",
	"-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=128 --schedule none",
};

START_TEST(only_unpadded_fits)
{
	CmdResult r = test_wavecc("compile examples/gemm_16x16x16.json --mcpu %s %s -D M=4096 -D N=4096 -D K=4096 --stats "
				  "-o %s/x%d.co",
		mcpu(_i), exact_fits[_i / 2], test_tmpdir("lds_swizzle"), _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "lds bytes                 65536 ") &&
			      strstr(r.out, "lds layout                swizzled in 1 region (padded: over the 64 KiB)"),
		"%s %s: %s%s", mcpu(_i), exact_fits[_i / 2], r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Where neither layout fits, the error names the read, the bytes and the
 * box to shrink. */
START_TEST(neither_layout_fits)
{
	CmdResult r = test_wavecc("compile examples/gemm_16x16x16.json --mcpu %s -D BLOCK_M=256 -D BLOCK_N=256 "
				  "-D BLOCK_K=128 --schedule none -o %s/n%d.co",
		mcpu(_i), test_tmpdir("lds_swizzle"), _i);
	ck_assert_msg(r.status == 1 && strstr(r.err, "error: graph[1].body[0]: staging a in LDS takes 67584 bytes") &&
			      strstr(r.err, "over the 64 KiB of LDS; its box is M 256 x K 128 elements of f16"),
		"%s: status %d %s", mcpu(_i), r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

/* kernel, tiling and shape of each run (both targets each) */
static const char *const runs[][2] = {
	{"examples/gemm_16x16x16.json", "-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D M=256 -D N=256 -D K=256"},
	{"examples/gemm_16x16x16.json", "-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D M=200 -D N=136 -D K=200"},
	{"examples/gemm_16x16x16.json", "-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=32 -D M=200 -D N=136 -D K=200"},
	{"examples/gemm_16x16x16.json",
		"-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D M=200 -D N=136 -D K=200 --schedule none"},
	{"examples/gemm_32x32x8.json", "-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D M=200 -D N=136 -D K=200"},
	{"examples/gemm_16x16x16.json", "-D BLOCK_M=256 -D BLOCK_N=256 -D BLOCK_K=64 -D M=300 -D N=260 -D K=200"},
	{"examples/gemm_32x32x8.json", "-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=128 -D M=200 -D N=136 -D K=300"},
	{"examples/gemm_16x16x16.json",
		"-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=128 -D M=136 -D N=200 -D K=300 --schedule none"},
};

START_TEST(swizzled_gemm_passes)
{
	const char *file = runs[_i / 2][0], *args = runs[_i / 2][1];
	CmdResult r = test_wavecc("run %s %s --mcpu %s --seed %d", file, args, mcpu(_i), 3 + _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s %s --mcpu %s: status %d\n%s%s", file, args, mcpu(_i),
		r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* kernel, tiling and unpadded LDS bytes of each profile: rows of 128
 * bytes (16x16x16 and 32x32x8 reads) and of 64 bytes (two rows per
 * 128-byte line) */
static const char *const profiles[][3] = {
	{"examples/gemm_16x16x16.json", "-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64", "32768"},
	{"examples/gemm_16x16x16.json", "-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=32", "16384"},
	{"examples/gemm_32x32x8.json", "-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64", "32768"},
	{"examples/gemm_16x16x16.json", "-D BLOCK_M=256 -D BLOCK_N=256 -D BLOCK_K=64", "65536"},
};

START_TEST(swizzled_reads_conflict_free)
{
	const char *file = profiles[_i / 2][0], *args = profiles[_i / 2][1], *dir = test_tmpdir("lds_swizzle");
	char want[64];
	snprintf(want, sizeof want, "lds bytes                 %s ", profiles[_i / 2][2]);
	CmdResult r = test_wavecc("compile %s %s -D M=256 -D N=256 -D K=512 --mcpu %s --stats -o %s/c%d.co --launch "
				  "%s/c%d.json",
		file, args, mcpu(_i), dir, _i, dir, _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, want), "%s %s: not swizzled\n%s%s", file, args, r.out, r.err);
	cmd_result_free(&r);
	r = test_wavecc("profile %s/c%d.json", dir, _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "LDS bank-conflict cycles 0\n"), "%s %s --mcpu %s: %s%s", file, args,
		mcpu(_i), r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/lds_swizzle");
	TCase *tc = tcase_create("lds_swizzle");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, tiles_128x128x64_take_32768_bytes, 0, 2);
	tcase_add_loop_test(tc, padding_kept_where_it_costs_nothing, 0, 2);
	tcase_add_loop_test(tc, padding_kept_where_registers_cap, 0, 2);
	tcase_add_loop_test(tc, padding_on_tiles_that_cannot_be_swizzled, 0, 2);
	tcase_add_loop_test(tc, only_unpadded_fits, 0, (int)(2 * ARRAY_LEN(exact_fits)));
	tcase_add_loop_test(tc, neither_layout_fits, 0, 2);
	tcase_add_loop_test(tc, swizzled_gemm_passes, 0, (int)(2 * ARRAY_LEN(runs)));
	tcase_add_loop_test(tc, swizzled_reads_conflict_free, 0, (int)(2 * ARRAY_LEN(profiles)));
	suite_add_tcase(s, tc);
	return run_suite(s);
}
