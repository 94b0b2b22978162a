/* relayout.c — a value moved between two per-thread layouts through LDS,
 * for when an element a thread needs lives in another lane or wave (a
 * chained MMA whose operand is not in its predecessor's accumulator
 * layout, Wave's thread-shape conflicts).
 *
 * Algorithm: every element of the value goes to LDS at its coordinates,
 * relative to the workgroup's first (the source layout's start with the
 * thread ids and $J at 0: the loop and workgroup terms cancel), in a
 * row-major box over the value's dims; after a barrier each thread reads
 * the elements of the new layout from their coordinates. Both layouts are
 * enumerated over every work-item of the workgroup first (sym_eval): the
 * box's extent comes from the source, and every coordinate the new layout
 * reads must be one some work-item writes, or the value is rejected at the
 * op; so a read never sees an unwritten slot. Copies of one element in
 * several lanes of one wave write the same value; waves that write the
 * same coordinates (a reduction's partial results over their own windows,
 * which may differ) each get a box of their own when every wave reads
 * only what it wrote, and share one otherwise (the values are then the
 * same: a value replicated across waves). 32-bit elements move as dwords,
 * 16-bit ones as halves (ds_write_b16, ds_read_u16, the pairs joined with
 * v_perm_b32 as lds_stage.c does: no d16 loads, which SRAM ECC makes clobber
 * the other half). Addresses: one VGPR per distinct lane expression, the
 * constant parts in the instruction's offset field.
 * Contract: all waves of the workgroup reach the op (uniform control
 * flow: a scalar-branch conditional's condition is the same for the whole
 * workgroup); never inside an exec-masked body, whose inactive lanes would
 * leave slots unwritten; the space is the region's (isel_lds_alloc),
 * freed at its end. */
#include <string.h>

#include "isel.h"

enum {
	MAX_CHECK = 1 << 22, /* evaluations spent proving coverage */
	MAX_OFFSET = 65535,  /* the DS offset field */
};

typedef struct Box {
	int ndims;
	int pos[MAX_DIMS];     /* where each of the value's dims is in the target index */
	Sym *base[MAX_DIMS];   /* the workgroup's first coordinate */
	int64_t ext[MAX_DIMS]; /* the box's extent */
	int64_t stride[MAX_DIMS];
	int64_t size;          /* elements */
	int waves;             /* > 1: a box per wave (private) */
} Box;

/* The coordinate of element (cn, j) of ix along its dim i, relative to the
 * box; NULL if it depends on anything but the work-item ids. */
static Sym *local_coord(Analysis *c, const Box *b, const NodeIndex *ix, int i, int k, int64_t cn, int64_t j)
{
	SymCtx *sc = c->k->sc;
	Sym *e = sym_simplify(sc, sym_sub(sc, index_coord(c, ix, i, cn, j), b->base[k]), c->assume);
	Sym *fs[8];
	size_t n = sym_free_symbols(sc, e, fs, 8);
	if (n > 8)
		return NULL;
	for (size_t q = 0; q < n; q++)
		if (strncmp(sym_name(fs[q]), "$T", 2) != 0)
			return NULL;
	return e;
}

typedef struct Points {
	int64_t n;      /* elements per thread */
	Sym **coord;    /* [e * ndims + k] */
} Points;

static bool points_of(Analysis *c, const Box *b, const NodeIndex *ix, bool target, Points *p)
{
	p->n = ix->ncopies * ix->epc;
	p->coord = ARENA_NEWN(&c->arena, Sym *, (size_t)(p->n * b->ndims) + 1);
	for (int64_t e = 0; e < p->n; e++)
		for (int k = 0; k < b->ndims; k++) {
			int i = target ? b->pos[k] : k;
			if (!(p->coord[e * b->ndims + k] = local_coord(c, b, ix, i, k, e / ix->epc, e % ix->epc)))
				return false;
		}
	return true;
}

/* Evaluate the points of one work-item; false if one falls outside
 * [0, limit) along a dim (limit NULL: only below 0). */
static bool eval_points(SymCtx *sc, const Points *p, int nd, Sym *const *ids, const int64_t *tid, int64_t *out)
{
	for (int64_t q = 0; q < p->n * nd; q++) {
		SymRat r;
		const char *why;
		if (sym_eval(sc, p->coord[q], 3, ids, tid, &r, &why) || r.q != 1 || r.p < 0)
			return false;
		out[q] = r.p;
	}
	return true;
}

/* Fill the box's extents from the source points over the workgroup and
 * prove every target point is written. */
