/* expr_piecewise.c — index expressions Piecewise((v1, c1), ..., (vn, True))
 * whose conditions vary per lane (Wave's T5 relative position bias: the
 * rpe offset m - k2 where 0 <= m - k2 < max, else max).
 *
 * Lowered back to front: r = vn; then for each earlier branch r = ci ? vi
 * : r, one v_cndmask_b32 each, ci the lane mask of its relations (an And of
 * relations, each compiled as bounds are: isel_expr_conds_mask). The values
 * are lowered before the mask is built, so nothing clobbers vcc between the
 * compare and the select. Contract: the last condition is True (the
 * expression has a value everywhere), conditions are relations or And of
 * relations other than == and != (what isel_expr_cond_to_vcc compiles);
 * any other form is reported at loc as not compiled. */
#include "elt.h"

/* The relations of c (an And of them, or one) into out; false if c has
 * another form or more than max of them. */
static bool relations(Sym *c, Sym **out, int *n, int max)
{
	if (sym_kind(c) == SYM_AND) {
		for (int i = 0; i < sym_nargs(c); i++)
			if (!relations(sym_arg(c, i), out, n, max))
				return false;
		return true;
	}
	SymKind k = sym_kind(c);
	if (!sym_kind_is_rel(k) || k == SYM_EQ || k == SYM_NE || *n >= max)
		return false;
	out[(*n)++] = c;
	return true;
}

MOpnd isel_expr_piecewise(Isel *s, Sym *e, Loc loc)
{
	SymCtx *sc = s->c->k->sc;
	int nb = sym_nargs(e) / 2;
	if (nb < 1 || sym_kind(sym_arg(e, 2 * nb - 1)) != SYM_TRUE) {
		analysis_error(s->c, loc, "index expression %s: a Piecewise without a last True branch is not "
					  "compiled", sym_str(sc, e));
		return mo_imm(0);
	}
	MOpnd r = isel_expr_lower(s, sym_arg(e, 2 * nb - 2), loc);
	for (int b = nb - 2; b >= 0 && !s->c->failed; b--) {
		Sym *rel[MAX_DIMS * 2];
		int n = 0;
		if (!relations(sym_arg(e, 2 * b + 1), rel, &n, MAX_DIMS * 2)) {
			analysis_error(s->c, loc, "index expression %s: condition %s is not compiled yet (relations "
						  "other than == and !=, and And of them, are)",
				sym_str(sc, e), sym_str(sc, sym_arg(e, 2 * b + 1)));
			return mo_imm(0);
		}
		MOpnd yes = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_arg(e, 2 * b), loc));
		MOpnd no = isel_expr_to_vgpr(s, r);
		uint32_t mask;
		bool in_vcc;
		isel_expr_conds_mask(s, n, rel, loc, &mask, &in_vcc);
		if (s->c->failed)
			return mo_imm(0);
		if (!in_vcc) {
			MOpnd d = mo_special(MO_VCC), u = mo_vreg(mask, RC_S2);
			mblock_add(s->b, I_S_MOV_B64, 1, &d, 1, &u);
		}
		r = isel_elt_cnd(s, no, yes);
	}
	return r;
}
