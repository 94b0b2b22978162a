/* profile_test.c — `wavecc profile` on every example kernel graph (the
 * dynamic ones with sizes given), for both targets on the GEMMs: it runs,
 * prints an estimate, and no figure passes the modelled chip's limits (the
 * f16 matrix peak, the HBM bandwidth); --json parses and agrees; a compiled
 * launch descriptor profiles too; the clock is modelled and --clock
 * replaces it; TFLOP/s is the graph's useful work with the padded figure
 * beside it; --gpu MI308X scales with its 80 CUs; usage errors exit 2. */
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../test.h"
#include "../../loader/timing/timing.h"

/* Sizes for the examples whose symbols are dynamic. */
static const char *defs_for(const char *name)
{
	if (strcmp(name, "copy_dynamic.json") == 0)
		return "-D M=256 -D N=512";
	if (strcmp(name, "gemm_dynamic.json") == 0)
		return "-D M=128 -D N=128 -D K=256";
	return "";
}

static void check_json(const char *path, const char *defs, const char *mcpu, double peak_tflops, double hbm_gbps)
{
	CmdResult r = test_wavecc("profile %s %s --mcpu %s --json", path, defs, mcpu);
	ck_assert_msg(r.status == 0, "%s (%s): %s", path, mcpu, r.err);
	json_error_t je;
	json_t *doc = json_loads(r.out, 0, &je);
	ck_assert_msg(doc, "%s: --json output does not parse: %s", path, je.text);
	double tflops = json_real_value(json_object_get(doc, "tflops"));
	double gbps = json_real_value(json_object_get(doc, "hbm_gbps"));
	double util = json_real_value(json_object_get(doc, "matrix_utilisation"));
	json_int_t cycles = json_integer_value(json_object_get(doc, "cycles"));
	ck_assert_msg(cycles > 0, "%s: no cycles", path);
	ck_assert_msg(tflops <= peak_tflops, "%s (%s): %.1f TFLOP/s above the peak %.1f", path, mcpu, tflops, peak_tflops);
	ck_assert_msg(gbps <= hbm_gbps * 1.0001, "%s (%s): %.0f GB/s above HBM's %.0f", path, mcpu, gbps, hbm_gbps);
	ck_assert_msg(util >= 0 && util <= 1, "%s: matrix utilisation %f", path, util);
	ck_assert_msg(json_array_size(json_object_get(doc, "instructions")) > 0, "%s: no instructions", path);
	json_decref(doc);
	cmd_result_free(&r);
}

START_TEST(every_example)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/examples", test_root());
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		char path[4200];
		snprintf(path, sizeof path, "examples/%s", e->d_name);
		CmdResult r = test_wavecc("profile %s %s", path, defs_for(e->d_name));
		ck_assert_msg(r.status == 0, "%s: %s", path, r.err);
		ck_assert_msg(strstr(r.out, "estimate (model, not a measurement)"), "%s: no estimate:\n%s", path, r.out);
		ck_assert_msg(strstr(r.out, "model limits:"), "%s: limits not stated", path);
		ck_assert_msg(strstr(r.out, "wave order: the sample ran on the emulator with each wave to its next "
					    "s_barrier in turn"), "%s: wave order not stated", path);
		cmd_result_free(&r);
		/* HBM at its achievable share (timing.h hbm_efficiency), not the peak */
		check_json(path, defs_for(e->d_name), "gfx942", 2048.0 * 304 * 2.1e9 / 1e12, 5300 * 0.775);
		if (strstr(e->d_name, "gemm"))
			check_json(path, defs_for(e->d_name), "gfx90a", 1024.0 * 110 * 1.7e9 / 1e12, 1600 * 0.711);
		n++;
	}
	closedir(d);
	ck_assert_int_ge(n, 20);
}
END_TEST

/* Every instruction the JSON says waited for a memory operation is an
 * s_waitcnt, and what it waited for is a load, store or LDS access. */
static void check_waits(json_t *doc)
{
	json_t *insts = json_object_get(doc, "instructions"), *x;
	size_t i;
	json_array_foreach(insts, i, x) {
		json_t *w = json_object_get(x, "waits_for_offset");
		if (!w)
			continue;
		const char *text = json_string_value(json_object_get(x, "text"));
		ck_assert_msg(strncmp(text, "s_waitcnt", 9) == 0, "'%s' waits for a memory operation", text);
		json_t *y;
		size_t j;
		bool found = false;
		json_array_foreach(insts, j, y) {
			if (json_integer_value(json_object_get(y, "offset")) != json_integer_value(w))
				continue;
			const char *t = json_string_value(json_object_get(y, "text"));
			ck_assert_msg(strstr(t, "load") || strstr(t, "store") || strncmp(t, "ds_", 3) == 0,
				      "'%s' waits for '%s'", text, t);
			found = true;
		}
		ck_assert(found);
	}
}

/* A large GEMM through LDS is sampled and profiles quickly; the LDS
 * version beats the global-memory one of the same tiles, on both chips. */