static bool prove_cover(Isel *s, Box *b, const Points *src, const Points *dst, const char **why)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *ids[3] = {sym_symbol(sc, "$T0"), sym_symbol(sc, "$T1"), sym_symbol(sc, "$T2")};
	int64_t threads = (int64_t)c->wg_size[0] * c->wg_size[1] * c->wg_size[2];
	if (threads * (src->n + dst->n) * b->ndims > MAX_CHECK) {
		*why = "too many elements to check the move";
		return false;
	}
	int nd = b->ndims;
	int64_t *sv = ARENA_NEWN(&c->arena, int64_t, (size_t)(threads * src->n * nd) + 1);
	int64_t *dv = ARENA_NEWN(&c->arena, int64_t, (size_t)(dst->n * nd) + 1);
	for (int k = 0; k < nd; k++)
		b->ext[k] = 1;
	for (int64_t t = 0; t < threads; t++) {
		int64_t tid[3] = {t % c->wg_size[0], t / c->wg_size[0] % c->wg_size[1], t / c->wg_size[0] / c->wg_size[1]};
		int64_t *o = sv + t * src->n * nd;
		if (!eval_points(sc, src, nd, ids, tid, o)) {
			*why = "a source coordinate lies before the workgroup's first";
			return false;
		}
		for (int64_t q = 0; q < src->n * nd; q++)
			if (o[q] + 1 > b->ext[q % nd])
				b->ext[q % nd] = o[q] + 1;
	}
	b->size = 1;
	for (int k = nd - 1; k >= 0; k--) {
		b->stride[k] = b->size;
		if (__builtin_mul_overflow(b->size, b->ext[k], &b->size) || b->size > (1 << 16)) {
			*why = "the workgroup's box of the value is larger than LDS";
			return false;
		}
	}
	/* which waves write each slot (a bit per wave; the workgroup's at most
	 * 16 waves: 1024 work-items) */
	uint16_t *seen = ARENA_NEWN(&c->arena, uint16_t, (size_t)b->size);
	bool shared = false; /* some slot written by two waves */
	for (int64_t q = 0; q < threads * src->n; q++) {
		int64_t lin = 0;
		for (int k = 0; k < nd; k++)
			lin += sv[q * nd + k] * b->stride[k];
		uint16_t w = (uint16_t)(1u << (q / src->n / 64 % 16));
		shared |= seen[lin] && !(seen[lin] & w);
		seen[lin] |= w;
	}
	bool own = true; /* every wave reads only slots it writes itself */
	for (int64_t t = 0; t < threads; t++) {
		int64_t tid[3] = {t % c->wg_size[0], t / c->wg_size[0] % c->wg_size[1], t / c->wg_size[0] / c->wg_size[1]};
		bool ok = eval_points(sc, dst, nd, ids, tid, dv);
		for (int64_t e = 0; ok && e < dst->n; e++) {
			int64_t lin = 0;
			for (int k = 0; k < nd && ok; k++) {
				ok = dv[e * nd + k] < b->ext[k];
				lin += dv[e * nd + k] * b->stride[k];
			}
			ok = ok && seen[lin];
			own &= ok && (seen[lin] >> (t / 64 % 16) & 1);
		}
		if (!ok) {
			*why = "the new layout needs elements no work-item of the workgroup holds";
			return false;
		}
	}
	/* waves that hold the same coordinates may hold different values (a
	 * reduction's partial results, each over its wave's window): where
	 * each wave only reads what it writes, each gets a box of its own */
	b->waves = shared && own ? (int)((threads + 63) / 64) : 1;
	return true;
}

/* The byte address of point e in LDS: a VGPR (one per distinct lane
 * expression, kept in addrs) and a constant offset. */
typedef struct Addr {
	Sym *lane;
	MOpnd reg;
} Addr;
typedef Vec(Addr) AddrVec;

static MOpnd point_addr(Isel *s, Op *op, const Box *b, const Points *p, int64_t e, int base, int es, AddrVec *addrs,
	int64_t *off)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *lin = sym_int(sc, 0);
	for (int k = 0; k < b->ndims; k++)
		lin = sym_add(sc, lin, sym_mul(sc, p->coord[e * b->ndims + k], sym_int(sc, b->stride[k] * es)));
	if (b->waves > 1) { /* the wave's own box: the linear work-item id / 64 */
		Sym *t = sym_add(sc, sym_symbol(sc, "$T0"),
			sym_mul(sc, sym_int(sc, c->wg_size[0]),
				sym_add(sc, sym_symbol(sc, "$T1"), sym_mul(sc, sym_int(sc, c->wg_size[1]), sym_symbol(sc, "$T2")))));
		lin = sym_add(sc, lin, sym_mul(sc, sym_floor(sc, sym_div(sc, t, sym_int(sc, 64))), sym_int(sc, b->size * es)));
	}
	lin = sym_simplify(sc, lin, c->assume);
	for (size_t i = 0; i < addrs->len; i++) {
		int64_t d;
		if (sym_is_int(sym_simplify(sc, sym_sub(sc, lin, addrs->data[i].lane), c->assume), &d) && d >= 0 &&
			base + d <= MAX_OFFSET) {
			*off = base + d;
			return addrs->data[i].reg;
		}
	}
	Addr a = {lin, isel_expr_to_vgpr(s, isel_expr_lower(s, lin, op->loc))};
	vec_push(addrs, a);
	*off = base;
	return a.reg;
}

