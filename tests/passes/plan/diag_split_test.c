/* diag_split_test.c — causal attention's loop split at the diagonal
 * (passes/plan/diag_split.c, passes/plan/split.c, isel/isel.c, isel/compare.c).
 *
 * `--dump-plan` prints the split, its main count and the tail iterate that
 * continues the main loop's pipeline: min(L, trips) with L
 * = floor((first row + 1) / tile) for `m >= k2`, floor(first row / tile)
 * for `m > k2`, for Wave's vanilla causal attentions of every MMA type and
 * the BHSD ones (mapped V reads); none for the non-causal graph, the
 * comparison turned around (m <= k2: the masked keys come first), the
 * sliding window (its second compare is not proved) or a K2 split for its
 * unaligned size. In the assembly, the main loop has no causal compare
 * (v_cmp_ge_i32) and the tail has them. The split kernels run on the
 * emulator against the interpreter at shapes where the main loop runs in
 * some workgroups and not in others: 64- and 32-key tiles, 64-row
 * workgroups, more queries than keys, m > k2, BHSD, gfx90a in the
 * emulator's strict modes. And the cut loop's rows run longest first
 * (passes/graph/mask_bound.c's heavy_first): the entry reorders the
 * workgroup id where the row dim is alone below the outermost grid dim. */
#include <stdlib.h>
#include <string.h>

#include "../../test.h"

#define CAUSAL "tests/driver/wave/vanilla_attention_causal_16x16x16.json"

/* The loop line of `--dump-plan` for args, and the line after it (a split
 * loop's tail: passes/plan/split.c). */
static char *loop_line(const char *args)
{
	CmdResult r = test_wavecc("compile %s --dump-plan -S -o -", args);
	ck_assert_msg(r.status == 0, "compile %s: %s", args, r.err);
	const char *p = strstr(r.err, "loop repeat over ");
	ck_assert_msg(p, "no loop line in: %s", r.err);
	const char *e = strchr(p, '\n');
	e = e ? strchr(e + 1, '\n') : NULL;
	char *s = e ? strndup(p, (size_t)(e - p)) : strdup(p);
	cmd_result_free(&r);
	return s;
}

/* Split at count: the main iterate's line, then its tail's, a second
 * iterate in the graph continuing the main loop's pipeline. */
static void split_at(const char *args, const char *count)
{
	char *got = loop_line(args);
	char want[256];
	snprintf(want, sizeof want, "split at the diagonal, %s\n  tail repeat: trips from %s, continues the pipeline",
		count, count);
	ck_assert_msg(strstr(got, want), "%s: %s, want %s", args, got, want);
	free(got);
}

static void not_split(const char *args)
{
	char *got = loop_line(args);
	ck_assert_msg(!strstr(got, "diagonal"), "%s: %s", args, got);
	free(got);
}

/* CAUSAL with its first `from` after `anchor` replaced by `to`, in the
 * test's scratch folder. */
static const char *variant(const char *name, const char *anchor, const char *from, const char *to)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", test_root(), CAUSAL);
	size_t n;
	char *s = read_file(path, &n);
	ck_assert_ptr_nonnull(s);
	char *a = strstr(s, anchor);
	ck_assert_ptr_nonnull(a);
	char *f = strstr(a, from);
	ck_assert_ptr_nonnull(f);
	static const char *dir;
	if (!dir)
		dir = test_tmpdir("diag_split");
	snprintf(path, sizeof path, "%s/%s.json", dir, name);
	FILE *o = fopen(path, "w");
	ck_assert_ptr_nonnull(o);
	fprintf(o, "%.*s%s%s", (int)(f - s), s, to, f + strlen(from));
	fclose(o);
	free(s);
	return intern(path);
}

START_TEST(causal_loops_split_at_the_diagonal)
{
	static const char *const split[] = {
		"vanilla_attention_causal_16x16x16", "vanilla_attention_causal_32x32x8",
		"vanilla_attention_causal_16x16x32_k8", "vanilla_attention_causal_32x32x16_k8",
		"bhsd_attention_causal_16x16x16", "bhsd_attention_causal_32x32x16_k8",
	};
	char args[512];
	for (size_t i = 0; i < sizeof split / sizeof *split; i++) {
		snprintf(args, sizeof args, "tests/driver/wave/%s.json -D M=512 -D K2=512", split[i]);
		split_at(args, "2*$WG0");
	}
	split_at(CAUSAL " -D M=512 -D K2=512 -D BLOCK_K2=32", "4*$WG0");
	split_at(CAUSAL " -D M=512 -D K2=512 -D BLOCK_M=64", "$WG0");
	/* m > k2: row wg_start sees keys below it only */
	snprintf(args, sizeof args, "%s -D M=512 -D K2=512",
		variant("strict", "\"name\": \"causal\"", "\"op\": \"ge\"", "\"op\": \"gt\""));
	split_at(args, "2*$WG0");
	snprintf(args, sizeof args, "%s -D M=512 -D K2=512",
		variant("anti", "\"name\": \"causal\"", "\"op\": \"ge\"", "\"op\": \"le\""));
	not_split(args);
	not_split("tests/driver/wave/vanilla_attention_16x16x16.json -D M=512 -D K2=512");
	not_split("tests/driver/wave/vanilla_attention_causal_sw_16x16x16.json -D M=512 -D K2=512");
	not_split(CAUSAL " -D M=512 -D K2=300");
	not_split(CAUSAL " -D M=128 -D K2=512"); /* one row tile: no main trip anywhere */
}
END_TEST

