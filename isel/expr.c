/* expr.c — lowering of symbolic index expressions to machine arithmetic.
 *
 * Uniformity: an expression is wave-uniform when none of its free symbols
 * is a work-item id ($T0..$T2); uniform values are computed once per wave in
 * SGPRs with SALU instructions, per-lane values in VGPRs with VALU ones (a
 * uniform operand feeds a VALU instruction directly as an SGPR source).
 * The loop induction variable ($ARG<dim>) is the loop's S1 counter; an
 * expression that does not mention it is emitted in the block before the
 * loop (loop-invariant code motion for free), one that does in the body.
 * Shapes handled: integers, $WGg and $Tg, sums, products by constants
 * (shifts for powers of two), products of values, floor(x / 2^k) and
 * Mod(x, 2^k), floor, ceiling and Mod by other constants (magic multiply) and, for
 * x >= 0, by a wave-uniform value known at run time (rtdiv.c; one that
 * changes with a loop's trip gets its reciprocal in the loop, outside
 * exec-masked bodies; non-negative by structure, or by evaluating it at
 * every workgroup id and trip the code runs at: enum_nonneg), and
 * Piecewise with per-lane conditions (a select per branch) or uniform ones
 * (s_cmp and s_cselect_b32), and Xor (the
 * LDS swizzle, lds_layout.c) as v_xor_b32. Each distinct subexpression is lowered once per kernel
 * (a cache keyed by the hash-consed Sym pointer), so accesses share their
 * address arithmetic. Other forms are reported as not compiled yet.
 * Arithmetic is 32-bit: indices.c rejects tensors of 2^31 elements or more. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtdiv.h"

static bool is_lane_sym(const Sym *e)
{
	return sym_kind(e) == SYM_SYMBOL && strncmp(sym_name(e), "$T", 2) == 0;
}

static bool depends_on_lane(const Sym *e)
{
	if (is_lane_sym(e) || isel_is_dyn_sym(e)) /* a dynamic value (dynmap.c) is per lane */
		return true;
	for (int i = 0; i < sym_nargs(e); i++)
		if (depends_on_lane(sym_arg(e, i)))
			return true;
	return false;
}

void isel_expr_split(Isel *s, Sym *e, Sym **lane, Sym **uni)
{
	SymCtx *sc = s->c->k->sc;
	*lane = sym_int(sc, 0);
	*uni = sym_int(sc, 0);
	int n = sym_kind(e) == SYM_ADD ? sym_nargs(e) : 1;
	for (int i = 0; i < n; i++) {
		Sym *t = sym_kind(e) == SYM_ADD ? sym_arg(e, i) : e;
		if (depends_on_lane(t))
			*lane = sym_add(sc, *lane, t);
		else
			*uni = sym_add(sc, *uni, t);
	}
}

static MOpnd newreg(Isel *s, bool vector)
{
	RegClass rc = vector ? RC_V1 : RC_S1;
	return mo_vreg(mfunc_vreg(s->f, rc), rc);
}

static bool is_v(MOpnd o) { return o.kind == MO_VREG && rc_file(o.rc) == RF_VGPR; }

MOpnd isel_expr_to_sgpr(Isel *s, MOpnd o)
{
	if (o.kind != MO_IMM)
		return o;
	MOpnd d = newreg(s, false);
	mblock_add(s->b, I_S_MOV_B32, 1, &d, 1, &o);
	return d;
}

MOpnd isel_expr_to_vgpr(Isel *s, MOpnd o)
{
	if (is_v(o))
		return o;
	MOpnd d = newreg(s, true);
	mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &o);
	return d;
}

/* Work-item id g: v0 packs x in bits 9:0, y in 19:10, z in 29:20. */
static MOpnd tid(Isel *s, int g)
{
	if (s->tid[g] != UINT32_MAX)
		return mo_vreg(s->tid[g], RC_V1);
	/* in the entry block, which dominates every use (a first use in a
	 * nested loop's preheader would not dominate the outer one's) */
	MBlock *b = s->f->blocks.data[0];
	MOpnd d = newreg(s, true);
	if (g == 0) {
		MOpnd u[2] = {mo_imm(0x3ff), mo_vreg(s->tid_raw, RC_V1)};
		mblock_add(b, I_V_AND_B32, 1, &d, 2, u);
	} else {
		MOpnd u[3] = {mo_vreg(s->tid_raw, RC_V1), mo_imm(10 * g), mo_imm(10)};
		mblock_add(b, I_V_BFE_U32, 1, &d, 3, u);
	}
	s->tid[g] = d.reg;
	return d;
}

/* d = a OP b with the SALU or VALU form by uniformity. VOP2 needs its VGPR
 * operand second; callers pass commutative ops or the right order. */
static MOpnd binop(Isel *s, MOp sop, MOp vop, MOpnd a, MOpnd b)
{
	bool v = is_v(a) || is_v(b);
	if (v && is_v(a) && !is_v(b)) {
		MOpnd t = a;
		a = b;
		b = t;
	}
	/* VOP3 rows (v_mul_lo_u32) take inline constants only: a literal goes
	 * through an SGPR (uniform, so it is hoisted like any constant). */
	if (v && isa_info[vop].fmt == FMT_VOP3 && a.kind == MO_IMM && (a.imm < -16 || a.imm > 64)) {
		MBlock *save = s->b;
		if (s->pre)
			s->b = s->pre;
		a = isel_expr_to_sgpr(s, a);
		s->b = save;
	}
	MOpnd d = newreg(s, v), u[2] = {a, b};
	mblock_add(s->b, v ? vop : sop, 1, &d, 2, u);
	return d;
}

static int log2_exact(int64_t k)
{
	if (k <= 0 || (k & (k - 1)))
		return -1;
	int n = 0;
	while ((1LL << n) < k)
		n++;
	return n;
}

static MOpnd lower(Isel *s, Sym *e, Loc loc);
static MOpnd fold(Isel *s, Sym *e, Loc loc, MOp sop, MOp vop);

/* x shifted by k: vop (VALU, the count first) for a per-lane x, sop
 * (SALU) for a uniform one. */
