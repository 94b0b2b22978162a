/* loop_sample_test.c — test_add_loop_sampled (tests/test.c), the sample
 * make check-asan takes of the end-to-end loops: without WAVECC_TEST_SAMPLE
 * every iteration is registered; with K = 2 the two days' samples are
 * disjoint, cover every iteration, and take one run of each pair (i % 2 the
 * target) on alternating targets. The inner suite runs without forking so
 * that it can record the iterations it ran. */
#include <stdlib.h>
#include <string.h>

#include "../test.h"

static int ran[64], nran;

START_TEST(inner)
{
	ran[nran++] = _i;
}
END_TEST

/* The iterations of a loop of n registered under the environment given. */
static int sample(const char *every, const char *at, int n)
{
	if (every)
		setenv("WAVECC_TEST_SAMPLE", every, 1);
	else
		unsetenv("WAVECC_TEST_SAMPLE");
	if (at)
		setenv("WAVECC_TEST_SAMPLE_AT", at, 1);
	else
		unsetenv("WAVECC_TEST_SAMPLE_AT");
	nran = 0;
	Suite *s = suite_create("inner");
	TCase *tc = tcase_create("inner");
	test_add_loop_sampled(tc, inner, n);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	srunner_free(sr);
	return nran;
}

START_TEST(unsampled_registers_all)
{
	ck_assert_int_eq(sample(NULL, NULL, 10), 10);
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(ran[i], i);
	ck_assert_int_eq(sample("1", "0", 7), 7);
}
END_TEST

START_TEST(two_days_cover_each_pair_once)
{
	int seen[16] = {0};
	for (int day = 0; day < 2; day++) {
		char at[16];
		snprintf(at, sizeof at, "%d", day);
		ck_assert_int_eq(sample("2", at, 16), 8);
		for (int j = 0; j < nran; j++)
			seen[ran[j]]++;
		/* one run of each pair, the targets taking turns */
		for (int j = 0; j < nran; j++) {
			ck_assert_int_eq(ran[j] / 2, j);
			ck_assert_int_eq(ran[j] % 2, (j + day) % 2);
		}
	}
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(seen[i], 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("loop_sample");
	TCase *tc = tcase_create("loop_sample");
	tcase_add_test(tc, unsampled_registers_all);
	tcase_add_test(tc, two_days_cover_each_pair_once);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
