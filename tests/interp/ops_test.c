/* ops_test.c — the interpreter's less common ops on small inline kernels,
 * each against plain loops: self_index + apply_expr + compare + select (a
 * bounds mask as in Wave's attention template), unary math, max/min
 * reductions with and without init, scalar operands, extract and
 * extract_slice, a gather through mapping_dynamic_vals (out-of-bounds
 * indices read zero), permute of a value written back transposed, and
 * block reductions across the waves of a workgroup, rounding and integer
 * division against C.
 * Tolerances: exact where only selection or copying happens; 1e-6 relative
 * for the f32 math (one rounding per op). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define HEAD(name, syms) \
	"{\"format\": \"wavecc-kernel/1\", \"name\": \"" name "\", \"symbols\": {" syms "},\n"
#define HW_ROWS \
	"\"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": 64}},\n" \
	"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": 1, \"workgroup_dim\": 1},\n" \
	"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": 64, \"workgroup_dim\": 0}],\n"
#define ARG(n, shape, dt) \
	"{\"name\": \"" n "\", \"type\": \"memory\", \"shape\": " shape ", \"address_space\": \"global\", \"dtype\": \"" dt "\"}"

static void open_text(Example *ex, const char *text)
{
	diag_init(&ex->d);
	ex->k = load_kernel_text(text, strlen(text), "inline.json", &ex->d);
	ck_assert_msg(ex->k != NULL, "inline kernel does not load");
	ck_assert_int_eq(interp_init(&ex->in, ex->k, NULL, &ex->d), 0);
}

START_TEST(mask_with_self_index_apply_expr_select)
{
	/* out[m,n] = n < N - 7 ? |x| : 0, over two workgroups along N (the
	 * second one half out of bounds). */
	Example ex;
	open_text(&ex, HEAD("mask", "\"M\": 3, \"N\": 100") HW_ROWS
		"\"arguments\": [" ARG("a", "[\"M\", \"N\"]", "f32") ", " ARG("out", "[\"M\", \"N\"]", "f32") "],\n"
		"\"graph\": [{\"name\": \"x\", \"op\": \"read\", \"memory\": \"a\"},\n"
		" {\"name\": \"col\", \"op\": \"self_index\", \"dim\": \"N\", \"dtype\": \"i32\"},\n"
		" {\"name\": \"keep\", \"op\": \"apply_expr\", \"register\": \"col\", \"params\": [\"c\"], \"expr\": \"c < N - 7\"},\n"
		" {\"name\": \"zero\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		" {\"name\": \"pos\", \"op\": \"gt\", \"lhs\": \"x\", \"rhs\": \"zero\"},\n"
		" {\"name\": \"negx\", \"op\": \"neg\", \"arg\": \"x\"},\n"
		" {\"name\": \"absx\", \"op\": \"select\", \"cond\": \"pos\", \"if_true\": \"x\", \"if_false\": \"negx\"},\n"
		" {\"name\": \"y\", \"op\": \"select\", \"cond\": \"keep\", \"if_true\": \"absx\", \"if_false\": \"zero\"},\n"
		" {\"name\": \"w\", \"op\": \"write\", \"register\": \"y\", \"memory\": \"out\"}]}\n");
	InterpArg *a = ex_arg(&ex, "a"), *o = ex_arg(&ex, "out");
	fill(a, 51, -4, 4, 1.0 / 16);
	ex_run(&ex);
	double ref[300];
	for (int m = 0; m < 3; m++)
		for (int n = 0; n < 100; n++)
			ref[m * 100 + n] = n < 93 ? fabs(el(a, (uint64_t)(m * 100 + n))) : 0;
	expect_close("mask", o, ref, 0, 0);
	ex_close(&ex);
}
END_TEST

/* A thread-dependent scalar and a scalar argument: with N's vector shape
 * 128 over 64 lanes each lane holds two consecutive columns, so column n
 * of workgroup g gets 3*((n - 128g) / 2) + g + k (docs/interpreter.md,
 * "Thread-dependent scalars"). The same value broadcast over M alone (no
 * dim on workgroup dim 0) has no thread per element: a located error. */
