/* compare_test.c — the compare of `wavecc run` (driver/run_graph.c,
 * compile_check_compare): what it catches.
 *
 * compare: crafted got/want buffers and written masks, as the interpreter
 *   leaves them: an element the kernel skipped (still the canary it was
 *   pre-filled with) fails even where the right value is 0 or NaN; an
 *   element the graph leaves alone passes only untouched; NaN matches NaN
 *   only on both sides; a reference that is NaN everywhere it writes fails;
 *   the canary patterns are what the header says.
 * run: the whole compile-run-compare in memory on examples/add.json: it
 *   passes as compiled, and fails naming the rows a launch with half the
 *   grid never wrote; `wavecc run` of a graph that can only give NaN
 *   fails and says why. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../driver/run_graph.h"
#include "../../frontend/frontend.h"
#include "../test.h"

/* ---- compare ---- */

enum { N = 8 };

/* N elements of type t compared (f32's tolerances, integers exact). */
static CheckCompare compare(DType t, const void *got, const void *want, const uint8_t *written, bool canary)
{
	double tol = dtype_is_float(t) ? 1e-5 : 0;
	CheckCompare c = {.name = "out", .dtype = t, .count = N, .atol = tol, .rtol = tol, .graph_writes = true};
	compile_check_compare(&c, got, want, written, canary);
	return c;
}

static const uint8_t ALL[N] = {1, 1, 1, 1, 1, 1, 1, 1};

/* c failed with n elements left at the pre-fill, the first at first, and
 * no other kind of mismatch. */
static void expect_prefill(const CheckCompare *c, uint64_t n, uint64_t first)
{
	ck_assert(!c->pass);
	ck_assert_uint_eq(c->prefill, n);
	ck_assert_uint_eq(c->first_prefill, first);
	ck_assert_uint_eq(c->bad, n);
	ck_assert_uint_eq(c->first_bad, first);
	ck_assert_uint_eq(c->stray, 0);
	ck_assert_uint_eq(c->written, N);
}

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* want: the reference's result i + 0.5 on a canary pre-fill, every element
 * written; got a copy. */
static void results(float *want, float *got)
{
	compile_check_fill_canary(DT_F32, want, N);
	for (int i = 0; i < N; i++)
		want[i] = (float)i + 0.5f;
	memcpy(got, want, sizeof(float) * N);
}

START_TEST(canary_patterns)
{
	float f;
	compile_check_fill_canary(DT_F32, &f, 1);
	ck_assert(isnan(f));
	ck_assert_uint_eq(f32_bits(f), 0x7fe5a5a5u);
	/* a quiet NaN, not the one arithmetic makes */
	ck_assert_uint_ne(f32_bits(f), f32_bits(nanf("")));
	static const DType floats[] = {DT_F16, DT_BF16, DT_F64, DT_F8E4M3FNUZ, DT_F8E5M2FNUZ, DT_F8E4M3FN, DT_F8E5M2};
	for (size_t i = 0; i < ARRAY_LEN(floats); i++) {
		unsigned char b[8];
		compile_check_fill_canary(floats[i], b, 1);
		ck_assert_msg(isnan(dtype_load(floats[i], b, 0)), "%s", dtype_name(floats[i]));
	}
	int32_t i32[2];
	compile_check_fill_canary(DT_I32, i32, 2);
	ck_assert_uint_eq((uint32_t)i32[0], 0xa5a5a5a5u);
	ck_assert_uint_eq((uint32_t)i32[1], 0xa5a5a5a5u);
	uint8_t u8;
	compile_check_fill_canary(DT_U8, &u8, 1);
	ck_assert_uint_eq(u8, 0xa5);
}
END_TEST

START_TEST(correct_result_passes)
{
	float want[N], got[N];
	results(want, got);
	got[3] += 1e-6f; /* within the tolerance */
	CheckCompare c = compare(DT_F32, got, want, ALL, true);
	ck_assert(c.pass);
	ck_assert_uint_eq(c.written, N);
	ck_assert_uint_eq(c.bad, 0);
	ck_assert(c.max_abs > 0 && c.max_abs < 1e-5);
}
END_TEST

/* A kernel that skipped elements leaves them at the pre-fill. */
START_TEST(skipped_elements_fail)
{
	float want[N], got[N];
	results(want, got);
	compile_check_fill_canary(DT_F32, &got[2], 1);
	compile_check_fill_canary(DT_F32, &got[5], 2);
	CheckCompare c = compare(DT_F32, got, want, ALL, true);
	expect_prefill(&c, 3, 2);
	ck_assert(isnan(c.got));
	ck_assert(c.want == 2.5);
	/* the skipped elements are not in the error figures */
	ck_assert(c.max_abs == 0);
}
END_TEST

/* Where the right result is 0 (a zero pre-fill could not tell) or NaN (a
 * NaN pre-fill matched as NaN would), a skipped element still fails. */