static MOpnd shift(Isel *s, MOpnd x, int k, MOp vop, MOp sop)
{
	MOpnd d = newreg(s, is_v(x));
	if (is_v(x)) {
		MOpnd u[2] = {mo_imm(k), x};
		mblock_add(s->b, vop, 1, &d, 2, u);
	} else {
		MOpnd u[2] = {x, mo_imm(k)};
		mblock_add(s->b, sop, 1, &d, 2, u);
	}
	return d;
}

/* k * x for an integer k. */
static MOpnd scale(Isel *s, MOpnd x, int64_t k)
{
	if (k == 1)
		return x;
	if (x.kind == MO_IMM)
		return mo_imm(x.imm * k);
	int sh = log2_exact(k);
	if (sh >= 0)
		return shift(s, x, sh, I_V_LSHLREV_B32, I_S_LSHL_B32);
	return binop(s, I_S_MUL_I32, I_V_MUL_LO_U32, mo_imm(k), x);
}

/* A runtime size: its 32-bit kernel argument after the buffer pointers,
 * loaded once in the entry block (which dominates every use). */
static MOpnd runtime_arg(Isel *s, Sym *e)
{
	int pos = analysis_runtime_arg(s->c->k, e, NULL);
	if (s->dyn[pos] == UINT32_MAX) {
		MBlock *save = s->b;
		s->b = s->f->blocks.data[0];
		s->dyn[pos] = mfunc_vreg(s->f, RC_S1);
		MOpnd d = mo_vreg(s->dyn[pos], RC_S1);
		isel_kernarg_load(s, I_S_LOAD_DWORD, d, 8 * (int64_t)s->c->k->args.len + 4 * pos);
		s->b = save;
	}
	return mo_vreg(s->dyn[pos], RC_S1);
}

/* The lcm of the denominators of e's rational coefficients (1 for an
 * integer-valued form; 0 if it grows past 2^30). */
/* floor(a / d) for a >= 0 held in a register (wave-uniform: SALU, per
 * lane: VALU) and a constant d > 2 that is not a power of two, by a magic
 * reciprocal (Granlund and Montgomery, "Division by Invariant Integers
 * using Multiplication", 1994, figure 4.1): with l = ceil(log2 d) and
 * m = floor(2^32 (2^l - d) / d) + 1, t = mulhi(m, a) and
 * q = (t + ((a - t) >> 1)) >> (l - 1), exact for every 32-bit a. */
static MOpnd udiv_const(Isel *s, MOpnd a, int64_t d)
{
	int l = 0;
	while ((INT64_C(1) << l) < d)
		l++;
	uint32_t magic = (uint32_t)((((UINT64_C(1) << 32) * (uint64_t)((INT64_C(1) << l) - d)) / (uint64_t)d) + 1);
	bool v = is_v(a);
	MOpnd t = binop(s, I_S_MUL_HI_U32, I_V_MUL_HI_U32, mo_imm(magic), a);
	MOpnd dx = binop(s, I_S_SUB_U32, I_V_SUB_U32, a, t);
	MOpnd h = newreg(s, v);
	if (v) {
		MOpnd u[2] = {mo_imm(1), dx};
		mblock_add(s->b, I_V_LSHRREV_B32, 1, &h, 2, u);
	} else {
		MOpnd u[2] = {dx, mo_imm(1)};
		mblock_add(s->b, I_S_LSHR_B32, 1, &h, 2, u);
	}
	MOpnd sum = binop(s, I_S_ADD_U32, I_V_ADD_U32, t, h);
	MOpnd q = newreg(s, v);
	if (v) {
		MOpnd u[2] = {mo_imm(l - 1), sum};
		mblock_add(s->b, I_V_LSHRREV_B32, 1, &q, 2, u);
	} else {
		MOpnd u[2] = {sum, mo_imm(l - 1)};
		mblock_add(s->b, I_S_LSHR_B32, 1, &q, 2, u);
	}
	return q;
}

/* a >> k, arithmetic: floor(a / 2^k) for a signed 32-bit a. */
static MOpnd ashr(Isel *s, MOpnd a, int k) { return shift(s, a, k, I_V_ASHRREV_I32, I_S_ASHR_I32); }

static int64_t denominator(Sym *e)
{
	SymRat r;
	if (sym_is_num(e, &r))
		return r.q;
	if (sym_kind(e) == SYM_MUL)
		return sym_is_num(sym_arg(e, 0), &r) ? r.q : 1;
	if (sym_kind(e) != SYM_ADD)
		return 1;
	int64_t l = 1;
	for (int i = 0; i < sym_nargs(e); i++) {
		int64_t d = denominator(sym_arg(e, i)), a = l, b = d;
		if (!d)
			return 0;
		while (b) {
			int64_t t = a % b;
			a = b;
			b = t;
		}
		l = l / a * d;
		if (l > (1 << 30))
			return 0;
	}
	return l;
}

/* Does a term of m (a sum's term or m itself) have a factor x^-k? */
static bool has_neg_pow(Sym *m)
{
	int nt = sym_kind(m) == SYM_ADD ? sym_nargs(m) : 1;
	for (int i = 0; i < nt; i++) {
		Sym *t = sym_kind(m) == SYM_ADD ? sym_arg(m, i) : m;
		int nf = sym_kind(t) == SYM_MUL ? sym_nargs(t) : 1;
		for (int j = 0; j < nf; j++) {
			Sym *f = sym_kind(t) == SYM_MUL ? sym_arg(t, j) : t;
			int64_t ex;
			if (sym_kind(f) == SYM_POW && sym_is_int(sym_arg(f, 1), &ex) && ex < 0)
				return true;
		}
	}
	return false;
}

enum { MAX_DIV_BASES = 8 };

/* m = x / D with x an integer-coefficient form without negative powers and
 * D the product of m's inverse factors (each base to its largest inverse
 * power) and its coefficients' denominators: floor((W + 3) / (B * H)) has
 * x = W + 3, D = B * H. False if m has no such split. */