START_TEST(thread_scalar_and_scalar_argument)
{
#define HW_T \
	"\"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": 128}},\n" \
	"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": 1, \"workgroup_dim\": 1},\n" \
	"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": 128, \"workgroup_dim\": 0}],\n"
	Example ex;
	open_text(&ex, HEAD("tscalar", "\"M\": 2, \"N\": 200") HW_T
		"\"arguments\": [" ARG("out", "[\"M\", \"N\"]", "i32") ", {\"name\": \"k\", \"type\": \"scalar\", \"dtype\": \"i32\"}],\n"
		"\"graph\": [{\"name\": \"t\", \"op\": \"scalar\", \"value\": \"$T0 * 3 + $WG0\", \"dtype\": \"i32\"},\n"
		" {\"name\": \"tk\", \"op\": \"add\", \"lhs\": \"t\", \"rhs\": \"k\"},\n"
		" {\"name\": \"b\", \"op\": \"broadcast\", \"arg\": \"tk\", \"target_shape\": [\"M\", \"N\"]},\n"
		" {\"name\": \"w\", \"op\": \"write\", \"register\": \"b\", \"memory\": \"out\"}]}\n");
	InterpArg *k = ex_arg(&ex, "k"), *o = ex_arg(&ex, "out");
	ck_assert(k->scalar);
	char err[128];
	ck_assert_int_eq(interp_set_scalar(k, "-5", err, sizeof err), 0);
	ck_assert_int_ne(interp_set_scalar(k, "1.5", err, sizeof err), 0);
	ex_run(&ex);
	double ref[400];
	for (int m = 0; m < 2; m++)
		for (int n = 0; n < 200; n++)
			ref[m * 200 + n] = 3 * ((n % 128) / 2) + n / 128 - 5;
	expect_close("thread scalar", o, ref, 0, 0);
	ex_close(&ex);

	const char *bad = HEAD("tscalar_m", "\"M\": 2, \"N\": 200") HW_T
		"\"arguments\": [" ARG("out", "[\"M\"]", "i32") "],\n"
		"\"graph\": [{\"name\": \"t\", \"op\": \"scalar\", \"value\": \"$T0\", \"dtype\": \"i32\"},\n"
		" {\"name\": \"b\", \"op\": \"broadcast\", \"arg\": \"t\", \"target_shape\": [\"M\"]},\n"
		" {\"name\": \"w\", \"op\": \"write\", \"register\": \"b\", \"memory\": \"out\"}]}\n";
	char *msgs = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&msgs, &len);
	open_text(&ex, bad);
	ex.d.out = mem;
	ck_assert_int_ne(interp_run(&ex.in), 0);
	fclose(mem);
	ck_assert_msg(strstr(msgs, "graph[1]: interp: a value that depends on $T0 is used over dims none of which") != NULL,
		"%s", msgs);
	free(msgs);
	ex_close(&ex);
#undef HW_T
}
END_TEST

