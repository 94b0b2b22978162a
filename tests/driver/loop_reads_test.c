/* loop_reads_test.c — what a reduction loop loads in each trip: a global
 * read whose elements do not move with the loop is loaded once before it
 * (moved there by passes/plan/hoist.c), and a prefetched 16-bit tile read
 * across its rows is loaded in blocks (passes/plan/lds_tiles.c) carried as
 * loaded and joined a trip later, where it is written to LDS
 * (isel/lds_stage.c), not at the trip's top (passes/machine/sched.c's
 * carried loads). Wave's vanilla attention has both (its Q tile; its V
 * tile, read across its rows): the loop loads no Q, joins no V after the
 * trip's loads of it, and the kernel passes on both targets,
 * as do the causal and GQA forms. Its mask of the scores past K2
 * (apply_expr(self_index(K2), x < K2) steering a select) is decided by the
 * index ranges where K2 is a multiple of its tile (isel/fold_mask.c): no
 * compare, no select; at K2 = 300 it is computed, and both pass. */
#include <stdlib.h>
#include <string.h>

#include "../test.h"

static CmdResult wavecc(const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

/* The text of the loop that ends in the last backward branch of asm:
 * from its label's line to the branch (asm is changed). */
static char *loop_text(char *as)
{
	char *br = NULL;
	for (char *p = strstr(as, "s_cbranch_scc1 .LBB_"); p; p = strstr(p + 1, "s_cbranch_scc1 .LBB_"))
		br = p;
	ck_assert_ptr_nonnull(br);
	char label[32];
	ck_assert(sscanf(br, "s_cbranch_scc1 %30s", label) == 1);
	char def[40];
	snprintf(def, sizeof def, "\n%s:", label);
	char *top = strstr(as, def);
	ck_assert_ptr_nonnull(top);
	char *end = strchr(br, '\n');
	if (end)
		*end = 0;
	return top;
}

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

START_TEST(attention_loop_loads)
{
	CmdResult r = wavecc(_i ? "compile tests/driver/wave/vanilla_attention_16x16x16.json --mcpu gfx90a -S -o -"
				: "compile tests/driver/wave/vanilla_attention_16x16x16.json -S -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	char *loop = loop_text(r.out);
	size_t before = (size_t)(loop - r.out);
	/* Q: eight dwordx2 loads, all before the loop */
	ck_assert_int_eq(count(loop, "// q_reg"), 0);
	char *head = strndup(r.out, before);
	ck_assert_int_ge(count(head, "buffer_load_dwordx2"), 8);
	free(head);
	/* V: loaded a trip ahead in blocks of 4 rows by 4 columns (no load
	 * of one element), joined where written, not after its loads nor
	 * at the trip's top, where they would wait for the loads */
	ck_assert_int_eq(count(r.out, "buffer_load_ushort"), 0);
	char *last = NULL;
	for (char *p = strstr(loop, "buffer_load_dwordx2"); p; p = strstr(p + 1, "buffer_load_dwordx2"))
		last = p;
	ck_assert_ptr_nonnull(last);
	ck_assert_int_ge(count(loop, "buffer_load_dwordx2") - count(last, "buffer_load_dwordx2"), 3);
	ck_assert_int_eq(count(last, "v_perm_b32"), 0);
	ck_assert_int_ge(count(loop, "v_perm_b32"), 8);
	ck_assert(strstr(loop, "v_mfma") < strstr(loop, "v_perm_b32"));
	cmd_result_free(&r);
}
END_TEST

START_TEST(attention_mask_folds_when_aligned)
{
	CmdResult r = wavecc("compile tests/driver/wave/vanilla_attention_16x16x16.json -S -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq(count(r.out, "v_cmp_gt_i32"), 0);
	cmd_result_free(&r);
	r = wavecc("compile tests/driver/wave/vanilla_attention_16x16x16.json -D K2=300 -S -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_ge(count(r.out, "v_cmp_gt_i32"), 16);
	cmd_result_free(&r);
}
END_TEST

static const char *const attention[] = {
	"tests/driver/wave/vanilla_attention_16x16x16.json -D B=2",
	"tests/driver/wave/vanilla_attention_16x16x16.json -D B=1 -D K2=320 --schedule none",
	"tests/driver/wave/vanilla_attention_16x16x16.json -D B=1 -D K2=300",
	/* V in blocks of 2 rows (16-key tiles), padded, with a masked tail */
	"tests/driver/wave/vanilla_attention_16x16x16.json -D B=1 -D K2=200 -D BLOCK_K2=16",
	"tests/driver/wave/vanilla_attention_causal_32x32x8.json -D B=2",
	"tests/driver/wave/gqa_bshd_attention_16x16x16.json -D H=2 -D N_Q=320 -D N_KV=320",
};

/* An 8-bit tile read across its rows (b stored K by N) is loaded one byte
 * per element and joined by v_perm_b32 byte inserts, which are not pairs
 * of 16-bit halves: pf_pack.c must leave them where they are. */
START_TEST(byte_tile_passes)
{
	CmdResult r = wavecc("run tests/driver/data/gemm_i8_kn_prefetch.json --mcpu gfx90a --seed 7");
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

START_TEST(attention_passes)
{
	char args[512];
	snprintf(args, sizeof args, "run %s --atol 1e-3 --rtol 1e-3 --mcpu %s --seed %d", attention[_i / 2],
		_i % 2 ? "gfx90a" : "gfx942", 70 + _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: %s%s", args, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.loop_reads");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 300);
	tcase_add_loop_test(t, attention_loop_loads, 0, 2);
	tcase_add_test(t, attention_mask_folds_when_aligned);
	tcase_add_loop_test(t, attention_passes, 0, (int)(2 * ARRAY_LEN(attention)));
	tcase_add_test(t, byte_tile_passes);
	suite_add_tcase(s, t);
	return run_suite(s);
}