START_TEST(lds_gemm_beats_global)
{
	const char *mcpu[2] = {"gfx942", "gfx90a"};
	for (int m = 0; m < 2; m++) {
		double t[2];
		const char *files[2] = {"examples/gemm_16x16x16.json", "examples/gemm_global.json"};
		for (int i = 0; i < 2; i++) {
			CmdResult r = test_wavecc("profile %s -D M=2048 -D N=2048 -D K=2048 --mcpu %s --json", files[i], mcpu[m]);
			ck_assert_msg(r.status == 0, "%s: %s", files[i], r.err);
			json_t *doc = json_loads(r.out, 0, NULL);
			ck_assert_ptr_nonnull(doc);
			t[i] = json_real_value(json_object_get(doc, "seconds"));
			ck_assert_int_lt(json_integer_value(json_object_get(doc, "simulated_workgroups")), 64);
			check_waits(doc);
			json_decref(doc);
			cmd_result_free(&r);
		}
		ck_assert_msg(t[0] < t[1], "%s: LDS GEMM %.3g s, global %.3g s", mcpu[m], t[0], t[1]);
	}
}
END_TEST

/* The schedule options reach the compilation: at 128x128x64 tiles the
 * prefetch schedule (the default) keeps the matrix core busier than none. */
START_TEST(schedule_options_reach_the_compile)
{
	double util[2];
	const char *sched[2] = {"none", "prefetch"};
	for (int i = 0; i < 2; i++) {
		CmdResult r = test_wavecc("profile examples/gemm_16x16x16.json -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 "
					  "-D M=2048 -D N=2048 -D K=2048 --schedule %s --json",
			sched[i]);
		ck_assert_msg(r.status == 0, "%s", r.err);
		json_t *doc = json_loads(r.out, 0, NULL);
		ck_assert_ptr_nonnull(doc);
		util[i] = json_real_value(json_object_get(doc, "matrix_utilisation"));
		json_decref(doc);
		cmd_result_free(&r);
	}
	ck_assert_msg(util[1] > util[0] * 1.3, "prefetch %.3f, none %.3f", util[1], util[0]);
}
END_TEST

/* A streaming copy over the whole chip reproduces the published MI300X
 * copy bandwidth (4.11 TB/s, docs/cycle-model.md "Calibration") within
 * 10% and never exceeds the achievable HBM bandwidth. */
START_TEST(copy_reproduces_published)
{
	CmdResult r = test_wavecc("profile examples/copy.json -D M=8192 -D N=8192 --json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	json_t *doc = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	double gbps = json_real_value(json_object_get(doc, "hbm_gbps"));
	ck_assert_msg(gbps >= 0.9 * 4110 && gbps <= 5300 * 0.775 * 1.0001, "copy %.0f GB/s, published 4110", gbps);
	json_decref(doc);
	cmd_result_free(&r);
}
END_TEST

START_TEST(descriptor_and_usage)
{
	const char *dir = test_tmpdir("profile");
	CmdResult r = test_wavecc("compile examples/gemm_16x16x16.json -o %s/k.hsaco --launch %s/k.launch.json", dir, dir);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("profile %s/k.launch.json --asm", dir);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "annotated assembly"));
	ck_assert_ptr_nonnull(strstr(r.out, "v_mfma_f32_16x16x16_f16"));
	cmd_result_free(&r);
	r = test_wavecc("profile examples/gemm_dynamic.json");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
	/* compile options reach a kernel graph's compilation, not a descriptor */
	r = test_wavecc("profile %s/k.launch.json --schedule none", dir);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "compile options apply to kernel graphs"));
	cmd_result_free(&r);
	r = test_wavecc("profile --params");
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "guessed"));
	cmd_result_free(&r);
}
END_TEST

static json_t *profile_json(const char *args)
{
	CmdResult r = test_wavecc("profile %s --json", args);
	ck_assert_msg(r.status == 0, "profile %s: %s", args, r.err);
	json_error_t je;
	json_t *doc = json_loads(r.out, 0, &je);
	ck_assert_msg(doc, "profile %s: --json output does not parse: %s", args, je.text);
	cmd_result_free(&r);
	return doc;
}

/* `wavecc profile ARGS` succeeds and prints `want`. */
static void profile_prints(const char *args, const char *want)
{
	CmdResult r = test_wavecc("profile %s", args);
	ck_assert_msg(r.status == 0, "profile %s: %s", args, r.err);
	ck_assert_msg(strstr(r.out, want), "profile %s: no '%s' in:\n%s", args, want, r.out);
	cmd_result_free(&r);
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_number(v), "no number '%s' in the JSON", key);
	return json_number_value(v);
}

/* The clock model's clock lies between AMD's median under f16 GEMM and the
 * boost clock, says why, and time is cycles over it; --clock replaces it. */
