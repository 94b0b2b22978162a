/* launch_test.c — launch descriptors (loader/runtime/launch.c) and `wavecc run`
 * (loader/runtime/run.c, loader/runtime/hip.c, cli/cmd_run.c): parsing the issue's example,
 * located errors for bad descriptors, -D binding and expressions, end-to-end
 * runs of the skeleton vadd and of the scalar `fill` kernel on the
 * emulator, .npy checks, --random reproducibility, races as warnings or
 * (RunOptions.races_fail, a kernel graph's run) errors, and the HIP backend
 * failing clearly on a machine without an AMD GPU. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../loader/runtime/launch.h"
#include "../../test.h"

/* Parse `text` as FILE "t.json"; return the diagnostics printed. */
static char *parse_msgs(const char *text, int ndefs, const char *const *defs, int *result)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	Diag d;
	diag_init(&d);
	d.out = f;
	LaunchDesc ld;
	int r = launch_parse(text, strlen(text), "dir/t.json", &ld, &d);
	if (r == 0)
		r = launch_resolve(&ld, ndefs, defs, &d);
	launch_free(&ld);
	fclose(f);
	*result = r;
	return buf;
}

static const char *ISSUE_EXAMPLE =
	"{\"format\": \"wavecc-launch/1\", \"code_object\": \"gemm.hsaco\", \"kernel\": \"gemm\", \"arch\": \"gfx942\",\n"
	" \"workgroup_size\": [256, 1, 1], \"grid\": [16, 8, 1], \"lds_bytes\": 17408, \"kernarg_size\": 20,\n"
	" \"args\": [{\"name\": \"A\", \"kind\": \"buffer\", \"dtype\": \"f16\", \"shape\": [1024, \"K\"], \"offset\": 0, "
	"\"access\": \"read\"},\n"
	"          {\"name\": \"C\", \"kind\": \"buffer\", \"dtype\": \"f32\", \"shape\": [1024, 1024], \"offset\": 8, "
	"\"access\": \"write\"},\n"
	"          {\"name\": \"K\", \"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 16}]}\n";

START_TEST(parse_issue_example)
{
	Diag diag;
	diag_init(&diag);
	LaunchDesc d;
	ck_assert_int_eq(launch_parse(ISSUE_EXAMPLE, strlen(ISSUE_EXAMPLE), "some/dir/gemm.json", &d, &diag), 0);
	ck_assert_str_eq(d.code_object_path, "some/dir/gemm.hsaco");
	ck_assert_str_eq(d.kernel, "gemm");
	ck_assert_uint_eq(d.workgroup_size[0], 256);
	ck_assert_int_eq(d.grid[1].value, 8);
	ck_assert_uint_eq(d.lds_bytes, 17408);
	ck_assert_uint_eq(d.nargs, 3);
	ck_assert_str_eq(d.args[0].shape[1].expr, "K");
	ck_assert_int_eq(d.args[1].access, ACC_WRITE);
	ck_assert_int_eq(d.args[2].kind, LARG_SCALAR);
	const char *defs[] = {"K=640"};
	ck_assert_int_eq(launch_resolve(&d, 1, defs, &diag), 0);
	ck_assert_int_eq(d.args[0].shape[1].value, 640);
	ck_assert_uint_eq(d.args[0].count, 1024 * 640);
	ck_assert_uint_eq(d.args[0].nbytes, 1024 * 640 * 2);
	ck_assert(d.args[2].value == 640);
	launch_free(&d);
}
END_TEST

START_TEST(i1_buffer_is_a_byte_each)
{
	/* a kernel's i1 memory argument (Wave's Memory[M, N, ..., i1], the
	 * comparison results of lit codegen.py's test_float_comparisons) is a
	 * buffer of one byte per element: the compiler's descriptor loads */
	const char *text =
		"{\"format\": \"wavecc-launch/1\", \"code_object\": \"k.hsaco\", \"kernel\": \"k\", \"arch\": \"gfx942\",\n"
		" \"workgroup_size\": [64, 1, 1], \"grid\": [1, 1, 1], \"lds_bytes\": 0, \"kernarg_size\": 8,\n"
		" \"args\": [{\"name\": \"c\", \"kind\": \"buffer\", \"dtype\": \"i1\", \"shape\": [16, 16], \"offset\": 0, "
		"\"access\": \"write\"}]}\n";
	Diag diag;
	diag_init(&diag);
	LaunchDesc d;
	ck_assert_int_eq(launch_parse(text, strlen(text), "t.json", &d, &diag), 0);
	ck_assert_int_eq(launch_resolve(&d, 0, NULL, &diag), 0);
	ck_assert_int_eq(d.args[0].dtype, DT_I1);
	ck_assert_uint_eq(d.args[0].nbytes, 256);
	launch_free(&d);
}
END_TEST

/* Every fp8 encoding a kernel's memory may hold (gfx942's FNUZ, gfx950's
 * OCP) is a buffer of one byte per element: an f8e4m3fn memory compiled for
 * gfx950 wrote a descriptor the loader refused ("the compiler wrote a launch
 * descriptor that does not load"). */
START_TEST(f8_buffers_load)
{
	static const struct {
		const char *name;
		DType dt;
	} k[] = {{"f8e4m3fnuz", DT_F8E4M3FNUZ}, {"f8e5m2fnuz", DT_F8E5M2FNUZ}, {"f8e4m3fn", DT_F8E4M3FN},
		{"f8e5m2", DT_F8E5M2}};
	for (size_t i = 0; i < ARRAY_LEN(k); i++) {
		char text[512];
		snprintf(text, sizeof text,
			"{\"format\": \"wavecc-launch/1\", \"code_object\": \"k.hsaco\", \"kernel\": \"k\", "
			"\"arch\": \"gfx950\", \"workgroup_size\": [64, 1, 1], \"grid\": [1, 1, 1], \"lds_bytes\": 0, "
			"\"kernarg_size\": 8, \"args\": [{\"name\": \"c\", \"kind\": \"buffer\", \"dtype\": \"%s\", "
			"\"shape\": [16, 8], \"offset\": 0, \"access\": \"write\"}]}\n",
			k[i].name);
		Diag diag;
		diag_init(&diag);
		LaunchDesc d;
		ck_assert_msg(launch_parse(text, strlen(text), "t.json", &d, &diag) == 0, "%s", k[i].name);
		ck_assert_int_eq(launch_resolve(&d, 0, NULL, &diag), 0);
		ck_assert_int_eq(d.args[0].dtype, k[i].dt);
		ck_assert_uint_eq(d.args[0].nbytes, 128);
		launch_free(&d);
	}
}
END_TEST

