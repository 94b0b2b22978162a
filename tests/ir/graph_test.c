/* graph_test.c — the graph IR on its own: the tables built from
 * graph_ops.h, the builders, lookups and kernel_subs, and the printer on a
 * kernel built by hand (no frontend involved). */
#include <string.h>

#include "../../ir/graph.h"
#include "../test.h"

START_TEST(tables_round_trip)
{
	/* Every op, constraint kind, MMA type and address space is found by its
	 * own name, and unknown names are rejected. */
	for (int i = 0; i < OP_COUNT; i++) {
		ck_assert_int_eq(op_from_name(op_info[i].name), i);
		ck_assert_ptr_nonnull(op_class_name[op_info[i].cls]);
	}
	for (int i = 0; i < CON_COUNT; i++)
		ck_assert_int_eq(con_from_name(con_info[i].name), i);
	for (int i = 0; i < MMA_COUNT; i++) {
		ck_assert_int_eq(mma_from_name(mma_info[i].name), i);
		/* a GenericDot's shape is its parameters' (Wave's get_shape) */
		int m, n, k;
		mma_shape((MmaType)i, GENERIC_DOT_DEFAULT, 64, &m, &n, &k);
		ck_assert_int_gt(m * n * k, 0);
	}
	ck_assert_int_eq(op_from_name("reduction"), OP_COUNT);
	ck_assert_int_eq(mma_from_name("F32_16x16x16"), MMA_NONE);
	ck_assert_int_eq(addr_space_from_name("shared"), AS_SHARED);
	ck_assert_int_eq(addr_space_from_name("GLOBAL_ADDRESS_SPACE"), AS_GLOBAL);
	ck_assert_int_eq(addr_space_from_name("lds"), AS_COUNT);
	/* Classes are contiguous: once a class ends it never comes back. */
	for (int i = 1; i < OP_COUNT; i++)
		for (int j = 0; j < i - 1; j++)
			ck_assert(op_info[j].cls != op_info[i].cls || op_info[i - 1].cls == op_info[i].cls);
	ck_assert(op_is_binary(OP_MAXIMUM) && !op_is_binary(OP_MAX) && op_is_reduce(OP_MAX));
	ck_assert(op_is_compare(OP_GE) && op_is_unary(OP_EXP2));
	const MmaInfo *m = &mma_info[MMA_F32_32x32x8_F16];
	ck_assert(m->m == 32 && m->n == 32 && m->k == 8 && m->in == DT_F16 && m->acc == DT_F32);
	ck_assert(!mma_info[MMA_F32_16x16x32_K8_F16].native);
	int gm, gn, gk; /* GenericDot(k_mult=4, along_dim=M): 16 x 1 x 16 */
	mma_shape(MMA_GENERIC_DOT, (GenericDot){1, 4, 4, true}, 64, &gm, &gn, &gk);
	ck_assert(gm == 16 && gn == 1 && gk == 16);
}
END_TEST

START_TEST(field_lists)
{
	ck_assert(graph_field_in_list("lhs rhs acc", "rhs"));
	ck_assert(graph_field_in_list("lhs rhs acc", "acc"));
	ck_assert(!graph_field_in_list("lhs rhs acc", "rh"));
	ck_assert(!graph_field_in_list("lhs rhs acc", "lhs rhs"));
	ck_assert(!graph_field_in_list("", "x"));
	ck_assert(!graph_field_in_list("a b", ""));
	ck_assert(graph_field_in_list(op_info[OP_WRITE].operands, "memory"));
	ck_assert(graph_field_in_list(op_info[OP_ITERATE].attrs, "iter_args"));
}
END_TEST

/* A hand-built kernel: c[M, N] = sum over K-tiles of exp(a) + 1, via an
 * iterate, with two symbols, a tiling and a hardware constraint. */
