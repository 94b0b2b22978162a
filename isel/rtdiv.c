/* rtdiv.c — unsigned 32-bit division and remainder by a wave-uniform value
 * known only at run time (a runtime size, a product of workgroup counts),
 * for index expressions (expr.c: floor(x / D), Mod(x, D)).
 *
 * The sequence is the one LLVM's AMDGPU backend expands a 32-bit udiv
 * into (AMDGPUCodeGenPrepare::expandDivRem32, AMDGPUTargetLowering::
 * LowerUDIVREM; their comments cite Rodeheffer, "Software Integer
 * Division", 2008): an f32 estimate of 2^32 / d from v_rcp_iflag_f32
 * scaled by 0x4f7ffffe (2^32 - 512: below 2^32, so the conversion does not
 * saturate for d = 1, and far enough below to absorb the estimate's error),
 * one Newton step in integers, z += mulhi(z, -d * z); then q = mulhi(n, z)
 * is low by at most 2, and r = n - q * d with two corrections (r >= d:
 * q + 1, r - d) gives the exact quotient and remainder for every 32-bit n
 * and every d != 0 (math.c's integer division is the same sequence;
 * tests/validate/rtdiv_test.c runs it on edge values against C). The reciprocal depends on d only: rtdiv_recip computes it
 * once per divisor (VALU for the float steps, as the scalar unit has no
 * float, then v_readfirstlane_b32 and SALU for the integer step, as clang
 * does for a uniform divisor); the divisions by it are SALU when the
 * dividend is uniform and VALU per lane otherwise.
 *
 * Divisor 0: the float steps give z = 2^32 - 1 (v_cvt_u32_f32 saturates
 * +inf), nothing traps or loops; the quotient is defined as 0 (selected
 * on d != 0: s_cmp_lg_u32, then s_cselect_b32 on the scalar unit or
 * s_cselect_b64 into vcc and v_cndmask_b32 on the vector unit, as clang
 * selects a uniform condition) and the remainder comes out as n,
 * so n = q * d + r still holds. The interpreter reports such a division as
 * an error; a grid whose digits divide by a count of 0 has no workgroups. */
#include "rtdiv.h"

static MOpnd sreg(Isel *s) { return mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1); }

static MOpnd emit(Isel *s, MOp op, MOpnd d, int nu, MOpnd a, MOpnd b)
{
	MOpnd u[2] = {a, b};
	mblock_add(s->b, op, 1, &d, nu, u);
	return d;
}

/* o in an SGPR (an immediate moved into one) */
static MOpnd in_sgpr(Isel *s, MOpnd o)
{
	return o.kind == MO_IMM ? emit(s, I_S_MOV_B32, sreg(s), 1, o, (MOpnd){0}) : o;
}

static MOpnd s2(Isel *s, MOp op, MOpnd a, MOpnd b) { return emit(s, op, sreg(s), 2, a, b); }
static MOpnd v2(Isel *s, MOp op, MOpnd a, MOpnd b) { return emit(s, op, isel_v1(s), 2, a, b); }
static MOpnd v1(Isel *s, MOp op, MOpnd a) { return emit(s, op, isel_v1(s), 1, a, (MOpnd){0}); }

/* SCC = d != 0 */
static void nonzero(Isel *s, MOpnd d)
{
	MOpnd u[2] = {d, mo_imm(0)};
	mblock_add(s->b, I_S_CMP_LG_U32, 0, NULL, 2, u);
}

void isel_rtdiv_recip(Isel *s, MOpnd d, RtRecip *out)
{
	d = in_sgpr(s, d);
	MOpnd f = v1(s, I_V_RCP_IFLAG_F32, v1(s, I_V_CVT_F32_U32, d));
	MOpnd zv = v1(s, I_V_CVT_U32_F32, v2(s, I_V_MUL_F32, mo_imm(0x4f7ffffe), f));
	MOpnd z0 = emit(s, I_V_READFIRSTLANE_B32, sreg(s), 1, zv, (MOpnd){0});
	MOpnd e = s2(s, I_S_MUL_I32, s2(s, I_S_SUB_I32, mo_imm(0), d), z0); /* -d * z, mod 2^32 */
	out->z = s2(s, I_S_ADD_I32, z0, s2(s, I_S_MUL_HI_U32, z0, e));
	out->d = d;
}

/* n uniform: the scalar unit, each correction an s_cmp_ge_u32 and
 * s_cselect_b32 pair with nothing between them that writes SCC. */
static void divmod_s(Isel *s, MOpnd n, const RtRecip *rc, MOpnd *q, MOpnd *r)
{
	n = in_sgpr(s, n);
	MOpnd qq = s2(s, I_S_MUL_HI_U32, n, rc->z);
	MOpnd rr = s2(s, I_S_SUB_I32, n, s2(s, I_S_MUL_I32, qq, rc->d));
	for (int i = 0; i < 2; i++) {
		bool last = i == 1;
		MOpnd q1 = !last || q ? s2(s, I_S_ADD_I32, qq, mo_imm(1)) : (MOpnd){0};
		MOpnd r1 = !last || r ? s2(s, I_S_SUB_I32, rr, rc->d) : (MOpnd){0};
		MOpnd u[2] = {rr, rc->d};
		mblock_add(s->b, I_S_CMP_GE_U32, 0, NULL, 2, u);
		if (q1.kind)
			qq = s2(s, I_S_CSELECT_B32, q1, qq);
		if (r1.kind)
			rr = s2(s, I_S_CSELECT_B32, r1, rr);
	}
	if (q) {
		nonzero(s, rc->d);
		*q = s2(s, I_S_CSELECT_B32, qq, mo_imm(0));
	}
	if (r)
		*r = rr;
}

/* vcc ? yes : no per lane */
static MOpnd cnd(Isel *s, MOpnd no, MOpnd yes)
{
	MOpnd d = isel_v1(s), u[3] = {no, yes, mo_special(MO_VCC)};
	mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E32;
	return d;
}

/* n per lane: the vector unit, the uniform z and d as SGPR sources. */
static void divmod_v(Isel *s, MOpnd n, const RtRecip *rc, MOpnd *q, MOpnd *r)
{
	MOpnd qq = v2(s, I_V_MUL_HI_U32, n, rc->z);
	MOpnd rr = v2(s, I_V_SUB_U32, n, v2(s, I_V_MUL_LO_U32, qq, rc->d));
	for (int i = 0; i < 2; i++) {
		bool last = i == 1;
		MOpnd d = mo_special(MO_VCC), u[2] = {rc->d, rr}; /* d <= r */
		mblock_add(s->b, I_V_CMP_LE_U32, 1, &d, 2, u)->flags |= MIF_E32;
		if (!last || q)
			qq = cnd(s, qq, v2(s, I_V_ADD_U32, mo_imm(1), qq));
		if (!last || r)
			rr = cnd(s, rr, v2(s, I_V_SUBREV_U32, rc->d, rr)); /* r - d */
	}
	if (q) {
		nonzero(s, rc->d);
		emit(s, I_S_CSELECT_B64, mo_special(MO_VCC), 2, mo_imm(-1), mo_imm(0));
		*q = cnd(s, mo_imm(0), qq);
	}
	if (r)
		*r = rr;
}

void isel_rtdiv_divmod(Isel *s, MOpnd n, const RtRecip *rc, MOpnd *q, MOpnd *r)
{
	if (n.kind == MO_VREG && rc_file(n.rc) == RF_VGPR)
		divmod_v(s, n, rc, q, r);
	else
		divmod_s(s, n, rc, q, r);
}
