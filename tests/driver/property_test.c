/* property_test.c — "whatever the compiler accepts is correct" (issue 9,
 * item 2), checked on random configurations of the example kernels.
 *
 * Each draw picks a kernel family and random values for its parameters:
 *   GEMM       gemm_global / gemm_global_32x32x8, and the LDS-staged
 *              gemm_16x16x16 / gemm_32x32x8 / gemm_unaligned / gemm_dynamic
 *              (M, N, K given at run time with -D, K of 0 and 1 too): M, N, K
 *              (aligned to the tiles or not), BLOCK_M/N/K, waves per block
 *              (the wave tiles become floor(BLOCK / waves)), sometimes
 *              another MMA type with the operand dtypes it takes;
 *   reduction  reduce_sum / reduce_max / reduce_block: M, N, BLOCK_M, BLOCK_N
 *              or ELEMS_PER_WAVE (left derived half of the time);
 *   softmax    softmax / softmax_wide: M, N, BLOCK_M;
 *   (every family also swaps the workgroup dims of M and N a quarter of the
 *   time, and draws the compile options of the reduction loop's schedule:
 *   --schedule none|prefetch, --lds-stages 1|2, --no-schedule, each left
 *   at its default part of the time);
 *   elementwise copy / copy_aligned / add / cast: M, N, BLOCK_M, BLOCK_N and
 *              the argument dtypes (the examples fix them, so the draw edits
 *              the dtype strings).
 * The draw writes the edited example (jansson) to
 * $(BUILD)/tests/tmp/property/draw<i>.json — kept, so a failure reproduces
 * with the printed command — and runs `wavecc run FILE.json [--mcpu gfx90a]
 * --seed S` on it. The outcome must be PASS (exit 0, a PASS line, no FAIL
 * line) or a clear rejection (exit 1, an `error:` line located at the file,
 * no FAIL line, no internal error, no sanitizer report). A FAIL line — the
 * kernel disagrees with the interpreter — is a wrong kernel the compiler
 * accepted, and fails the draw; so do signals, other exit codes and hangs.
 *
 * A second case runs one reproducer per class found so far (the table
 * `known`, with tests/fuzz/repro/) under the same verdict.
 *
 * Environment:
 *   WAVECC_PROPERTY=0          skip the draws and the known reproducers (the
 *                              verdict's own test still runs)
 *   WAVECC_PROPERTY_SEED=S     the seed (default fixed; printed on failure)
 *   WAVECC_PROPERTY_DRAWS=N    the number of draws (default 80, about 15 s)
 *   WAVECC_PROPERTY_LOG=FILE   append one line per draw: verdict and command
 *   WAVECC_PROPERTY_MIN_PASS=P the least percentage of draws that must PASS
 *                              (default 70) */
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test.h"

#define DEFAULT_SEED 20261124u
#define DEFAULT_DRAWS 80

static uint64_t seed;
static int draws;
static const char *dir;

/* splitmix64: one stream per draw, so draw i reproduces alone */
typedef struct {
	uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int64_t rng_range(Rng *r, int64_t lo, int64_t hi) /* [lo, hi] */
{
	return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

#define PICK(r, arr) ((arr)[rng_next(r) % ARRAY_LEN(arr)])

/* A size: a multiple of `align` or any value in [1, max], half and half;
 * multiples of 64 plus or minus one are the usual edge. */
static int64_t draw_size(Rng *r, int64_t align, int64_t max)
{
	switch (rng_next(r) % 4) {
	case 0: return align * rng_range(r, 1, max / align);
	case 1: return rng_range(r, 1, max);
	case 2: return 64 * rng_range(r, 1, max / 64) + (rng_next(r) % 2 ? 1 : -1);
	default: return rng_range(r, 1, 64);
	}
}

/* ---- JSON edits ---- */

static json_t *load_example(const char *name)
{
	char path[2048];
	snprintf(path, sizeof path, "%s/examples/%s.json", test_root(), name);
	json_error_t e;
	json_t *j = json_load_file(path, 0, &e);
	ck_assert_msg(j, "%s:%d: %s", path, e.line, e.text);
	return j;
}

static void set_sym(json_t *j, const char *name, int64_t v)
{
	json_object_set_new(json_object_get(j, "symbols"), name, json_integer(v));
}

static json_t *find_by_name(json_t *arr, const char *key, const char *val)
{
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x)
	{
		const char *s = json_string_value(json_object_get(x, key));
		if (s && !strcmp(s, val))
			return x;
	}
	return NULL;
}

static void set_arg_dtype(json_t *j, const char *arg, const char *dtype)
{
	json_t *a = find_by_name(json_object_get(j, "arguments"), "name", arg);
	ck_assert_ptr_nonnull(a);
	json_object_set_new(a, "dtype", json_string(dtype));
}

static json_t *find_constraint(json_t *j, const char *kind, const char *dim)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(j, "constraints"), i, c)
	{
		const char *k = json_string_value(json_object_get(c, "kind"));
		const char *d = json_string_value(json_object_get(c, "dim"));
		if (k && !strcmp(k, kind) && (!dim || (d && !strcmp(d, dim))))
			return c;
	}
	return NULL;
}