START_TEST(skipped_zero_and_nan_fail)
{
	float want[N], got[N];
	results(want, got);
	want[1] = 0;
	want[4] = nanf("");
	memcpy(got, want, sizeof got);
	compile_check_fill_canary(DT_F32, &got[1], 1);
	compile_check_fill_canary(DT_F32, &got[4], 1);
	CheckCompare c = compare(DT_F32, got, want, ALL, true);
	expect_prefill(&c, 2, 1);
	/* ints: 0 right, the canary left */
	int32_t wi[N] = {0}, gi[N] = {0};
	compile_check_fill_canary(DT_I32, &gi[7], 1);
	c = compare(DT_I32, gi, wi, ALL, true);
	expect_prefill(&c, 1, 7);
}
END_TEST

/* The elements a graph does not write stay at the pre-fill on both sides:
 * no failure; the kernel writing one of them is. */
START_TEST(unwritten_elements)
{
	float want[N], got[N];
	compile_check_fill_canary(DT_F32, want, N);
	static const uint8_t even[N] = {1, 0, 1, 0, 1, 0, 1, 0};
	for (int i = 0; i < N; i += 2)
		want[i] = (float)i;
	memcpy(got, want, sizeof got);
	CheckCompare c = compare(DT_F32, got, want, even, true);
	ck_assert(c.pass);
	ck_assert_uint_eq(c.written, N / 2);
	ck_assert_uint_eq(c.bad, 0);

	got[3] = 3; /* a write the graph does not make */
	c = compare(DT_F32, got, want, even, true);
	ck_assert(!c.pass);
	ck_assert_uint_eq(c.stray, 1);
	ck_assert_uint_eq(c.first_stray, 3);
	ck_assert_uint_eq(c.prefill, 0);

	/* another NaN is not the pre-fill either */
	got[3] = nanf("");
	c = compare(DT_F32, got, want, even, true);
	ck_assert_uint_eq(c.stray, 1);

	/* no mask: the reference wrote nothing, so nothing may change (an
	 * input's check) */
	memcpy(got, want, sizeof got);
	c = compare(DT_F32, got, want, NULL, false);
	ck_assert(c.pass);
	ck_assert_uint_eq(c.written, 0);
	got[0] = -0.0f; /* want 0: equal, but not the same bits */
	c = compare(DT_F32, got, want, NULL, false);
	ck_assert(!c.pass);
	ck_assert_uint_eq(c.stray, 1);
}
END_TEST

START_TEST(nan_on_one_side_fails)
{
	float want[N], got[N];
	results(want, got);
	want[2] = nanf(""); /* the reference's NaN, the kernel's number */
	got[6] = nanf("");  /* the other way round */
	CheckCompare c = compare(DT_F32, got, want, ALL, true);
	ck_assert(!c.pass);
	ck_assert_uint_eq(c.bad, 2);
	ck_assert_uint_eq(c.first_bad, 2);
	ck_assert_uint_eq(c.prefill, 0);
	ck_assert(isinf(c.max_abs));

	/* NaN on both sides, where the reference computed it: a match, whatever
	 * the payload */
	results(want, got);
	want[2] = nanf("");
	got[2] = -nanf("");
	c = compare(DT_F32, got, want, ALL, true);
	ck_assert(c.pass);
	ck_assert(!c.all_nan);
}
END_TEST

START_TEST(all_nan_reference_fails)
{
	float want[N], got[N];
	for (int i = 0; i < N; i++)
		want[i] = got[i] = nanf("");
	CheckCompare c = compare(DT_F32, got, want, ALL, true);
	ck_assert(!c.pass);
	ck_assert(c.all_nan);
	ck_assert_uint_eq(c.bad, 0);
	/* NaN only where it writes, the rest left: still all NaN */
	static const uint8_t some[N] = {0, 1, 1, 0, 0, 0, 0, 0};
	compile_check_fill_canary(DT_F32, want, N);
	want[1] = want[2] = nanf("");
	memcpy(got, want, sizeof got);
	c = compare(DT_F32, got, want, some, true);
	ck_assert(c.all_nan);
	ck_assert(!c.pass);
	/* one number is enough */
	want[2] = got[2] = 1;
	c = compare(DT_F32, got, want, some, true);
	ck_assert(c.pass);
}
END_TEST

/* A result that is the canary's bit pattern (possible in 8-bit types, and
 * for the f8 types whose only NaN the canary is) cannot be told from a
 * skipped element: it matches. Without a pre-fill (a buffer the graph also
 * reads) the canary's bits mean nothing. */
START_TEST(canary_as_a_result)
{
	uint8_t want[N] = {1, 2, 3, 4, 5, 6, 7, 8}, got[N];
	compile_check_fill_canary(DT_U8, &want[4], 1);
	memcpy(got, want, sizeof got);
	CheckCompare c = compare(DT_U8, got, want, ALL, true);
	ck_assert(c.pass);

	float fw[N], fg[N];
	results(fw, fg);
	compile_check_fill_canary(DT_F32, &fg[0], 1);
	c = compare(DT_F32, fg, fw, ALL, false);
	ck_assert(!c.pass);
	ck_assert_uint_eq(c.bad, 1);
	ck_assert_uint_eq(c.prefill, 0);
}
END_TEST

