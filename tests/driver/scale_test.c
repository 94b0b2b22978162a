/* scale_test.c — compile time grows about linearly with the size of the
 * graph. A kernel of N independent read, read, add, write chains (the add
 * example repeated) is compiled for N = 500 and 4000 and the `--stats`
 * times of the passes that were quadratic are compared: resolve_hazards
 * (an s_nop inserted into the block and the block renumbered per hazard),
 * insert_waitcnt (an s_waitcnt inserted into the block per wait) and
 * analyze_indices (every write scanned the whole graph for reads of
 * its memory). Eight times the graph must take less than 24 times as long
 * (linear: 8, quadratic: 64; measured about 5-10 now, about 40 before). */
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../driver/driver.h"
#include "../../frontend/frontend.h"
#include "../test.h"

static void write_kernel(const char *path, int n)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "{\"format\": \"wavecc-kernel/1\", \"name\": \"many_adds\",\n"
		   " \"symbols\": {\"M\": 64, \"N\": 300, \"BLOCK_M\": 1, \"BLOCK_N\": 256},\n"
		   " \"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": \"BLOCK_M\", "
		   "\"N\": \"BLOCK_N\"}},\n"
		   "  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BLOCK_M\", \"workgroup_dim\": 1},\n"
		   "  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BLOCK_N\", \"workgroup_dim\": 0},\n"
		   "  {\"kind\": \"wave\", \"dim\": \"M\", \"tile\": \"BLOCK_M\"}, {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": "
		   "\"BLOCK_N\"}],\n"
		   " \"arguments\": [\n");
	const char *names[3] = {"a", "b", "c"};
	for (int i = 0; i < 3; i++)
		fprintf(f,
			"  {\"name\": \"%s\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", "
			"\"dtype\": \"f16\"}%s\n",
			names[i], i < 2 ? "," : "],");
	fprintf(f, " \"graph\": [\n");
	for (int i = 0; i < n; i++)
		fprintf(f,
			"  {\"name\": \"r%d\", \"op\": \"read\", \"memory\": \"a\"}, {\"name\": \"s%d\", \"op\": \"read\", "
			"\"memory\": \"b\"},\n  {\"name\": \"t%d\", \"op\": \"add\", \"lhs\": \"r%d\", \"rhs\": \"s%d\"}, "
			"{\"name\": \"w%d\", \"op\": \"write\", \"register\": \"t%d\", \"memory\": \"c\"}%s\n",
			i, i, i, i, i, i, i, i + 1 < n ? "," : "]}");
	ck_assert_int_eq(fclose(f), 0);
}

/* Sum of the --stats times of the given stages, in ms. */
static double stage_ms(int n, const char *const *stages, int ns)
{
	char path[2048], cmd[8192];
	snprintf(path, sizeof path, "%s/tests/tmp/scale_%d.json", test_build(), n);
	write_kernel(path, n);
	snprintf(cmd, sizeof cmd, "'%s' compile '%s' -o '%s.hsaco' --stats", test_bin(), path, path);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s\n%s", cmd, r.err);
	double sum = 0;
	for (int i = 0; i < ns; i++) {
		char key[128];
		snprintf(key, sizeof key, "time %s ", stages[i]);
		const char *p = strstr(r.out, key);
		ck_assert_msg(p, "no '%s' in --stats", key);
		sum += strtod(p + strlen(key), NULL);
	}
	cmd_result_free(&r);
	return sum;
}

START_TEST(compile_time_is_about_linear)
{
	static const char *const stages[] = {"resolve_hazards", "analyze_indices", "insert_waitcnt"};
	char dir[4096];
	snprintf(dir, sizeof dir, "mkdir -p '%s/tests/tmp'", test_build());
	CmdResult m = run_cmd(dir, NULL);
	cmd_result_free(&m);
	double small = stage_ms(500, stages, 3), big = stage_ms(4000, stages, 3);
	printf("scale: resolve_hazards + analyze_indices + insert_waitcnt: %.1f ms for 500 chains, %.1f ms for 4000 (x%.1f)\n", small,
		big, big / small);
	ck_assert_msg(big < 24 * small + 50, "4000 chains took %.1f ms, 500 took %.1f ms", big, small);
}
END_TEST

/* The allocation checker kept a live set per instruction: memory quadratic
 * in the program (a 100,000-op graph ran out of memory; 24,000 ops took
 * about 700 MB). It keeps one per block now: the compile of 6,000 chains
 * must stay under 450 MB (about 100 MB measured; more under ASan). */
