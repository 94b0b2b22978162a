/* frontend_test.c — the JSON frontend: valid kernels load with the right
 * types and order; every error class gives its located message
 * (FILE:LINE:COL: error: PATH: MESSAGE); `wavecc dump-graph` exits 1 with
 * nothing on stdout for bad input.
 *
 * Error inputs are built from one template (kernel()) so each case shows
 * only what differs; expected positions are computed from the text with
 * pos_of() (the line:col of a marker substring), never hard-coded. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../frontend/frontend.h"
#include <jansson.h>

#include "../../util/json_pos.h"
#include "../test.h"

/* The template: symbols, constraints, arguments, graph (each replaceable). */
static const char *DEF_SYMS = "\"M\": 64, \"N\": 128, \"K\": 32, \"BM\": 16, \"BN\": 64, \"BK\": 16";
static const char *DEF_CONS =
	"{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": 64}},\n"
	"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BM\", \"workgroup_dim\": 1},\n"
	"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BN\", \"workgroup_dim\": 0},\n"
	"  {\"kind\": \"tiling\", \"dim\": \"K\", \"tile\": \"BK\"}";
static const char *DEF_ARGS =
	"{\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"K\"], \"address_space\": \"global\", \"dtype\": \"f16\"},\n"
	"  {\"name\": \"b\", \"type\": \"memory\", \"shape\": [\"N\", \"K\"], \"address_space\": \"global\", \"dtype\": \"f16\"},\n"
	"  {\"name\": \"c\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", \"dtype\": \"f32\"},\n"
	"  {\"name\": \"x\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", \"dtype\": \"f32\"},\n"
	"  {\"name\": \"y\", \"type\": \"memory\", \"shape\": [\"M\", \"K\"], \"address_space\": \"global\", \"dtype\": \"f32\"}";

static char *kernel(const char *syms, const char *cons, const char *args, const char *graph)
{
	Buf b = {0};
	buf_printf(&b,
		"{\"format\": \"wavecc-kernel/1\", \"name\": \"t\",\n"
		" \"symbols\": {%s},\n"
		" \"constraints\": [\n  %s],\n"
		" \"arguments\": [\n  %s],\n"
		" \"graph\": [\n%s\n]}\n",
		syms ? syms : DEF_SYMS, cons ? cons : DEF_CONS, args ? args : DEF_ARGS, graph);
	return b.data;
}

/* Load text; capture messages. Returns the kernel (or NULL). */
typedef struct {
	Kernel *k;
	char *msgs;
	int nerrors;
} Loaded;

static Loaded load(const char *text)
{
	Loaded r = {0};
	size_t len = 0;
	FILE *mem = open_memstream(&r.msgs, &len);
	ck_assert_ptr_nonnull(mem);
	Diag d;
	diag_init(&d);
	d.out = mem;
	r.k = load_kernel_text(text, strlen(text), "t.json", &d);
	fclose(mem);
	r.nerrors = d.nerrors;
	return r;
}

static void loaded_free(Loaded *r)
{
	kernel_free(r->k);
	free(r->msgs);
}

/* "LINE:COL" of the first occurrence of `marker` in text (+ skip bytes). */
static const char *pos_of(const char *text, const char *marker, int skip)
{
	const char *p = strstr(text, marker);
	ck_assert_msg(p != NULL, "marker %s not in input", marker);
	p += skip;
	int line = 1, col = 1;
	for (const char *q = text; q < p; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	static char buf[8][32];
	static int i;
	char *o = buf[i++ % 8];
	snprintf(o, 32, "%d:%d", line, col);
	return o;
}

/* Assert loading fails with exactly one error whose text is
 * "t.json:" + pos + ": error: " + rest. */
static void expect_error(const char *text, const char *pos, const char *rest)
{
	Loaded r = load(text);
	char want[1024];
	snprintf(want, sizeof want, "t.json:%s: error: %s", pos, rest);
	ck_assert_msg(r.k == NULL, "loaded but expected: %s", want);
	ck_assert_msg(strstr(r.msgs, want) != NULL, "expected\n  %s\ngot\n  %s", want, r.msgs);
	ck_assert_msg(r.nerrors == 1, "expected one error, got %d:\n%s", r.nerrors, r.msgs);
	loaded_free(&r);
}

static const char *GEMM_GRAPH =
	"{\"name\": \"w\", \"op\": \"write\", \"register\": \"loop\", \"memory\": \"c\"},\n"
	"{\"name\": \"zero\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0.0},\n"
	"{\"name\": \"loop\", \"op\": \"iterate\", \"axis\": \"K\", \"init_args\": [\"zero\"], \"iter_args\": [\"acc\"],\n"
	" \"body\": [\n"
	"  {\"name\": \"out\", \"op\": \"output\", \"values\": [\"mm\"]},\n"
	"  {\"name\": \"mm\", \"op\": \"mma\", \"lhs\": \"ra\", \"rhs\": \"rb\", \"acc\": \"acc\", \"type\": {\"shape\": [\"M\", \"N\"], \"dtype\": \"f32\"}},\n"
	"  {\"name\": \"ra\", \"op\": \"read\", \"memory\": \"a\", \"elements_per_thread\": 4,\n"
	"   \"index\": {\"M\": \"$WG1*BM + Mod($T0, 16) : 1 : 1\", \"K\": \"$ARGK*BK + 4*floor(Mod($T0, 64)/16) : 4 : 1\"}},\n"
	"  {\"name\": \"rb\", \"op\": \"read\", \"memory\": \"b\", \"elements_per_thread\": 4}]}";

START_TEST(valid_gemm_out_of_order)
{
	char *t = kernel(NULL, NULL, NULL, GEMM_GRAPH);
	Loaded r = load(t);
	ck_assert_msg(r.k != NULL, "errors: %s", r.msgs);
	ck_assert_int_eq(r.nerrors, 0);
	Kernel *k = r.k;
	/* Topological order: zero, loop, w; body: ra, rb, mm, out (last). */
	ck_assert_int_eq((int)k->body->ops.len, 3);
	ck_assert_str_eq(k->body->ops.data[0]->name, "zero");
	ck_assert_str_eq(k->body->ops.data[1]->name, "loop");
	ck_assert_str_eq(k->body->ops.data[2]->name, "w");
	Op *loop = k->body->ops.data[1];
	ck_assert_int_eq(loop->kind, OP_ITERATE);
	Region *b = loop->body;
	ck_assert_int_eq((int)b->ops.len, 4);
	ck_assert_str_eq(b->ops.data[0]->name, "ra");
	ck_assert_str_eq(b->ops.data[1]->name, "rb");
	ck_assert_str_eq(b->ops.data[2]->name, "mm");
	ck_assert_int_eq(b->ops.data[3]->kind, OP_OUTPUT);
	ck_assert_int_eq(b->nparams, 1);
	ck_assert_str_eq(b->params[0]->name, "acc");
	Op *mm = b->ops.data[2];
	ck_assert_ptr_eq(mm->args[2], b->params[0]);
	ck_assert_int_eq(op_result(mm)->dtype, DT_F32);
	ck_assert(mm->has_type);
	Op *ra = b->ops.data[0];
	ck_assert_int_eq(ra->ept, 4);
	ck_assert_int_eq(ra->nindex, 2);
	ck_assert_str_eq(sym_name(ra->index[1].dim), "K");
	int64_t v;
	ck_assert(sym_is_int(ra->index[1].size, &v) && v == 4);
	ck_assert_int_eq(op_result(loop)->dtype, DT_F32);
	ck_assert(shape_eq(op_result(loop)->shape, k->args.data[2]->shape));
	const Constraint *hw = kernel_hardware(k);
	ck_assert_ptr_nonnull(hw);
	ck_assert_int_eq(hw->threads_per_wave, 64);
	ck_assert_int_eq(hw->mma_type, MMA_F32_16x16x16_F16);
	ck_assert_int_eq(op_mma_type(k, mm), MMA_F32_16x16x16_F16);
	loaded_free(&r);
	free(t);
}
END_TEST

START_TEST(valid_symbols_resolve)
{
	char *t = kernel("\"M\": 111, \"N\": 813, \"K\": 32, \"BM\": 1, \"BN\": \"Max(Min(N, 256), 64)\", "
			 "\"BK\": \"BN/16\"",
		NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\"},"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"r\", \"memory\": \"c\"}");
	Loaded r = load(t);
	ck_assert_msg(r.k != NULL, "errors: %s", r.msgs);
	KSymbol *bk = kernel_symbol(r.k, "BK");
	ck_assert_ptr_nonnull(bk);
	int64_t v = 0;
	ck_assert_msg(sym_is_int(bk->resolved, &v) && v == 16, "BK resolved to %s",
		sym_str(r.k->sc, bk->resolved));
	Sym *e = kernel_subs(r.k, sym_parse(r.k->sc, "BN*2 + M", &(SymParseError){0}));
	ck_assert(sym_is_int(e, &v) && v == 623);
	loaded_free(&r);
	free(t);
}
END_TEST

START_TEST(valid_dynamic_alias_mapping)
{
	const char *text =
		"{\"format\": \"wavecc-kernel/1\", \"name\": \"t2\",\n"
		" \"symbols\": {\"N\": 64, \"BM\": 16, \"BN\": 64, \"BK2\": 32},\n"
		" \"dynamic_symbols\": [\"M\", \"K2\"],\n"
		" \"address_spaces\": {\"AS\": \"SHARED_ADDRESS_SPACE\"},\n"
		" \"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"waves_per_block\": [2, 2, 1],\n"
		"   \"mma_type\": \"F32_32x32x8_F16\"},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BM\", \"workgroup_dim\": 0},\n"
		"  {\"kind\": \"wave\", \"dim\": \"M\", \"tile\": \"BM/2\", \"wave_id\": \"floor($T0/64)\"},\n"
		"  {\"kind\": \"symbolic_alias\", \"source\": \"U\", \"target\": \"K2\", \"expr\": \"ceiling(K2/(BK2/2))\"},\n"
		"  {\"kind\": \"assumption\", \"expr\": \"M > 4*BM\"}],\n"
		" \"arguments\": [{\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"AS\", \"dtype\": \"f32\"},\n"
		"  {\"name\": \"o\", \"type\": \"memory\", \"shape\": [\"N\", \"M\"], \"address_space\": \"global\", \"dtype\": \"f32\"},\n"
		"  {\"name\": \"u\", \"type\": \"memory\", \"shape\": [\"U\", \"M\"], \"address_space\": \"global\", \"dtype\": \"f32\"}],\n"
		" \"graph\": [{\"name\": \"r\", \"op\": \"read\", \"memory\": \"a\", \"mapping\": {\"iterators\": [\"i\", \"j\"],\n"
		"   \"inputs\": {\"M\": \"i\", \"N\": \"j\"}, \"outputs\": {\"N\": \"j\", \"M\": \"i\"}}},\n"
		"  {\"name\": \"idx\", \"op\": \"self_index\", \"dim\": \"M\", \"dtype\": \"i32\"},\n"
		"  {\"name\": \"msk\", \"op\": \"apply_expr\", \"register\": \"idx\", \"params\": [\"x\"], \"expr\": \"x < M\"},\n"
		"  {\"name\": \"z\", \"op\": \"register\", \"shape\": [\"N\", \"M\"], \"dtype\": \"f32\", \"value\": -1e6},\n"
		"  {\"name\": \"s\", \"op\": \"select\", \"cond\": \"msk\", \"if_true\": \"r\", \"if_false\": \"z\"},\n"
		"  {\"name\": \"mx\", \"op\": \"max\", \"arg\": \"s\", \"dim\": \"N\", \"block\": true},\n"
		"  {\"name\": \"w\", \"op\": \"write\", \"register\": \"s\", \"memory\": \"o\"},\n"
		"  {\"name\": \"w2\", \"op\": \"write\", \"register\": \"mx\", \"memory\": \"u\"},\n"
		"  {\"name\": \"output\", \"op\": \"output\", \"values\": []}]}\n";
	Loaded r = load(text);
	ck_assert_msg(r.k != NULL, "errors: %s", r.msgs);
	Kernel *k = r.k;
	ck_assert_int_eq((int)k->dyn_syms.len, 2);
	ck_assert_str_eq(sym_name(k->dyn_syms.data[1]), "K2");
	ck_assert_int_eq(k->args.data[0]->space, AS_SHARED);
	ck_assert_str_eq(k->args.data[0]->space_sym, "AS");
	ck_assert_int_eq(kernel_symbol(k, "U")->kind, SYMK_ALIAS);
	Op *rd = k->body->ops.data[0];
	ck_assert_ptr_nonnull(rd->mapping);
	ck_assert_str_eq(sym_name(op_result(rd)->shape.dims[0]), "N");
	Op *msk = k->body->ops.data[2];
	ck_assert_int_eq(op_result(msk)->dtype, DT_I1);
	Op *mx = k->body->ops.data[5];
	ck_assert_int_eq(mx->kind, OP_MAX);
	ck_assert(mx->block);
	ck_assert_int_eq(op_result(mx)->shape.rank, 1);
	ck_assert_str_eq(sym_name(op_result(mx)->shape.dims[0]), "M");
	ck_assert_int_eq((int)k->body->ops.len, 8); /* the top-level output is dropped */
	ck_assert_int_eq(kernel_hardware(k)->waves_per_block[1], 2);
	loaded_free(&r);
}
END_TEST

START_TEST(valid_examples_load)
{
	/* Every kernel in tests/frontend/data/ is valid. */
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "ls '%s'/tests/frontend/data/*.json", test_root());
	CmdResult ls = run_cmd(cmd, NULL);
	int n = 0;
	for (char *line = strtok(ls.out, "\n"); line; line = strtok(NULL, "\n")) {
		Diag d;
		diag_init(&d);
		Kernel *k = load_kernel_file(line, &d);
		ck_assert_msg(k != NULL, "%s does not load", line);
		kernel_free(k);
		n++;
	}
	cmd_result_free(&ls);
	ck_assert_int_ge(n, 2);
}
END_TEST