START_TEST(unary_math_reductions_and_scalars)
{
	/* out[m,n] = 2*(rsqrt(x) + 1/x) + sqrt(x)*exp2(-x) + log2(x);
	 * span[m] = max(x row, init -5) - min(x row). */
	Example ex;
	open_text(&ex, HEAD("math", "\"M\": 4, \"N\": 64") HW_ROWS
		"\"arguments\": [" ARG("a", "[\"M\", \"N\"]", "f32") ", " ARG("out", "[\"M\", \"N\"]", "f32") ", "
		ARG("span", "[\"M\"]", "f32") "],\n"
		"\"graph\": [{\"name\": \"x\", \"op\": \"read\", \"memory\": \"a\"},\n"
		" {\"name\": \"r\", \"op\": \"rsqrt\", \"arg\": \"x\"},\n"
		" {\"name\": \"rc\", \"op\": \"reciprocal\", \"arg\": \"x\"},\n"
		" {\"name\": \"s1\", \"op\": \"add\", \"lhs\": \"r\", \"rhs\": \"rc\"},\n"
		" {\"name\": \"two\", \"op\": \"scalar\", \"value\": 2.0, \"dtype\": \"f32\"},\n"
		" {\"name\": \"s2\", \"op\": \"mul\", \"lhs\": \"s1\", \"rhs\": \"two\"},\n"
		" {\"name\": \"sq\", \"op\": \"sqrt\", \"arg\": \"x\"},\n"
		" {\"name\": \"nx\", \"op\": \"neg\", \"arg\": \"x\"},\n"
		" {\"name\": \"e\", \"op\": \"exp2\", \"arg\": \"nx\"},\n"
		" {\"name\": \"p\", \"op\": \"mul\", \"lhs\": \"sq\", \"rhs\": \"e\"},\n"
		" {\"name\": \"l\", \"op\": \"log2\", \"arg\": \"x\"},\n"
		" {\"name\": \"s3\", \"op\": \"add\", \"lhs\": \"s2\", \"rhs\": \"p\"},\n"
		" {\"name\": \"s4\", \"op\": \"add\", \"lhs\": \"s3\", \"rhs\": \"l\"},\n"
		" {\"name\": \"w\", \"op\": \"write\", \"register\": \"s4\", \"memory\": \"out\"},\n"
		" {\"name\": \"init\", \"op\": \"register\", \"shape\": [\"M\"], \"dtype\": \"f32\", \"value\": -5},\n"
		" {\"name\": \"mx\", \"op\": \"max\", \"arg\": \"x\", \"init\": \"init\", \"dim\": \"N\"},\n"
		" {\"name\": \"mn\", \"op\": \"min\", \"arg\": \"x\", \"dim\": \"N\"},\n"
		" {\"name\": \"sp\", \"op\": \"sub\", \"lhs\": \"mx\", \"rhs\": \"mn\"},\n"
		" {\"name\": \"w2\", \"op\": \"write\", \"register\": \"sp\", \"memory\": \"span\"}]}\n");
	InterpArg *a = ex_arg(&ex, "a"), *o = ex_arg(&ex, "out"), *sp = ex_arg(&ex, "span");
	fill(a, 52, 0.25, 8, 1.0 / 32);
	ex_run(&ex);
	double ref[256], sref[4];
	for (int m = 0; m < 4; m++) {
		double mx = -5, mn = INFINITY;
		for (int n = 0; n < 64; n++) {
			double x = el(a, (uint64_t)(m * 64 + n));
			ref[m * 64 + n] = 2 * (1 / sqrt(x) + 1 / x) + sqrt(x) * exp2(-x) + log2(x);
			mx = fmax(mx, x);
			mn = fmin(mn, x);
		}
		sref[m] = mx - mn;
	}
	expect_close("math", o, ref, 1e-6, 1e-6);
	expect_close("span", sp, sref, 0, 0);
	ex_close(&ex);
}
END_TEST

START_TEST(extract_and_extract_slice)
{
	/* col3[m] = x[m,3]; out gets x only at n in [2, 6), elsewhere it
	 * keeps its previous contents. */
	Example ex;
	open_text(&ex, HEAD("extract", "\"M\": 5, \"N\": 16")
		"\"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": 16}},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": 1, \"workgroup_dim\": 0}],\n"
		"\"arguments\": [" ARG("a", "[\"M\", \"N\"]", "f32") ", " ARG("out", "[\"M\", \"N\"]", "f32") ", "
		ARG("col3", "[\"M\"]", "f32") "],\n"
		"\"graph\": [{\"name\": \"x\", \"op\": \"read\", \"memory\": \"a\"},\n"
		" {\"name\": \"e\", \"op\": \"extract\", \"register\": \"x\", \"offset\": 3},\n"
		" {\"name\": \"w\", \"op\": \"write\", \"register\": \"e\", \"memory\": \"col3\"},\n"
		" {\"name\": \"s\", \"op\": \"extract_slice\", \"register\": \"x\", \"offset\": [2], \"size\": [4], \"stride\": [1]},\n"
		" {\"name\": \"w2\", \"op\": \"write\", \"register\": \"s\", \"memory\": \"out\"}]}\n");
	InterpArg *a = ex_arg(&ex, "a"), *o = ex_arg(&ex, "out"), *c = ex_arg(&ex, "col3");
	fill(a, 53, -4, 4, 1.0 / 16);
	fill(o, 54, 100, 101, 1);
	ex_run(&ex);
	double ref[80], cref[5];
	for (int m = 0; m < 5; m++) {
		cref[m] = el(a, (uint64_t)(m * 16 + 3));
		for (int n = 0; n < 16; n++)
			ref[m * 16 + n] = n >= 2 && n < 6 ? el(a, (uint64_t)(m * 16 + n)) : 100;
	}
	expect_close("extract", c, cref, 0, 0);
	expect_close("extract_slice", o, ref, 0, 0);
	ex_close(&ex);
}
END_TEST