static bool split_quotient(Isel *s, Sym *m, Sym **x, Sym **D)
{
	SymCtx *sc = s->c->k->sc;
	Sym *base[MAX_DIV_BASES];
	int64_t pw[MAX_DIV_BASES];
	int nb = 0;
	int nt = sym_kind(m) == SYM_ADD ? sym_nargs(m) : 1;
	for (int i = 0; i < nt; i++) {
		Sym *t = sym_kind(m) == SYM_ADD ? sym_arg(m, i) : m;
		int nf = sym_kind(t) == SYM_MUL ? sym_nargs(t) : 1;
		for (int j = 0; j < nf; j++) {
			Sym *f = sym_kind(t) == SYM_MUL ? sym_arg(t, j) : t;
			int64_t ex;
			if (sym_kind(f) != SYM_POW || !sym_is_int(sym_arg(f, 1), &ex) || ex >= 0)
				continue;
			int b = 0;
			while (b < nb && base[b] != sym_arg(f, 0))
				b++;
			if (b == nb) {
				if (nb == MAX_DIV_BASES)
					return false;
				base[nb] = sym_arg(f, 0);
				pw[nb++] = 0;
			}
			pw[b] = MAX(pw[b], -ex);
		}
	}
	int64_t q = denominator(m);
	if (!nb || !q)
		return false;
	*D = sym_int(sc, q);
	for (int b = 0; b < nb; b++)
		*D = sym_mul(sc, *D, sym_pow(sc, base[b], sym_int(sc, pw[b])));
	*x = sym_simplify(sc, sym_mul(sc, m, *D), NULL);
	return !has_neg_pow(*x) && denominator(*x) == 1;
}

/* Is e >= 0 for every assignment the assumptions allow? The simplifier's
 * answer, else by structure: sums and products of such terms (non-negative
 * coefficients), and floor, inverse powers and Mod of such operands (the
 * simplifier cannot tell Mod(x, D) >= 0 for a symbolic D; rt_divmod's
 * Mod(x, D) lies in [0, D) for D > 0 and is x for D = 0). */
static bool enum_nonneg(Isel *s, Sym *e);

static bool nonneg_struct(Isel *s, Sym *e);

/* e >= 0 is (or follows from) a relation of the uniform Piecewise branch
 * being lowered: its value is used only where they hold (Wave's grouped
 * workgroup order divides the id past the full groups, x >= 0 its branch's
 * condition) */
static bool guarded_nonneg(Isel *s, Sym *e)
{
	for (int i = 0; i < s->nguard; i++) {
		Sym *r = s->guard[i];
		SymKind k = sym_kind(r);
		int64_t z;
		/* relations are canonical `x OP 0`, x their one argument */
		if ((k == SYM_GE || k == SYM_GT) && sym_arg(r, 0) == e &&
		    (sym_nargs(r) == 1 || (sym_is_int(sym_arg(r, 1), &z) && z == 0))) {
			s->guard_used = true;
			return true;
		}
	}
	return false;
}

static bool proven_nonneg(Isel *s, Sym *e) { return nonneg_struct(s, e) || enum_nonneg(s, e) || guarded_nonneg(s, e); }

/* Is e >= 0 at every point where code computing it runs, found by
 * evaluating it there: e a function of workgroup ids (over a grid known
 * when compiling) and loop induction variables, each iv below its loop's
 * trip count at those ids (a constant, or the count the kernel computes
 * from the ids: the persistent GEMMs' tile loop). At most 2^16 points. */
enum { MAX_ENUM_POINTS = 1 << 16 };

static bool enum_nonneg(Isel *s, Sym *e)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *fs[8], *syms[8];
	size_t n = sym_free_symbols(sc, e, fs, 8);
	if (n == 0 || n > 8)
		return false;
	int wg[8], tl[8];
	int64_t hi[8], v[8];
	for (size_t i = 0; i < n; i++) {
		const char *nm = sym_name(fs[i]);
		syms[i] = fs[i];
		wg[i] = tl[i] = -1;
		if (strncmp(nm, "$WG", 3) == 0 && nm[3] >= '0' && nm[3] <= '2' && !nm[4] && c->grid[nm[3] - '0'] > 0) {
			wg[i] = nm[3] - '0';
			hi[i] = c->grid[wg[i]];
		}
		for (int t = 0; t < c->ntile && wg[i] < 0; t++)
			if (c->tile[t].iv == fs[i])
				tl[i] = t;
		if (wg[i] < 0 && tl[i] < 0)
			return false;
	}
	/* each iv's trip count bound: the largest over the grid, found with
	 * the ids; the points past a workgroup's own count are skipped below */
	int64_t points = 1;
	for (size_t i = 0; i < n; i++) {
		if (tl[i] >= 0) {
			const TileLoop *t = &c->tile[tl[i]];
			if (t->trips >= 0)
				hi[i] = t->trips;
			else {
				Sym *ws[3] = {sym_symbol(sc, "$WG0"), sym_symbol(sc, "$WG1"), sym_symbol(sc, "$WG2")};
				int64_t most = 0;
				if (!t->count || c->grid[0] <= 0 || c->grid[1] <= 0 || c->grid[2] <= 0 ||
					c->grid[0] * c->grid[1] * c->grid[2] > MAX_ENUM_POINTS)
					return false;
				for (int64_t l = 0; l < c->grid[0] * c->grid[1] * c->grid[2]; l++) {
					int64_t at[3] = {l % c->grid[0], l / c->grid[0] % c->grid[1], l / c->grid[0] / c->grid[1]};
					SymRat q;
					const char *msg;
					if (sym_eval(sc, t->count, 3, ws, at, &q, &msg) < 0 || q.q != 1)
						return false;
					most = q.p > most ? q.p : most;
				}
				hi[i] = most;
			}
		}
		if (hi[i] <= 0)
			return true; /* no point: the code never runs */
		if ((points *= hi[i]) > MAX_ENUM_POINTS)
			return false;
	}
	for (int64_t p = 0; p < points; p++) {
		int64_t r = p;
		for (size_t i = 0; i < n; i++) {
			v[i] = r % hi[i];
			r /= hi[i];
		}
		/* an iv at or past its loop's count at these ids: not run */
		bool runs = true;
		for (size_t i = 0; i < n && runs; i++) {
			const TileLoop *t = tl[i] >= 0 ? &c->tile[tl[i]] : NULL;
			if (!t || t->trips >= 0)
				continue;
			Sym *ws[3] = {sym_symbol(sc, "$WG0"), sym_symbol(sc, "$WG1"), sym_symbol(sc, "$WG2")};
			int64_t at[3] = {0, 0, 0};
			for (size_t j = 0; j < n; j++)
				if (wg[j] >= 0)
					at[wg[j]] = v[j];
			SymRat q;
			const char *msg;
			/* ids e does not name: the count must not depend on them */
			Sym *fc[4];
			size_t nc = sym_free_symbols(sc, t->count, fc, 4);
			for (size_t k = 0; k < nc && k < 4; k++) {
				bool named = false;
				for (size_t j = 0; j < n; j++)
					named = named || fs[j] == fc[k];
				if (!named)
					return false;
			}
			if (nc > 4 || sym_eval(sc, t->count, 3, ws, at, &q, &msg) < 0 || q.q != 1)
				return false;
			runs = v[i] < q.p;
		}
		if (!runs)
			continue;
		SymRat q;
		const char *msg;
		if (sym_eval(sc, e, (int)n, syms, v, &q, &msg) < 0 || q.p < 0)
			return false;
	}
	return true;
}