/* ---- one draw per family; each edits `j` and describes what it drew ---- */

typedef struct {
	json_t *j;
	char what[512];
	size_t len;
	char args[256]; /* command-line arguments: -D of dynamic symbols, options */
	size_t alen;
} Draw;

static void note(Draw *d, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void note(Draw *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (d->len < sizeof d->what)
		d->len += (size_t)vsnprintf(d->what + d->len, sizeof d->what - d->len, fmt, ap);
	va_end(ap);
}

/* A command-line argument, also noted in what was drawn. */
static void arg(Draw *d, const char *a)
{
	if (d->alen < sizeof d->args)
		d->alen += (size_t)snprintf(d->args + d->alen, sizeof d->args - d->alen, " %s", a);
	note(d, " %s", a);
}

static bool is_dynamic(json_t *j, const char *name)
{
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(j, "dynamic_symbols"), i, x)
		if (!strcmp(json_string_value(x), name))
			return true;
	return false;
}

/* A symbol's value: in the kernel, or with -D when the kernel leaves it to
 * run time. */
static void sym(Draw *d, const char *name, int64_t v)
{
	if (is_dynamic(d->j, name)) {
		char a[96];
		snprintf(a, sizeof a, "-D %s=%lld", name, (long long)v);
		if (d->alen < sizeof d->args)
			d->alen += (size_t)snprintf(d->args + d->alen, sizeof d->args - d->alen, " %s", a);
		note(d, " %s=%lld(-D)", name, (long long)v);
		return;
	}
	set_sym(d->j, name, v);
	note(d, " %s=%lld", name, (long long)v);
}

/* The reduction loop's schedule options, each at its default a third of
 * the time or more. */
static void draw_options(Rng *r, Draw *d)
{
	switch (rng_next(r) % 3) {
	case 0: arg(d, "--schedule none"); break;
	case 1: arg(d, "--schedule prefetch"); break;
	default: break;
	}
	switch (rng_next(r) % 3) {
	case 0: arg(d, "--lds-stages 1"); break;
	case 1: arg(d, "--lds-stages 2"); break;
	default: break;
	}
	if (rng_next(r) % 4 == 0)
		arg(d, "--no-schedule");
}

/* A quarter of the draws swap the workgroup dims of M and N (a lone M moves
 * between dims 0 and 1): any mapping is valid input. */
static void draw_workgroup_dims(Rng *r, Draw *d)
{
	if (rng_next(r) % 4)
		return;
	json_t *m = find_constraint(d->j, "workgroup", "M"), *n = find_constraint(d->j, "workgroup", "N");
	if (!m)
		return;
	json_int_t dm = json_integer_value(json_object_get(m, "workgroup_dim"));
	json_int_t dn = n ? json_integer_value(json_object_get(n, "workgroup_dim")) : !dm;
	json_object_set_new(m, "workgroup_dim", json_integer(dn));
	if (n)
		json_object_set_new(n, "workgroup_dim", json_integer(dm));
	/* waves_per_block is indexed by workgroup dim: its entries follow */
	json_t *w = json_object_get(find_constraint(d->j, "hardware", NULL), "waves_per_block");
	if (n && json_array_size(w) >= 2 && dm != dn) {
		json_t *w0 = json_incref(json_array_get(w, 0)), *w1 = json_incref(json_array_get(w, 1));
		json_array_set_new(w, 0, w1);
		json_array_set_new(w, 1, w0);
	}
	note(d, " workgroup_dims=M%lld", (long long)dn);
}

