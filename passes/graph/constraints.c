/* constraints.c — constraint analysis: from the workgroup, wave, tiling and
 * hardware constraints to the launch geometry and the loops.
 *
 * Algorithm (Wave's distribution model, Wave's constraints.py):
 *   - each workgroup constraint on dim D with tile T and workgroup_dim g
 *     gives grid[g] = ceil(size(D) / T), or its iters (bounds are isel's:
 *     memory.c); one with primary: false adds no grid dim and takes the
 *     ids of the primary one on g (add_tied: GQA's kv head); its waves
 *     are the primary's, or more where the primary has one (paged
 *     decode's query heads B, 4 waves, on its kv head BH: the workgroup
 *     has B's waves, each holding BH's one window);
 *   - the wave constraint on D (default: the workgroup tile) gives
 *     waves[g] = T / wave_tile, unless the hardware constraint fixes
 *     waves_per_block; a workgroup dim no constraint names gets
 *     waves_per_block[g] (default 1) waves;
 *   - the workgroup is threads_per_wave * waves[0] x waves[1] x waves[2]
 *     work-items (Wave's threads_per_block);
 *   - a tiling constraint on D gives a loop of ceil(size(D) / tile) trips
 *     (the iterate op over D runs it);
 *   - a symbolic_alias source takes its target's distribution with the
 *     tiles mapped through the alias and the target's ids (add_aliases).
 * Runtime sizes: a dim whose extent is an expression of dynamic symbols
 * that -D did not bind (kernel arguments) gets size -1 and its grid or trip
 * count as an expression (grid_sym, trips_sym) that the launch descriptor
 * and the kernel evaluate; tiles stay compile-time integers.
 * Limits, each a located error here so that no later stage sizes a table
 * or a loop by an absurd value: sizes and tiles evaluate to integers
 * (ceilings computed without overflow near 2^63); at most 1024 work-items
 * per workgroup (per dim before the product, so no int overflows); grid
 * dim 0 at most (2^32 - 1) / workgroup work-items, dims 1-2 at most 65535
 * workgroups; loops of at most 2^31 - 1 trips (a 32-bit SGPR counter).
 * How each thread's elements are placed (elements per thread, MMA layouts,
 * expansion copies) is index analysis (indices.c), not this pass.
 *   - a reordering constraint gives the id a workgroup takes along its
 *     grid dim (add_reordering: checked to permute the grid).
 * Requires: subst_symbols. Fills: c->dist, c->ntile, c->tile, c->grid,
 * c->wg_size, c->reorder. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

/* What the hardware and the generated code can have; larger values are
 * reported here, before later stages size tables or loops by them. */
enum {
	MAX_WORKGROUP = 1024,          /* work-items per workgroup */
	MAX_LOOP_TRIPS = INT32_MAX,    /* the loop counter is a 32-bit SGPR */
	MAX_WG_LOGICAL = 4,            /* Wave's workgroup_dim is 0..4 */
};
#define MAX_GRID_ITEMS 0xffffffffLL /* work-items per grid dim (the dispatch packet's u32) */

/* ceil(a / b) for a >= 0, b > 0, without overflow near 2^63. */
static int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/* compile_int for a constraint's expression, the message naming the
 * constraint by its JSON path. */
static int64_t con_int(Analysis *c, const Constraint *con, Sym *e, const char *what)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s: %s", con->path, what);
	return analysis_int(c, e, con->loc, buf);
}

/* A dim's extent: an integer, or -1 with *rt its expression over the
 * kernel's runtime dynamic symbols (the grid and the loop count are then
 * computed by the kernel from its arguments). */
static int64_t dim_size(Analysis *c, const Constraint *con, Sym *dim, Sym **rt)
{
	*rt = analysis_runtime(c, dim);
	if (*rt)
		return -1;
	return con_int(c, con, dim, sym_name(dim));
}

/* ceiling(size / tile) over runtime symbols, as the kernel computes it */
static Sym *runtime_ceil(Analysis *c, Sym *size, int64_t tile)
{
	SymCtx *sc = c->k->sc;
	return sym_simplify(sc, sym_ceil(sc, sym_div(sc, size, sym_int(sc, tile))), NULL);
}

static DimDist *find_dist(Analysis *c, const Sym *dim)
{
	for (int i = 0; i < c->ndist; i++)
		if (c->dist[i].dim == dim)
			return &c->dist[i];
	return NULL;
}

/* A tiling constraint's start or iters after substitution: an integer, or
 * a wave-uniform expression the kernel computes (runtime sizes and the
 * workgroup ids $WG0-2, as Wave's split-K start $WG2 * K_PER_SPLIT); NULL
 * after reporting anything else. */
static Sym *uniform_expr(Analysis *c, const Constraint *con, Sym *e, const char *what)
{
	SymCtx *sc = c->k->sc;
	Sym *v = kernel_subs(c->k, e), *fs[16];
	if (sym_is_error(v)) {
		analysis_error(c, con->loc, "%s: %s (%s) cannot be evaluated: %s", con->path, what, sym_str(sc, e),
			sym_error_msg(v));
		return NULL;
	}
	size_t n = sym_free_symbols(sc, v, fs, 16);
	for (size_t i = 0; i < n; i++) {
		const char *nm = i < 16 ? sym_name(fs[i]) : "";
		bool wg = strncmp(nm, "$WG", 3) == 0 && nm[3] >= '0' && nm[3] <= '2' && !nm[4];
		/* an enclosing loop's trip (Wave's stream-K K loop, whose start
		 * and trips its work unit loop sets): evaluated where the loop
		 * starts, in the enclosing loop (isel.c: loop_enter) */
		bool outer = false;
		for (size_t j = 0; j < c->k->cons.len && !outer; j++)
			outer = &c->k->cons.data[j] != con && c->k->cons.data[j].kind == CON_TILING &&
				c->k->cons.data[j].induction_var == fs[i];
		if (i >= 16 || (!wg && !outer && analysis_runtime_arg(c->k, fs[i], NULL) < 0)) {
			analysis_error(c, con->loc, "%s: %s %s is not a function of runtime sizes and workgroup ids "
						    "$WG0-$WG2: not compiled",
				con->path, what, sym_str(sc, v));
			return NULL;
		}
	}
	return v;
}