/* 5,000 symbols, each defined by the next one in input order (the worst
 * order for repeated passes): resolution is one walk in dependency order,
 * so this loads in milliseconds (the pass-based resolver took about a
 * minute; the bound below is loose for a loaded machine). */
START_TEST(long_symbol_chain_resolves_fast)
{
	Buf b = {0};
	buf_puts(&b, "{\"format\": \"wavecc-kernel/1\", \"name\": \"chain\", \"symbols\": {\"N\": \"S4999\"");
	for (int i = 4999; i > 0; i--)
		buf_printf(&b, ", \"S%d\": \"S%d + 1\"", i, i - 1);
	buf_puts(&b, ", \"S0\": 1},\n\"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64}],"
		     " \"arguments\": [], \"graph\": []}");
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	Loaded r = load(buf_cstr(&b));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	KSymbol *n = r.k ? kernel_symbol(r.k, intern("N")) : NULL;
	ck_assert_msg(n && n->resolved && strcmp(sym_str(r.k->sc, n->resolved), "5000") == 0, "%s", r.msgs);
	ck_assert_msg(s < 5.0, "5,000 chained symbols took %.2f s", s);
	loaded_free(&r);
	buf_free(&b);
}
END_TEST

START_TEST(err_json_syntax)
{
	Loaded r = load("{\"format\": \"wavecc-kernel/1\",\n \"name\": }");
	ck_assert_ptr_null(r.k);
	ck_assert_msg(strstr(r.msgs, "t.json:2:") && strstr(r.msgs, "error: invalid JSON"), "%s", r.msgs);
	loaded_free(&r);
	r = load("");
	ck_assert_ptr_null(r.k);
	ck_assert_int_eq(r.nerrors, 1);
	ck_assert_msg(strstr(r.msgs, "t.json:1:1: error: invalid JSON"), "%s", r.msgs);
	loaded_free(&r);
	/* at the end of the input jansson gives no column: the line and column
	 * come from the error's byte position */
	r = load("{\"format\": \"wavecc-kernel/1\",\n  \"name\": ");
	ck_assert_msg(r.k == NULL && strstr(r.msgs, "t.json:2:10: error: invalid JSON"), "%s", r.msgs);
	loaded_free(&r);
	r = load("{\"format\": \"a\", \"format\": \"b\"}");
	ck_assert_msg(r.k == NULL && strstr(r.msgs, "duplicate"), "%s", r.msgs);
	loaded_free(&r);
}
END_TEST

START_TEST(err_document_shape)
{
	expect_error("[1, 2]", "1:1", "(document): expected a kernel object, got an array");
	expect_error("{\"format\": \"wavecc-kernel/9\"}", "1:12",
		"format: unsupported format 'wavecc-kernel/9'");
	const char *t = "{\"format\": \"wavecc-kernel/1\", \"name\": \"t\", \"constraints\": [], "
			"\"arguments\": [], \"graph\": []}";
	expect_error(t, pos_of(t, "[]", 0), "constraints: missing hardware constraint");
}
END_TEST

/* The default arguments plus one more (malloc'd). */
static char *args_plus(const char *extra)
{
	Buf b = {0};
	buf_printf(&b, "%s,\n  %s", DEF_ARGS, extra);
	return b.data;
}

/* A kernel with the default arguments plus one (malloc'd). */
static char *kernel_plus(const char *extra, const char *graph)
{
	char *a = args_plus(extra);
	char *t = kernel(NULL, NULL, a, graph);
	free(a);
	return t;
}

/* A while loop that starts at scalar argument s0 of dtype dt, with extra
 * nodes first in its body (malloc'd). */
static char *start_arg_kernel(const char *dt, const char *extra)
{
	const char *cons = "{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": 64}},\n"
			   "  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BM\", \"workgroup_dim\": 1},\n"
			   "  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BN\", \"workgroup_dim\": 0},\n"
			   "  {\"kind\": \"tiling\", \"dim\": \"I\"}";
	Buf a = {0}, g = {0};
	buf_printf(&a, "%s,\n  {\"name\": \"s0\", \"type\": \"scalar\", \"dtype\": \"%s\"}", DEF_ARGS, dt);
	buf_printf(&g,
		"{\"name\": \"l\", \"op\": \"iterate\", \"axis\": \"I\", \"start\": \"s0\", \"condition\": \"I < 4\", "
		"\"init_args\": [], \"iter_args\": [], \"body\": [\n%s"
		" {\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 1},\n"
		" {\"name\": \"w\", \"op\": \"write\", \"register\": \"z\", \"memory\": \"x\"},\n"
		" {\"name\": \"si\", \"op\": \"self_index\", \"dim\": \"I\", \"dtype\": \"i32\"},\n"
		" {\"name\": \"nx\", \"op\": \"apply_expr\", \"register\": \"si\", \"params\": [\"x\"], \"expr\": \"x + 1\"},\n"
		" {\"name\": \"ss\", \"op\": \"set_symbol\", \"symbol\": \"I\", \"register\": \"nx\"},\n"
		" {\"name\": \"o\", \"op\": \"output\", \"values\": []}]}",
		extra);
	char *t = kernel(NULL, cons, a.data, g.data);
	free(a.data);
	free(g.data);
	return t;
}