static bool nonneg_struct(Isel *s, Sym *e)
{
	SymCtx *sc = s->c->k->sc;
	if (sym_kind(sym_simplify(sc, sym_rel(sc, SYM_GE, e, sym_int(sc, 0)), s->c->assume)) == SYM_TRUE)
		return true;
	SymRat r;
	switch (sym_kind(e)) {
	case SYM_ADD:
	case SYM_MUL:
		for (int i = 0; i < sym_nargs(e); i++) {
			Sym *a = sym_arg(e, i);
			if (sym_is_num(a, &r) ? r.p < 0 : !nonneg_struct(s, a))
				return false;
		}
		return true;
	case SYM_MOD:
		return nonneg_struct(s, sym_arg(e, 0)) && nonneg_struct(s, sym_arg(e, 1));
	case SYM_FLOOR: /* of a sum or product of such terms, x / D included */
	case SYM_POW:   /* D^-1 (compiled as a division, 0 for D = 0) */
		return nonneg_struct(s, sym_arg(e, 0));
	default:
		return false;
	}
}

/* The cache key prefix of reciprocals made in the entry block, which
 * isel_expr_lower_entry's own cache shares with the kernel's. */
#define ENTRY_RECIP "$rcp_entry"

static bool is_entry_recip(const Sym *e)
{
	return sym_kind(e) == SYM_SYMBOL && strncmp(sym_name(e), ENTRY_RECIP "@", sizeof ENTRY_RECIP) == 0;
}

/* Is D a function of runtime sizes and workgroup ids only (computable in
 * the entry block)? */
static bool entry_computable(Isel *s, Sym *D)
{
	Sym *fs[16];
	size_t n = sym_free_symbols(s->c->k->sc, D, fs, 16);
	if (n > 16)
		return false;
	for (size_t i = 0; i < n; i++) {
		const char *nm = sym_name(fs[i]);
		bool wg = strncmp(nm, "$WG", 3) == 0 && nm[3] >= '0' && nm[3] <= '2' && !nm[4];
		if (!wg && analysis_runtime_arg(s->c->k, fs[i], NULL) < 0)
			return false;
	}
	return true;
}

/* The reciprocal of the divisor D (rtdiv.c), a function of runtime sizes
 * and workgroup ids: computed in the entry block, which dominates every use
 * and runs with every launched lane active (v_readfirstlane_b32 then reads
 * a lane that computed the estimate), once per divisor while the cache
 * keeps it (under a symbol named after D's node, which no expression
 * contains). */
static void recip_of(Isel *s, Sym *D, Loc loc, RtRecip *rc)
{
	char name[64];
	snprintf(name, sizeof name, ENTRY_RECIP "@%p", (void *)D);
	Sym *key = sym_symbol(s->c->k->sc, name);
	bool known = false;
	for (size_t i = 0; i < s->cache.len && !known; i++)
		if ((known = s->cache.data[i].e == key))
			rc->z = s->cache.data[i].o;
	if (!known) {
		MBlock *save = s->b;
		MOpnd d = isel_expr_lower_entry(s, D, loc);
		s->b = s->f->blocks.data[0];
		isel_rtdiv_recip(s, d, rc);
		s->b = save;
		vec_push(&s->cache, ((ExprCacheEnt){key, rc->z}));
	}
	/* the division's own block uses D as lowered there */
	rc->d = isel_expr_to_sgpr(s, lower(s, D, loc));
}

/* The reciprocal of a wave-uniform divisor D that depends on a loop's
 * induction variable, made in the block D's own lowering goes to (the
 * loop's, or the block before it when D does not change with the trip),
 * cached with D's lowered value under a key no expression contains. */
#define LOOP_RECIP "$rcp_loop"

static void loop_recip_of(Isel *s, Sym *D, Loc loc, RtRecip *rc)
{
	char name[64];
	snprintf(name, sizeof name, LOOP_RECIP "@%p", (void *)D);
	Sym *key = sym_symbol(s->c->k->sc, name);
	rc->d = isel_expr_to_sgpr(s, lower(s, D, loc));
	for (size_t i = 0; i < s->cache.len; i++)
		if (s->cache.data[i].e == key) {
			rc->z = s->cache.data[i].o;
			return;
		}
	MBlock *save = s->b;
	if (s->pre && !isel_depends_on_loop(s, D))
		s->b = s->pre;
	isel_rtdiv_recip(s, rc->d, rc);
	s->b = save;
	vec_push(&s->cache, ((ExprCacheEnt){key, rc->z}));
}

/* floor(x / D) (rem false) or Mod(x, D) (rem true) for a divisor D known
 * at run time; {0} unless D is a function of runtime sizes and workgroup ids
 * (no lane or loop values) and x >= 0 and D >= 0 are proven (the division
 * is unsigned). */
