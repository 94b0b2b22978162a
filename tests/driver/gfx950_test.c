/* gfx950_test.c — the gfx950 (CDNA4, MI350/MI355X) target end to end:
 * the target IDs, llvm-mc-22 chosen for it, its own MFMAs (one per K step
 * where gfx942 runs Wave's K8 types as two), 160 KiB of LDS, the OCP fp8
 * rejection, the emulator refusing gfx950 MFMAs in a code object run as
 * gfx942, `wavecc profile` on the MI355X configuration, and gfx950's own
 * selection: transposing LDS reads, the bf16 pack, direct-to-LDS loads
 * (each against gfx942's code for the same kernel). Kernels from
 * Wave's tests run in wave_test.c's gfx950 list; this suite covers what is
 * gfx950's own. Nothing here ran on a GPU. */
#include <stdio.h>
#include <string.h>

#include "../test.h"

/* Every target ID form compiles; -v says which llvm-mc assembled it (one
 * that knows gfx950: LLVM 20 or later). */
START_TEST(target_ids_and_assembler)
{
	static const char *const ids[] = {"gfx950", "gfx950:sramecc+", "gfx950:xnack-", "gfx950:sramecc-:xnack+"};
	CmdResult r = test_wavecc("compile examples/gemm_16x16x16.json --mcpu %s -v -o %s/t%d.co", ids[_i],
		test_tmpdir("gfx950"), _i);
	ck_assert_msg(r.status == 0, "%s: %s", ids[_i], r.err);
	ck_assert_msg(strstr(r.err, "llvm-mc-22") || strstr(r.err, "llvm-22") || strstr(r.err, "llvm-mc-21") ||
			      strstr(r.err, "llvm-mc-20"),
		"%s: no llvm-mc for gfx950 named in -v\n%s", ids[_i], r.err);
	cmd_result_free(&r);
}
END_TEST

/* Wave's K8 types: two v_mfma_f32_16x16x16 per K step on gfx942, one
 * v_mfma_f32_16x16x32 on gfx950 (the same lane layout), same results. */
START_TEST(k8_types_take_one_mfma)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/wg_gemm_vmfma_16x16x32_k8.json -D M=64 -D N=64 -D K=64 "
				  "--mcpu gfx950 -S -o -");
	ck_assert_msg(r.status == 0 && strstr(r.out, "v_mfma_f32_16x16x32_f16") &&
			      !strstr(r.out, "v_mfma_f32_16x16x16_f16"),
		"%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile tests/driver/wave/wg_gemm_vmfma_32x32x16_k8.json -D M=64 -D N=64 -D K=64 --mcpu gfx950 "
			"-S -o -");
	ck_assert_msg(r.status == 0 && strstr(r.out, "v_mfma_f32_32x32x16_f16") && !strstr(r.out, "v_mfma_f32_32x32x8"),
		"%s", r.err);
	cmd_result_free(&r);
}
END_TEST

/* 160 KiB of LDS: 128x128x256 f16 tiles staged in shared memory take
 * 2 x 128 x (512 + 8) = 133120 bytes padded, which gfx942 rejects and
 * gfx950 runs. */
START_TEST(lds_160k)
{
	const char *args = "tests/driver/wave/wg_gemm_16x16x16.json -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=256 -D M=300 "
			   "-D N=260 -D K=600";
	CmdResult r = test_wavecc("compile %s --mcpu gfx942 -o %s/l.co", args, test_tmpdir("gfx950"));
	ck_assert_msg(r.status == 1 && strstr(r.err, "over the 64 KiB of LDS"), "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile %s --mcpu gfx950 --stats -o %s/l.co", args, test_tmpdir("gfx950"));
	ck_assert_msg(r.status == 0 && strstr(r.out, "lds bytes                 133120 "), "%s%s", r.out, r.err);
	cmd_result_free(&r);
	r = test_wavecc("run %s --mcpu gfx950", args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* gfx950's fp8 instructions take the OCP encodings: a FNUZ cast or MMA is
 * rejected there, not compiled into gfx942's meaning. */
START_TEST(fnuz_f8_rejected)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/wg_gemm_f8_16x16x32.json -D M=64 -D N=64 -D K=64 --mcpu gfx950 "
				  "-o %s/f.co",
		test_tmpdir("gfx950"));
	ck_assert_msg(r.status == 1 && strstr(r.err, ": error: ") && strstr(r.err, "OCP encodings (f8e4m3fn)"), "%s",
		r.err);
	cmd_result_free(&r);
}
END_TEST

