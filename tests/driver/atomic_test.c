/* atomic_test.c — atomic_add end to end: kernels in tests/driver/atomic/
 * through `wavecc run` on gfx942 and gfx90a (compiled code on the emulator
 * against the interpreter), and the located errors for bad input and for
 * what is not compiled yet. Wave's own atomic test is in wave_test.c. */
#include <string.h>

#include "../test.h"

static const char *const targets[] = {"gfx942", "gfx90a"};

/* Column sums through a many-to-one mapping (register [M, N] onto memory
 * [N]): 37 rows from 37 workgroups add into each element, in f32
 * (buffer_atomic_add_f32) and i32 (buffer_atomic_add, wrapping), and in
 * i32 over 32-column workgroups (the 64 lanes' run covers two: the lanes
 * past the tile must not add). Reductions across workgroups (Wave's split-K way): each wave's partial
 * sum of a*b over its window of N added into c[M], over 13 workgroups
 * (N = 813 in tiles of 64), over 4 waves of one workgroup, and the sum
 * over N of a GEMM's accumulator (2 waves by 3 workgroups along N) — every
 * lane that reduced a row holds its sum, and exactly one of them adds it
 * (the i32 sums are exact: a second add shows). f16 (buffer_atomic_pk_add_f16,
 * one element a lane with -0.0 in the other half): the column sums, and
 * rows of odd length, whose elements sit in either half of their dword row
 * by row. */
static const char *const passing[] = {"colsum_f32", "colsum_i32", "colsum_i32_narrow", "rowsum_wg_f32", "rowsum_wg_i32",
	"rowsum_waves_f32", "gemm_rowsum_32x32x8", "colsum_f16", "f16_odd_rows"};

START_TEST(atomic_kernels_pass)
{
	const char *k = passing[_i / 2], *t = targets[_i % 2];
	CmdResult r = test_wavecc("run tests/driver/atomic/%s.json --mcpu %s --seed %d", k, t, 3 + _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s on %s: status %d\n%s%s", k, t, r.status, r.out,
		      r.err);
	cmd_result_free(&r);
}
END_TEST

/* Returning atomics with partial tiles: Wave's no-map kernel at M = 50
 * and 200 (tile 64): the lanes past M are masked by the buffer range check
 * and must neither add nor disturb c. */
START_TEST(returning_atomic_partial_tiles)
{
	const char *t = targets[_i % 2];
	int m = _i / 2 ? 200 : 50;
	CmdResult r = test_wavecc("run tests/driver/wave/atomic_add_no_map.json -D M=%d --mcpu %s --seed %d", m, t, _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "M=%d on %s: status %d\n%s%s", m, t, r.status, r.out,
		      r.err);
	cmd_result_free(&r);
}
END_TEST

/* file, the expected message (after "error: "), and whether the frontend
 * (dump-graph) already rejects it */
static const struct {
	const char *file, *msg;
	bool frontend;
} rejected[] = {
	{"bad_lhs_memory", "graph[1].lhs: 'a' is a memory argument; read it first", true},
	{"bad_rhs_register", "graph[1].rhs: 'x' is not a memory argument", true},
	{"bad_dtype", "graph[1].lhs: dtype mismatch: atomic_add: 'x' is f32[M, N], 's' is i32[N]", true},
	{"bad_i1", "graph[1].rhs: atomic_add on i1 memory 's': only integer, f16, bf16, f32 and f64 elements add", true},
	{"f16_odd_count_rejected",
	 "graph[1]: an atomic_add of f16 elements into s needs an element count proven even (the packed atomic adds "
	 "whole dwords): not compiled yet",
	 false},
	{"f16_old_rejected", "graph[1]: the old values of an atomic_add of f16 elements are not compiled yet", false},
	{"broadcast_rejected", "graph[1]: atomic_add of a register whose dims differ from s's is not compiled yet",
	 false},
	{"rowsum_old_rejected",
	 "graph[4]: the old values of an atomic_add whose lanes hold copies of one element (a reduction's result) are "
	 "not compiled yet",
	 false},
};

