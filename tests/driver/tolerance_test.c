/* tolerance_test.c — the default tolerances of `wavecc run K.json`, derived
 * from the graph (driver/tolerance.c, compile_check_tolerances).
 *
 * The walk: kernels edited from examples/add.json and examples/gemm_global.json
 * (jansson) and the tolerance each buffer gets: plain f32 arithmetic keeps
 * f32's 1e-5; a cast of an input (exact on both sides) changes nothing; a
 * computed value cast to f16 gives f16's, also through a buffer the graph
 * writes and reads back; a narrower cast after it (bf16) wins; a computed
 * value cast to f16 and fed to an mma gives Wave's chained-GEMM tolerance,
 * naming the cast and the mma; a plain f16 GEMM stays at f32's.
 *
 * End to end: Wave's chained GEMM transcription, which fails at f32's 1e-5,
 * passes without flags and says which tolerance it used and why; --atol and
 * --rtol still override (1e-5 fails it); a kernel whose result is wrong by
 * a small amount (its reference graph starts the first mma at 1/64 instead
 * of 0) still fails at the widened tolerance. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../driver/run_graph.h"
#include "../../frontend/frontend.h"
#include "../test.h"

/* ---- the walk ---- */

static json_t *load_json(const char *rel)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", test_root(), rel);
	json_error_t je;
	json_t *j = json_load_file(path, 0, &je);
	ck_assert_msg(j != NULL, "%s: %s", path, je.text);
	return j;
}

static Kernel *kernel_of(json_t *j)
{
	char *text = json_dumps(j, 0);
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_text(text, strlen(text), "edited.json", &d);
	ck_assert_msg(k != NULL, "%s", text);
	free(text);
	json_decref(j);
	return k;
}

/* A node {"name": name, "op": op, then key/value string pairs}. */
static json_t *node(const char *name, const char *op, const char *k1, const char *v1, const char *k2, const char *v2)
{
	json_t *n = json_pack("{s:s, s:s}", "name", name, "op", op);
	if (k1)
		json_object_set_new(n, k1, json_string(v1));
	if (k2)
		json_object_set_new(n, k2, json_string(v2));
	return n;
}

static void set_dtype(json_t *args, size_t i, const char *dt)
{
	json_object_set_new(json_array_get(args, i), "dtype", json_string(dt));
}

/* examples/add.json with a, b and c f32, an f16 buffer d beside them, and
 * the graph the nodes (NULL-terminated) give. */
static Kernel *elementwise(json_t *const *nodes)
{
	json_t *j = load_json("examples/add.json");
	json_t *args = json_object_get(j, "arguments");
	for (size_t i = 0; i < 3; i++)
		set_dtype(args, i, "f32");
	json_t *d = json_deep_copy(json_array_get(args, 2));
	json_object_set_new(d, "name", json_string("d"));
	json_object_set_new(d, "dtype", json_string("f16"));
	json_array_append_new(args, d);
	json_t *g = json_array();
	for (size_t i = 0; nodes[i]; i++)
		json_array_append_new(g, nodes[i]);
	json_object_set_new(j, "graph", g);
	return kernel_of(j);
}

static CheckTolerance tol_of(Kernel *k, const char *buffer)
{
	CheckTolerance t[8];
	ck_assert_uint_le(k->args.len, 8);
	compile_check_tolerances(k, t);
	for (size_t i = 0; i < k->args.len; i++)
		if (strcmp(k->args.data[i]->name, buffer) == 0)
			return t[i];
	ck_abort_msg("no buffer %s", buffer);
	return t[0];
}

static void expect(const CheckTolerance *t, DType level, bool acc, double atol, double rtol, const char *at,
	const char *acc_at)
{
	ck_assert_msg(t->level == level, "level %s, want %s", dtype_name(t->level), dtype_name(level));
	ck_assert_int_eq(t->accumulated, acc);
	ck_assert_msg(t->atol == atol && t->rtol == rtol, "atol %g rtol %g, want %g %g", t->atol, t->rtol, atol, rtol);
	ck_assert_msg(at ? t->at && strcmp(t->at->name, at) == 0 : !t->at, "at %s, want %s", t->at ? t->at->name : "-",
		at ? at : "-");
	ck_assert_msg(acc_at ? t->acc_at && strcmp(t->acc_at->name, acc_at) == 0 : !t->acc_at, "acc_at %s, want %s",
		t->acc_at ? t->acc_at->name : "-", acc_at ? acc_at : "-");
}

#define READ(n, mem) node(n, "read", "memory", mem, NULL, NULL)
#define WRITE(n, reg, mem) node(n, "write", "register", reg, "memory", mem)
#define CAST(n, arg, dt) node(n, "cast", "arg", arg, "dtype", dt)
#define ADD(n, l, r) node(n, "add", "lhs", l, "rhs", r)

