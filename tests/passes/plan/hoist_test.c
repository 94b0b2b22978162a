/* hoist_test.c — the graph pass that hoists loop-invariant reads
 * (passes/plan/hoist.c): on Wave's attention (tests/passes/plan/data/
 * attention.json, whose Q tile q_reg the plan hoists out of the loop over
 * K2; it declines "qk_ahead", whose rewrite would move Q itself), after the row hoist_reads the read lies in the kernel's body right
 * before the loop, in the view's own graph; the kernel the caller loaded
 * (which the interpreter runs) still has it in the loop; a plan that drops
 * the hoisting (plan_lighten's plain step) puts it back where it was
 * written, and the first plan moves it again. */
#include <string.h>

#include "../../../driver/driver.h"
#include "../../../frontend/frontend.h"
#include "../../test.h"

static long place_of(const Region *r, const Op *op)
{
	for (size_t i = 0; i < r->ops.len; i++)
		if (r->ops.data[i] == op)
			return (long)i;
	return -1;
}

/* The iterate of k's body. */
static Op *loop_of(Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++)
		if (r->ops.data[i]->kind == OP_ITERATE)
			return r->ops.data[i];
	return NULL;
}

START_TEST(attention_q_tile)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/passes/plan/data/attention.json", test_root());
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(path, &d);
	ck_assert(k);
	Op *q0 = region_find_op(k->body, "q_reg"), *it0 = loop_of(k->body);
	ck_assert(q0 && it0 && q0->parent == it0->body);
	long home = place_of(it0->body, q0);
	size_t body_len = it0->body->ops.len;

	CompileOptions o = {.mcpu = "gfx942", .stop_after = "hoist_reads"};
	Compile c;
	compile_init(&c, k, &o, &d);
	ck_assert_int_eq(compile_run(&c), 0);
	Kernel *v = c.an.k;
	ck_assert(v->owns_graph);
	Op *q = v->op_list.data[q0->id], *it = loop_of(v->body);
	ck_assert(q != q0 && strcmp(q->name, "q_reg") == 0);
	ck_assert(c.plan.read[q->id] & PLAN_READ_HOISTED);
	ck_assert_int_eq(c.plan.nhoist, 1);
	/* moved: right before the loop, out of its body */
	ck_assert(q->parent == v->body);
	ck_assert_int_eq(place_of(v->body, q) + 1, place_of(v->body, it));
	ck_assert_int_eq(place_of(it->body, q), -1);
	ck_assert_uint_eq(it->body->ops.len, body_len - 1);
	size_t moved_len = v->body->ops.len; /* (dead ops left the view: eliminate_dead_ops) */
	/* the caller's kernel as loaded */
	ck_assert(q0->parent == it0->body && place_of(it0->body, q0) == home);
	ck_assert_uint_eq(it0->body->ops.len, body_len);

	/* the plain plan: back where it was written */
	Plan p = plan_copy(&c.plan, &c.an.arena);
	p.read[q->id] &= (uint8_t)~PLAN_READ_HOISTED;
	plan_hoist_reads(&c.an, &p);
	ck_assert(q->parent == it->body);
	ck_assert_int_eq(place_of(it->body, q), home);
	ck_assert_uint_eq(v->body->ops.len, moved_len - 1);
	for (size_t i = 0; i < body_len; i++)
		ck_assert_str_eq(it->body->ops.data[i]->name, it0->body->ops.data[i]->name);
	/* and the first plan again */
	plan_hoist_reads(&c.an, &c.plan);
	ck_assert(q->parent == v->body);
	ck_assert_int_eq(place_of(v->body, q) + 1, place_of(v->body, it));
	compile_free(&c);
	kernel_free(k);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("passes/plan/hoist");
	TCase *t = tcase_create("core");
	tcase_add_test(t, attention_q_tile);
	suite_add_tcase(s, t);
	return run_suite(s);
}