/* Start and iters (Wave's TilingConstraint: trip i covers [start + i *
 * tile, + tile), iters trips or else ceiling(size / tile), bounds only at
 * the dim's end). */
static bool tiling_start_iters(Analysis *c, const Constraint *con, TileLoop *t)
{
	SymCtx *sc = c->k->sc;
	int64_t v;
	t->start = sym_int(sc, 0);
	if (con->start && !(t->start = uniform_expr(c, con, con->start, "start")))
		return false;
	if (sym_is_int(t->start, &v) && v < 0) {
		/* only mapped accesses mask coordinates below 0 */
		analysis_error(c, con->loc, "%s: start %lld is negative: not compiled", con->path, (long long)v);
		return false;
	}
	if (!con->iters)
		return true;
	Sym *it = uniform_expr(c, con, con->iters, "iters");
	if (!it)
		return false;
	t->iters = true;
	if (sym_is_int(it, &v)) {
		t->trips = MAX(v, 0);
		if (t->trips > MAX_LOOP_TRIPS) {
			analysis_error(c, con->loc, "%s: iters %lld: more than the 32-bit loop counter holds (%d)", con->path,
				(long long)v, MAX_LOOP_TRIPS);
			return false;
		}
		t->count = NULL;
	} else {
		t->trips = -1;
		t->count = it;
	}
	return true;
}

static bool add_tiling(Analysis *c, const Constraint *con)
{
	SymCtx *sc = c->k->sc;
	for (int i = 0; i < c->ntile; i++)
		if (c->tile[i].dim == con->dim) {
			analysis_error(c, con->loc, "%s: a second tiling constraint on %s", con->path, sym_name(con->dim));
			return false;
		}
	if (c->ntile == MAX_DIMS) {
		analysis_error(c, con->loc, "%s: too many tiling constraints", con->path);
		return false;
	}
	TileLoop *t = &c->tile[c->ntile++];
	t->dim = con->dim;
	t->loc = con->loc;
	t->path = con->path;
	Sym *rt;
	t->size = dim_size(c, con, con->dim, &rt);
	t->tile = con_int(c, con, con->tile, "the tiling tile");
	t->iv = con->induction_var;
	if (c->failed)
		return false;
	if (rt && t->tile > 0) {
		t->trips = -1; /* at most 2^31 - 1: the sizes are 32-bit arguments */
		t->size_sym = rt;
		t->trips_sym = runtime_ceil(c, rt, t->tile);
		/* ceiling(size / tile) = floor((size + tile - 1) / tile) */
		t->count = sym_floor(sc, sym_div(sc, sym_add(sc, rt, sym_int(sc, t->tile - 1)), sym_int(sc, t->tile)));
	} else if (t->tile <= 0 || t->size <= 0) {
		analysis_error(c, con->loc, "%s: tile %lld and size %lld must be positive", con->path, (long long)t->tile,
			(long long)t->size);
		return false;
	} else {
		t->trips = ceil_div(t->size, t->tile);
		if (t->trips > MAX_LOOP_TRIPS) {
			analysis_error(c, con->loc, "%s: tiling %s = %lld by %s = %lld gives %lld loop trips: more than the "
						    "32-bit loop counter holds (%d)",
				con->path, sym_name(con->dim), (long long)t->size, sym_str(c->k->sc, con->tile),
				(long long)t->tile, (long long)t->trips, MAX_LOOP_TRIPS);
			return false;
		}
	}
	if (!tiling_start_iters(c, con, t))
		return false;
	t->base = t->start;
	if (analysis_many(t->trips))
		t->base = sym_add(sc, t->start, sym_mul(sc, t->iv, sym_int(sc, t->tile)));
	return true;
}

/* A workgroup constraint's apply_fn (Wave's WorkgroupConstraint apply_fn,
 * the GQA decode kernels' kv head wg // ratio): the workgroup's first
 * coordinate along the dim is the expression with $WG<workgroup_dim>
 * standing for the workgroup's id along it (d->wg_id), in place of id *
 * tile. Its symbols other than that id must have values. */
static bool apply_fn_start(Analysis *c, DimDist *d, const Constraint *con)
{
	if (!con || !con->expr)
		return true;
	SymCtx *sc = c->k->sc;
	char name[16];
	snprintf(name, sizeof name, "$WG%d", con->wg_dim);
	Sym *id = sym_symbol(sc, name), *fs[8];
	Sym *e = kernel_subs(c->k, con->expr);
	size_t n = sym_free_symbols(sc, e, fs, 8);
	for (size_t i = 0; i < n; i++)
		if (i >= 8 || fs[i] != id) {
			analysis_error(c, con->loc, "%s: apply_fn %s names %s: only the workgroup's id %s along its "
						    "workgroup_dim and symbols with values are compiled",
				con->path, sym_str(sc, con->expr), i < 8 ? sym_name(fs[i]) : "more symbols", name);
			return false;
		}
	d->wg_start = sym_simplify(sc, sym_subs(sc, e, 1, &id, &d->wg_id), NULL);
	d->apply_fn = true;
	return true;
}

/* A write (or scatter_add) into an argument with dim `dim`, in r or a
 * region in it; NULL if none. */
static const Op *writes_dim(const Region *r, const Sym *dim)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		const Op *w = op->body ? writes_dim(op->body, dim) : NULL;
		if (w)
			return w;
		int m = op->kind == OP_WRITE ? 1 : op->kind == OP_SCATTER_ADD ? 2 : -1;
		const Value *v = m >= 0 && m < op->nargs ? op->args[m] : NULL;
		for (int d = 0; v && v->kind == VAL_MEMORY && d < v->shape.rank; d++)
			if (v->shape.dims[d] == dim)
				return op;
	}
	return NULL;
}

/* An apply_fn may send two workgroups to overlapping windows (Wave's GQA
 * kv head: several query-head workgroups read one kv head); reads are
 * fine, but two workgroups writing one element would race, so a write to
 * an argument with that dim is rejected unless the windows are disjoint
 * (checked by enumerating the ids along the dim). */