START_TEST(expressions_and_bindings)
{
	const char *t = "{\"format\": \"wavecc-launch/1\", \"code_object\": \"k.hsaco\", \"kernel\": \"k\", \"arch\": "
			"\"gfx942\", \"workgroup_size\": [64, 1, 1], \"grid\": [\"ceiling(M / 64)\", \"(N + 63) // 64\", "
			"\"B*2 - 1\"], \"lds_bytes\": 0, \"kernarg_size\": 16, \"args\": [{\"name\": \"x\", \"kind\": "
			"\"buffer\", \"dtype\": \"bf16\", \"shape\": [\"M\", \"N - 1\"], \"offset\": 0, \"access\": "
			"\"readwrite\"}, {\"name\": \"B\", \"kind\": \"scalar\", \"dtype\": \"u32\", \"offset\": 8, \"value\": 3}, "
			"{\"name\": \"alpha\", \"kind\": \"scalar\", \"dtype\": \"f32\", \"offset\": 12, \"value\": 0.5}]}";
	Diag diag;
	diag_init(&diag);
	LaunchDesc d;
	ck_assert_int_eq(launch_parse(t, strlen(t), "t.json", &d, &diag), 0);
	const char *defs[] = {"M=100", "N=0x41", "alpha=-2.25"};
	ck_assert_int_eq(launch_resolve(&d, 3, defs, &diag), 0);
	ck_assert_int_eq(d.grid[0].value, 2);
	ck_assert_int_eq(d.grid[1].value, 2);
	ck_assert_int_eq(d.grid[2].value, 5); /* B from its "value" */
	ck_assert_int_eq(d.args[0].shape[1].value, 64);
	ck_assert(d.args[2].value == -2.25);
	launch_free(&d);
}
END_TEST

