/* local_test.c — allocations (Wave's tkw.allocate) end to end: kernels in
 * tests/driver/local/ through `wavecc run` on gfx942 and gfx90a (the
 * gfx90a runs adversarial: random wave order, garbage fill, late memory,
 * the race detector), the barriers the plan puts between the waves'
 * accesses, and the located errors for what is not compiled and for a read
 * of an element no op stored. Wave's own tests that allocate (scatter_add,
 * atomic_min, the histogram, the explicit shared-memory GEMM) are in
 * wave_test.c. */
#include <string.h>

#include "../test.h"

static const char *const targets[] = {"gfx942", "gfx90a"};

/* rotate_rows: 2x2 waves store their tile, read another wave's rows (a
 * mapping), store a product over it and read it reversed (three barriers:
 * read after write, write after read, read after write);
 * transpose_f16: f16 elements stored two per lane through a transposing
 * mapping into a padded allocation, read one per lane reversed (16-bit
 * DS accesses, partial tiles along M masked);
 * histogram: one wave's atomic adds at dynamic bins (half of the seeded
 * fill's bins are outside the allocation: dropped);
 * histogram_rtn: four waves, the old values of the adds summed per bin
 * into a second allocation (the same in any order of the adds);
 * cond_swap: an exec-masked conditional reading the other wave's row: the
 * barrier goes before the conditional;
 * gemm_alloc_a: A stored whole into an allocation before the K loop and
 * read as the MMA's operand through a mapping over $ARGK (the coordinates
 * count from the trip's window); gemm_alloc_tile0: the same read without
 * the mapping, so every trip takes the allocation's first K tile;
 * cond_uniform_barrier: a conditional on an i32 scalar argument (the same
 * in every wave) whose body holds an explicit barrier and needs three more
 * between its accesses (run taken and not taken); cond_wg_barrier: the
 * same body under `Mod($WG1, 3) > 0`, taken by two workgroups of three.
 * `wavecc run` checks that the waves meet at the same barriers. */
static const struct {
	const char *file, *args;
} passing[] = {{"rotate_rows", ""}, {"transpose_f16", ""}, {"histogram", ""}, {"histogram_rtn", ""},
	{"cond_swap", ""}, {"gemm_alloc_a", ""}, {"gemm_alloc_tile0", ""}, {"cond_uniform_barrier", "-D flag=1"},
	{"cond_uniform_barrier", "-D flag=0"}, {"cond_wg_barrier", ""}};

START_TEST(local_kernels_pass)
{
	const char *k = passing[_i / 2].file, *t = targets[_i % 2];
	const char *adverse =
		_i % 2 ? "--wave-order random --wg-order reverse --fill garbage --memory late --races --canary --order-seed 7"
		       : "";
	CmdResult r = test_wavecc("run tests/driver/local/%s.json %s --mcpu %s --seed %d %s", k, passing[_i / 2].args, t,
		3 + _i, adverse);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s on %s: status %d\n%s%s", k, t, r.status, r.out,
		      r.err);
	cmd_result_free(&r);
}
END_TEST

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
		n++;
	return n;
}

/* The barrier plan: as many s_barriers as the waves' conflicts need, none
 * in a workgroup of one wave; the loop's write waits for the last trip's
 * reads (a barrier at the top of the body besides the explicit one). */
