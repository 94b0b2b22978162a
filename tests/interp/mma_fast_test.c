/* mma_fast_test.c — the interpreter's GEMM fast paths (interp/tensor.c's
 * dense mma kernel, interp/memory.c's row reads) against sequential
 * references of the documented semantics, bit for bit: each accumulator
 * element starts from its accumulator value and adds its products in
 * increasing k order, the product exact in double, each sum rounded to the
 * accumulator dtype.
 *
 * Kernels: gemm_dynamic's (a K loop of read, read, mma) generated with
 * chosen dtypes, MMA type and accumulator dim order, on a non-square shape
 * that no tile divides (77x45x203 on 64x40x32: the wave tile along N is
 * 20, so the kernel's rows are padded, and reads past M, N and K give
 * zeros, which the K loop's last tile adds too: a -0 sum becomes +0).
 * Inputs round: the f32 sums are inexact, so a path that summed in another
 * order, or rounded a product or a sum differently, would show. Two bf16
 * cases have products that are not exact in f32 (subnormal, or past
 * FLT_MAX): the fast path must not use float products there, and the test
 * checks that float products would indeed have given other bits.
 *
 * Tensors: it_mma on layouts and dtypes the frontend does not produce
 * (k-major lhs, the column operand being lhs, batches, mixed and f32
 * operands, an f64 accumulator, accumulators that are not zero). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { M = 77, N = 45, K = 203, BLOCK_K = 32 };

/* How one test kernel and its inputs are made. */
typedef struct Case {
	const char *a, *b, *c; /* dtypes */
	const char *mma;       /* MMA type (the frontend checks the dtypes) */
	bool nm;               /* accumulator [N, M] = b·aᵀ instead of [M, N] = a·bᵀ */
	/* inputs: multiples of step in [lo, hi), times scale */
	double lo, hi, step, scale;
} Case;

static char *kernel_text(const Case *t)
{
	const char *acc = t->nm ? "\"N\", \"M\"" : "\"M\", \"N\"";
	const char *lhs = t->nm ? "b_reg" : "a_reg", *rhs = t->nm ? "a_reg" : "b_reg";
	size_t len = 4096;
	char *s = xmalloc(len);
	int n = snprintf(s, len,
		"{\"format\": \"wavecc-kernel/1\", \"name\": \"mma_fast\","
		" \"symbols\": {\"BLOCK_M\": 64, \"BLOCK_N\": 40, \"BLOCK_K\": 32},"
		" \"dynamic_symbols\": [\"M\", \"N\", \"K\"],"
		" \"constraints\": ["
		"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BLOCK_M\", \"workgroup_dim\": 0},"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BLOCK_N\", \"workgroup_dim\": 1},"
		"  {\"kind\": \"tiling\", \"dim\": \"K\", \"tile\": \"BLOCK_K\"},"
		"  {\"kind\": \"wave\", \"dim\": \"M\", \"tile\": \"floor(BLOCK_M / 2)\"},"
		"  {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": \"floor(BLOCK_N / 2)\"},"
		"  {\"kind\": \"hardware\", \"threads_per_wave\": 64, \"waves_per_block\": [2, 2, 1],"
		"   \"mma_type\": \"%s\"}],"
		" \"arguments\": ["
		"  {\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"K\"], \"address_space\": \"global\","
		"   \"dtype\": \"%s\"},"
		"  {\"name\": \"b\", \"type\": \"memory\", \"shape\": [\"N\", \"K\"], \"address_space\": \"global\","
		"   \"dtype\": \"%s\"},"
		"  {\"name\": \"c\", \"type\": \"memory\", \"shape\": [%s], \"address_space\": \"global\","
		"   \"dtype\": \"%s\"}],"
		" \"graph\": ["
		"  {\"name\": \"c_reg\", \"op\": \"register\", \"shape\": [%s], \"dtype\": \"%s\", \"value\": 0.0},"
		"  {\"name\": \"repeat\", \"op\": \"iterate\", \"axis\": \"K\", \"init_args\": [\"c_reg\"],"
		"   \"iter_args\": [\"acc\"], \"body\": ["
		"    {\"name\": \"a_reg\", \"op\": \"read\", \"memory\": \"a\", \"elements_per_thread\": 4},"
		"    {\"name\": \"b_reg\", \"op\": \"read\", \"memory\": \"b\", \"elements_per_thread\": 4},"
		"    {\"name\": \"mma\", \"op\": \"mma\", \"lhs\": \"%s\", \"rhs\": \"%s\", \"acc\": \"acc\"},"
		"    {\"name\": \"output\", \"op\": \"output\", \"values\": [\"mma\"]}]},"
		"  {\"name\": \"write\", \"op\": \"write\", \"register\": \"repeat\", \"memory\": \"c\","
		"   \"elements_per_thread\": 4}]}",
		t->mma, t->a, t->b, acc, t->c, acc, t->c, lhs, rhs);
	ck_assert(n > 0 && (size_t)n < len);
	return s;
}