enum { MAX_APPLY_CHECK = 1 << 22 };

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static bool check_apply_fn_writes(Analysis *c)
{
	SymCtx *sc = c->k->sc;
	for (int i = 0; i < c->ndist; i++) {
		const DimDist *d = &c->dist[i];
		const Op *w = d->apply_fn ? writes_dim(c->k->body, d->dim) : NULL;
		if (!w)
			continue;
		if (d->count == 1)
			continue; /* one workgroup along the dim: one window */
		bool disjoint = d->count > 0 && d->count <= MAX_APPLY_CHECK && sym_free_symbols(sc, d->wg_id, NULL, 0) <= 1;
		int64_t *st = disjoint ? calloc((size_t)d->count, sizeof *st) : NULL;
		Sym *fs[1];
		if (disjoint && sym_free_symbols(sc, d->wg_id, fs, 1) == 1 && sym_kind(d->wg_id) == SYM_SYMBOL) {
			for (int64_t id = 0; id < d->count && disjoint; id++) {
				Sym *v = sym_int(sc, id);
				disjoint = sym_is_int(sym_simplify(sc, sym_subs(sc, d->wg_start, 1, &fs[0], &v), NULL), &st[id]);
			}
			if (disjoint)
				qsort(st, (size_t)d->count, sizeof *st, cmp_i64);
			for (int64_t a = 0; a + 1 < d->count && disjoint; a++)
				disjoint = st[a] + d->wg_tile <= st[a + 1];
		} else
			disjoint = false;
		free(st);
		if (!disjoint) {
			analysis_error(c, w->loc, "%s: '%s' writes along %s, whose workgroup constraint's apply_fn gives "
						  "workgroups overlapping windows (or ones not checked at compile time): they would "
						  "write the same elements",
				w->path, w->name, sym_name(d->dim));
			return false;
		}
	}
	return true;
}

/* Wave's grid (wave.py, infer_grid_shape and
 * initialize_workgroup_constraints): workgroup_dims 0 and 1 are grid dims
 * 0 and 1; workgroup_dims 2, 3, ... all fold into grid dim 2, whose size is
 * the product of their counts, and each one's id is a digit of $WG2 in
 * that mixed radix, workgroup_dim 2 the slowest (Wave's delinearize_index
 * over the constraints in workgroup_dim order). Wave rejects two primary
 * constraints on one workgroup_dim and a gap in the folded dims; so does
 * this. A count known only at run time makes the digits above it
 * quotients and remainders of a division by a runtime value (a
 * wave-uniform division in the kernel) and grid dim 2 a runtime size.
 * Fills count, wg_start and grid. */
static bool fold_grid(Analysis *c, Loc kloc)
{
	SymCtx *sc = c->k->sc;
	const DimDist *by[MAX_WG_LOGICAL + 1] = {0};
	int top = -1;
	for (int i = 0; i < c->ndist; i++) {
		DimDist *d = &c->dist[i];
		if (by[d->wg_logical]) {
			const Constraint *con = kernel_constraint(c->k, CON_WORKGROUP, d->dim);
			analysis_error(c, con ? con->loc : kloc, "%s: %s and %s are both distributed over workgroup_dim %d "
								 "(Wave rejects several primary constraints on one "
								 "workgroup_dim)",
				con ? con->path : "kernel", sym_name(by[d->wg_logical]->dim), sym_name(d->dim),
				d->wg_logical);
			return false;
		}
		by[d->wg_logical] = d;
		top = MAX(top, d->wg_logical);
		d->count = d->iters ? d->iters : d->size_sym || d->iters_sym ? -1 : ceil_div(d->size, d->wg_tile);
	}
	for (int g = 3; g <= top; g++)
		if (!by[g] || !by[g - 1]) {
			const DimDist *d = by[top];
			const Constraint *con = kernel_constraint(c->k, CON_WORKGROUP, d->dim);
			analysis_error(c, con ? con->loc : kloc, "%s: workgroup_dim %d without workgroup_dim %d: the dims "
								 "folded into grid dim 2 must be numbered 2, 3, ... without "
								 "a gap",
				con ? con->path : "kernel", top, by[g] ? g - 1 : g);
			return false;
		}
	/* from the fastest digit (the highest workgroup_dim) up */
	int64_t radix = 1;               /* the product of the faster digits' counts */
	Sym *radix_sym = sym_int(sc, 1); /* the same as the kernel computes it */
	bool rt_radix = false;           /* some faster count is known at run time only */
	for (int g = top; g >= 0; g--) {
		DimDist *d = (DimDist *)by[g];
		if (!d)
			continue;
		Sym *count = d->iters_sym ? d->iters_sym
			     : d->count < 0 ? runtime_ceil(c, d->size_sym, d->wg_tile)
					    : sym_int(sc, d->count);
		Sym *id = sym_symbol(sc, g < 2 ? (g ? "$WG1" : "$WG0") : "$WG2");
		/* a runtime radix or count divides $WG2 at run time (isel/expr.c's
		 * division by a wave-uniform value) */
		if (g >= 2 && g < top) {
			id = sym_floor(sc, sym_div(sc, id, radix_sym));
			if (g > 2)
				id = sym_mod(sc, id, count);
		} else if (g >= 2 && top > 2)
			id = sym_mod(sc, id, count);
		d->wg_id = d->count == 1 ? sym_int(sc, 0) : id;
		d->wg_start = d->count == 1 ? sym_int(sc, 0) : sym_mul(sc, id, sym_int(sc, d->wg_tile));
		if (!apply_fn_start(c, d, kernel_constraint(c->k, CON_WORKGROUP, d->dim)))
			return false;
		if (g <= 2) { /* the grid dim's size: the slowest digit's count times the radix */
			Sym *r = g == 2 ? radix_sym : sym_int(sc, 1);
			if (d->count < 0 || (g == 2 && rt_radix)) {
				c->grid[g] = -1;
				c->grid_sym[g] = sym_simplify(sc, sym_mul(sc, count, r), NULL);
			} else
				c->grid[g] = d->count * (g == 2 ? radix : 1);
		}
		if (g >= 2) {
			if (d->count > 0 && radix > 0xffff / d->count) {
				analysis_error(c, kloc, "the workgroup_dims from 2 up fold into more than 65535 workgroups "
							"along grid dim 2");
				return false;
			}
			if (d->count > 0)
				radix *= d->count;
			else
				rt_radix = true; /* the launcher checks a runtime grid */
			radix_sym = sym_mul(sc, radix_sym, count);
		}
	}
	return true;
}

/* One tile of an alias: the alias expression at target = tile. */
static int64_t alias_tile(Analysis *c, const Constraint *con, int64_t tile, const char *what)
{
	SymCtx *sc = c->k->sc;
	Sym *from = con->target, *to = sym_int(sc, tile);
	return con_int(c, con, sym_subs(sc, con->expr, 1, &from, &to), what);
}