static Kernel *build_kernel(void)
{
	Kernel *k = kernel_new("hand");
	KSymbol *s = kernel_add_symbol(k, "M", SYMK_VALUE);
	s->value = s->resolved = sym_int(k->sc, 64);
	s = kernel_add_symbol(k, "BM", SYMK_VALUE);
	s->value = sym_div(k->sc, kernel_sym(k, "M"), sym_int(k->sc, 4));
	s->resolved = sym_int(k->sc, 16);
	kernel_add_symbol(k, "N", SYMK_DYNAMIC);
	Constraint *c = kernel_add_constraint(k, CON_TILING);
	c->dim = kernel_sym(k, "N");
	c->tile = kernel_sym(k, "BM");
	c->induction_var = kernel_sym(k, "$ARGN");
	c = kernel_add_constraint(k, CON_HARDWARE);
	c->threads_per_wave = 64;

	Shape mn = shape_new(k, 2);
	mn.dims[0] = kernel_sym(k, "M");
	mn.dims[1] = kernel_sym(k, "N");
	Shape m = shape_new(k, 1);
	m.dims[0] = kernel_sym(k, "M");
	Value *a = kernel_add_memory(k, "a", mn, DT_F32, AS_GLOBAL);
	Value *out = kernel_add_memory(k, "o", m, DT_F32, AS_SHARED);

	Op *z = op_new(k, k->body, OP_REGISTER, "z", 0, 1);
	z->dtype = DT_F32;
	z->shape = m;
	z->value = 1.5;
	op_result(z)->dtype = DT_F32;
	op_result(z)->shape = m;

	Op *loop = op_new(k, k->body, OP_ITERATE, "loop", 1, 1);
	loop->args[0] = op_result(z);
	loop->ninit = 1;
	loop->dim = kernel_sym(k, "N");
	loop->body = region_new(k, loop, k->body);
	Value *acc = region_add_param(k, loop->body, "acc", DT_F32, m);
	Op *rd = op_new(k, loop->body, OP_READ, "r", 1, 1);
	rd->args[0] = a;
	rd->ept = 4;
	op_result(rd)->dtype = DT_F32;
	op_result(rd)->shape = mn;
	Op *sm = op_new(k, loop->body, OP_SUM, "s", 2, 1);
	sm->args[0] = op_result(rd);
	sm->args[1] = acc;
	sm->has_init = true;
	sm->dim = kernel_sym(k, "N");
	op_result(sm)->dtype = DT_F32;
	op_result(sm)->shape = m;
	Op *y = op_new(k, loop->body, OP_OUTPUT, "y", 1, 0);
	y->args[0] = op_result(sm);
	op_result(loop)->dtype = DT_F32;
	op_result(loop)->shape = m;

	Op *w = op_new(k, k->body, OP_WRITE, "w", 2, 0);
	w->args[0] = op_result(loop);
	w->args[1] = out;
	w->nindex = 1;
	w->index = ARENA_NEW(&k->arena, IndexSeq);
	w->index->dim = kernel_sym(k, "M");
	w->index->start = sym_mul(k->sc, kernel_sym(k, "$WG0"), kernel_sym(k, "BM"));
	w->index->size = sym_int(k->sc, 1);
	w->index->stride = sym_int(k->sc, 1);
	return k;
}

START_TEST(builders_and_queries)
{
	Kernel *k = build_kernel();
	ck_assert_int_eq(k->nvalues, 7); /* a, o, z, loop, acc, r, s (w, y have none) */
	ck_assert_int_eq(k->nops, 6);
	ck_assert_ptr_eq(kernel_value(k, "acc")->loop, k->body->ops.data[1]);
	ck_assert_int_eq(kernel_value(k, "acc")->kind, VAL_ITER_ARG);
	ck_assert_int_eq(kernel_value(k, "o")->arg_idx, 1);
	ck_assert_ptr_null(kernel_value(k, "nope"));
	ck_assert_int_eq(kernel_symbol(k, "N")->dyn_idx, 0);
	ck_assert_ptr_eq(k->dyn_syms.data[0], kernel_sym(k, "N"));
	ck_assert_ptr_nonnull(kernel_constraint(k, CON_TILING, kernel_sym(k, "N")));
	ck_assert_ptr_null(kernel_constraint(k, CON_TILING, kernel_sym(k, "M")));
	ck_assert_int_eq(kernel_hardware(k)->threads_per_wave, 64);
	ck_assert_int_eq(kernel_hardware(k)->max_bits_per_load, 128);
	/* Ops without an mma_type use the hardware constraint's. */
	Op fake = {0};
	fake.mma_type = MMA_NONE;
	ck_assert_int_eq(op_mma_type(k, &fake), MMA_F32_16x16x16_F16);
	fake.mma_type = MMA_F32_32x32x8_F16;
	ck_assert_int_eq(op_mma_type(k, &fake), MMA_F32_32x32x8_F16);
	/* kernel_subs replaces value symbols, leaves dynamic and hardware ones. */
	SymParseError pe;
	Sym *e = kernel_subs(k, sym_parse(k->sc, "BM*$WG0 + M + N", &pe));
	ck_assert_str_eq(sym_str(k->sc, e), sym_str(k->sc, sym_parse(k->sc, "16*$WG0 + N + 64", &pe)));
	Op *sm = k->body->ops.data[1]->body->ops.data[1];
	ck_assert_int_eq(op_reduce_nsrc(sm), 1);
	ck_assert_ptr_eq(op_reduce_init(sm), kernel_value(k, "acc"));
	Shape s = kernel_value(k, "a")->shape;
	ck_assert_int_eq(shape_find(s, kernel_sym(k, "N")), 1);
	ck_assert_int_eq(shape_find(s, kernel_sym(k, "BM")), -1);
	ck_assert(shape_eq(s, s) && !shape_eq(s, kernel_value(k, "o")->shape));
	kernel_free(k);
}
END_TEST