START_TEST(gather_through_dynamic_values_and_permute)
{
	/* g[m,n] = a[m, idx[m,n]] (0 when idx is out of [0, N)); t = the
	 * gathered tile permuted to [N, M] and written to tr[N, M]. */
	Example ex;
	open_text(&ex, HEAD("gather", "\"M\": 6, \"N\": 40") HW_ROWS
		"\"arguments\": [" ARG("a", "[\"M\", \"N\"]", "f32") ", " ARG("idx", "[\"M\", \"N\"]", "i32") ", "
		ARG("g", "[\"M\", \"N\"]", "f32") ", " ARG("tr", "[\"N\", \"M\"]", "f32") "],\n"
		"\"graph\": [{\"name\": \"ix\", \"op\": \"read\", \"memory\": \"idx\"},\n"
		" {\"name\": \"x\", \"op\": \"read\", \"memory\": \"a\", \"mapping_dynamic_vals\": [\"ix\"], \"mapping\": {\n"
		"   \"iterators\": [\"i\", \"j\"], \"inputs\": {\"M\": \"i\", \"N\": \"d0\"}, \"outputs\": {\"M\": \"i\", \"N\": \"j\"},\n"
		"   \"dynamic_values\": [\"d0\"]}},\n"
		" {\"name\": \"w\", \"op\": \"write\", \"register\": \"x\", \"memory\": \"g\"},\n"
		" {\"name\": \"t\", \"op\": \"permute\", \"arg\": \"x\", \"target_shape\": [\"N\", \"M\"]},\n"
		" {\"name\": \"w2\", \"op\": \"write\", \"register\": \"t\", \"memory\": \"tr\"}]}\n");
	InterpArg *a = ex_arg(&ex, "a"), *ix = ex_arg(&ex, "idx"), *g = ex_arg(&ex, "g"), *tr = ex_arg(&ex, "tr");
	fill(a, 55, -4, 4, 1.0 / 16);
	fill(ix, 56, -3, 45, 1);
	ex_run(&ex);
	double ref[240], tref[240];
	int oob = 0;
	for (int m = 0; m < 6; m++)
		for (int n = 0; n < 40; n++) {
			int64_t j = (int64_t)el(ix, (uint64_t)(m * 40 + n));
			bool in = j >= 0 && j < 40;
			oob += !in;
			ref[m * 40 + n] = in ? el(a, (uint64_t)(m * 40 + j)) : 0;
			tref[n * 6 + m] = ref[m * 40 + n];
		}
	ck_assert_int_gt(oob, 10);
	expect_close("gather", g, ref, 0, 0);
	expect_close("transpose", tr, tref, 0, 0);
	ex_close(&ex);
}
END_TEST

START_TEST(block_reduce_across_waves)
{
	/* Wave's test_block_reduce_sum: N split over 4 waves of one workgroup
	 * (ELEMS_PER_WAVE = 64), c[m] = init + sum_n a*b with block = true, and
	 * mx[m] = max over the whole row; N = 230 leaves the last wave partly
	 * out of bounds (zeros, which also enter the max: inputs are kept
	 * negative-free so the zeros cannot win). Tolerance: f32 sums, 1e-5. */
	Example ex;
	open_text(&ex, HEAD("block", "\"M\": 3, \"N\": 230")
		"\"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": 64}},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": 1, \"workgroup_dim\": 1},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": 256, \"workgroup_dim\": 0},\n"
		"  {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": 64}],\n"
		"\"arguments\": [" ARG("a", "[\"M\", \"N\"]", "f32") ", " ARG("b", "[\"M\", \"N\"]", "f32") ", "
		ARG("c", "[\"M\"]", "f32") ", " ARG("mx", "[\"M\"]", "f32") "],\n"
		"\"graph\": [{\"name\": \"x\", \"op\": \"read\", \"memory\": \"a\"},\n"
		" {\"name\": \"y\", \"op\": \"read\", \"memory\": \"b\"},\n"
		" {\"name\": \"p\", \"op\": \"mul\", \"lhs\": \"x\", \"rhs\": \"y\"},\n"
		" {\"name\": \"init\", \"op\": \"register\", \"shape\": [\"M\"], \"dtype\": \"f32\", \"value\": 0.5},\n"
		" {\"name\": \"s\", \"op\": \"sum\", \"arg\": \"p\", \"init\": \"init\", \"dim\": \"N\", \"block\": true},\n"
		" {\"name\": \"w\", \"op\": \"write\", \"register\": \"s\", \"memory\": \"c\"},\n"
		" {\"name\": \"m\", \"op\": \"max\", \"arg\": \"x\", \"dim\": \"N\", \"block\": true},\n"
		" {\"name\": \"w2\", \"op\": \"write\", \"register\": \"m\", \"memory\": \"mx\"}]}\n");
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b"), *c = ex_arg(&ex, "c"), *mx = ex_arg(&ex, "mx");
	fill(a, 57, 0, 2, 1.0 / 64);
	fill(b, 58, -2, 2, 1.0 / 64);
	ex_run(&ex);
	double ref[3], mref[3];
	for (int m = 0; m < 3; m++) {
		ref[m] = 0.5;
		mref[m] = 0;
		for (int n = 0; n < 230; n++) {
			ref[m] += el(a, (uint64_t)(m * 230 + n)) * el(b, (uint64_t)(m * 230 + n));
			mref[m] = fmax(mref[m], el(a, (uint64_t)(m * 230 + n)));
		}
	}
	expect_close("block sum", c, ref, 1e-5, 1e-5);
	expect_close("block max", mx, mref, 0, 0);
	ex_close(&ex);
}
END_TEST