static MOpnd rt_divmod(Isel *s, Sym *x, Sym *D, bool rem, Loc loc)
{
	/* a divisor that changes with a loop's trip (the persistent reordering
	 * GEMM's group height): its reciprocal made where D is, outside any
	 * exec-masked body (v_readfirstlane_b32 needs a lane that computed it) */
	bool in_loop = !entry_computable(s, D);
	if ((in_loop && (s->masked || depends_on_lane(D))) || !proven_nonneg(s, x) || !proven_nonneg(s, D))
		return (MOpnd){0};
	MOpnd a = lower(s, x, loc);
	if (s->c->failed)
		return mo_imm(0);
	RtRecip rc;
	if (in_loop)
		loop_recip_of(s, D, loc, &rc);
	else
		recip_of(s, D, loc, &rc);
	/* the other of floor and Mod costs little more here than alone (an
	 * im2col's j // C and j % C): both are made and cached */
	SymCtx *sc = s->c->k->sc;
	Sym *other = rem ? sym_floor(sc, sym_div(sc, x, D)) : sym_mod(sc, x, D);
	bool known = false;
	for (size_t i = 0; i < s->cache.len && !known; i++)
		known = s->cache.data[i].e == other;
	MOpnd q, r;
	isel_rtdiv_divmod(s, a, &rc, rem && known ? NULL : &q, !rem && known ? NULL : &r);
	if (!known)
		vec_push(&s->cache, ((ExprCacheEnt){other, rem ? q : r}));
	return rem ? r : q;
}

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

/* The relations of Piecewise e's branch b's condition into rel (*n of
 * them); false, with the error reported at loc, when it is not a relation
 * other than == and != or an And of them. */
static bool branch_relations(Isel *s, Sym *e, int b, Sym **rel, int *n, Loc loc)
{
	*n = 0;
	if (relations(sym_arg(e, 2 * b + 1), rel, n, MAX_DIMS * 2))
		return true;
	SymCtx *sc = s->c->k->sc;
	analysis_error(s->c, loc, "index expression %s: condition %s is not compiled yet (relations other than == "
				  "and !=, and And of them, are)",
		sym_str(sc, e), sym_str(sc, sym_arg(e, 2 * b + 1)));
	return false;
}

/* A Piecewise of wave-uniform values and conditions (the persistent
 * reordering GEMM's chunked start): on the scalar unit, each relation an
 * s_cmp against 0 and an s_cselect_b32 right after it (nothing between
 * them writes SCC); an And of relations selects once per relation. */
static MOpnd piecewise_uniform(Isel *s, Sym *e, Loc loc)
{
	static const MOp cmp[] = {[SYM_LT] = I_S_CMP_LT_I32, [SYM_LE] = I_S_CMP_LE_I32, [SYM_GT] = I_S_CMP_GT_I32,
		[SYM_GE] = I_S_CMP_GE_I32};
	int nb = sym_nargs(e) / 2;
	MOpnd r = isel_expr_to_sgpr(s, lower(s, sym_arg(e, 2 * nb - 2), loc));
	for (int b = nb - 2; b >= 0 && !s->c->failed; b--) {
		Sym *rel[MAX_DIMS * 2];
		int n;
		if (!branch_relations(s, e, b, rel, &n, loc))
			return mo_imm(0);
		/* the value under its branch's relations (guarded_nonneg); what
		 * a proof by them lowered is forgotten after it, since the
		 * branch's value may be garbage where they fail */
		Sym *const *og = s->guard;
		int ong = s->nguard;
		bool oused = s->guard_used;
		size_t cache_len = s->cache.len;
		s->guard = rel;
		s->nguard = n;
		s->guard_used = false;
		MOpnd t = isel_expr_to_sgpr(s, lower(s, sym_arg(e, 2 * b), loc));
		if (s->guard_used)
			s->cache.len = cache_len;
		s->guard = og;
		s->nguard = ong;
		s->guard_used = oused || s->guard_used;
		for (int i = 0; i < n && !s->c->failed; i++) {
			MOpnd d = isel_expr_to_sgpr(s, lower(s, sym_arg(rel[i], 0), loc));
			if (s->c->failed)
				return mo_imm(0);
			MOpnd u[2] = {d, mo_imm(0)};
			mblock_add(s->b, cmp[sym_kind(rel[i])], 0, NULL, 2, u);
			MOpnd x = newreg(s, false), v[2] = {t, r};
			mblock_add(s->b, I_S_CSELECT_B32, 1, &x, 2, v);
			t = x;
		}
		r = t;
	}
	return r;
}

/* Piecewise((v1, c1), ..., (vn, True)): uniform ones on the scalar unit
 * (piecewise_uniform); with conditions that vary per lane (Wave's T5
 * relative position bias: the rpe offset m - k2 where 0 <= m - k2 < max,
 * else max), lowered back to front: r = vn; then for each earlier branch
 * r = ci ? vi : r, one v_cndmask_b32 each, ci the lane mask of its
 * relations (isel_expr_conds_mask, compiled as bounds are). The values are
 * lowered before the mask is built, so nothing clobbers vcc between the
 * compare and the select. The last condition must be True and the others
 * relations other than == and != or And of them (branch_relations); any
 * other form is reported at loc. */
static MOpnd piecewise(Isel *s, Sym *e, Loc loc)
{
	SymCtx *sc = s->c->k->sc;
	int nb = sym_nargs(e) / 2;
	if (nb < 1 || sym_kind(sym_arg(e, 2 * nb - 1)) != SYM_TRUE) {
		analysis_error(s->c, loc, "index expression %s: a Piecewise without a last True branch is not "
					  "compiled", sym_str(sc, e));
		return mo_imm(0);
	}
	if (!depends_on_lane(e))
		return piecewise_uniform(s, e, loc);
	MOpnd r = lower(s, sym_arg(e, 2 * nb - 2), loc);
	for (int b = nb - 2; b >= 0 && !s->c->failed; b--) {
		Sym *rel[MAX_DIMS * 2];
		int n;
		if (!branch_relations(s, e, b, rel, &n, loc))
			return mo_imm(0);
		MOpnd yes = isel_expr_to_vgpr(s, lower(s, sym_arg(e, 2 * b), loc));
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
		MOpnd d = isel_v1(s), u[3] = {no, yes, mo_special(MO_VCC)};
		mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E32;
		r = d;
	}
	return r;
}

