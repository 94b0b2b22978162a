/* cost_test.c — the main loop of Wave's vanilla attention (16x16x16, the
 * configuration of bench/attention_report.c) keeps the savings of issue
 * 13's cost work, counted in the assembly `wavecc compile -S` prints (the
 * loop: from the label of a backward branch to the branch):
 *   - each first MFMA of the first MMA reads srcC = 0 and no move zeroes
 *     a register,
 *   - at most 16 moves in all (256 before; copies into store pairs,
 *     temporaries and the loop-carried accumulator are folded or renamed
 *     away before allocation: regalloc/coalesce.c; the prefetch schedule
 *     copies its carried registers),
 *   - no compare of a mask word back into vcc (selects read the SGPR pair),
 *   - no s_nop in the exp2 blocks (their compares interleaved),
 *   - at most 168 VGPRs, 3 waves per SIMD (a shared VGPR per `register`
 *     constant; the prefetch schedule's carried registers).
 * Each bound is what the code does now with a little room; a change that
 * brings a waste back fails here, not only in bench figures.
 * The loop is compiled with the default (prefetch) schedule, whose V tile
 * adds 8 copies into the ds_write_b64 pairs (its 16-bit halves joined
 * into single VGPRs first): hence 16 moves, not 8. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test.h"

/* The loop's lines (a heap copy) of the gfx942 or gfx90a assembly. */
static char *loop_of(const char *mcpu, int *vgprs)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		"cd '%s' && '%s' compile tests/driver/wave/vanilla_attention_16x16x16.json --mcpu %s -S -o - "
		"-D B=2 -D M=128 -D N=128 -D K1=64 -D K2=256",
		test_root(), test_bin(), mcpu);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s: status %d\n%s", cmd, r.status, r.err);
	const char *v = strstr(r.out, ".vgpr_count:");
	ck_assert_msg(v != NULL, "no .vgpr_count in the assembly");
	*vgprs = atoi(v + strlen(".vgpr_count:"));
	/* the loop: the block a backward s_cbranch_scc1 goes to (its label
	 * number depends on the blocks before it, e.g. a prefetch prologue) */
	const char *b = NULL, *a = NULL;
	for (const char *p = strstr(r.out, "s_cbranch_scc1 .LBB_"); p && !a; p = strstr(p + 1, "s_cbranch_scc1 .LBB_")) {
		char label[32];
		snprintf(label, sizeof label, "\n.LBB_%d:", atoi(p + strlen("s_cbranch_scc1 .LBB_")));
		const char *l = strstr(r.out, label);
		if (l && l < p) {
			a = l;
			b = p;
		}
	}
	ck_assert_msg(a && b, "no loop (a backward s_cbranch_scc1) in the assembly");
	char *loop = strndup(a, (size_t)(b - a));
	cmd_result_free(&r);
	return loop;
}

/* Lines of text containing needle. */
static int count(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Lines of text that are MFMAs reading srcC = 0 (`v_mfma... v[..], 0`). */
static int mfma_zero_acc(const char *text)
{
	int n = 0;
	for (const char *p = strstr(text, "v_mfma"); p; p = strstr(p + 1, "v_mfma")) {
		const char *e = strchr(p, '\n');
		n += e && e - p > 4 && strncmp(e - 4, "], 0", 4) == 0;
	}
	return n;
}

/* Is there a line `v_mov_b32 vN, 0`? */
static bool zeroing_move(const char *text)
{
	for (const char *p = strstr(text, "v_mov_b32 v"); p; p = strstr(p + 1, "v_mov_b32 v")) {
		const char *e = strchr(p, '\n'), *c = strchr(p, ',');
		if (c && e && c < e && strncmp(c, ", 0\n", 4) == 0)
			return true;
	}
	return false;
}

/* Lines from the `// NOTE` comment to the next comment. */
static char *section(const char *loop, const char *note)
{
	char key[64];
	snprintf(key, sizeof key, "// %s\n", note);
	const char *a = strstr(loop, key);
	ck_assert_msg(a != NULL, "no %s section in the loop", note);
	const char *b = strstr(a + strlen(key), "// ");
	return strndup(a, b ? (size_t)(b - a) : strlen(a));
}

static const char *const targets[] = {"gfx942", "gfx90a"};

START_TEST(vanilla_attention_loop)
{
	int vgprs;
	char *loop = loop_of(targets[_i], &vgprs);
	char *exp = section(loop, "e_delta");
	/* one per accumulator copy of the first MMA (2 x 4 tuples per wave) */
	ck_assert_msg(mfma_zero_acc(loop) == 8, "%s: the first MMA's 8 first MFMAs should read srcC = 0", targets[_i]);
	ck_assert_msg(!zeroing_move(loop), "%s: a register zeroed by a move in the loop", targets[_i]);
	ck_assert_int_eq(count(loop, "v_cmp_ne_u32"), 0);
	ck_assert_int_eq(count(exp, "s_nop"), 0);
	/* 2 now: the running max and sum back into their loop-carried
	 * registers (the accumulator's 32 copies are renamed away) */
	ck_assert_int_le(count(loop, "v_mov_b32"), 16); /* 8 of them the prefetched global reads' carried copies */
	ck_assert_int_le(vgprs, 168);
	free(exp), free(loop);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver/cost");
	TCase *tc = tcase_create("attention");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, vanilla_attention_loop, 0, 2);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