START_TEST(atomic_bad_input_is_located)
{
	const char *f = rejected[_i / 2].file, *t = targets[_i % 2];
	char want[512];
	snprintf(want, sizeof want, "tests/driver/atomic/%s.json:", f);
	CmdResult r = test_wavecc("run tests/driver/atomic/%s.json --mcpu %s", f, t);
	ck_assert_msg(r.status == 1, "%s: status %d\n%s%s", f, r.status, r.out, r.err);
	ck_assert_msg(strstr(r.err, want) && strstr(r.err, rejected[_i / 2].msg), "%s: want '%s'\n%s", f,
		      rejected[_i / 2].msg, r.err);
	ck_assert_ptr_null(strstr(r.out, "PASS"));
	cmd_result_free(&r);
	r = test_wavecc("dump-graph tests/driver/atomic/%s.json", f);
	ck_assert_msg(rejected[_i / 2].frontend ? r.status == 1 : r.status == 0, "%s: dump-graph status %d\n%s", f,
		      r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

/* A returning atomic_add prints its glc bit as the target spells it. */
START_TEST(returning_atomic_spelling)
{
	for (int i = 0; i < 2; i++) {
		CmdResult r = test_wavecc("compile tests/driver/wave/atomic_add_no_map.json --mcpu %s -S -o -", targets[i]);
		ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
		/* the registers are the allocator's and the scheduler's choice;
		 * the spelling of the return bit is what is checked */
		const char *at = strstr(r.out, "buffer_atomic_add v");
		ck_assert_msg(at != NULL, "%s", r.out);
		const char *eol = strchr(at, '\n');
		const char *bit = strstr(at, i ? " offen glc" : " offen sc0");
		ck_assert_msg(bit && (!eol || bit < eol), "%.*s", (int)(eol ? eol - at : 80), at);
		cmd_result_free(&r);
	}
	/* without users of the result: no return bit */
	CmdResult r = test_wavecc("compile tests/driver/atomic/colsum_f32.json -S -o -");
	ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "buffer_atomic_add_f32"));
	ck_assert_ptr_null(strstr(r.out, " sc0"));
	cmd_result_free(&r);
}
END_TEST

/* bf16 atomics are gfx950's (buffer_atomic_pk_add_bf16; gfx942 has only
 * the FLAT form): rows of odd length pass there, adversarially and
 * strictly; gfx942 and gfx90a reject them naming themselves. f16 takes
 * buffer_atomic_pk_add_f16 on every target. */
START_TEST(atomic_16bit)
{
	CmdResult r = test_wavecc("run tests/driver/atomic/bf16_odd_rows.json --mcpu gfx950 --wave-order random "
				  "--wg-order reverse --fill garbage --memory late --races --canary");
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
	for (int i = 0; i < 2; i++) {
		r = test_wavecc("run tests/driver/atomic/bf16_odd_rows.json --mcpu %s", targets[i]);
		char want[128];
		snprintf(want, sizeof want, "needs buffer_atomic_pk_add_bf16, which %s does not have", targets[i]);
		ck_assert_msg(r.status == 1 && strstr(r.err, "bf16_odd_rows.json:") && strstr(r.err, want), "%s%s",
			r.out, r.err);
		cmd_result_free(&r);
	}
	r = test_wavecc("compile tests/driver/atomic/bf16_odd_rows.json --mcpu gfx950 -S -o -");
	ck_assert_msg(r.status == 0 && strstr(r.out, "buffer_atomic_pk_add_bf16 v"), "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("compile tests/driver/atomic/f16_odd_rows.json --mcpu gfx90a -S -o -");
	ck_assert_msg(r.status == 0 && strstr(r.out, "buffer_atomic_pk_add_f16 v"), "%s", r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("atomic");
	TCase *tc = tcase_create("atomic");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, atomic_kernels_pass, 0, (int)(2 * ARRAY_LEN(passing)));
	tcase_add_loop_test(tc, atomic_bad_input_is_located, 0, (int)(2 * ARRAY_LEN(rejected)));
	tcase_add_test(tc, returning_atomic_spelling);
	tcase_add_test(tc, atomic_16bit);
	tcase_add_loop_test(tc, returning_atomic_partial_tiles, 0, 4);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
