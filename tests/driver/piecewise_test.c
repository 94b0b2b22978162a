/* piecewise_test.c — Piecewise index expressions whose conditions vary per
 * lane (isel/expr.c; Wave's T5 RPE offset, wave_test.c runs that
 * kernel): a read through a three-branch Piecewise with an And condition,
 * one branch past the tensor's end (those elements read 0), on both targets
 * against the interpreter, exactly; and the located rejection of an Or. */
#include <string.h>

#include "../test.h"

START_TEST(three_branches)
{
	const char *mcpu = _i ? "gfx90a" : "gfx942";
	CmdResult r = test_wavecc("run tests/driver/data/piecewise_read.json --mcpu %s --seed %d", mcpu, 7 + _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n") && strstr(r.out, "max abs err 0,"),
		"%s: status %d\n%s%s", mcpu, r.status, r.out, r.err);
	cmd_result_free(&r);
	/* one select per element and branch but the last: the per-lane path */
	r = test_wavecc("compile tests/driver/data/piecewise_read.json --mcpu %s -S -o -", mcpu);
	ck_assert_msg(r.status == 0 && strstr(r.out, "v_cndmask_b32"), "%s: no v_cndmask_b32\n%s", mcpu, r.err);
	cmd_result_free(&r);
}
END_TEST

START_TEST(or_rejected)
{
	CmdResult r = test_wavecc("run tests/driver/data/piecewise_read_or.json");
	ck_assert_msg(r.status == 1 && strstr(r.err, "piecewise_read_or.json:") &&
			      strstr(r.err, ": error: index expression Piecewise(") &&
			      strstr(r.err, "is not compiled yet (relations other than == and !=, and And of them, are)"),
		"status %d\n%s", r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.piecewise");
	TCase *tc = tcase_create("piecewise");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, three_branches, 0, 2);
	tcase_add_test(tc, or_rejected);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