/* Element e of v as a VGPR whose low bits hold it. */
static MOpnd elem_low(Isel *s, const TVal *v, int64_t e)
{
	bool packed = dtype_size(v->dtype) == 2 && v->packed;
	MOpnd d = isel_vgpr(s, v->d[packed ? e / 2 : e]);
	if (!packed || e % 2 == 0)
		return d;
	MOpnd t = isel_v1(s), u[2] = {mo_imm(16), d};
	mblock_add(s->b, I_V_LSHRREV_B32, 1, &t, 2, u);
	return t;
}

TVal *isel_relayout(Isel *s, const TVal *v, const NodeIndex *ix, Op *op)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	const NodeIndex *vx = v->ix;
	int es = dtype_size(v->dtype);
	const char *why = NULL;
	char lacks[160];
	Box b = {.ndims = vx->ndims};
	for (int k = 0; k < vx->ndims && !why; k++) {
		b.pos[k] = -1;
		for (int q = 0; q < ix->ndims; q++)
			if (ix->d[q].dim == vx->d[k].dim)
				b.pos[k] = q;
		if (b.pos[k] < 0) {
			snprintf(lacks, sizeof lacks, "the new layout lacks the value's dim %s", sym_name(vx->d[k].dim));
			why = lacks;
		}
		Sym *z[4] = {sym_symbol(sc, "$T0"), sym_symbol(sc, "$T1"), sym_symbol(sc, "$T2"), sym_symbol(sc, "$J")};
		Sym *zero[4] = {sym_int(sc, 0), sym_int(sc, 0), sym_int(sc, 0), sym_int(sc, 0)};
		b.base[k] = sym_simplify(sc, sym_subs(sc, vx->d[k].start, 4, z, zero), c->assume);
	}
	if (s->masked)
		why = "inside an exec-masked conditional body, masked lanes would leave their slots unwritten";
	if (!why && es != 4 && es != 2)
		why = "only 16- and 32-bit elements move";
	Points src, dst;
	if (!why && (!points_of(c, &b, vx, false, &src) || !points_of(c, &b, ix, true, &dst)))
		why = "a coordinate depends on more than the work-item";
	if (!why)
		prove_cover(s, &b, &src, &dst, &why);
	bool reuse = false;
	int64_t bytes = b.size * es * b.waves;
	if (!why && bytes > 65536)
		why = "the waves' boxes of the value are larger than LDS";
	int base = why ? -1 : isel_lds_alloc(s, (int)(bytes + 3) & ~3, &reuse);
	if (!why && base < 0)
		why = "the value does not fit in the LDS left";
	if (why) {
		analysis_error(c, op->loc, "%s: the operand's elements are held by other lanes, and moving them through LDS "
					  "fails: %s",
			op->path, why);
		return NULL;
	}
	/* a wave may still read the space: a previous trip, or a region
	 * that ended */
	if (reuse || s->iv_sym)
		isel_lds_barrier(s);
	AddrVec addrs = {0};
	MOp wr = es == 4 ? I_DS_WRITE_B32 : I_DS_WRITE_B16, rd = es == 4 ? I_DS_READ_B32 : I_DS_READ_U16;
	for (int64_t e = 0; e < src.n; e++) {
		int64_t off;
		MOpnd a = point_addr(s, op, &b, &src, e, base, es, &addrs, &off);
		isel_ds(s, wr, a, off, elem_low(s, v, e), true);
	}
	MInst *w = mblock_add(s->b, I_S_WAITCNT, 0, NULL, 0, NULL);
	w->lgkmcnt = 0; /* the writes land before any wave reads */
	mblock_add(s->b, I_S_BARRIER, 0, NULL, 0, NULL);
	TVal *r = isel_tval_new(s, v->dtype, dst.n, ix);
	for (int64_t e = 0; e < dst.n; e++) {
		int64_t off;
		MOpnd a = point_addr(s, op, &b, &dst, e, base, es, &addrs, &off), x = isel_v1(s);
		isel_ds(s, rd, a, off, x, false);
		if (es == 4 || !r->packed) {
			r->d[es == 4 || !r->packed ? e : e / 2] = x;
		} else if (e % 2 == 0) {
			r->d[e / 2] = x;
		} else {
			MOpnd sel = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), kk = mo_imm(0x05040100);
			mblock_add(s->b, I_S_MOV_B32, 1, &sel, 1, &kk);
			MOpnd u[3] = {x, r->d[e / 2], sel};
			r->d[e / 2] = isel_v1(s);
			mblock_add(s->b, I_V_PERM_B32, 1, &r->d[e / 2], 3, u);
		}
	}
	vec_free(&addrs);
	return r;
}