START_TEST(printer)
{
	Kernel *k = build_kernel();
	Buf b = {0};
	graph_print(&b, k);
	/* The index start prints in the engine's canonical order. */
	Op *w = vec_last(&k->body->ops);
	char want[2048];
	snprintf(want, sizeof want,
		"kernel hand\n"
		"symbols\n"
		"  M = 64\n"
		"  BM = M/4 = 16\n"
		"  N dynamic (argument 0)\n"
		"constraints\n"
		"  tiling N tile BM induction_var $ARGN\n"
		"  hardware threads_per_wave 64 mma_type F32_16x16x16_F16 max_bits_per_load 128\n"
		"arguments\n"
		"  %%a : memory f32[M, N] global\n"
		"  %%o : memory f32[M] shared\n"
		"  N : i32 dynamic symbol\n"
		"graph\n"
		"  %%z = register {value 1.5} : f32[M]\n"
		"  %%loop = iterate %%z {axis N} (%%acc : f32[M]) : f32[M] {\n"
		"    %%r = read %%a {elements_per_thread 4} : f32[M, N]\n"
		"    %%s = sum %%r {dim N, init %%acc} : f32[M]\n"
		"    output %%s\n"
		"  }\n"
		"  write %%loop, %%o  index {M: %s : 1 : 1}\n",
		sym_str(k->sc, w->index->start));
	ck_assert_msg(strcmp(buf_cstr(&b), want) == 0, "got:\n%s", buf_cstr(&b));
	/* Deterministic: printing again gives the same text. */
	Buf b2 = {0};
	graph_print(&b2, k);
	ck_assert_str_eq(buf_cstr(&b), buf_cstr(&b2));
	buf_free(&b);
	buf_free(&b2);
	kernel_free(k);
}
END_TEST

/* A split loop's tail (op_tail_new, op_tail_attach, op_tail_detach): a
 * copy of the iterate with new ids and the same names, its init the
 * loop's result, put after the loop with the later uses moved to its
 * result, and taken out again. */
START_TEST(split_tail)
{
	Kernel *k = build_kernel();
	Kernel *v = kernel_view(k);
	bool keep[16];
	memset(keep, 1, sizeof keep);
	kernel_view_prune(v, keep, keep);
	Op *loop = v->body->ops.data[1], *w = v->body->ops.data[2];
	ck_assert_int_eq(loop->kind, OP_ITERATE);
	ck_assert_ptr_eq(w->args[0], loop->results[0]);
	Op *t = op_tail_new(v, loop);
	ck_assert_int_eq(v->nops, 10); /* the iterate, its read, sum and output */
	ck_assert_int_eq(v->nvalues, 11); /* its result, acc, r, s */
	ck_assert_int_ge(t->id, 6);
	ck_assert_str_eq(t->name, loop->name);
	ck_assert_ptr_eq(t->args[0], loop->results[0]);
	Op *r = t->body->ops.data[0], *sm = t->body->ops.data[1];
	ck_assert_ptr_ne(r, loop->body->ops.data[0]);
	ck_assert_str_eq(r->name, "r");
	ck_assert_ptr_eq(r->args[0], kernel_value(v, "a")); /* memory is shared */
	ck_assert_ptr_eq(sm->args[0], r->results[0]);
	ck_assert_ptr_eq(op_reduce_init(sm), t->body->params[0]);
	ck_assert_ptr_eq(t->body->params[0]->loop, t);
	ck_assert_ptr_eq(v->op_list.data[t->id], t);
	ck_assert_ptr_eq(v->values.data[t->results[0]->id], t->results[0]);
	ck_assert_ptr_null(t->parent); /* in no region yet */
	op_tail_attach(loop, t);
	ck_assert_uint_eq(v->body->ops.len, 4);
	ck_assert_ptr_eq(v->body->ops.data[2], t);
	ck_assert_ptr_eq(w->args[0], t->results[0]); /* the write reads the tail's result */
	ck_assert_ptr_eq(t->args[0], loop->results[0]);
	ck_assert(loop->tail == t && t->cont == loop && t->parent == v->body);
	op_tail_detach(v, loop);
	ck_assert_uint_eq(v->body->ops.len, 3);
	ck_assert_ptr_eq(v->body->ops.data[2], w);
	ck_assert_ptr_eq(w->args[0], loop->results[0]);
	ck_assert_ptr_null(loop->tail);
	/* the caller's kernel is untouched */
	ck_assert_uint_eq(k->body->ops.len, 3);
	ck_assert_int_eq(k->nops, 6);
	kernel_view_free(v); /* frees the detached tail's body too */
	kernel_free(k);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("graph");
	TCase *tc = tcase_create("graph");
	tcase_add_test(tc, tables_round_trip);
	tcase_add_test(tc, field_lists);
	tcase_add_test(tc, builders_and_queries);
	tcase_add_test(tc, printer);
	tcase_add_test(tc, split_tail);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
