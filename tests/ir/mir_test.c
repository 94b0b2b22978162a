/* mir_test.c — the machine IR's CFG (successors of blocks ending in
 * branches), the printer's branch and DPP spellings, and its liveness
 * (mir_live.c: tied defs, steps that agree with the block sets; the
 * allocator's suite, tests/regalloc, covers loops and partial defs). */
#include <string.h>

#include "../test.h"
#include "../../ir/mir.h"
#include "../../ir/mir_live.h"

START_TEST(successors_follow_branches_and_fallthrough)
{
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *b0 = mfunc_block(f, NULL), *b1 = mfunc_block(f, ".Lloop"), *b2 = mfunc_block(f, NULL);
	MOpnd d = mo_preg(4, RC_S1), u = mo_imm(0);
	mblock_add(b0, I_S_MOV_B32, 1, &d, 1, &u);
	MOpnd a[2] = {mo_preg(4, RC_S1), mo_imm(1)};
	mblock_add(b1, I_S_ADD_U32, 1, &d, 2, a);
	MOpnd c[2] = {mo_preg(4, RC_S1), mo_imm(8)};
	mblock_add(b1, I_S_CMP_LT_U32, 0, NULL, 2, c);
	mblock_branch(b1, I_S_CBRANCH_SCC1, 1);
	mblock_add(b2, I_S_ENDPGM, 0, NULL, 0, NULL);
	int s[2];
	ck_assert_int_eq(mfunc_succs(f, 0, s), 1);
	ck_assert_int_eq(s[0], 1);
	ck_assert_int_eq(mfunc_succs(f, 1, s), 2);
	ck_assert_int_eq(s[0], 1);
	ck_assert_int_eq(s[1], 2);
	ck_assert_int_eq(mfunc_succs(f, 2, s), 0);
	Buf t = {0};
	mir_print(&t, f);
	ck_assert_msg(strstr(buf_cstr(&t), ".Lloop:\n") && strstr(buf_cstr(&t), "s_cbranch_scc1 .Lloop\n") &&
			      strstr(buf_cstr(&t), ".LBB_2:\n"),
		"%s", buf_cstr(&t));
	buf_free(&t);
	mfunc_free(f);
}
END_TEST

START_TEST(dpp_prints_llvm_mc_modifiers)
{
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	MOpnd d = mo_preg(1, RC_V1), u[2] = {mo_preg(2, RC_V1), mo_preg(3, RC_V1)};
	MInst *in = mblock_add(b, I_V_ADD_F32, 1, &d, 2, u);
	in->dpp = 0xb1; /* quad_perm [1,0,3,2] */
	in = mblock_add(b, I_V_MAX_F32, 1, &d, 2, u);
	in->dpp = 0x143;
	Buf t = {0};
	mir_print(&t, f);
	ck_assert_msg(strstr(buf_cstr(&t), "v_add_f32_dpp v1, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n") &&
			      strstr(buf_cstr(&t), "v_max_f32_dpp v1, v2, v3 row_bcast:31 row_mask:0xf bank_mask:0xf\n"),
		"%s", buf_cstr(&t));
	buf_free(&t);
	mfunc_free(f);
}
END_TEST

/* Stepping back from each block's exit set through its instructions gives
 * its entry set. */
static void steps_agree_with_blocks(const MFunc *f, const MirLive *lv)
{
	uint64_t *set = xcalloc(lv->words, sizeof *set);
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *b = f->blocks.data[bi];
		memcpy(set, lv->out + bi * lv->words, lv->words * sizeof *set);
		for (size_t i = b->insts.len; i-- > 0;)
			mir_live_step(lv, set, &b->insts.data[i]);
		ck_assert_msg(memcmp(set, lv->in + bi * lv->words, lv->words * sizeof *set) == 0, "block %zu", bi);
	}
	free(set);
}

START_TEST(liveness_tied_defs_read_what_they_keep)
{
	/* b0: l = 0; s = 0
	 * b1: writelane l[lane 3] = s (tied: the other lanes stay); s += 1; loop while s < 8
	 * b2: t = l; end */
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *b0 = mfunc_block(f, NULL), *b1 = mfunc_block(f, ".Lloop"), *b2 = mfunc_block(f, NULL);
	uint32_t l = mfunc_vreg(f, RC_V1), sc = mfunc_vreg(f, RC_S1), t = mfunc_vreg(f, RC_V1);
	MOpnd vl = mo_vreg(l, RC_V1), vs = mo_vreg(sc, RC_S1), vt = mo_vreg(t, RC_V1), zero = mo_imm(0);
	mblock_add(b0, I_V_MOV_B32, 1, &vl, 1, &zero);
	mblock_add(b0, I_S_MOV_B32, 1, &vs, 1, &zero);
	MInst *wl = mblock_add(b1, I_V_WRITELANE_B32, 1, &vl, 2, (MOpnd[]){vs, mo_imm(3)});
	wl->flags |= MIF_TIED;
	mblock_add(b1, I_S_ADD_U32, 1, &vs, 2, (MOpnd[]){vs, mo_imm(1)});
	mblock_add(b1, I_S_CMP_LT_U32, 0, NULL, 2, (MOpnd[]){vs, mo_imm(8)});
	mblock_branch(b1, I_S_CBRANCH_SCC1, 1);
	mblock_add(b2, I_V_MOV_B32, 1, &vt, 1, &vl);
	mblock_add(b2, I_S_ENDPGM, 0, NULL, 0, NULL);
	MirLive lv;
	mir_live_fill(&lv, f);
	uint32_t first;
	ck_assert_int_eq(mir_live_opnd(&lv, vl, &first), 1);
	ck_assert_uint_eq(first, lv.vbase[l]);
	ck_assert_int_eq(mir_live_opnd(&lv, zero, &first), 0);
	/* the tied def reads l: live into the loop and around it */
	ck_assert(bs_get(lv.in + 1 * lv.words, lv.vbase[l]) && bs_get(lv.out + 1 * lv.words, lv.vbase[l]));
	ck_assert(bs_get(lv.out, lv.vbase[l]) && !bs_get(lv.in, lv.vbase[l]));
	ck_assert(!bs_get(lv.in + 2 * lv.words, lv.vbase[t]));
	steps_agree_with_blocks(f, &lv);
	mir_live_free(&lv);
	/* untied, the write kills l: not live into the loop */
	wl->flags &= ~(uint32_t)MIF_TIED;
	mir_live_fill(&lv, f);
	ck_assert(!bs_get(lv.in + 1 * lv.words, lv.vbase[l]) && bs_get(lv.out + 1 * lv.words, lv.vbase[l]));
	ck_assert(bs_get(lv.in + 1 * lv.words, lv.vbase[sc]));
	steps_agree_with_blocks(f, &lv);
	mir_live_free(&lv);
	mfunc_free(f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("mir");
	TCase *t = tcase_create("core");
	tcase_add_test(t, successors_follow_branches_and_fallthrough);
	tcase_add_test(t, dpp_prints_llvm_mc_modifiers);
	tcase_add_test(t, liveness_tied_defs_read_what_they_keep);
	suite_add_tcase(s, t);
	return run_suite(s);
}