/* Kernels the frontend accepts but the interpreter cannot run are
 * reported with the location of the constraint or op, never a crash. */
static void expect_interp_error(const char *text, const char *needle)
{
	Example ex;
	open_text(&ex, text);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	ex.in.diag->out = mem;
	ck_assert_int_eq(interp_run(&ex.in), -1);
	fclose(mem);
	ck_assert_msg(strstr(buf, needle) != NULL, "expected '%s' in: %s", needle, buf);
	free(buf);
	ex_close(&ex);
}

/* Rounding and integer division against C: round takes halves away from
 * zero and roundeven to even (x in halves over [-4, 4)); floordiv and mod
 * of i32 round toward negative infinity (Python's // and %, the sign of
 * mod the divisor's), truediv of i32 toward zero, over negative and
 * positive operands. */
START_TEST(rounding_and_integer_division)
{
	Example ex;
	open_text(&ex, HEAD("rdiv", "\"M\": 2, \"N\": 64") HW_ROWS
		"\"arguments\": [" ARG("x", "[\"M\", \"N\"]", "f32") ", " ARG("p", "[\"M\", \"N\"]", "i32") ", "
		ARG("q", "[\"M\", \"N\"]", "i32") ", " ARG("r", "[\"M\", \"N\"]", "f32") ", "
		ARG("re", "[\"M\", \"N\"]", "f32") ", " ARG("fd", "[\"M\", \"N\"]", "i32") ", "
		ARG("md", "[\"M\", \"N\"]", "i32") ", " ARG("td", "[\"M\", \"N\"]", "i32") "],\n"
		"\"graph\": [{\"name\": \"xv\", \"op\": \"read\", \"memory\": \"x\"},\n"
		" {\"name\": \"pv\", \"op\": \"read\", \"memory\": \"p\"},\n"
		" {\"name\": \"qv\", \"op\": \"read\", \"memory\": \"q\"},\n"
		" {\"name\": \"a\", \"op\": \"round\", \"arg\": \"xv\"},\n"
		" {\"name\": \"b\", \"op\": \"roundeven\", \"arg\": \"xv\"},\n"
		" {\"name\": \"c\", \"op\": \"floordiv\", \"lhs\": \"pv\", \"rhs\": \"qv\"},\n"
		" {\"name\": \"d\", \"op\": \"mod\", \"lhs\": \"pv\", \"rhs\": \"qv\"},\n"
		" {\"name\": \"e\", \"op\": \"truediv\", \"lhs\": \"pv\", \"rhs\": \"qv\"},\n"
		" {\"name\": \"w0\", \"op\": \"write\", \"register\": \"a\", \"memory\": \"r\"},\n"
		" {\"name\": \"w1\", \"op\": \"write\", \"register\": \"b\", \"memory\": \"re\"},\n"
		" {\"name\": \"w2\", \"op\": \"write\", \"register\": \"c\", \"memory\": \"fd\"},\n"
		" {\"name\": \"w3\", \"op\": \"write\", \"register\": \"d\", \"memory\": \"md\"},\n"
		" {\"name\": \"w4\", \"op\": \"write\", \"register\": \"e\", \"memory\": \"td\"}]}\n");
	InterpArg *x = ex_arg(&ex, "x"), *p = ex_arg(&ex, "p"), *q = ex_arg(&ex, "q");
	fill(x, 5, -4, 4, 0.5);
	fill(p, 6, -20, 20, 1);
	for (uint64_t i = 0; i < q->count; i++) { /* nonzero divisors of both signs */
		int v = (int)(i % 14) - 7;
		dtype_store(q->dtype, q->data, i, v >= 0 ? v + 1 : v);
	}
	ex_run(&ex);
	double rr[128], rre[128], rfd[128], rmd[128], rtd[128];
	int halves = 0, negq = 0;
	for (int i = 0; i < 128; i++) {
		double xv = el(x, (uint64_t)i);
		int pv = (int)el(p, (uint64_t)i), qv = (int)el(q, (uint64_t)i);
		rr[i] = xv < 0 ? -floor(-xv + 0.5) : floor(xv + 0.5);
		double fl = floor(xv), fr = xv - fl;
		rre[i] = fr < 0.5 ? fl : fr > 0.5 ? fl + 1 : (fmod(fl, 2) == 0 ? fl : fl + 1);
		int t = pv / qv;
		rfd[i] = (pv % qv != 0 && (pv < 0) != (qv < 0)) ? t - 1 : t;
		rmd[i] = pv - qv * rfd[i];
		rtd[i] = t;
		halves += fr == 0.5;
		negq += qv < 0 && pv % qv != 0;
	}
	ck_assert_int_gt(halves, 10); /* the ties are there */
	ck_assert_int_gt(negq, 10);   /* and inexact quotients of both signs */
	expect_close("round", ex_arg(&ex, "r"), rr, 0, 0);
	expect_close("roundeven", ex_arg(&ex, "re"), rre, 0, 0);
	expect_close("floordiv", ex_arg(&ex, "fd"), rfd, 0, 0);
	expect_close("mod", ex_arg(&ex, "md"), rmd, 0, 0);
	expect_close("truediv", ex_arg(&ex, "td"), rtd, 0, 0);
	ex_close(&ex);
}
END_TEST

