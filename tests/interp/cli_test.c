/* cli_test.c — `wavecc interp` end to end: .npy inputs and outputs, -D
 * dynamic symbols, the documented --random generator, and bad usage (exit
 * 2) and bad input (exit 1) leaving no output file behind. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../util/npy.h"
#include "harness.h"

static const char *dir;

static int run(const char *args, char **err_out)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' interp %s", test_root(), test_bin(), args);
	CmdResult r = run_cmd(cmd, NULL);
	int st = r.status;
	if (err_out)
		*err_out = xstrdup(r.err ? r.err : "");
	cmd_result_free(&r);
	return st;
}

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

static const char *path(const char *name)
{
	char p[2048];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return intern(p);
}

/* Write an M x N f16 array whose element i is (i % 251) / 8 - 15. */
static void write_input(const char *file, int64_t M, int64_t N)
{
	uint16_t *h = xmalloc(sizeof(uint16_t) * (size_t)(M * N));
	for (int64_t i = 0; i < M * N; i++)
		h[i] = dtype_f32_to_f16((float)(i % 251) / 8.0f - 15.0f);
	int64_t shape[2] = {M, N};
	char err[256];
	ck_assert_int_eq(npy_write(file, DT_F16, 2, shape, h, err, sizeof err), 0);
	free(h);
}

static void expect_copy(const char *in, const char *out, int64_t M, int64_t N)
{
	NpyArray a, b;
	char err[256];
	ck_assert_int_eq(npy_read(in, &a, err, sizeof err), 0);
	ck_assert_msg(npy_read(out, &b, err, sizeof err) == 0, "%s", err);
	int64_t shape[2] = {M, N};
	ck_assert_int_eq(npy_check(&b, "b", DT_F16, 2, shape, err, sizeof err), 0);
	ck_assert_int_eq(memcmp(a.data, b.data, a.nbytes), 0);
	npy_free(&a);
	npy_free(&b);
}

START_TEST(copy_through_npy_files)
{
	char args[4096];
	const char *in = path("a.npy"), *out = path("b.npy");
	write_input(in, 111, 813);
	snprintf(args, sizeof args, "examples/copy.json --in a='%s' --out b='%s'", in, out);
	ck_assert_int_eq(run(args, NULL), 0);
	expect_copy(in, out, 111, 813);
}
END_TEST

START_TEST(dynamic_symbols_from_D)
{
	char args[4096];
	const char *in = path("d.npy"), *out = path("e.npy");
	write_input(in, 7, 300);
	snprintf(args, sizeof args, "examples/copy_dynamic.json -D M=7 -DN=300 --in a='%s' --out b='%s'", in, out);
	ck_assert_int_eq(run(args, NULL), 0);
	expect_copy(in, out, 7, 300);
	/* A missing or unknown -D is bad usage. */
	char *e;
	snprintf(args, sizeof args, "examples/copy_dynamic.json -D M=7 --out b='%s'", path("x.npy"));
	ck_assert_int_eq(run(args, &e), 2);
	ck_assert_ptr_nonnull(strstr(e, "N"));
	free(e);
	ck_assert_int_eq(run("examples/copy_dynamic.json -D M=7 -D N=3 -D Q=1", NULL), 2);
	ck_assert(!exists(path("x.npy")));
	/* The wrong shape for a: bad input, no output written. */
	snprintf(args, sizeof args, "examples/copy_dynamic.json -D M=8 -D N=300 --in a='%s' --out b='%s'", in,
		path("y.npy"));
	ck_assert_int_eq(run(args, &e), 1);
	ck_assert_ptr_nonnull(strstr(e, "shape"));
	free(e);
	ck_assert(!exists(path("y.npy")));
}
END_TEST