/* Wave's SymbolicAlias: a source dim without constraints of its own (decode
 * attention's split U = ceiling(K2 / (BLOCK_K2 / K_WAVES))) takes its
 * target's workgroup and wave constraints, each tile mapped through the
 * alias expression, with the target's workgroup and wave ids (Wave's
 * create_new_constraints). Each wave then owns the source window
 * [wg * wg_tile' + wave * wave_tile', + wave_tile'). The source adds no
 * grid dim: its ids are the target's, so its workgroups must be the
 * target's waves' windows side by side (wg_tile' = waves * wave_tile'). */
static bool add_aliases(Analysis *c)
{
	Kernel *k = c->k;
	for (size_t i = 0; i < k->cons.len; i++) {
		const Constraint *con = &k->cons.data[i];
		if (con->kind != CON_SYMBOLIC_ALIAS || !con->source || !con->target || !con->expr)
			continue;
		const DimDist *t = find_dist(c, con->target);
		if (!t || find_dist(c, con->source))
			continue; /* nothing to take, or constraints of its own */
		if (c->ndist == MAX_DIMS) {
			analysis_error(c, con->loc, "%s: too many distributed dims", con->path);
			return false;
		}
		DimDist a = *t;
		a.dim = con->source;
		a.alias_of = t->dim;
		a.size = dim_size(c, con, con->source, &a.size_sym);
		a.wg_tile = alias_tile(c, con, t->wg_tile, "the alias' workgroup tile");
		a.wave_tile = alias_tile(c, con, t->wave_tile, "the alias' wave tile");
		if (c->failed)
			return false;
		if (a.wave_tile <= 0 || a.wg_tile != a.wave_tile * a.waves) {
			analysis_error(c, con->loc, "%s: alias %s of %s gets a workgroup tile of %lld and a wave tile of "
						    "%lld over %d waves: only windows that lie side by side (workgroup tile = "
						    "waves x wave tile, compile-time size) are compiled",
				con->path, sym_name(a.dim), sym_name(t->dim), (long long)a.wg_tile, (long long)a.wave_tile,
				a.waves);
			return false;
		}
		a.wg_start = t->count == 1 ? sym_int(k->sc, 0) : sym_mul(k->sc, t->wg_id, sym_int(k->sc, a.wg_tile));
		c->dist[c->ndist++] = a;
	}
	return true;
}

/* The primary distribution on workgroup_dim g, or NULL. */
static const DimDist *primary_on(Analysis *c, int g)
{
	for (int i = 0; i < c->ndist; i++)
		if (c->dist[i].wg_logical == g && !c->dist[i].alias_of && !c->dist[i].tied_to)
			return &c->dist[i];
	return NULL;
}

/* One tied dim from its non-primary constraint, sharing primary p's ids. */
static bool tie(Analysis *c, const Constraint *con, const DimDist *p, DimDist *a)
{
	memset(a, 0, sizeof *a);
	a->dim = con->dim;
	a->tied_to = p->dim;
	a->wg_logical = p->wg_logical;
	a->wg_dim = p->wg_dim;
	a->size = dim_size(c, con, con->dim, &a->size_sym);
	a->wg_tile = con_int(c, con, con->tile, "the workgroup tile");
	const Constraint *wc = kernel_constraint(c->k, CON_WAVE, con->dim);
	a->wave_tile = wc ? con_int(c, wc, wc->tile, "the wave tile") : a->wg_tile;
	if (c->failed)
		return false;
	if (a->size_sym) {
		/* whether it is bounded depends on the size (unbounded below) */
		analysis_error(c, con->loc, "%s: %s, not primary, has a size known at run time only: not compiled yet",
			con->path, sym_name(a->dim));
		return false;
	}
	if (a->wg_tile <= 0 || a->wave_tile <= 0 || a->wg_tile % a->wave_tile) {
		analysis_error(c, con->loc, "%s: workgroup tile %lld and wave tile %lld of %s: both positive, the wave "
					    "tile dividing",
			con->path, (long long)a->wg_tile, (long long)a->wave_tile, sym_name(a->dim));
		return false;
	}
	a->waves = (int)(a->wg_tile / a->wave_tile);
	if (a->waves > 1 && p->waves == 1 && p->wg_logical <= 2 && c->wg_size[p->wg_dim] == (p->wg_dim == 0 ? 64 : 1)) {
		/* the primary has one wave (no wave constraint: paged decode's kv
		 * head BH, 4 waves along the query heads B): the workgroup has
		 * the tied dim's waves, which all hold the primary's window */
		c->wg_size[p->wg_dim] = a->waves * (p->wg_dim == 0 ? 64 : 1);
	} else if (a->waves != p->waves) {
		/* the waves along the workgroup dim are the primary's */
		analysis_error(c, con->loc, "%s: %d waves along %s but %d along %s, the primary dim of workgroup_dim %d: "
					    "not compiled",
			con->path, a->waves, sym_name(a->dim), p->waves, sym_name(p->dim), p->wg_logical);
		return false;
	}
	a->count = p->count;
	a->wg_id = p->wg_id;
	a->wg_start = p->count == 1 ? sym_int(c->k->sc, 0) : sym_mul(c->k->sc, p->wg_id, sym_int(c->k->sc, a->wg_tile));
	if (!apply_fn_start(c, a, con))
		return false;
	a->unbounded = a->size > 0 && a->size % a->wg_tile == 0;
	return true;
}

/* Wave's non-primary WorkgroupConstraint (GQA: H_KV on H's workgroup_dim):
 * no grid dim of its own; its index is its tile times the id of the
 * primary constraint on the same workgroup_dim (Wave's apply(), wg_dim *
 * tile_size). Its register coordinates then run over the primary's
 * workgroups, past its own size: Wave bounds them only when the tile does
 * not divide the size (get_index_bound), and so does this (unbounded). */