/* MMA types the graph format names, with the operand and result dtypes */
static const struct {
	const char *name, *in, *out;
} mmas[] = {
	{"F32_16x16x16_F16", "f16", "f32"},
	{"F32_32x32x8_F16", "f16", "f32"},
	{"F32_16x16x32_K8_F16", "f16", "f32"},
	{"F32_32x32x16_K8_F16", "f16", "f32"},
	{"I32_16x16x16_I8", "i8", "i32"},
	{"I32_32x32x8_I8", "i8", "i32"},
	{"F32_16x16x32_F8", "f8e4m3fnuz", "f32"},
	{"F32_32x32x16_F8", "f8e4m3fnuz", "f32"},
};

static void draw_gemm(Rng *r, Draw *d)
{
	static const char *const ex[] = {"gemm_global", "gemm_global_32x32x8", "gemm_16x16x16", "gemm_32x32x8",
		"gemm_unaligned", "gemm_dynamic"};
	static const int64_t blocks[] = {16, 32, 48, 64, 96, 128};
	static const int64_t bks[] = {8, 16, 24, 32, 64};
	const char *name = PICK(r, ex);
	d->j = load_example(name);
	note(d, "%s", name);
	int64_t bm = rng_next(r) % 4 ? PICK(r, blocks) : rng_range(r, 1, 128);
	int64_t bn = rng_next(r) % 4 ? PICK(r, blocks) : rng_range(r, 1, 128);
	int64_t bk = rng_next(r) % 4 ? PICK(r, bks) : rng_range(r, 1, 64);
	sym(d, "BLOCK_M", bm);
	sym(d, "BLOCK_N", bn);
	sym(d, "BLOCK_K", bk);
	bool aligned = rng_next(r) % 2;
	sym(d, "M", aligned ? bm * rng_range(r, 1, 3) : draw_size(r, 16, 256));
	sym(d, "N", aligned ? bn * rng_range(r, 1, 3) : draw_size(r, 16, 256));
	/* a run-time K may be 0 (no trip) */
	bool dyn = is_dynamic(d->j, "K");
	sym(d, "K", aligned ? bk * rng_range(r, 1, 4) : dyn && rng_next(r) % 4 == 0 ? rng_range(r, 0, 1) : draw_size(r, 8, 256));
	if (rng_next(r) % 3 == 0) { /* waves per block */
		static const int64_t ws[] = {1, 2, 4};
		int64_t wm = PICK(r, ws), wn = PICK(r, ws);
		json_t *hw = find_constraint(d->j, "hardware", NULL);
		json_object_set_new(hw, "waves_per_block", json_pack("[III]", (json_int_t)wm, (json_int_t)wn, (json_int_t)1));
		char t[64];
		snprintf(t, sizeof t, "floor(BLOCK_M / %lld)", (long long)wm);
		json_object_set_new(find_constraint(d->j, "wave", "M"), "tile", json_string(t));
		snprintf(t, sizeof t, "floor(BLOCK_N / %lld)", (long long)wn);
		json_object_set_new(find_constraint(d->j, "wave", "N"), "tile", json_string(t));
		note(d, " waves=%lldx%lld", (long long)wm, (long long)wn);
	}
	if (rng_next(r) % 5 == 0) { /* another MMA type, operands to match */
		unsigned k = (unsigned)(rng_next(r) % ARRAY_LEN(mmas));
		json_t *hw = find_constraint(d->j, "hardware", NULL);
		json_object_set_new(hw, "mma_type", json_string(mmas[k].name));
		set_arg_dtype(d->j, "a", mmas[k].in);
		set_arg_dtype(d->j, "b", mmas[k].in);
		set_arg_dtype(d->j, "c", mmas[k].out);
		json_t *reg = find_by_name(json_object_get(d->j, "graph"), "op", "register");
		json_object_set_new(reg, "dtype", json_string(mmas[k].out));
		note(d, " mma=%s", mmas[k].name);
	}
	draw_workgroup_dims(r, d);
}

