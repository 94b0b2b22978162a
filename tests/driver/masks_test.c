/* masks_test.c — i1 lane masks kept in SGPR pairs (isel/elt.c, compare.c)
 * end to end: `wavecc run` compiles each kernel for gfx942 and gfx90a, runs
 * it on the emulator and compares with the interpreter. The kernels are the
 * cases where a kept pair could be stale or wrong: a mask selected with
 * twice, and a mask carried around a loop (its word is rewritten each trip
 * in place, so a select inside the loop must not read the first trip's
 * pair). */
#include <stdio.h>
#include <string.h>

#include "../test.h"

static const char *const targets[] = {"gfx942", "gfx90a"};

static const char *const passing[] = {
	/* c = (x < 300 ? a : b) * (x < 300 ? b : a) */
	"tests/isel/data/mask_select.json",
	"tests/isel/data/mask_select.json -D M=3 -D N=200 --seed 7",
	/* m = x > 0; five trips of v = m ? v - 0.75 : v + 0.75, m = v < 0.5 */
	"tests/driver/data/mask_carried.json",
	"tests/driver/data/mask_carried.json -D K=8 -D N=192 --seed 3",
};

START_TEST(passes)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run %s --mcpu %s", test_root(), test_bin(), passing[_i / 2],
		targets[_i % 2]);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", cmd, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver/masks");
	TCase *tc = tcase_create("run");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, passes, 0, (int)(sizeof passing / sizeof passing[0]) * 2);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
