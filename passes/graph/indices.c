/* indices.c — index analysis: each op's per-thread index (which elements of
 * its tensor a thread holds), after Wave's set_node_indices + expansion.
 *
 * Algorithm (Wave's index_sequence_analysis.py):
 *   1. The thread-independent start of dim D sums the constraints on D:
 *      workgroup $WGg * wg_tile, wave wave_id * wave_tile (wave_id is
 *      floor($T0/64), $T1 or $T2 by the workgroup dim), and, for ops inside
 *      the iterate over D, the loop's $ARG<D> * tile. Ids whose range is a
 *      single value are written as 0, so expressions stay small.
 *   2. The thread-dependent anchor, by kernel mode:
 *      - MMA (the kernel has an mma or scaled_mma op): operands get the
 *        layout of their role (lhs, rhs, acc; a scaled_mma's scales theirs,
 *        one e8m0 a lane over K/32) from the MMA type (Wave's
 *        offset/size/stride, docs/wave-semantics.md;
 *        lane = Mod($T0, 64)); the roles flow backward from each mma
 *        through casts, iterate outputs, iter args and init args, and the
 *        acc role forward to the iterate result and what consumes it; an
 *        iter arg no op places takes its output value's (carried_roles).
 *        Chained MMAs (attention: a second mma over other dims or of
 *        another type) give each mma its own layout (MmaLay); a computed
 *        value takes its producer's layout first (forward_roles), so the
 *        first result keeps its accumulator layout through the softmax,
 *        and the next mma gathers its operand from it (mma_operand).
 *      - reduce (a sum/max/min and no mma): the reduced dim D gets
 *        Mod($T0, 64) * vs/64 : vs/64 : 1 (vs = vector_shapes[D], a
 *        multiple of 64); every other dim one element at 0 (the lanes
 *        are D's, also when the other dim is on workgroup dim 0). The
 *        rule depends on the dims only, so every op gets it.
 *      - read/write: reads and writes get elements_per_thread (default
 *        Max(ceiling(wg_tile / threads along its workgroup dim), 1)) along
 *        their fastest dim — the innermost one whose later dims have vector
 *        shape 1 — at (T_g % (64 if g == 0 else 1)) * ept; other ops take
 *        their first operand's index (propagation; a get_result k
 *        its iterate's output k's).
 *   3. Expansion: a dim is covered by copies = ceiling(wave_tile / vs)
 *      (workgroup dims), ceiling(tile / vs) (tiling dims, inside the loop)
 *      or ceiling(size / vs) (unconstrained dims; vs 0 means no copies);
 *      copy c adds c * vs (Wave's set_post_expansion_indices). vs is the
 *      MMA shape for M/N/K in MMA mode; else what a wave's lanes cover
 *      per copy (elements per lane, times 64 when the anchor has the
 *      lane), where the hardware vector_shapes gives the dim one; a dim
 *      without one is covered by one copy.
 *   4. Checks that reject what cannot be made correct (before isel sizes
 *      anything by it): a K tile that is not whole MMA steps, more
 *      elements per thread than a lane's registers hold, a reduction's
 *      partial results written where windows collide (a race).
 * Every expression is simplified under the ranges of the ids, the loop
 * variables and $J (the element within a copy), so later stages and
 * `wavecc dump-indices` see canonical forms. Bounds are not stored: isel
 * asks, per element, whether coord < size simplifies to true (the same
 * simplifier proves Wave's divisibility cases).
 * An alias of a tiled dim (K/2, K/32 in the loop over K) takes the loop's
 * window mapped through the alias expression (alias_loop), as the
 * interpreter windows it. A read whose one use is a width-changing bitcast
 * takes the bitcast's index, scaled (bitcast_read_index).
 * Index mappings (also with dynamic values) keep the register's index:
 * isel/memory.c maps each element. A read whose value an access takes
 * through dynamic_val_mappings gets the index that access needs
 * (dynindex.c). Not yet: shared-memory indexing.
 * Requires: analyze_constraints. Fills: c->mode, c->index, c->assume. */
#include <string.h>

#include "analysis.h"

enum {
	MAX_EPC = 64,     /* elements per copy, the bound given to $J */
	/* registers of one value per lane: a lane has 256 VGPRs and 256
	 * AGPRs; a value needing more can never be allocated, so it is
	 * reported here (check_value_regs), before isel sizes its tables by
	 * it. isel packs 16-, 8- and 4-bit elements 2, 4 and 8 to a dword
	 * where each copy's run fills whole dwords (isel_tval_new) */
	MAX_THREAD_REGS = 512,
	/* elements of one value per lane, checked dim by dim while an index
	 * is built (no product overflows): 4-bit ones packed eight to a
	 * dword fill the 512 registers at 4096 */
	MAX_THREAD_ELEMS = 4096,
};

/* scaled_mma adds its scales' roles (R_LSCALE over lhs's dims, R_RSCALE over
 * rhs's, each with K/32 for K) */
typedef enum Role { R_NONE, R_LHS, R_RHS, R_ACC, R_LSCALE, R_RSCALE } Role;

/* One MMA layout: a type and the dims in its M, N and K places. Chained
 * MMAs (attention) have one each; MMAs of the same type over the same
 * dims share one. */
typedef struct MmaLay {
	MmaType mma;
	Sym *mdim, *ndim, *kdim;
	/* scaled_mma: the scales' block dim (K/32; NULL when both scales are
	 * broadcast over K), and whether each lane's 32 k are two runs of 16
	 * half an MMA K apart (F32_16x16x128_F8F6F4 on f8 and f6 operands;
	 * f4 ones are one run of 32: Wave's MMA_SCALE_FP4) */
	Sym *ksdim;
	bool halves;
	const Op *op; /* the first mma with it */
	GenericDot gd; /* mma MMA_GENERIC_DOT: its parameters */
} MmaLay;

enum { MAX_LAYS = 8 };

typedef struct Ctx {
	Analysis *c;
	int *uses;      /* by value id: operand uses */
	SymCtx *sc;
	Role *role;     /* by value id (MMA mode) */
	uint8_t *lay;   /* by value id: the layout role[] refers to */
	MmaLay lays[MAX_LAYS];
	int nlay;
	bool keep;      /* set_role leaves values that have a role alone */
	/* the layout in use (use_lay): what the layout rules below read */
	int cur;
	MmaType mma;
	GenericDot gd;
	Sym *mdim, *ndim, *kdim, *ksdim;
	bool halves;
	const Op *mma_op;
	Sym *reduce_dim; /* reduce mode */
	Op **dvm_user;   /* by value id: an access taking it through dynamic_val_mappings */
	int *dvm_which;  /* ... as its dynamic value number */
} Ctx;

static void use_lay(Ctx *x, int l)
{
	const MmaLay *L = &x->lays[l];
	x->cur = l;
	x->mma = L->mma;
	x->gd = L->gd;
	x->mdim = L->mdim;
	x->ndim = L->ndim;
	x->kdim = L->kdim;
	x->ksdim = L->ksdim;
	x->halves = L->halves;
	x->mma_op = L->op;
}

static Sym *tsym(Analysis *c, const char *prefix, int g)
{
	char name[16];
	snprintf(name, sizeof name, "%s%d", prefix, g);
	return sym_symbol(c->k->sc, name);
}

static Sym *num(Ctx *x, int64_t v) { return sym_int(x->sc, v); }

TileLoop *analysis_tile(Analysis *c, const Sym *dim)
{
	for (int i = 0; i < c->ntile; i++)
		if (c->tile[i].dim == dim)
			return &c->tile[i];
	return NULL;
}

/* The loop whose body (or a body nested in it) holds op and iterates dim;
 * for a register that is the init value of an iterate over dim in its
 * region (a zero accumulator over the loop's dim, made before a nested
 * loop), that loop: the register's elements are the iter arg's, indexed
 * by the trip's window as the body's values are. */
static bool uses_value(const Op *op, const Value *v)
{
	for (int a = 0; a < op->nargs; a++)
		if (op->args[a] == v)
			return true;
	for (size_t i = 0; op->body && i < op->body->ops.len; i++)
		if (uses_value(op->body->ops.data[i], v))
			return true;
	return false;
}

/* The loop of an alias of a tiled dim inside the iterate over it (a
 * scale's K/32 in the loop over K, as the interpreter windows it): the
 * target's loop mapped through an alias expression target·p/q, its tile
 * tile·p/q (which must be whole), its window start base·p/q. NULL when
 * dim is no such alias or op is outside the loop. */
static TileLoop *alias_loop(Analysis *c, const Op *op, const Sym *dim)
{
	const Kernel *k = c->k;
	SymCtx *sc = k->sc;
	for (size_t j = 0; j < k->cons.len; j++) {
		const Constraint *con = &k->cons.data[j];
		if (con->kind != CON_SYMBOLIC_ALIAS || con->source != dim || !con->target || !con->expr)
			continue;
		TileLoop *t = NULL;
		for (Region *r = op->parent; r && r->owner && !t; r = r->parent)
			if (r->owner->kind == OP_ITERATE && r->owner->dim == con->target)
				t = analysis_tile(c, con->target);
		SymRat q;
		if (!t || !sym_is_num(sym_simplify(sc, sym_div(sc, con->expr, con->target), NULL), &q) || q.p <= 0 ||
			(t->tile * q.p) % q.q)
			return NULL;
		TileLoop *a = ARENA_NEW(&c->arena, TileLoop);
		*a = *t;
		Sym *r = sym_rat(sc, q.p, q.q);
		a->dim = (Sym *)dim;
		a->tile = t->tile * q.p / q.q;
		a->size = t->size >= 0 && (t->size * q.p) % q.q == 0 ? t->size * q.p / q.q : -1;
		a->start = sym_simplify(sc, sym_mul(sc, t->start, r), NULL);
		a->base = sym_simplify(sc, sym_mul(sc, t->base, r), NULL);
		return a;
	}
	return NULL;
}

static TileLoop *enclosing_loop(Analysis *c, const Op *op, const Sym *dim)
{
	for (Region *r = op->parent; r && r->owner; r = r->parent)
		if (r->owner->dim == dim)
			return analysis_tile(c, dim);
	TileLoop *al = alias_loop(c, op, dim);
	if (al)
		return al;
	if (op->kind != OP_REGISTER || !op->parent)
		return NULL;
	Value *res = op_result((Op *)op);
	bool used = false, in_loops = true;
	for (size_t i = 0; i < op->parent->ops.len; i++) {
		const Op *it = op->parent->ops.data[i];
		if (it->kind == OP_ITERATE && it->dim == dim)
			for (int a = 0; a < it->ninit; a++)
				if (it->args[a] == res)
					return analysis_tile(c, dim);
		if (uses_value(it, res)) {
			used = true;
			in_loops &= it->kind == OP_ITERATE && it->dim == dim;
		}
	}
	/* a splat made before the loop and used only inside it, or inside
	 * several loops over the dim (Wave's attention templates make their
	 * masks' ZEROF and MIN_INF and the [B, M, K2] scale before the loop
	 * over K2; extend attention's two loops over N_KV share them): the
	 * trip's window, as if made in each body, where every element is the
	 * same anyway */
	if (used && in_loops)
		return analysis_tile(c, dim);
	return NULL;
}

