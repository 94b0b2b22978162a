/* symbol_scale_test.c — big inputs take time and memory near linear in their size
 * (issue 9, "Bad input": super-linear time, out-of-memory aborts).
 *
 * Each case writes a generated kernel into a scratch folder, runs wavecc on
 * it under `timeout` and checks both the result (the work was really done:
 * a resolved value, a compiled kernel) and the time against a bound far
 * above what the near-linear code needs on a loaded 2-core machine and far
 * below what the old code took:
 *   - symbols: 5,000 chained symbols written last-first (S4999 = S4998 + 1
 *     ... S0 = 1). Resolution by repeated passes with linear name lookups
 *     was cubic: 1,600 took 2.3 s, 5,000 did not finish in 90 s; now
 *     0.1 s; a cycle behind the chain is still reported. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../test.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Run wavecc with `args` (in the scratch folder), killed after `limit`
 * seconds; *secs gets the wall time. */
static CmdResult wavecc_timed(const char *dir, const char *args, int limit, double *secs)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "cd '%s' && timeout %d '%s' %s", dir, limit, test_bin(), args);
	double t0 = now();
	CmdResult r = run_cmd(cmd, NULL);
	*secs = now() - t0;
	return r;
}

static void write_file(const char *dir, const char *name, const Buf *b)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b->data, 1, b->len, f), b->len);
	ck_assert_int_eq(fclose(f), 0);
}

/* The copy kernel of examples/copy.json with `symbols` (a JSON object body)
 * and `graph` (a JSON array body) spliced in. */
static void copy_kernel(Buf *b, const char *symbols, const char *graph)
{
	buf_printf(b,
		"{\"format\": \"wavecc-kernel/1\", \"name\": \"scale\",\n"
		" \"symbols\": {%s},\n"
		" \"address_spaces\": {\"ADDRESS_SPACE\": \"global\"},\n"
		" \"constraints\": [\n"
		"  {\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": \"BLOCK_M\", \"N\": "
		"\"BLOCK_N\"}},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": \"BLOCK_M\", \"workgroup_dim\": 1},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BLOCK_N\", \"workgroup_dim\": 0},\n"
		"  {\"kind\": \"wave\", \"dim\": \"M\", \"tile\": \"BLOCK_M\"},\n"
		"  {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": \"BLOCK_N\"}],\n"
		" \"arguments\": [\n"
		"  {\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": "
		"\"ADDRESS_SPACE\", \"dtype\": \"f16\"},\n"
		"  {\"name\": \"b\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": "
		"\"ADDRESS_SPACE\", \"dtype\": \"f16\"}],\n"
		" \"graph\": [%s]}\n",
		symbols, graph);
}

/* ---- symbols ---- */

START_TEST(chained_symbols_resolve_in_linear_time)
{
	enum { CHAIN = 5000 };
	const char *dir = test_tmpdir("scale_symbols");
	Buf s = {0}, k = {0};
	/* last-first: every definition names one written after it, the order
	 * the old repeated passes resolved one symbol per pass */
	for (int i = CHAIN - 1; i > 0; i--)
		buf_printf(&s, "\"S%d\": \"S%d + 1\", ", i, i - 1);
	buf_puts(&s, "\"S0\": 1, ");
	/* M = S4999 - 4889 = 111 */
	buf_printf(&s, "\"M\": \"S%d - %d\", \"N\": 813, \"BLOCK_M\": 1, \"BLOCK_N\": \"Max(Min(N, 256), 64)\"",
		CHAIN - 1, CHAIN - 111);
	copy_kernel(&k, buf_cstr(&s),
		"{\"name\": \"read\", \"op\": \"read\", \"memory\": \"a\"}, "
		"{\"name\": \"write\", \"op\": \"write\", \"register\": \"read\", \"memory\": \"b\"}");
	write_file(dir, "chain.json", &k);

	double secs;
	CmdResult r = wavecc_timed(dir, "dump-graph chain.json", 60, &secs);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.out, "\n  S4999 = S4998 + 1 = 5000\n"), "%.300s", r.out);
	ck_assert_msg(strstr(r.out, "\n  M = S4999 - 4889 = 111\n"), "%.300s", r.out);
	ck_assert_msg(secs < 10, "dump-graph of %d chained symbols took %.1f s", CHAIN, secs);
	cmd_result_free(&r);

	/* -D on the chain's root: the compiler's substitution pass resolves the
	 * chain again (M = 112: the grid's second dimension) */
	r = wavecc_timed(dir, "dump-indices chain.json -D S0=2", 60, &secs);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.out, "grid 4 x 112 x 1"), "%.300s", r.out);
	ck_assert_msg(secs < 10, "dump-indices -D of %d chained symbols took %.1f s", CHAIN, secs);
	cmd_result_free(&r);

	/* a cycle behind the chain is still found and reported once */
	buf_clear(&s);
	buf_clear(&k);
	for (int i = CHAIN - 1; i > 0; i--)
		buf_printf(&s, "\"S%d\": \"S%d + 1\", ", i, i - 1);
	buf_printf(&s, "\"S0\": \"S%d + 1\", \"M\": 111, \"N\": 813, \"BLOCK_M\": 1, \"BLOCK_N\": 64", CHAIN - 1);
	copy_kernel(&k, buf_cstr(&s),
		"{\"name\": \"read\", \"op\": \"read\", \"memory\": \"a\"}, "
		"{\"name\": \"write\", \"op\": \"write\", \"register\": \"read\", \"memory\": \"b\"}");
	write_file(dir, "cycle.json", &k);
	r = wavecc_timed(dir, "dump-graph cycle.json", 60, &secs);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "cycle in symbol definitions: S"), "%s", r.err);
	ck_assert_msg(secs < 10, "a %d-symbol cycle took %.1f s", CHAIN, secs);
	cmd_result_free(&r);
	buf_free(&s);
	buf_free(&k);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("symbol_scale");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, chained_symbols_resolve_in_linear_time);
	suite_add_tcase(s, t);
	return run_suite(s);
}