START_TEST(clock_modelled_and_overridden)
{
	const char *gemm = "examples/gemm_16x16x16.json -D M=1024 -D N=1024 -D K=1024";
	json_t *m = profile_json(gemm);
	json_t *clk = json_object_get(m, "clock");
	ck_assert_str_eq(json_string_value(json_object_get(clk, "source")), "model");
	ck_assert_str_eq(json_string_value(json_object_get(clk, "dtype")), "f16");
	ck_assert_str_eq(json_string_value(json_object_get(m, "gpu")), "MI300X");
	double mhz = num(m, "clock_mhz"), duty = num(clk, "matrix_duty");
	ck_assert_msg(duty > 0 && duty < 1, "duty %f", duty);
	ck_assert_msg(mhz > 1115 && mhz < 2100, "modelled clock %.0f MHz", mhz);
	TmParams p;
	tm_params(EMU_GFX942, &p);
	ck_assert_double_eq_tol(mhz, 2100 - pow(duty, p.clock_duty_exponent) * (2100 - 1115), 0.005 * mhz);
	ck_assert_double_eq_tol(num(m, "seconds"), num(m, "cu_cycles_estimate") / (mhz * 1e6) + p.launch_us * 1e-6, 1e-12);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(clk, "why")), "duty"));
	json_t *f = profile_json("examples/gemm_16x16x16.json -D M=1024 -D N=1024 -D K=1024 --clock 1500");
	ck_assert_double_eq(num(f, "clock_mhz"), 1500);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(f, "clock"), "source")), "--clock");
	ck_assert_double_eq_tol(num(f, "seconds"), num(f, "cu_cycles_estimate") / 1.5e9 + p.launch_us * 1e-6, 1e-12);
	json_decref(m);
	json_decref(f);
	char args[256];
	snprintf(args, sizeof args, "%s --clock 1500", gemm);
	profile_prints(args, "clock 1500 MHz (given by --clock)");
	/* a copy has no MFMA work: the boost clock */
	json_t *c = profile_json("examples/copy.json");
	ck_assert_double_eq(num(c, "clock_mhz"), 2100);
	json_decref(c);
}
END_TEST

/* --sweep: every combination, fastest first; the fastest is the one that
 * profiled alone gives that time; a variant that does not compile is
 * listed FAILED last and the command exits 1. */
START_TEST(sweep_ranked)
{
	json_t *arr = profile_json("examples/gemm_16x16x16.json -D M=1024 -D N=1024 -D K=1024 --sweep BLOCK_M=64,128 "
				   "--sweep BLOCK_K=32,64");
	ck_assert_msg(json_is_array(arr) && json_array_size(arr) == 4, "not 4 variants");
	double prev = 0;
	for (size_t i = 0; i < 4; i++) {
		json_t *r = json_array_get(arr, i);
		ck_assert(json_is_true(json_object_get(r, "ok")));
		ck_assert_msg(num(r, "ms") >= prev, "not ranked by time");
		prev = num(r, "ms");
		/* each row carries the error band and the clock, as a single profile does */
		json_t *b = json_object_get(r, "error_band");
		ck_assert_double_eq_tol(num(b, "median"), TM_BAND_MEDIAN, 1e-12);
		ck_assert_double_eq_tol(num(b, "worst"), TM_BAND_WORST, 1e-12);
		ck_assert(num(r, "clock_mhz") >= 1115 && num(r, "clock_mhz") <= 2100);
		ck_assert(num(r, "gbps") > 0);
	}
	char args[256];
	snprintf(args, sizeof args, "examples/gemm_16x16x16.json -D M=1024 -D N=1024 -D K=1024 %s",
		json_string_value(json_object_get(json_array_get(arr, 0), "defines")));
	for (char *p = args; (p = strstr(p, "BLOCK_"));) { /* "BLOCK_M=128 BLOCK_K=64" as -D options */
		memmove(p + 3, p, strlen(p) + 1);
		memcpy(p, "-D ", 3);
		p += 4;
	}
	json_t *one = profile_json(args);
	ck_assert_double_eq_tol(num(one, "seconds") * 1e3, num(json_array_get(arr, 0), "ms"), 1e-9);
	json_decref(one);
	json_decref(arr);
	CmdResult r = test_wavecc("profile examples/gemm_16x16x16.json --sweep BLOCK_M=64,33");
	ck_assert_msg(r.status == 1 && strstr(r.out, "FAILED") && strstr(r.out, "BLOCK_M=33") && strstr(r.err, "error"),
		"status %d\n%s%s", r.status, r.out, r.err);
	cmd_result_free(&r);
	r = test_wavecc("profile examples/gemm_16x16x16.json --sweep BLOCK_K");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
}
END_TEST

/* The verdict line: a copy of a few rows fills no grid; a large GEMM says
 * what bounds it and how its grid fills the GPU. */
