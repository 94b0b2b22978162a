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
#include <unistd.h>

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

int main(void)
{
	Suite *s = suite_create("compile/scale");
	TCase *t = tcase_create("scale");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, compile_time_is_about_linear);
	tcase_add_test(t, allocation_check_memory_is_about_linear);
	suite_add_tcase(s, t);
	return run_suite(s);
}