START_TEST(bad_kernels_are_reported)
{
	const char *args = "\"arguments\": [" ARG("a", "[\"M\", \"N\"]", "f32") "],\n";
	const char *graph = "\"graph\": [{\"name\": \"x\", \"op\": \"read\", \"memory\": \"a\"}]}\n";
	char text[4096];
	snprintf(text, sizeof text, "%s%s%s%s", HEAD("zero_tile", "\"M\": 3, \"N\": 100"),
		"\"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": 0, \"workgroup_dim\": 0}],\n",
		args, graph);
	expect_interp_error(text, "inline.json:3:");
	snprintf(text, sizeof text, "%s%s%s%s", HEAD("neg_wave", "\"M\": 3, \"N\": 100"),
		"\"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": 64, \"workgroup_dim\": 0},\n"
		"  {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": \"-2\"}],\n",
		args, graph);
	expect_interp_error(text, "tile of N is -2");
	/* A register over a huge unconstrained dim. */
	snprintf(text, sizeof text, "%s%s%s%s", HEAD("huge", "\"M\": 3, \"N\": 100, \"Q\": 4000000000"),
		"\"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64}],\n", args,
		"\"graph\": [{\"name\": \"r\", \"op\": \"register\", \"shape\": [\"Q\"], \"dtype\": \"f32\", \"value\": 1}]}\n");
	expect_interp_error(text, "more than");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("interp.ops");
	TCase *tc = tcase_create("ops");
	tcase_add_test(tc, mask_with_self_index_apply_expr_select);
	tcase_add_test(tc, thread_scalar_and_scalar_argument);
	tcase_add_test(tc, unary_math_reductions_and_scalars);
	tcase_add_test(tc, extract_and_extract_slice);
	tcase_add_test(tc, gather_through_dynamic_values_and_permute);
	tcase_add_test(tc, block_reduce_across_waves);
	tcase_add_test(tc, rounding_and_integer_division);
	tcase_add_test(tc, bad_kernels_are_reported);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
