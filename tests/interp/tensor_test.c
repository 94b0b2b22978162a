/* tensor_test.c — the interpreter's tensor-level ops (interp/tensor.c)
 * against plain loops: mma with a k dim and a batch dim, reductions with
 * init, broadcasting by name, permute, rounding to the element types, and
 * window mismatches reported as errors rather than crashes. */
#include <math.h>
#include <string.h>

#include "../../interp/interp.h"
#include "../test.h"

static const char *M, *N, *K, *B;

static void setup(void)
{
	M = intern("M");
	N = intern("N");
	K = intern("K");
	B = intern("B");
}

static ITensor *mk(Arena *a, DType t, int rank, const char **dim, const int64_t *ext, unsigned seed)
{
	int64_t start[IT_MAX_RANK] = {0};
	ITensor *x = it_new(a, t, rank, dim, start, ext);
	for (int64_t i = 0; i < x->count; i++) {
		seed = seed * 1103515245u + 12345u;
		x->v[i] = it_round(t, (double)((seed >> 16) % 17) / 4.0 - 2.0);
	}
	return x;
}

START_TEST(mma_batched_against_loops)
{
	Arena a;
	arena_init(&a);
	ItErr e;
	/* lhs [B,M,K] f16, rhs [B,N,K] f16, acc [B,M,N] f32. */
	const char *ld[] = {B, M, K}, *rd[] = {B, N, K}, *ad[] = {B, M, N};
	int64_t le[] = {2, 5, 7}, re[] = {2, 3, 7}, ae[] = {2, 5, 3};
	ITensor *l = mk(&a, DT_F16, 3, ld, le, 1), *r = mk(&a, DT_F16, 3, rd, re, 2), *c = mk(&a, DT_F32, 3, ad, ae, 3);
	ITensor *o = it_mma(&a, &e, l, r, c);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(o->rank, 3);
	for (int b = 0; b < 2; b++)
		for (int m = 0; m < 5; m++)
			for (int n = 0; n < 3; n++) {
				float s = (float)c->v[(b * 5 + m) * 3 + n];
				for (int k = 0; k < 7; k++)
					s += (float)(l->v[(b * 5 + m) * 7 + k] * r->v[(b * 3 + n) * 7 + k]);
				ck_assert_float_eq(o->v[(b * 5 + m) * 3 + n], s);
			}
	/* k windows that disagree are an error, not a crash. */
	int64_t st[] = {0, 0, 7};
	ITensor *r2 = it_new(&a, DT_F16, 3, rd, st, re);
	r2->start[2] = 7;
	ck_assert_ptr_null(it_mma(&a, &e, l, r2, c));
	ck_assert(strstr(e.msg, "K") != NULL);
	arena_free(&a);
}
END_TEST

/* The f16 x f16 -> f32 path sums in f32; it must give the bits of summing
 * in f64 and rounding each step to f32, for any f16 values: subnormals,
 * the largest, mixed signs and magnitudes (cancellation, absorption). */
START_TEST(mma_f16_sums_are_the_f64_rounded_sums)
{
	Arena a;
	arena_init(&a);
	ItErr e;
	const char *ld[] = {M, K}, *rd[] = {N, K}, *ad[] = {M, N};
	int64_t le[] = {9, 61}, re[] = {7, 61}, ae[] = {9, 7};
	ITensor *l = mk(&a, DT_F16, 2, ld, le, 1), *r = mk(&a, DT_F16, 2, rd, re, 2), *c = mk(&a, DT_F32, 2, ad, ae, 3);
	uint64_t sd = 99;
	for (int round = 0; round < 40; round++) {
		for (int t = 0; t < 3; t++) {
			ITensor *x = t == 0 ? l : t == 1 ? r : c;
			for (int64_t i = 0; i < x->count; i++) {
				sd = sd * 6364136223846793005ull + 1442695040888963407ull;
				unsigned bits = (unsigned)(sd >> 40) & 0xffff;
				if ((bits & 0x7c00) == 0x7c00)
					bits &= 0xfbff; /* no inf/NaN */
				uint16_t h = (uint16_t)bits;
				double v = dtype_load(DT_F16, &h, 0);
				x->v[i] = t == 2 ? (double)(float)(v * (double)(1 << (round % 9))) : v;
			}
		}
		ITensor *o = it_mma(&a, &e, l, r, c);
		ck_assert_ptr_nonnull(o);
		for (int m = 0; m < 9; m++)
			for (int n = 0; n < 7; n++) {
				double s = c->v[m * 7 + n];
				for (int k = 0; k < 61; k++)
					s = (double)(float)(s + l->v[m * 61 + k] * r->v[n * 61 + k]);
				double got = o->v[m * 7 + n];
				ck_assert_msg(memcmp(&got, &s, sizeof s) == 0 || (isnan(got) && isnan(s)),
					"round %d [%d,%d]: %.9g, want %.9g", round, m, n, got, s);
			}
	}
	arena_free(&a);
}
END_TEST

