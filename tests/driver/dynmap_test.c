/* dynmap_test.c — index mappings with dynamic values (isel/dynmap.c)
 * beyond the transcribed Wave tests (wave_test.c: offset_read,
 * offset_write): offsets read inside a loop and before it, the wide load a
 * per-row offset keeps, and the located rejections. */
#include <string.h>

#include "../test.h"

/* a[off[m, n], n] (an offset per element, read in the loop) times
 * b[roff[m], n] (an offset per row, read before the loop) under an
 * iterate over N, on both targets and shapes that do and do not divide
 * the tile; offsets -8..7 put rows out of bounds (masked to 0) */
static const char *const loop_shapes[] = {"-D M=16 -D N=256", "-D M=9 -D N=813", "-D M=3 -D N=27"};

START_TEST(offset_in_loop)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	CmdResult r = test_wavecc("run tests/driver/data/dyn_offset_loop.json %s --mcpu %s --seed %d",
		loop_shapes[_i / 2], mcpu, 3 + _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s %s: status %d\n%s%s", loop_shapes[_i / 2], mcpu,
		r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* The per-row offset serves a run of 2 consecutive f32 along N: one
 * dwordx2 load; the per-element offsets cannot be shown contiguous, so
 * their elements load one dword at a time, each masked on its own. */
START_TEST(row_offset_stays_wide)
{
	CmdResult r = test_wavecc("compile tests/driver/data/dyn_offset_loop.json -D M=16 -D N=256 -S -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "buffer_load_dwordx2"), "no wide load:\n%s", r.out);
	ck_assert_msg(strstr(r.out, "buffer_load_dword v"), "no per-element load:\n%s", r.out);
	ck_assert_msg(strstr(r.out, "v_cndmask_b32"), "no masked offset:\n%s", r.out);
	cmd_result_free(&r);
}
END_TEST

static const char *const rejects[][2] = {
	{"dyn_offset_i16", "graph[1]: dynamic value offset is i16: only 32-bit integer dynamic values are compiled yet"},
	{"dyn_offset_other_dim", "graph[1]: dynamic value offset has a dim the mapping's register side lacks"},
};

START_TEST(rejected)
{
	CmdResult r = test_wavecc("compile tests/driver/data/%s.json -S -o -", rejects[_i][0]);
	ck_assert_msg(r.status == 1 && strstr(r.err, ".json:") && strstr(r.err, ": error: ") &&
			      strstr(r.err, rejects[_i][1]),
		"%s: status %d\n%s", rejects[_i][0], r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/dynmap");
	TCase *tc = tcase_create("dynmap");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, offset_in_loop, 0, (int)(2 * ARRAY_LEN(loop_shapes)));
	tcase_add_test(tc, row_offset_stays_wide);
	tcase_add_loop_test(tc, rejected, 0, (int)ARRAY_LEN(rejects));
	suite_add_tcase(s, tc);
	return run_suite(s);
}