/* vector_shapes[dim] from the hardware constraint, -1 if not given. */
static int64_t hw_vector_shape(Ctx *x, const Sym *dim)
{
	const Constraint *hw = kernel_hardware(x->c->k);
	if (!hw)
		return -1;
	for (int i = 0; i < hw->nvector_shapes; i++)
		if (hw->vs_dims[i] == dim) {
			int64_t v;
			if (sym_is_int(kernel_subs(x->c->k, hw->vs_sizes[i]), &v))
				return v;
		}
	return -1;
}

/* Wave's K4 f8 types: the native f8 MFMA with each lane's 8 k in two runs
 * of 4, half an MMA K apart (Wave's "interleaved GPR offsets", which match
 * the accumulator layout of a preceding MMA in attention). The MFMA sums
 * over all of its K, so A and B agreeing on the order is all it needs. */
static bool k4_type(MmaType t) { return t == MMA_F32_16x16x32_K4_F8 || t == MMA_F32_32x32x16_K4_F8; }

static int64_t vector_shape(Ctx *x, const Sym *dim)
{
	if (x->c->mode == IM_MMA) {
		int m, n, k;
		mma_shape(x->mma, x->gd, 64, &m, &n, &k);
		if (dim == x->mdim)
			return m;
		if (dim == x->ndim)
			return n;
		if (dim == x->kdim)
			return k4_type(x->mma) || x->halves ? k / 2 : k; /* K4, halves: one run per copy */
		if (dim == x->ksdim)
			return k / MX_SCALE_GROUP; /* a scale per 32 k */
	}
	return hw_vector_shape(x, dim);
}

static Sym *lane(Ctx *x)
{
	return sym_mod(x->sc, tsym(x->c, "$T", 0), num(x, 64));
}

/* Step 1: the constraint part of dim's start for op. */
static Sym *constraint_start(Ctx *x, const Op *op, Sym *dim)
{
	Analysis *c = x->c;
	Sym *s = num(x, 0);
	DimDist *d = analysis_dist(c, dim);
	if (d) {
		s = sym_add(x->sc, s, d->wg_start);
		if (d->waves > 1) {
			Sym *wid = d->wg_dim == 0 ? sym_floor(x->sc, sym_div(x->sc, tsym(c, "$T", 0), num(x, 64)))
						  : tsym(c, "$T", d->wg_dim);
			s = sym_add(x->sc, s, sym_mul(x->sc, wid, num(x, d->wave_tile)));
		}
	}
	TileLoop *t = enclosing_loop(c, op, dim);
	if (t)
		s = sym_add(x->sc, s, t->base);
	return s;
}

/* The read/write rule's anchor for a dim with n elements. */
static Sym *rw_anchor(Ctx *x, Sym *dim, int64_t n)
{
	DimDist *d = analysis_dist(x->c, dim);
	if (!d || d->wg_dim != 0)
		return num(x, 0);
	return sym_mul(x->sc, lane(x), num(x, n));
}

/* Is dim the M, N or K (or scale block) dim of any of the kernel's MMA
 * layouts? */
static bool any_mma_dim(Ctx *x, const Sym *dim)
{
	for (int l = 0; l < x->nlay; l++) {
		const MmaLay *L = &x->lays[l];
		if (dim == L->mdim || dim == L->ndim || dim == L->kdim || (L->ksdim && dim == L->ksdim))
			return true;
	}
	return false;
}

/* In an MMA kernel, does a value without an MMA role hold dim without the
 * lane, where the read/write rule would put it (dim on workgroup dim 0)?
 * Wave's MMA mode gives no op a thread-dependent part along a dim that is
 * no MMA's M, N or K (its sources hold only those; an op the MMA does not
 * reach keeps the constraints' start: a read of per-sequence data along S
 * in paged decode attention). Where the op's window along dim is one
 * element (workgroup tile 1, one wave, no loop over it) every lane holds
 * that element; lanes past it would hold other workgroups' elements. A
 * longer window keeps the lanes (one element a thread would not cover
 * it). */
static bool lane_free(Ctx *x, const Op *op, const Sym *dim)
{
	DimDist *d = analysis_dist(x->c, dim);
	return x->c->mode == IM_MMA && d && d->wg_dim == 0 && d->wave_tile == 1 && !enclosing_loop(x->c, op, dim) &&
	       !any_mma_dim(x, dim);
}

/* Does a set_symbol in r set dim? (As a register dim it then has one
 * position, docs/kernel-format.md "set_symbol"; not when it sets the
 * extent of a distributed dim.) */
static bool dim_is_set(const Kernel *k, const Region *r, const Sym *dim)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if ((op->kind == OP_SET_SYMBOL && op->dim == dim && !op_sets_extent(k, op)) ||
			(op->body && dim_is_set(k, op->body, dim)))
			return true;
	}
	return false;
}

/* The length of op's window along dim (docs/interpreter.md, "Windows"):
 * the loop's tile inside the iterate over dim, else the wave tile of a
 * workgroup dim, else the whole dim (one position for a set symbol); -1
 * after an error. */
static int64_t window_length(Ctx *x, const Op *op, Sym *dim)
{
	DimDist *d = analysis_dist(x->c, dim);
	TileLoop *t = enclosing_loop(x->c, op, dim);
	if (!d && !t && dim_is_set(x->c->k, x->c->k->body, dim))
		return 1;
	if (t)
		return t->tile;
	if (d)
		return d->wave_tile;
	return analysis_int(x->c, dim, op->loc, sym_name(dim));
}

static void set_copies(Ctx *x, const Op *op, DimIndex *di)
{
	int64_t vs = vector_shape(x, di->dim);
	di->copies = 1;
	di->step = 0;
	if (vs <= 0 && x->c->mode == IM_MMA)
		return; /* Wave's "not expanded" (vector shape 0) */
	DimDist *d = analysis_dist(x->c, di->dim);
	int64_t extent = window_length(x, op, di->dim);
	if (extent <= 0)
		return; /* compile_int reported it */
	/* Outside MMA layouts a copy covers what the wave's lanes hold along
	 * the dim: size elements per lane, times 64 lanes when the anchor
	 * has the lane (the reduced dim, or a dim of workgroup dim 0), else
	 * one lane's run. Wave's vector shape assumes the two agree; where
	 * they do not (copy with BLOCK_M = 2 on workgroup dim 1: vector shape
	 * 2, one row per copy) the copies must follow the coverage, or part
	 * of the window is never read or written; so also without a vector
	 * shape (or 0) when the window is longer than the lanes' run.
	 * di->size <= MAX_EPC here (new_index checks it first). */
	if (x->c->mode != IM_MMA) {
		bool lanes = x->c->mode == IM_REDUCE ? di->dim == x->reduce_dim : d && d->wg_dim == 0;
		vs = di->size * (lanes ? 64 : 1);
	}
	di->copies = extent / vs + (extent % vs != 0);
	di->step = vs;
}

static bool is_mma_dim(Ctx *x, const Sym *dim)
{
	return dim == x->mdim || dim == x->ndim || dim == x->kdim || (x->ksdim && dim == x->ksdim);
}

/* A GenericDot's layout of one dim for a role (Wave's get_index_offset,
 * size and stride; out_vec_size 1): along N, lane l holds column
 * floor(l / k_mult) and k_vec consecutive k from (l % k_mult) * k_vec; the
 * row is every lane's (out_vec 1); along M, M and N swap. */
static bool dot_dim(Ctx *x, Role r, Sym *dim, DimIndex *di)
{
	SymCtx *sc = x->sc;
	const GenericDot *g = &x->gd;
	Sym *ln = lane(x), *spread = g->along_m ? x->mdim : x->ndim, *one = g->along_m ? x->ndim : x->mdim;
	di->stride = 1;
	di->size = 1;
	if (dim == x->kdim && r != R_ACC) {
		di->start = sym_mul(sc, sym_mod(sc, ln, num(x, g->k_mult)), num(x, g->k_vec));
		di->size = g->k_vec;
	} else if (dim == spread && (r == R_ACC || r == (g->along_m ? R_LHS : R_RHS))) {
		di->start = sym_floor(sc, sym_div(sc, ln, num(x, g->k_mult)));
	} else if (dim == one) {
		/* out_vec_size 1: one row (column) for all lanes; an operand
		 * that holds it besides its own dims (paged decode MHA's k and v
		 * hold the head B, the N of both MMAs) takes that one too, as
		 * Wave's offset for it is 0 in every role */
		di->start = num(x, 0);
	} else {
		return false;
	}
	return true;
}

/* MMA layout of one dim for a role (Wave's constraints.py, MMAType and
 * ScaledMMAType). */
static bool mma_dim(Ctx *x, Role r, Sym *dim, DimIndex *di)
{
	if (x->mma == MMA_GENERIC_DOT)
		return dot_dim(x, r, dim, di);
	const MmaInfo *mi = &mma_info[x->mma];
	SymCtx *sc = x->sc;
	Sym *ln = lane(x), *J = sym_symbol(sc, "$J");
	int64_t rows = mi->m; /* 16 or 32 lanes share a column */
	Sym *grp = sym_floor(sc, sym_div(sc, ln, num(x, rows)));
	bool scale = r == R_LSCALE || r == R_RSCALE;
	if (dim == x->kdim && (r == R_LHS || r == R_RHS)) {
		/* each group of `rows` lanes holds k / (64 / rows) consecutive k:
		 * 4 for the native types, 8 for the K8 ones (two native MFMAs,
		 * the first on elements 0-3, the second on 4-7), 32 for the
		 * scaled ones (f4: one run; f8, f6 on 16x16x128: two runs of 16,
		 * 64 k apart, one per copy as K4's) */
		int64_t kper = k4_type(x->mma) ? 4 : x->halves ? 16 : mi->k * rows / 64;
		di->start = sym_mul(sc, grp, num(x, kper));
		di->size = kper;
		di->stride = 1;
	} else if (scale && x->ksdim && dim == x->ksdim) {
		/* the scale of row m's block b sits in lane m + rows * b: one a
		 * lane, whatever the operands' k layout */
		di->start = grp;
		di->size = 1;
		di->stride = 1;
	} else if ((dim == x->mdim && r != R_ACC && r != R_RSCALE) || (dim == x->ndim && r == R_RHS) ||
		   (dim == x->ndim && r == R_RSCALE) || (dim == x->ndim && r == R_ACC)) {
		di->start = sym_mod(sc, ln, num(x, rows));
		di->size = 1;
		di->stride = 1;
	} else if (dim == x->mdim && r == R_ACC) {
		if (mi->m == 16) {
			di->start = sym_mul(sc, grp, num(x, 4));
			di->size = 4;
		} else {
			/* vgpr g holds row 8*floor(g/4) + 4*floor(lane/32) + g%4 */
			di->coord = sym_add(sc, sym_add(sc, sym_mul(sc, sym_floor(sc, sym_div(sc, J, num(x, 4))), num(x, 8)),
						       sym_mul(sc, grp, num(x, 4))),
				sym_mod(sc, J, num(x, 4)));
			di->start = sym_mul(sc, grp, num(x, 4));
			di->size = 16;
		}
		di->stride = mi->n;
	} else {
		return false;
	}
	return true;
}