static bool add_tied(Analysis *c)
{
	Kernel *k = c->k;
	for (size_t i = 0; i < k->cons.len; i++) {
		const Constraint *con = &k->cons.data[i];
		if (con->kind != CON_WORKGROUP || con->primary)
			continue;
		if (find_dist(c, con->dim)) {
			analysis_error(c, con->loc, "%s: a second workgroup constraint on %s is not compiled yet",
				con->path, sym_name(con->dim));
			return false;
		}
		const DimDist *p = primary_on(c, con->wg_dim);
		if (!p) {
			analysis_error(c, con->loc, "%s: no primary workgroup constraint on workgroup_dim %d for %s to share",
				con->path, con->wg_dim, sym_name(con->dim));
			return false;
		}
		if (con->iters) {
			analysis_error(c, con->loc, "%s: iters on a constraint that is not primary is not compiled yet",
				con->path);
			return false;
		}
		if (c->ndist == MAX_DIMS) {
			analysis_error(c, con->loc, "%s: too many distributed dims", con->path);
			return false;
		}
		if (!tie(c, con, p, &c->dist[c->ndist]))
			return false;
		c->ndist++;
	}
	return true;
}

/* Reordering constraints (Wave's ReorderingConstraint: workgroups take
 * their tiles in another order, for L2 reuse): each gives the id a
 * workgroup of hardware ids ($WG0-2) takes along one grid dim, an
 * expression of those ids and symbols with values. The kernel computes
 * it once at entry (isel.c) and every index uses it; the interpreter
 * runs tiles in the plain order. Both agree where the new ids are a
 * permutation of the grid, which is checked here by enumerating it (no
 * workgroup may take a tile outside it or one another takes: the bounds
 * proofs of later stages assume ids in [0, grid)).
 *
 * A grid of run-time size (Wave's grouped order over dynamic M and N):
 * each runtime size S in the expression must be the size of the dim whose
 * workgroups run along some grid dim g, with tile T, and the expression
 * must depend on S only through that dim's workgroup count n_g =
 * ceiling(S/T). That is proved by substituting S = T*n_g - r_g and
 * simplifying under 0 <= r_g < T: r_g must vanish (reorder_over_counts).
 * The order is then a function of the workgroup ids and the counts, and it
 * is checked to permute every grid of counts up to a bound B_g
 * (reorder_bounds: as many grids as MAX_REORDER_RT_CHECK evaluations
 * allow); the kernel takes the reordered ids where every count is within
 * its bound and the plain ids elsewhere (a Piecewise over the counts), so
 * what it runs is a checked permutation at every launch. */
enum {
	MAX_REORDER_CHECK = 1 << 22,    /* workgroups enumerated at most (a grid known when compiling) */
	MAX_REORDER_RT_CHECK = 1 << 20, /* workgroups enumerated at most over the grids of a runtime one */
};

/* Do the ids ex[g] (expressions of $WG0-2 and the counts $NWG0-2; NULL: the plain id) give
 * every workgroup of an n[0] x n[1] x n[2] grid a tile of its own inside
 * it? Reports the first that does not (naming the grid when rt). */
static bool reorder_permutes(Analysis *c, const Constraint *first, Sym *const ex[3], const int64_t n[3], bool rt)
{
	SymCtx *sc = c->k->sc;
	int64_t total = n[0] * n[1] * n[2];
	uint8_t *taken = calloc((size_t)(total ? total : 1), 1);
	if (!taken)
		die("out of memory");
	/* the counts too: ex[g] may name them ($NWG0-2, a runtime grid's) */
	Sym *ids[6] = {sym_symbol(sc, "$WG0"), sym_symbol(sc, "$WG1"), sym_symbol(sc, "$WG2"), sym_symbol(sc, "$NWG0"),
		sym_symbol(sc, "$NWG1"), sym_symbol(sc, "$NWG2")};
	char grid[96] = "";
	if (rt)
		snprintf(grid, sizeof grid, " (in a grid of %lld x %lld x %lld workgroups)", (long long)n[0],
			(long long)n[1], (long long)n[2]);
	bool ok = true;
	for (int64_t lin = 0; lin < total && ok; lin++) {
		int64_t w[6] = {lin % n[0], lin / n[0] % n[1], lin / n[0] / n[1], n[0], n[1], n[2]}, to[3];
		for (int g = 0; g < 3 && ok; g++) {
			to[g] = w[g];
			if (!ex[g])
				continue;
			SymRat q;
			const char *msg = NULL;
			if (sym_eval(sc, ex[g], 6, ids, w, &q, &msg) < 0 || q.q != 1) {
				analysis_error(c, first->loc, "%s: the reordered id along grid dim %d of workgroup (%lld, %lld, "
							      "%lld)%s %s%s",
					first->path, g, (long long)w[0], (long long)w[1], (long long)w[2], grid,
					msg ? "cannot be evaluated: " : "is not an integer", msg ? msg : "");
				ok = false;
			} else if (q.p < 0 || q.p >= n[g]) {
				analysis_error(c, first->loc, "%s: workgroup (%lld, %lld, %lld)%s takes id %lld along grid dim "
							      "%d, outside the grid's %lld",
					first->path, (long long)w[0], (long long)w[1], (long long)w[2], grid, (long long)q.p, g,
					(long long)n[g]);
				ok = false;
			} else
				to[g] = q.p;
		}
		if (!ok)
			break;
		int64_t at = to[0] + n[0] * (to[1] + n[1] * to[2]);
		if (taken[at]) {
			analysis_error(c, first->loc, "%s: workgroup (%lld, %lld, %lld)%s takes the tile (%lld, %lld, %lld) "
						      "another workgroup takes: the reordering is not a permutation of the grid",
				first->path, (long long)w[0], (long long)w[1], (long long)w[2], grid, (long long)to[0],
				(long long)to[1], (long long)to[2]);
			ok = false;
		}
		taken[at] = 1;
	}
	free(taken);
	return ok;
}

/* The reordering constraint on grid dim g, or the first one (g < 0). */
static const Constraint *reordering_con(const Analysis *c, int g)
{
	for (size_t i = 0; i < c->k->cons.len; i++)
		if (c->k->cons.data[i].kind == CON_REORDERING && (g < 0 || c->k->cons.data[i].wg_dim == g))
			return &c->k->cons.data[i];
	return g < 0 ? NULL : reordering_con(c, -1);
}

/* The primary workgroup dim on grid dim g whose run-time size is one
 * dynamic symbol (the grid's size its workgroup count), or NULL. */