static MOpnd lower_uncached(Isel *s, Sym *e, Loc loc)
{
	SymCtx *sc = s->c->k->sc;
	int64_t v;
	SymRat r;
	switch (sym_kind(e)) {
	case SYM_INT:
		sym_is_int(e, &v);
		if (v < INT32_MIN || v > UINT32_MAX)
			break;
		return mo_imm(v);
	case SYM_SYMBOL: {
		const char *n = sym_name(e);
		if (n[0] == '$' && n[1] == 'T' && n[2] >= '0' && n[2] <= '2' && !n[3])
			return tid(s, n[2] - '0');
		if (e == s->iv_sym)
			return mo_vreg(s->iv, RC_S1);
		for (int i = 0; i < s->nouter; i++) /* an enclosing loop's */
			if (e == s->outer_sym[i])
				return mo_vreg(s->outer_iv[i], RC_S1);
		if (strncmp(n, "$WG", 3) == 0 && n[3] >= '0' && n[3] <= '2' && !n[4]) {
			uint32_t w = s->wg_id[n[3] - '0'];
			return w == UINT32_MAX ? mo_imm(0) : mo_vreg(w, RC_S1); /* grid of 1: id 0 */
		}
		for (size_t i = s->bounds.len; i-- > 0;) /* a loop bound a set_symbol set (extent.c) */
			if (s->bounds.data[i].e == e)
				return s->bounds.data[i].o;
		if (analysis_runtime_arg(s->c->k, e, NULL) >= 0)
			return runtime_arg(s, e);
		unsigned reg, sub; /* a dynamic value's dword (dynmap.c) */
		if (isel_is_dyn_sym(e) && sscanf(n + sizeof ISEL_DYN_PREFIX - 1, "%u_%u", &reg, &sub) == 2)
			return mo_vsub(reg, (int)sub, RC_V1);
		for (size_t i = 0; i < s->setsym.len; i++) /* a lane's value ($T_<op>): control.c's set_symbol */
			if (s->setsym.data[i].e == e)
				return s->setsym.data[i].o;
		break;
	}
	case SYM_ADD: {
		/* Uniform terms first (SALU), then lane terms, so the uniform sum
		 * joins the lane sum in one VALU add. */
		Sym *lane, *uni;
		isel_expr_split(s, e, &lane, &uni);
		if (sym_kind(lane) != SYM_INT && sym_kind(uni) != SYM_INT) {
			MOpnd a = lower(s, uni, loc), b = lower(s, lane, loc);
			return binop(s, I_S_ADD_U32, I_V_ADD_U32, a, b);
		}
		return fold(s, e, loc, I_S_ADD_U32, I_V_ADD_U32);
	}
	case SYM_MUL: {
		SymRat q;
		if (sym_is_num(sym_arg(e, 0), &q) && q.q > 1 && log2_exact(q.q) > 0) {
			/* x * p / 2^k with x a known multiple of 2^k (a Min of tile
			 * multiples over a tile, split K's trip count): exact, so an
			 * arithmetic shift, right for negative x too */
			Sym *x = sym_simplify(sc, sym_mul(sc, e, sym_int(sc, q.q)), NULL);
			int64_t mul = sym_multiple_of(sc, sym_simplify(sc, sym_div(sc, x, sym_int(sc, q.p)), NULL), s->c->assume);
			/* or a size known at run time only (a K/2 or K/32 alias of a
			 * runtime K: the memory of packed MX data and its scales,
			 * which exists only for a K it divides; floor otherwise) */
			if ((mul > 0 && mul % q.q == 0) || analysis_runtime(s->c, e)) {
				MOpnd a = lower(s, x, loc);
				if (s->c->failed)
					return mo_imm(0);
				if (a.kind == MO_IMM)
					return mo_imm(a.imm / q.q);
				return ashr(s, a, log2_exact(q.q));
			}
			/* p/2^k * K * X with K known at run time only: (K p / 2^k)
			 * first, as a size (the row length K/2 of packed MX data
			 * times a row), then times X */
			for (int i = 1; i < sym_nargs(e); i++) {
				Sym *f = sym_arg(e, i);
				if (!analysis_runtime(s->c, f))
					continue;
				Sym *rest = sym_int(sc, 1);
				for (int j = 1; j < sym_nargs(e); j++)
					if (j != i)
						rest = sym_mul(sc, rest, sym_arg(e, j));
				MOpnd a = lower(s, sym_mul(sc, sym_arg(e, 0), f), loc), b = lower(s, rest, loc);
				if (s->c->failed)
					return mo_imm(0);
				return binop(s, I_S_MUL_I32, I_V_MUL_LO_U32, a, b);
			}
		}
		int64_t k = 1;
		MOpnd acc = {0};
		for (int i = 0; i < sym_nargs(e); i++) {
			Sym *f = sym_arg(e, i);
			if (sym_is_int(f, &v)) {
				k *= v;
				continue;
			}
			MOpnd t = lower(s, f, loc);
			if (s->c->failed)
				return mo_imm(0);
			acc = !acc.kind ? t : binop(s, I_S_MUL_I32, I_V_MUL_LO_U32, acc, t);
		}
		return acc.kind ? scale(s, acc, k) : mo_imm(k);
	}
	case SYM_FLOOR: {
		/* floor(x / 2^k): the argument's terms have rational coefficients
		 * whose denominators divide 2^k (x / 32 + 31 / 32 from a runtime
		 * ceiling), so x = 2^k * argument has integer ones. */
		Sym *m = sym_arg(e, 0);
		Sym *x, *D;
		if (has_neg_pow(m)) {
			/* floor(x / D), D known at run time (a digit of a folded
			 * grid dim, a mapping's runtime size) */
			bool split = split_quotient(s, m, &x, &D);
			MOpnd o = split ? rt_divmod(s, x, D, false, loc) : (MOpnd){0};
			if (!o.kind && split) /* x / D with both negated by the simplifier: (-x) / (-D) */
				o = rt_divmod(s, sym_simplify(sc, sym_neg(sc, x), NULL), sym_simplify(sc, sym_neg(sc, D), NULL),
					false, loc);
			if (o.kind)
				return o;
			break;
		}
		int64_t den = denominator(m);
		if (den > 1 && log2_exact(den) > 0) {
			r = (SymRat){1, den};
			Sym *x = sym_simplify(sc, sym_mul(sc, m, sym_int(sc, r.q)), NULL);
			MOpnd a = lower(s, x, loc);
			if (a.kind == MO_IMM)
				return mo_imm(a.imm >> log2_exact(r.q));
			/* floor for a negative x too (a split's trip count before
			 * its skip test) unless x is known >= 0 */
			Sym *nonneg = sym_simplify(sc, sym_rel(sc, SYM_GE, x, sym_int(sc, 0)), s->c->assume);
			if (sym_kind(nonneg) != SYM_TRUE)
				return ashr(s, a, log2_exact(r.q));
			return shift(s, a, log2_exact(r.q), I_V_LSHRREV_B32, I_S_LSHR_B32);
		}
		if (den > 2 && log2_exact(den) < 0 && den < (INT64_C(1) << 31)) {
			/* floor(x / d), d not a power of two (a runtime K in tiles of
			 * 24, an im2col's pixel index): x >= 0, udiv_const */
			Sym *x = sym_simplify(sc, sym_mul(sc, m, sym_int(sc, den)), NULL);
			MOpnd a = lower(s, x, loc);
			if (s->c->failed)
				return mo_imm(0);
			if (a.kind == MO_IMM)
				return mo_imm(a.imm >= 0 ? a.imm / den : -((-a.imm + den - 1) / den));
			if (proven_nonneg(s, x))
				return udiv_const(s, a, den);
		}
		break;
	}
	case SYM_CEIL: {
		/* ceiling(x / 2^k) = floor((x + 2^k - 1) / 2^k), signed (a
		 * split's trip count, negative past the dim's end) */
		Sym *m = sym_arg(e, 0);
		int64_t den = denominator(m);
		if (den > 1 && log2_exact(den) > 0) {
			Sym *x = sym_simplify(sc, sym_mul(sc, m, sym_int(sc, den)), NULL);
			MOpnd a = lower(s, x, loc);
			if (s->c->failed)
				return mo_imm(0);
			if (a.kind == MO_IMM)
				return mo_imm((a.imm + den - 1) >> log2_exact(den));
			return ashr(s, binop(s, I_S_ADD_U32, I_V_ADD_U32, mo_imm(den - 1), a), log2_exact(den));
		}
		if (den > 2 && den < (INT64_C(1) << 30)) {
			/* ceiling(x / d), d not a power of two (a run-time N in
			 * workgroups of 192: a grouped order's column count), x >= 0:
			 * floor((x + d - 1) / d) by udiv_const */
			Sym *x = sym_simplify(sc, sym_mul(sc, m, sym_int(sc, den)), NULL);
			if (proven_nonneg(s, x)) {
				MOpnd a = lower(s, x, loc);
				if (s->c->failed)
					return mo_imm(0);
				if (a.kind == MO_IMM)
					return mo_imm((a.imm + den - 1) / den);
				return udiv_const(s, binop(s, I_S_ADD_U32, I_V_ADD_U32, mo_imm(den - 1), a), den);
			}
		}
		break;
	}
	case SYM_MIN:
	case SYM_MAX: {
		/* signed (a split's end against the dim's size) */
		bool mn = sym_kind(e) == SYM_MIN;
		return fold(s, e, loc, mn ? I_S_MIN_I32 : I_S_MAX_I32, mn ? I_V_MIN_I32 : I_V_MAX_I32);
	}
	case SYM_MOD:
		if (sym_is_int(sym_arg(e, 1), &v) && log2_exact(v) >= 0) {
			MOpnd a = lower(s, sym_arg(e, 0), loc);
			if (a.kind == MO_IMM)
				return mo_imm(a.imm & (v - 1));
			return binop(s, I_S_AND_B32, I_V_AND_B32, mo_imm(v - 1), a);
		}
		if (sym_is_int(sym_arg(e, 1), &v) && v > 2 && v < (INT64_C(1) << 31) && proven_nonneg(s, sym_arg(e, 0))) {
			/* x mod d = x - d * floor(x / d), x >= 0 */
			MOpnd a = lower(s, sym_arg(e, 0), loc);
			if (a.kind == MO_IMM)
				return mo_imm(a.imm % v);
			MOpnd q = udiv_const(s, a, v);
			MOpnd dq = binop(s, I_S_MUL_I32, I_V_MUL_LO_U32, mo_imm(v), q);
			return binop(s, I_S_SUB_U32, I_V_SUB_U32, a, dq);
		}
		if (!sym_is_num(sym_arg(e, 1), &r)) {
			MOpnd o = rt_divmod(s, sym_arg(e, 0), sym_arg(e, 1), true, loc);
			if (o.kind)
				return o;
		}
		break;
	case SYM_PIECEWISE: /* per-lane branches: one select each */
		return piecewise(s, e, loc);
	case SYM_XOR: { /* lds_layout.c's swizzle: per lane, so v_xor_b32 (a uniform one goes through a VGPR) */
		MOpnd a = lower(s, sym_arg(e, 0), loc), b = lower(s, sym_arg(e, 1), loc);
		if (a.kind == MO_IMM && b.kind == MO_IMM)
			return mo_imm(a.imm ^ b.imm);
		if (!is_v(a) && !is_v(b))
			b = isel_expr_to_vgpr(s, b);
		return binop(s, I_S_XOR_B32, I_V_XOR_B32, a, b);
	}
	default:
		break;
	}
	analysis_error(s->c, loc, "index expression %s: this form is not compiled yet", sym_str(sc, e));
	return mo_imm(0);
}