/* The reduced dim's coverage against its window: the wave's copies must
 * tile the window exactly, or else cover more only past the dim's end
 * with the window the only one along the dim (no other wave, workgroup
 * or loop trip owns what lies beyond): then di->limit marks where the
 * reduction leaves the lanes out, and writes there are out of bounds.
 * Otherwise the lanes would fold other windows' elements. */
static bool reduced_window(Ctx *x, const Op *op, DimIndex *di)
{
	Analysis *c = x->c;
	int64_t w = window_length(x, op, di->dim), cover = di->copies * di->step;
	const DimDist *d = analysis_dist(c, di->dim);
	bool single = !enclosing_loop(c, op, di->dim) && (!d || (d->count == 1 && d->waves == 1));
	if (cover == w)
		return true;
	if (cover > w && single) {
		di->limit = w;
		return true;
	}
	analysis_error(c, op->loc, "%s: the reduced dim %s is covered in %lld copies of %lld elements per wave, but the "
				  "wave's window of %s is %lld long and not the only one: vector shapes that do not "
				  "tile the window exactly are not supported",
		op->path, sym_name(di->dim), (long long)di->copies, (long long)di->step, sym_name(di->dim), (long long)w);
	return false;
}

static NodeIndex *new_index(Ctx *x, const Op *op, Shape sh, Role role, int64_t rw_ept);

/* In an MMA kernel, a value without an MMA role gets the read/write
 * anchors (the lane on the dim of workgroup dim 0) but the MMA's vector
 * shapes as copy steps; the two agree only where a copy steps by what the
 * lanes cover. */
static bool rw_covers(Ctx *x, const Op *op, const NodeIndex *ni)
{
	for (int i = 0; i < ni->ndims; i++) {
		const DimIndex *di = &ni->d[i];
		DimDist *d = analysis_dist(x->c, di->dim);
		if (lane_free(x, op, di->dim))
			continue; /* its one element is the whole window */
		int64_t cover = di->size * (d && d->wg_dim == 0 ? 64 : 1);
		if (di->step > 0 && di->step != cover)
			return false;
	}
	return true;
}

/* Where they do not, Wave's vector-shape layout (its access pattern for
 * ops outside the MMA): a copy is one block of the dims' vector shapes,
 * row-major, its elements dealt to the 64 lanes in runs of ept = block /
 * 64 along the last dim (lanes repeat the block when it is smaller than
 * 64); copies step by the vector shapes over the window, which they must
 * tile. NULL after reporting what it cannot lay out. */
static NodeIndex *vs_index(Ctx *x, const Op *op, Shape sh)
{
	Analysis *c = x->c;
	SymCtx *sc = x->sc;
	int64_t vs[MAX_DIMS], block = 1;
	int fast = -1;
	for (int i = 0; i < sh.rank; i++) {
		vs[i] = vector_shape(x, sh.dims[i]);
		if (vs[i] < 1)
			vs[i] = 1;
		if (vs[i] > 1)
			fast = i;
		block *= vs[i];
	}
	int64_t ept = block >= 64 ? block / 64 : 1;
	if ((block >= 64 && block % 64) || (fast >= 0 && vs[fast] % ept) || ept > MAX_EPC) {
		analysis_error(c, op->loc, "%s: this value has no MMA role and its vector shapes (%lld elements a block) "
					  "do not deal evenly to the 64 lanes: not compiled yet",
			op->path, (long long)block);
		return NULL;
	}
	NodeIndex *ni = ARENA_NEW(&c->arena, NodeIndex);
	ni->ndims = sh.rank;
	ni->ncopies = 1;
	ni->epc = ept;
	Sym *J = sym_symbol(sc, "$J");
	Sym *pos = sym_mul(sc, block >= 64 ? lane(x) : sym_mod(sc, lane(x), num(x, block)), num(x, ept));
	int64_t stride = block;
	for (int i = 0; i < sh.rank; i++) {
		DimIndex *di = &ni->d[i];
		stride /= vs[i];
		*di = (DimIndex){.dim = sh.dims[i], .size = i == fast ? ept : 1, .stride = 1};
		Sym *at = sym_mod(sc, sym_floor(sc, sym_div(sc, pos, num(x, stride))), num(x, vs[i]));
		Sym *cs = constraint_start(x, op, di->dim);
		di->start = sym_simplify(sc, sym_add(sc, at, cs), c->assume);
		di->coord = di->size > 1 ? sym_simplify(sc, sym_add(sc, di->start, J), c->assume) : di->start;
		int64_t w = window_length(x, op, di->dim);
		if (w <= 0)
			return NULL;
		di->copies = w / vs[i] + (w % vs[i] != 0);
		di->step = vs[i];
		if (di->copies * vs[i] != w && di->copies > 1) {
			analysis_error(c, op->loc, "%s: this value has no MMA role, and the vector shape %lld of %s does not "
						  "tile its window of %lld: not compiled yet",
				op->path, (long long)vs[i], sym_name(di->dim), (long long)w);
			return NULL;
		}
		if (di->copies > MAX_THREAD_ELEMS / ni->epc / ni->ncopies) {
			analysis_error(c, op->loc, "%s: %s is covered by %lld copies of %lld element(s) per thread: one value "
						  "of more than %d elements per thread does not fit in a lane's registers",
				op->path, sym_name(di->dim), (long long)di->copies, (long long)di->size, MAX_THREAD_ELEMS);
			return NULL;
		}
		ni->ncopies *= di->copies;
	}
	return ni;
}

static NodeIndex *new_index(Ctx *x, const Op *op, Shape sh, Role role, int64_t rw_ept)
{
	Analysis *c = x->c;
	SymCtx *sc = x->sc;
	NodeIndex *ni = ARENA_NEW(&c->arena, NodeIndex);
	Sym *J = sym_symbol(sc, "$J");
	if (sh.rank > MAX_DIMS) {
		analysis_error(c, op->loc, "%s: rank %d is more than %d dims", op->path, sh.rank, MAX_DIMS);
		return NULL;
	}
	/* the read/write fastest dim: innermost with only vector-shape-1 dims after it */
	int fast = sh.rank - 1;
	while (x->c->mode == IM_READ_WRITE && fast > 0 && vector_shape(x, sh.dims[fast]) == 1)
		fast--;
	ni->ndims = sh.rank;
	ni->ncopies = 1;
	ni->epc = 1;
	for (int i = 0; i < sh.rank; i++) {
		DimIndex *di = &ni->d[i];
		di->dim = sh.dims[i];
		di->size = 1;
		di->stride = 1;
		if (c->mode == IM_MMA && role != R_NONE && !is_mma_dim(x, di->dim)) {
			/* a batch dim: one element per thread, the workgroup's (or
			 * loop trip's) only one; a window of more would leave
			 * elements uncovered (batch dims are not expanded) */
			di->start = num(x, 0);
			int64_t w = window_length(x, op, di->dim);
			if (w != 1) {
				if (w > 1)
					analysis_error(c, op->loc, "%s: batch dim %s has a window of %lld per workgroup: only 1 is "
								  "compiled (a workgroup constraint with tile 1)",
						op->path, sym_name(di->dim), (long long)w);
				return NULL;
			}
		} else if (c->mode == IM_MMA && role != R_NONE) {
			if (!mma_dim(x, role, di->dim, di)) {
				analysis_error(c, op->loc, "%s: dim %s has no place in the MMA layout", op->path,
					sym_name(di->dim));
				return NULL;
			}
		} else if (c->mode == IM_REDUCE && di->dim == x->reduce_dim) {
			int64_t vs = vector_shape(x, di->dim);
			if (vs <= 0) {
				analysis_error(c, op->loc, "%s: the reduced dim %s has no positive vector shape (%lld)",
					op->path, sym_name(di->dim), (long long)vs);
				return NULL;
			}
			/* a vector shape that is not a multiple of 64 rounds up; the
			 * lanes past the window are left out of the reduction (below) */
			di->size = vs / 64 + (vs % 64 != 0);
			di->start = sym_mul(sc, lane(x), num(x, di->size));
		} else if (c->mode == IM_READ_WRITE && i == fast) {
			di->size = rw_ept;
			di->start = rw_anchor(x, di->dim, rw_ept);
		} else if (c->mode == IM_REDUCE) {
			di->start = num(x, 0); /* the lanes hold the reduced dim */
		} else if (lane_free(x, op, di->dim)) {
			di->start = num(x, 0); /* the window's one element, every lane */
		} else {
			di->start = rw_anchor(x, di->dim, 1);
		}
		if (c->mode != IM_MMA || role == R_NONE)
			for (int j = i + 1; j < sh.rank; j++) {
				int64_t vs = vector_shape(x, sh.dims[j]);
				if (__builtin_mul_overflow(di->stride, vs > 0 ? vs : 1, &di->stride)) {
					analysis_error(c, op->loc, "%s: the vector shapes of %s's inner dims multiply past 2^63",
						op->path, sym_name(di->dim));
					return NULL;
				}
			}
		if (di->size > MAX_EPC) {
			analysis_error(c, op->loc, "%s: %lld elements of %s per thread in one run: at most %d are compiled yet",
				op->path, (long long)di->size, sym_name(di->dim), MAX_EPC);
			return NULL;
		}
		Sym *cs = constraint_start(x, op, di->dim);
		di->start = sym_simplify(sc, sym_add(sc, di->start, cs), c->assume);
		if (di->coord)
			di->coord = sym_simplify(sc, sym_add(sc, di->coord, cs), c->assume);
		else
			di->coord = di->size > 1 ? sym_simplify(sc, sym_add(sc, di->start, J), c->assume) : di->start;
		set_copies(x, op, di);
		if (c->mode == IM_REDUCE && di->dim == x->reduce_dim && !c->failed && !reduced_window(x, op, di))
			return NULL;
		if (di->size > 1 && ni->epc > 1) {
			analysis_error(c, op->loc, "%s: elements along two dims per thread are not compiled yet", op->path);
			return NULL;
		}
		ni->epc *= di->size;
		if (di->copies > MAX_THREAD_ELEMS / ni->epc / ni->ncopies) {
			analysis_error(c, op->loc, "%s: %s is covered by %lld copies of %lld element(s) per thread: one value "
						  "of more than %d elements per thread does not fit in a lane's registers "
						  "(smaller tiles or more waves)",
				op->path, sym_name(di->dim), (long long)di->copies, (long long)di->size, MAX_THREAD_ELEMS);
			return NULL;
		}
		ni->ncopies *= di->copies;
	}
	if (ni->epc > MAX_EPC) {
		analysis_error(c, op->loc, "%s: %lld elements per thread in one run: at most %d are compiled yet", op->path,
			(long long)ni->epc, MAX_EPC);
		return NULL;
	}
	if (c->mode == IM_MMA && role == R_NONE && !rw_covers(x, op, ni)) {
		return vs_index(x, op, sh);
	}
	return ni;
}