/* Inputs: fill's multiples of step, scaled by a power of two (exact). */
static void fill_scaled(InterpArg *x, unsigned seed, const Case *t)
{
	fill(x, seed, t->lo, t->hi, t->step);
	for (uint64_t i = 0; i < x->count; i++)
		dtype_store(x->dtype, x->data, i, el(x, i) * t->scale);
}

/* Round s to the accumulator dtype c (f32, f64 or i32). */
static double to_acc(DType c, double s)
{
	return c == DT_F32 ? (double)(float)s : c == DT_F64 ? s : (double)(int32_t)(int64_t)s;
}

/* The reference sum of element (m, n): in k order over the K loop's tiles
 * (zeros past K), the product in double, each sum rounded to the
 * accumulator dtype c. With float_products, the product is first rounded
 * to f32 (what a wrong fast path would do). */
static double ref_sum(const InterpArg *a, const InterpArg *b, DType c, int64_t m, int64_t n, bool float_products)
{
	double s = 0;
	for (int64_t k = 0; k < (K + BLOCK_K - 1) / BLOCK_K * BLOCK_K; k++) {
		double p = k < K ? el(a, (uint64_t)(m * K + k)) * el(b, (uint64_t)(n * K + k)) : 0;
		if (float_products)
			p = (float)p;
		s = to_acc(c, s + p);
	}
	return s;
}

/* Equal as the stored dtype's bits would be: same value, or both nan. */
static bool same(double x, double y)
{
	return x == y ? signbit(x) == signbit(y) : isnan(x) && isnan(y);
}

/* Run the case; returns how many elements are inexact (the reference
 * differs from the exact sum) and, in *float_differs, how many a sum of
 * f32-rounded products would get wrong. Fails on any wrong bit. */
static int run_case(const Case *t, int *float_differs)
{
	char *text = kernel_text(t);
	Example ex;
	const int64_t dyn[3] = {M, N, K};
	diag_init(&ex.d);
	ex.k = load_kernel_text(text, strlen(text), "mma_fast.json", &ex.d);
	ck_assert_msg(ex.k != NULL, "the %s x %s -> %s kernel does not load", t->a, t->b, t->c);
	ck_assert(interp_init(&ex.in, ex.k, dyn, &ex.d) == 0);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b"), *c = ex_arg(&ex, "c");
	fill_scaled(a, 41, t);
	fill_scaled(b, 42, t);
	fill(c, 43, 50, 51, 1); /* every element must be overwritten */
	ex_run(&ex);
	int inexact = 0;
	*float_differs = 0;
	for (int64_t m = 0; m < M; m++)
		for (int64_t n = 0; n < N; n++) {
			double want = ref_sum(a, b, c->dtype, m, n, false), exact = 0;
			for (int64_t k = 0; k < K; k++)
				exact += el(a, (uint64_t)(m * K + k)) * el(b, (uint64_t)(n * K + k));
			inexact += want != exact;
			*float_differs += !same(want, ref_sum(a, b, c->dtype, m, n, true));
			uint64_t i = (uint64_t)(t->nm ? n * M + m : m * N + n);
			double got = el(c, i);
			ck_assert_msg(same(got, want), "%s x %s -> %s%s: c[%lld, %lld] = %a, want %a", t->a, t->b, t->c,
				t->nm ? " (acc N, M)" : "", (long long)m, (long long)n, got, want);
		}
	ex_close(&ex);
	free(text);
	return inexact;
}