START_TEST(random_inputs_are_reproducible)
{
	/* --random SEED fills every argument with interp_fill_random(arg,
	 * SEED, position); the test regenerates a and b that way and checks
	 * c = a + b from the CLI's output files. */
	char args[4096];
	snprintf(args, sizeof args, "examples/add.json --random 42 --out a='%s' --out b='%s' --out c='%s'", path("ra.npy"),
		path("rb.npy"), path("rc.npy"));
	ck_assert_int_eq(run(args, NULL), 0);
	Example ex;
	ex_open(&ex, "add", NULL);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b");
	interp_fill_random(a, 42, 0);
	interp_fill_random(b, 42, 1);
	NpyArray fa, fc;
	char err[256];
	ck_assert_int_eq(npy_read(path("ra.npy"), &fa, err, sizeof err), 0);
	ck_assert_int_eq(npy_read(path("rc.npy"), &fc, err, sizeof err), 0);
	ck_assert_int_eq(memcmp(fa.data, a->data, fa.nbytes), 0);
	int distinct = 0;
	for (uint64_t i = 0; i < a->count; i++) {
		double want = el(a, i) + el(b, i);
		ck_assert_double_eq(dtype_load(DT_F16, fc.data, i), want);
		distinct += el(a, i) != el(b, i);
	}
	ck_assert_int_gt(distinct, (int)(a->count / 2)); /* a and b are different streams */
	npy_free(&fa);
	npy_free(&fc);
	ex_close(&ex);
}
END_TEST

START_TEST(summary_without_out)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' interp examples/reduce_sum.json --random 1", test_root(), test_bin());
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "c f32[32] sum="));
	cmd_result_free(&r);
}
END_TEST

START_TEST(bad_usage_and_bad_input)
{
	char *e;
	ck_assert_int_eq(run("", NULL), 2);
	ck_assert_int_eq(run("examples/copy.json --bogus", NULL), 2);
	ck_assert_int_eq(run("examples/copy.json --in nosuch=x.npy", NULL), 2);
	ck_assert_int_eq(run("examples/copy.json --in a", NULL), 2);
	ck_assert_int_eq(run("examples/copy.json --random x", NULL), 2);
	ck_assert_int_eq(run("examples/copy.json -D", NULL), 2);
	ck_assert_int_eq(run("examples/copy.json examples/add.json", NULL), 2);
	/* A missing kernel file and a missing input file are bad input. */
	ck_assert_int_eq(run("examples/nosuch.json", NULL), 1);
	char args[4096];
	snprintf(args, sizeof args, "examples/copy.json --in a='%s/none.npy' --out b='%s'", dir, path("z.npy"));
	ck_assert_int_eq(run(args, &e), 1);
	free(e);
	ck_assert(!exists(path("z.npy")));
	/* An input of the wrong dtype. */
	const char *f32 = path("f32.npy");
	float v[6] = {0};
	int64_t shape[2] = {2, 3};
	char err[256];
	ck_assert_int_eq(npy_write(f32, DT_F32, 2, shape, v, err, sizeof err), 0);
	snprintf(args, sizeof args, "examples/copy.json --in a='%s' --out b='%s'", f32, path("z.npy"));
	ck_assert_int_eq(run(args, &e), 1);
	ck_assert_ptr_nonnull(strstr(e, "a"));
	free(e);
	ck_assert(!exists(path("z.npy")));
	ck_assert_int_eq(run("--help", NULL), 0);
}
END_TEST

START_TEST(unsupported_graph_is_reported_with_location)
{
	/* extract_slice with a stride other than 1 is not executed by the
	 * interpreter: a located error, exit 1, nothing written. */
	const char *k = path("stride.json");
	const char *text =
		"{\"format\": \"wavecc-kernel/1\", \"name\": \"strided\",\n"
		" \"symbols\": {\"M\": 4, \"N\": 128},\n"
		" \"constraints\": [\n"
		"  {\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": 64}},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": 1, \"workgroup_dim\": 1},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": 128, \"workgroup_dim\": 0},\n"
		"  {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": 64}],\n"
		" \"arguments\": [\n"
		"  {\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", \"dtype\": \"f32\"},\n"
		"  {\"name\": \"c\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", \"dtype\": \"f32\"}],\n"
		" \"graph\": [\n"
		"  {\"name\": \"x\", \"op\": \"read\", \"memory\": \"a\"},\n"
		"  {\"name\": \"s\", \"op\": \"extract_slice\", \"register\": \"x\", \"offset\": [0], \"size\": [2], \"stride\": [2]},\n"
		"  {\"name\": \"w\", \"op\": \"write\", \"register\": \"s\", \"memory\": \"c\"}]}\n";
	ck_assert_int_eq(write_file_atomic(k, text, strlen(text), 0644), 0);
	char args[4096], *e;
	snprintf(args, sizeof args, "'%s' --out c='%s'", k, path("c.npy"));
	ck_assert_int_eq(run(args, &e), 1);
	ck_assert_msg(strstr(e, "stride.json:13:") && strstr(e, "graph[1]") && strstr(e, "stride 2"), "%s", e);
	free(e);
	ck_assert(!exists(path("c.npy")));
}
END_TEST

