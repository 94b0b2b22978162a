/* mask_bound_test.c — bound_masked_loops (passes/graph/mask_bound.c): a
 * causal attention's loop over K2 stops at the workgroup's diagonal, and
 * only where the skipped trips are proven identities.
 *
 * `wavecc dump-indices` prints each loop's trip count as compiled (after
 * the row). Wave's causal attentions (vanilla, sliding window, BHSD, each
 * MMA type, constant and runtime sizes) get Min(trips, U) with U the first
 * trip past the workgroup's last row, 2*$WG0 + 2 for 128 rows in tiles of
 * 64; the non-causal and custom-mask ones keep their count. Variants of
 * Wave's causal 16x16x16 graph that break one link of the proof keep every
 * trip: a mask constant too close to the scores (-1000), the comparison
 * turned around (m <= k2: the masked tiles come first), m > k2 (row 0 has
 * no unmasked key, so its softmax is over masked scores only and every
 * trip counts), the select's operands swapped (the masked value 0), a min
 * in place of the running max, the sum taken over the scores. The cut
 * kernels then run on the emulator against the interpreter, at shapes
 * where the cut differs per workgroup: K2 a multiple of the tile or not
 * (the loop also split, isel/peel.c), M not a multiple of BLOCK_M, M > K2
 * and M < K2, runtime sizes, gfx90a in the emulator's strict modes; and
 * two of the variants, uncut, too. */
#include <stdlib.h>
#include <string.h>

#include "../../test.h"

#define CAUSAL "tests/driver/wave/vanilla_attention_causal_16x16x16.json"

/* The trip count dump-indices prints for the kernel's loop. */
static char *trips_of(const char *args)
{
	CmdResult r = test_wavecc("dump-indices %s", args);
	ck_assert_msg(r.status == 0, "dump-indices %s: %s", args, r.err);
	const char *p = strstr(r.out, "iterate repeat over K2: ");
	ck_assert_msg(p, "no loop line in: %s", r.out);
	p += strlen("iterate repeat over K2: ");
	const char *e = strstr(p, " trips,");
	ck_assert_ptr_nonnull(e);
	char *s = strndup(p, (size_t)(e - p));
	cmd_result_free(&r);
	return s;
}

#define TRIPS(args, want) \
	do { \
		char *got_ = trips_of(args); \
		ck_assert_msg(strcmp(got_, want) == 0, "%s: %s trips, want %s", args, got_, want); \
		free(got_); \
	} while (0)

START_TEST(causal_loops_stop_at_the_diagonal)
{
	static const char *const cut[] = {
		"vanilla_attention_causal_16x16x16", "vanilla_attention_causal_32x32x8",
		"vanilla_attention_causal_16x16x32_k8", "vanilla_attention_causal_32x32x16_k8",
		"vanilla_attention_causal_sw_16x16x16", "vanilla_attention_causal_sw_32x32x8",
		"bhsd_attention_causal_16x16x16", "bhsd_attention_causal_32x32x16_k8",
	};
	char args[512];
	for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
		snprintf(args, sizeof args, "tests/driver/wave/%s.json -D M=512 -D K2=512", cut[i]);
		TRIPS(args, "2*$WG0 + 2");
	}
	/* more keys than queries' tiles reach: the loop's own count bounds it */
	TRIPS(CAUSAL " -D M=2048 -D K2=1024", "Min(16, 2*$WG0 + 2)");
	/* one workgroup along M: a constant count */
	TRIPS(CAUSAL " -D M=128 -D K2=512", "2");
	/* runtime sizes */
	TRIPS("tests/driver/wave/bhsd_attention_causal_dyn_16x16x16.json", "Min(2*$WG0 + 2, floor(K2/64 + 63/64))");
	/* not causal */
	TRIPS("tests/driver/wave/vanilla_attention_16x16x16.json -D M=512 -D K2=512", "8");
	TRIPS("tests/driver/wave/bshd_attention_custom_mask_16x16x16.json", "4");
}
END_TEST