START_TEST(f32_arithmetic_keeps_f32)
{
	Kernel *k = elementwise((json_t *[]){READ("x", "a"), READ("y", "b"), ADD("s", "x", "y"), WRITE("w", "s", "c"), NULL});
	CheckTolerance t = tol_of(k, "c");
	expect(&t, DT_F32, false, 1e-5, 1e-5, "s", NULL);
	kernel_free(k);
}
END_TEST

START_TEST(cast_of_an_input_is_exact)
{
	Kernel *k = elementwise(
		(json_t *[]){READ("x", "a"), CAST("h", "x", "f16"), CAST("g", "h", "f32"), WRITE("w", "g", "c"), NULL});
	CheckTolerance t = tol_of(k, "c");
	expect(&t, DT_F32, false, 1e-5, 1e-5, NULL, NULL);
	kernel_free(k);
}
END_TEST

START_TEST(computed_value_cast_to_f16)
{
	Kernel *k = elementwise((json_t *[]){READ("x", "a"), READ("y", "b"), ADD("s", "x", "y"), CAST("h", "s", "f16"),
		CAST("g", "h", "f32"), WRITE("w", "g", "c"), NULL});
	CheckTolerance t = tol_of(k, "c");
	expect(&t, DT_F16, false, 1e-3, 2e-3, "h", NULL);
	kernel_free(k);
}
END_TEST

/* h goes to d, d is read back and widened into c: c still carries h's
 * rounding; d's own dtype is f16 anyway */
START_TEST(through_a_buffer_the_graph_reads_back)
{
	Kernel *k = elementwise((json_t *[]){READ("x", "a"), READ("y", "b"), ADD("s", "x", "y"), CAST("h", "s", "f16"),
		WRITE("wd", "h", "d"), READ("r", "d"), CAST("g", "r", "f32"), WRITE("w", "g", "c"), NULL});
	CheckTolerance t = tol_of(k, "c");
	expect(&t, DT_F16, false, 1e-3, 2e-3, "h", NULL);
	t = tol_of(k, "d");
	expect(&t, DT_F16, false, 1e-3, 2e-3, "h", NULL);
	kernel_free(k);
}
END_TEST

START_TEST(the_narrowest_rounding_wins)
{
	Kernel *k = elementwise((json_t *[]){READ("x", "a"), READ("y", "b"), ADD("s", "x", "y"), CAST("h", "s", "f16"),
		CAST("j", "h", "bf16"), CAST("g", "j", "f32"), WRITE("w", "g", "c"), NULL});
	CheckTolerance t = tol_of(k, "c");
	expect(&t, DT_BF16, false, 1e-2, 1.6e-2, "j", NULL);
	kernel_free(k);
}
END_TEST

/* examples/gemm_global.json with a_reg passed through `chain` (NULL-
 * terminated nodes, the last one's value the mma's lhs) */
static Kernel *gemm(json_t *const *chain)
{
	json_t *j = load_json("examples/gemm_global.json");
	json_t *body = json_object_get(json_array_get(json_object_get(j, "graph"), 1), "body");
	const char *lhs = "a_reg";
	for (size_t i = 0; chain[i]; i++) {
		json_array_insert_new(body, 1 + i, chain[i]);
		lhs = json_string_value(json_object_get(chain[i], "name"));
	}
	json_t *mma = json_array_get(body, json_array_size(body) - 2);
	json_object_set_new(mma, "lhs", json_string(lhs));
	return kernel_of(j);
}

START_TEST(f16_gemm_keeps_f32)
{
	Kernel *k = gemm((json_t *[]){NULL});
	CheckTolerance t = tol_of(k, "c");
	expect(&t, DT_F32, false, 1e-5, 1e-5, "mma", NULL);
	kernel_free(k);
}
END_TEST

START_TEST(computed_f16_operand_summed_by_mma)
{
	Kernel *k = gemm((json_t *[]){CAST("x", "a_reg", "f32"), node("y", "mul", "lhs", "x", "rhs", "x"),
		CAST("z", "y", "f16"), NULL});
	CheckTolerance t = tol_of(k, "c");
	expect(&t, DT_F16, true, 5e-2, 5e-3, "z", "mma");
	kernel_free(k);
}
END_TEST

START_TEST(exact_f16_operand_keeps_f32)
{
	Kernel *k = gemm((json_t *[]){CAST("x", "a_reg", "f32"), CAST("z", "x", "f16"), NULL});
	CheckTolerance t = tol_of(k, "c");
	expect(&t, DT_F32, false, 1e-5, 1e-5, "mma", NULL);
	kernel_free(k);
}
END_TEST