/* e's arguments lowered and combined left to right by sop/vop (add, min,
 * max); two immediates fold here. */
static MOpnd fold(Isel *s, Sym *e, Loc loc, MOp sop, MOp vop)
{
	MOpnd acc = {0};
	for (int i = 0; i < sym_nargs(e); i++) {
		MOpnd t = lower(s, sym_arg(e, i), loc);
		if (s->c->failed)
			return mo_imm(0);
		if (!acc.kind) {
			acc = t;
		} else if (acc.kind == MO_IMM && t.kind == MO_IMM) {
			int64_t x = acc.imm, y = t.imm;
			acc = mo_imm(sop == I_S_MIN_I32 ? MIN(x, y) : sop == I_S_MAX_I32 ? MAX(x, y) : x + y);
		} else {
			acc = binop(s, sop, vop, acc, t);
		}
	}
	return acc;
}

/* Cache: one lowering per distinct expression node (nodes are unique). */
static MOpnd lower(Isel *s, Sym *e, Loc loc)
{
	for (size_t i = 0; i < s->cache.len; i++)
		if (s->cache.data[i].e == e)
			return s->cache.data[i].o;
	MBlock *save = s->b;
	if (s->pre && !isel_depends_on_loop(s, e))
		s->b = s->pre;
	MOpnd o = lower_uncached(s, e, loc);
	s->b = save;
	if (o.kind != MO_IMM)
		vec_push(&s->cache, ((ExprCacheEnt){e, o}));
	return o;
}