static const DimDist *runtime_grid_dim(const Analysis *c, int g)
{
	for (int i = 0; i < c->ndist; i++) {
		const DimDist *d = &c->dist[i];
		if (d->wg_dim == g && d->wg_logical == g && d->count < 0 && !d->iters_sym && !d->alias_of &&
		    !d->tied_to && d->wg_tile > 0 && d->size_sym && sym_kind(d->size_sym) == SYM_SYMBOL)
			return d;
	}
	return NULL;
}

/* The expressions e[g] over the workgroup counts $NWG0-2 instead of the
 * runtime sizes (see above), into ex[g]; rt[g] marks the grid dims of
 * runtime size and hi[g] the most workgroups such a size can give.
 * false after reporting what it cannot express so. */
static bool reorder_over_counts(Analysis *c, Sym *const e[3], Sym *ex[3], bool rt[3], int64_t hi[3])
{
	SymCtx *sc = c->k->sc;
	const char *why;
	Sym *from[3], *to[3];
	int nsub = 0;
	SymAssume *as = sym_assume_new(sc);
	for (int g = 0; g < 3; g++) {
		rt[g] = c->grid[g] < 0;
		hi[g] = rt[g] ? 0 : c->grid[g];
		if (!rt[g])
			continue;
		const DimDist *d = runtime_grid_dim(c, g);
		char nn[16], rn[16]; /* room for any int g */
		snprintf(nn, sizeof nn, "$NWG%d", g);
		snprintf(rn, sizeof rn, "$RWG%d", g);
		Sym *cnt = sym_symbol(sc, nn), *rem = sym_symbol(sc, rn);
		if (d) {
			sym_assume_add(as, sym_rel(sc, SYM_GE, rem, sym_int(sc, 0)), &why);
			sym_assume_add(as, sym_rel(sc, SYM_LE, rem, sym_int(sc, d->wg_tile - 1)), &why);
			sym_assume_add(as, sym_rel(sc, SYM_GE, cnt, sym_int(sc, 1)), &why);
			from[nsub] = d->size_sym; /* (a tile of 1: the size is the count) */
			to[nsub++] = d->wg_tile == 1 ? cnt : sym_sub(sc, sym_mul(sc, sym_int(sc, d->wg_tile), cnt), rem);
			hi[g] = (kernel_runtime_max(c->k, d->size_sym) + d->wg_tile - 1) / d->wg_tile;
		}
		/* the grid's size must be that count, which the expressions use */
		if (!d || sym_simplify(sc, sym_subs(sc, c->grid_sym[g], nsub, from, to), as) != cnt) {
			const Constraint *con = reordering_con(c, -1);
			analysis_error(c, con->loc, "%s: reordering a grid whose size along grid dim %d (%s) is not the "
						    "workgroup count of one dim of run-time size is not compiled",
				con->path, g, sym_str(sc, c->grid_sym[g]));
			return false;
		}
	}
	for (int g = 0; g < 3; g++) {
		ex[g] = NULL;
		if (!e[g])
			continue;
		const Constraint *con = reordering_con(c, g);
		Sym *fs[8];
		size_t n = sym_free_symbols(sc, e[g], fs, 8);
		for (size_t j = 0; j < n && j < 8; j++) {
			const char *nm = sym_name(fs[j]);
			bool ok = strncmp(nm, "$WG", 3) == 0 && nm[3] >= '0' && nm[3] <= '2' && !nm[4];
			for (int k = 0; k < nsub; k++)
				ok |= from[k] == fs[j];
			if (!ok) {
				analysis_error(c, con->loc, "%s: the reordered id uses '%s': only workgroup ids ($WG0-2, "
							    "Wave's WORKGROUP_0-2), symbols with values and the run-time sizes "
							    "of the dims whose workgroups make the grid are compiled",
					con->path, nm);
				return false;
			}
		}
		ex[g] = sym_simplify(sc, sym_subs(sc, e[g], nsub, from, to), as);
		n = sym_free_symbols(sc, ex[g], fs, 8);
		for (size_t j = 0; j < n && j < 8; j++)
			if (strncmp(sym_name(fs[j]), "$RWG", 4) == 0) {
				analysis_error(c, con->loc, "%s: the reordered id depends on a run-time size other than "
							    "through the number of workgroups it gives (ceiling(size / tile)): "
							    "not compiled",
					con->path);
				return false;
			}
	}
	return true;
}

/* Sum over n = 1..b of n: the workgroups of the grids of one runtime dim
 * up to b. */
static int64_t tri(int64_t b) { return b * (b + 1) / 2; }