START_TEST(verdict_and_grid_fill)
{
	profile_prints("examples/copy.json", "bound by: grid fill (444 workgroups for ");
	profile_prints("examples/copy.json", "grid: 444 workgroups on 304 CUs at ");
	json_t *m = profile_json("examples/gemm_16x16x16.json -D M=2048 -D N=2048 -D K=2048");
	const char *b = json_string_value(json_object_get(m, "bound_by"));
	ck_assert_msg(b && *b, "no bound_by");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(m, "grid_fill")), "1024 workgroups on 304 CUs"));
	json_decref(m);
	/* 16 workgroups leave 288 of 304 CUs idle: said plainly, and that bounds it */
	profile_prints("examples/gemm_16x16x16.json -D M=256 -D N=256 -D K=1024",
		"grid: 16 workgroups on 304 CUs at 8 per CU: 0.01 rounds, 1% of the slots filled; 288 of the 304 CUs get no "
		"workgroup");
	profile_prints("examples/gemm_16x16x16.json -D M=256 -D N=256 -D K=1024",
		"bound by: grid fill (16 workgroups: 288 of the 304 CUs idle)");
}
END_TEST

/* --sensitivity: every parameter marked guessed or fitted gets a row with its time
 * and utilisation at x0.5 and x1.5; the clock's duty exponent moves a
 * GEMM's time (a lower exponent slows the clock sooner), and with --clock
 * the same exponent moves nothing (the clock model is not consulted). */
START_TEST(sensitivity_rows)
{
	json_t *m = profile_json("examples/gemm_16x16x16.json -D M=1024 -D N=1024 -D K=1024 --sensitivity");
	json_t *rows = json_object_get(m, "sensitivity");
	ck_assert_msg(json_is_array(rows), "no sensitivity array");
	int guessed = 0;
	for (int i = 0; i < TM_NPARAMS; i++)
		guessed += tm_param_guessed(i);
	ck_assert_int_eq((int)json_array_size(rows), guessed);
	double ms = num(m, "seconds") * 1e3;
	bool seen = false;
	for (size_t i = 0; i < json_array_size(rows); i++) {
		json_t *r = json_array_get(rows, i);
		if (strcmp(json_string_value(json_object_get(r, "param")), "clock_duty_exponent") != 0)
			continue;
		seen = true;
		ck_assert_msg(num(r, "ms_x0.5") > ms * 1.005 && num(r, "ms_x1.5") < ms * 0.995, "exponent: %g / %g vs %g ms",
			num(r, "ms_x0.5"), num(r, "ms_x1.5"), ms);
	}
	ck_assert(seen);
	json_decref(m);
	json_t *f = profile_json("examples/gemm_16x16x16.json -D M=1024 -D N=1024 -D K=1024 --sensitivity --clock 1500");
	rows = json_object_get(f, "sensitivity");
	ms = num(f, "seconds") * 1e3;
	for (size_t i = 0; i < json_array_size(rows); i++) {
		json_t *r = json_array_get(rows, i);
		if (strcmp(json_string_value(json_object_get(r, "param")), "clock_duty_exponent") == 0)
			ck_assert_double_eq_tol(num(r, "ms_x0.5"), ms, 1e-9);
	}
	json_decref(f);
	profile_prints("examples/gemm_16x16x16.json -D M=256 -D N=256 -D K=256 --sensitivity",
		"sensitivity (each parameter marked guessed or fitted at x0.5 and x1.5");
}
END_TEST

/* A GEMM whose 64x64x32 tiles pad the 100x70x90 problem: the useful
 * figure is 2*M*N*K over the time, the MFMAs' work (padded tiles) larger;
 * GB/s counts every buffer once. */
START_TEST(useful_work_of_a_padded_gemm)
{
	json_t *d = profile_json("examples/gemm_global_unaligned.json");
	double secs = num(d, "seconds"), useful = 2.0 * 100 * 70 * 90;
	ck_assert_str_eq(json_string_value(json_object_get(d, "useful_work")), "graph");
	ck_assert_double_eq_tol(num(d, "useful_flops"), useful, 1e-6);
	ck_assert_double_eq_tol(num(d, "tflops") * 1e12 * secs, useful, 1e-6 * useful);
	double padded = 2.0 * 128 * 128 * 96; /* 2x2 tiles of 64x64, 3 K steps of 32 */
	ck_assert_double_eq_tol(num(d, "tflops_padded") * 1e12 * secs, padded, 1e-6 * padded);
	double bytes = 100 * 90 * 2 + 70 * 90 * 2 + 100 * 70 * 4;
	ck_assert_double_eq_tol(num(d, "gbps") * 1e9 * secs, bytes, 1e-6 * bytes);
	json_decref(d);
	profile_prints("examples/gemm_global_unaligned.json", "TFLOP/s useful");
	profile_prints("examples/gemm_global_unaligned.json", "TFLOP/s of MFMA work with the padded tiles");
	/* an aligned GEMM: one figure */
	json_t *a = profile_json("examples/gemm_16x16x16.json -D M=256 -D N=256 -D K=256");
	ck_assert_double_eq_tol(num(a, "tflops"), num(a, "tflops_padded"), 1e-9 * num(a, "tflops"));
	json_decref(a);
	/* a launch descriptor has no graph: its figure is the padded one, said so */
	const char *dir = test_tmpdir("profile_useful");
	CmdResult r = test_wavecc("compile examples/gemm_global_unaligned.json -o %s/k.hsaco --launch %s/k.launch.json",
		dir, dir);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	char path[4200];
	snprintf(path, sizeof path, "%s/k.launch.json", dir);
	json_t *l = profile_json(path);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(l, "useful_work")), "padded"));
	ck_assert_double_eq_tol(num(l, "tflops") * 1e12 * num(l, "seconds"), padded, 1e-6 * padded);
	json_decref(l);
	profile_prints(path, "a launch descriptor has no graph");
}
END_TEST