/* ---- end to end ---- */

static const char *const chained[] = {"chained_gemm_16x16x16.json", "chained_gemm_32x32x8.json"};

START_TEST(chained_gemm_passes_without_flags)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	CmdResult r = test_wavecc("run tests/driver/wave/%s --mcpu %s", chained[_i / 2], mcpu);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "with atol 0.05, rtol 0.005; the default after rounding to f16 at 'qk_cast_reg', "
				    "summed by 'acc_out')"),
		"%s", r.out);
	cmd_result_free(&r);
	/* the flags still override: at f32's tolerance the same run fails */
	r = test_wavecc("run tests/driver/wave/%s --mcpu %s --atol 1e-5 --rtol 1e-5", chained[_i / 2], mcpu);
	ck_assert_msg(r.status == 1 && strstr(r.out, "\nFAIL\n") && strstr(r.out, "given by --atol and --rtol"), "%s",
		r.out);
	cmd_result_free(&r);
}
END_TEST

START_TEST(plain_f32_kernel_keeps_1e_5)
{
	CmdResult r = test_wavecc("run examples/gemm_global.json");
	ck_assert_msg(r.status == 0 && strstr(r.out, "with atol 1e-05, rtol 1e-05; the default for f32)"), "%s", r.out);
	cmd_result_free(&r);
	r = test_wavecc("run examples/softmax.json");
	ck_assert_msg(r.status == 0 && strstr(r.out, "with atol 1e-05, rtol 1e-05; the default for f32)"), "%s", r.out);
	cmd_result_free(&r);
}
END_TEST

/* The kernel compiled from the chained GEMM, checked against a reference
 * graph whose first mma starts from 1/64 instead of 0: a wrong result by a
 * little (the intermediate moves by 1/64 before its f16 cast), which the
 * derived (widened) tolerance must still catch. */
START_TEST(a_wrong_result_still_fails)
{
	static RunOptions ro = {.backend = BACKEND_EMU, .seed = 1};
	json_t *j = load_json("tests/driver/wave/chained_gemm_16x16x16.json");
	Kernel *k = kernel_of(json_deep_copy(j));
	json_t *body = json_object_get(json_array_get(json_object_get(j, "graph"), 1), "body");
	json_t *inner = json_array_get(body, 0);
	ck_assert_str_eq(json_string_value(json_object_get(inner, "name")), "inner_acc");
	json_object_set_new(inner, "value", json_real(1.0 / 64));
	Kernel *wrong = kernel_of(j);
	CompileCheck ck = {.path = "chained_gemm.json", .k = k, .bound = wrong, .ro = &ro, .atol = -1, .rtol = -1};
	ck.co.code_object = "kernel.hsaco";
	ck.co.mcpu = "gfx942";
	Diag d;
	diag_init(&d);
	Buf msg = {0};
	ck_assert_int_eq(compile_check_prepare(&ck, &d, &msg), 0);
	ck_assert_msg(compile_check_run(&ck, &d, &msg) == 0, "%s", buf_cstr(&msg));
	ck_assert_uint_eq(ck.compared.len, 1);
	const CheckCompare *c = &ck.compared.data[0];
	ck_assert(c->tol.accumulated && c->atol == 5e-2 && c->rtol == 5e-3);
	ck_assert(!ck.pass && !c->pass);
	ck_assert_uint_gt(c->bad, c->count / 20);
	buf_free(&msg);
	compile_check_free(&ck);
	kernel_free(wrong);
	kernel_free(k);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.tolerance");
	TCase *tw = tcase_create("walk");
	tcase_add_test(tw, f32_arithmetic_keeps_f32);
	tcase_add_test(tw, cast_of_an_input_is_exact);
	tcase_add_test(tw, computed_value_cast_to_f16);
	tcase_add_test(tw, through_a_buffer_the_graph_reads_back);
	tcase_add_test(tw, the_narrowest_rounding_wins);
	tcase_add_test(tw, f16_gemm_keeps_f32);
	tcase_add_test(tw, computed_f16_operand_summed_by_mma);
	tcase_add_test(tw, exact_f16_operand_keeps_f32);
	suite_add_tcase(s, tw);
	TCase *tr = tcase_create("run");
	tcase_set_timeout(tr, 120);
	tcase_add_loop_test(tr, chained_gemm_passes_without_flags, 0, (int)(2 * ARRAY_LEN(chained)));
	tcase_add_test(tr, plain_f32_kernel_keeps_1e_5);
	tcase_add_test(tr, a_wrong_result_still_fails);
	suite_add_tcase(s, tr);
	return run_suite(s);
}