/* ---- run ---- */

/* examples/add.json checked in memory on gfx942 with seed 1; grid, if not
 * NULL, replaces the launch's grid text "[2, 64, 1]" (same length) before
 * the run. */
static void check_add(const char *grid, CompileCheck *ck, Kernel **k, Kernel **bound)
{
	static RunOptions ro = {.backend = BACKEND_EMU, .seed = 1};
	char path[1024];
	snprintf(path, sizeof path, "%s/examples/add.json", test_root());
	Diag d;
	diag_init(&d);
	*k = load_kernel_file(path, &d);
	ck_assert_ptr_nonnull(*k);
	*bound = kernel_view(*k);
	*ck = (CompileCheck){.path = "add.json", .k = *k, .bound = *bound, .ro = &ro, .atol = -1, .rtol = -1};
	ck->co.code_object = "kernel.hsaco";
	Buf msg = {0};
	ck_assert_int_eq(compile_check_prepare(ck, &d, &msg), 0);
	if (grid) {
		Buf *lj = &ck->c.launch_json;
		buf_cstr(lj);
		char *at = strstr(lj->data, "\"grid\": [2, 64, 1]");
		ck_assert_msg(at != NULL, "%s", buf_cstr(lj));
		ck_assert_uint_eq(strlen(grid), strlen("[2, 64, 1]"));
		memcpy(at + strlen("\"grid\": "), grid, strlen(grid));
	}
	ck_assert_msg(compile_check_run(ck, &d, &msg) == 0, "%s", buf_cstr(&msg));
	ck_assert_msg(msg.len == 0, "%s", buf_cstr(&msg));
	buf_free(&msg);
	ck_assert_uint_eq(ck->compared.len, 1);
	ck_assert_str_eq(ck->compared.data[0].name, "c");
}

static void release(CompileCheck *ck, Kernel *k, Kernel *bound)
{
	compile_check_free(ck);
	kernel_view_free(bound);
	kernel_free(k);
}

START_TEST(compiled_kernel_passes)
{
	CompileCheck ck;
	Kernel *k, *bound;
	check_add(NULL, &ck, &k, &bound);
	const CheckCompare *c = &ck.compared.data[0];
	ck_assert(ck.pass);
	ck_assert(c->pass);
	ck_assert_uint_eq(c->written, 64 * 300);
	ck_assert_uint_eq(c->bad, 0);
	release(&ck, k, bound);
}
END_TEST

/* Half the grid: rows 32..63 of c are never written. */
START_TEST(skipped_workgroups_fail)
{
	CompileCheck ck;
	Kernel *k, *bound;
	check_add("[2, 32, 1]", &ck, &k, &bound);
	const CheckCompare *c = &ck.compared.data[0];
	ck_assert(!ck.pass);
	ck_assert(!c->pass);
	ck_assert_uint_eq(c->written, 64 * 300);
	ck_assert_uint_eq(c->prefill, 32 * 300);
	ck_assert_uint_eq(c->first_prefill, 32 * 300);
	ck_assert_uint_eq(c->bad, 32 * 300);
	/* the kernel's c holds the canary there, bit for bit */
	const InterpArg *ia;
	const uint16_t *out = compile_check_buffer(&ck, c->name, &ia);
	ck_assert_uint_eq(out[64 * 300 - 1], 0x7ea5);
	release(&ck, k, bound);
}
END_TEST

/* b = (a - a) / (a - a): NaN wherever it writes, on the kernel's side as
 * on the reference's; the run says the test is degenerate. */
START_TEST(all_nan_graph_fails)
{
	static const char *const said[] = {"FAIL b: 19200 elements f16",
		"the reference is NaN at all 19200 elements the graph writes: a degenerate test", "\nFAIL\n"};
	CmdResult r = test_wavecc("run tests/driver/data/all_nan.json");
	ck_assert_msg(r.status == 1, "status %d\n%s%s", r.status, r.out, r.err);
	for (size_t i = 0; i < ARRAY_LEN(said); i++)
		ck_assert_msg(strstr(r.out, said[i]) != NULL, "no '%s' in\n%s", said[i], r.out);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/compare");
	TCase *t = tcase_create("compare");
	tcase_add_test(t, canary_patterns);
	tcase_add_test(t, correct_result_passes);
	tcase_add_test(t, skipped_elements_fail);
	tcase_add_test(t, skipped_zero_and_nan_fail);
	tcase_add_test(t, unwritten_elements);
	tcase_add_test(t, nan_on_one_side_fails);
	tcase_add_test(t, all_nan_reference_fails);
	tcase_add_test(t, canary_as_a_result);
	suite_add_tcase(s, t);
	t = tcase_create("run");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, compiled_kernel_passes);
	tcase_add_test(t, skipped_workgroups_fail);
	tcase_add_test(t, all_nan_graph_fails);
	suite_add_tcase(s, t);
	return run_suite(s);
}