static void draw_reduction(Rng *r, Draw *d)
{
	static const char *const ex[] = {"reduce_sum", "reduce_max", "reduce_block"};
	const char *name = PICK(r, ex);
	d->j = load_example(name);
	note(d, "%s", name);
	sym(d, "M", rng_range(r, 1, 48));
	sym(d, "N", draw_size(r, 64, 1100));
	if (rng_next(r) % 4 == 0)
		sym(d, "BLOCK_M", rng_range(r, 1, 4));
	const char *tile = strcmp(name, "reduce_block") ? "BLOCK_N" : "ELEMS_PER_WAVE";
	switch (rng_next(r) % 3) {
	case 0: break; /* derived from N */
	case 1: sym(d, tile, 64 * rng_range(r, 1, 8)); break;
	default: sym(d, tile, draw_size(r, 32, 512)); break;
	}
	draw_workgroup_dims(r, d);
}

static void draw_softmax(Rng *r, Draw *d)
{
	static const char *const ex[] = {"softmax", "softmax_wide"};
	const char *name = PICK(r, ex);
	d->j = load_example(name);
	note(d, "%s", name);
	sym(d, "M", rng_range(r, 1, 64));
	/* the reduced dim must be a multiple of 64 today: draw those half the time */
	sym(d, "N", rng_next(r) % 2 ? 64 * rng_range(r, 1, 17) : draw_size(r, 64, 1100));
	if (rng_next(r) % 3 == 0)
		sym(d, "BLOCK_M", rng_range(r, 1, 4));
	draw_workgroup_dims(r, d);
}

static const char *const dtypes[] = {"f16", "bf16", "f32", "i8", "i16", "i32", "u8", "u32"};

static void draw_elementwise(Rng *r, Draw *d)
{
	static const char *const ex[] = {"copy", "copy_aligned", "add", "cast"};
	const char *name = PICK(r, ex);
	d->j = load_example(name);
	note(d, "%s", name);
	sym(d, "M", rng_range(r, 1, 80));
	sym(d, "N", draw_size(r, 64, 1100));
	if (rng_next(r) % 2)
		sym(d, "BLOCK_M", rng_next(r) % 2 ? 1 : rng_range(r, 1, 8));
	if (rng_next(r) % 2)
		sym(d, "BLOCK_N", rng_next(r) % 2 ? 64 * rng_range(r, 1, 4) : rng_range(r, 1, 300));
	if (rng_next(r) % 2) {
		const char *t = PICK(r, dtypes), *u = PICK(r, dtypes);
		if (!strcmp(name, "cast")) {
			set_arg_dtype(d->j, "a", t);
			set_arg_dtype(d->j, "b", u);
			json_t *c = find_by_name(json_object_get(d->j, "graph"), "op", "cast");
			json_object_set_new(c, "dtype", json_string(u));
			note(d, " dtype=%s->%s", t, u);
		} else {
			size_t i;
			json_t *a;
			json_array_foreach(json_object_get(d->j, "arguments"), i, a)
				json_object_set_new(a, "dtype", json_string(t));
			note(d, " dtype=%s", t);
		}
	}
	draw_workgroup_dims(r, d);
}

/* ---- the verdict ---- */

/* NULL when the outcome is PASS or a clear located rejection; else why not. */
static const char *judge(const CmdResult *res, const char *file)
{
	if (strstr(res->err, "Sanitizer") || strstr(res->err, "runtime error:"))
		return "sanitizer report";
	if (strstr(res->err, "internal error"))
		return "internal error";
	if (strstr(res->out, "FAIL"))
		return "FAIL: the kernel disagrees with the interpreter";
	if (res->status == 0)
		return strstr(res->out, "\nPASS\n") || !strncmp(res->out, "PASS\n", 5) ? NULL : "exit 0 without PASS";
	if (res->status == 124)
		return "time limit (60 s)";
	if (res->status != 1)
		return res->status > 128 ? "killed by a signal" : "exit status neither 0 nor 1";
	const char *e = strstr(res->err, "error:");
	if (!e)
		return "exit 1 without an error: message";
	/* located: "FILE:line:col: error:" (the edited JSON) */
	const char *loc = strstr(res->err, file);
	if (!loc || loc > e)
		return "error not located at the kernel file";
	return NULL;
}