/* A gfx950 code object whose launch descriptor claims gfx942 is refused
 * before it runs (the code object's e_flags name gfx950); the emulator
 * would also stop at the first gfx950 MFMA run as another processor. */
START_TEST(emulator_keeps_gfx950_mfmas_to_gfx950)
{
	const char *dir = test_tmpdir("gfx950");
	CmdResult r = test_wavecc("compile tests/driver/wave/cdna4_gemm_16x16x32_f16_f16.json -D M=64 -D N=64 -D K=64 "
				  "--mcpu gfx950 -o %s/e.co --launch %s/e.json",
		dir, dir);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "sed 's/\"gfx950\"/\"gfx942\"/' '%s/e.json' > '%s/e942.json'", dir, dir);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	cmd_result_free(&r);
	r = test_wavecc("run %s/e.json", dir);
	ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
	cmd_result_free(&r);
	r = test_wavecc("run %s/e942.json", dir);
	ck_assert_msg(r.status == 1 && strstr(r.err, "arch: gfx942 but") && strstr(r.err, "is built for gfx950"),
		"status %d\n%s%s", r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* scaled_mma: one v_mfma_scale_f32_16x16x128_f8f6f4 per K step and copy,
 * A's and B's formats in cbsz/blgp (fp4: 4, e5m2: 1), the two scale VGPRs
 * after C; the 32x32x64 type on its own instruction. (wave_test.c's
 * gfx950 list runs them against the interpreter.) */
START_TEST(scaled_mma_selected)
{
	static const struct {
		const char *file, *want;
	} k[] = {
		{"scaled_gemm_mxfp4.json", "v_mfma_scale_f32_16x16x128_f8f6f4"},
		{"scaled_gemm_mxfp8.json", "v_mfma_scale_f32_16x16x128_f8f6f4"},
		{"scaled_gemm_mxfp4_32x32x64.json", "v_mfma_scale_f32_32x32x64_f8f6f4"},
	};
	for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
		CmdResult r = test_wavecc("compile tests/driver/wave/%s -D M=128 -D N=128 -D K=512 --mcpu gfx950 -S -o -",
			k[i].file);
		const char *at = strstr(r.out, k[i].want);
		bool fp4 = strstr(k[i].file, "mxfp4") != NULL;
		ck_assert_msg(r.status == 0 && at, "%s: %s", k[i].file, r.err);
		const char *eol = strchr(at, '\n');
		char line[256];
		snprintf(line, sizeof line, "%.*s", (int)(eol ? eol - at : 200), at);
		ck_assert_msg(strstr(line, fp4 ? "cbsz:4 blgp:4" : "cbsz:1 blgp:1"), "%s: %s", k[i].file, line);
		cmd_result_free(&r);
	}
}
END_TEST

/* `wavecc run` of an MXFP4 GEMM with no inputs given: the i8 buffers the
 * kernel bitcasts to e8m0 scales are filled with scales near 1 (interp/
 * args.c), so the f32 results stay finite and the comparison means
 * something (uniform bytes gave scales up to 2^128 and NaN: a FAIL of inf
 * against -inf on a correct kernel). */