/* A loop's start may name an i32 scalar argument (Wave's
 * `iterate(B, start=init_value, ...)`): it becomes a runtime value (a
 * dynamic symbol of its name, no scalar argument left); another dtype, or
 * the argument used as an operand too, is a located error. */
START_TEST(loop_start_scalar_argument)
{
	char *t = start_arg_kernel("i32", "");
	Loaded r = load(t);
	ck_assert_msg(r.k != NULL, "%s", r.msgs);
	const KSymbol *ks = kernel_symbol(r.k, "s0");
	ck_assert_ptr_nonnull(ks);
	ck_assert_int_eq(ks->kind, SYMK_DYNAMIC);
	ck_assert_int_eq((int)r.k->scalar_args.len, 0);
	loaded_free(&r);
	free(t);
	t = start_arg_kernel("f32", "");
	expect_error(t, pos_of(t, "\"start\"", 9),
		"graph[0].start: the start of a loop is a node, an expression or an i32 scalar argument; 's0' is f32[]");
	free(t);
	t = start_arg_kernel("i32", " {\"name\": \"u\", \"op\": \"broadcast\", \"arg\": \"s0\", \"target_shape\": [\"M\"]},\n");
	expect_error(t, pos_of(t, "\"arg\": \"s0\"", 7),
		"graph[0].body[0].arg: 's0' is the i32 scalar argument a loop starts at: a runtime value of the loop's "
		"start only, not an operand (pass the value in another scalar argument)");
	free(t);
}
END_TEST

/* Scalar arguments: rank-0 values of their dtype that operands name like
 * nodes; memory-only fields, a duplicate name and a bad dtype are located. */
START_TEST(scalar_arguments)
{
	char *t = kernel_plus("{\"name\": \"s\", \"type\": \"scalar\", \"dtype\": \"f32\"}",
		"{\"name\": \"bs\", \"op\": \"broadcast\", \"arg\": \"s\", \"target_shape\": [\"M\", \"N\"]},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"bs\", \"memory\": \"x\"}");
	Loaded r = load(t);
	ck_assert_msg(r.k != NULL, "%s", r.msgs);
	ck_assert_int_eq((int)r.k->scalar_args.len, 1);
	Op *s = r.k->scalar_args.data[0];
	ck_assert_int_eq(s->kind, OP_SCALAR);
	ck_assert_int_eq(s->sarg, 1);
	ck_assert_int_eq(op_result(s)->dtype, DT_F32);
	ck_assert_int_eq(op_result(s)->shape.rank, 0);
	ck_assert_ptr_eq(kernel_value(r.k, "bs")->def->args[0], op_result(s));
	ck_assert_int_eq((int)r.k->args.len, 5);
	loaded_free(&r);
	free(t);
	t = kernel_plus("{\"name\": \"s\", \"type\": \"scalar\", \"dtype\": \"f32\", \"shape\": []}", "");
	expect_error(t, pos_of(t, "\"shape\": []", 0), "arguments[5].shape: unknown field 'shape'");
	free(t);
	t = kernel_plus("{\"name\": \"x\", \"type\": \"scalar\", \"dtype\": \"f32\"}", "");
	expect_error(t, pos_of(t, "\"x\", \"type\": \"scalar", 0), "arguments[5].name: duplicate name 'x'");
	free(t);
	t = kernel_plus("{\"name\": \"M\", \"type\": \"scalar\", \"dtype\": \"i32\"}", "");
	expect_error(t, pos_of(t, "\"M\", \"type\": \"scalar", 0), "arguments[5].name: scalar argument 'M' has the name of a symbol");
	free(t);
	t = kernel_plus("{\"name\": \"s\", \"type\": \"scalar\", \"dtype\": \"f33\"}", "");
	expect_error(t, pos_of(t, "\"f33", 0), "arguments[5].dtype: unknown dtype 'f33'");
	free(t);
	t = kernel_plus("{\"name\": \"s\", \"type\": \"tensor\", \"dtype\": \"f32\"}", "");
	expect_error(t, pos_of(t, "\"tensor", 0),
		"arguments[5].type: unknown argument type 'tensor' (expected \"memory\" or \"scalar\")");
	free(t);
}
END_TEST

START_TEST(err_unknown_op)
{
	char *t = kernel(NULL, NULL, NULL, "{\"name\": \"r\", \"op\": \"frobnicate\", \"arg\": \"x\"}");
	expect_error(t, pos_of(t, "\"frobnicate", 0), "graph[0].op: unknown op 'frobnicate' (known: register, scalar, ");
	free(t);
	/* a near miss is named (util/nearest.c) */
	t = kernel(NULL, NULL, NULL, "{\"name\": \"r\", \"op\": \"Exp2\", \"arg\": \"x\"}");
	expect_error(t, pos_of(t, "\"Exp2", 0), "graph[0].op: unknown op 'Exp2' (did you mean 'exp2'? known: ");
	free(t);
}
END_TEST

/* An argument reported for its dtype is not reported again at each use
 * ("undefined value"), and the dtype's near miss is named. */
START_TEST(err_no_cascade)
{
	char *t = kernel(NULL, NULL,
		"{\"name\": \"x\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", "
		"\"dtype\": \"fp32\"},\n"
		"  {\"name\": \"c\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", "
		"\"dtype\": \"f32\"}",
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\"},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"r\", \"memory\": \"c\"}");
	expect_error(t, pos_of(t, "\"fp32", 0), "arguments[0].dtype: unknown dtype 'fp32' (did you mean 'f32'? known: f16, ");
	free(t);
}
END_TEST

START_TEST(err_unknown_field)
{
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\", \"bogus\": 1}");
	expect_error(t, pos_of(t, "\"bogus", 0), "graph[0].bogus: unknown field 'bogus'");
	free(t);
	t = kernel(NULL,
		"{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"warp\": 1}", NULL, "");
	expect_error(t, pos_of(t, "\"warp", 0), "constraints[0].warp: unknown field 'warp'");
	free(t);
}
END_TEST

START_TEST(err_wrong_type)
{
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\", \"elements_per_thread\": [4]}");
	expect_error(t, pos_of(t, "[4]", 0),
		"graph[0].elements_per_thread: expected an integer, got an array");
	free(t);
	/* a symbol-valued elements_per_thread must have a value when loaded */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\", \"elements_per_thread\": \"BM - 20\"}");
	expect_error(t, pos_of(t, "\"BM - 20\"", 0),
		"graph[0].elements_per_thread: elements_per_thread 'BM - 20' must have an integer value in [1, 65536]");
	free(t);
	t = kernel(NULL, NULL, NULL, "{\"name\": \"r\", \"op\": \"exp\", \"arg\": 3}");
	expect_error(t, pos_of(t, "3}", 0), "graph[0].arg: expected a name (string), got an integer");
	free(t);
}
END_TEST

/* Wave's scheduling hints and softsign: their fields are checked; softsign
 * becomes the elementwise ops Wave lowers it to (load_softsign.c). */
START_TEST(hints_and_softsign)
{
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"p\", \"op\": \"set_wave_prio\", \"priority\": 5}");
	expect_error(t, pos_of(t, "5}", 0), "graph[0].priority: ");
	free(t);
	t = kernel(NULL, NULL, NULL, "{\"name\": \"p\", \"op\": \"set_wave_prio\"}");
	expect_error(t, pos_of(t, "{\"name\": \"p\"", 0), "graph[0]: missing field 'priority'");
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"s\", \"op\": \"scheduling_barrier\", \"operations\": [\"mma\", \"dma\"]}");
	expect_error(t, pos_of(t, "\"dma", 0), "graph[0].operations[1]: 'dma' is not one of Wave's scheduling operations");
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"s\", \"op\": \"scheduling_group_barrier\", \"instructions\": {\"mma\": -1}, \"sync_id\": 0}");
	expect_error(t, pos_of(t, "-1", 0), "graph[0].instructions.mma: ");
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"w\", \"op\": \"memory_counter_wait\", \"load\": null, \"ds\": \"x\"}");
	expect_error(t, pos_of(t, "\"x\"}", 0), "graph[0].ds: ");
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\"},\n"
		"{\"name\": \"s\", \"op\": \"softsign\", \"arg\": \"r\", \"apply_scaling\": true}");
	expect_error(t, pos_of(t, "{\"name\": \"s\"", 0), "graph[1]: softsign with apply_scaling needs head_dim");
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\"},\n"
		"{\"name\": \"s\", \"op\": \"softsign\", \"arg\": \"r\", \"logit_cap\": -2}");
	expect_error(t, pos_of(t, "-2}", 0), "graph[1].logit_cap: softsign's logit_cap must be a finite number above 0");
	free(t);
	/* valid: the hints load with no result; softsign is a mul of x by
	 * reciprocal(1 + abs(x * (1 / cap))), cap = 30 / sqrt(128) */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\"},\n"
		"{\"name\": \"p\", \"op\": \"set_wave_prio\", \"priority\": 3},\n"
		"{\"name\": \"w\", \"op\": \"memory_counter_wait_barrier\", \"load\": 3, \"store\": 2},\n"
		"{\"name\": \"s\", \"op\": \"softsign\", \"arg\": \"r\", \"logit_cap\": 30.0, \"apply_scaling\": true, "
		"\"head_dim\": 128},\n"
		"{\"name\": \"o\", \"op\": \"write\", \"register\": \"s\", \"memory\": \"x\"}");
	Loaded r = load(t);
	ck_assert_msg(r.k, "%s", r.msgs);
	Region *b = r.k->body;
	Op *mul = NULL, *prio = NULL, *wait = NULL, *rc = NULL;
	for (size_t i = 0; i < b->ops.len; i++) {
		Op *op = b->ops.data[i];
		if (strcmp(op->name, "s") == 0)
			mul = op;
		if (strcmp(op->name, "p") == 0)
			prio = op;
		if (strcmp(op->name, "w") == 0)
			wait = op;
		if (strcmp(op->name, "s#softsign.rcap") == 0)
			rc = op;
	}
	ck_assert(mul && prio && wait && rc);
	ck_assert_int_eq(prio->hint[0], 3);
	ck_assert_int_eq(prio->nresults, 0);
	ck_assert(wait->hint[0] == 3 && wait->hint[1] == 2 && wait->hint[2] == -1 && wait->hint[3] == -1);
	ck_assert_int_eq(mul->kind, OP_MUL);
	ck_assert_int_eq(mul->args[1]->def->kind, OP_RECIPROCAL);
	ck_assert_int_eq(mul->args[1]->def->args[0]->def->kind, OP_ADD);
	ck_assert(fabs(rc->value - sqrt(128.0) / 30.0) < 1e-12);
	loaded_free(&r);
	free(t);
}
END_TEST

