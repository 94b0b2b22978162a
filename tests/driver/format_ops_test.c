/* format_ops_test.c — the ops added to kernel format 1 after its first
 * release (docs/kernel-format.md, "Additions"), end to end: `wavecc run`
 * compiles each kernel for gfx942 and gfx90a, runs it on the emulator and
 * compares with the interpreter; what is not compiled yet must be a located
 * error naming the op. The Wave tests that use these ops are in
 * wave_test.c. */
#include <stdlib.h>
#include <string.h>

#include "../test.h"

static CmdResult wavecc(const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

static const char *const targets[] = {"gfx942", "gfx90a"};

/* Kernels that must PASS, each on both targets. */
static const char *const passing[] = {
	/* a per-lane conditional with a result: b = mask > 0 ? a * a : a */
	"tests/driver/data/conditional_select.json",
	"tests/driver/data/conditional_select.json -D M=7 -D N=300 --seed 5",
};

START_TEST(passes)
{
	char args[1024];
	snprintf(args, sizeof args, "run %s --mcpu %s", passing[_i / 2], targets[_i % 2]);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

typedef struct {
	const char *args, *where, *what;
} Reject;

static const Reject rejects[] = {
	/* four condition elements per lane: one exec mask cannot hold them */
	{"tests/driver/data/conditional_ept4.json", "tests/driver/data/conditional_ept4.json:99:5: error: ",
		"graph[3]: a condition of 4 elements per thread is not compiled yet"},
	/* set_symbol with four offsets per lane (BLOCK_N 256): one binding of
	 * the symbol per lane cannot serve them */
	{"tests/driver/wave/set_symbol.json -D BLOCK_N=256 -D S=111", "tests/driver/wave/set_symbol.json:87:5: error: ",
		"graph[1]: set_symbol of i32 with 4 elements per thread: only one 32-bit element per thread is compiled "
		"yet"},
};

START_TEST(rejected_with_location)
{
	const Reject *x = &rejects[_i];
	char args[1024];
	snprintf(args, sizeof args, "run %s", x->args);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 1, "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	ck_assert_msg(strncmp(r.err, x->where, strlen(x->where)) == 0, "%s: want %s\ngot: %s", args, x->where, r.err);
	ck_assert_msg(strstr(r.err, x->what), "%s: want %s\ngot: %s", args, x->what, r.err);
	ck_assert_msg(!strstr(r.err, "internal error"), "%s: %s", args, r.err);
	cmd_result_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("format_ops");
	TCase *tc = tcase_create("run");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, passes, 0, (int)(2 * ARRAY_LEN(passing)));
	tcase_add_loop_test(tc, rejected_with_location, 0, (int)ARRAY_LEN(rejects));
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