START_TEST(mx_scales_filled_near_one)
{
	CmdResult r = test_wavecc("run tests/driver/wave/scaled_gemm_mxfp4.json -D M=64 -D N=64 -D K=256 --mcpu gfx950");
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS c:") && !strstr(r.out, " inf") && !strstr(r.out, "nan"),
		"%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Preshuffled scales (Wave's e8m0_shuffle layout) at K = 8192: a wave's 24
 * scale bytes a K tile come four to a dword (6 buffer_load_dword, no byte
 * loads), each MFMA picking its byte with op_sel (bit 0: the M or N copy's
 * parity) and op_sel_hi (bit 1: the second K block); the loads are
 * prefetched a trip ahead (6 in the prologue, 6 in the loop). The
 * unshuffled layout's scales (a row's bytes in lanes 8 apart) stay bytes in
 * byte 0. (wave_test.c runs both against the interpreter; with the byte
 * selects dropped the preshuffled rows fail.) */
START_TEST(scale_dwords_byte_select)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/scaled_gemm_mxfp4_preshuffle_scales.json -D M=256 -D N=256 "
				  "-D K=8192 --mcpu gfx950 -S -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(!strstr(r.out, "buffer_load_ubyte"), "%s", r.out);
	int dwords = 0;
	for (const char *p = r.out; (p = strstr(p, "buffer_load_dword ")); p++)
		dwords++;
	/* in the prologue (trip 0) and in the loop (the next trip) */
	ck_assert_int_eq(dwords, 12);
	ck_assert_msg(strstr(r.out, "op_sel:[1,0,0]") && strstr(r.out, "op_sel:[0,1,0]") && strstr(r.out, "op_sel:[1,1,0]") &&
			      strstr(r.out, "op_sel_hi:[1,1,0]"),
		"%s", r.out);
	cmd_result_free(&r);
	r = test_wavecc("compile tests/driver/wave/scaled_gemm_mxfp4.json -D M=128 -D N=128 -D K=512 --mcpu gfx950 -S -o -");
	ck_assert_msg(r.status == 0 && !strstr(r.out, "op_sel"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* The MFMAs before the s_barrier of the loop (a block branching back to
 * its own label) with one barrier and the most MFMAs; -1 if none. */
static int mfmas_before_barrier(const char *s)
{
	int best = -1, most = 0;
	for (const char *b = strstr(s, "s_cbranch_scc1 .LBB_"); b; b = strstr(b + 1, "s_cbranch_scc1 .LBB_")) {
		char label[32];
		if (sscanf(b + strlen("s_cbranch_scc1 "), "%20[.A-Z_0-9]", label) != 1)
			continue;
		strcat(label, ":");
		const char *l = strstr(s, label);
		if (!l || l > b)
			continue;
		int mfmas = 0, before = 0, bars = 0;
		for (const char *p = l; p < b; p++)
			if (strncmp(p, "v_mfma", 6) == 0) {
				mfmas++;
				before += bars == 0;
			} else if (strncmp(p, "s_barrier", 9) == 0)
				bars++;
		if (bars == 1 && mfmas > most) {
			most = mfmas;
			best = before;
		}
	}
	return best;
}

/* Wave's 8-wave preshuffled-scale MXFP4 GEMM with two LDS buffers (one
 * barrier a trip, 64 MFMAs a wave): the scheduler gives each of a SIMD's two
 * waves half its LDS share (sched.c's region_lds_share), so the barrier
 * comes after the MFMAs that cover the trip's last LDS reads and writes
 * (54 of 64; at the SIMD's whole share it came right after the last read,
 * after 41, and the model's trip took 2367 cycles instead of 2147). One
 * LDS buffer (two barriers a trip) is not split. wave_test.c's slow950 runs
 * the kernel against the interpreter. */
START_TEST(lds_share_two_buffers)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/scaled_gemm_mxfp4_preshuffle_scales_bf16.json -D M=256 "
				  "-D N=256 -D K=8192 --mcpu gfx950 --lds-stages 2 -S -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	int n = mfmas_before_barrier(r.out);
	ck_assert_msg(n >= 48 && n < 64, "%d MFMAs before the barrier", n);
	cmd_result_free(&r);
}
END_TEST

/* gfx950's OCP fp8 GEMM (testF8Gemm on f8e4m3fn): the fp8 MFMA per K copy
 * at a K tile of 32, the unscaled 16x16x128 f8f6f4 for four copies at 128;
 * an i8 GEMM's two K copies on v_mfma_i32_32x32x32_i8. gfx942 rejects the
 * OCP kernel naming itself. */
START_TEST(ocp_f8_and_i8_doubled_k)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/wg_gemm_f8_ocp_16x16x32.json -D M=128 -D N=192 -D K=160 "
				  "--mcpu gfx950 -S -o -");
	ck_assert_msg(r.status == 0 && strstr(r.out, "v_mfma_f32_16x16x32_fp8_fp8") && strstr(r.out, "v_cvt_pk_fp8_f32"),
		"%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile tests/driver/wave/wg_gemm_f8_ocp_16x16x32.json -D M=128 -D N=192 -D K=160 -D BLOCK_K=128 "
			"--mcpu gfx950 -S -o -");
	ck_assert_msg(r.status == 0 && strstr(r.out, "v_mfma_f32_16x16x128_f8f6f4") &&
			      !strstr(r.out, "v_mfma_f32_16x16x32_fp8_fp8"),
		"%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile tests/driver/wave/wg_gemm_int_32x32x16_i8.json -D M=64 -D N=64 -D K=64 --mcpu gfx950 -S "
			"-o -");
	ck_assert_msg(r.status == 0 && strstr(r.out, "v_mfma_i32_32x32x32_i8") && !strstr(r.out, "v_mfma_i32_32x32x16_i8"),
		"%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile tests/driver/wave/wg_gemm_f8_ocp_16x16x32.json --mcpu gfx942 -o %s/o.co",
		test_tmpdir("gfx950"));
	ck_assert_msg(r.status == 1 && strstr(r.err, ": error: ") && strstr(r.err, "which gfx942 does not have"), "%s",
		r.err);
	cmd_result_free(&r);
}
END_TEST