/* A register defined before an iterate and used inside it (Wave hoists
 * constants such as attention's zero accumulator over K2 out of the loop)
 * gives each iteration its own tile: the same result as the register
 * defined in the body (it failed with "dim K2: window [0, +64) does not
 * match [0, +128)"). */
START_TEST(register_hoisted_out_of_iterate)
{
	char args[4096], *e;
	snprintf(args, sizeof args, "examples/attention.json --seed 3 --out c='%s'", path("att_in.npy"));
	ck_assert_int_eq(run(args, &e), 0);
	free(e);
	snprintf(args, sizeof args, "tests/interp/data/attention_hoisted_register.json --seed 3 --out c='%s'",
		path("att_out.npy"));
	ck_assert_msg(run(args, &e) == 0, "%s", e);
	free(e);
	size_t n1, n2;
	char *a = read_file(path("att_in.npy"), &n1), *b = read_file(path("att_out.npy"), &n2);
	ck_assert(a && b && n1 == n2 && memcmp(a, b, n1) == 0);
	free(a);
	free(b);
}
END_TEST

/* f8 arguments execute (they reached an internal error in util/dtype.c):
 * a cast of f32 to f8e4m3fnuz, written and read back through .npy; the
 * compiler rejects the kernel at the op instead. */
START_TEST(f8_kernels_run)
{
	char args[4096], *e;
	snprintf(args, sizeof args, "tests/interp/data/cast_f8.json --seed 2 --out b='%s'", path("b8.npy"));
	ck_assert_msg(run(args, &e) == 0, "%s", e);
	free(e);
	NpyArray a;
	char err[256];
	ck_assert_msg(npy_read(path("b8.npy"), &a, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(a.descr, "|u1");
	size_t nonzero = 0;
	for (size_t i = 0; i < a.nbytes; i++)
		nonzero += ((unsigned char *)a.data)[i] != 0 && ((unsigned char *)a.data)[i] != 0x80;
	ck_assert_msg(nonzero > a.nbytes / 2, "%zu of %zu codes are neither 0 nor NaN", nonzero, (size_t)a.nbytes);
	npy_free(&a);
	char cmd[4096];
	/* gfx942 compiles the cast (v_cvt_pk_fp8_f32); gfx90a has no fp8
	 * conversion and says so at the cast */
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' compile tests/interp/data/cast_f8.json --mcpu gfx90a -o '%s'",
		test_root(), test_bin(), path("c8.hsaco"));
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 1 && strstr(r.err, "cast_f8.json:73:5: error: graph[1]: a cast to f8e4m3fnuz needs "
						     "v_cvt_pk_fp8_f32, which gfx90a does not have"),
		"%s", r.err);
	cmd_result_free(&r);

	/* the summary line sums the f8 values too (it printed sum=0 for them):
	 * the sum of the written codes decoded as f8e4m3fnuz */
	ck_assert_msg(npy_read(path("b8.npy"), &a, err, sizeof err) == 0, "%s", err);
	double want = 0;
	for (size_t i = 0; i < a.nbytes; i++)
		want += dtype_load(DT_F8E4M3FNUZ, a.data, i);
	npy_free(&a);
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' interp tests/interp/data/cast_f8.json --seed 2", test_root(), test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	const char *line = strstr(r.out, "b f8e4m3fnuz[");
	ck_assert_msg(line, "%s", r.out);
	const char *sum = strstr(line, "sum=");
	ck_assert_ptr_nonnull(sum);
	double got = strtod(sum + 4, NULL);
	ck_assert_msg(want != 0 && fabs(got - want) <= 1e-6 * fabs(want), "printed sum %g, want %g", got, want);
	cmd_result_free(&r);
}
END_TEST

/* Sizes the interpreter cannot hold are located errors, not overflows or
 * exhausted memory: a tile of 2^62 (ceil_div overflowed; UBSan under
 * check-asan), a workgroup of more than 1024 waves, and tiles far larger
 * than the tensors (the values of one workgroup grew to 5 GB). */