START_TEST(err_missing_field)
{
	char *t = kernel(NULL, NULL, NULL, "{\"name\": \"r\", \"op\": \"cast\", \"arg\": \"q\"},"
					    "{\"name\": \"q\", \"op\": \"read\", \"memory\": \"x\"}");
	expect_error(t, pos_of(t, "{\"name\": \"r\"", 0), "graph[0]: missing field 'dtype'");
	free(t);
}
END_TEST

START_TEST(err_undefined_reference)
{
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"nope\", \"memory\": \"c\"}");
	expect_error(t, pos_of(t, "\"nope", 0), "graph[0].register: undefined value 'nope'");
	free(t);
}
END_TEST

START_TEST(err_shape_mismatch)
{
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"p\", \"op\": \"read\", \"memory\": \"x\"},\n"
		"{\"name\": \"q\", \"op\": \"read\", \"memory\": \"y\"},\n"
		"{\"name\": \"s\", \"op\": \"add\", \"lhs\": \"p\", \"rhs\": \"q\"}");
	expect_error(t, pos_of(t, "\"q\"}", 0),
		"graph[2].rhs: shape mismatch: f32[M, N] and f32[M, K]: neither contains the other's dims");
	free(t);
	/* A write whose register has a dim the memory lacks. */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"q\", \"op\": \"read\", \"memory\": \"y\"},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"q\", \"memory\": \"x\"}");
	expect_error(t, pos_of(t, "\"register\": \"q\"", 12),
		"graph[1].register: shape mismatch: register 'q' f32[M, K] has dims that memory 'x' "
		"f32[M, N] lacks");
	free(t);
	/* mma without a single reduction dim. */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"p\", \"op\": \"read\", \"memory\": \"a\"},\n"
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"K\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"m\", \"op\": \"mma\", \"lhs\": \"p\", \"rhs\": \"p\", \"acc\": \"z\"}");
	expect_error(t, pos_of(t, "{\"name\": \"m\"", 0),
		"graph[2]: shape mismatch: lhs f16[M, K] and rhs f16[M, K] must share exactly one "
		"reduction dim not in acc f32[M, K], found 0");
	free(t);
}
END_TEST

/* mma whose operands share two reduction dims (K and L): rejected by the
 * count, "found 2" (an outside mutant that accepted more than one,
 * tests/mutants/mutants.sh, was stopped only later by a message about
 * the lhs's layout that names the wrong problem) */
START_TEST(err_mma_two_reduction_dims)
{
	char *t = kernel("\"M\": 64, \"N\": 128, \"K\": 32, \"L\": 16, \"BM\": 16, \"BN\": 64",
		"{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": 64}},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BM\", \"workgroup_dim\": 1},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BN\", \"workgroup_dim\": 0}",
		"{\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"L\", \"K\"], \"address_space\": \"global\", "
		"\"dtype\": \"f16\"},\n"
		"  {\"name\": \"b\", \"type\": \"memory\", \"shape\": [\"N\", \"L\", \"K\"], \"address_space\": \"global\", "
		"\"dtype\": \"f16\"},\n"
		"  {\"name\": \"c\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", "
		"\"dtype\": \"f32\"}",
		"{\"name\": \"p\", \"op\": \"read\", \"memory\": \"a\"},\n"
		"{\"name\": \"q\", \"op\": \"read\", \"memory\": \"b\"},\n"
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"m\", \"op\": \"mma\", \"lhs\": \"p\", \"rhs\": \"q\", \"acc\": \"z\"},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"m\", \"memory\": \"c\"}");
	expect_error(t, pos_of(t, "{\"name\": \"m\"", 0),
		"graph[3]: shape mismatch: lhs f16[M, L, K] and rhs f16[N, L, K] must share exactly one reduction dim "
		"not in acc f32[M, N], found 2");
	free(t);
}
END_TEST

START_TEST(err_dtype_mismatch)
{
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"p\", \"op\": \"read\", \"memory\": \"y\"},\n"
		"{\"name\": \"q\", \"op\": \"read\", \"memory\": \"a\"},\n"
		"{\"name\": \"s\", \"op\": \"mul\", \"lhs\": \"p\", \"rhs\": \"q\"}");
	expect_error(t, pos_of(t, "\"q\"}", 0),
		"graph[2].rhs: dtype mismatch: mul: 'p' is f32[M, K], 'q' is f16[M, K]");
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"p\", \"op\": \"read\", \"memory\": \"x\", "
		"\"type\": {\"shape\": [\"M\", \"N\"], \"dtype\": \"f16\"}}");
	expect_error(t, pos_of(t, "{\"shape", 0),
		"graph[0].type: type mismatch: declared f16[M, N], inferred f32[M, N]");
	free(t);
	t = kernel(NULL, NULL, NULL, "{\"name\": \"p\", \"op\": \"scalar\", \"value\": 1, \"dtype\": \"f17\"}");
	expect_error(t, pos_of(t, "\"f17", 0), "graph[0].dtype: unknown dtype 'f17'");
	free(t);
}
END_TEST

START_TEST(err_symbol_without_value)
{
	char *t = kernel(NULL, NULL,
		"{\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"Q\"], \"address_space\": "
		"\"global\", \"dtype\": \"f16\"}",
		"");
	expect_error(t, pos_of(t, "\"Q\"", 0),
		"arguments[0].shape[1]: symbol 'Q' has neither a value nor a constraint defining it");
	free(t);
	t = kernel(NULL,
		"{\"kind\": \"hardware\", \"threads_per_wave\": 64},"
		"{\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"2*BQ\", \"workgroup_dim\": 0}",
		NULL, "");
	expect_error(t, pos_of(t, "\"2*BQ", 0),
		"constraints[1].tile: symbol 'BQ' has neither a value nor a constraint defining it");
	free(t);
}
END_TEST

START_TEST(err_invalid_expression)
{
	char *t = kernel(NULL,
		"{\"kind\": \"hardware\", \"threads_per_wave\": 64},"
		"{\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BM +* 2\", \"workgroup_dim\": 0}",
		NULL, "");
	Loaded r = load(t);
	ck_assert_ptr_null(r.k);
	ck_assert_int_eq(r.nerrors, 1);
	/* Located inside the string, at or after the operator. */
	const char *q = strstr(t, "\"BM +* 2");
	char want[256];
	snprintf(want, sizeof want, "t.json:%s: error: constraints[1].tile: invalid expression 'BM +* 2':",
		pos_of(t, "* 2", 0));
	ck_assert_ptr_nonnull(q);
	ck_assert_msg(strstr(r.msgs, want) != NULL, "expected %s\ngot %s", want, r.msgs);
	loaded_free(&r);
	free(t);
	/* In an index sequence: the column is inside the third part. */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\", \"index\": {\"M\": \"$T0 : 1 : (2\"}}");
	r = load(t);
	ck_assert_ptr_null(r.k);
	ck_assert_msg(strstr(r.msgs, "graph[0].index.M: invalid expression") != NULL, "%s", r.msgs);
	loaded_free(&r);
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\", \"index\": {\"M\": \"$T0 : 1\"}}");
	expect_error(t, pos_of(t, "\"$T0", 0),
		"graph[0].index.M: expected \"start : size : stride\", got '$T0 : 1'");
	free(t);
}
END_TEST

START_TEST(err_iterate_without_tiling)
{
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"iterate\", \"axis\": \"N\", \"init_args\": [\"z\"], \"iter_args\": [\"acc\"],\n"
		" \"body\": [{\"name\": \"o\", \"op\": \"output\", \"values\": [\"acc\"]}]}");
	expect_error(t, pos_of(t, "\"N\", \"init", 0), "graph[1].axis: iterate axis 'N' has no tiling constraint");
	free(t);
}
END_TEST