static bool add_reordering(Analysis *c)
{
	Kernel *k = c->k;
	SymCtx *sc = k->sc;
	const Constraint *first = NULL;
	Sym *e[3] = {NULL, NULL, NULL};
	bool symbolic = false;
	for (size_t i = 0; i < k->cons.len; i++) {
		const Constraint *con = &k->cons.data[i];
		if (con->kind != CON_REORDERING || !con->expr)
			continue;
		first = first ? first : con;
		e[con->wg_dim] = kernel_subs(k, con->expr);
		Sym *fs[8];
		size_t n = sym_free_symbols(sc, e[con->wg_dim], fs, 8);
		for (size_t j = 0; j < n && j < 8; j++) {
			const char *nm = sym_name(fs[j]);
			symbolic |= !(strncmp(nm, "$WG", 3) == 0 && nm[3] >= '0' && nm[3] <= '2' && !nm[4]);
		}
	}
	if (!first)
		return true;
	bool runtime = c->grid[0] < 0 || c->grid[1] < 0 || c->grid[2] < 0;
	if (!symbolic && !runtime) {
		int64_t total = 1;
		for (int g = 0; g < 3; g++) {
			total *= c->grid[g];
			if (total > MAX_REORDER_CHECK) {
				analysis_error(c, first->loc, "%s: reordering more than %d workgroups is not compiled (each is "
							      "checked to take a tile of its own)",
					first->path, MAX_REORDER_CHECK);
				return false;
			}
		}
		for (int g = 0; g < 3; g++)
			c->reorder[g] = e[g];
		return reorder_permutes(c, first, e, c->grid, false);
	}
	Sym *ex[3];
	bool rt[3];
	int64_t hi[3];
	if (!reorder_over_counts(c, e, ex, rt, hi))
		return false;
	/* the bounds: equal for every runtime dim, as large as the budget allows
	 * (and no larger than the most workgroups its size can give) */
	int64_t fixed = 1, b = 1;
	for (int g = 0; g < 3 && fixed <= MAX_REORDER_RT_CHECK; g++)
		if (!rt[g])
			fixed *= c->grid[g]; /* (each at most 2^32: no overflow before the check) */
	if (fixed > MAX_REORDER_RT_CHECK) {
		analysis_error(c, first->loc, "%s: reordering more than %d workgroups is not compiled (each is checked to "
					      "take a tile of its own)",
			first->path, MAX_REORDER_RT_CHECK);
		return false;
	}
	for (;;) {
		int64_t work = fixed;
		for (int g = 0; g < 3; g++)
			if (rt[g])
				work *= tri(b + 1 < hi[g] ? b + 1 : hi[g]);
		if (work > MAX_REORDER_RT_CHECK || b >= 65535)
			break;
		b++;
	}
	int64_t bound[3];
	for (int g = 0; g < 3; g++)
		bound[g] = rt[g] ? (b < hi[g] ? b : hi[g]) : c->grid[g];
	/* every grid of counts up to the bounds */
	int64_t n[3];
	for (n[2] = rt[2] ? 1 : bound[2]; n[2] <= bound[2]; n[2]++)
		for (n[1] = rt[1] ? 1 : bound[1]; n[1] <= bound[1]; n[1]++)
			for (n[0] = rt[0] ? 1 : bound[0]; n[0] <= bound[0]; n[0]++)
				if (!reorder_permutes(c, first, ex, n, true))
					return false;
	/* the kernel: the reordered ids where every runtime count is within
	 * its bound, the plain ids elsewhere */
	Sym *within = sym_true(sc);
	for (int g = 0; g < 3; g++)
		if (rt[g] && bound[g] < hi[g]) { /* ceiling(S / T) <= B, as S <= T*B (S >= 0) */
			const DimDist *d = runtime_grid_dim(c, g);
			within = sym_and(sc, within, sym_rel(sc, SYM_LE, d->size_sym, sym_int(sc, d->wg_tile * bound[g])));
		}
	for (int g = 0; g < 3; g++) {
		c->reorder_bound[g] = rt[g] && bound[g] < hi[g] ? bound[g] : 0;
		if (!e[g])
			continue;
		Sym *vals[2] = {e[g], sym_symbol(sc, g ? (g == 1 ? "$WG1" : "$WG2") : "$WG0")};
		Sym *conds[2] = {within, sym_true(sc)};
		c->reorder[g] = sym_piecewise(sc, 2, vals, conds);
	}
	return true;
}

/* A grid constraint (Wave's GridConstraint, persistent GEMMs) fixes the
 * grid at (grid_size, 1, 1) workgroups: the workgroup constraints keep
 * their tiles (a workgroup's register extent along each dim) but place no
 * workgroup anywhere, every workgroup's window starting at 0 (Wave's
 * set_thread_independent_index skips them), so the kernel moves its tiles
 * itself (mappings over $WG0 and its loops). grid_size is an integer. */
static bool add_grid(Analysis *c)
{
	const Constraint *gc = NULL;
	for (size_t i = 0; i < c->k->cons.len && !gc; i++)
		if (c->k->cons.data[i].kind == CON_GRID)
			gc = &c->k->cons.data[i];
	if (!gc || !gc->expr)
		return true;
	int64_t n = con_int(c, gc, gc->expr, "grid_size");
	if (c->failed)
		return false;
	int64_t most = MAX_GRID_ITEMS / c->wg_size[0];
	if (n < 1 || n > most) {
		analysis_error(c, gc->loc, "%s: a grid of %lld workgroups: from 1 to %lld are supported", gc->path,
			(long long)n, (long long)most);
		return false;
	}
	SymCtx *sc = c->k->sc;
	for (int i = 0; i < c->ndist; i++) {
		DimDist *d = &c->dist[i];
		d->count = 1;
		d->iters_sym = NULL;
		d->wg_id = sym_int(sc, 0);
		d->wg_start = sym_int(sc, 0);
		d->apply_fn = false; /* Wave skips the workgroup constraints' indices under a grid */
	}
	for (int g = 0; g < 3; g++) {
		c->grid[g] = g ? 1 : n;
		c->grid_sym[g] = NULL;
	}
	return true;
}

/* A set_symbol of a symbol a tiling constraint's iters or start uses
 * (op_sets_loop_bound): the loops over the constraint after it take the
 * set value, one per workgroup, which the kernel computes once and keeps
 * while they run. Compiled only in the kernel body (the interpreter binds
 * the value there; in a loop or a conditional selection would define it
 * on one path only): elsewhere rejected, naming both. */
static bool set_feeds_loop(Analysis *c, const Region *r)
{
	Kernel *k = c->k;
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->body && !set_feeds_loop(c, op->body))
			return false;
		if (!op_sets_loop_bound(k, op) || r == k->body)
			continue;
		analysis_error(c, op->loc, "%s: set_symbol of %s, which a tiling constraint's iters or start uses, inside "
					   "'%s': a loop bound is set only in the kernel body",
			op->path, sym_name(op->dim), r->owner ? r->owner->name : "?");
		return false;
	}
	return true;
}