/* Each bad descriptor must fail with this exact location and text. */
START_TEST(bad_descriptors_located)
{
	static const struct {
		const char *text;
		const char *defs;
		const char *want;
	} cases[] = {
		{"{\"format\": \"wavecc-launch/1\",\n \"kernel\": 3}", NULL, "dir/t.json:2:12: error: kernel: expected a string, got an integer"},
		{"{\"format\": \"wavecc-launch/1\"}", NULL, "dir/t.json:1:1: error: (document): missing field 'code_object'"},
		{"{\"format\": \"wavecc-launch/2\"}", NULL, "dir/t.json:1:12: error: format: unsupported format \"wavecc-launch/2\""},
		{"{\"format\": \"wavecc-launch/1\",\n  \"grid\": [1, 2]", NULL, "dir/t.json:2:16: error: invalid JSON: '}' expected"},
		{"[1]", NULL, "dir/t.json:1:1: error: (document): a launch descriptor is a JSON object, got an array"},
		{"{\"format\": 1, \"format\": 2}", NULL, "dir/t.json:1:"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		int r;
		char *m = parse_msgs(cases[i].text, 0, NULL, &r);
		ck_assert_msg(r == -1, "case %zu accepted", i);
		ck_assert_msg(strstr(m, cases[i].want), "case %zu: got '%s', want '%s'", i, m, cases[i].want);
		free(m);
	}
}
END_TEST

static char *variant(const char *from, const char *to)
{
	const char *base = ISSUE_EXAMPLE;
	const char *p = strstr(base, from);
	ck_assert_msg(p != NULL, "'%s' not in the example", from);
	Buf b = {0};
	buf_putn(&b, base, (size_t)(p - base));
	buf_puts(&b, to);
	buf_puts(&b, p + strlen(from));
	return (char *)buf_cstr(&b);
}

START_TEST(bad_fields_located)
{
	static const struct {
		const char *from, *to, *want;
	} cases[] = {
		{"\"dtype\": \"f16\"", "\"dtype\": \"f7\"", "dir/t.json:3:52: error: args[0].dtype: unsupported dtype \"f7\""},
		{"\"kind\": \"buffer\", \"dtype\": \"f16\"", "\"kind\": \"tensor\", \"dtype\": \"f16\"",
		 "args[0].kind: unknown kind \"tensor\""},
		{"[1024, \"K\"]", "[1024, \"K +\"]", "dir/t.json:3:79: error: args[0].shape[1]: bad expression \"K +\""},
		{"[1024, \"K\"]", "[1024, -1]", "args[0].shape[1]: must not be negative"},
		{"[1024, \"K\"]", "[1024, 2.5]", "args[0].shape[1]: expected an integer or an expression string, got a number"},
		{"\"offset\": 8", "\"offset\": 4", "args[1].offset: offset 4 of \"C\" is not a multiple of its size 8"},
		{"\"offset\": 16", "\"offset\": 20", "args[2].offset: \"K\" (bytes 20..23) does not fit in kernarg_size 20"},
		{"\"offset\": 16", "\"offset\": 12", "args[2].offset: \"K\" overlaps \"C\" in the kernarg segment"},
		{"\"name\": \"C\"", "\"name\": \"A\"", "args[1].name: duplicate argument name \"A\""},
		{"\"access\": \"write\"", "\"access\": \"rw\"", "args[1].access: unknown access \"rw\""},
		{", \"access\": \"write\"", "", "dir/t.json:4:11: error: args[1]: missing field 'access'"},
		{"[256, 1, 1]", "[256, 8, 1]", "workgroup_size: 2048 work-items per workgroup; at most 1024"},
		{"[256, 1, 1]", "[256, 0, 1]", "workgroup_size[1]: 0 is out of range [1, 1024]"},
		{"[16, 8, 1]", "[16, 8]", "grid: expected an array of 3 entries"},
		{"\"lds_bytes\": 17408", "\"lds_bytes\": 170000", "lds_bytes: 170000 is out of range [0, 163840]"},
		{"\"arch\": \"gfx942\"", "\"arch\": \"gfx1100\"", "arch: unknown arch \"gfx1100\""},
		{"\"offset\": 16}", "\"offset\": 16, \"shape\": [2]}", "args[2].shape: a scalar has no shape"},
		{"\"offset\": 16}", "\"offset\": 16, \"value\": \"x\"}", "args[2].value: expected a number, got a string"},
		{"\"offset\": 16}", "\"offset\": 16, \"value\": 1.5}", "args[2].value: a real number for an integer scalar"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char *t = variant(cases[i].from, cases[i].to);
		int r;
		const char *defs[] = {"K=64"};
		char *m = parse_msgs(t, 1, defs, &r);
		ck_assert_msg(r == -1, "case %zu accepted", i);
		ck_assert_msg(strstr(m, cases[i].want), "case %zu: got '%s', want '%s'", i, m, cases[i].want);
		free(m);
		free(t);
	}
}
END_TEST

/* The LDS split: static_lds_bytes and dynamic_lds_bytes beside (or, with
 * the dynamic part, instead of) lds_bytes; the first revision's files
 * have lds_bytes alone and mean static + dynamic. */
START_TEST(lds_split)
{
	static const struct {
		const char *to;
		uint32_t total;
		int64_t st, dyn;
	} ok[] = {
		{"\"lds_bytes\": 17408", 17408, -1, -1},
		{"\"lds_bytes\": 17408, \"static_lds_bytes\": 16384, \"dynamic_lds_bytes\": 1024", 17408, 16384, 1024},
		{"\"static_lds_bytes\": 16384, \"dynamic_lds_bytes\": 1024", 17408, 16384, 1024},
		{"\"dynamic_lds_bytes\": 1024", 0, -1, 1024},
		{"\"lds_bytes\": 17408, \"static_lds_bytes\": 16384", 17408, 16384, -1},
	};
	for (size_t i = 0; i < ARRAY_LEN(ok); i++) {
		char *t = variant("\"lds_bytes\": 17408", ok[i].to);
		Diag diag;
		diag_init(&diag);
		LaunchDesc d;
		ck_assert_msg(launch_parse(t, strlen(t), "t.json", &d, &diag) == 0, "case %zu", i);
		ck_assert_uint_eq(d.lds_bytes, ok[i].total);
		ck_assert_int_eq(d.static_lds, ok[i].st);
		ck_assert_int_eq(d.dynamic_lds, ok[i].dyn);
		/* the dynamic LDS a launch passes, for a kernel of 16384 static bytes */
		Buf msg = {0};
		ck_assert_int_eq(launch_dynamic_lds(&d, 16384, &msg), 1024);
		buf_free(&msg);
		launch_free(&d);
		free(t);
	}
	static const struct {
		const char *to, *want;
	} bad[] = {
		{"\"lds_bytes\": 17408, \"static_lds_bytes\": 16384, \"dynamic_lds_bytes\": 2048",
			"lds_bytes: 17408 is not static_lds_bytes + dynamic_lds_bytes (16384 + 2048)"},
		{"\"static_lds_bytes\": 163840, \"dynamic_lds_bytes\": 1",
			"dynamic_lds_bytes: static 163840 + dynamic 1 bytes of LDS: at most 163840"},
		{"\"lds_bytes\": 1024, \"static_lds_bytes\": 2048", "static_lds_bytes: static_lds_bytes 2048 is more than"},
		{"\"static_lds_bytes\": 16384", "missing field 'lds_bytes'"},
		{"\"lds_bytes\": 17408, \"dynamic_lds_bytes\": -1", "dynamic_lds_bytes: -1 is out of range"},
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		char *t = variant("\"lds_bytes\": 17408", bad[i].to);
		int r;
		const char *defs[] = {"K=64"};
		char *m = parse_msgs(t, 1, defs, &r);
		ck_assert_msg(r == -1, "case %zu accepted", i);
		ck_assert_msg(strstr(m, bad[i].want), "case %zu: got '%s', want '%s'", i, m, bad[i].want);
		free(m);
		free(t);
	}
	/* against the kernel's static LDS */
	Diag diag;
	diag_init(&diag);
	LaunchDesc d;
	char *t = variant("\"lds_bytes\": 17408", "\"static_lds_bytes\": 16384, \"dynamic_lds_bytes\": 1024");
	ck_assert_int_eq(launch_parse(t, strlen(t), "t.json", &d, &diag), 0);
	Buf msg = {0};
	ck_assert_int_eq(launch_dynamic_lds(&d, 8192, &msg), -1);
	ck_assert_msg(strstr(buf_cstr(&msg), "static_lds_bytes: 16384 is not the static LDS of kernel 'gemm' (8192 bytes)"),
		"%s", buf_cstr(&msg));
	buf_free(&msg);
	launch_free(&d);
	free(t);
}
END_TEST

START_TEST(unbound_and_bad_bindings)
{
	int r;
	char *m = parse_msgs(ISSUE_EXAMPLE, 0, NULL, &r);
	ck_assert_int_eq(r, -1);
	ck_assert_msg(strstr(m, "dir/t.json:3:75: error: args[0].shape[1]: unbound symbol 'K' in \"K\" (bind it with -D "
				"K=VALUE)"),
		      "%s", m);
	ck_assert_ptr_nonnull(strstr(m, "args[2]: scalar 'K' has no value"));
	free(m);
	char *t = variant("[16, 8, 1]", "[\"M // 128\", 8, 1]");
	const char *d1[] = {"K=64"};
	m = parse_msgs(t, 1, d1, &r);
	ck_assert_int_eq(r, -1);
	ck_assert_ptr_nonnull(strstr(m, "grid[0]: unbound symbol 'M'"));
	free(m);
	const char *d2[] = {"K=64", "M=64"}; /* 64 // 128 = 0 workgroups: an empty launch */
	m = parse_msgs(t, 2, d2, &r);
	ck_assert_int_eq(r, 0);
	free(m);
	const char *d2b[] = {"K=64", "M=-256"}; /* a negative count is still an error */
	m = parse_msgs(t, 2, d2b, &r);
	ck_assert_int_eq(r, -1);
	ck_assert_msg(strstr(m, "grid[0]: \"M // 128\" evaluates to -2, not a non-negative integer"), "%s", m);
	free(m);
	const char *d3[] = {"K=abc", "M=128"};
	m = parse_msgs(t, 2, d3, &r);
	ck_assert_int_eq(r, -1);
	ck_assert_ptr_nonnull(strstr(m, "-D: error: K=abc: the value is not an integer"));
	free(m);
	const char *d4[] = {"K", "M=128"};
	m = parse_msgs(t, 2, d4, &r);
	ck_assert_ptr_nonnull(strstr(m, "'K' is not NAME=VALUE"));
	free(m);
	const char *d5[] = {"K=64", "M=128", "A=3"};
	m = parse_msgs(t, 3, d5, &r);
	ck_assert_ptr_nonnull(strstr(m, "A names a buffer argument"));
	free(m);
	const char *d7[] = {"K=3000000000", "M=128"}; /* K is an i32 scalar */
	m = parse_msgs(t, 2, d7, &r);
	ck_assert_ptr_nonnull(strstr(m, "args[2]: 3000000000 does not fit scalar 'K' of type i32"));
	free(m);
	const char *d6[] = {"K=64", "M=100"}; /* 100/128 is not whole: // floors to 0 */
	free(t);
	t = variant("[16, 8, 1]", "[\"M / 128\", 8, 1]");
	m = parse_msgs(t, 2, d6, &r);
	ck_assert_ptr_nonnull(strstr(m, "evaluates to 25/32, not a non-negative integer"));
	free(m);
	free(t);
}
END_TEST

/* ---- wavecc run ---- */

static const char *setup_vadd(const char *tag)
{
	const char *dir = test_tmpdir(tag);
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "%s as '%s/tests/asm/data/vadd_gfx942.s' -o '%s/vadd.hsaco' && cp '%s/tests/loader/data/vadd.json' '%s/'",
		 test_bin(), test_root(), dir, test_root(), dir);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	return dir;
}

static CmdResult wrun(const char *dir, const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && %s run vadd.json %s", dir, test_bin(), args);
	return run_cmd(cmd, NULL);
}

START_TEST(run_vadd_on_emulator)
{
	const char *dir = setup_vadd("run_vadd");
	char path[1024], err[512];
	int64_t shape[1] = {256};
	float a[256], b[256];
	for (int i = 0; i < 256; i++) {
		a[i] = (float)i * 0.25f - 7.0f;
		b[i] = 1.0f / (float)(i + 1);
	}
	snprintf(path, sizeof path, "%s/a.npy", dir);
	ck_assert_int_eq(npy_write(path, DT_F32, 1, shape, a, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/b.npy", dir);
	ck_assert_int_eq(npy_write(path, DT_F32, 1, shape, b, err, sizeof err), 0);
	CmdResult r = wrun(dir, "-D N=256 --in a=a.npy --in b=b.npy --out c=c.npy");
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof path, "%s/c.npy", dir);
	NpyArray c;
	ck_assert_int_eq(npy_read(path, &c, err, sizeof err), 0);
	ck_assert_int_eq(npy_check(&c, "c", DT_F32, 1, shape, err, sizeof err), 0);
	for (int i = 0; i < 256; i++)
		ck_assert_msg(((float *)c.data)[i] == a[i] + b[i], "c[%d] = %g, want %g", i, ((float *)c.data)[i],
			      a[i] + b[i]);
	npy_free(&c);
	/* too small a grid leaves the tail zero; an out-of-range grid is caught */
	r = wrun(dir, "-D N=256 --in a=a.npy --in b=b.npy --out c=c.npy --max-instructions 5");
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "wavecc: error: emulator: "));
	cmd_result_free(&r);
}
END_TEST

