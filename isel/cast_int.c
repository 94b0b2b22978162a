/* cast_int.c — casts to and from the integer types other than i1 (i8,
 * u8, i16, u16, i32, u32), which elt.c's float casts leave out.
 *
 * Algorithm: every element goes through one 32-bit word.
 *   1. The source element as a word: a float (f32, f16, bf16; the 16-bit
 *      ones through f32, which holds them exactly) by v_cvt_i32_f32, which
 *      truncates toward zero, gives 0 for NaN and saturates to the i32
 *      range — Wave's arith.fptosi, whose out-of-range results MLIR leaves
 *      undefined, as LLVM compiles it for AMDGPU, and the interpreter's
 *      rule (IT_FPTOSI); a narrow integer by v_bfe_i32 or v_bfe_u32 (sign
 *      or zero extension) of its bits, wherever in its dword it lies; a
 *      32-bit integer as it is.
 *   2. The word to the result: a float from a signed word by
 *      v_cvt_f32_i32, from a u32 by v_cvt_f32_u32 (both round to nearest
 *      even, as the interpreter's conversion of the exact value), then as
 *      elt.c casts f32; an integer keeps the word's low bits (a wrap to
 *      the width, the interpreter's rounding to an integer dtype): as the
 *      word when the result holds one element per dword (whose other bits
 *      TVal does not promise), joined by v_perm_b32 into packed dwords
 *      (two 16-bit or four 8-bit elements) otherwise.
 * Requires: the operand's value (any layout; the result keeps it). */
#include "elt.h"

static bool narrow_int(DType t) { return t == DT_I8 || t == DT_U8 || t == DT_I16 || t == DT_U16; }

static bool word_int(DType t) { return t == DT_I32 || t == DT_U32 || narrow_int(t); }

static bool small_float(DType t) { return t == DT_F32 || t == DT_F16 || t == DT_BF16; }

static MOpnd sel_const(Isel *s, uint32_t k)
{
	/* v_perm_b32 is VOP3, which takes no literal on gfx9 */
	MOpnd d = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), u = mo_imm(k);
	mblock_add(s->b, I_S_MOV_B32, 1, &d, 1, &u);
	return d;
}

/* Step 1: element e of a as a 32-bit word. */
static MOpnd to_word(Isel *s, const TVal *a, int64_t e)
{
	if (small_float(a->dtype))
		return isel_elt_op1(s, I_V_CVT_I32_F32, isel_elt_f32(s, a, e));
	MOpnd d = isel_vgpr(s, a->d[isel_elem_dword(a, e)]);
	if (!narrow_int(a->dtype))
		return d;
	uint32_t bits = 8 * (uint32_t)dtype_size(a->dtype), at = bits * (uint32_t)(e % isel_per_dword(a));
	bool sign = a->dtype == DT_I8 || a->dtype == DT_I16;
	return isel_elt_op3(s, sign ? I_V_BFE_I32 : I_V_BFE_U32, d, mo_imm(at), mo_imm(bits));
}

/* Step 2 for an integer result: the words w[0..n) as r's dwords. */
static void pack_words(Isel *s, TVal *r, const MOpnd *w)
{
	int per = isel_per_dword(r);
	MOpnd lo_pairs = {0}, halves = {0};
	for (int i = 0; i < r->nd; i++) {
		int64_t e = (int64_t)i * per;
		if (per == 1) {
			r->d[i] = w[e];
			continue;
		}
		MOpnd x[4];
		for (int j = 0; j < per; j++)
			x[j] = e + j < r->n ? w[e + j] : mo_imm(0);
		if (!halves.kind)
			halves = sel_const(s, 0x05040100u); /* bytes {lo.0, lo.1, hi.0, hi.1} */
		if (per == 2) {
			r->d[i] = isel_elt_op3(s, I_V_PERM_B32, x[1], x[0], halves);
			continue;
		}
		if (!lo_pairs.kind)
			lo_pairs = sel_const(s, 0x0c0c0400u); /* bytes {lo.0, hi.0, 0, 0} */
		MOpnd p0 = isel_elt_op3(s, I_V_PERM_B32, x[1], x[0], lo_pairs);
		MOpnd p1 = isel_elt_op3(s, I_V_PERM_B32, x[3], x[2], lo_pairs);
		r->d[i] = isel_elt_op3(s, I_V_PERM_B32, p1, p0, halves);
	}
}

TVal *isel_cast_int(Isel *s, const TVal *a, DType to)
{
	bool from_f = small_float(a->dtype), to_f = small_float(to);
	if (!(word_int(to) && (from_f || word_int(a->dtype))) && !(to_f && word_int(a->dtype)))
		return NULL;
	MOpnd *w = ARENA_NEWN(&s->c->arena, MOpnd, a->n ? a->n : 1);
	for (int64_t e = 0; e < a->n; e++)
		w[e] = to_word(s, a, e);
	if (to_f) {
		TVal *f = isel_tval_new(s, DT_F32, a->n, a->ix);
		for (int64_t e = 0; e < a->n; e++)
			f->d[e] = isel_elt_op1(s, a->dtype == DT_U32 ? I_V_CVT_F32_U32 : I_V_CVT_F32_I32, w[e]);
		return to == DT_F32 ? f : isel_elt_cast(s, f, to);
	}
	if (!from_f && dtype_size(a->dtype) == 4) /* a fresh register: the result may be loop-carried */
		for (int64_t e = 0; e < a->n; e++)
			w[e] = isel_elt_op1(s, I_V_MOV_B32, w[e]);
	TVal *r = isel_elt_new(s, to, a->n, a->ix);
	pack_words(s, r, w);
	return r;
}