START_TEST(allocation_check_memory_is_about_linear)
{
	char path[2048], cmd[8192];
	snprintf(path, sizeof path, "%s/tests/tmp", test_build());
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
	CmdResult m = run_cmd(cmd, NULL);
	cmd_result_free(&m);
	snprintf(path, sizeof path, "%s/tests/tmp/scale_mem.json", test_build());
	write_kernel(path, 6000);
	/* in a child of its own, so RUSAGE_CHILDREN is this compile's peak */
	pid_t pid = fork();
	if (pid == 0) {
		snprintf(cmd, sizeof cmd, "'%s' compile '%s' -o '%s.hsaco'", test_bin(), path, path);
		CmdResult r = run_cmd(cmd, NULL);
		_exit(r.status == 0 ? 0 : 1);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "compile of 6,000 chains failed");
	struct rusage ru;
	ck_assert_int_eq(getrusage(RUSAGE_CHILDREN, &ru), 0);
	printf("scale: 6,000 chains compiled with a peak of %ld MB\n", ru.ru_maxrss / 1024);
	ck_assert_msg(ru.ru_maxrss < 450 * 1024, "peak %ld MB", ru.ru_maxrss / 1024);
}
END_TEST

/* ---- the compiler's own time, 4x the graph ----
 *
 * Two generated kernels at a size and at 4 times it, compiled in this
 * process to assembly (every pass, no llvm-mc), timed in CPU time (other
 * processes on the machine do not count) as the best of a few runs:
 *   exp_N    examples/gemm_global_unaligned.json with N ops alternating exp
 *            and log (live: each reads the one before, the last is the
 *            loop's output) on the MMA result in the K loop: 50 and 200
 *            (at 200 the loop is over 128 KiB of code: long branches);
 *   pairs_N  N independent read/write pairs of one input and one output
 *            (examples/copy.json's ops N times): 400 and 1600.
 * Quadratic passes made these 15 and 10 times slower for 4 times the ops
 * (docs/compiler.md, "Compile time"); the 4x kernel must take at most 6
 * times as long. WAVECC_SCALE_KEEP=DIR also writes the kernels there, at
 * the sizes docs/compiler.md times `wavecc compile` on (exp_50.json ...
 * exp_500.json, pairs_400.json ... pairs_5000.json). */

static void gemm_head(Buf *b, const char *name)
{
	buf_printf(b,
		"{\"format\": \"wavecc-kernel/1\", \"name\": \"%s\",\n"
		" \"symbols\": {\"M\": 100, \"N\": 70, \"K\": 90, \"BLOCK_M\": 64, \"BLOCK_N\": 64, \"BLOCK_K\": 32},\n"
		" \"constraints\": [{\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BLOCK_M\", \"workgroup_dim\": 0},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BLOCK_N\", \"workgroup_dim\": 1},\n"
		"  {\"kind\": \"tiling\", \"dim\": \"K\", \"tile\": \"BLOCK_K\"},\n"
		"  {\"kind\": \"wave\", \"dim\": \"M\", \"tile\": \"floor(BLOCK_M / 2)\"},\n"
		"  {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": \"floor(BLOCK_N / 2)\"},\n"
		"  {\"kind\": \"hardware\", \"threads_per_wave\": 64, \"waves_per_block\": [2, 2, 1], "
		"\"mma_type\": \"F32_16x16x16_F16\"}],\n"
		" \"arguments\": [{\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"K\"], \"address_space\": "
		"\"global\", \"dtype\": \"f16\"},\n"
		"  {\"name\": \"b\", \"type\": \"memory\", \"shape\": [\"N\", \"K\"], \"address_space\": \"global\", "
		"\"dtype\": \"f16\"},\n"
		"  {\"name\": \"c\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", "
		"\"dtype\": \"f32\"}],\n",
		name);
}

static char *exp_kernel(int n)
{
	Buf b = {0};
	gemm_head(&b, "scale_exp");
	buf_puts(&b, " \"graph\": [{\"name\": \"c_reg\", \"op\": \"register\", \"shape\": [\"M\", \"N\"], "
		     "\"dtype\": \"f32\", \"value\": 0.0},\n"
		     "  {\"name\": \"repeat\", \"op\": \"iterate\", \"axis\": \"K\", \"init_args\": [\"c_reg\"], "
		     "\"iter_args\": [\"acc\"], \"body\": [\n"
		     "   {\"name\": \"a_reg\", \"op\": \"read\", \"memory\": \"a\", \"elements_per_thread\": 4},\n"
		     "   {\"name\": \"b_reg\", \"op\": \"read\", \"memory\": \"b\", \"elements_per_thread\": 4},\n"
		     "   {\"name\": \"mma\", \"op\": \"mma\", \"lhs\": \"a_reg\", \"rhs\": \"b_reg\", \"acc\": \"acc\"},\n");
	for (int i = 0; i < n; i++) {
		char arg[32] = "mma";
		if (i)
			snprintf(arg, sizeof arg, "f%d", i - 1);
		buf_printf(&b, "   {\"name\": \"f%d\", \"op\": \"%s\", \"arg\": \"%s\"},\n", i, i % 2 ? "log" : "exp", arg);
	}
	buf_printf(&b, "   {\"name\": \"output\", \"op\": \"output\", \"values\": [\"f%d\"]}]},\n", n - 1);
	buf_puts(&b, "  {\"name\": \"write\", \"op\": \"write\", \"register\": \"repeat\", \"memory\": \"c\", "
		     "\"elements_per_thread\": 4}]}\n");
	return b.data;
}