void analyze_constraints(Analysis *c)
{
	Kernel *k = c->k;
	const Constraint *hw = kernel_hardware(k);
	Loc kloc = {k->file, 1, 1};
	int tpw = hw ? hw->threads_per_wave : 64;
	if (tpw != 64) {
		analysis_error(c, hw->loc, "threads_per_wave %d: CDNA kernels run wave64", tpw);
		return;
	}
	if (!set_feeds_loop(c, k->body))
		return;
	for (size_t i = 0; i < k->cons.len; i++) {
		const Constraint *con = &k->cons.data[i];
		if (con->kind == CON_TILING) {
			if (!add_tiling(c, con))
				return;
			continue;
		}
		if (con->kind != CON_WORKGROUP)
			continue;
		if (!con->primary)
			continue; /* add_tied, after the grid */
		if (find_dist(c, con->dim)) {
			analysis_error(c, con->loc, "%s: a second workgroup constraint on %s is not compiled yet",
				con->path, sym_name(con->dim));
			return;
		}
		if (c->ndist == MAX_DIMS || con->wg_dim < 0 || con->wg_dim > MAX_WG_LOGICAL) {
			analysis_error(c, con->loc, "%s: workgroup_dim %d is not supported", con->path, con->wg_dim);
			return;
		}
		DimDist *d = &c->dist[c->ndist++];
		/* Wave's count: iters when given (the grid, as the interpreter's);
		 * over runtime sizes, the kernel and the launcher compute it */
		if (con->iters && (d->iters_sym = analysis_runtime(c, con->iters)) != NULL)
			;
		else if (con->iters) {
			d->iters = con_int(c, con, con->iters, "iters");
			if (!c->failed && d->iters <= 0) {
				analysis_error(c, con->loc, "%s: iters %lld must be positive", con->path,
					(long long)d->iters);
				return;
			}
		}
		d->dim = con->dim;
		d->wg_logical = con->wg_dim;
		d->wg_dim = con->wg_dim < 2 ? con->wg_dim : 2;
		d->size = dim_size(c, con, con->dim, &d->size_sym);
		d->wg_tile = con_int(c, con, con->tile, "the workgroup tile");
		if (c->failed)
			return;
		if (d->wg_tile <= 0 || (d->size <= 0 && !d->size_sym)) {
			if (d->size_sym)
				analysis_error(c, con->loc, "%s: tile %lld must be positive", con->path, (long long)d->wg_tile);
			else
				analysis_error(c, con->loc, "%s: tile %lld and size %lld must be positive", con->path,
					(long long)d->wg_tile, (long long)d->size);
			return;
		}
		const Constraint *wc = kernel_constraint(k, CON_WAVE, con->dim);
		d->wave_tile = wc ? con_int(c, wc, wc->tile, "the wave tile") : d->wg_tile;
		if (c->failed)
			return;
		if (d->wave_tile <= 0 || d->wg_tile % d->wave_tile) {
			analysis_error(c, wc->loc, "%s: wave tile %lld does not divide the workgroup tile %lld", wc->path,
				(long long)d->wave_tile, (long long)d->wg_tile);
			return;
		}
		/* waves along this dim, each 64 work-items along dim 0: more
		 * than a workgroup can have is reported before the int below */
		int64_t waves = d->wg_tile / d->wave_tile, per_wave = d->wg_dim == 0 ? tpw : 1;
		if (waves > MAX_WORKGROUP / per_wave) {
			analysis_error(c, wc->loc, "%s: workgroup tile %lld over wave tile %lld gives %lld waves along %s "
						  "(workgroup dim %d, %lld work-items each): a workgroup has at most %d "
						  "work-items",
				wc->path, (long long)d->wg_tile, (long long)d->wave_tile, (long long)waves,
				sym_name(d->dim), d->wg_dim, (long long)per_wave, MAX_WORKGROUP);
			return;
		}
		d->waves = (int)waves;
		if (d->wg_logical > 2 && d->waves > 1) {
			/* Wave's waves have thread ids along grid dims 0-2 only */
			analysis_error(c, wc->loc, "%s: %lld waves along %s on workgroup_dim %d: a dim folded into grid dim "
						  "2 has one wave (its wave tile is its workgroup tile)",
				wc->path, (long long)waves, sym_name(d->dim), d->wg_logical);
			return;
		}
		if (hw && d->wg_logical <= 2 && hw->waves_per_block[d->wg_dim] &&
			hw->waves_per_block[d->wg_dim] != d->waves) {
			analysis_error(c, hw->loc, "waves_per_block[%d] = %d differs from the %d waves the tiles of %s give",
				d->wg_dim, hw->waves_per_block[d->wg_dim], d->waves, sym_name(d->dim));
			return;
		}
		if (wc && wc->wave_id) {
			analysis_error(c, wc->loc, "%s: explicit wave ids are not compiled yet", wc->path);
			return;
		}
	}
	for (int g = 0; g < 3; g++) {
		c->grid[g] = 1;
		c->wg_size[g] = 1;
	}
	bool seen[3] = {0};
	if (!fold_grid(c, kloc))
		return;
	for (int i = 0; i < c->ndist; i++) {
		DimDist *d = &c->dist[i];
		if (d->wg_logical > 2)
			continue; /* one wave along it (fold_grid): dim 2's waves stand */
		seen[d->wg_dim] = true;
		c->wg_size[d->wg_dim] = d->waves * (d->wg_dim == 0 ? tpw : 1);
	}
	for (int g = 0; g < 3; g++)
		if (!seen[g]) {
			int w = hw && hw->waves_per_block[g] ? hw->waves_per_block[g] : 1;
			c->wg_size[g] = w * (g == 0 ? tpw : 1);
		}
	/* each factor is at most 1024 (the waves check), so the product fits */
	if (!add_aliases(c) || !add_tied(c))
		return;
	int64_t threads = (int64_t)c->wg_size[0] * c->wg_size[1] * c->wg_size[2];
	if (threads > MAX_WORKGROUP) {
		/* the wave counts per dim come from the wave and hardware constraints */
		analysis_error(c, hw ? hw->loc : kloc, "%s: workgroup of %d x %d x %d = %lld work-items: at most %d are "
						       "supported",
			hw ? hw->path : "kernel", c->wg_size[0], c->wg_size[1], c->wg_size[2], (long long)threads,
			MAX_WORKGROUP);
		return;
	}
	for (int i = 0; i < c->ndist; i++) {
		const DimDist *d = &c->dist[i];
		int g = d->wg_dim;
		int64_t most = g == 0 ? MAX_GRID_ITEMS / c->wg_size[0] : 0xffff;
		if (g == 2 && c->grid[2] > most) {
			analysis_error(c, kloc, "%lld workgroups along grid dim 2 (workgroup_dims 2 and up fold into it): "
						"at most %lld are supported",
				(long long)c->grid[2], (long long)most);
			return;
		}
		if (c->grid[g] > most) { /* a runtime grid is the launcher's to check */
			const Constraint *con = kernel_constraint(k, CON_WORKGROUP, d->dim);
			analysis_error(c, con ? con->loc : kloc, "%s: %s = %lld in tiles of %lld gives %lld workgroups along "
								 "grid dim %d: at most %lld are supported",
				con ? con->path : "kernel", sym_name(d->dim), (long long)d->size, (long long)d->wg_tile,
				(long long)c->grid[g], g, (long long)most);
			return;
		}
	}
	if (add_grid(c) && check_apply_fn_writes(c))
		add_reordering(c);
}

DimDist *analysis_dist(Analysis *c, const Sym *dim) { return find_dist(c, dim); }