static void append_log(const char *line)
{
	const char *path = getenv("WAVECC_PROPERTY_LOG");
	if (!path || !*path)
		return;
	FILE *f = fopen(path, "a");
	if (f) {
		fputs(line, f);
		fclose(f);
	}
}

/* Each draw leaves dir/verdict<i>: P for a PASS, R for anything else (a
 * located rejection, or a failure the draw reports itself), for the share
 * test after the draws (each runs in its own process). */
static void record_verdict(int i, bool pass)
{
	char path[2048];
	snprintf(path, sizeof path, "%s/verdict%d", dir, i);
	FILE *f = fopen(path, "w");
	if (f) {
		fputc(pass ? 'P' : 'R', f);
		fclose(f);
	}
}

START_TEST(draw_runs_or_is_rejected)
{
	Rng r = {seed ^ (0x632be59bd9b4e019ull * (uint64_t)(_i + 1))};
	Draw d = {0};
	switch (rng_next(&r) % 4) {
	case 0: draw_gemm(&r, &d); break;
	case 1: draw_reduction(&r, &d); break;
	case 2: draw_softmax(&r, &d); break;
	default: draw_elementwise(&r, &d); break;
	}
	draw_options(&r, &d);
	const char *mcpu = rng_next(&r) % 2 ? " --mcpu gfx90a" : "";
	unsigned data_seed = (unsigned)(rng_next(&r) % 1000);
	char file[2048], cmd[8192], args[4096];
	snprintf(file, sizeof file, "%s/draw%d.json", dir, _i);
	ck_assert_int_eq(json_dump_file(d.j, file, JSON_INDENT(2)), 0);
	json_decref(d.j);
	snprintf(args, sizeof args, "run %s%s --seed %u%s", file, mcpu, data_seed, d.args);
	snprintf(cmd, sizeof cmd, "cd '%s' && timeout 60 '%s' %s", test_root(), test_bin(), args);
	CmdResult res = run_cmd(cmd, NULL);
	const char *why = judge(&res, file);
	char line[8192];
	snprintf(line, sizeof line, "%s | %s%s | status %d | %.300s\n", why ? why : "ok", d.what, mcpu, res.status,
		 *res.out ? res.out : res.err);
	for (char *p = line; *p && p[1]; p++) /* one line per draw */
		if (*p == '\n')
			*p = ' ';
	append_log(line);
	record_verdict(_i, !why && res.status == 0);
	ck_assert_msg(!why,
		      "draw %d (WAVECC_PROPERTY_SEED=%llu): %s\n  drew: %s%s\n  reproduce: wavecc %s\n"
		      "  status %d\n  stdout: %.600s\n  stderr: %.600s",
		      _i, (unsigned long long)seed, why, d.what, mcpu, args, res.status, res.out, res.err);
	cmd_result_free(&res);
}
END_TEST

/* The verdict itself: PASS and located errors pass, everything else fails. */
START_TEST(judge_accepts_only_pass_or_located_error)
{
	static const struct {
		int status;
		const char *out, *err;
		bool ok;
	} cases[] = {
		{0, "PASS c: 4 elements f32, max abs err 0\nPASS\n", "", true},
		{1, "", "/t/k.json:3:5: error: constraints[1]: tile 0 must be positive\n", true},
		{1, "FAIL c: 4 elements f32, 4 mismatches\nFAIL\n", "", false},
		{1, "", "wavecc: error: something\n", false},
		{1, "", "", false},
		{0, "", "", false},
		{2, "", "wavecc: usage error: x\n", false},
		{124, "", "", false},
		{134, "", "wavecc: internal error at isel/mma.c:10: x\n", false},
		{1, "", "/t/k.json:1:1: error: x\nutil/a.c:3:4: runtime error: signed integer overflow\n", false},
		{0, "PASS\n", "==1==ERROR: AddressSanitizer: heap-buffer-overflow\n", false},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		CmdResult r = {cases[i].status, (char *)cases[i].out, (char *)cases[i].err};
		const char *why = judge(&r, "/t/k.json");
		ck_assert_msg(!why == cases[i].ok, "case %zu: %s", i, why ? why : "accepted");
	}
}
END_TEST