/* Causal attention's useful work leaves the masked pairs out: the mask
 * select(m >= k2, 0, -1e6) of Wave's vanilla causal attention keeps
 * sum_{m < M} min(m + 1, K2) of the M x K2 pairs, and both mma ops (Q K^T
 * and P V) count that share; the MFMAs' work (the tiles on the diagonal
 * run whole) is printed beside it. A mask over a third dim (a window
 * bounded by the batch index) cannot be counted: the figure is the padded
 * one, said so. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = calloc((size_t)n + 1, 1);
	ck_assert_int_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return s;
}

/* s with its first `from` replaced by `to` (which must be there). */
static char *replace1(char *s, const char *from, const char *to)
{
	char *at = strstr(s, from);
	ck_assert_msg(at, "no '%s' to replace", from);
	size_t n = strlen(s) - strlen(from) + strlen(to) + 1, pre = (size_t)(at - s);
	char *t = calloc(n, 1);
	memcpy(t, s, pre);
	strcpy(t + pre, to);
	strcat(t, at + strlen(from));
	free(s);
	return t;
}

static void causal_share(int64_t m, int64_t k2, double *share)
{
	double kept = 0;
	for (int64_t i = 0; i < m; i++)
		kept += (double)(i + 1 < k2 ? i + 1 : k2);
	*share = kept / ((double)m * (double)k2);
}

START_TEST(useful_work_of_causal_attention)
{
	const char *k = "tests/driver/wave/vanilla_attention_causal_16x16x16.json";
	const int64_t B = 8, N = 128, K1 = 64;
	const int64_t shapes[][2] = {{256, 256}, {128, 256}}; /* square; M < K2 (the graph's own sizes) */
	for (int i = 0; i < 2; i++) {
		int64_t M = shapes[i][0], K2 = shapes[i][1];
		char args[512];
		snprintf(args, sizeof args, "%s -D M=%ld -D K2=%ld", k, (long)M, (long)K2);
		json_t *d = profile_json(args);
		double share, full = 2.0 * B * M * K2 * K1 + 2.0 * B * M * N * K2;
		causal_share(M, K2, &share);
		ck_assert_str_eq(json_string_value(json_object_get(d, "useful_work")), "graph");
		ck_assert_double_eq_tol(num(d, "useful_flops"), share * full, 1e-9 * full);
		ck_assert_msg(num(d, "tflops_padded") > num(d, "tflops") * 1.05, "the diagonal's tiles run whole");
		const char *note = json_string_value(json_object_get(d, "useful_note"));
		char want[64];
		snprintf(want, sizeof want, "keeps %.1f%% of the (M, K2) pairs", 100 * share);
		ck_assert_msg(note && strstr(note, want), "note '%s' lacks '%s'", note ? note : "(none)", want);
		json_decref(d);
	}
	profile_prints(k, "(the graph's mma ops; the mask of select bias keeps 25.2% of the (M, K2) pairs of iterate repeat)");
	/* without a mask: the whole product, no note */
	json_t *a = profile_json("examples/attention.json");
	ck_assert_ptr_null(json_object_get(a, "useful_note"));
	json_decref(a);
	/* the window's bound a third dim's index (the batch's): not counted, the padded figure said so */
	char *g = slurp("tests/driver/wave/vanilla_attention_causal_sw_16x16x16.json");
	g = replace1(g,
		"\"name\": \"sliding_window\",\n      \"op\": \"register\",\n      \"shape\": [\n        \"M\",\n"
		"        \"K2\"\n      ],\n      \"dtype\": \"i64\",\n      \"value\": 1024",
		"\"name\": \"sliding_window\", \"op\": \"self_index\", \"dim\": \"B\", \"dtype\": \"i64\"");
	const char *dir = test_tmpdir("profile_causal");
	char path[4200];
	snprintf(path, sizeof path, "%s/sw_by_batch.json", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(g, f);
	fclose(f);
	free(g);
	json_t *u = profile_json(path);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(u, "useful_work")), "not known"));
	ck_assert_ptr_null(json_object_get(u, "useful_flops"));
	ck_assert_double_eq(num(u, "tflops"), num(u, "tflops_padded"));
	json_decref(u);
	profile_prints(path, "(the padded figure, masked pairs included: the mask of select bias in iterate repeat could not be counted)");
}
END_TEST

/* --gpu MI308X: 80 CUs, the same CU; a grid of 1520 workgroups (5 per CU
 * on 304 CUs, 19 on 80) takes about 19/5 as long at the same clock. */
