/* trip_range_test.c — the bound analysis of a loop over a sub-range of
 * its trips (passes/graph/trip_range.c, analysis_range_proves), on the
 * K bounds of a GEMM's operand read after the graph analyses:
 *   - K = 90 in tiles of 32 (examples/gemm_global_unaligned.json: 3 trips,
 *     2 whole tiles): `k < 90`, not proved by the assumptions for every
 *     element, holds in
 *     every trip of [0, 2) and not of [0, 3); with loads a trip ahead, in
 *     [0, 1) and not in [0, 2); `k >= 32` holds from trip 1 on, not from 0;
 *   - K at run time (tests/passes/plan/data/gemm_dynamic.json): `k < K`
 *     holds in [0, floor(K/32)), not over the trip count; under four_stage's
 *     3 trips ahead in [0, Min(floor(K/32) - 3, trips)) (the split's main
 *     loop: an argument of the Min proves it), not in
 *     [0, Min(floor(K/32) - 2, trips)). */
#include <string.h>

#include "../../../driver/driver.h"
#include "../../../frontend/frontend.h"
#include "../../test.h"

typedef struct Fixture {
	Kernel *k;
	Compile c;
	Diag d;
	TileLoop *t;
	const NodeIndex *ix;
	int kdim; /* the read's K position */
} Fixture;

/* file analysed up to bound_masked_loops; its read a_reg and loop over K. */
static void setup(Fixture *f, const char *file)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", test_root(), file);
	diag_init(&f->d);
	f->k = load_kernel_file(path, &f->d);
	ck_assert(f->k);
	CompileOptions o = {.mcpu = "gfx942", .stop_after = "bound_masked_loops"};
	compile_init(&f->c, f->k, &o, &f->d);
	ck_assert_int_eq(compile_run(&f->c), 0);
	Analysis *c = &f->c.an;
	f->t = analysis_tile(c, sym_symbol(c->k->sc, "K"));
	ck_assert(f->t);
	Op *rd = region_find_op(c->k->body, "a_reg");
	ck_assert(rd && c->index[rd->id]);
	f->ix = c->index[rd->id];
	f->kdim = -1;
	for (int q = 0; q < f->ix->ndims; q++)
		if (f->ix->d[q].dim == f->t->dim)
			f->kdim = q;
	ck_assert_int_ge(f->kdim, 0);
}

static void teardown(Fixture *f)
{
	compile_free(&f->c);
	kernel_free(f->k);
}

/* How many of the read's elements have rel(k, bound) proved over r (and
 * *unproved: how many the assumptions alone do not prove). */
static int64_t proved(Fixture *f, SymKind rel, Sym *bound, const TripRange *r, int64_t *unproved)
{
	Analysis *c = &f->c.an;
	SymCtx *sc = c->k->sc;
	int64_t n = 0;
	*unproved = 0;
	for (int64_t cn = 0; cn < f->ix->ncopies; cn++)
		for (int64_t j = 0; j < f->ix->epc; j++) {
			Sym *e = sym_rel(sc, rel, index_coord(c, f->ix, f->kdim, cn, j), bound);
			*unproved += sym_kind(sym_simplify(sc, e, c->assume)) != SYM_TRUE;
			n += analysis_range_proves(c, f->t, r, e);
		}
	return n;
}

static int64_t elems(const Fixture *f) { return f->ix->ncopies * f->ix->epc; }

START_TEST(constant_size)
{
	Fixture f;
	setup(&f, "examples/gemm_global_unaligned.json");
	SymCtx *sc = f.c.an.k->sc;
	ck_assert_int_eq(f.t->trips, 3);
	Sym *K = sym_int(sc, 90), *two = sym_int(sc, 2);
	int64_t un, n = elems(&f);
	ck_assert_int_eq(proved(&f, SYM_LT, K, &(TripRange){.to = two}, &un), n);
	ck_assert_int_gt(un, 0); /* (the first trips' elements need no range) */
	ck_assert_int_lt(proved(&f, SYM_LT, K, &(TripRange){.to = sym_int(sc, 3)}, &un), n);
	ck_assert_int_eq(proved(&f, SYM_LT, K, &(TripRange){.to = sym_int(sc, 1), .ahead = 1}, &un), n);
	ck_assert_int_lt(proved(&f, SYM_LT, K, &(TripRange){.to = two, .ahead = 1}, &un), n);
	/* nothing proved from above without an end */
	ck_assert_int_eq(proved(&f, SYM_LT, K, &(TripRange){0}, &un), 0);
	/* the tail's trips [1, 3): every k at least one tile in */
	Sym *tile = sym_int(sc, 32);
	ck_assert_int_eq(proved(&f, SYM_GE, tile, &(TripRange){.from = sym_int(sc, 1), .to = sym_int(sc, 3)}, &un), n);
	ck_assert_int_eq(un, n);
	ck_assert_int_eq(proved(&f, SYM_GE, tile, &(TripRange){.to = sym_int(sc, 3)}, &un), 0);
	teardown(&f);
}
END_TEST

START_TEST(runtime_size)
{
	Fixture f;
	setup(&f, "tests/passes/plan/data/gemm_dynamic.json");
	Analysis *c = &f.c.an;
	SymCtx *sc = c->k->sc;
	ck_assert_int_eq(f.t->trips, -1);
	ck_assert(f.t->count);
	Sym *K = analysis_runtime(c, f.t->dim);
	ck_assert(K);
	Sym *whole = sym_simplify(sc, sym_floor(sc, sym_div(sc, K, sym_int(sc, f.t->tile))), c->assume);
	int64_t un, n = elems(&f);
	ck_assert_int_eq(proved(&f, SYM_LT, K, &(TripRange){.to = whole}, &un), n);
	ck_assert_int_gt(un, 0);
	ck_assert_int_lt(proved(&f, SYM_LT, K, &(TripRange){.to = f.t->count}, &un), n);
	/* the main loop of a four_stage split: M = Min(F - 3, trips) */
	Sym *m3 = sym_simplify(sc, sym_min(sc, sym_sub(sc, whole, sym_int(sc, 3)), f.t->count), c->assume);
	ck_assert_int_eq(sym_kind(m3), SYM_MIN);
	ck_assert_int_eq(proved(&f, SYM_LT, K, &(TripRange){.to = m3, .ahead = 3}, &un), n);
	Sym *m2 = sym_simplify(sc, sym_min(sc, sym_sub(sc, whole, sym_int(sc, 2)), f.t->count), c->assume);
	ck_assert_int_lt(proved(&f, SYM_LT, K, &(TripRange){.to = m2, .ahead = 3}, &un), n);
	teardown(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("passes/graph/trip_range");
	TCase *t = tcase_create("core");
	tcase_add_test(t, constant_size);
	tcase_add_test(t, runtime_size);
	suite_add_tcase(s, t);
	return run_suite(s);
}