START_TEST(run_random_is_reproducible)
{
	const char *dir = setup_vadd("run_random");
	CmdResult r = wrun(dir, "-D N=128 --random 7 --out a=a1.npy --out c=c1.npy");
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	r = wrun(dir, "-D N=128 --random 7 --out a=a2.npy --out c=c2.npy");
	ck_assert_int_eq(r.status, 0);
	cmd_result_free(&r);
	r = wrun(dir, "-D N=128 --random 8 --out a=a3.npy");
	ck_assert_int_eq(r.status, 0);
	cmd_result_free(&r);
	r = wrun(dir, "-D N=128 --out a=a4.npy");
	ck_assert_int_eq(r.status, 0);
	cmd_result_free(&r);
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "cd '%s' && cmp a1.npy a2.npy && cmp c1.npy c2.npy && ! cmp -s a1.npy a3.npy", dir);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	cmd_result_free(&r);
	/* values in [-1, 1), not all equal; without --random: zeros */
	char path[1024], err[256];
	snprintf(path, sizeof path, "%s/a1.npy", dir);
	NpyArray a;
	ck_assert_int_eq(npy_read(path, &a, err, sizeof err), 0);
	float lo = 1, hi = -1;
	for (int i = 0; i < 128; i++) {
		float v = ((float *)a.data)[i];
		ck_assert(v >= -1.0f && v < 1.0f);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	ck_assert(hi - lo > 0.5f);
	npy_free(&a);
	snprintf(path, sizeof path, "%s/a4.npy", dir);
	ck_assert_int_eq(npy_read(path, &a, err, sizeof err), 0);
	for (int i = 0; i < 128; i++)
		ck_assert(((float *)a.data)[i] == 0.0f);
	npy_free(&a);
}
END_TEST