/* The sums must round in most elements, or the case checks no order. */
static void check_rounding(const Case *t)
{
	int fd;
	int inexact = run_case(t, &fd);
	ck_assert_msg(inexact > M * N / 2, "%s x %s -> %s: only %d of %d sums round", t->a, t->b, t->c, inexact, M * N);
}

START_TEST(f16_rounding)
{
	check_rounding(&(Case){"f16", "f16", "f32", "F32_16x16x16_F16", false, -4, 4, 1.0 / 1024, 1});
}
END_TEST

START_TEST(f16_rounding_acc_n_m)
{
	check_rounding(&(Case){"f16", "f16", "f32", "F32_16x16x16_F16", true, -4, 4, 1.0 / 1024, 1});
}
END_TEST

START_TEST(bf16_rounding)
{
	check_rounding(&(Case){"bf16", "bf16", "f32", "F32_16x16x32_BF16", false, -4, 4, 1.0 / 1024, 1});
}
END_TEST

START_TEST(bf16_subnormal_products)
{
	/* products are multiples of 2^-150, below f32's smallest subnormal:
	 * rounded to f32 first, half of them would vanish or double */
	int fd;
	run_case(&(Case){"bf16", "bf16", "f32", "F32_16x16x32_BF16", false, -8, 8, 1, 0x1p-75}, &fd);
	ck_assert_msg(fd > 0, "float products would give the same sums: the case checks nothing");
}
END_TEST

START_TEST(bf16_products_past_flt_max)
{
	/* products up to 2^130: inf in f32, while a partial sum near
	 * -FLT_MAX plus one of them is finite */
	int fd;
	run_case(&(Case){"bf16", "bf16", "f32", "F32_16x16x32_BF16", false, -2, 2, 0.5, 0x1p64}, &fd);
	ck_assert_msg(fd > 0, "float products would give the same sums: the case checks nothing");
}
END_TEST

START_TEST(i8_into_i32)
{
	run_case(&(Case){"i8", "i8", "i32", "I32_16x16x32_I8", false, -8, 8, 1, 1}, &(int){0});
}
END_TEST

START_TEST(f8_operands)
{
	run_case(&(Case){"f8e4m3fnuz", "f8e4m3fnuz", "f32", "F32_16x16x32_F8", false, -128, 128, 1.0 / 64, 1}, &(int){0});
}
END_TEST

/* ---- it_mma on tensors ---- */

enum { TB = 2, TM = 9, TN = 21, TK = 37 }; /* TN pads to the kernel's 32 */

/* The dims' extents, by name. */
static int64_t extent(const char *d)
{
	return d == intern("B") ? TB : d == intern("M") ? TM : d == intern("N") ? TN : TK;
}

/* A tensor over the named dims (interned by this), with multiples of
 * 2^-20 in [-4, 4) rounded to t, or nonzero for an accumulator. */
static ITensor *tensor(Arena *a, DType t, int rank, const char *const *names, unsigned seed)
{
	const char *dim[IT_MAX_RANK];
	int64_t start[IT_MAX_RANK] = {0}, ext[IT_MAX_RANK];
	for (int i = 0; i < rank; i++) {
		dim[i] = intern(names[i]);
		ext[i] = extent(dim[i]);
	}
	ITensor *x = it_new(a, t, rank, dim, start, ext);
	uint64_t s = seed;
	for (int64_t i = 0; i < x->count; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		x->v[i] = it_round(t, (double)(int64_t)((s >> 33) % (8u << 20)) * 0x1p-20 - 4);
	}
	return x;
}

/* x at the coordinates c of the dims B, M, N, K (by name). */
static double at(const ITensor *x, const int64_t *c)
{
	const char *d[4] = {intern("B"), intern("M"), intern("N"), intern("K")};
	int64_t off = 0;
	for (int i = 0; i < x->rank; i++) {
		int j = 0;
		while (d[j] != x->dim[i])
			j++;
		off = off * x->ext[i] + c[j];
	}
	return x->v[off];
}

/* it_mma(lhs, rhs, acc) over the dims named, against the sequential sum
 * of every acc element (B is 0 when absent). */