START_TEST(err_iterate_body)
{
	/* The body yields a value of the wrong type. */
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"iterate\", \"axis\": \"K\", \"init_args\": [\"z\"], \"iter_args\": [\"acc\"],\n"
		" \"body\": [{\"name\": \"h\", \"op\": \"cast\", \"arg\": \"acc\", \"dtype\": \"f16\"},\n"
		"  {\"name\": \"o\", \"op\": \"output\", \"values\": [\"h\"]}]}");
	expect_error(t, pos_of(t, "\"h\"]", 0),
		"graph[1].body[1].values[0]: type mismatch: yields 'h' f16[M, N] for iter arg 'acc' f32[M, N]");
	free(t);
	/* No output. */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"iterate\", \"axis\": \"K\", \"init_args\": [\"z\"], \"iter_args\": [\"acc\"],\n"
		" \"body\": [{\"name\": \"h\", \"op\": \"exp\", \"arg\": \"acc\"}]}");
	expect_error(t, pos_of(t, "[{\"name\": \"h\"", 0),
		"graph[1].body: the body of 'l' must contain exactly one output node (found 0)");
	free(t);
	/* A body value used outside the body; a multi-result loop used directly. */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"iterate\", \"axis\": \"K\", \"init_args\": [\"z\"], \"iter_args\": [\"acc\"],\n"
		" \"body\": [{\"name\": \"h\", \"op\": \"exp\", \"arg\": \"acc\"},\n"
		"  {\"name\": \"o\", \"op\": \"output\", \"values\": [\"h\"]}]},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"h\", \"memory\": \"c\"}");
	expect_error(t, pos_of(t, "\"register\": \"h\"", 12),
		"graph[2].register: 'h' is defined inside the body of 'l' and is not visible here");
	free(t);
	/* An iter arg used after its loop (an outside mutant that swapped the
	 * scope test's two lists, tests/mutants/mutants.sh, let it through) */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"iterate\", \"axis\": \"K\", \"init_args\": [\"z\"], \"iter_args\": [\"acc\"],\n"
		" \"body\": [{\"name\": \"h\", \"op\": \"exp\", \"arg\": \"acc\"},\n"
		"  {\"name\": \"o\", \"op\": \"output\", \"values\": [\"h\"]}]},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"acc\", \"memory\": \"c\"}");
	expect_error(t, pos_of(t, "\"register\": \"acc\"", 12),
		"graph[2].register: 'acc' is an iter arg of 'l' and is not visible here");
	free(t);
	/* A body node with a duplicate name: one message, no follow-up about the
	 * body's output. */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"iterate\", \"axis\": \"K\", \"init_args\": [\"z\"], \"iter_args\": [\"acc\"],\n"
		" \"body\": [{\"name\": \"c\", \"op\": \"output\", \"values\": [\"acc\"]}]}");
	expect_error(t, pos_of(t, "\"c\", \"op", 0), "graph[1].body[0].name: duplicate name 'c'");
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"iterate\", \"axis\": \"K\", \"init_args\": [\"z\", \"z\"], \"iter_args\": [\"p\", \"q\"],\n"
		" \"body\": [{\"name\": \"o\", \"op\": \"output\", \"values\": [\"q\", \"p\"]}]},\n"
		"{\"name\": \"g\", \"op\": \"get_result\", \"value\": \"l\", \"res_idx\": 2},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"l\", \"memory\": \"c\"}");
	Loaded r = load(t);
	ck_assert_int_eq(r.nerrors, 2);
	ck_assert_msg(strstr(r.msgs, "graph[2].res_idx: res_idx 2 is out of range: 'l' has 2 results"), "%s",
		r.msgs);
	ck_assert_msg(strstr(r.msgs, "graph[3].register: 'l' has 2 results; pick one with get_result"),
		"%s", r.msgs);
	loaded_free(&r);
	free(t);
}
END_TEST

START_TEST(err_conditional)
{
	/* The branches disagree in type: the body yields f16, else_return is f32. */
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"m\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"i32\", \"value\": 1},\n"
		"{\"name\": \"l\", \"op\": \"conditional\", \"condition\": \"m\", \"else_return\": [\"z\"], \"iter_args\": [\"e\"],\n"
		" \"body\": [{\"name\": \"h\", \"op\": \"cast\", \"arg\": \"e\", \"dtype\": \"f16\"},\n"
		"  {\"name\": \"o\", \"op\": \"output\", \"values\": [\"h\"]}]}");
	expect_error(t, pos_of(t, "\"h\"]", 0),
		"graph[2].body[1].values[0]: type mismatch: the branches of 'l' disagree: the body yields 'h' f16[M, N], "
		"else_return 'z' is f32[M, N]");
	free(t);
	/* A float condition. */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"conditional\", \"condition\": \"z\",\n"
		" \"body\": [{\"name\": \"w\", \"op\": \"write\", \"register\": \"z\", \"memory\": \"c\"}]}");
	expect_error(t, pos_of(t, "\"z\",\n", 0),
		"graph[1].condition: dtype mismatch: the condition 'z' must be i1 or an integer, got f32[M, N]");
	free(t);
	/* Else values without an output in the body; an expression condition
	 * naming an unknown symbol. */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"conditional\", \"condition\": \"M > 3\", \"else_return\": [\"z\"],\n"
		" \"body\": [{\"name\": \"h\", \"op\": \"exp\", \"arg\": \"z\"}]}");
	expect_error(t, pos_of(t, "[{\"name\": \"h\"", 0),
		"graph[1].body: the body of 'l' must end with an output yielding its 1 value (the else_return's types)");
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"conditional\", \"condition\": \"Q > 3\",\n"
		" \"body\": [{\"name\": \"w\", \"op\": \"write\", \"register\": \"z\", \"memory\": \"c\"}]}");
	expect_error(t, pos_of(t, "\"Q > 3", 0), "graph[1].condition: symbol 'Q' has neither a value nor a constraint");
	free(t);
}
END_TEST

START_TEST(err_set_symbol)
{
	/* The symbol must be dynamic: M's value is an extent. */
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"m\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"i32\", \"value\": 1},\n"
		"{\"name\": \"s\", \"op\": \"set_symbol\", \"symbol\": \"M\", \"register\": \"m\"}");
	expect_error(t, pos_of(t, "\"M\", \"register", 0),
		"graph[1].symbol: set_symbol needs a dynamic symbol ('M' is not one)");
	free(t);
	/* The value must be an integer. */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"s\", \"op\": \"set_symbol\", \"symbol\": \"Q\", \"register\": \"z\"}");
	expect_error(t, pos_of(t, "\"Q\"", 0), "graph[1].symbol: set_symbol needs a dynamic symbol ('Q' is not declared)");
	free(t);
	/* K, dynamic and tiled: set at the top, its extent (and the symbol in
	 * the apply_expr that follows, renamed to the op's uniform symbol
	 * $E_s); inside the
	 * loop over it, an error. */
	const char *dyn_k = "\"M\": 64, \"N\": 128, \"BM\": 16, \"BN\": 64, \"BK\": 16}, \"dynamic_symbols\": [\"K\"], "
			    "\"address_spaces\": {";
	t = kernel(dyn_k, NULL, NULL,
		"{\"name\": \"m\", \"op\": \"register\", \"shape\": [\"M\"], \"dtype\": \"i32\", \"value\": 1},\n"
		"{\"name\": \"s\", \"op\": \"set_symbol\", \"symbol\": \"K\", \"register\": \"m\"},\n"
		"{\"name\": \"e\", \"op\": \"apply_expr\", \"register\": \"m\", \"params\": [\"x\"], \"expr\": \"x < K\"}");
	Loaded r = load(t);
	ck_assert_msg(r.k != NULL, "%s", r.msgs);
	Value *e = kernel_value(r.k, "e");
	ck_assert_str_eq(sym_str(r.k->sc, e->def->expr), "$E_s > x");
	loaded_free(&r);
	free(t);
	t = kernel(dyn_k, NULL, NULL,
		"{\"name\": \"m\", \"op\": \"register\", \"shape\": [\"M\"], \"dtype\": \"i32\", \"value\": 1},\n"
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"l\", \"op\": \"iterate\", \"axis\": \"K\", \"init_args\": [\"z\"], \"iter_args\": [\"acc\"],\n"
		" \"body\": [{\"name\": \"s\", \"op\": \"set_symbol\", \"symbol\": \"K\", \"register\": \"m\"},\n"
		"  {\"name\": \"o\", \"op\": \"output\", \"values\": [\"acc\"]}]}");
	expect_error(t, pos_of(t, "\"K\", \"register", 0),
		"graph[2].body[0].symbol: set_symbol of K, a dim that the constraints distribute, inside 'l': its extent is "
		"set only in the kernel body");
	free(t);
}
END_TEST

START_TEST(err_cumsum)
{
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"s\", \"op\": \"cumsum\", \"arg\": \"z\", \"dim\": \"K\"}");
	expect_error(t, pos_of(t, "\"K\"}", 0), "graph[1].dim: shape mismatch: 'z' f32[M, N] has no dim 'K' to scan");
	free(t);
	/* without dim: the last one, N; the result has the arg's type */
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"z\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"s\", \"op\": \"cumsum\", \"arg\": \"z\", \"type\": {\"shape\": [\"M\", \"N\"], \"dtype\": \"f32\"}}");
	Loaded r = load(t);
	ck_assert_msg(r.k != NULL, "%s", r.msgs);
	Op *op = r.k->body->ops.data[1];
	ck_assert_str_eq(sym_name(op->dim), "N");
	loaded_free(&r);
	free(t);
}
END_TEST

