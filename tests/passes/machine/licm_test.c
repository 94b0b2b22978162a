/* licm_test.c — hoist_invariants (passes/machine/licm.c) on hand-built
 * functions in virtual registers: an add of values defined before the loop
 * (and one fed by it) move to the end of the preheader, before its branch;
 * arithmetic of a value the loop redefines, a vreg defined twice, a
 * carry-writing add and a loop with a second entry stay where they are. */
#include <string.h>

#include "mfb.h"

static MOpnd vr(MFunc *f) { return mo_vreg(mfunc_vreg(f, RC_V1), RC_V1); }

static int find(const MBlock *b, MOp op, uint32_t def)
{
	for (size_t i = 0; i < b->insts.len; i++)
		if (b->insts.data[i].op == op && b->insts.data[i].ndef && b->insts.data[i].def[0].reg == def)
			return (int)i;
	return -1;
}

/* pre: x = tid; s_cmp; s_cbranch_scc0 (a guard); loop: y = x + 4096 (invariant),
 * z = y << 2 (invariant once y is), w = acc + x (acc redefined in the
 * loop), acc = w; a carry add of x; back edge. */
START_TEST(invariant_adds_move_out)
{
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *pre = mfunc_block(f, NULL), *loop = mfunc_block(f, NULL), *after = mfunc_block(f, NULL);
	MOpnd x = vr(f), y = vr(f), z = vr(f), w = vr(f), acc = vr(f), c = vr(f);
	MOpnd tid = mo_preg(0, RC_V1), zero = mo_imm(0);
	mblock_add(pre, I_V_MOV_B32, 1, &x, 1, &tid);
	mblock_add(pre, I_V_MOV_B32, 1, &acc, 1, &zero);
	MOpnd cmp[2] = {mo_imm(0), mo_preg(4, RC_S1)};
	mblock_add(pre, I_S_CMP_LT_I32, 0, NULL, 2, cmp);
	mblock_branch(pre, I_S_CBRANCH_SCC0, 2);
	MOpnd u1[2] = {mo_imm(4096), x}, u2[2] = {mo_imm(2), y}, u3[2] = {acc, x};
	mblock_add(loop, I_V_ADD_U32, 1, &y, 2, u1);
	mblock_add(loop, I_V_LSHLREV_B32, 1, &z, 2, u2);
	mblock_add(loop, I_V_ADD_U32, 1, &w, 2, u3);
	mblock_add(loop, I_V_MOV_B32, 1, &acc, 1, &w);
	MOpnd cd[2] = {c, mo_special(MO_VCC)}, cu[2] = {x, mo_imm(1)};
	mblock_add(loop, I_V_ADD_CO_U32, 2, cd, 2, cu);
	MOpnd sc[2] = {mo_preg(5, RC_S1), mo_imm(8)};
	mblock_add(loop, I_S_CMP_LT_U32, 0, NULL, 2, sc);
	mblock_branch(loop, I_S_CBRANCH_SCC1, 1);
	mblock_add(after, I_S_ENDPGM, 0, NULL, 0, NULL);
	hoist_invariants(f);
	/* y and z now end the preheader, before its branch, in order */
	ck_assert_int_eq(find(pre, I_V_ADD_U32, y.reg), 3);
	ck_assert_int_eq(find(pre, I_V_LSHLREV_B32, z.reg), 4);
	ck_assert_int_eq(pre->insts.data[5].op, I_S_CBRANCH_SCC0);
	ck_assert_int_eq(find(loop, I_V_ADD_U32, y.reg), -1);
	/* what reads acc, acc's copy (defined twice) and the carry add stay */
	ck_assert_int_eq(find(loop, I_V_ADD_U32, w.reg), 0);
	ck_assert_int_eq(find(loop, I_V_MOV_B32, acc.reg), 1);
	ck_assert_int_eq(find(loop, I_V_ADD_CO_U32, c.reg), 2);
	mfunc_free(f);
}
END_TEST

/* A loop block entered by a branch from elsewhere too has no preheader. */
START_TEST(second_entry_keeps_the_loop)
{
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *b0 = mfunc_block(f, NULL), *pre = mfunc_block(f, NULL), *loop = mfunc_block(f, NULL),
	       *after = mfunc_block(f, NULL);
	MOpnd x = vr(f), y = vr(f), tid = mo_preg(0, RC_V1);
	mblock_add(b0, I_V_MOV_B32, 1, &x, 1, &tid);
	MOpnd cmp[2] = {mo_imm(0), mo_preg(4, RC_S1)};
	mblock_add(b0, I_S_CMP_LT_I32, 0, NULL, 2, cmp);
	mblock_branch(b0, I_S_CBRANCH_SCC0, 2); /* straight into the loop */
	mblock_add(pre, I_S_NOP, 0, NULL, 1, (MOpnd[]){mo_imm(0)});
	MOpnd u1[2] = {mo_imm(4096), x};
	mblock_add(loop, I_V_ADD_U32, 1, &y, 2, u1);
	MOpnd sc[2] = {mo_preg(5, RC_S1), mo_imm(8)};
	mblock_add(loop, I_S_CMP_LT_U32, 0, NULL, 2, sc);
	mblock_branch(loop, I_S_CBRANCH_SCC1, 2);
	mblock_add(after, I_S_ENDPGM, 0, NULL, 0, NULL);
	hoist_invariants(f);
	ck_assert_int_eq(find(loop, I_V_ADD_U32, y.reg), 0);
	mfunc_free(f);
}
END_TEST

/* A constant that a loop-carried register takes late in each trip
 * (k = 0 before the loop; loop: s = k + x, then k = 5): every operand is
 * invariant, but k has two definitions, so the first trip must read 0 and
 * the move stays in the loop (an outside mutant that hoisted it,
 * tests/mutants/mutants.sh, passed every other suite). */
START_TEST(redefined_constant_stays)
{
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *pre = mfunc_block(f, NULL), *loop = mfunc_block(f, NULL), *after = mfunc_block(f, NULL);
	MOpnd x = vr(f), k = vr(f), sum = vr(f), tid = mo_preg(0, RC_V1), zero = mo_imm(0), five = mo_imm(5);
	mblock_add(pre, I_V_MOV_B32, 1, &x, 1, &tid);
	mblock_add(pre, I_V_MOV_B32, 1, &k, 1, &zero);
	MOpnd u[2] = {k, x};
	mblock_add(loop, I_V_ADD_U32, 1, &sum, 2, u);
	mblock_add(loop, I_V_MOV_B32, 1, &k, 1, &five);
	MOpnd sc[2] = {mo_preg(5, RC_S1), mo_imm(8)};
	mblock_add(loop, I_S_CMP_LT_U32, 0, NULL, 2, sc);
	mblock_branch(loop, I_S_CBRANCH_SCC1, 1);
	mblock_add(after, I_S_ENDPGM, 0, NULL, 0, NULL);
	hoist_invariants(f);
	ck_assert_int_eq(pre->insts.len, 2);
	ck_assert_int_eq(find(loop, I_V_ADD_U32, sum.reg), 0);
	ck_assert_int_eq(find(loop, I_V_MOV_B32, k.reg), 1);
	mfunc_free(f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("licm");
	TCase *t = tcase_create("licm");
	tcase_add_test(t, invariant_adds_move_out);
	tcase_add_test(t, second_entry_keeps_the_loop);
	tcase_add_test(t, redefined_constant_stays);
	suite_add_tcase(s, t);
	return run_suite(s);
}