/* One reproducer per class the draws and tests/fuzz/mutate found giving FAIL
 * (issue 9); each must PASS or be rejected with a located error, and those
 * that PASS today (pass) must keep passing: a rejection of one is a lost
 * feature, not a fix. The JSON edits that -D cannot make are in
 * tests/fuzz/repro/. */
static const struct {
	const char *file, *args;
	bool pass; /* PASSes today: a rejection is a regression */
} known[] = {
	/* copy/add/cast: BLOCK_M > 1; an odd N whose last run is partial */
	{"examples/copy.json", "-D BLOCK_M=2", true},
	{"examples/add.json", "-D BLOCK_M=2", true},
	{"examples/cast.json", "-D BLOCK_M=2", true},
	{"examples/copy_aligned.json", "-D BLOCK_M=2", true},
	{"examples/copy.json", "-D N=255", true},
	{"examples/copy.json", "-D N=127", true},
	{"examples/add.json", "-D N=255", true},
	{"examples/cast.json", "-D N=127", true},
	{"examples/copy_aligned.json", "-D N=1023", true},
	{"tests/fuzz/repro/copy_aligned_no_workgroup_n.json", "", false},
	/* softmax: BLOCK_M > 1; N a multiple of 64 but N/64 not a power of two;
	 * M on workgroup dim 0 */
	{"examples/softmax.json", "-D BLOCK_M=2", true},
	{"examples/softmax_wide.json", "-D BLOCK_M=2", true},
	{"examples/softmax.json", "-D N=192", true},
	{"examples/softmax.json", "-D N=320", true},
	{"examples/softmax_wide.json", "-D N=320", true},
	{"tests/fuzz/repro/softmax_m_on_dim0.json", "", true},
	/* reductions: a tile of 64*k with k not a power of two; the last lane's
	 * vector straddling N; M on workgroup dim 0 */
	{"examples/reduce_sum.json", "-D N=192", true},
	{"examples/reduce_sum.json", "-D N=6 -D BLOCK_N=192", true},
	{"examples/reduce_sum.json", "-D N=128 -D BLOCK_N=448", true},
	{"examples/reduce_block.json", "-D N=576", true},
	{"examples/reduce_block.json", "-D N=64 -D ELEMS_PER_WAVE=384", true},
	{"examples/reduce_sum.json", "-D N=127", true},
	{"examples/reduce_sum.json", "-D N=255", true},
	{"examples/reduce_max.json", "-D N=127", true},
	{"examples/reduce_max.json", "-D N=511", true},
	{"tests/fuzz/repro/reduce_sum_m_on_dim0.json", "", true},
	{"tests/fuzz/repro/reduce_block_m_on_dim0.json", "", true},
	/* GEMM: BLOCK_K not a multiple of the MMA's K; a K tail of 29-31 in a
	 * 32 tile (or K below the MMA's K); a tiling constraint without a tile */
	{"examples/gemm_global.json", "-D BLOCK_K=8", true},
	{"examples/gemm_global.json", "-D BLOCK_K=24", true},
	{"examples/gemm_global_32x32x8.json", "-D BLOCK_K=31", true},
	{"examples/gemm_global_32x32x8.json", "-D BLOCK_K=2", true},
	{"examples/gemm_global.json", "-D K=63", true},
	{"examples/gemm_global.json", "-D K=29", true},
	{"examples/gemm_global_32x32x8.json", "-D K=127", true},
	{"examples/gemm_global_32x32x8.json", "-D K=7", true},
	{"tests/fuzz/repro/gemm_global_tiling_without_tile.json", "", true},
};