START_TEST(reduce_with_init_and_broadcast)
{
	Arena a;
	arena_init(&a);
	ItErr e;
	const char *d2[] = {M, N}, *d1[] = {M};
	int64_t e2[] = {4, 6}, e1[] = {4};
	ITensor *x = mk(&a, DT_F32, 2, d2, e2, 7), *init = mk(&a, DT_F32, 1, d1, e1, 8);
	ITensor *s = it_reduce(&a, &e, IT_ADD, x, N, init);
	ITensor *mx = it_reduce(&a, &e, IT_MAX, x, N, NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(mx);
	ck_assert_int_eq(s->rank, 1);
	ck_assert_ptr_eq(s->dim[0], M);
	for (int m = 0; m < 4; m++) {
		float acc = (float)x->v[m * 6];
		double best = x->v[m * 6];
		for (int n = 1; n < 6; n++) {
			acc += (float)x->v[m * 6 + n];
			best = fmax(best, x->v[m * 6 + n]);
		}
		ck_assert_float_eq(s->v[m], (float)(acc + (float)init->v[m]));
		ck_assert_double_eq(mx->v[m], best);
	}
	/* x[M,N] - mx[M]: mx broadcasts along N. */
	const ITensor *ops[] = {x, mx};
	ITensor *d = it_map(&a, &e, DT_F32, IT_SUB, 2, ops);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->rank, 2);
	for (int m = 0; m < 4; m++)
		for (int n = 0; n < 6; n++)
			ck_assert_double_eq(d->v[m * 6 + n], (float)(x->v[m * 6 + n] - mx->v[m]));
	/* The rhs's extra dims are appended: mx[M] + x[M,N] is [M,N] too. */
	const ITensor *ops2[] = {mx, x};
	ITensor *d2b = it_map(&a, &e, DT_F32, IT_ADD, 2, ops2);
	ck_assert_int_eq(d2b->rank, 2);
	ck_assert_ptr_eq(d2b->dim[1], N);
	/* Reducing over a dim the value lacks is an error. */
	ck_assert_ptr_null(it_reduce(&a, &e, IT_ADD, x, K, NULL));
	arena_free(&a);
}
END_TEST

START_TEST(permute_and_expand)
{
	Arena a;
	arena_init(&a);
	ItErr e;
	const char *d[] = {M, N}, *p[] = {N, M};
	int64_t ex[] = {3, 5};
	ITensor *x = mk(&a, DT_F32, 2, d, ex, 11);
	x->start[1] = 10;
	ITensor *t = it_permute(&a, &e, x, 2, p);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->ext[0], 5);
	ck_assert_int_eq(t->start[0], 10);
	for (int m = 0; m < 3; m++)
		for (int n = 0; n < 5; n++)
			ck_assert_double_eq(t->v[n * 3 + m], x->v[m * 5 + n]);
	/* expand adds a new leading dim B of 2. */
	const char *bd[] = {B, M, N};
	int64_t bs[] = {0, 0, 10}, be[] = {2, 3, 5};
	ITensor *b = it_expand(&a, &e, x, 3, bd, bs, be);
	ck_assert_ptr_nonnull(b);
	for (int i = 0; i < 15; i++)
		ck_assert_double_eq(b->v[15 + i], x->v[i]);
	/* A window that does not match is refused. */
	bs[2] = 0;
	ck_assert_ptr_null(it_expand(&a, &e, x, 3, bd, bs, be));
	ck_assert_ptr_null(it_permute(&a, &e, x, 2, bd));
	arena_free(&a);
}
END_TEST