START_TEST(local_barriers)
{
	static const struct {
		const char *file, *args;
		int barriers;
	} want[] = {
		{"tests/driver/local/rotate_rows.json", "", 3},
		{"tests/driver/local/histogram.json", "", 0},
		{"tests/driver/local/histogram_rtn.json", "", 2},
		{"tests/driver/local/cond_swap.json", "", 1},
		/* inside the uniform conditional: the explicit one and three */
		{"tests/driver/local/cond_uniform_barrier.json", "", 4},
		{"tests/driver/local/cond_wg_barrier.json", "", 4},
		{"tests/driver/wave/scatter_add.json", "", 1},                     /* the explicit one */
		{"tests/driver/wave/explicit_shared_gemm.json", "--schedule none", 2}, /* in the loop */
		/* its barrier a memory_counter_wait_barrier: the same two */
		{"tests/driver/wave/explicit_shared_gemm_hints.json", "--schedule none", 2},
	};
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		CmdResult r = test_wavecc("compile %s %s -S -o -", want[i].file, want[i].args);
		ck_assert_msg(r.status == 0, "%s: %s%s", want[i].file, r.out, r.err);
		int n = count(r.out, "\ts_barrier");
		ck_assert_msg(n == want[i].barriers, "%s: %d s_barrier, want %d\n%s", want[i].file, n, want[i].barriers,
			      r.out);
		cmd_result_free(&r);
	}
}
END_TEST

/* file, the expected message (after "error: "), and whether the frontend
 * (dump-graph) already rejects it */
static const struct {
	const char *file, *msg;
	bool frontend;
} rejected[] = {
	{"alloc_global_rejected", "graph[1].address_space: allocate in address space 'global': only shared memory", true},
	{"alloc_operand_rejected", "graph[4].rhs: 'tile' is an allocation; read it first", true},
	{"alloc_ext_rejected", "graph[1].distributed_shape: distributed_shape has 1 entries for the 2 dims of shape", true},
	{"too_big_rejected", "graph[1]: allocation tile (65536 bytes) does not fit in the LDS left", false},
	{"global_scatter_rejected", "graph[2]: scatter_add into global memory (b) is not compiled yet", false},
	{"min_f32_rejected", "graph[3]: atomic_min of f32 elements in an allocation is not compiled yet", false},
	{"cond_barrier_rejected",
	 "graph[5]: the accesses of allocations in conditional 'sel' need a barrier between them; a barrier inside a "
	 "conditional (which may run in some waves only) is not compiled",
	 false},
	{"cond_explicit_barrier_rejected",
	 "graph[5].body[0]: workgroup_barrier inside a conditional (which may run in some waves only) is not compiled",
	 false},
	/* a uniform conditional inside one that may differ between lanes */
	{"cond_uniform_in_lane_rejected",
	 "graph[5].body[0].body[0]: workgroup_barrier inside a conditional (which may run in some waves only) is not "
	 "compiled",
	 false},
	{"cond_wait_barrier_rejected",
	 "graph[5].body[0]: memory_counter_wait_barrier inside a conditional (which may run in some waves only) is not "
	 "compiled",
	 false},
	/* the interpreter's: the kernel would read what the LDS held */
	{"unwritten_read",
	 "graph[3]: interp: y reads element [64, 63] of allocation tile, which no op stored before it", false},
};

START_TEST(local_bad_input_is_located)
{
	const char *f = rejected[_i / 2].file, *t = targets[_i % 2];
	char want[512];
	snprintf(want, sizeof want, "tests/driver/local/%s.json:", f);
	CmdResult r = test_wavecc("run tests/driver/local/%s.json --mcpu %s --seed 1", f, t);
	ck_assert_msg(r.status == 1, "%s: status %d\n%s%s", f, r.status, r.out, r.err);
	ck_assert_msg(strstr(r.err, want) && strstr(r.err, rejected[_i / 2].msg), "%s: want '%s'\n%s", f,
		      rejected[_i / 2].msg, r.err);
	ck_assert_ptr_null(strstr(r.out, "PASS"));
	cmd_result_free(&r);
	r = test_wavecc("dump-graph tests/driver/local/%s.json", f);
	ck_assert_msg(rejected[_i / 2].frontend ? r.status == 1 : r.status == 0, "%s: dump-graph status %d\n%s", f,
		      r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("local");
	TCase *tc = tcase_create("local");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, local_kernels_pass, 0, (int)(2 * ARRAY_LEN(passing)));
	tcase_add_test(tc, local_barriers);
	tcase_add_loop_test(tc, local_bad_input_is_located, 0, (int)(2 * ARRAY_LEN(rejected)));
	suite_add_tcase(s, tc);
	return run_suite(s);
}