START_TEST(bitcast_and_expression_dims)
{
	/* y is i32[M, K/2]: bitcast to f16 gives f16[M, K]; back to i32 gives
	 * K/2 again; to i8 there is no dim of 4*K/2 */
	const char *args =
		"{\"name\": \"y\", \"type\": \"memory\", \"shape\": [\"M\", \"K/2\"], \"address_space\": \"global\", \"dtype\": \"i32\"},\n"
		"  {\"name\": \"z\", \"type\": \"memory\", \"shape\": [\"M\", \"K\"], \"address_space\": \"global\", \"dtype\": \"f16\"}";
	char *t = kernel(NULL, NULL, args,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"y\"},\n"
		"{\"name\": \"h\", \"op\": \"bitcast\", \"arg\": \"r\", \"dtype\": \"f16\", \"type\": {\"shape\": [\"M\", \"K\"], \"dtype\": \"f16\"}},\n"
		"{\"name\": \"i\", \"op\": \"bitcast\", \"arg\": \"h\", \"dtype\": \"i32\", \"type\": {\"shape\": [\"M\", \"K/2\"], \"dtype\": \"i32\"}},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"h\", \"memory\": \"z\"}");
	Loaded r = load(t);
	ck_assert_msg(r.k != NULL, "%s", r.msgs);
	KSymbol *kh = kernel_symbol(r.k, "K/2");
	ck_assert_ptr_nonnull(kh);
	ck_assert_int_eq(kh->kind, SYMK_ALIAS);
	int64_t v;
	ck_assert(sym_is_int(kh->resolved, &v) && v == 16); /* K = 32 */
	loaded_free(&r);
	free(t);
	t = kernel(NULL, NULL, args,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"y\"},\n"
		"{\"name\": \"h\", \"op\": \"bitcast\", \"arg\": \"r\", \"dtype\": \"i8\"}");
	expect_error(t, pos_of(t, "{\"name\": \"h\"", 0),
		"graph[1]: bitcast of i32[M, K/2] to i8: no dim is 4 times K/2; name it with target_shape");
	free(t);
	t = kernel(NULL, NULL, "{\"name\": \"y\", \"type\": \"memory\", \"shape\": [\"M*N\"], \"address_space\": \"global\", \"dtype\": \"i32\"}",
		"{\"name\": \"r\", \"op\": \"register\", \"shape\": [\"M\"], \"dtype\": \"f32\", \"value\": 0}");
	expect_error(t, pos_of(t, "\"M*N\"", 0),
		"arguments[0].shape[0]: a dim written as an expression must use exactly one dim symbol ('M*N' uses 2)");
	free(t);
}
END_TEST

/* scaled_mma: i8 data and scales bitcast to f4e2m1fn (K/2 -> K) and
 * f8e8m0fnu, the result typed as acc; then each rule's located error. */
static const char *MX_CONS =
	"{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"mma_type\": \"F32_16x16x128_F8F6F4\"},\n"
	"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BM\", \"workgroup_dim\": 0},\n"
	"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BN\", \"workgroup_dim\": 1},\n"
	"  {\"kind\": \"tiling\", \"dim\": \"K\", \"tile\": \"BK\"}";
static const char *MX_ARGS =
	"{\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"K/2\"], \"address_space\": \"global\", \"dtype\": \"i8\"},\n"
	"  {\"name\": \"as\", \"type\": \"memory\", \"shape\": [\"M\", \"K/32\"], \"address_space\": \"global\", \"dtype\": \"i8\"},\n"
	"  {\"name\": \"b\", \"type\": \"memory\", \"shape\": [\"N\", \"K/2\"], \"address_space\": \"global\", \"dtype\": \"i8\"},\n"
	"  {\"name\": \"bs\", \"type\": \"memory\", \"shape\": [\"N\", \"K/32\"], \"address_space\": \"global\", \"dtype\": \"i8\"},\n"
	"  {\"name\": \"c\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", \"dtype\": \"f32\"}";

/* the graph with the scaled_mma node's fields after its operands */
static char *mx_kernel(const char *cons, const char *lhs_dtype, const char *extra)
{
	Buf g = {0};
	buf_printf(&g,
		"{\"name\": \"acc\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"ra\", \"op\": \"read\", \"memory\": \"a\"},\n"
		"{\"name\": \"fa\", \"op\": \"bitcast\", \"arg\": \"ra\", \"dtype\": \"%s\"},\n"
		"{\"name\": \"ras\", \"op\": \"read\", \"memory\": \"as\"},\n"
		"{\"name\": \"sa\", \"op\": \"bitcast\", \"arg\": \"ras\", \"dtype\": \"f8e8m0fnu\"},\n"
		"{\"name\": \"rb\", \"op\": \"read\", \"memory\": \"b\"},\n"
		"{\"name\": \"fb\", \"op\": \"bitcast\", \"arg\": \"rb\", \"dtype\": \"f4e2m1fn\"},\n"
		"{\"name\": \"rbs\", \"op\": \"read\", \"memory\": \"bs\"},\n"
		"{\"name\": \"sb\", \"op\": \"bitcast\", \"arg\": \"rbs\", \"dtype\": \"f8e8m0fnu\"},\n"
		"{\"name\": \"mm\", \"op\": \"scaled_mma\", \"lhs\": \"fa\", \"lhs_scale\": \"sa\", \"rhs\": \"fb\", \"rhs_scale\": "
		"\"sb\", \"acc\": \"acc\"%s},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"mm\", \"memory\": \"c\"}",
		lhs_dtype, extra ? extra : "");
	char *t = kernel("\"M\": 64, \"N\": 64, \"K\": 256, \"BM\": 32, \"BN\": 32, \"BK\": 128", cons ? cons : MX_CONS,
		MX_ARGS, g.data);
	buf_free(&g);
	return t;
}

START_TEST(scaled_mma_types)
{
	char *t = mx_kernel(NULL, "f4e2m1fn", NULL);
	Loaded r = load(t);
	ck_assert_msg(r.k != NULL, "%s", r.msgs);
	Value *fa = kernel_value(r.k, "fa"), *sa = kernel_value(r.k, "sa"), *mm = kernel_value(r.k, "mm");
	ck_assert_int_eq(fa->dtype, DT_F4E2M1FN);
	ck_assert_str_eq(sym_name(fa->shape.dims[1]), "K"); /* i8 [M, K/2] -> f4 [M, K] */
	ck_assert_int_eq(sa->dtype, DT_F8E8M0FNU);
	ck_assert_str_eq(sym_name(sa->shape.dims[1]), "K/32");
	ck_assert_int_eq(mm->dtype, DT_F32);
	ck_assert_int_eq(mm->def->kind, OP_SCALED_MMA);
	ck_assert_int_eq(mm->def->nargs, 5);
	ck_assert_ptr_eq(mm->def->args[1], sa);
	loaded_free(&r);
	free(t);
	/* an mma_type of its own */
	t = mx_kernel(NULL, "f8e5m2", ", \"mma_type\": \"F32_32x32x64_F8F6F4\"");
	/* f8e5m2 from i8 [M, K/2] keeps K/2: the dims no longer match */
	expect_error(t, pos_of(t, "{\"name\": \"mm\"", 0),
		"graph[9]: shape mismatch: lhs f8e5m2[M, K/2] and rhs f4e2m1fn[N, K] must share exactly one reduction "
		"dim not in acc f32[M, N], found 0");
	free(t);
	t = mx_kernel(NULL, "f4e2m1fn", ", \"mma_type\": \"F32_16x16x16_F16\"");
	expect_error(t, pos_of(t, "\"F32_16x16x16_F16\"", 0),
		"graph[9].mma_type: scaled_mma needs a scaled MMA type (Wave's ScaledMMAType: F32_16x16x128_F8F6F4 or "
		"F32_32x32x64_F8F6F4) in its mma_type or the hardware constraint's, not F32_16x16x16_F16");
	free(t);
	t = mx_kernel(NULL, "i8", NULL);
	expect_error(t, pos_of(t, "\"lhs\": \"fa\"", 7),
		"graph[9].lhs: dtype mismatch: scaled_mma's lhs 'fa' is i8[M, K/2]; it takes the OCP MX element types "
		"f8e4m3fn, f8e5m2, f6e2m3fn, f6e3m2fn and f4e2m1fn");
	free(t);
	t = mx_kernel(NULL, "f6e2m3fn", NULL);
	expect_error(t, pos_of(t, "\"f6e2m3fn\"", 0),
		"graph[2].dtype: bitcast of i8[M, K/2] to f6e2m3fn: f6 values have no packed form in wavecc (one per "
		"byte): cast them");
	free(t);
	/* the scale's dtype and dims */
	Buf g = {0};
	char *base = mx_kernel(NULL, "f4e2m1fn", NULL);
	buf_puts(&g, base);
	free(base);
	char *u = strstr(g.data, "\"lhs_scale\": \"sa\"");
	memcpy(u, "\"lhs_scale\": \"ra\"", 17);
	expect_error(g.data, pos_of(g.data, "\"lhs_scale\": \"ra\"", 13),
		"graph[9].lhs_scale: dtype mismatch: scaled_mma's lhs_scale 'ra' is i8[M, K/2], scales are f8e8m0fnu "
		"(bitcast the i8 scales to it)");
	memcpy(u, "\"lhs_scale\": \"sb\"", 17);
	expect_error(g.data, pos_of(g.data, "\"lhs_scale\": \"sb\"", 13),
		"graph[9].lhs_scale: shape mismatch: scaled_mma's lhs_scale 'sb' f8e8m0fnu[N, K/32] must have the dims of "
		"'fa' f4e2m1fn[M, K] with K replaced by K/32 (one e8m0 scale per 32 k)");
	buf_free(&g);
	/* mma takes no scaled type; f4 memories are declared i8 */
	const char *cons16 =
		"{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"mma_type\": \"F32_16x16x128_F8F6F4\"},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BM\", \"workgroup_dim\": 1},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BN\", \"workgroup_dim\": 0},\n"
		"  {\"kind\": \"tiling\", \"dim\": \"K\", \"tile\": \"BK\"}";
	t = kernel(NULL, cons16, NULL,
		"{\"name\": \"acc\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"f32\", \"value\": 0},\n"
		"{\"name\": \"ra\", \"op\": \"read\", \"memory\": \"a\"},\n"
		"{\"name\": \"rb\", \"op\": \"read\", \"memory\": \"b\"},\n"
		"{\"name\": \"mm\", \"op\": \"mma\", \"lhs\": \"ra\", \"rhs\": \"rb\", \"acc\": \"acc\"}");
	expect_error(t, pos_of(t, "{\"name\": \"mm\"", 0),
		"graph[3]: F32_16x16x128_F8F6F4 is a scaled MMA type (Wave's ScaledMMAType): it is scaled_mma's, with e8m0 "
		"scales; mma takes an MMAType");
	free(t);
	t = kernel(NULL, NULL, "{\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"K\"], \"address_space\": \"global\", \"dtype\": \"f4e2m1fn\"}",
		"{\"name\": \"ra\", \"op\": \"read\", \"memory\": \"a\"}");
	expect_error(t, pos_of(t, "\"f4e2m1fn\"", 0),
		"arguments[0].dtype: memory 'a' of f4e2m1fn: declare packed MX data as i8 (f4e2m1fn: [..., K/2]) and "
		"bitcast what is read");
	free(t);
}
END_TEST

