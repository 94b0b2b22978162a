/* spill_test.c — kernels past the 512 VGPRs and AGPRs compile by spilling
 * to scratch memory (regalloc/spill.c) and match the interpreter on both
 * targets under the emulator's strict modes: late memory (a reload read
 * before its wait fails), races, the canary and garbage-filled registers,
 * LDS and scratch (a reload of a slot never stored reads garbage). The two
 * kernels issue 31 names: Wave's test_self_index at its shape (48, 4, 128)
 * and a GEMM whose accumulators alone fill the files (a 512 x 256 tile on
 * 4 waves: 512 accumulator dwords per lane), with the 256 x 256 tile whose
 * 128-deep K steps overflow the VGPRs beside 256 AGPRs of accumulators.
 * The code and descriptor show the private segment as each target's ABI
 * has it (docs/abi.md, "Scratch"), and --stats reports the spills. */
#include <stdlib.h>
#include <string.h>

#include "../test.h"

static CmdResult wavecc(const char *args)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

static const char *const kernels[] = {
	"tests/driver/wave/self_index.json",
	"examples/gemm_global.json -D BLOCK_M=512 -D BLOCK_N=256 -D M=512 -D N=256 -D BLOCK_K=32 -D K=96",
	"examples/gemm_global.json -D BLOCK_M=256 -D BLOCK_N=256 -D M=256 -D N=256 -D BLOCK_K=128 -D K=256",
};
enum { NKERNELS = sizeof kernels / sizeof *kernels };

/* Case i: kernel i / 2 on target i % 2, every strict mode at once. */
START_TEST(spilled_kernel_passes_strictly)
{
	char args[1024];
	snprintf(args, sizeof args, "run %s --mcpu %s --memory late --races --canary --fill garbage --seed %d",
		kernels[_i / 2], _i % 2 ? "gfx90a" : "gfx942", 7 + _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* The first number after key in a --stats report. */
static long stat_of(const char *out, const char *key)
{
	const char *p = strstr(out, key);
	ck_assert_msg(p, "no '%s' in:\n%s", key, out);
	return strtol(p + strlen(key) + strspn(p + strlen(key), " "), NULL, 10);
}

/* gfx942: scratch_* through architected flat scratch, the enable bit and
 * the private segment size; gfx90a: MUBUF through the private segment
 * buffer V# in s[0:3], the inputs moved up behind it, the wave's offset
 * added into the V#'s base; both: --stats counts the spills. */
START_TEST(private_segment_per_target)
{
	const char *dir = test_tmpdir("spill");
	for (int g = 0; g < 2; g++) {
		char args[2048];
		snprintf(args, sizeof args, "compile %s --mcpu %s -S -o '%s/k.s' --stats", kernels[1], g ? "gfx90a" : "gfx942",
			dir);
		CmdResult r = wavecc(args);
		ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
		char path[1024];
		snprintf(path, sizeof path, "%s/k.s", dir);
		size_t len;
		char *s = read_file(path, &len);
		ck_assert_ptr_nonnull(s);
		long bytes = stat_of(r.out, "\nscratch bytes");
		ck_assert_int_gt(bytes, 0);
		ck_assert_int_gt(stat_of(r.out, "\nspill values"), 0);
		char want[128];
		snprintf(want, sizeof want, ".amdhsa_private_segment_fixed_size %ld\n", bytes);
		ck_assert_msg(strstr(s, want), "%s", want);
		snprintf(want, sizeof want, ".private_segment_fixed_size: %ld\n", bytes);
		ck_assert_msg(strstr(s, want), "%s", want);
		if (!g) {
			ck_assert(strstr(s, ".amdhsa_enable_private_segment 1\n"));
			ck_assert(strstr(s, "scratch_store_dword off, "));
			ck_assert(strstr(s, "scratch_load_dword"));
			ck_assert(!strstr(s, "private_segment_buffer"));
		} else {
			/* 2 kernarg SGPRs + the workgroup id x (a grid of one) after the V#:
			 * the offset in s7 */
			ck_assert(strstr(s, ".amdhsa_user_sgpr_private_segment_buffer 1\n"));
			ck_assert(strstr(s, ".amdhsa_system_sgpr_private_segment_wavefront_offset 1\n"));
			ck_assert_msg(strstr(s, ", s0, s7\n"), "the V#'s base plus the wave's offset");
			ck_assert(strstr(s, ", s1, 0\n"));
			ck_assert(strstr(s, ", s[4:5]\n"));
			ck_assert(strstr(s, "buffer_store_dword"));
			ck_assert(!strstr(s, "scratch_"));
		}
		free(s);
		cmd_result_free(&r);
	}
	/* the descriptor as the loader reads it (wavecc info) */
	char args[2048];
	snprintf(args, sizeof args, "compile %s --mcpu gfx90a -o '%s/k.hsaco' && '%s' info '%s/k.hsaco'", kernels[1], dir,
		test_bin(), dir);
	CmdResult i = wavecc(args);
	ck_assert_msg(i.status == 0, "%s", i.err);
	ck_assert_msg(strstr(i.out, "user SGPRs (6): private_segment_buffer=s[0:3] kernarg_segment_ptr=s[4:5]\n") &&
			      strstr(i.out, "system SGPRs: workgroup_id_x=s6 private_segment_wave_offset=s7\n") &&
			      strstr(i.out, "private segment on"),
		"%s", i.out);
	cmd_result_free(&i);
	/* nothing spilled: no private segment */
	CmdResult r = wavecc("compile examples/gemm_global.json -S -o - ");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, ".private_segment_fixed_size: 0\n"));
	ck_assert(!strstr(r.out, "amdhsa_private_segment_fixed_size"));
	cmd_result_free(&r);
	r = wavecc("compile examples/gemm_global.json -o /dev/null --stats");
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(stat_of(r.out, "\nscratch bytes"), 0);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver/spill");
	TCase *tc = tcase_create("spill");
	tcase_set_timeout(tc, 300);
	test_add_loop_sampled(tc, spilled_kernel_passes_strictly, 2 * NKERNELS);
	tcase_add_test(tc, private_segment_per_target);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