START_TEST(rounding_per_dtype)
{
	ck_assert_double_eq(it_round(DT_F16, 1.0 + 1.0 / 4096), 1.0);     /* below half an ulp */
	ck_assert_double_eq(it_round(DT_F16, 1.0 + 3.0 / 2048), 1.0 + 2.0 / 1024); /* ties to even */
	ck_assert_double_eq(it_round(DT_BF16, 1.0 + 1.0 / 256), 1.0);
	ck_assert_double_eq(it_round(DT_F32, 1.0 + 1e-9), 1.0);
	ck_assert_double_eq(it_round(DT_I8, 130.0), -126.0);
	ck_assert_double_eq(it_round(DT_I32, -2.7), -2.0);
	ck_assert_double_eq(it_round(DT_I1, 5.0), 1.0);
	double x[3] = {7, -2, 0};
	ck_assert_double_eq(it_apply(IT_FLOORDIV, DT_I32, DT_I32, x), -4.0);
	ck_assert_double_eq(it_apply(IT_MOD, DT_I32, DT_I32, x), -1.0);
	ck_assert_double_eq(it_apply(IT_DIV, DT_I32, DT_I32, x), -3.0);
	double y[3] = {1, 0, 0};
	ck_assert_double_eq(it_apply(IT_DIV, DT_I32, DT_I32, y), 0.0); /* int division by zero: 0 */
	double s[3] = {0, 4, 9};
	ck_assert_double_eq(it_apply(IT_SELECT, DT_F32, DT_I1, s), 9.0);
}
END_TEST

/* casts from float to integers (IT_FPTOSI, then the rounding to the
 * dtype): NaN 0, toward zero, saturated to the i32 range (v_cvt_i32_f32),
 * then wrapped to narrower widths; i64 is not saturated at 32 bits */
static double fptosi(DType t, double v)
{
	double x[3] = {v, 0, 0};
	return it_round(t, it_apply(IT_FPTOSI, t, DT_F32, x));
}

START_TEST(float_to_int_casts)
{
	ck_assert_double_eq(fptosi(DT_I32, -2.7), -2.0);
	ck_assert_double_eq(fptosi(DT_I32, 2.7), 2.0);
	ck_assert_double_eq(fptosi(DT_I32, NAN), 0.0);
	ck_assert_double_eq(fptosi(DT_I32, 3e9), 2147483647.0);
	ck_assert_double_eq(fptosi(DT_I32, -3e9), -2147483648.0);
	ck_assert_double_eq(fptosi(DT_I32, INFINITY), 2147483647.0);
	ck_assert_double_eq(fptosi(DT_I32, -INFINITY), -2147483648.0);
	ck_assert_double_eq(fptosi(DT_U32, -1.5), 4294967295.0); /* fptosi's bits read as u32 */
	ck_assert_double_eq(fptosi(DT_U32, 5e9), 2147483647.0);
	ck_assert_double_eq(fptosi(DT_I8, 300.7), 44.0);
	ck_assert_double_eq(fptosi(DT_I8, 1e10), -1.0); /* INT32_MAX's low byte */
	ck_assert_double_eq(fptosi(DT_I16, -65504.0), 32.0);
	ck_assert_double_eq(fptosi(DT_I64, 3e9), 3e9);
}
END_TEST

int main(void)
{
	setup();
	Suite *s = suite_create("interp.tensor");
	TCase *tc = tcase_create("tensor");
	tcase_add_test(tc, mma_batched_against_loops);
	tcase_add_test(tc, mma_f16_sums_are_the_f64_rounded_sums);
	tcase_add_test(tc, reduce_with_init_and_broadcast);
	tcase_add_test(tc, permute_and_expand);
	tcase_add_test(tc, rounding_per_dtype);
	tcase_add_test(tc, float_to_int_casts);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