START_TEST(run_scalar_kernel)
{
	const char *dir = test_tmpdir("run_fill");
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && %s as '%s/tests/asm/data/two_kernels_gfx942.s' -o two.hsaco && "
		 "printf '%%s' '{\"format\": \"wavecc-launch/1\", \"code_object\": \"two.hsaco\", \"kernel\": \"fill\", "
		 "\"arch\": \"gfx942\", \"workgroup_size\": [64, 1, 1], \"grid\": [\"ceiling(N / 64)\", 1, 1], "
		 "\"lds_bytes\": 0, \"kernarg_size\": 12, \"args\": [{\"name\": \"out\", \"kind\": \"buffer\", "
		 "\"dtype\": \"i32\", \"shape\": [\"N\"], \"offset\": 0, \"access\": \"write\"}, {\"name\": \"value\", "
		 "\"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 8, \"value\": -3}]}' > fill.json && "
		 "%s run fill.json -D N=128 -D value=41 --out out=o.npy",
		 dir, test_bin(), test_root(), test_bin());
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	char path[1024], err[256];
	snprintf(path, sizeof path, "%s/o.npy", dir);
	NpyArray o;
	ck_assert_int_eq(npy_read(path, &o, err, sizeof err), 0);
	ck_assert_uint_eq(o.count, 128);
	for (int i = 0; i < 128; i++)
		ck_assert_int_eq(((int32_t *)o.data)[i], 41);
	npy_free(&o);
	/* N=100 rounds the grid up: fill has no bounds check, so the emulator
	 * reports the store past the buffer */
	snprintf(cmd, sizeof cmd, "cd '%s' && %s run fill.json -D N=100", dir, test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "emulator: "));
	cmd_result_free(&r);
}
END_TEST

