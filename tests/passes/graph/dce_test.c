/* dce_test.c — eliminate_dead_ops (passes/graph/dce.c): a graph with dead
 * ops compiles to the code of the same graph without them.
 *
 * Each tests/passes/graph/data/NAME.json has dead ops and NAME.clean.json
 * is the same kernel written without them (live ops of the same names):
 *   dce_gemm        a dead read, a dead mma and exp in the K loop, a carried
 *                   value nothing reads (its init register, its get_result
 *                   and a cast of it), a whole second K loop whose result
 *                   only a dead op reads, an implicit capture only dead ops
 *                   read;
 *   dce_softmax     a dead min, a self_index/apply_expr mask, a select and a
 *                   block sum across the waves (LDS and a barrier);
 *   dce_loop_write  a K loop kept for the write in its body while its one
 *                   carried value (the mma's) dies: the loop keeps none.
 * Both are compiled to assembly on gfx942 and gfx90a: the texts must be
 * equal past the first line (which names the input file), the pruned view
 * must hold fewer ops than the kernel, and the clean kernel's view none
 * fewer; the caller's kernel keeps its ops (the interpreter runs them).
 * The kernel with dead ops then runs on the emulator against the
 * interpreter (which computes the dead ops too) and must PASS. The
 * compiler before the pass gave other code for each (dead loads, MFMAs and
 * exps compiled). */
#include <string.h>

#include "../../../driver/run_graph.h"
#include "../../../frontend/frontend.h"
#include "../../test.h"

static Kernel *load(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(path, &d);
	ck_assert_msg(k, "%s does not load", path);
	return k;
}

/* k's assembly for target past its first line, into out; returns how many
 * of k's ops the analysed view dropped. */
static size_t assembly(const Kernel *k, const char *target, Buf *out)
{
	Diag d;
	diag_init(&d);
	Compile c;
	compile_init(&c, k, &(CompileOptions){.mcpu = target, .stop_after = "emit_assembly"}, &d);
	ck_assert_msg(compile_run(&c) == 0, "%s (%s) does not compile", k->name, target);
	const char *s = strchr(buf_cstr(&c.asm_text), '\n');
	buf_puts(out, s ? s : "");
	/* the view's ops of k's (ids below k's count: a split loop's tail is
	 * a copy with ids of its own) */
	size_t kept = 0;
	for (size_t i = 0; i < c.an.k->op_list.len; i++)
		kept += c.an.k->op_list.data[i]->id < k->nops;
	size_t dropped = k->op_list.len - kept;
	compile_free(&c);
	return dropped;
}

static void passes_on_the_emulator(const char *name, const Kernel *k)
{
	static RunOptions ro = {.backend = BACKEND_EMU, .seed = 1};
	Kernel *bound = kernel_view(k);
	CompileCheck ck = {.path = name, .k = k, .bound = bound, .ro = &ro, .atol = -1, .rtol = -1};
	ck.co.code_object = "kernel.hsaco";
	Diag d;
	diag_init(&d);
	Buf msg = {0};
	ck_assert_msg(compile_check_prepare(&ck, &d, &msg) == 0, "%s: %s", name, buf_cstr(&msg));
	ck_assert_msg(compile_check_run(&ck, &d, &msg) == 0, "%s: %s", name, buf_cstr(&msg));
	ck_assert_msg(ck.pass, "%s fails on the emulator", name);
	buf_free(&msg);
	compile_check_free(&ck);
	kernel_view_free(bound);
}

static int npairs;

static void same_code(const char *dir, const char *name)
{
	if (strstr(name, ".clean.json"))
		return;
	char clean[512];
	snprintf(clean, sizeof clean, "%.*s.clean.json", (int)(strlen(name) - strlen(".json")), name);
	Kernel *k = load(dir, name), *kc = load(dir, clean);
	size_t ops = k->op_list.len;
	static const char *const targets[] = {"gfx942", "gfx90a"};
	for (size_t t = 0; t < 2; t++) {
		Buf a = {0}, b = {0};
		ck_assert_msg(assembly(k, targets[t], &a) > 0, "%s: no op dropped", name);
		ck_assert_msg(assembly(kc, targets[t], &b) == 0, "%s: ops dropped", clean);
		ck_assert_msg(strcmp(buf_cstr(&a), buf_cstr(&b)) == 0, "%s (%s): not the code of %s", name, targets[t],
			clean);
		buf_free(&a);
		buf_free(&b);
	}
	ck_assert_uint_eq(k->op_list.len, ops); /* the caller's kernel keeps its ops */
	passes_on_the_emulator(name, k);
	kernel_free(k);
	kernel_free(kc);
	npairs++;
}

START_TEST(dead_ops_give_the_code_of_the_graph_without_them)
{
	test_each_file("tests/passes/graph/data", ".json", same_code);
	ck_assert_int_eq(npairs, 3);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("passes/dce");
	TCase *t = tcase_create("dce");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, dead_ops_give_the_code_of_the_graph_without_them);
	suite_add_tcase(s, t);
	return run_suite(s);
}