static void check_tensors(DType lt, const char *const *ld, DType rt, const char *const *rd, DType at_,
	const char *const *ad, int rank)
{
	Arena a;
	arena_init(&a);
	ItErr e;
	ITensor *l = tensor(&a, lt, rank, ld, 1), *r = tensor(&a, rt, rank, rd, 2),
		*c = tensor(&a, at_, rank, ad, 3);
	ITensor *o = it_mma(&a, &e, l, r, c);
	ck_assert_msg(o != NULL, "%s", e.msg);
	int64_t nb = rank == 3 ? TB : 1;
	int inexact = 0;
	for (int64_t b = 0; b < nb; b++)
		for (int64_t m = 0; m < TM; m++)
			for (int64_t n = 0; n < TN; n++) {
				int64_t co[4] = {b, m, n, 0};
				double s = at(c, co), exact = s;
				for (co[3] = 0; co[3] < TK; co[3]++) {
					double p = at(l, co) * at(r, co);
					s = to_acc(at_, s + p);
					exact += p;
				}
				inexact += s != exact;
				co[3] = 0;
				ck_assert_msg(same(at(o, co), s), "%s x %s -> %s [%lld,%lld,%lld]: %a, want %a",
					dtype_name(lt), dtype_name(rt), dtype_name(at_), (long long)b, (long long)m,
					(long long)n, at(o, co), s);
			}
	/* f32 sums must round, or the case checks no order (an f64 sum's
	 * rounding cannot be told in double) */
	ck_assert_msg(at_ != DT_F32 || inexact > nb * TM * TN / 2, "only %d sums round", inexact);
	arena_free(&a);
}

START_TEST(tensor_k_major_f32)
{
	const char *l[] = {"K", "M"}, *r[] = {"N", "K"}, *c[] = {"M", "N"};
	check_tensors(DT_F32, l, DT_F32, r, DT_F32, c, 2);
}
END_TEST

START_TEST(tensor_column_operand_lhs)
{
	const char *l[] = {"M", "K"}, *r[] = {"N", "K"}, *c[] = {"N", "M"};
	check_tensors(DT_F16, l, DT_F16, r, DT_F32, c, 2);
}
END_TEST

START_TEST(tensor_batched_bf16)
{
	const char *l[] = {"B", "M", "K"}, *r[] = {"B", "N", "K"}, *c[] = {"B", "M", "N"};
	check_tensors(DT_BF16, l, DT_BF16, r, DT_F32, c, 3);
}
END_TEST

START_TEST(tensor_batch_inside_rows)
{
	/* acc [M, B, N]: the column operand's panel changes every row */
	const char *l[] = {"B", "M", "K"}, *r[] = {"B", "N", "K"}, *c[] = {"M", "B", "N"};
	check_tensors(DT_F16, l, DT_F16, r, DT_F32, c, 3);
}
END_TEST

START_TEST(tensor_f16_times_bf16)
{
	const char *l[] = {"M", "K"}, *r[] = {"N", "K"}, *c[] = {"M", "N"};
	check_tensors(DT_F16, l, DT_BF16, r, DT_F32, c, 2);
}
END_TEST

START_TEST(tensor_f64_accumulator)
{
	const char *l[] = {"M", "K"}, *r[] = {"N", "K"}, *c[] = {"M", "N"};
	check_tensors(DT_F32, l, DT_F32, r, DT_F64, c, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("interp.mma_fast");
	TCase *tc = tcase_create("kernels");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, f16_rounding);
	tcase_add_test(tc, f16_rounding_acc_n_m);
	tcase_add_test(tc, bf16_rounding);
	tcase_add_test(tc, bf16_subnormal_products);
	tcase_add_test(tc, bf16_products_past_flt_max);
	tcase_add_test(tc, i8_into_i32);
	tcase_add_test(tc, f8_operands);
	suite_add_tcase(s, tc);
	TCase *tt = tcase_create("tensors");
	tcase_add_test(tt, tensor_k_major_f32);
	tcase_add_test(tt, tensor_column_operand_lhs);
	tcase_add_test(tt, tensor_batched_bf16);
	tcase_add_test(tt, tensor_batch_inside_rows);
	tcase_add_test(tt, tensor_f16_times_bf16);
	tcase_add_test(tt, tensor_f64_accumulator);
	suite_add_tcase(s, tt);
	return run_suite(s);
}