/* CAUSAL's text with `from` replaced by `to` in the first occurrence after
 * `anchor`, written to a file of the test's scratch folder; its path. */
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
		dir = test_tmpdir("mask_bound");
	snprintf(path, sizeof path, "%s/%s.json", dir, name);
	FILE *o = fopen(path, "w");
	ck_assert_ptr_nonnull(o);
	fprintf(o, "%.*s%s%s", (int)(f - s), s, to, f + strlen(from));
	fclose(o);
	free(s);
	return intern(path);
}

static void uncut(const char *file)
{
	char args[4200];
	snprintf(args, sizeof args, "%s -D M=512 -D K2=512", file);
	TRIPS(args, "8");
}

START_TEST(unproven_loops_keep_their_trips)
{
	/* the baseline the variants change */
	TRIPS(CAUSAL " -D M=512 -D K2=512", "2*$WG0 + 2");
	/* -1000 * 0.18: masked scores 180 below, not 2^16 */
	uncut(variant("weak", "\"name\": \"MIN_INF\"", "-1000000.0", "-1000.0"));
	uncut(variant("anti", "\"name\": \"causal\"", "\"op\": \"ge\"", "\"op\": \"le\""));
	uncut(variant("strict", "\"name\": \"causal\"", "\"op\": \"ge\"", "\"op\": \"gt\""));
	uncut(variant("swapped", "\"name\": \"bias\"", "\"if_true\": \"ZEROF\"", "\"if_true\": \"MIN_INF\""));
	uncut(variant("min", "\"name\": \"m_j\"", "\"op\": \"max\"", "\"op\": \"min\""));
	uncut(variant("sum_scores", "\"name\": \"d_j\"", "\"arg\": \"e_delta\"", "\"arg\": \"x_scaled\""));
}
END_TEST

static void passes(const char *args)
{
	CmdResult r = test_wavecc("run %s --atol 1e-3 --rtol 1e-3", args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS"), "run %s:\n%s%s", args, r.out, r.err);
	ck_assert_msg(!strstr(r.out, "FAIL"), "run %s:\n%s", args, r.out);
	cmd_result_free(&r);
}

#define STRICT "--mcpu gfx90a --wave-order random --wg-order random --fill garbage --memory late --races --canary"

START_TEST(cut_kernels_pass)
{
	passes(CAUSAL " -D B=1 -D M=512 -D K2=512");
	passes(CAUSAL " -D B=1 -D M=512 -D K2=512 " STRICT);
	passes(CAUSAL " -D B=1 -D M=512 -D K2=300");       /* unaligned: split, main loop unmasked */
	passes(CAUSAL " -D B=1 -D M=600 -D K2=1000 " STRICT); /* M past its last tile */
	passes(CAUSAL " -D B=1 -D M=1024 -D K2=256");      /* rows past every key */
	passes("tests/driver/wave/vanilla_attention_causal_32x32x16_k8.json -D B=1 -D M=512 -D K2=448");
	passes("tests/driver/wave/vanilla_attention_causal_sw_16x16x16.json -D B=1 -D M=768 -D K2=768 " STRICT);
	passes("tests/driver/wave/bhsd_attention_causal_dyn_16x16x16.json -D B=1 -D H=2 -D M=384 -D N=64 -D K1=64 "
	       "-D K2=448");
	passes("tests/driver/wave/bhsd_attention_causal_dyn_16x16x16.json -D B=1 -D H=1 -D M=512 -D N=64 -D K1=64 "
	       "-D K2=200 " STRICT);
	passes(variant("strict_run", "\"name\": \"causal\"", "\"op\": \"ge\"", "\"op\": \"gt\""));
	passes(variant("weak_run", "\"name\": \"MIN_INF\"", "-1000000.0", "-1000.0"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("passes/graph/mask_bound");
	TCase *t = tcase_create("mask_bound");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, causal_loops_stop_at_the_diagonal);
	tcase_add_test(t, unproven_loops_keep_their_trips);
	tcase_add_test(t, cut_kernels_pass);
	suite_add_tcase(s, t);
	return run_suite(s);
}