START_TEST(known_class_runs_or_is_rejected)
{
	char path[2048], cmd[8192];
	snprintf(path, sizeof path, "%s/%s", test_root(), known[_i].file);
	snprintf(cmd, sizeof cmd, "cd '%s' && timeout 60 '%s' run '%s' %s --seed 1", test_root(), test_bin(), path,
		 known[_i].args);
	CmdResult res = run_cmd(cmd, NULL);
	const char *why = judge(&res, path);
	if (!why && known[_i].pass && res.status != 0)
		why = "rejected, but it passed when it was listed";
	ck_assert_msg(!why, "%s\n  reproduce: wavecc run %s %s --seed 1\n  status %d\n  stdout: %.400s\n  stderr: %.400s",
		      why, known[_i].file, known[_i].args, res.status, res.out, res.err);
	cmd_result_free(&res);
}
END_TEST

/* The share of draws that PASS (not rejected) stays at least
 * WAVECC_PROPERTY_MIN_PASS percent (default 70; 63 of the 80 default draws
 * PASSed when this was written): a compiler that rejected everything would
 * satisfy every draw's verdict and fail here. */
static long min_pass;

START_TEST(draws_mostly_pass)
{
	int pass = 0;
	for (int i = 0; i < draws; i++) {
		char path[2048];
		snprintf(path, sizeof path, "%s/verdict%d", dir, i);
		FILE *f = fopen(path, "r");
		if (f) {
			pass += fgetc(f) == 'P';
			fclose(f);
		}
	}
	printf("compile/property: %d of %d draws PASS (at least %ld%% required)\n", pass, draws, min_pass);
	ck_assert_msg(pass * 100 >= min_pass * draws,
		"only %d of %d draws PASS, under the %ld%% required (WAVECC_PROPERTY_MIN_PASS): "
		"the compiler rejects what it compiled before",
		pass, draws, min_pass);
}
END_TEST

static long env_long(const char *name, long dflt)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return dflt;
	char *end;
	long x = strtol(v, &end, 0);
	if (*end || x < 0) {
		fprintf(stderr, "%s=%s: not a non-negative integer\n", name, v);
		exit(2);
	}
	return x;
}

int main(void)
{
	Suite *s = suite_create("compile/property");
	TCase *tj = tcase_create("judge");
	tcase_add_test(tj, judge_accepts_only_pass_or_located_error);
	suite_add_tcase(s, tj);
	const char *on = getenv("WAVECC_PROPERTY");
	if (on && !strcmp(on, "0")) {
		printf("compile/property: random draws and known reproducers skipped (WAVECC_PROPERTY=0)\n");
		return run_suite(s);
	}
	seed = (uint64_t)env_long("WAVECC_PROPERTY_SEED", DEFAULT_SEED);
	draws = (int)env_long("WAVECC_PROPERTY_DRAWS", DEFAULT_DRAWS);
	min_pass = env_long("WAVECC_PROPERTY_MIN_PASS", 70);
	dir = test_tmpdir("property");
	if (dir[0] != '/') { /* the runs cd to the source root */
		static char abs[4096];
		if (!realpath(dir, abs)) {
			perror(dir);
			return EXIT_FAILURE;
		}
		dir = abs;
	}
	printf("compile/property: seed %llu, %d draws (WAVECC_PROPERTY_SEED, WAVECC_PROPERTY_DRAWS)\n",
	       (unsigned long long)seed, draws);
	TCase *tk = tcase_create("known");
	tcase_set_timeout(tk, 90);
	tcase_add_loop_test(tk, known_class_runs_or_is_rejected, 0, (int)ARRAY_LEN(known));
	suite_add_tcase(s, tk);
	TCase *tc = tcase_create("property");
	tcase_set_timeout(tc, 90);
	tcase_add_loop_test(tc, draw_runs_or_is_rejected, 0, draws);
	suite_add_tcase(s, tc);
	TCase *ts = tcase_create("share"); /* after the draws: Check runs the cases in order */
	tcase_add_test(ts, draws_mostly_pass);
	suite_add_tcase(s, ts);
	return run_suite(s);
}
