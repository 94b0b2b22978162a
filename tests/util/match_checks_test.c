/* match_checks_test.c — test_match_checks (tests/test.c), the matcher of the
 * `; CHECK:` files of tests/passes/machine/data and tests/isel/data, must
 * fail where a file would otherwise check less than it says: an unknown or
 * misspelt directive (`; CHEC:`), an empty check (which matches any line),
 * more than 128 checks, a check text over 511 bytes; and it must still pass
 * good files and fail wrong outputs. Each case runs the matcher in a suite
 * of its own, in a child process (Check's fork mode), and looks at whether
 * that suite failed. */
#include <stdlib.h>
#include <string.h>

#include "../test.h"

static const char *spec_now, *out_now;

START_TEST(inner)
{
	test_match_checks("case", spec_now, out_now);
}
END_TEST

/* Did test_match_checks(spec, output) fail? */
static bool fails(const char *spec, const char *output)
{
	spec_now = spec;
	out_now = output;
	Suite *s = suite_create("inner");
	TCase *tc = tcase_create("inner");
	tcase_add_test(tc, inner);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_SILENT);
	int nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf != 0;
}

static char *repeat_checks(int n)
{
	Buf b = {0};
	for (int i = 0; i < n; i++)
		buf_printf(&b, "; CHECK: x\n");
	char *t = xstrdup(buf_cstr(&b));
	buf_free(&b);
	return t;
}

static char *repeat_lines(int n)
{
	Buf b = {0};
	for (int i = 0; i < n; i++)
		buf_printf(&b, "x\n");
	char *t = xstrdup(buf_cstr(&b));
	buf_free(&b);
	return t;
}

START_TEST(good_files_pass)
{
	ck_assert(!fails("; CHECK: a\n; CHECK-NEXT: b\n; CHECK-NOT: z\n; CHECK: c\n", "a\nb\nq\nc\n"));
	ck_assert(!fails("; RUN: whatever\n; TARGET: gfx90a\n; CHECK: a\n", "a\n"));
	ck_assert(!fails("; a comment: not a directive\n; CHECK: a\n", "a\n"));
	char *spec = repeat_checks(128), *out = repeat_lines(128);
	ck_assert(!fails(spec, out));
	free(spec);
	free(out);
}
END_TEST

START_TEST(wrong_outputs_fail)
{
	ck_assert(fails("; CHECK: a\n", "b\n"));
	ck_assert(fails("; CHECK: a\n; CHECK-NEXT: c\n", "a\nb\nc\n"));
	ck_assert(fails("; CHECK: a\n; CHECK-NOT: b\n; CHECK: c\n", "a\nb\nc\n"));
	ck_assert(fails("; CHECK: b\n; CHECK: a\n", "a\nb\n")); /* order */
}
END_TEST

START_TEST(unknown_directive_fails)
{
	ck_assert(fails("; CHEC: a\n", "a\n"));
	ck_assert(fails("; CHECK-NXT: a\n", "a\n"));
	ck_assert(fails("; CHECKNOT: a\n", "a\n"));
}
END_TEST

START_TEST(empty_check_fails)
{
	ck_assert(fails("; CHECK:\n", "a\n"));
	ck_assert(fails("; CHECK:   \n", "a\n"));
	ck_assert(fails("; CHECK-NOT:\n", "a\n"));
}
END_TEST

START_TEST(overflow_fails)
{
	char *spec = repeat_checks(129), *out = repeat_lines(129);
	ck_assert(fails(spec, out));
	free(spec);
	free(out);
	char longtext[700];
	memset(longtext, 'y', sizeof longtext - 1);
	longtext[sizeof longtext - 1] = 0;
	Buf b = {0};
	buf_printf(&b, "; CHECK: %s\n", longtext);
	char *lspec = xstrdup(buf_cstr(&b));
	buf_free(&b);
	ck_assert(fails(lspec, longtext));
	free(lspec);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("match_checks");
	TCase *tc = tcase_create("match_checks");
	tcase_add_test(tc, good_files_pass);
	tcase_add_test(tc, wrong_outputs_fail);
	tcase_add_test(tc, unknown_directive_fails);
	tcase_add_test(tc, empty_check_fails);
	tcase_add_test(tc, overflow_fails);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