MOpnd isel_expr_lower(Isel *s, Sym *e, Loc loc)
{
	return lower(s, e, loc);
}

MOpnd isel_expr_lower_entry(Isel *s, Sym *e, Loc loc)
{
	/* a cache of its own: an entry made in a later block would not
	 * dominate the entry block's code */
	MBlock *b = s->b, *pre = s->pre;
	Sym *iv = s->iv_sym;
	int nouter = s->nouter;
	s->nouter = 0;
	ExprCacheEnt *data = s->cache.data;
	size_t len = s->cache.len, cap = s->cache.cap;
	s->cache.data = NULL;
	s->cache.len = s->cache.cap = 0;
	for (size_t i = 0; i < len; i++) /* but reciprocals made there are good anywhere */
		if (is_entry_recip(data[i].e))
			vec_push(&s->cache, data[i]);
	s->b = s->f->blocks.data[0];
	s->pre = NULL;
	s->iv_sym = NULL;
	MOpnd o = lower_uncached(s, e, loc);
	ExprCacheEnt *tmp = s->cache.data;
	size_t tlen = s->cache.len;
	s->cache.data = data;
	s->cache.len = len;
	s->cache.cap = cap;
	for (size_t i = 0; i < tlen; i++) { /* the new ones kept */
		bool known = false;
		for (size_t j = 0; j < len && !known; j++)
			known = data[j].e == tmp[i].e;
		if (!known && is_entry_recip(tmp[i].e))
			vec_push(&s->cache, tmp[i]);
	}
	free(tmp);
	s->b = b;
	s->pre = pre;
	s->iv_sym = iv;
	s->nouter = nouter;
	return o;
}

void isel_expr_cond_to_vcc(Isel *s, Sym *cond, Loc loc)
{
	SymCtx *sc = s->c->k->sc;
	SymKind k = sym_kind(cond);
	if (!sym_kind_is_rel(k) || k == SYM_EQ || k == SYM_NE) {
		analysis_error(s->c, loc, "bound %s: this form is not compiled yet", sym_str(sc, cond));
		return;
	}
	/* x OP 0 with x = lane + uni  <=>  -uni OP' lane (OP mirrored), so the
	 * per-lane side is the VGPR operand VOPC needs second. */
	Sym *lane, *uni;
	isel_expr_split(s, sym_arg(cond, 0), &lane, &uni);
	MOpnd a = lower(s, sym_neg(sc, uni), loc);
	MOpnd b = isel_expr_to_vgpr(s, lower(s, lane, loc));
	if (is_v(a)) { /* uni has no lane terms: a uniform form lowered per lane */
		analysis_error(s->c, loc, "bound %s: its uniform side %s is computed per lane: not compiled yet",
			sym_str(sc, cond), sym_str(sc, uni));
		return;
	}
	MOp op = k == SYM_LT ? I_V_CMP_GT_I32 : k == SYM_LE ? I_V_CMP_GE_I32 : k == SYM_GT ? I_V_CMP_LT_I32
										     : I_V_CMP_LE_I32;
	MOpnd d = mo_special(MO_VCC), u[2] = {a, b};
	MInst *in = mblock_add(s->b, op, 1, &d, 2, u);
	in->flags |= MIF_E32;
}

/* A lane mask of several conditions is made once where its conditions'
 * values are: kept in the expression cache under the And of them (no
 * value is lowered from an And, so the key is the mask's alone), it goes
 * where those values go (dropped with the loop or conditional body that
 * made them). A gathered tile's elements share their bounds, and each
 * built the same compares and ands again. */
bool isel_expr_conds_mask(Isel *s, int n, Sym *const *conds, Loc loc, uint32_t *mask, bool *in_vcc)
{
	bool have = false;
	*in_vcc = false;
	Sym *key = n > 1 ? sym_andv(s->c->k->sc, n, conds) : NULL;
	if (key && sym_kind(key) != SYM_AND)
		key = NULL;
	for (size_t i = 0; key && i < s->cache.len; i++)
		if (s->cache.data[i].e == key && s->cache.data[i].o.kind == MO_VREG && s->cache.data[i].o.rc == RC_S2) {
			*mask = s->cache.data[i].o.reg;
			return true;
		}
	for (int i = 0; i < n; i++) {
		isel_expr_cond_to_vcc(s, conds[i], loc);
		if (have) {
			uint32_t m2 = mfunc_vreg(s->f, RC_S2);
			MOpnd d = mo_vreg(m2, RC_S2), u[2] = {mo_vreg(*mask, RC_S2), mo_special(MO_VCC)};
			mblock_add(s->b, I_S_AND_B64, 1, &d, 2, u);
			*mask = m2;
			*in_vcc = false;
		} else if (i + 1 < n) {
			*mask = mfunc_vreg(s->f, RC_S2);
			MOpnd d = mo_vreg(*mask, RC_S2), u = mo_special(MO_VCC);
			mblock_add(s->b, I_S_MOV_B64, 1, &d, 1, &u);
		} else {
			*in_vcc = true; /* the one condition is in vcc already */
		}
		have = true;
	}
	if (key && have && !*in_vcc && !s->c->failed)
		vec_push(&s->cache, ((ExprCacheEnt){key, mo_vreg(*mask, RC_S2)}));
	return have;
}