START_TEST(resource_limits_are_located)
{
	static const struct {
		const char *args, *want;
	} cases[] = {
		{"examples/reduce_max.json -D BLOCK_M=4611686018427387904 --seed 1",
			"examples/reduce_max.json:67:5: error: graph[0]: interp: a value of more than"},
		{"examples/copy.json -D BLOCK_N=9223372036854775807 --seed 1", "copy.json:68:5: error: graph[0]: interp:"},
		{"tests/interp/data/many_waves.json --seed 1", "many_waves.json:28:5: error: constraints[2]: interp: N: workgroup tile 4096 over wave tile 1 is 4096 waves: at most 1024"},
		{"examples/decode_attention_phase1.json -D BLOCK_N=65535 --seed 1",
			"the values of one workgroup hold more than 67108864 elements"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char *e;
		ck_assert_msg(run(cases[i].args, &e) == 1 && strstr(e, cases[i].want), "%s: %s", cases[i].args, e);
		free(e);
	}
}
END_TEST

/* A symbol whose value is not an integer is located at the constraint
 * that needs it and names the symbol's definition (dump-graph accepts the
 * file: a symbol may be any expression until something needs its value). */
START_TEST(non_integer_symbols_are_located)
{
	static const struct {
		const char *args, *want;
	} cases[] = {
		{"tests/interp/data/half_tile.json --seed 1",
			"half_tile.json:28:5: error: constraints[2]: interp: 'BLOCK_N' (symbols.BLOCK_N at line 8, column 16) is "
			"1/2, not an integer"},
		{"tests/interp/data/half_tile.json -D BLOCK_N=64 --seed 1", NULL},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char *e;
		int st = run(cases[i].args, &e);
		if (cases[i].want)
			ck_assert_msg(st == 1 && strstr(e, cases[i].want), "%s: %s", cases[i].args, e);
		else
			ck_assert_msg(st == 0, "%s: %s", cases[i].args, e);
		free(e);
	}
}
END_TEST

/* Every error path once -D, --in and --out were given. Under `make
 * check-asan` (leak detection on) a leak prints a LeakSanitizer report on
 * stderr (and changes the exit status), so the checks below also prove
 * that cmd_interp frees what it allocated on each path; the version before
 * issue 9 leaked 384 bytes when the kernel file was missing. */
START_TEST(error_paths_with_every_option)
{
	char args[4096], in[2048];
	snprintf(in, sizeof in, "%s", path("ep_in.npy"));
	write_input(in, 64, 300);
	static const struct {
		const char *fmt;
		int status;
	} cases[] = {
		{"examples/nosuch.json -D N=300 --in a='%s' --out c='%s'", 1},         /* kernel file missing */
		{"examples/add.json -D Q=1 --in a='%s' --out c='%s'", 2},              /* unknown symbol */
		{"examples/add.json -D N=300 --in zz='%s' --out c='%s'", 2},           /* unknown argument */
		{"examples/add.json -D N=7 --in a='%s' --out c='%s'", 1},              /* shape mismatch */
		{"examples/add.json -D N=300 --in a='%s' --out c='%s/no/such/dir/c.npy'", 1}, /* write fails */
		{"examples/add.json -D N=300 --in a='%s' --out c='%s' --bogus", 2},    /* unknown option */
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		snprintf(args, sizeof args, cases[i].fmt, in, i == 4 ? dir : path("ep_out.npy"));
		char *e;
		int st = run(args, &e);
		ck_assert_msg(st == cases[i].status, "'%s': status %d\n%s", args, st, e);
		ck_assert_msg(!strstr(e, "LeakSanitizer"), "%s", e);
		free(e);
		ck_assert(!exists(path("ep_out.npy")));
	}
	/* and the same options on success */
	snprintf(args, sizeof args, "examples/add.json -D N=300 --seed 3 --in a='%s' --out c='%s'", in, path("ep_out.npy"));
	ck_assert_int_eq(run(args, NULL), 0);
	ck_assert(exists(path("ep_out.npy")));
}
END_TEST

int main(void)
{
	dir = test_tmpdir("interp_cli");
	Suite *s = suite_create("interp.cli");
	TCase *tc = tcase_create("cli");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, copy_through_npy_files);
	tcase_add_test(tc, dynamic_symbols_from_D);
	tcase_add_test(tc, random_inputs_are_reproducible);
	tcase_add_test(tc, summary_without_out);
	tcase_add_test(tc, bad_usage_and_bad_input);
	tcase_add_test(tc, unsupported_graph_is_reported_with_location);
	tcase_add_test(tc, error_paths_with_every_option);
	tcase_add_test(tc, resource_limits_are_located);
	tcase_add_test(tc, f8_kernels_run);
	tcase_add_test(tc, register_hoisted_out_of_iterate);
	tcase_add_test(tc, non_integer_symbols_are_located);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