START_TEST(err_cycle)
{
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"p\", \"op\": \"exp\", \"arg\": \"q\"},\n"
		"{\"name\": \"q\", \"op\": \"exp\", \"arg\": \"p\"},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"q\", \"memory\": \"c\"}");
	expect_error(t, pos_of(t, "{\"name\": \"p\"", 0),
		"graph[0]: dependency cycle: 'p' -> 'q' -> 'p' (each uses the next)");
	free(t);
	/* Symbols defined in terms of each other. */
	t = kernel("\"M\": 64, \"N\": \"2*K\", \"K\": \"N + 1\", \"BM\": 16, \"BN\": 64, \"BK\": 16", NULL, NULL, "");
	Loaded r = load(t);
	ck_assert_int_eq(r.nerrors, 1);
	ck_assert_msg(strstr(r.msgs, "cycle in symbol definitions: N -> K -> N") ||
			      strstr(r.msgs, "cycle in symbol definitions: K -> N -> K"),
		"%s", r.msgs);
	loaded_free(&r);
	free(t);
}
END_TEST

START_TEST(err_hardware)
{
	char *t = kernel(NULL, "{\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BM\", \"workgroup_dim\": 0}",
		NULL, "");
	expect_error(t, pos_of(t, "[\n  {\"kind", 0), "constraints: missing hardware constraint (kind \"hardware\")");
	free(t);
	t = kernel(NULL,
		"{\"kind\": \"hardware\", \"threads_per_wave\": 64}, {\"kind\": \"hardware\", \"threads_per_wave\": 64}",
		NULL, "");
	expect_error(t, pos_of(t, "{\"kind\": \"hardware\", \"threads_per_wave\": 64}, ", 46),
		"constraints[1]: a second hardware constraint (the first is constraints[0])");
	free(t);
	t = kernel(NULL, "{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"mma_type\": \"F32_8x8\"}", NULL, "");
	expect_error(t, pos_of(t, "\"F32_8x8", 0), "constraints[0].mma_type: unknown mma_type 'F32_8x8'");
	free(t);
}
END_TEST

/* GenericDot MMA types: the object form, its defaults, its errors. */
START_TEST(generic_dot_mma_type)
{
	char *t = kernel(NULL,
		"{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"mma_type\": {\"kind\": \"GenericDot\", \"k_mult\": 4, "
		"\"along_dim\": \"M\"}}",
		NULL, "");
	Loaded r = load(t);
	ck_assert_msg(r.k != NULL, "%s", r.msgs);
	const Constraint *hw = kernel_hardware(r.k);
	ck_assert_int_eq(hw->mma_type, MMA_GENERIC_DOT);
	ck_assert(hw->gdot.k_mult == 4 && hw->gdot.k_vec == 4 && hw->gdot.out_vec == 1 && hw->gdot.along_m);
	int m, n, k;
	mma_shape(hw->mma_type, hw->gdot, 64, &m, &n, &k);
	ck_assert(m == 16 && n == 1 && k == 16);
	loaded_free(&r);
	free(t);
	t = kernel(NULL,
		"{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"mma_type\": {\"kind\": \"GenericDot\", "
		"\"along_dim\": \"K\"}}",
		NULL, "");
	expect_error(t, pos_of(t, "\"K\"}", 0),
		"constraints[0].mma_type.along_dim: along_dim 'K' must be \"M\" or \"N\" (Wave's MMAOperand.M or .N)");
	free(t);
	t = kernel(NULL,
		"{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"mma_type\": {\"kind\": \"Dot\"}}", NULL, "");
	expect_error(t, pos_of(t, "\"Dot\"", 0),
		"constraints[0].mma_type.kind: unknown mma_type kind 'Dot' (an object mma_type is a \"GenericDot\")");
	free(t);
}
END_TEST

/* allocate, scatter_add, topk: the type rules and their errors. */
START_TEST(err_allocate_scatter_topk)
{
	const char *alloc = "{\"name\": \"l\", \"op\": \"allocate\", \"shape\": [\"M\", \"N\"], "
			    "\"distributed_shape\": [\"BM\", \"BN\"], \"dtype\": \"f32\"},\n";
	Buf g = {0};
	buf_printf(&g, "%s{\"name\": \"r\", \"op\": \"read\", \"memory\": \"l\"},\n"
		       "{\"name\": \"e\", \"op\": \"exp\", \"arg\": \"l\"}",
		alloc);
	char *t = kernel(NULL, NULL, NULL, g.data);
	expect_error(t, pos_of(t, "\"arg\": \"l\"", 7), "graph[2].arg: 'l' is an allocation; read it first");
	free(t);
	g.len = 0;
	buf_printf(&g, "%s{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\"},\n"
		       "{\"name\": \"s\", \"op\": \"scatter_add\", \"register_src\": \"r\", \"register_idx\": \"r\", "
		       "\"dim\": 0, \"memory\": \"l\"}",
		alloc);
	t = kernel(NULL, NULL, NULL, g.data);
	expect_error(t, pos_of(t, "\"register_idx\": \"r\"", 16),
		"graph[2].register_idx: scatter_add's register_idx 'r' must have an integer dtype, got f32[M, N]");
	free(t);
	g.len = 0;
	buf_printf(&g, "%s{\"name\": \"i\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], \"dtype\": \"i32\", "
		       "\"value\": 0},\n{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\"},\n"
		       "{\"name\": \"s\", \"op\": \"scatter_add\", \"register_src\": \"r\", \"register_idx\": \"i\", "
		       "\"dim\": 2, \"memory\": \"l\"}",
		alloc);
	t = kernel(NULL, NULL, NULL, g.data);
	expect_error(t, pos_of(t, "2, \"memory", 0), "graph[3].dim:");
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\"},\n"
		"{\"name\": \"t\", \"op\": \"topk\", \"arg\": \"r\", \"k_dim\": \"K\", \"dim\": \"N\"},\n"
		"{\"name\": \"v\", \"op\": \"get_result\", \"value\": \"t\", \"res_idx\": 1, "
		"\"type\": {\"shape\": [\"M\", \"K\"], \"dtype\": \"i32\"}}");
	Loaded r = load(t);
	ck_assert_msg(r.k != NULL, "%s", r.msgs);
	loaded_free(&r);
	free(t);
	t = kernel(NULL, NULL, NULL,
		"{\"name\": \"r\", \"op\": \"read\", \"memory\": \"x\"},\n"
		"{\"name\": \"t\", \"op\": \"topk\", \"arg\": \"r\", \"k_dim\": \"K\", \"dim\": \"K\"}");
	expect_error(t, pos_of(t, "\"K\"}", 0), "graph[1].dim: shape mismatch: 'r' f32[M, N] has no dim 'K' to select along");
	free(t);
	buf_free(&g);
}
END_TEST

START_TEST(err_duplicate_name)
{
	char *t = kernel(NULL, NULL, NULL, "{\"name\": \"x\", \"op\": \"read\", \"memory\": \"a\"}");
	expect_error(t, pos_of(t, "\"x\", \"op", 0), "graph[0].name: duplicate name 'x'");
	free(t);
}
END_TEST