/* v_cmp_ge_i32 in the main loop (between its label and its back edge,
 * the first `s_cbranch_scc1`) and after it. */
START_TEST(main_loop_has_no_causal_compare)
{
	CmdResult r = test_wavecc("compile " CAUSAL " -D M=512 -D K2=512 -S -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	const char *back = strstr(r.out, "s_cbranch_scc1");
	ck_assert_ptr_nonnull(back);
	int in_main = 0, in_tail = 0;
	for (const char *p = r.out; (p = strstr(p, "v_cmp_ge_i32")); p++)
		in_main += p < back;
	for (const char *p = back; (p = strstr(p, "v_cmp_ge_i32")); p++)
		in_tail++;
	/* (the prologue before the main loop has none either) */
	ck_assert_msg(in_main == 0, "%d causal compares before the main loop's back edge", in_main);
	ck_assert_msg(in_tail > 0, "no causal compare in the tail");
	cmd_result_free(&r);
}
END_TEST

/* The entry's code before the kernel arguments' loads: a reordering of
 * the hardware's workgroup id (grid - 1 - id: s_mul_i32 by -1, then the
 * add) or none. */
static bool reversed(const char *args)
{
	CmdResult r = test_wavecc("compile %s -S -o -", args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	const char *end = strstr(r.out, "// kernel arguments");
	const char *m = strstr(r.out, ", -1, s");
	ck_assert_ptr_nonnull(end);
	bool got = m && m < end;
	cmd_result_free(&r);
	return got;
}

/* passes/graph/mask_bound.c's heavy_first: a cut causal loop's row tiles
 * longest first, where the row dim is alone below the outermost grid dim */
START_TEST(causal_rows_longest_first)
{
	ck_assert(reversed(CAUSAL " -D M=512 -D K2=512 -D BLOCK_N=128"));
	ck_assert(!reversed(CAUSAL " -D M=512 -D K2=512"));                     /* N in two workgroups */
	ck_assert(!reversed(CAUSAL " -D M=128 -D K2=512 -D BLOCK_N=128"));      /* one row tile */
	ck_assert(!reversed("tests/driver/wave/vanilla_attention_16x16x16.json -D M=512 -D K2=512 -D BLOCK_N=128"));
}
END_TEST

static void passes(const char *args)
{
	CmdResult r = test_wavecc("run %s", args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS"), "run %s:\n%s%s", args, r.out, r.err);
	ck_assert_msg(!strstr(r.out, "FAIL"), "run %s:\n%s", args, r.out);
	cmd_result_free(&r);
}

#define STRICT "--mcpu gfx90a --wave-order random --wg-order random --fill garbage --memory late --races --canary"

START_TEST(split_kernels_pass)
{
	passes(CAUSAL " -D B=1 -D M=512 -D K2=512");
	passes(CAUSAL " -D B=1 -D M=512 -D K2=512 " STRICT);
	passes(CAUSAL " -D B=1 -D M=512 -D K2=512 -D BLOCK_K2=32");
	passes(CAUSAL " -D B=2 -D M=512 -D K2=512 -D BLOCK_N=128 " STRICT); /* reversed rows */
	passes(CAUSAL " -D B=1 -D M=384 -D K2=256 -D BLOCK_M=64"); /* rows past every key */
	passes("tests/driver/wave/vanilla_attention_causal_16x16x32_k8.json -D B=1 -D M=512 -D K2=512 -D BLOCK_K2=32");
	passes("tests/driver/wave/vanilla_attention_causal_32x32x16_k8.json -D B=1 -D M=512 -D K2=512");
	passes("tests/driver/wave/bhsd_attention_causal_16x16x16.json -D B=1 -D H=2 -D M=512 -D K2=512 " STRICT);
	char args[4200];
	snprintf(args, sizeof args, "%s -D B=1 -D M=512 -D K2=512",
		variant("strict_run", "\"name\": \"causal\"", "\"op\": \"ge\"", "\"op\": \"gt\""));
	passes(args);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("passes/plan/diag_split");
	TCase *t = tcase_create("diag_split");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, causal_loops_split_at_the_diagonal);
	tcase_add_test(t, main_loop_has_no_causal_compare);
	tcase_add_test(t, causal_rows_longest_first);
	tcase_add_test(t, split_kernels_pass);
	suite_add_tcase(s, t);
	return run_suite(s);
}