/* MMA roles: backward from each mma through casts, iterate outputs, iter
 * args and init args; forward from accumulators to iterate results. */
static void set_role(Ctx *x, Value *v, Role r);

static void set_role_of_op(Ctx *x, Op *op, Role r)
{
	if (!op)
		return;
	if (op->kind == OP_CAST || op_is_unary(op->kind) || op->kind == OP_BROADCAST || op->kind == OP_PERMUTE ||
		(op->kind == OP_BITCAST && dtype_bits(op->dtype) == dtype_bits(op->args[0]->dtype)))
		/* (a bitcast of one width: the same elements; a permute: the
		 * same elements by dim name, the MMA layout being by name; without
		 * this a read under a permute kept its read/write layout and the
		 * mma took it as its operand's: a wrong product) */
		set_role(x, op->args[0], r);
	else if (op_is_binary(op->kind)) {
		/* an elementwise op on an MMA operand (a scaled A): its operands
		 * hold their elements in the same layout, projected on their own
		 * dims (a scale along K is read into the lanes that use it) */
		for (int a = 0; a < op->nargs; a++)
			if (op->args[a] && op->args[a]->shape.rank <= op_result(op)->shape.rank)
				set_role(x, op->args[a], r);
	} else if (op->kind == OP_ITERATE && r == R_ACC) {
		/* the iterate's results are its output values */
		Op *out = vec_last(&op->body->ops);
		for (int i = 0; i < out->nargs; i++)
			set_role(x, out->args[i], r);
	}
}

static void set_role(Ctx *x, Value *v, Role r)
{
	if (!v || (x->role[v->id] == r && x->lay[v->id] == x->cur) || (x->keep && x->role[v->id] != R_NONE))
		return;
	x->role[v->id] = r;
	x->lay[v->id] = (uint8_t)x->cur;
	if (v->kind == VAL_RESULT)
		set_role_of_op(x, v->def, r);
	else if (v->kind == VAL_ITER_ARG && v->arg_idx < v->loop->ninit)
		set_role(x, v->loop->args[v->arg_idx], r);
}

/* The layout of mma op (added on first sight), or -1 after an error. */
/* A scale's block dim: its dim that its operand lacks (the frontend made
 * it K/32), or NULL for a scale broadcast over K. */
static Sym *scale_dim(const Value *sc, const Value *x)
{
	for (int i = 0; i < sc->shape.rank; i++)
		if (shape_find(x->shape, sc->shape.dims[i]) < 0)
			return sc->shape.dims[i];
	return NULL;
}

static int mma_lay(Ctx *x, const Op *op)
{
	Analysis *c = x->c;
	bool scaled = op->kind == OP_SCALED_MMA;
	Value *a = op->args[0], *b = op->args[scaled ? 2 : 1];
	int ra = a->shape.rank, rb = b->shape.rank;
	if (ra < 2 || rb < 2) {
		analysis_error(c, op->loc, "%s: mma operands need two dims (M, K and N, K)", op->path);
		return -1;
	}
	/* m, n: the accumulator's last two dims; k: the operands' last (the
	 * loader puts a permute before an operand whose last dim is not k);
	 * any other dim is a batch dim, wherever it stands (an operand
	 * [M, B, K] beside an accumulator [B, M, N]: by position B would be
	 * taken for M) */
	const Value *acc = op->args[scaled ? 4 : 2];
	int rc = acc->shape.rank;
	if (rc < 2) {
		analysis_error(c, op->loc, "%s: the mma's accumulator needs two dims (M, N)", op->path);
		return -1;
	}
	MmaLay L = {op_mma_type(c->k, op), acc->shape.dims[rc - 2], acc->shape.dims[rc - 1], a->shape.dims[ra - 1],
		NULL, false, op, op_generic_dot(c->k, op)};
	if (shape_find(a->shape, L.mdim) < 0 || shape_find(b->shape, L.ndim) < 0) {
		analysis_error(c, op->loc, "%s: the operands lack the accumulator's %s (lhs) or %s (rhs)", op->path,
			sym_name(L.mdim), sym_name(L.ndim));
		return -1;
	}
	if (scaled) {
		Sym *la = scale_dim(op->args[1], a), *lb = scale_dim(op->args[3], b);
		L.ksdim = la ? la : lb;
		if (la && lb && la != lb) {
			analysis_error(c, op->loc, "%s: the scales' block dims differ (%s, %s)", op->path, sym_name(la),
				sym_name(lb));
			return -1;
		}
		/* Wave lays f4 operands out in one run of 32 k and the others in
		 * two (MMA_SCALE_FP4): one operand of each would pair different
		 * k in the lanes */
		if ((a->dtype == DT_F4E2M1FN) != (b->dtype == DT_F4E2M1FN)) {
			analysis_error(c, op->loc, "%s: scaled_mma of %s and %s operands: f4 with another element type is not "
						  "laid out yet (Wave's scaled MMAs take one element type)",
				op->path, dtype_name(a->dtype), dtype_name(b->dtype));
			return -1;
		}
		/* (gfx950 lays 8-bit operands of 32x32x64 out in halves too, K/2
		 * apart: AMD's CDNA4 matrix-core blog's fp8 32x32x64 example, and
		 * the emulator; Wave's offsets say one run there, which only scales
		 * that differ along K would tell apart) */
		L.halves = a->dtype != DT_F4E2M1FN;
	}
	if (b->shape.dims[rb - 1] != L.kdim) {
		/* B given as [K, N] (the textbook layout) where Wave's mma takes
		 * it as [N, K] */
		bool kn = b->shape.dims[rb - 2] == L.kdim;
		analysis_error(c, op->loc, "%s: the operands' last dims (%s, %s) differ: both are K%s", op->path,
			sym_name(L.kdim), sym_name(b->shape.dims[rb - 1]),
			kn ? "; Wave's mma takes its rhs as [N, K] (c = a·bᵀ): declare that memory [N, K], or read "
			     "a [K, N] buffer through an index mapping to [N, K]"
			   : "");
		return -1;
	}
	for (int l = 0; l < x->nlay; l++)
		if (x->lays[l].mma == L.mma && x->lays[l].mdim == L.mdim && x->lays[l].ndim == L.ndim &&
			x->lays[l].kdim == L.kdim && x->lays[l].ksdim == L.ksdim && x->lays[l].halves == L.halves &&
			(L.mma != MMA_GENERIC_DOT || !memcmp(&x->lays[l].gd, &L.gd, sizeof L.gd)))
			return l;
	if (x->nlay == MAX_LAYS) {
		analysis_error(c, op->loc, "%s: more than %d different MMA layouts in one kernel", op->path, MAX_LAYS);
		return -1;
	}
	x->lays[x->nlay] = L;
	return x->nlay++;
}

static void find_mode(Ctx *x, Region *r)
{
	Analysis *c = x->c;
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (op->kind == OP_MMA || op->kind == OP_SCALED_MMA) {
			c->mode = IM_MMA;
			if (mma_lay(x, op) < 0)
				return;
		} else if ((op_is_reduce(op->kind) || op->kind == OP_TOPK) && c->mode == IM_READ_WRITE) {
			c->mode = IM_REDUCE; /* topk selects along its dim as a reduction folds it */
			x->reduce_dim = op->dim;
		} else if ((op_is_reduce(op->kind) || op->kind == OP_TOPK) && c->mode == IM_REDUCE &&
			   op->dim != x->reduce_dim) {
			analysis_error(c, op->loc, "%s: reductions over two dims (%s, %s) are not compiled yet", op->path,
				sym_name(x->reduce_dim), sym_name(op->dim));
			return;
		}
		if (op->body)
			find_mode(x, op->body);
	}
}

/* Does every dim of sh lie in the accumulator's dims (M, N)? With chained
 * MMAs also the batch dims of the mma's accumulator count (attention's
 * softmax runs on [B, M, K2] in the first MMA's result layout). */
static bool in_acc_dims(Ctx *x, Shape sh)
{
	int mn = 0;
	const Shape *acc = x->nlay > 1 ? &op_result(x->mma_op)->shape : NULL;
	for (int i = 0; i < sh.rank; i++) {
		if (sh.dims[i] == x->mdim || sh.dims[i] == x->ndim) {
			mn++;
			continue;
		}
		bool batch = false;
		for (int j = 0; acc && j < acc->rank; j++)
			batch |= acc->dims[j] == sh.dims[i];
		if (!batch)
			return false;
	}
	return mn > 0;
}

/* How many of sh's dims are the layout's M or N. */
static int acc_dims(Ctx *x, Shape sh)
{
	int n = 0;
	for (int i = 0; i < sh.rank; i++)
		n += sh.dims[i] == x->mdim || sh.dims[i] == x->ndim;
	return n;
}

static Role value_role(Ctx *x, Value *v);

/* The epilogue (Wave's index propagation past the loop): an elementwise op
 * or cast of an accumulator-role value over the accumulator's dims holds
 * its elements in the accumulator layout too, and so do its other operands
 * — a bias along N or M is read straight into the lanes that add it,
 * projected onto its own dims (mma_dim gives each dim its part), instead of
 * in the read/write layout and moved across lanes. Backward through
 * unary ops, casts and binary ops of those operands. Graph order is a
 * topological order, so one walk suffices. */
static void set_acc_operands(Ctx *x, Op *op)
{
	for (int a = 0; a < op->nargs; a++) {
		Value *v = op->args[a];
		if (!v || value_role(x, v) != R_NONE || !in_acc_dims(x, v->shape))
			continue;
		x->role[v->id] = R_ACC;
		x->lay[v->id] = (uint8_t)x->cur;
		if (v->kind == VAL_ITER_ARG && v->arg_idx < v->loop->ninit)
			set_role(x, v->loop->args[v->arg_idx], R_ACC); /* its init holds the same elements */
		/* (a permute too: its operand holds the same elements, read in
		 * the accumulator's lanes instead of moved across them) */
		if (v->kind == VAL_RESULT && (op_is_unary(v->def->kind) || op_is_binary(v->def->kind) ||
						     v->def->kind == OP_CAST || v->def->kind == OP_BROADCAST ||
						     v->def->kind == OP_PERMUTE || v->def->kind == OP_SELECT ||
						     v->def->kind == OP_APPLY_EXPR || op_is_compare(v->def->kind)))
			set_acc_operands(x, v->def);
	}
}