START_TEST(err_many_independent)
{
	/* Independent mistakes are all reported; dependents of a bad node are not. */
	char *t = kernel(NULL, NULL, NULL,
		"{\"name\": \"p\", \"op\": \"exp\", \"arg\": \"nope\"},\n"
		"{\"name\": \"q\", \"op\": \"exp\", \"arg\": \"p\"},\n"
		"{\"name\": \"w\", \"op\": \"write\", \"register\": \"q\", \"memory\": \"c\"},\n"
		"{\"name\": \"v\", \"op\": \"read\", \"memory\": \"x\", \"elements_per_thread\": 0}");
	Loaded r = load(t);
	ck_assert_ptr_null(r.k);
	ck_assert_msg(r.nerrors == 2, "%s", r.msgs);
	ck_assert(strstr(r.msgs, "undefined value 'nope'"));
	ck_assert(strstr(r.msgs, "graph[3].elements_per_thread: 0 is out of range"));
	loaded_free(&r);
	free(t);
}
END_TEST

START_TEST(positions_with_escapes)
{
	/* Escapes and UTF-8 in keys and strings do not shift positions. */
	const char *text = "{\"k\\u00e9y\": [1, {\"a\\\"b\": \"x\\ny\"}],\n  \"z\": [true, null]}";
	Arena a;
	arena_init(&a);
	const JPos *p = jpos_build(&a, text, strlen(text));
	ck_assert_ptr_nonnull(p);
	const JPos *k = jpos_get(p, "k\xc3\xa9y");
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(k->col, 14);
	const JPos *inner = jpos_get(jpos_at(k, 1), "a\"b");
	ck_assert_ptr_nonnull(inner);
	ck_assert_int_eq(inner->col, 27);
	const JPos *z = jpos_at(jpos_get(p, "z"), 1);
	ck_assert_int_eq(z->line, 2);
	ck_assert_int_eq(z->col, 15);
	ck_assert_ptr_null(jpos_build(&a, "{\"a\": ", 6));
	arena_free(&a);
}
END_TEST

START_TEST(cli_dump_graph)
{
	const char *dir = test_tmpdir("frontend");
	char path[1024], cmd[4096];
	snprintf(path, sizeof path, "%s/gemm.json", dir);
	char *t = kernel(NULL, NULL, NULL, GEMM_GRAPH);
	ck_assert_int_eq(write_file_atomic(path, t, strlen(t), 0644), 0);
	free(t);
	snprintf(cmd, sizeof cmd, "'%s' dump-graph '%s'", test_bin(), path);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_str_eq(r.err, "");
	const char *want[] = {
		"kernel t\n",
		"  tiling K tile BK induction_var $ARGK\n",
		"  %a : memory f16[M, K] global\n",
		"  %zero = register {value 0.0} : f32[M, N]\n",
		"  %loop = iterate %zero {axis K} (%acc : f32[M, N]) : f32[M, N] {\n",
		"    %ra = read %a {elements_per_thread 4} : f16[M, K]  index {M: ",
		"    %mm = mma %ra, %rb, %acc : f32[M, N]\n",
		"    output %mm\n  }\n  write %loop, %c\n",
	};
	for (size_t i = 0; i < ARRAY_LEN(want); i++)
		ck_assert_msg(strstr(r.out, want[i]), "missing %s in:\n%s", want[i], r.out);
	cmd_result_free(&r);

	/* Bad input: exit 1, located message, nothing on stdout. */
	snprintf(path, sizeof path, "%s/bad.json", dir);
	t = kernel(NULL, NULL, NULL, "{\"name\": \"r\", \"op\": \"read\", \"memory\": \"zz\"}");
	ck_assert_int_eq(write_file_atomic(path, t, strlen(t), 0644), 0);
	free(t);
	snprintf(cmd, sizeof cmd, "'%s' dump-graph '%s'", test_bin(), path);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.out, "");
	ck_assert_msg(strstr(r.err, "bad.json:") && strstr(r.err, ": error: graph[0].memory: undefined value 'zz'"),
		"%s", r.err);
	cmd_result_free(&r);

	snprintf(cmd, sizeof cmd, "'%s' dump-graph '%s/missing.json'", test_bin(), dir);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.out, "");
	cmd_result_free(&r);
	snprintf(cmd, sizeof cmd, "'%s' dump-graph", test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
}
END_TEST

/* The JSON Schema lists exactly the ops, constraint kinds, MMA types and
 * dtypes of the C tables; and, when Python's jsonschema is installed, it
 * accepts the valid kernels in data/ and rejects an unknown field. */
static void expect_enum(json_t *arr, int n, const char *(*name)(int), const char *what)
{
	ck_assert_msg(json_is_array(arr), "schema: no %s enum", what);
	ck_assert_msg((int)json_array_size(arr) == n, "schema: %zu %s, tables have %d", json_array_size(arr), what, n);
	for (int i = 0; i < n; i++)
		ck_assert_msg(strcmp(json_string_value(json_array_get(arr, (size_t)i)), name(i)) == 0,
			"schema: %s %d is %s, table has %s", what, i,
			json_string_value(json_array_get(arr, (size_t)i)), name(i));
}
static const char *op_nm(int i) { return op_info[i].name; }
static const char *con_nm(int i) { return con_info[i].name; }
static const char *mma_nm(int i) { return mma_info[i].name; }
static const char *dt_nm(int i) { return dtype_name((DType)i); }

START_TEST(schema_matches_tables)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/docs/kernel-format.schema.json", test_root());
	json_error_t je;
	json_t *s = json_load_file(path, 0, &je);
	ck_assert_msg(s != NULL, "%s:%d: %s", path, je.line, je.text);
	json_t *defs = json_object_get(s, "$defs");
	expect_enum(json_object_get(json_object_get(json_object_get(json_object_get(defs, "node"), "properties"), "op"), "enum"),
		OP_COUNT, op_nm, "ops");
	expect_enum(json_object_get(json_object_get(json_object_get(json_object_get(defs, "constraint"), "properties"), "kind"), "enum"),
		CON_COUNT, con_nm, "constraint kinds");
	json_t *hw = json_array_get(json_object_get(json_object_get(defs, "constraint"), "allOf"),
		CON_HARDWARE);
	/* an MMA type is a name of the table or a GenericDot object */
	json_t *mt = json_object_get(json_object_get(json_object_get(hw, "then"), "properties"), "mma_type");
	json_t *names = json_object_get(mt, "enum");
	for (size_t i = 0; !names && i < json_array_size(json_object_get(mt, "anyOf")); i++)
		names = json_object_get(json_array_get(json_object_get(mt, "anyOf"), i), "enum");
	expect_enum(names, MMA_COUNT, mma_nm, "mma types");
	expect_enum(json_object_get(json_object_get(defs, "dtype"), "enum"), DT_COUNT, dt_nm, "dtypes");
	json_decref(s);

	CmdResult r = run_cmd("python3 -c 'import jsonschema' 2>/dev/null", NULL);
	int have = r.status == 0;
	cmd_result_free(&r);
	if (!have)
		return;
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		"cd '%s' && python3 -c \"\n"
		"import json, glob, jsonschema\n"
		"v = jsonschema.Draft202012Validator(json.load(open('docs/kernel-format.schema.json')))\n"
		"n = 0\n"
		"for f in glob.glob('tests/frontend/data/*.json'):\n"
		"    d = json.load(open(f)); v.validate(d); n += 1\n"
		"    d['graph'][0]['bogus'] = 1\n"
		"    assert not v.is_valid(d)\n"
		"print(n)\n\"",
		test_root());
	r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_ge(atoi(r.out), 2);
	cmd_result_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("frontend");
	TCase *tc = tcase_create("valid");
	/* schema_matches_tables runs Python's jsonschema twice: seconds on a
	 * loaded machine, past Check's default 4 s */
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, valid_gemm_out_of_order);
	tcase_add_test(tc, scalar_arguments);
	tcase_add_test(tc, loop_start_scalar_argument);
	tcase_add_test(tc, valid_symbols_resolve);
	tcase_add_test(tc, valid_dynamic_alias_mapping);
	tcase_add_test(tc, valid_examples_load);
	tcase_add_test(tc, positions_with_escapes);
	tcase_add_test(tc, schema_matches_tables);
	tcase_add_test(tc, bitcast_and_expression_dims);
	tcase_add_test(tc, scaled_mma_types);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, err_json_syntax);
	tcase_add_test(tc, long_symbol_chain_resolves_fast);
	tcase_add_test(tc, err_document_shape);
	tcase_add_test(tc, err_unknown_op);
	tcase_add_test(tc, err_no_cascade);
	tcase_add_test(tc, err_unknown_field);
	tcase_add_test(tc, err_wrong_type);
	tcase_add_test(tc, err_missing_field);
	tcase_add_test(tc, err_undefined_reference);
	tcase_add_test(tc, err_shape_mismatch);
	tcase_add_test(tc, err_dtype_mismatch);
	tcase_add_test(tc, err_mma_two_reduction_dims);
	tcase_add_test(tc, err_symbol_without_value);
	tcase_add_test(tc, err_invalid_expression);
	tcase_add_test(tc, err_iterate_without_tiling);
	tcase_add_test(tc, err_iterate_body);
	tcase_add_test(tc, err_conditional);
	tcase_add_test(tc, err_set_symbol);
	tcase_add_test(tc, err_cumsum);
	tcase_add_test(tc, err_cycle);
	tcase_add_test(tc, err_hardware);
	tcase_add_test(tc, generic_dot_mma_type);
	tcase_add_test(tc, err_allocate_scatter_topk);
	tcase_add_test(tc, err_duplicate_name);
	tcase_add_test(tc, err_many_independent);
	tcase_add_test(tc, hints_and_softsign);
	suite_add_tcase(s, tc);
	tc = tcase_create("cli");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, cli_dump_graph);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