START_TEST(gpu_mi308x_scales_with_its_cus)
{
	const char *gemm = "examples/gemm_16x16x16.json -D M=2560 -D N=2432 -D K=256 --clock 1500";
	char args[512];
	snprintf(args, sizeof args, "%s --gpu MI300X", gemm);
	json_t *x = profile_json(args);
	snprintf(args, sizeof args, "%s --gpu mi308x", gemm);
	json_t *y = profile_json(args);
	ck_assert_str_eq(json_string_value(json_object_get(y, "gpu")), "MI308X");
	ck_assert_int_eq(json_integer_value(json_object_get(y, "cus")), 80);
	ck_assert_int_eq(json_integer_value(json_object_get(x, "cus")), 304);
	double ratio = num(y, "seconds") / num(x, "seconds");
	ck_assert_msg(ratio > 0.85 * 19 / 5 && ratio < 1.15 * 19 / 5, "MI308X / MI300X time %.2f, expected about 3.8",
		      ratio);
	json_decref(x);
	json_decref(y);
	/* MI250X is a gfx90a: a kernel graph is compiled for it */
	json_t *z = profile_json("examples/gemm_16x16x16.json --gpu MI250X");
	ck_assert_str_eq(json_string_value(json_object_get(z, "arch")), "gfx90a");
	ck_assert_int_eq(json_integer_value(json_object_get(z, "cus")), 110);
	json_decref(z);
}
END_TEST

/* Bad --gpu and --clock values are usage errors (exit 2) saying what was
 * expected. */
START_TEST(gpu_and_clock_usage)
{
	static const struct {
		const char *args, *msg;
	} bad[] = {
		{"--gpu MI400", "--gpu MI400: expected MI300X, MI308X, MI325X, MI355X or MI250X"},
		{"--gpu", "--gpu"},
		{"--clock 0", "--clock 0: expected an engine clock in MHz from 100 to 5000"},
		{"--clock fast", "--clock fast: expected an engine clock in MHz"},
		{"--clock 99999", "--clock 99999: expected"},
		{"--clock -1500", "--clock -1500: expected"},
		{"--gpu MI250X --mcpu gfx942", "--gpu MI250X is a gfx90a, not a gfx942"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CmdResult r = test_wavecc("profile examples/gemm_16x16x16.json %s", bad[i].args);
		ck_assert_msg(r.status == 2, "%s: exit %d", bad[i].args, r.status);
		ck_assert_msg(strstr(r.err, bad[i].msg), "%s: '%s' not in: %s", bad[i].args, bad[i].msg, r.err);
		cmd_result_free(&r);
	}
	const char *dir = test_tmpdir("profile_gpu");
	CmdResult r = test_wavecc("compile examples/copy.json -o %s/k.hsaco --launch %s/k.launch.json", dir, dir);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("profile %s/k.launch.json --gpu MI250X", dir);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--gpu MI250X is a gfx90a; the code object is for gfx942"));
	cmd_result_free(&r);
}
END_TEST

/* A descriptor `wavecc compile` writes carries the op table: its profile
 * names the loop and every instruction's op as the graph's does; a table
 * whose hash is not the code's names none (and warns). */
START_TEST(descriptor_names_ops)
{
	const char *dir = test_tmpdir("profile_ops");
	CmdResult r = test_wavecc("compile examples/gemm_16x16x16.json -o %s/k.hsaco --launch %s/k.launch.json", dir, dir);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	char path[512], args[600];
	snprintf(path, sizeof path, "%s/k.launch.json", dir);
	json_t *g = profile_json("examples/gemm_16x16x16.json");
	json_t *m = profile_json(path);
	json_t *loops = json_object_get(m, "loops");
	ck_assert_int_eq((int)json_array_size(loops), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(loops, 0), "iterate")), "repeat");
	json_t *gi = json_object_get(g, "instructions"), *mi = json_object_get(m, "instructions");
	ck_assert_uint_eq(json_array_size(gi), json_array_size(mi));
	int named = 0;
	for (size_t i = 0; i < json_array_size(mi); i++) {
		json_t *x = json_array_get(mi, i), *y = json_array_get(gi, i);
		ck_assert_int_eq((int)num(x, "offset"), (int)num(y, "offset"));
		const char *a = json_string_value(json_object_get(x, "op")), *b = json_string_value(json_object_get(y, "op"));
		ck_assert_msg((!a && !b) || (a && b && strcmp(a, b) == 0), "+0x%x: %s against the graph's %s",
			(int)num(x, "offset"), a ? a : "-", b ? b : "-");
		named += a != NULL;
	}
	ck_assert_int_gt(named, 0);
	json_decref(g);
	json_decref(m);
	/* the same table over other code: no op, a warning */
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	ck_assert_ptr_nonnull(doc);
	json_object_set_new(json_object_get(doc, "ops"), "code_fnv1a", json_string("0123456789abcdef"));
	snprintf(args, sizeof args, "%s/bad.launch.json", dir);
	ck_assert_int_eq(json_dump_file(doc, args, 0), 0);
	json_decref(doc);
	r = test_wavecc("profile %s --json", args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "ops: not a table of this code object"));
	ck_assert_ptr_null(strstr(r.out, "\"op\""));
	cmd_result_free(&r);
}
END_TEST