static void acc_forward(Ctx *x, Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (op->body)
			acc_forward(x, op->body);
		Value *res = op_result(op);
		/* a reduction over M or N of an accumulator-role value keeps the
		 * other dim's accumulator layout (Wave's gemm-and-reduce: each
		 * lane's rows or columns, the reduced dim gone) */
		bool red = op_is_reduce(op->kind) && (op->dim == x->mdim || op->dim == x->ndim) && res &&
			   res->shape.rank == 1;
		if (!res || x->role[res->id] != R_NONE || !in_acc_dims(x, res->shape) || (res->shape.rank != 2 && !red) ||
			!(op_is_unary(op->kind) || op_is_binary(op->kind) || op->kind == OP_CAST || red))
			continue;
		bool acc = false;
		for (int a = 0; a < op->nargs; a++)
			acc |= op->args[a] && value_role(x, op->args[a]) == R_ACC;
		if (!acc)
			continue;
		x->role[res->id] = R_ACC;
		x->lay[res->id] = (uint8_t)x->cur;
		set_acc_operands(x, op);
	}
}

/* Backward roles from every mma, each in its own layout. */
static void mma_roles(Ctx *x, Region *r)
{
	for (size_t i = 0; i < r->ops.len && !x->c->failed; i++) {
		Op *op = r->ops.data[i];
		if (op->body)
			mma_roles(x, op->body);
		if (op->kind != OP_MMA && op->kind != OP_SCALED_MMA)
			continue;
		int l = mma_lay(x, op);
		if (l < 0)
			return;
		use_lay(x, l);
		Value *res = op_result(op);
		x->role[res->id] = R_ACC; /* first: the operands may come from it */
		x->lay[res->id] = (uint8_t)l;
		if (op->kind == OP_SCALED_MMA) {
			set_role(x, op->args[0], R_LHS);
			set_role(x, op->args[1], R_LSCALE);
			set_role(x, op->args[2], R_RHS);
			set_role(x, op->args[3], R_RSCALE);
			set_role(x, op->args[4], R_ACC);
			continue;
		}
		set_role(x, op->args[0], R_LHS);
		set_role(x, op->args[1], R_RHS);
		set_role(x, op->args[2], R_ACC);
	}
}

/* Chained MMAs: a computed value takes its layout from what computes it,
 * so the first MMA's result keeps its accumulator layout through the
 * softmax (elementwise ops, casts, permutes, reductions over its M or N)
 * up to the next mma, which gathers its operand from it (isel, through
 * Analysis.mma_operand). Loop-carried values take their output's layout
 * and give it to their init; the walk repeats until nothing changes. The
 * backward roles (mma_roles, run after with `keep`) then place only
 * what no computation placed: reads, registers, casts of reads. */
static Role value_role(Ctx *x, Value *v);
static int value_lay(Ctx *x, Value *v);

static bool forward_op(Ctx *x, Op *op)
{
	Value *res = op_result(op);
	if (!res || x->role[res->id] != R_NONE)
		return false;
	if (op->kind == OP_MMA || op->kind == OP_SCALED_MMA) {
		x->role[res->id] = R_ACC;
		x->lay[res->id] = (uint8_t)mma_lay(x, op);
		return true;
	}
	bool shape_op = op_is_unary(op->kind) || op_is_binary(op->kind) || op->kind == OP_CAST ||
			op->kind == OP_PERMUTE || op_is_reduce(op->kind);
	if (!shape_op)
		return false;
	/* the accumulator-role operand that covers the result best: the
	 * result's own rank first */
	int best = -1, lay = 0;
	for (int a = 0; a < op->nargs; a++) {
		Value *v = op->args[a];
		if (!v || value_role(x, v) != R_ACC)
			continue;
		if (best < 0 || (v->shape.rank == res->shape.rank && op->args[best]->shape.rank != res->shape.rank)) {
			best = a;
			lay = value_lay(x, v);
		}
	}
	if (best < 0)
		return false;
	use_lay(x, lay);
	bool red = op_is_reduce(op->kind);
	if (red && op->dim != x->mdim && op->dim != x->ndim)
		return false;
	if (!in_acc_dims(x, res->shape) || acc_dims(x, res->shape) != (red ? 1 : 2))
		return false;
	x->role[res->id] = R_ACC;
	x->lay[res->id] = (uint8_t)lay;
	set_acc_operands(x, op);
	return true;
}

static bool forward_roles(Ctx *x, Region *r)
{
	bool changed = false;
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (op->body) {
			changed |= forward_roles(x, op->body);
			Op *out = vec_last(&op->body->ops);
			for (int p = 0; p < op->body->nparams && p < out->nargs; p++) {
				Value *ia = op->body->params[p], *o = out->args[p];
				if (x->role[ia->id] != R_NONE || value_role(x, o) == R_NONE)
					continue;
				use_lay(x, value_lay(x, o));
				set_role(x, ia, value_role(x, o)); /* and its init */
				changed = true;
			}
		}
		changed |= forward_op(x, op);
	}
	return changed;
}

/* One layout: a loop-carried value whose iter arg no op of the body
 * places (it is only passed on to an output, or read by nothing) takes its
 * output value's role, and gives it to its init, so that the carried
 * registers have the layout of what goes back into them. Repeated until
 * nothing changes (an output may be another carried value's iter arg). */
static bool carried_roles(Ctx *x, Region *r)
{
	bool changed = false;
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (!op->body)
			continue;
		changed |= carried_roles(x, op->body);
		if (op->kind != OP_ITERATE)
			continue;
		Op *out = vec_last(&op->body->ops);
		for (int p = 0; p < op->body->nparams && p < out->nargs; p++) {
			Value *ia = op->body->params[p], *o = out->args[p];
			if (x->role[ia->id] != R_NONE || value_role(x, o) == R_NONE)
				continue;
			set_role(x, ia, value_role(x, o)); /* and its init */
			changed = true;
		}
	}
	return changed;
}

/* A value's MMA role; an iterate result has its output value's. */
static Role value_role(Ctx *x, Value *v)
{
	if (v->kind == VAL_RESULT && v->def->kind == OP_ITERATE) {
		Op *out = vec_last(&v->def->body->ops);
		if (v->res_idx < out->nargs)
			return value_role(x, out->args[v->res_idx]);
	}
	/* get_result k of an iterate: its output k's role */
	if (v->kind == VAL_RESULT && v->def->kind == OP_GET_RESULT && v->def->nargs && v->def->args[0] &&
		v->def->args[0]->kind == VAL_RESULT && v->def->args[0]->def->kind == OP_ITERATE) {
		Op *out = vec_last(&v->def->args[0]->def->body->ops);
		if (v->def->res_idx < out->nargs)
			return value_role(x, out->args[v->def->res_idx]);
	}
	return x->role[v->id];
}

/* The layout value_role refers to. */
static int value_lay(Ctx *x, Value *v)
{
	if (v->kind == VAL_RESULT && v->def->kind == OP_ITERATE) {
		Op *out = vec_last(&v->def->body->ops);
		if (v->res_idx < out->nargs)
			return value_lay(x, out->args[v->res_idx]);
	}
	if (v->kind == VAL_RESULT && v->def->kind == OP_GET_RESULT && v->def->nargs && v->def->args[0] &&
		v->def->args[0]->kind == VAL_RESULT && v->def->args[0]->def->kind == OP_ITERATE) {
		Op *out = vec_last(&v->def->args[0]->def->body->ops);
		if (v->def->res_idx < out->nargs)
			return value_lay(x, out->args[v->def->res_idx]);
	}
	return x->lay[v->id];
}

static int64_t default_ept(Ctx *x, const Op *op, Shape sh)
{
	if (op->ept)
		return op->ept;
	int fast = sh.rank - 1;
	while (fast > 0 && vector_shape(x, sh.dims[fast]) == 1)
		fast--;
	DimDist *d = fast >= 0 ? analysis_dist(x->c, sh.dims[fast]) : NULL;
	if (!d)
		return 1;
	int64_t t = x->c->wg_size[d->wg_dim], n = d->wg_tile / t + (d->wg_tile % t != 0);
	/* a run longer than MAX_EPC: its largest divisor that fits, the rest
	 * in copies (block_scan's 125 elements a lane at N = 32000: 5 copies
	 * of 25) */
	for (int64_t e = MAX_EPC; n > MAX_EPC && e >= 1; e--)
		if (n % e == 0)
			return e;
	return n > 1 ? n : 1;
}

/* The index of the elements v holds: an op's; result k of an iterate or
 * conditional (what get_result k takes) its output value k's, not the op's
 * own (its first output's: a [S, B] max where result 2 is an [S, B, N]
 * sum); an iter arg its init's. */
static NodeIndex *operand_index(Ctx *x, Value *v)
{
	if (v->kind == VAL_RESULT && v->def->body && v->res_idx > 0 && v->def->body->ops.len) {
		Op *out = vec_last(&v->def->body->ops);
		if (out->kind == OP_OUTPUT && v->res_idx < out->nargs && out->args[v->res_idx])
			return operand_index(x, out->args[v->res_idx]);
	}
	if (v->kind == VAL_RESULT)
		return x->c->index[v->def->id];
	if (v->kind == VAL_ITER_ARG && v->arg_idx < v->loop->ninit)
		return operand_index(x, v->loop->args[v->arg_idx]);
	return NULL;
}

/* src's index with its dims in the order of sh (the same set), or NULL. */
static NodeIndex *index_reordered(Ctx *x, const NodeIndex *src, Shape sh)
{
	if (!src || src->ndims != sh.rank)
		return NULL;
	NodeIndex *ni = ARENA_NEW(&x->c->arena, NodeIndex);
	*ni = *src;
	for (int i = 0; i < sh.rank; i++) {
		const DimIndex *d = index_dim(src, sh.dims[i]);
		if (!d)
			return NULL;
		ni->d[i] = *d;
	}
	return ni;
}

/* A write of src's register into memory with more dims (decode attention's
 * [B, M] log-sum-exp into [U, B, M]): the register's dims keep their
 * index; a dim it lacks gets the wave's window start, which must be its
 * only element (a window of 1: the alias split slot U). NULL otherwise. */
static NodeIndex *index_widened(Ctx *x, const Op *op, const NodeIndex *src, Shape sh)
{
	if (!src || src->ndims >= sh.rank)
		return NULL;
	NodeIndex *ni = ARENA_NEW(&x->c->arena, NodeIndex);
	*ni = *src;
	ni->ndims = sh.rank;
	int found = 0;
	for (int i = 0; i < sh.rank; i++) {
		const DimIndex *d = index_dim(src, sh.dims[i]);
		if (d) {
			ni->d[i] = *d;
			found++;
			continue;
		}
		if (window_length(x, op, sh.dims[i]) != 1)
			return NULL;
		DimIndex *di = &ni->d[i];
		*di = (DimIndex){.dim = sh.dims[i], .size = 1, .stride = 1, .copies = 1};
		di->start = di->coord = sym_simplify(x->sc, constraint_start(x, op, sh.dims[i]), x->c->assume);
	}
	return found == src->ndims ? ni : NULL;
}

