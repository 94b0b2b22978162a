/* rtdiv_test.c — `wavecc run` on kernels whose index expressions divide by a
 * value known only at run time (isel/rtdiv.c), compared with the
 * interpreter on both targets: grids with runtime counts folded below
 * workgroup_dim 2 (the digits of $WG2 are quotients and remainders by
 * runtime counts), a rotating copy whose mapping takes floor and Mod by
 * runtime sizes of dividends up to 2^31 + N (divisors 1, 3, 7, 2^16 + 1,
 * 2^31 - 1), and the implicit-GEMM convolution with a runtime channel count
 * C (j // C and j % C per lane, K = HF * WF * C a runtime loop count). */
#include <string.h>

#include "../test.h"

static CmdResult wavecc(const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

static const char *const runs[] = {
	/* H (workgroup_dim 3) at run time, G (dim 4) fixed: $WG2 / (H * 2) etc. */
	"tests/driver/data/add_folded_wg_dyn_h.json -D H=5",
	"tests/driver/data/add_folded_wg_dyn_h.json -D H=1",
	/* B, H, G all at run time; a count of 0 gives an empty grid */
	"tests/driver/data/add_folded_wg_dyn_bhg.json -D B=3 -D H=5 -D G=2",
	"tests/driver/data/add_folded_wg_dyn_bhg.json -D B=1 -D H=1 -D G=7",
	"tests/driver/data/add_folded_wg_dyn_bhg.json -D B=2 -D H=3 -D G=1",
	"tests/driver/data/add_folded_wg_dyn_bhg.json -D B=4 -D H=0 -D G=3",
	/* b[i, j] = a[Mod(i + floor((j + S) / N) + floor((j + S) / R), M),
	 * Mod(Mod(j + S, R), N)] */
	"tests/driver/data/copy_rotate_rt.json -D M=3 -D N=100 -D S=0 -D R=3",
	"tests/driver/data/copy_rotate_rt.json -D M=5 -D N=7 -D S=2147483647 -D R=2147483647",
	"tests/driver/data/copy_rotate_rt.json -D M=2 -D N=65537 -D S=2147483647 -D R=7",
	"tests/driver/data/copy_rotate_rt.json -D M=4 -D N=3 -D S=1000000 -D R=65537",
	"tests/driver/data/copy_rotate_rt.json -D M=7 -D N=129 -D S=65536 -D R=1",
	"tests/driver/data/copy_rotate_rt.json -D M=1 -D N=1 -D S=1 -D R=2147483647",
	/* test_conv.py's first _igemm_cases shape and an odd one, C at run time */
	"tests/driver/data/igemm_conv_nhwc_dyn_c.json -D N=1 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=2 -D stride=2",
	"tests/driver/data/igemm_conv_nchw_dyn_c.json -D N=1 -D H=5 -D W=5 -D C=10 -D HF=2 -D WF=2 -D NF=2 -D stride=2",
	"tests/driver/data/igemm_conv_nhwc_dyn_c.json -D N=2 -D H=9 -D W=7 -D C=3 -D HF=3 -D WF=2 -D NF=16 -D stride=1",
	"tests/driver/data/igemm_conv_nchw_dyn_c.json -D N=2 -D H=9 -D W=7 -D C=3 -D HF=3 -D WF=2 -D NF=16 -D stride=1",
};

START_TEST(runtime_division_passes)
{
	char args[512];
	snprintf(args, sizeof args, "run %s --mcpu %s --seed %d", runs[_i / 2], _i % 2 ? "gfx90a" : "gfx942", 60 + _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* The convolution with H and W at run time compiles its reads (floor and
 * Mod by floor(W / 2) * floor(H / 2) and the like) but not its write, whose
 * mapping through runtime sizes cannot be shown one-to-one yet. */
START_TEST(conv_runtime_hw_write_rejected)
{
	CmdResult r = wavecc("run tests/driver/data/igemm_conv_nhwc_dyn_chw.json -D N=1 -D H=5 -D W=5 -D C=10 -D HF=2 "
			     "-D WF=2 -D NF=2 -D stride=2");
	ck_assert_int_ne(r.status, 0);
	ck_assert_msg(strstr(r.err, "graph[2]: the write's mapping cannot be shown one-to-one"), "%s", r.err);
	ck_assert_msg(!strstr(r.err, "index expression"), "%s", r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rtdiv");
	TCase *tc = tcase_create("run");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, runtime_division_passes, 0, (int)(2 * ARRAY_LEN(runs)));
	tcase_add_test(tc, conv_runtime_hw_write_rejected);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