/* The tuning loop: a compiled kernel's loop is named by its iterate op,
 * hot spots and the per-op totals name the graph op each instruction came
 * from (an MFMA from the mma op), in the text and the JSON. */
START_TEST(loops_and_ops_named)
{
	json_t *m = profile_json("examples/gemm_16x16x16.json");
	json_t *loops = json_object_get(m, "loops");
	ck_assert_int_eq((int)json_array_size(loops), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(loops, 0), "iterate")), "repeat");
	json_t *insts = json_object_get(m, "instructions");
	int mfmas = 0;
	for (size_t i = 0; i < json_array_size(insts); i++) {
		json_t *x = json_array_get(insts, i);
		if (strstr(json_string_value(json_object_get(x, "text")), "v_mfma")) {
			ck_assert_str_eq(json_string_value(json_object_get(x, "op")), "mma");
			mfmas++;
		}
	}
	ck_assert_int_gt(mfmas, 0);
	json_t *ops = json_object_get(m, "by_op");
	bool mma = false;
	uint64_t issued = 0, total = 0;
	for (size_t i = 0; i < json_array_size(ops); i++) {
		json_t *x = json_array_get(ops, i);
		mma |= strcmp(json_string_value(json_object_get(x, "op")), "mma") == 0;
		issued += (uint64_t)num(x, "issued");
	}
	for (size_t i = 0; i < json_array_size(insts); i++)
		total += (uint64_t)num(json_array_get(insts, i), "issued");
	ck_assert(mma);
	ck_assert_uint_eq(issued, total);
	profile_prints("examples/gemm_16x16x16.json", "loop repeat (iterate) +0x");
	profile_prints("examples/gemm_16x16x16.json", "by graph op (stall cycles");
	/* compile -S --offsets: every instruction the profile lists is on a line
	 * of the assembly with its offset, the same mnemonic (the profile's
	 * text is the disassembler's: an _e32/_e64 suffix aside) */
	CmdResult r = test_wavecc("compile -S --offsets examples/gemm_16x16x16.json -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_null(strstr(r.err, "warning"));
	for (size_t i = 0; i < json_array_size(insts); i++) {
		json_t *x = json_array_get(insts, i);
		const char *text = json_string_value(json_object_get(x, "text"));
		char want[64];
		snprintf(want, sizeof want, "  // +0x%04llx\n", (unsigned long long)num(x, "offset"));
		const char *at = strstr(r.out, want);
		ck_assert_msg(at, "no '%s' (%s) in compile -S --offsets", want, text);
		while (at > r.out && at[-1] != '\n')
			at--;
		at += strspn(at, " \t");
		size_t n = strcspn(at, " \n"), m = strcspn(text, " ");
		ck_assert_msg(strncmp(at, text, n) == 0 && (m == n || text[n] == '_'), "+0x%04llx: '%.*s' in the assembly, '%s' profiled",
			(unsigned long long)num(x, "offset"), (int)n, at, text);
	}
	cmd_result_free(&r);
	json_decref(m);
}
END_TEST

/* Several files at once: each profiled alone, one line each, fastest
 * first (as --sweep ranks), the JSON an array with each one's file; a file
 * that fails is listed FAILED last and the command exits 1. */
START_TEST(several_files_ranked)
{
	const char *files = "examples/gemm_global.json examples/gemm_16x16x16.json -D M=512 -D N=512 -D K=512";
	CmdResult r = test_wavecc("profile %s", files);
	ck_assert_msg(r.status == 0, "%s", r.err);
	const char *lds = strstr(r.out, "examples/gemm_16x16x16.json"), *glob = strstr(r.out, "examples/gemm_global.json");
	ck_assert_msg(lds && glob && lds < glob, "the LDS GEMM does not rank before the global one:\n%s", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "2 kernels (one file each), fastest first"));
	cmd_result_free(&r);
	r = test_wavecc("profile %s --json", files);
	ck_assert_int_eq(r.status, 0);
	json_error_t je;
	json_t *doc = json_loads(r.out, 0, &je);
	ck_assert_msg(json_is_array(doc) && json_array_size(doc) == 2, "%s", r.out);
	double prev = 0;
	for (size_t i = 0; i < 2; i++) {
		json_t *o = json_array_get(doc, i);
		ck_assert(json_is_true(json_object_get(o, "ok")));
		ck_assert_ptr_nonnull(json_string_value(json_object_get(o, "file")));
		ck_assert_double_eq_tol(num(json_object_get(o, "error_band"), "median"), TM_BAND_MEDIAN, 1e-12);
		ck_assert(num(o, "ms") >= prev);
		prev = num(o, "ms");
	}
	json_decref(doc);
	cmd_result_free(&r);
	/* files of two targets: each row carries its own target's band */
	const char *dir = test_tmpdir("profile_many");
	r = test_wavecc("compile examples/copy.json --mcpu gfx90a -o %s/c.hsaco --launch %s/c.launch.json", dir, dir);
	ck_assert_msg(r.status == 0, "%s", r.err);
	cmd_result_free(&r);
	r = test_wavecc("profile examples/gemm_16x16x16.json %s/c.launch.json -D M=256 -D N=256 -D K=256", dir);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "each row's error band by its target"));
	ck_assert_ptr_nonnull(strstr(r.out, "(error band unknown)"));
	char band[64];
	snprintf(band, sizeof band, "worst ±%.0f%%)", 100 * TM_BAND_WORST);
	ck_assert_ptr_nonnull(strstr(r.out, band));
	cmd_result_free(&r);
	r = test_wavecc("profile examples/copy.json /nonexistent.json -D M=256 -D N=256");
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.out, "FAILED"));
	cmd_result_free(&r);
	r = test_wavecc("profile examples/copy.json examples/copy.json --sensitivity");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
}
END_TEST