/* A reduction's result in its source's layout, the reduced dim gone: the
 * other dims keep their lanes, copies and elements (each lane's partial
 * result lies where its source elements lay), which is what isel/reduce.c
 * folds into (an MMA operand's rows, Wave's gemm-and-reduce). NULL when
 * src lacks the dim or holds elements along it and another dim at once. */
static NodeIndex *index_reduced(Ctx *x, const NodeIndex *src, const Sym *dim)
{
	if (!src)
		return NULL;
	NodeIndex *ni = ARENA_NEW(&x->c->arena, NodeIndex);
	*ni = *src;
	ni->ndims = 0;
	bool found = false;
	for (int i = 0; i < src->ndims; i++) {
		if (src->d[i].dim != dim) {
			ni->d[ni->ndims++] = src->d[i];
			continue;
		}
		found = true;
		ni->ncopies = src->ncopies / src->d[i].copies;
		ni->epc = src->epc / src->d[i].size;
	}
	return found ? ni : NULL;
}

/* An mma whose lhs or rhs is held in another layout (a chained MMA's
 * operand computed from the previous one's result): the index it needs
 * the operand in, for isel to gather it into. */
static void mma_operands(Ctx *x, Op *op)
{
	for (int a = 0; a < 2; a++) {
		Value *v = op->args[a];
		Role want = a ? R_RHS : R_LHS;
		if (value_role(x, v) != want || value_lay(x, v) != x->cur)
			x->c->mma_operand[2 * op->id + a] = new_index(x, op, v->shape, want, 0);
	}
}

/* A scaled_mma's operands and scales must hold its layout: gathering one
 * from another layout (a chained MMA's) is not done for them. */
static bool scaled_operands_placed(Ctx *x, Op *op)
{
	static const Role want[4] = {R_LHS, R_LSCALE, R_RHS, R_RSCALE};
	static const char *const what[4] = {"lhs", "lhs_scale", "rhs", "rhs_scale"};
	for (int a = 0; a < 4; a++) {
		Value *v = op->args[a];
		if (value_role(x, v) != want[a] || value_lay(x, v) != x->cur) {
			analysis_error(x->c, op->loc, "%s: scaled_mma's %s '%s' is computed in another MMA's layout: not "
						       "laid out yet",
				op->path, what[a], v->name);
			return false;
		}
	}
	return true;
}

/* A write's or atomic_add's index: over its register's dims with a
 * mapping (isel/memory.c maps them to memory), else the memory's. */
static NodeIndex *write_index(Ctx *x, Op *op)
{
	Analysis *c = x->c;
	NodeIndex *ni = NULL;
	Role role = c->mode == IM_MMA ? value_role(x, op->args[0]) : R_NONE;
	Shape wsh = op->mapping ? op->args[0]->shape : op_memory(op)->shape;
	/* in MMA mode a value without a role (a permuted result) is written
	 * in its own layout */
	if (c->mode == IM_MMA && role == R_NONE)
		ni = index_reordered(x, operand_index(x, op->args[0]), wsh);
	/* or, into memory with a split dim the value lacks (decode
	 * attention's [B, M] into [U, B, M]), widened by it */
	if (c->mode == IM_MMA && role == R_NONE && !ni)
		ni = index_widened(x, op, operand_index(x, op->args[0]), wsh);
	return ni ? ni : new_index(x, op, wsh, role, default_ept(x, op, wsh));
}

/* A read whose value an access takes through dynamic_val_mappings: the
 * index that holds what the access's threads take (dynindex.c, Wave's
 * transform_index_backwards), from the index the access gets below; NULL
 * when none does (isel/dynmap.c reports it) or no access takes it so. */
static NodeIndex *dyn_read_index(Ctx *x, Value *res)
{
	Op *user = x->dvm_user[res->id];
	/* the access's index may name its loop's induction variable: only a
	 * read in the same region can be indexed by it */
	if (!user || user->parent != res->def->parent)
		return NULL;
	bool wr = user->kind != OP_READ;
	int saved = x->cur;
	if (x->c->mode == IM_MMA)
		use_lay(x, value_lay(x, wr ? user->args[0] : op_result(user)));
	Role role = x->c->mode == IM_MMA ? value_role(x, op_result(user)) : R_NONE;
	Shape sh = wr ? user->args[0]->shape : op_result(user)->shape;
	NodeIndex *aix = wr ? write_index(x, user) : new_index(x, user, sh, role, default_ept(x, user, sh));
	if (x->c->mode == IM_MMA)
		use_lay(x, saved);
	const char *why;
	return aix ? index_dyn_value(x->c, user, aix, x->dvm_which[res->id], &why) : NULL;
}

/* A read whose one use is a bitcast between widths is indexed where the
 * bitcast needs it: the bitcast's index with its last dim scaled back
 * (an MMA operand's run of 4 f16 is a run of 2 i32), so the bitcast only
 * reinterprets the dwords (isel/bitcast.c). Reads the plan fuses into
 * their bitcast drop this index; mapped ones keep it. */
/* Is op a read whose one use is such a bitcast (its index waits for the
 * bitcast's: a read of i8 [N, K/2] has no layout of its own in an MMA
 * kernel that its f4 [N, K] bitcast could be made from)? */
static Op *read_of_width_bitcast(Ctx *x, Op *op, size_t at)
{
	Value *res = op_result(op);
	if (op->kind != OP_READ || !res || x->uses[res->id] != 1 || res->shape.rank < 1)
		return NULL;
	/* op is ops[at] of its region; its one use follows it: the first op
	 * after it that names it (linear in the distance, not the region) */
	for (size_t i = at + 1; i < op->parent->ops.len; i++) {
		Op *u = op->parent->ops.data[i];
		for (int k = 0; k < u->nargs; k++)
			if (u->args[k] == res)
				return u->kind == OP_BITCAST && k == 0 && dtype_bits(u->dtype) != dtype_bits(res->dtype) ? u
																	   : NULL;
	}
	return NULL;
}

static void bitcast_read_index(Ctx *x, Op *op, const NodeIndex *ni)
{
	Value *a = op->args[0], *res = op_result(op);
	if (a->kind != VAL_RESULT || a->def->kind != OP_READ || a->def->parent != op->parent || x->uses[a->id] != 1 ||
		a->shape.rank < 1)
		return;
	int sa = dtype_bits(a->dtype), sr = dtype_bits(res->dtype);
	if (sa == sr)
		return;
	int g = sa < sr ? sa : sr; /* the widths: multiples of a nibble, dividing one another */
	while (sa % g || sr % g)
		g--;
	NodeIndex *r = index_bitcast_scaled(x->c, ni, a->shape.dims[a->shape.rank - 1], sr / g, sa / g);
	if (!r && !x->c->index[a->def->id]) { /* the read's own layout after all */
		Role role = x->c->mode == IM_MMA ? value_role(x, a) : R_NONE;
		r = new_index(x, a->def, a->shape, role, default_ept(x, a->def, a->shape));
	}
	if (r)
		x->c->index[a->def->id] = r;
}

static void index_region(Ctx *x, Region *r)
{
	Analysis *c = x->c;
	for (size_t i = 0; i < r->ops.len && !c->failed; i++) {
		Op *op = r->ops.data[i];
		NodeIndex *ni = NULL;
		Value *res = op_result(op);
		if (op->body)
			index_region(x, op->body);
		if (op->kind == OP_OUTPUT)
			continue;
		if (op->kind == OP_ALLOCATE)
			continue; /* a memory value: its accesses are indexed */
		if (c->mode == IM_MMA)
			use_lay(x, op_stores(op->kind) ? value_lay(x, op->args[0]) : res ? value_lay(x, res) : 0);
		if (op_stores(op->kind)) { /* the atomics, scatter_add: indexed as a write */
			ni = write_index(x, op);
		} else if (read_of_width_bitcast(x, op, i)) {
			ni = NULL; /* bitcast_read_index, at the bitcast */
		} else if (op->kind == OP_READ && (ni = dyn_read_index(x, res)) != NULL) {
			/* read where the access that takes it needs it */
		} else if (op->kind == OP_PERMUTE && operand_index(x, op->args[0])) {
			/* the same elements, its dims in the target order */
			ni = index_reordered(x, operand_index(x, op->args[0]), res->shape);
			if (!ni) {
				analysis_error(c, op->loc, "%s: target_shape is not a permutation of the operand's dims",
					op->path);
				return;
			}
		} else if (op->kind == OP_ITERATE || op->kind == OP_CONDITIONAL) {
			Op *out = op->body->ops.len ? vec_last(&op->body->ops) : NULL;
			ni = out && out->kind == OP_OUTPUT && out->nargs ? operand_index(x, out->args[0]) : NULL;
		} else if (res) {
			Role role = c->mode == IM_MMA ? value_role(x, res) : R_NONE;
			if (op->kind == OP_MMA || op->kind == OP_SCALED_MMA)
				role = R_ACC;
			if (c->mode == IM_READ_WRITE && op->kind != OP_READ && op->kind != OP_REGISTER && op->nargs &&
				operand_index(x, op->args[0]) && shape_eq(res->shape, op->args[0]->shape))
				ni = operand_index(x, op->args[0]);
			else if (c->mode == IM_MMA && role == R_NONE && op_is_reduce(op->kind) &&
				 (ni = index_reduced(x, operand_index(x, op->args[0]), op->dim)) != NULL)
				; /* a reduction beside the MMA (of an operand, say) */
			else if (c->mode == IM_MMA && role == R_NONE && op->nargs && operand_index(x, op->args[0]))
				ni = operand_index(x, op->args[0]);
			else
				ni = new_index(x, op, res->shape, role, default_ept(x, op, res->shape));
			if (op->kind == OP_MMA)
				mma_operands(x, op);
			else if (op->kind == OP_SCALED_MMA && !scaled_operands_placed(x, op))
				return;
		}
		c->index[op->id] = ni;
		if (op->kind == OP_BITCAST && ni)
			bitcast_read_index(x, op, ni);
	}
}

/* The reduction over dim that v's value comes from, or NULL (through the
 * ops' operands and iterate outputs; seen marks visited values). */
static const Op *reduced_over(Value *v, const Sym *dim, bool *seen)
{
	if (!v || v->kind != VAL_RESULT || seen[v->id])
		return NULL;
	seen[v->id] = true;
	const Op *op = v->def;
	if ((op_is_reduce(op->kind) || op->kind == OP_TOPK) && op->dim == dim)
		return op;
	if (op->kind == OP_ITERATE) {
		Op *out = vec_last(&op->body->ops);
		return v->res_idx < out->nargs ? reduced_over(out->args[v->res_idx], dim, seen) : NULL;
	}
	for (int i = 0; i < op->nargs; i++) {
		const Op *r = reduced_over(op->args[i], dim, seen);
		if (r)
			return r;
	}
	return NULL;
}