/* What the scaled MFMAs are not given in their layouts is a located error
 * naming the op: an fp8 lhs with an fp4 rhs (gfx950 lays the two widths
 * out differently along K). */
START_TEST(scaled_mma_mixed_widths_rejected)
{
	const char *dir = test_tmpdir("gfx950");
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
		"cd '%s' && sed -e '0,\\|\"K/2\"|s||\"K\"|' -e '0,\\|\"f4e2m1fn\"|s||\"f8e5m2\"|' "
		"tests/driver/wave/scaled_gemm_mxfp4.json > '%s/mixed.json'",
		test_root(), dir);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	cmd_result_free(&r);
	r = test_wavecc("compile %s/mixed.json -D M=128 -D N=128 -D K=512 --mcpu gfx950 -o %s/m.co", dir, dir);
	ck_assert_msg(r.status == 1 && strstr(r.err, "mixed.json:") && strstr(r.err, ": error: graph[1].body[8]") &&
			      strstr(r.err, "scaled_mma of f8e5m2 and f4e2m1fn"),
		"%s", r.err);
	cmd_result_free(&r);
}
END_TEST

/* The cycle model's MI355X: gfx950's default GPU. */
START_TEST(profile_mi355x)
{
	CmdResult r = test_wavecc("profile tests/driver/wave/cdna4_gemm_16x16x32_f16_f16.json -D M=512 -D N=512 -D K=512 "
				  "--mcpu gfx950");
	ck_assert_msg(r.status == 0 && strstr(r.out, "on gfx950, modelled MI355X: 256 CUs"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
	r = test_wavecc("profile tests/driver/wave/cdna4_gemm_16x16x32_f16_f16.json --mcpu gfx950 --gpu MI300X");
	ck_assert_msg(r.status == 2 && strstr(r.err, "MI300X is a gfx942"), "%s", r.err);
	cmd_result_free(&r);
}
END_TEST

/* Transposing reads: Wave's hardware-transpose GEMM's mapped b [K, N]
 * (read as [N, K]) is loaded in blocks of rows on gfx942 (no load of one
 * element; the rows joined by v_perm_b32 as they are written to LDS:
 * passes/plan/lds_tiles.c) and on gfx950 staged as it lies, 16-byte
 * loads, each 4 k of a lane one ds_read_b64_tr_b16; both PASS. */
START_TEST(transposed_operand_reads_tr_b16)
{
	const char *args = "tests/driver/wave/float_hw_transpose_gemm_16x16x16_f16.json -D M=320 -D N=384 -D K=192";
	CmdResult r = test_wavecc("compile %s --mcpu gfx942 -S -o -", args);
	ck_assert_msg(r.status == 0 && !strstr(r.out, "buffer_load_ushort") && strstr(r.out, "v_perm_b32") &&
			      !strstr(r.out, "_tr_b16"),
		"%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile %s --mcpu gfx950 -S -o -", args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "ds_read_b64_tr_b16") && !strstr(r.out, "buffer_load_ushort") &&
			      strstr(r.out, "buffer_load_dwordx4"),
		"%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("run %s --mcpu gfx950 --memory late --races", args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* f32 -> bf16: one v_cvt_pk_bf16_f32 per pair on gfx950, gfx942's integer
 * sequence elsewhere; the interpreter's rounding either way. */
START_TEST(bf16_pack)
{
	const char *args = "tests/driver/wave/moe_silu_and_mul_bf16.json -D M=9 -D N=1024";
	CmdResult r = test_wavecc("compile %s --mcpu gfx942 -S -o -", args);
	ck_assert_msg(r.status == 0 && !strstr(r.out, "v_cvt_pk_bf16_f32") && strstr(r.out, "v_add3_u32"), "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile %s --mcpu gfx950 -S -o -", args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "v_cvt_pk_bf16_f32") && !strstr(r.out, "v_add3_u32"), "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("run %s --mcpu gfx950", args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* use_global_to_shared: buffer_load_dwordx4 ... lds on gfx950 (M0 set per
 * wave, the wait before the barrier), ordinary loads and ds_write
 * elsewhere; the same kernel without the option has no DMA. */
START_TEST(global_to_shared_dma)
{
	const char *args = "-D M=256 -D N=256 -D K=128 --schedule none";
	CmdResult r = test_wavecc("compile tests/driver/wave/wg_gemm_g2s_16x16x16.json %s --mcpu gfx950 -S -o -", args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "offen lds\n") && strstr(r.out, "s_mov_b32 m0,"), "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile tests/driver/wave/wg_gemm_g2s_16x16x16.json %s --mcpu gfx942 -S -o -", args);
	ck_assert_msg(r.status == 0 && !strstr(r.out, " lds\n") && strstr(r.out, "ds_write"), "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile tests/driver/wave/wg_gemm_16x16x16.json %s --mcpu gfx950 -S -o -", args);
	ck_assert_msg(r.status == 0 && !strstr(r.out, " lds\n"), "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("run tests/driver/wave/wg_gemm_g2s_16x16x16.json %s --mcpu gfx950 --memory late --races "
			"--wave-order random",
		args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/gfx950");
	TCase *tc = tcase_create("gfx950");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, target_ids_and_assembler, 0, 4);
	tcase_add_test(tc, k8_types_take_one_mfma);
	tcase_add_test(tc, lds_160k);
	tcase_add_test(tc, fnuz_f8_rejected);
	tcase_add_test(tc, emulator_keeps_gfx950_mfmas_to_gfx950);
	tcase_add_test(tc, profile_mi355x);
	tcase_add_test(tc, scaled_mma_selected);
	tcase_add_test(tc, scale_dwords_byte_select);
	tcase_add_test(tc, lds_share_two_buffers);
	tcase_add_test(tc, ocp_f8_and_i8_doubled_k);
	tcase_add_test(tc, scaled_mma_mixed_widths_rejected);
	tcase_add_test(tc, transposed_operand_reads_tr_b16);
	tcase_add_test(tc, bf16_pack);
	tcase_add_test(tc, global_to_shared_dma);
	tcase_add_test(tc, mx_scales_filled_near_one);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
