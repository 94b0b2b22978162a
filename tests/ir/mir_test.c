/* mir_test.c — the machine IR's CFG (successors of blocks ending in
 * branches) and the printer's branch and DPP spellings. */
#include <string.h>

#include "../test.h"
#include "../../ir/mir.h"

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

int main(void)
{
	Suite *s = suite_create("mir");
	TCase *t = tcase_create("core");
	tcase_add_test(t, successors_follow_branches_and_fallthrough);
	tcase_add_test(t, dpp_prints_llvm_mc_modifiers);
	suite_add_tcase(s, t);
	return run_suite(s);
}