START_TEST(run_bad_inputs)
{
	const char *dir = setup_vadd("run_bad");
	char path[1024], err[512];
	int64_t s64[1] = {64}, s8[1] = {8};
	double d[64] = {0};
	snprintf(path, sizeof path, "%s/f64.npy", dir);
	ck_assert_int_eq(npy_write(path, DT_F64, 1, s64, d, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/short.npy", dir);
	ck_assert_int_eq(npy_write(path, DT_F32, 1, s8, d, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/junk.npy", dir);
	ck_assert_int_eq(write_file_atomic(path, "not npy", 7, 0644), 0);
	snprintf(path, sizeof path, "%s/fifo", dir);
	unlink(path);
	ck_assert_int_eq(mkfifo(path, 0644), 0);
	static const struct {
		const char *args;
		int status;
		const char *want;
	} cases[] = {
		{"-D N=64 --in a=f64.npy", 1,
		 "--in a: f64.npy: dtype mismatch: expected f32 (descr '<f4'), the file has descr '<f8'"},
		{"-D N=64 --in b=short.npy", 1, "--in b: short.npy: shape mismatch: expected (64,), the file has (8,)"},
		{"-D N=64 --in a=junk.npy", 1, "junk.npy: not a .npy file"},
		{"-D N=64 --in a=missing.npy", 1, "missing.npy: cannot read"},
		/* mistakes on the command line are bad usage, exit 2 (issue 9) */
		{"-D N=64 --in z=short.npy", 2, "--in z=short.npy: no buffer argument of that name"},
		{"-D N=64 --out q=o.npy", 2, "--out q=o.npy: no buffer argument of that name"},
		{"-D N=64 --in a", 2, "--in a: expected NAME=FILE.npy"},
		{"", 2, "vadd.json:2:41: grid[0]: unbound symbol 'N'"},
		/* never read without a bound: devices, FIFOs, directories */
		{"-D N=64 --in a=/dev/zero", 1, "--in a: /dev/zero: cannot read: not a regular file (a character device)"},
		{"-D N=64 --in a=fifo", 1, "--in a: fifo: cannot read: not a regular file (a FIFO)"},
		{"-D N=64 --in a=.", 1, "--in a: .: cannot read: not a regular file (a directory)"},
		{"-D N=64 --backend cuda", 2, "unknown backend 'cuda'"},
		{"-D N=64 --bogus", 2, "unknown option '--bogus'"},
		{"-D N=64 --max-instructions 0", 2, "positive"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		CmdResult r = wrun(dir, cases[i].args);
		ck_assert_msg(r.status == cases[i].status, "case %zu: status %d: %s", i, r.status, r.err);
		ck_assert_msg(strstr(r.err, cases[i].want), "case %zu: '%s' lacks '%s'", i, r.err, cases[i].want);
		cmd_result_free(&r);
	}
	/* a failed run writes no output */
	struct stat st;
	snprintf(path, sizeof path, "%s/o.npy", dir);
	ck_assert_int_ne(stat(path, &st), 0);
	/* arch mismatch, missing kernel, missing code object */
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && sed 's/gfx942/gfx90a/' vadd.json > arch.json && sed 's/\"vadd\"/\"vsub\"/' vadd.json > "
		 "kern.json && sed 's/vadd.hsaco/none.hsaco/' vadd.json > co.json && "
		 "sed 's|vadd.hsaco|/dev/zero|' vadd.json > zero.json && mkdir -p sub && ln -sf /dev/zero sub/z.json && "
		 "printf '{\"format\": \"wavecc-kernel/1\"}' > graph.json",
		 dir);
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	cmd_result_free(&r);
	static const struct {
		const char *file, *want;
	} files[] = {
		{"arch.json", "arch.json:1:86: error: arch: gfx90a but ./vadd.hsaco is built for gfx942"},
		{"kern.json", "kern.json:1:70: error: kernel: no kernel 'vsub' in ./vadd.hsaco (it has: vadd)"},
		{"co.json", "co.json:1:46: error: code_object: ./none.hsaco: cannot read"},
		{"zero.json", "zero.json:1:46: error: code_object: /dev/zero: cannot read: not a regular file (a character device)"},
		{"sub/z.json", "sub/z.json: error: cannot read: not a regular file (a character device)"},
		{"graph.json", "graph.json:1:1: error: (document): missing field"}, /* compiled, so loaded as a graph */
	};
	for (size_t i = 0; i < ARRAY_LEN(files); i++) {
		snprintf(cmd, sizeof cmd, "cd '%s' && %s run ./%s -D N=64", dir, test_bin(), files[i].file);
		r = run_cmd(cmd, NULL);
		ck_assert_msg(r.status == 1, "%s: status %d", files[i].file, r.status);
		ck_assert_msg(strstr(r.err, files[i].want), "'%s' lacks '%s'", r.err, files[i].want);
		/* one form: the compiler's, never after a "wavecc: error:" */
		ck_assert_msg(!strstr(r.err, "wavecc: error:"), "%s", r.err);
		cmd_result_free(&r);
	}
}
END_TEST

/* Run-time checks of a descriptor against its code object: the workgroup
 * size the code object requires or allows, and its static LDS. Each is a
 * located error (FILE:LINE:COL and the JSON path), exit 1, nothing run. The
 * variants of vadd are made by editing its assembly. */
START_TEST(run_checks_against_code_object)
{
	const char *dir = setup_vadd("run_checks");
	char cmd[8192];
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && S='%s/tests/asm/data/vadd_gfx942.s' && "
		 "sed 's/\\.amdhsa_kernarg_size 24/&\\n\\t\\t.amdhsa_group_segment_fixed_size 256/' \"$S\" > lds.s && "
		 "sed 's/\\.max_flat_workgroup_size: 64/.max_flat_workgroup_size: 256\\n    .reqd_workgroup_size: [ 64, 1, 1 ]/' "
		 "\"$S\" > reqd.s && %s as lds.s -o lds.hsaco && %s as reqd.s -o reqd.hsaco && "
		 "sed 's/vadd.hsaco/lds.hsaco/' vadd.json > lds.json && "
		 "sed 's/vadd.hsaco/reqd.hsaco/; s/\\[64, 1, 1\\]/[32, 1, 1]/' vadd.json > reqd.json && "
		 "sed 's/\\[64, 1, 1\\]/[128, 1, 1]/; s|N // 64|N // 128|' vadd.json > big.json && "
		 "sed 's/vadd.hsaco/lds.hsaco/; s/\"lds_bytes\": 0/\"static_lds_bytes\": 128, \"dynamic_lds_bytes\": 0/' "
		 "vadd.json > split.json",
		 dir, test_root(), test_bin(), test_bin());
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	static const struct {
		const char *file, *want;
	} files[] = {
		{"lds.json", "lds.json:2:72: error: lds_bytes: 0 is less than the static LDS of kernel 'vadd' (256 bytes)"},
		{"reqd.json", "reqd.json:2:20: error: workgroup_size: [32, 1, 1] but kernel 'vadd' in ./reqd.hsaco requires "
			      "[64, 1, 1] (.reqd_workgroup_size)"},
		{"big.json", "big.json:2:20: error: workgroup_size: 128 work-items but kernel 'vadd' in ./vadd.hsaco allows at most "
			     "64 (.max_flat_workgroup_size)"},
		{"split.json", "split.json:2:79: error: static_lds_bytes: 128 is not the static LDS of kernel 'vadd' (256 bytes)"},
	};
	for (size_t i = 0; i < ARRAY_LEN(files); i++) {
		snprintf(cmd, sizeof cmd, "cd '%s' && %s run ./%s -D N=256 --out c=c.npy", dir, test_bin(), files[i].file);
		r = run_cmd(cmd, NULL);
		ck_assert_msg(r.status == 1, "%s: status %d: %s", files[i].file, r.status, r.err);
		ck_assert_msg(strstr(r.err, files[i].want), "'%s' lacks '%s'", r.err, files[i].want);
		ck_assert_msg(!strstr(r.err, "wavecc: error:"), "%s", r.err);
		cmd_result_free(&r);
	}
	char path[1024];
	struct stat st;
	snprintf(path, sizeof path, "%s/c.npy", dir);
	ck_assert_int_ne(stat(path, &st), 0);
	/* the same code object with a matching descriptor runs */
	snprintf(cmd, sizeof cmd, "cd '%s' && sed 's/vadd.hsaco/reqd.hsaco/' vadd.json > ok.json && %s run ./ok.json -D N=256",
		 dir, test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	/* the kernel with static LDS, its dynamic LDS alone given */
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && sed 's/vadd.hsaco/lds.hsaco/; s/\"lds_bytes\": 0/\"dynamic_lds_bytes\": 512/' vadd.json > dyn.json && "
		 "%s run ./dyn.json -D N=256",
		 dir, test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
}
END_TEST

/* Buffers past the documented limits (launch.h: 4 GiB each, 8 GiB in all)
 * are located errors at the shape, not an out-of-memory abort. */
START_TEST(run_buffer_limits)
{
	const char *dir = setup_vadd("run_limits");
	static const struct {
		const char *args, *want;
	} cases[] = {
		{"-D N=34359738368", "vadd.json:3:69: error: args[0].shape: buffer 'a' ([34359738368] of f32) would take more "
				     "than the limit of 4 GiB"},
		{"-D N=1073741824", "vadd.json:5:69: error: args[2].shape: with buffer 'c' the launch needs 12884901888 bytes "
				    "of buffers; the limit is 8 GiB"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		CmdResult r = wrun(dir, cases[i].args);
		ck_assert_msg(r.status == 1, "case %zu: status %d: %s", i, r.status, r.err);
		ck_assert_msg(strstr(r.err, cases[i].want), "case %zu: '%s' lacks '%s'", i, r.err, cases[i].want);
		cmd_result_free(&r);
	}
}
END_TEST

/* Our link and ld.lld-19's link of the same object run to the same result,
 * and the gfx90a build runs too. */
START_TEST(run_ours_lld_and_gfx90a_agree)
{
	if (!test_need("launch: run_lld", "ld.lld-19"))
		return;
	const char *dir = setup_vadd("run_lld");
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj "
		 "'%s/tests/asm/data/vadd_gfx942.s' -o v.o && ld.lld-19 -shared v.o -o lld.hsaco && "
		 "sed 's/vadd.hsaco/lld.hsaco/' vadd.json > lld.json && "
		 "%s as --mcpu gfx90a '%s/tests/asm/data/vadd_gfx90a.s' -o v90.hsaco && "
		 "sed 's/vadd.hsaco/v90.hsaco/; s/gfx942/gfx90a/' vadd.json > v90.json && "
		 "%s run vadd.json -D N=512 --random 5 --out c=ours.npy && "
		 "%s run lld.json -D N=512 --random 5 --out c=lld.npy && "
		 "%s run v90.json -D N=512 --random 5 --out c=v90.npy && "
		 "%s run vadd.json -D N=512 --random 5 --out a=a.npy --out b=b.npy && "
		 "cmp ours.npy lld.npy && cmp ours.npy v90.npy",
		 dir, test_root(), test_bin(), test_root(), test_bin(), test_bin(), test_bin(), test_bin());
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_msg(r.status == 0, "%s %s", r.out, r.err);
	cmd_result_free(&r);
	/* and the result is a + b, not e.g. all zeros */
	NpyArray a, b, c;
	char path[1024], err[256];
	snprintf(path, sizeof path, "%s/a.npy", dir);
	ck_assert_int_eq(npy_read(path, &a, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/b.npy", dir);
	ck_assert_int_eq(npy_read(path, &b, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/lld.npy", dir);
	ck_assert_int_eq(npy_read(path, &c, err, sizeof err), 0);
	int nonzero = 0;
	for (int i = 0; i < 512; i++) {
		float x = ((float *)a.data)[i], y = ((float *)b.data)[i], z = ((float *)c.data)[i];
		ck_assert(z == x + y);
		nonzero += z != 0;
	}
	ck_assert_int_gt(nonzero, 500);
	npy_free(&a);
	npy_free(&b);
	npy_free(&c);
}
END_TEST

/* Our GEMM with the s_barrier between its LDS writes and reads removed,
 * run in memory with the race detector: a warning and success for a
 * launch descriptor, an error and -2 when races fail the run (as
 * `wavecc run K.json` asks); no race with the barrier kept. */
START_TEST(races_warn_or_fail)
{
	const char *dir = test_tmpdir("run_races");
	char s_path[1024], l_path[1024], o_path[1024], cmd[4096];
	snprintf(s_path, sizeof s_path, "%s/g.s", dir);
	snprintf(l_path, sizeof l_path, "%s/g.launch.json", dir);
	snprintf(o_path, sizeof o_path, "%s/g.hsaco", dir);
	for (int racy = 0; racy < 2; racy++) {
		snprintf(cmd, sizeof cmd, "cd '%s' && %s compile examples/gemm_16x16x16.json -S -o '%s' --launch '%s'",
			 test_root(), test_bin(), s_path, l_path);
		CmdResult r = run_cmd(cmd, NULL);
		ck_assert_msg(r.status == 0, "%s", r.err);
		cmd_result_free(&r);
		if (racy) { /* the second s_barrier goes */
			size_t n;
			char *t = read_file(s_path, &n);
			char *at = strstr(t, "\ts_barrier\n");
			ck_assert_ptr_nonnull(at);
			at = strstr(at + 1, "\ts_barrier\n");
			ck_assert_ptr_nonnull(at);
			memmove(at, at + strlen("\ts_barrier\n"), strlen(at + strlen("\ts_barrier\n")) + 1);
			FILE *f = fopen(s_path, "w");
			fputs(t, f);
			fclose(f);
			free(t);
		}
		snprintf(cmd, sizeof cmd, "%s as '%s' -o '%s'", test_bin(), s_path, o_path);
		r = run_cmd(cmd, NULL);
		ck_assert_msg(r.status == 0, "%s", r.err);
		cmd_result_free(&r);
		Diag d;
		diag_init(&d);
		LaunchDesc ld;
		ck_assert_int_eq(launch_parse_file(l_path, &ld, &d), 0);
		ck_assert_int_eq(launch_resolve(&ld, 0, NULL, &d), 0);
		size_t code_len;
		char *code = read_file(o_path, &code_len);
		ck_assert_ptr_nonnull(code);
		static uint16_t a[128 * 128], b[128 * 128];
		static float c[128 * 128];
		for (int i = 0; i < 128 * 128; i++)
			a[i] = b[i] = 0x3c00 + (uint16_t)(i % 7); /* nonzero f16: the LDS tiles change */
		HostBuffer bufs[] = {{"a", a, sizeof a}, {"b", b, sizeof b}, {"c", c, sizeof c}};
		for (int fail = 0; fail < 2; fail++) {
			RunOptions ro = {.backend = BACKEND_EMU, .policy = {.races = true}, .races_fail = fail};
			Buf msg = {0};
			int rc = launch_run_memory(&ld, code, code_len, &ro, bufs, 3, &msg);
			if (racy && fail) {
				ck_assert_int_eq(rc, -2);
				ck_assert_msg(strstr(buf_cstr(&msg), "error: emulator: ") && strstr(buf_cstr(&msg), "race on LDS offset") &&
						      strstr(buf_cstr(&msg), "no s_barrier between them"),
					      "%s", buf_cstr(&msg));
			} else {
				ck_assert_msg(rc == 0, "racy %d fail %d: %s", racy, fail, buf_cstr(&msg));
			}
			buf_free(&msg);
		}
		free(code);
		launch_free(&ld);
	}
}
END_TEST

/* No AMD GPU here: the HIP backend must say so (or that the runtime cannot
 * be loaded, naming it) and fail. */
START_TEST(hip_backend_fails_clearly)
{
	const char *dir = setup_vadd("run_hip");
	CmdResult r = wrun(dir, "-D N=64 --backend hip");
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "sees no AMD GPU") || strstr(r.err, "cannot load the HIP runtime"), "%s", r.err);
	cmd_result_free(&r);
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "cd '%s' && WAVECC_HIP_LIB=/nonexistent/libamdhip64.so %s run vadd.json -D N=64 --backend hip",
		 dir, test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "cannot load the HIP runtime /nonexistent/libamdhip64.so ($WAVECC_HIP_LIB)"));
	cmd_result_free(&r);
}
END_TEST

/* A co-resident kernel (docs/launch-format.md, "Co-resident kernels"):
 * spin_flag's workgroup 0 waits for workgroup 1's store. With
 * "co_resident" the launch runs every workgroup at once (the emulator's
 * concurrent order) and passes; without it the forward order never ends;
 * a grid larger than the arch's default GPU holds at once (CUs x the
 * smaller of workgroups_per_cu and what the descriptor's registers allow)
 * is a located error, nothing run; a co_resident without workgroups_per_cu
 * is a located error. */
START_TEST(co_resident_launch)
{
	static const struct {
		const char *arch;
		int cus;
	} archs[] = {{"gfx942", 304}, {"gfx90a", 110}};
	for (size_t a = 0; a < ARRAY_LEN(archs); a++) {
		char tag[32], cmd[4096];
		snprintf(tag, sizeof tag, "co_resident_%s", archs[a].arch);
		const char *dir = test_tmpdir(tag);
		snprintf(cmd, sizeof cmd,
			 "%s as --mcpu %s '%s/tests/asm/data/spin_flag.s' -o '%s/spin_flag.hsaco' && "
			 "sed 's/gfx942/%s/' '%s/tests/loader/data/spin_flag.json' > '%s/spin.json' && "
			 "sed 's/\"co_resident\": true, \"workgroups_per_cu\": 2,//' '%s/spin.json' > '%s/plain.json' && "
			 "sed 's/\"workgroups_per_cu\": 2/\"workgroups_per_cu\": 100/' '%s/spin.json' > '%s/many.json' && "
			 "sed 's/, \"workgroups_per_cu\": 2//' '%s/spin.json' > '%s/nowpc.json'",
			 test_bin(), archs[a].arch, test_root(), dir, archs[a].arch, test_root(), dir, dir, dir, dir, dir, dir,
			 dir);
		CmdResult r = run_cmd(cmd, NULL);
		ck_assert_msg(r.status == 0, "%s", r.err);
		cmd_result_free(&r);
		/* two workgroups and a full grid: both pass, the flags as stored */
		int full = 2 * archs[a].cus;
		for (int g = 0; g < 2; g++) {
			snprintf(cmd, sizeof cmd, "cd '%s' && %s run spin.json -D G=%d --out flag=f.npy", dir, test_bin(),
				 g ? full : 2);
			r = run_cmd(cmd, NULL);
			ck_assert_msg(r.status == 0, "%s G=%d: %s", archs[a].arch, g ? full : 2, r.err);
			cmd_result_free(&r);
			char path[1024], err[256];
			snprintf(path, sizeof path, "%s/f.npy", dir);
			NpyArray f;
			ck_assert_int_eq(npy_read(path, &f, err, sizeof err), 0);
			ck_assert_uint_eq(((uint32_t *)f.data)[0], 42);
			ck_assert_uint_eq(((uint32_t *)f.data)[1], 41);
			npy_free(&f);
		}
		/* one workgroup more than the GPU holds: refused, located at the grid */
		snprintf(cmd, sizeof cmd, "cd '%s' && %s run spin.json -D G=%d --out flag=f2.npy; test ! -e f2.npy", dir,
			 test_bin(), full + 1);
		r = run_cmd(cmd, NULL);
		ck_assert_int_eq(r.status, 0);
		char want[256];
		snprintf(want, sizeof want,
			 "spin.json:2:41: error: grid: %d workgroups, but kernel 'spin_flag' is co-resident (its "
			 "workgroups wait for each other) and %s (%s) holds at most %d of them at once (%d CUs x 2 "
			 "workgroups per CU)",
			 full + 1, a ? "MI250X" : "MI300X", archs[a].arch, full, archs[a].cus);
		ck_assert_msg(strstr(r.err, want), "%s", r.err);
		cmd_result_free(&r);
		snprintf(cmd, sizeof cmd, "cd '%s' && %s run spin.json -D G=%d", dir, test_bin(), full + 1);
		r = run_cmd(cmd, NULL);
		ck_assert_int_eq(r.status, 1);
		cmd_result_free(&r);
		/* workgroups_per_cu above what the descriptor's 8 VGPRs allow (8
		 * waves a SIMD, 32 one-wave workgroups a CU): the smaller counts */
		snprintf(cmd, sizeof cmd, "cd '%s' && %s run many.json -D G=%d", dir, test_bin(), 32 * archs[a].cus + 1);
		r = run_cmd(cmd, NULL);
		ck_assert_int_eq(r.status, 1);
		snprintf(want, sizeof want, "holds at most %d of them at once (%d CUs x 32 workgroups per CU)",
			 32 * archs[a].cus, archs[a].cus);
		ck_assert_msg(strstr(r.err, want), "%s", r.err);
		cmd_result_free(&r);
		/* without the contract: one workgroup after another, workgroup 0
		 * waits forever (the instruction limit stops it) */
		snprintf(cmd, sizeof cmd, "cd '%s' && %s run plain.json -D G=2 --max-instructions 100000", dir, test_bin());
		r = run_cmd(cmd, NULL);
		ck_assert_int_eq(r.status, 1);
		ck_assert_msg(strstr(r.err, "instruction limit of 100000 reached"), "%s", r.err);
		cmd_result_free(&r);
		snprintf(cmd, sizeof cmd, "cd '%s' && %s run nowpc.json -D G=2", dir, test_bin());
		r = run_cmd(cmd, NULL);
		ck_assert_int_eq(r.status, 1);
		ck_assert_msg(strstr(r.err, "nowpc.json:3:17: error: co_resident: a co-resident kernel needs "
					    "\"workgroups_per_cu\""),
			      "%s", r.err);
		cmd_result_free(&r);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("launch");
	TCase *tc = tcase_create("launch");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, parse_issue_example);
	tcase_add_test(tc, expressions_and_bindings);
	tcase_add_test(tc, i1_buffer_is_a_byte_each);
	tcase_add_test(tc, f8_buffers_load);
	tcase_add_test(tc, bad_descriptors_located);
	tcase_add_test(tc, bad_fields_located);
	tcase_add_test(tc, unbound_and_bad_bindings);
	tcase_add_test(tc, lds_split);
	tcase_add_test(tc, run_vadd_on_emulator);
	tcase_add_test(tc, run_random_is_reproducible);
	tcase_add_test(tc, run_scalar_kernel);
	tcase_add_test(tc, run_bad_inputs);
	tcase_add_test(tc, run_checks_against_code_object);
	tcase_add_test(tc, run_buffer_limits);
	tcase_add_test(tc, run_ours_lld_and_gfx90a_agree);
	tcase_add_test(tc, races_warn_or_fail);
	tcase_add_test(tc, hip_backend_fails_clearly);
	tcase_add_test(tc, co_resident_launch);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