static bool shape_has(const Value *v, const Sym *dim)
{
	for (int d = 0; d < v->shape.rank; d++)
		if (v->shape.dims[d] == dim)
			return true;
	return false;
}

/* Does v's value come from values with dim `dim` (a read of a memory
 * with it, a register along it), through its args and loop results? A
 * value that does not is the same in every workgroup along the dim. */
static bool depends_on_dim(Value *v, const Sym *dim, bool *seen)
{
	if (!v || v->kind != VAL_RESULT || seen[v->id])
		return false;
	seen[v->id] = true;
	if (shape_has(v, dim))
		return true;
	const Op *op = v->def;
	if (op->kind == OP_ITERATE) {
		Op *out = vec_last(&op->body->ops);
		return v->res_idx < out->nargs && depends_on_dim(out->args[v->res_idx], dim, seen);
	}
	for (int i = 0; i < op->nargs; i++) {
		Value *a = op->args[i];
		if ((a && a->kind == VAL_MEMORY && shape_has(a, dim)) || depends_on_dim(a, dim, seen))
			return true;
	}
	return false;
}

/* Does an op in r read memory argument mem? */
static bool reads_memory(Region *r, const Value *mem)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if ((op->kind == OP_READ && op->args[0] == mem) || (op->body && reads_memory(op->body, mem)))
			return true;
	}
	return false;
}

/* A write whose copies cover more of a dim than the wave's window (a
 * workgroup tile below the 64 lanes' run, a wave tile below the MMA's)
 * has its lanes past the window write elements another wave or workgroup
 * owns — the same values, harmless, unless the kernel also reads that
 * memory: then the other one may read what was already written (an
 * in-place kernel counting twice). That case is rejected. */
static bool check_write_overlap(Ctx *x, const Op *op)
{
	Analysis *c = x->c;
	const NodeIndex *ni = c->index[op->id];
	Value *mem = op->args[1];
	if (!ni)
		return true;
	for (int i = 0; i < ni->ndims; i++) {
		const DimIndex *di = &ni->d[i];
		const DimDist *d = analysis_dist(c, di->dim);
		const TileLoop *t = enclosing_loop(c, op, di->dim);
		bool many = (t && analysis_many(t->trips)) || (!t && d && (analysis_many(d->count) || d->waves > 1));
		int64_t w = window_length(x, op, di->dim), cover = di->copies * (di->step ? di->step : di->size);
		/* reads_memory last: it walks the whole graph (once per write
		 * made the pass quadratic in the number of writes) */
		if (many && cover > w && reads_memory(c->k->body, mem)) {
			analysis_error(c, op->loc, "%s: %s is also read, and each wave writes %lld elements along %s where its "
						  "window is %lld: lanes past the window would write elements another wave or "
						  "workgroup reads (a race); tiles that are not a multiple of the wave's run are "
						  "not supported for memory a kernel both reads and writes",
				op->path, mem->name, (long long)cover, sym_name(di->dim), (long long)w);
			return false;
		}
	}
	return true;
}

/* Is m an alias of dd's dim that gives each of dd's windows its own one
 * element (decode attention's U = 2 * wg + wave for K2): then each
 * window's partial result has its own slot. */
static bool split_slot(Analysis *c, const Sym *m, const DimDist *dd)
{
	const DimDist *a = analysis_dist(c, m);
	return a && a->alias_of == dd->dim && a->wave_tile == 1;
}

/* Does an element's coordinate in ni depend on id (a workgroup id)? An
 * unknown index counts as yes: nothing is claimed about it. */
static bool index_mentions(const NodeIndex *ni, const Sym *id)
{
	if (!ni || !id)
		return true;
	for (int i = 0; i < ni->ndims; i++)
		if (sym_mentions(ni->d[i].coord, id) || sym_mentions(ni->d[i].start, id))
			return true;
	return false;
}

/* A reduction covers one window of its dim: a wave's tile, or with block
 * the workgroup's (docs/interpreter.md). When the dim is split over more
 * windows, each holds a different partial result; writing it to a tensor
 * without that dim has every window write the same elements — a race on
 * the hardware (the interpreter and the emulator keep the last window's
 * result). Such writes are rejected. So are writes, into a tensor that
 * lacks a dim split over several workgroups, of a value that comes from
 * the dim's data without a reduction over it, when no coordinate of the
 * write depends on the workgroup's id along the dim (a K loop of MMAs
 * with K on a workgroup_dim: each workgroup writes its own partial
 * product to the same elements). A value independent of the dim is the
 * same in every workgroup (attention's row max beside a split N); a dim
 * of another name derived from it (a bitcast's N from N/2) moves the
 * coordinates; a write through a mapping is left alone, its coordinates
 * may follow the dim through the mapping or its dynamic values (GQA's H
 * from H_KV, prefill's rows from S). */
static bool check_write_races(Ctx *x, Region *r)
{
	Analysis *c = x->c;
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (op->body && !check_write_races(x, op->body))
			return false;
		if (op->kind != OP_WRITE)
			continue;
		Value *mem = op->args[1];
		/* an allocation is the workgroup's own, and its accesses are
		 * ordered by barriers (isel/local.c): lanes past a window write
		 * the values the owner does, and only the waves can collide */
		bool local = value_is_local(mem);
		if (!local && !check_write_overlap(x, op))
			return false;
		for (int d = 0; d < c->ndist; d++) {
			const DimDist *dd = &c->dist[d];
			bool in_mem = false;
			for (int j = 0; j < mem->shape.rank; j++)
				in_mem |= mem->shape.dims[j] == dd->dim || split_slot(c, mem->shape.dims[j], dd);
			if (in_mem || ((dd->count == 1 || local) && dd->waves <= 1))
				continue;
			bool *seen = ARENA_NEWN(&c->arena, bool, c->k->nvalues);
			const Op *red = reduced_over(op->args[0], dd->dim, seen);
			if (!red && !local && !op->mapping && analysis_many(dd->count) &&
			    !index_mentions(c->index[op->id], dd->wg_id) &&
			    depends_on_dim(op->args[0], dd->dim, ARENA_NEWN(&c->arena, bool, c->k->nvalues))) {
				/* no reduction of the value over the dim (an MMA's K
				 * loop), yet each workgroup along it writes its own
				 * values (they come from its window of the dim) to the
				 * same elements; a value independent of the dim is the
				 * same in each (attention's row max beside a split N) */
				char n[32];
				snprintf(n, sizeof n, dd->count > 0 ? "%lld" : "several (at run time)", (long long)dd->count);
				analysis_error(c, op->loc, "%s: %s has no dim %s, but %s is split over %s workgroups: each "
							  "would write its own values to the same elements of %s (a race); "
							  "atomic_add adds partial results into memory",
					op->path, mem->name, sym_name(dd->dim), sym_name(dd->dim), n, mem->name);
				return false;
			}
			if (!red || ((dd->count == 1 || local) && red->block))
				continue;
			bool wgs = !local && analysis_many(dd->count);
			char count[32]; /* a runtime grid has no count yet */
			int64_t n = wgs ? dd->count : dd->waves;
			if (n > 0)
				snprintf(count, sizeof count, "%lld", (long long)n);
			else
				snprintf(count, sizeof count, "several (at run time)");
			analysis_error(c, op->loc, "%s: %s has no dim %s, but the %s %s reduces over %s and %s is split "
						  "over %s %s: each would write its partial result to the same elements of "
						  "%s (a race); a reduction across %s is not supported%s",
				op->path, mem->name, sym_name(dd->dim), op_name(red->kind), red->path, sym_name(dd->dim),
				sym_name(dd->dim), count, wgs ? "workgroups" : "waves", mem->name,
				wgs ? "workgroups" : "waves",
				wgs                        ? " by a write (atomic_add adds the partial results into memory)"
				: red->kind == OP_TOPK ? ""
							 : " without \"block\": true");
			return false;
		}
	}
	return true;
}



/* Is every denominator in the sum e a power of two? */
static bool pow2_denominators(Sym *e)
{
	SymRat r;
	if (sym_is_num(e, &r))
		return r.q > 0 && !(r.q & (r.q - 1));
	if (sym_kind(e) == SYM_MUL)
		return !sym_is_num(sym_arg(e, 0), &r) || (r.q > 0 && !(r.q & (r.q - 1)));
	if (sym_kind(e) != SYM_ADD)
		return true;
	for (int i = 0; i < sym_nargs(e); i++)
		if (!pow2_denominators(sym_arg(e, i)))
			return false;
	return true;
}

/* Does every floor, ceiling and Mod in e take a value >= 0 (the kernel's
 * divisions by other constants are unsigned: isel/expr.c)? A floor by a
 * power of two is an arithmetic shift and a Mod by one a mask: right for
 * negative values too. */
static bool divides_nonneg(Analysis *c, Sym *e)
{
	SymCtx *sc = c->k->sc;
	SymKind k = sym_kind(e);
	int64_t m;
	bool pow2 = ((k == SYM_FLOOR || k == SYM_CEIL) && pow2_denominators(sym_arg(e, 0))) ||
		    (k == SYM_MOD && sym_is_int(sym_arg(e, 1), &m) && m > 0 && !(m & (m - 1)));
	if (!pow2 && (k == SYM_FLOOR || k == SYM_CEIL || k == SYM_MOD) &&
		sym_kind(sym_simplify(sc, sym_rel(sc, SYM_GE, sym_arg(e, 0), sym_int(sc, 0)), c->assume)) != SYM_TRUE)
		return false;
	for (int i = 0; i < sym_nargs(e); i++)
		if (!divides_nonneg(c, sym_arg(e, i)))
			return false;
	return true;
}

/* A tiling constraint's start and iters, which the kernel computes: a
 * start below 0 would reach coordinates that only mapped accesses mask,
 * a division of a negative value would be wrong. */
static bool check_loop_exprs(Analysis *c)
{
	SymCtx *sc = c->k->sc;
	for (int i = 0; i < c->ntile; i++) {
		const TileLoop *t = &c->tile[i];
		Sym *ge = sym_simplify(sc, sym_rel(sc, SYM_GE, t->start, sym_int(sc, 0)), c->assume);
		if (sym_kind(ge) != SYM_TRUE || !divides_nonneg(c, t->start)) {
			analysis_error(c, t->loc, "%s: start %s may be negative or divide a negative value: not compiled",
				t->path, sym_str(sc, t->start));
			return false;
		}
		if (t->iters && t->count && !divides_nonneg(c, t->count)) {
			analysis_error(c, t->loc, "%s: iters %s divides a value that may be negative: not compiled (the "
						  "kernel divides unsigned values)",
				t->path, sym_str(sc, t->count));
			return false;
		}
	}
	return true;
}

