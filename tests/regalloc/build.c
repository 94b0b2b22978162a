/* build.c — hand-built machine functions and helpers shared by the
 * regalloc suite (regalloc_test.c) and its emulator test (kernel.c). */
#include "../test.h"
#include "../../regalloc/regalloc.h"
#include "regalloc_test.h"

MInst *i1(MBlock *b, MOp op, MOpnd d, MOpnd a)
{
	return mblock_add(b, op, 1, &d, 1, &a);
}

MInst *i2(MBlock *b, MOp op, MOpnd d, MOpnd a, MOpnd c)
{
	MOpnd u[2] = {a, c};
	return mblock_add(b, op, 1, &d, 2, u);
}

MInst *i3(MBlock *b, MOp op, MOpnd d, MOpnd a, MOpnd c, MOpnd e)
{
	MOpnd u[3] = {a, c, e};
	return mblock_add(b, op, 1, &d, 3, u);
}

MInst *cmp(MBlock *b, MOp op, MOpnd a, MOpnd c)
{
	MOpnd u[2] = {a, c};
	return mblock_add(b, op, 0, NULL, 2, u);
}

MOpnd vv(uint32_t v) { return mo_vreg(v, RC_V1); }
MOpnd sv(uint32_t v) { return mo_vreg(v, RC_S1); }

/* Verify, allocate keeping the map, verify again and run the checker:
 * everything must be clean. */
void alloc_clean(MFunc *f, RegAssign *ra)
{
	Buf m = {0};
	ck_assert_msg(mir_verify(f, &m) == 0, "before: %s", buf_cstr(&m));
	ck_assert_msg(regalloc_mfunc(f, ra, &m) == 0, "%s", buf_cstr(&m));
	ck_assert_msg(mir_verify(f, &m) == 0, "after: %s", buf_cstr(&m));
	ck_assert_msg(regalloc_check(ra->pre, ra->phys, f, &m) == 0, "%s", buf_cstr(&m));
	ck_assert_msg(!ra->orig || regalloc_check_spills(ra->orig, f, &m) == 0, "%s", buf_cstr(&m));
	buf_free(&m);
}

LoopFn loop_fn(const Target *t)
{
	LoopFn L;
	MFunc *f = L.f = mfunc_new("loop", t);
	MBlock *b0 = mfunc_block(f, NULL), *b1 = mfunc_block(f, ".Lloop"), *b2 = mfunc_block(f, ".Lexit");
	L.tid = mfunc_vreg(f, RC_V1);
	L.acc = mfunc_vreg(f, RC_V1);
	L.i = mfunc_vreg(f, RC_S1);
	L.keep = mfunc_vreg(f, RC_V1);
	L.kernarg = mfunc_vreg(f, RC_S2);
	L.x = mfunc_vreg(f, RC_V2);
	L.acc4 = mfunc_vreg(f, rc_make(RF_AGPR, 4));
	L.p = mfunc_vreg(f, RC_V1);
	mblock_add(b0, I_S_MOV_B64, 1, (MOpnd[]){mo_vreg(L.kernarg, RC_S2)}, 1, (MOpnd[]){mo_preg(0, RC_S2)});
	i1(b0, I_V_MOV_B32, vv(L.tid), mo_preg(0, RC_V1));
	i1(b0, I_V_MOV_B32, vv(L.acc), mo_imm(0));
	i1(b0, I_S_MOV_B32, sv(L.i), mo_imm(0));
	i1(b0, I_V_MOV_B32, vv(L.p), mo_imm(0));
	i2(b0, I_V_ADD_U32, vv(L.keep), mo_imm(7), vv(L.tid));
	for (int k = 0; k < 2; k++)
		i1(b0, I_V_MOV_B32, mo_vsub(L.x, k, RC_V1), mo_imm(0x3c003c00)); /* f16 1.0 pairs */
	for (int k = 0; k < 4; k++)
		i1(b0, I_V_ACCVGPR_WRITE_B32, mo_vsub(L.acc4, k, rc_make(RF_AGPR, 1)), mo_imm(0));
	/* loop: acc += p (last iteration's p; 0 at first); p = i + 2 tid; t3 =
	 * acc + 2 (dead: its register comes back); acc4 += x * x^T (16 per
	 * element); i++ while i < 10. p is read at the top and written later:
	 * it lives around the back edge but not after the loop. */
	L.t = mfunc_vreg(f, RC_V1);
	L.t3 = mfunc_vreg(f, RC_V1);
	i2(b1, I_V_LSHLREV_B32, vv(L.t), mo_imm(1), vv(L.tid));
	i2(b1, I_V_ADD_U32, vv(L.acc), vv(L.acc), vv(L.p));
	i2(b1, I_V_ADD_U32, vv(L.p), sv(L.i), vv(L.t));
	i2(b1, I_V_ADD_U32, vv(L.t3), mo_imm(1), vv(L.acc));
	i2(b1, I_V_ADD_U32, vv(L.t3), mo_imm(1), vv(L.t3));
	RegClass a4 = rc_make(RF_AGPR, 4);
	i3(b1, I_V_MFMA_F32_16X16X16_F16, mo_vreg(L.acc4, a4), mo_vreg(L.x, RC_V2), mo_vreg(L.x, RC_V2),
		mo_vreg(L.acc4, a4));
	i2(b1, I_S_ADD_U32, sv(L.i), sv(L.i), mo_imm(1));
	cmp(b1, I_S_CMP_LT_U32, sv(L.i), mo_imm(10));
	mblock_branch(b1, I_S_CBRANCH_SCC1, 1);
	/* exit: out[tid] = acc + keep; out[64 + tid] = acc4[0] (as f32 bits) */
	L.r = mfunc_vreg(f, RC_V1);
	i2(b2, I_V_ADD_U32, vv(L.r), vv(L.acc), vv(L.keep));
	uint32_t desc = mfunc_vreg(f, RC_S4), off = mfunc_vreg(f, RC_V1), m = mfunc_vreg(f, RC_V1);
	i2(b2, I_S_LOAD_DWORDX2, mo_vsub(desc, 0, RC_S2), mo_vreg(L.kernarg, RC_S2), mo_imm(0));
	i2(b2, I_S_AND_B32, mo_vsub(desc, 1, RC_S1), mo_vsub(desc, 1, RC_S1), mo_imm(0xffff));
	i1(b2, I_S_MOV_B32, mo_vsub(desc, 2, RC_S1), mo_imm(512));
	i1(b2, I_S_MOV_B32, mo_vsub(desc, 3, RC_S1), mo_imm(0x00020000));
	i2(b2, I_V_LSHLREV_B32, vv(off), mo_imm(2), vv(L.tid));
	MInst *st = mblock_add(b2, I_BUFFER_STORE_DWORD, 0, NULL, 4,
		(MOpnd[]){vv(L.r), vv(off), mo_vreg(desc, RC_S4), mo_imm(0)});
	st->flags |= MIF_OFFEN;
	i1(b2, I_V_ACCVGPR_READ_B32, vv(m), mo_vsub(L.acc4, 0, rc_make(RF_AGPR, 1)));
	st = mblock_add(b2, I_BUFFER_STORE_DWORD, 0, NULL, 4, (MOpnd[]){vv(m), vv(off), mo_vreg(desc, RC_S4), mo_imm(0)});
	st->flags |= MIF_OFFEN;
	st->offset = 256;
	mblock_add(b2, I_S_ENDPGM, 0, NULL, 0, NULL);
	return L;
}