/* Every time and rate carries the calibration's error band (gfx942: the
 * table's; gfx90a: none measured), and the time includes the launch. */
START_TEST(error_band_and_launch)
{
	json_t *m = profile_json("examples/gemm_16x16x16.json");
	json_t *b = json_object_get(m, "error_band");
	ck_assert_double_eq_tol(num(b, "median"), TM_BAND_MEDIAN, 1e-12);
	ck_assert_double_eq_tol(num(b, "worst"), TM_BAND_WORST, 1e-12);
	TmParams p;
	tm_params(EMU_GFX942, &p);
	ck_assert_double_eq_tol(num(m, "launch_seconds"), p.launch_us * 1e-6, 1e-15);
	ck_assert(num(m, "launch_seconds") > 0 && num(m, "launch_seconds") < num(m, "seconds"));
	json_decref(m);
	m = profile_json("examples/gemm_16x16x16.json --mcpu gfx90a");
	ck_assert(json_is_null(json_object_get(json_object_get(m, "error_band"), "median")));
	json_decref(m);
	char want[64];
	snprintf(want, sizeof want, "ms (±%.0f%%, worst ±%.0f%%)", 100 * TM_BAND_MEDIAN, 100 * TM_BAND_WORST);
	profile_prints("examples/gemm_16x16x16.json", want);
	profile_prints("examples/gemm_16x16x16.json", "TFLOP/s useful (±");
	profile_prints("examples/gemm_16x16x16.json --mcpu gfx90a", "error band: unknown on gfx90a");
}
END_TEST

/* The caches over the grid: a 2048-cube f16 GEMM reads A and B from HBM
 * once (they fit the Infinity Cache) while the 8 XCDs' L2s miss more than
 * that (each XCD reads the tiles its workgroups need); a copy misses
 * everywhere. */
START_TEST(caches_of_a_gemm_and_a_copy)
{
	json_t *m = profile_json("examples/gemm_16x16x16.json -D M=2048 -D N=2048 -D K=2048 -D BLOCK_M=128 -D BLOCK_N=128");
	json_t *c = json_object_get(m, "caches");
	double ab = 2.0 * 2048 * 2048 * 2;
	ck_assert_double_eq(num(c, "l2s"), 8);
	ck_assert_msg(fabs(num(c, "hbm_read_bytes") / ab - 1) < 0.05, "HBM reads %g of A and B's %g", num(c, "hbm_read_bytes"),
		ab);
	ck_assert_msg(num(c, "l2_miss_bytes") > 1.5 * ab && num(c, "l2_miss_bytes") <= 8 * ab, "L2 misses %g",
		num(c, "l2_miss_bytes"));
	json_decref(m);
	m = profile_json("examples/copy.json -D M=8192 -D N=8192");
	c = json_object_get(m, "caches");
	ck_assert_double_eq(num(c, "l2_miss_fraction"), 1);
	ck_assert_double_eq(num(c, "mall_miss_fraction"), 1);
	json_decref(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("profile");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, every_example);
	tcase_add_test(tc, lds_gemm_beats_global);
	tcase_add_test(tc, copy_reproduces_published);
	tcase_add_test(tc, descriptor_and_usage);
	tcase_add_test(tc, schedule_options_reach_the_compile);
	tcase_add_test(tc, clock_modelled_and_overridden);
	tcase_add_test(tc, useful_work_of_a_padded_gemm);
	tcase_add_test(tc, useful_work_of_causal_attention);
	tcase_add_test(tc, gpu_mi308x_scales_with_its_cus);
	tcase_add_test(tc, gpu_and_clock_usage);
	tcase_add_test(tc, sensitivity_rows);
	tcase_add_test(tc, verdict_and_grid_fill);
	tcase_add_test(tc, sweep_ranked);
	tcase_add_test(tc, loops_and_ops_named);
	tcase_add_test(tc, descriptor_names_ops);
	tcase_add_test(tc, several_files_ranked);
	tcase_add_test(tc, error_band_and_launch);
	tcase_add_test(tc, caches_of_a_gemm_and_a_copy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