bool analysis_mx_not_compiled(Analysis *c)
{
	const Kernel *k = c->k;
	bool gfx950 = c->t && strcmp(c->t->name, "gfx950") == 0;
	for (size_t i = 0; i < k->op_list.len; i++)
		if (k->op_list.data[i]->kind == OP_SCALED_MMA && !gfx950) {
			analysis_error(c, k->op_list.data[i]->loc, "%s: scaled_mma needs gfx950's scaled MFMAs "
								   "(v_mfma_scale_f32_*_f8f6f4), which %s does not have (wavecc "
								   "interp runs it)",
				k->op_list.data[i]->path, c->t ? c->t->name : "this target");
			return false;
		}
	/* f4e2m1fn and e8m0 values only as bitcasts of i8 reads straight into
	 * a scaled_mma's operands and scales (isel/mma.c); f6 not at all */
	for (size_t i = 0; i < k->op_list.len; i++) {
		const Op *op = k->op_list.data[i];
		for (int r = 0; r < op->nresults; r++) {
			Value *v = op->results[r];
			if (!v || !dtype_is_mx_narrow(v->dtype))
				continue;
			/* an e8m0 read is an i8 read's bits: its bitcast's rule */
			bool f6 = v->dtype == DT_F6E2M3FN || v->dtype == DT_F6E3M2FN,
			     ok = !f6 && (op->kind == OP_BITCAST || (op->kind == OP_READ && v->dtype == DT_F8E8M0FNU));
			for (size_t j = 0; ok && j < k->op_list.len; j++) {
				const Op *u = k->op_list.data[j];
				for (int a = 0; a < u->nargs; a++)
					ok &= u->args[a] != v || u->kind == OP_SCALED_MMA;
			}
			if (!ok && (v->dtype == DT_F6E2M3FN || v->dtype == DT_F6E3M2FN)) {
				analysis_error(c, op->loc, "%s: %s values are not compiled yet (held a byte each here; gfx950's "
							  "scaled MFMAs take them packed; wavecc interp runs them)",
					op->path, dtype_name(v->dtype));
				return false;
			}
			if (!ok) {
				analysis_error(c, op->loc,
					f6 ? "%s: %s values are not compiled yet (wavecc interp runs them)"
					   : "%s: %s values are compiled only as bitcasts of i8 reads straight into a scaled_mma's "
					     "operands or scales (wavecc interp runs the rest)",
					op->path, dtype_name(v->dtype));
				return false;
			}
		}
	}
	return true;
}

/* The registers a lane needs for a value of n elements of type t laid out
 * by ix: isel_tval_new's packing (16-, 8- and 4-bit elements share a dword
 * where each copy's run fills whole dwords), 64-bit ones two apiece. */
static int64_t value_regs(DType t, const NodeIndex *ix)
{
	int64_t n = ix->ncopies * ix->epc;
	int bits = dtype_bits(t);
	if (bits > 32)
		return n * (bits / 32);
	int per = bits < 32 && ix->epc % (32 / bits) == 0 ? 32 / bits : 1;
	return (n + per - 1) / per;
}

/* Every op's results fit in a lane's registers (MAX_THREAD_REGS): the
 * limit is on registers, so 1024 f4 elements a lane (128 VGPRs, an MXFP4
 * operand of a 256-row wave tile) pass where 1024 f32 ones do not. */
static bool check_value_regs(Analysis *c, Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (op->body && !check_value_regs(c, op->body))
			return false;
		const NodeIndex *ix = c->index[op->id];
		for (int j = 0; ix && j < op->nresults; j++) {
			DType t = op->results[j]->dtype;
			int64_t regs = value_regs(t, ix);
			if (regs > MAX_THREAD_REGS) {
				analysis_error(c, op->loc, "%s: one value of %lld %s elements per thread takes %lld registers: "
							   "more than the %d (VGPRs and AGPRs) of a lane (smaller tiles or more "
							   "waves)",
					op->path, (long long)(ix->ncopies * ix->epc), dtype_name(t), (long long)regs,
					MAX_THREAD_REGS);
				return false;
			}
		}
	}
	return true;
}

void analyze_indices(Analysis *c)
{
	Kernel *k = c->k;
	SymCtx *sc = k->sc;
	SymAssume *as = c->assume = sym_assume_new(sc);
	const char *why;
	for (int g = 0; g < 3; g++) {
		Sym *t = tsym(c, "$T", g), *w = tsym(c, "$WG", g);
		sym_assume_add(as, sym_rel(sc, SYM_GE, t, sym_int(sc, 0)), &why);
		sym_assume_add(as, sym_rel(sc, SYM_LT, t, sym_int(sc, c->wg_size[g])), &why);
		sym_assume_add(as, sym_rel(sc, SYM_GE, w, sym_int(sc, 0)), &why);
		if (c->grid[g] > 0) /* a runtime grid: below, once the sizes are bounded */
			sym_assume_add(as, sym_rel(sc, SYM_LT, w, sym_int(sc, c->grid[g])), &why);
	}
	for (int i = 0; i < c->ntile; i++) {
		const TileLoop *t = &c->tile[i];
		sym_assume_add(as, sym_rel(sc, SYM_GE, t->iv, sym_int(sc, 0)), &why);
		if (t->trips > 0)
			sym_assume_add(as, sym_rel(sc, SYM_LT, t->iv, sym_int(sc, t->trips)), &why);
		else if (t->trips < 0 && !t->iters && t->tile > 0)
			/* ceiling(size / tile) trips of a runtime size below 2^31 */
			sym_assume_add(as,
				sym_rel(sc, SYM_LT, t->iv, sym_int(sc, (GRAPH_MAX_RUNTIME_VALUE + t->tile) / t->tile)), &why);
	}
	/* a runtime value travels in a 32-bit kernel argument: the launch
	 * rejects one outside [0, kernel_runtime_max] (interp_init), which
	 * bounds every coordinate along a dim of that size */
	for (size_t i = 0; i < k->dyn_syms.len; i++)
		if (analysis_runtime_arg(k, k->dyn_syms.data[i], NULL) >= 0) {
			sym_assume_add(as, sym_rel(sc, SYM_GE, k->dyn_syms.data[i], sym_int(sc, 0)), &why);
			sym_assume_add(as,
				sym_rel(sc, SYM_LE, k->dyn_syms.data[i],
					sym_int(sc, kernel_runtime_max(k, k->dyn_syms.data[i]))),
				&why);
		}
	/* the launch's grid is the kernel's (the loader and the launch file
	 * compute it from the same expression): a runtime grid bounds $WG by
	 * the largest value of that expression over the sizes */
	for (int g = 0; g < 3; g++)
		if (c->grid[g] < 0 && c->grid_sym[g]) {
			SymBound b = sym_bounds(sc, c->grid_sym[g], as);
			if (b.has_hi && b.hi.q > 0 && b.hi.p >= 0)
				sym_assume_add(as, sym_rel(sc, SYM_LT, tsym(c, "$WG", g), sym_int(sc, b.hi.p / b.hi.q)), &why);
		}
	/* a workgroup count given by runtime iters is at least 1 wherever the
	 * kernel runs (a count of 0 launches no workgroup): S - 1 divides the
	 * folded id of extend attention's sequences */
	for (int i = 0; i < c->ndist; i++)
		if (c->dist[i].iters_sym)
			sym_assume_add(as, sym_rel(sc, SYM_GE, c->dist[i].iters_sym, sym_int(sc, 1)), &why);
	Sym *J = sym_symbol(sc, "$J");
	sym_assume_add(as, sym_rel(sc, SYM_GE, J, sym_int(sc, 0)), &why);
	sym_assume_add(as, sym_rel(sc, SYM_LT, J, sym_int(sc, MAX_EPC)), &why);
	if (!check_loop_exprs(c))
		return;
	Ctx x = {.c = c, .sc = sc, .mma = MMA_NONE};
	x.role = ARENA_NEWN(&c->arena, Role, k->nvalues);
	x.lay = ARENA_NEWN(&c->arena, uint8_t, k->nvalues);
	c->index = ARENA_NEWN(&c->arena, NodeIndex *, k->nops);
	c->mode = IM_READ_WRITE;
	find_mode(&x, k->body);
	if (c->failed)
		return;
	/* the lane layouts below serve Wave's native types and the K8 ones;
	 * whether the target has the instruction is isel's question (mma.c) */
	for (int l = 0; l < x.nlay; l++) {
		MmaType t = x.lays[l].mma;
		const GenericDot *g = &x.lays[l].gd;
		if (t == MMA_GENERIC_DOT && (g->out_vec != 1 || g->k_mult & (g->k_mult - 1))) {
			analysis_error(c, x.lays[l].op->loc, "%s: GenericDot with out_vec_size %d and k_mult %d is not compiled "
							     "yet (out_vec_size 1 and a power-of-two k_mult are; Wave itself "
							     "decomposes only out_vec_size 1)",
				x.lays[l].op->path, g->out_vec, g->k_mult);
			return;
		}
		if (t == MMA_GENERIC_DOT)
			continue;
		bool k8 = t == MMA_F32_16x16x32_K8_F16 || t == MMA_F32_32x32x16_K8_F16;
		if (t == MMA_NONE || (!mma_info[t].native && !k8 && !k4_type(t))) {
			analysis_error(c, x.lays[l].op->loc, "%s: MMA type %s is not compiled yet (the native f16/bf16, "
							     "i8 and f8 types and the K8 and K4 forms are)",
				x.lays[l].op->path, t == MMA_NONE ? "?" : mma_info[t].name);
			return;
		}
	}
	if (c->mode == IM_MMA) {
		/* one layout: roles backward from the mma, then the epilogue
		 * forward; chained MMAs: forward first (forward_roles) */
		for (int n = 0; x.nlay > 1 && n < 8 && forward_roles(&x, k->body); n++)
			;
		x.keep = x.nlay > 1;
		mma_roles(&x, k->body);
		x.keep = false;
		if (c->failed)
			return;
		use_lay(&x, 0);
		if (x.nlay == 1) {
			acc_forward(&x, k->body);
			for (int n = 0; n < 8 && carried_roles(&x, k->body); n++)
				;
		}
		c->mma_operand = ARENA_NEWN(&c->arena, NodeIndex *, 2 * (size_t)k->nops);
	}
	x.dvm_user = ARENA_NEWN(&c->arena, Op *, k->nvalues + 1);
	x.dvm_which = ARENA_NEWN(&c->arena, int, k->nvalues + 1);
	index_dyn_users(k->body, x.dvm_user, x.dvm_which);
	x.uses = ARENA_NEWN(&c->arena, int, k->nvalues + 1);
	region_count_uses(k->body, x.uses);
	index_region(&x, k->body);
	if (!c->failed && check_value_regs(c, k->body))
		check_write_races(&x, k->body);
}