static char *pairs_kernel(int n)
{
	Buf b = {0};
	buf_puts(&b, "{\"format\": \"wavecc-kernel/1\", \"name\": \"scale_pairs\",\n"
		     " \"symbols\": {\"M\": 111, \"N\": 813, \"BLOCK_M\": 1, \"BLOCK_N\": \"Max(Min(N, 256), 64)\"},\n"
		     " \"constraints\": [{\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": "
		     "\"BLOCK_M\", \"N\": \"BLOCK_N\"}},\n"
		     "  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BLOCK_M\", \"workgroup_dim\": 1},\n"
		     "  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BLOCK_N\", \"workgroup_dim\": 0},\n"
		     "  {\"kind\": \"wave\", \"dim\": \"M\", \"tile\": \"BLOCK_M\"}, {\"kind\": \"wave\", \"dim\": \"N\", "
		     "\"tile\": \"BLOCK_N\"}],\n"
		     " \"arguments\": [{\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], "
		     "\"address_space\": \"global\", \"dtype\": \"f16\"},\n"
		     "  {\"name\": \"b\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": "
		     "\"global\", \"dtype\": \"f16\"}],\n"
		     " \"graph\": [\n");
	for (int i = 0; i < n; i++)
		buf_printf(&b,
			"  {\"name\": \"r%d\", \"op\": \"read\", \"memory\": \"a\"}, {\"name\": \"w%d\", \"op\": "
			"\"write\", \"register\": \"r%d\", \"memory\": \"b\"}%s\n",
			i, i, i, i + 1 < n ? "," : "]}");
	return b.data;
}

/* The kernels of gen at sizes n[] written to DIR/what_N.json, when
 * WAVECC_SCALE_KEEP=DIR. */
static void keep(const char *what, char *(*gen)(int), const int *n, int count)
{
	const char *dir = getenv("WAVECC_SCALE_KEEP");
	for (int i = 0; dir && *dir && i < count; i++) {
		char path[4096], *text = gen(n[i]);
		snprintf(path, sizeof path, "%s/%s_%d.json", dir, what, n[i]);
		FILE *f = fopen(path, "w");
		ck_assert_msg(f, "cannot write %s", path);
		fputs(text, f);
		ck_assert_int_eq(fclose(f), 0);
		free(text);
	}
}

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* The best CPU time of `runs` compiles (load included) of text (name for
 * messages) to assembly, in ms. */
static double compile_ms(const char *name, const char *text, int runs)
{
	double best = -1;
	for (int r = 0; r < runs; r++) {
		Diag d;
		diag_init(&d);
		double t0 = cpu_ms();
		Kernel *k = load_kernel_text(text, strlen(text), name, &d);
		ck_assert_msg(k, "%s does not load", name);
		Compile c;
		compile_init(&c, k, &(CompileOptions){.mcpu = "gfx942", .stop_after = "emit_assembly"}, &d);
		ck_assert_msg(compile_run(&c) == 0, "%s does not compile", name);
		compile_free(&c);
		kernel_free(k);
		double t = cpu_ms() - t0;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

static void four_times(const char *what, char *(*gen)(int), int n)
{
	char name[64];
	char *small = gen(n), *big = gen(4 * n);
	snprintf(name, sizeof name, "%s_%d", what, n);
	double ts = compile_ms(name, small, 3);
	snprintf(name, sizeof name, "%s_%d", what, 4 * n);
	double tb = compile_ms(name, big, 2);
	printf("scale: %s: %.0f ms for %d, %.0f ms for %d (x%.1f; at most x6)\n", what, ts, n, tb, 4 * n, tb / ts);
	ck_assert_msg(tb <= 6 * ts, "%s: %d took %.0f ms, %d took %.0f ms: x%.1f", what, 4 * n, tb, n, ts, tb / ts);
	free(small);
	free(big);
}

START_TEST(loop_body_ops_scale)
{
	four_times("exp", exp_kernel, 50);
	keep("exp", exp_kernel, (const int[]){50, 100, 200, 500}, 4);
}
END_TEST

START_TEST(read_write_pairs_scale)
{
	four_times("pairs", pairs_kernel, 400);
	keep("pairs", pairs_kernel, (const int[]){400, 800, 1600, 5000}, 4);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/scale");
	TCase *t = tcase_create("scale");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, compile_time_is_about_linear);
	tcase_add_test(t, allocation_check_memory_is_about_linear);
	tcase_add_test(t, loop_body_ops_scale);
	tcase_add_test(t, read_write_pairs_scale);
	suite_add_tcase(s, t);
	return run_suite(s);
}
