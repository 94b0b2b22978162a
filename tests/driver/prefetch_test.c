/* prefetch_test.c — the prefetch schedule of the reduction loop
 * (isel/prefetch.c, isel/lds_stage.c) and its options (driver/options.c):
 * GEMMs of 1, 2, odd, unaligned and runtime trip counts (runtime 0 and 1
 * included) pass `wavecc run` on both targets with one and two LDS stages;
 * the schedule is visible in the code (the next trip's loads after the
 * MFMAs in the loop, none there without it); the kernel's "options" are
 * read; the default gives way where it would spill; Wave's modulo and
 * prefetch_attention compile as the prefetch schedule they stand for;
 * four_stage (isel/four_stage.c) passes the same GEMMs, reads the next
 * trip's operands from LDS in the trip (one barrier per trip) where it is
 * kept, and gives way to prefetch where it costs waves; a schedule gives
 * way to a waves_per_eu target it misses, and an unreachable one is a
 * located warning. */
#include <stdlib.h>
#include <string.h>

#include "../test.h"

static CmdResult wavecc(const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

/* A GEMM and its sizes: constant trips K/32 of 1, 2, 3 and 5; unaligned
 * K (a masked last trip); runtime K of 0, 1, 33 (two trips, the second
 * masked) and 160; the same with global operands (no LDS). */
static const char *const gemms[] = {
	"examples/gemm_16x16x16.json -D K=32",
	"examples/gemm_16x16x16.json -D K=64",
	"examples/gemm_32x32x8.json -D K=96",
	"examples/gemm_16x16x16.json -D K=160",
	"examples/gemm_unaligned.json -D K=50",
	"examples/gemm_unaligned.json -D K=170",
	"examples/gemm_dynamic.json -D M=64 -D N=96 -D K=0",
	"examples/gemm_dynamic.json -D M=64 -D N=96 -D K=1",
	"examples/gemm_dynamic.json -D M=100 -D N=70 -D K=33",
	"examples/gemm_dynamic.json -D M=64 -D N=64 -D K=160",
	/* global operands, prefetched into registers */
	"examples/gemm_global_unaligned.json",
	"tests/driver/data/gemm_dynamic_global.json -D M=64 -D N=96 -D K=0",
	"tests/driver/data/gemm_dynamic_global.json -D M=64 -D N=96 -D K=1",
	"tests/driver/data/gemm_dynamic_global.json -D M=100 -D N=70 -D K=97",
};
enum { NGEMM = sizeof gemms / sizeof *gemms };

/* Case i: gemm i / 4, target i % 2, LDS stages 1 + (i / 2) % 2. */
START_TEST(prefetched_gemm_passes)
{
	char args[512];
	snprintf(args, sizeof args, "run %s --schedule prefetch --lds-stages %d --mcpu %s --seed %d", gemms[_i / 4],
		1 + (_i / 2) % 2, _i % 2 ? "gfx90a" : "gfx942", 40 + _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Case i: gemm i / 2 under four_stage, target i % 2 (most of these small
 * tiles give way to prefetch: the second LDS buffer costs waves). */
START_TEST(four_stage_gemm_passes)
{
	char args[512];
	snprintf(args, sizeof args, "run %s --schedule four_stage --mcpu %s --seed %d", gemms[_i / 2],
		_i % 2 ? "gfx90a" : "gfx942", 80 + _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* GEMMs whose loop keeps four_stage (256x256 tiles are held at one wave
 * per SIMD by their AGPRs, so nothing is gained by giving way): the
 * compiled sizes, then those bound when run (runtime M, N, K). Trip counts
 * 2, 3, 5 and 32; unaligned K (4 trips, the last masked); runtime K of 0,
 * 1, 33 (3 trips, the last masked) and 97. */
static const char *const kept[][2] = {
	{"examples/gemm_16x16x16.json -D M=512 -D N=512 -D K=32", ""},
	{"examples/gemm_16x16x16.json -D M=512 -D N=512 -D K=48", ""},
	{"examples/gemm_16x16x16.json -D M=512 -D N=512 -D K=80", ""},
	{"examples/gemm_16x16x16.json -D M=512 -D N=512 -D K=512", ""},
	{"examples/gemm_unaligned.json -D K=50", ""},
	{"examples/gemm_dynamic.json", "-D M=100 -D N=70 -D K=0"},
	{"examples/gemm_dynamic.json", "-D M=100 -D N=70 -D K=1"},
	{"examples/gemm_dynamic.json", "-D M=100 -D N=70 -D K=33"},
	{"examples/gemm_dynamic.json", "-D M=300 -D N=260 -D K=97"},
};
enum { NKEPT = sizeof kept / sizeof *kept };
static const char *const kept_tiles = "-D BLOCK_M=256 -D BLOCK_N=256 -D BLOCK_K=16 --schedule four_stage";

/* Case i: kept GEMM i / 2 on target i % 2: compiled in four stages, and
 * passes. */
START_TEST(four_stage_kept_gemm_passes)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char args[512];
	snprintf(args, sizeof args, "compile %s %s --mcpu %s -S -o -", kept[_i / 2][0], kept_tiles, mcpu);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "// schedule: four_stage, 1 loop prefetched, 1 with 2 LDS buffers, "
						     "1 in four stages\n"),
		"%s: status %d\n%.400s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
	snprintf(args, sizeof args, "run %s %s %s --mcpu %s --seed %d", kept[_i / 2][0], kept[_i / 2][1], kept_tiles,
		mcpu, 120 + _i);
	r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* The instructions of examples/gemm_16x16x16.json compiled with opts: the
 * loop body (the block from the loop's label to its backward branch), and
 * in *before (if not NULL) everything before it. */
static char *loop_text_and_before(const char *opts, char **before)
{
	char args[512];
	snprintf(args, sizeof args, "compile examples/gemm_16x16x16.json -S -o - %s", opts);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0, "%s: status %d\n%s", args, r.status, r.err);
	char *end = strstr(r.out, "s_cbranch_scc1");
	ck_assert_ptr_nonnull(end);
	*end = 0;
	char *start = NULL; /* the loop's label: the last one before its branch */
	for (char *p = r.out; (p = strstr(p, "\n.LBB")); p++)
		start = p;
	ck_assert_ptr_nonnull(start);
	char *body = strdup(start);
	if (before) {
		*start = 0;
		*before = strdup(r.out);
	}
	cmd_result_free(&r);
	return body;
}

static char *loop_text(const char *opts)
{
	return loop_text_and_before(opts, NULL);
}

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* The first and second loops of a compiled kernel (from a loop's label to
 * its backward branch), NULL when there are fewer. */
static char *nth_loop(const char *text, int n)
{
	const char *from = text;
	for (int i = 0; i <= n; i++) {
		const char *end = strstr(from, "s_cbranch_scc1");
		if (!end)
			return NULL;
		const char *start = NULL;
		for (const char *p = from; (p = strstr(p, "\n.LBB")) && p < end; p++)
			start = p;
		if (i == n)
			return start ? strndup(start, (size_t)(end - start)) : NULL;
		from = end + 1;
	}
	return NULL;
}

/* isel/peel.c: a K not a multiple of the tile (4088 = 63 * 64 + 56), or a
 * runtime K, splits the loop: the main loop's loads have no K masks (no
 * v_cmp, no v_cndmask), the tail loop's do; an aligned K keeps one loop.
 * (The default schedule of gemm_dynamic gives the split up: it costs a
 * wave there.) */
START_TEST(unaligned_k_loop_is_split)
{
	static const char *const gemm4088 =
		"examples/gemm_16x16x16.json -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D M=4096 -D N=4096 -D K=4088";
	const char *const cases[][2] = {
		{gemm4088, ""},
		{gemm4088, "--schedule none"},
		{"examples/gemm_dynamic.json", "--schedule prefetch"},
		{"examples/gemm_dynamic.json", "--schedule none"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char args[512];
		snprintf(args, sizeof args, "compile %s %s --mcpu gfx942 -S -o -", cases[i][0], cases[i][1]);
		CmdResult r = wavecc(args);
		ck_assert_msg(r.status == 0, "%s: status %d\n%s", args, r.status, r.err);
		char *main_loop = nth_loop(r.out, 0), *tail = nth_loop(r.out, 1);
		ck_assert_msg(main_loop && tail && !nth_loop(r.out, 2), "%s: not two loops", args);
		ck_assert_msg(!strstr(main_loop, "v_cndmask") && !strstr(main_loop, "v_cmp"), "%s: main loop masked:\n%s",
			args, main_loop);
		ck_assert_msg(strstr(tail, "v_cndmask") && strstr(tail, "v_cmp"), "%s: tail loop unmasked:\n%s", args,
			tail);
		free(main_loop);
		free(tail);
		cmd_result_free(&r);
	}
	CmdResult r = wavecc("compile examples/gemm_16x16x16.json -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D M=4096 "
			     "-D N=4096 -D K=4096 --mcpu gfx942 -S -o -");
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(count(r.out, "s_cbranch_scc1"), 1);
	cmd_result_free(&r);
}
END_TEST

/* Split loops run right: constant K not a multiple of the 64 tile (1, 2,
 * 3, 4 and 6 trips: the main loop of 3 and 4 trips is too short under a
 * prefetch, which reads 2 or 3 trips ahead), runtime K of 0, 1, 2, 3 and 7
 * trips of 32 (aligned or not); every schedule, both targets. */
static const char *const split[][2] = {
	{"examples/gemm_16x16x16.json -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=64 -D M=64 -D N=128 -D K=8", ""},
	{"examples/gemm_16x16x16.json -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=64 -D M=64 -D N=128 -D K=72", ""},
	{"examples/gemm_16x16x16.json -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=64 -D M=64 -D N=128 -D K=136", ""},
	{"examples/gemm_16x16x16.json -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=64 -D M=64 -D N=128 -D K=200", ""},
	{"examples/gemm_16x16x16.json -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=64 -D M=64 -D N=128 -D K=328", ""},
	{"examples/gemm_dynamic.json", "-D M=70 -D N=64 -D K=0"},
	{"examples/gemm_dynamic.json", "-D M=70 -D N=64 -D K=1"},
	{"examples/gemm_dynamic.json", "-D M=70 -D N=64 -D K=33"},
	{"examples/gemm_dynamic.json", "-D M=70 -D N=64 -D K=96"},
	{"examples/gemm_dynamic.json", "-D M=70 -D N=64 -D K=200"},
};
enum { NSPLIT = sizeof split / sizeof *split };
static const char *const split_schedules[] = {"none", "prefetch", "modulo", "four_stage"};

/* Case i: split i / 8 under schedule (i / 2) % 4 on target i % 2. */
START_TEST(split_loop_passes)
{
	char args[512];
	snprintf(args, sizeof args, "run %s %s --schedule %s --mcpu %s --seed %d", split[_i / 8][0], split[_i / 8][1],
		split_schedules[(_i / 2) % 4], _i % 2 ? "gfx90a" : "gfx942", 200 + _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

START_TEST(prefetch_loads_after_the_mfmas)
{
	char *pf = loop_text("--schedule prefetch"), *none = loop_text("--schedule none");
	/* prefetch: the next trip's loads go out after this trip's first MFMA
	 * (they overlap its MFMAs), and MFMAs run on past the barrier that
	 * lets the LDS writes start (the scheduler moves register-only work
	 * across s_barrier) */
	const char *first_mfma = strstr(pf, "v_mfma");
	ck_assert_ptr_nonnull(first_mfma);
	ck_assert_msg(strstr(first_mfma, "buffer_load_dwordx4"), "no load after the first MFMA:\n%s", pf);
	ck_assert_msg(strstr(strstr(pf, "s_barrier"), "v_mfma"), "no MFMA after the first barrier:\n%s", pf);
	ck_assert_int_eq(count(pf, "s_barrier"), 2);
	/* none: every load before the first MFMA */
	ck_assert_ptr_null(strstr(strstr(none, "v_mfma"), "buffer_load"));
	/* two LDS stages: one barrier per trip */
	char *two = loop_text("--schedule prefetch --lds-stages 2");
	ck_assert_int_eq(count(two, "s_barrier"), 1);
	free(pf);
	free(none);
	free(two);
}
END_TEST

START_TEST(four_stage_reads_the_next_trip)
{
	/* 256x256x16 tiles, 32 trips: four_stage and prefetch with two LDS
	 * buffers have one barrier per trip and the same LDS reads in it; but
	 * four_stage's prologue reads trip 0's operands (prefetch's none), so
	 * the trip's first MFMA needs no LDS read of the trip: it comes before
	 * the first ds_read, which prefetch's cannot */
	const char *big = "-D BLOCK_M=256 -D BLOCK_N=256 -D BLOCK_K=16 -D M=512 -D N=512 -D K=512";
	char opts[256], *fs_pro, *pf_pro;
	snprintf(opts, sizeof opts, "%s --schedule four_stage", big);
	char *fs = loop_text_and_before(opts, &fs_pro);
	snprintf(opts, sizeof opts, "%s --schedule prefetch --lds-stages 2", big);
	char *pf = loop_text_and_before(opts, &pf_pro);
	ck_assert_int_eq(count(fs, "s_barrier"), 1);
	ck_assert_int_eq(count(pf, "s_barrier"), 1);
	int reads = count(pf, "ds_read");
	ck_assert_int_gt(reads, 0);
	ck_assert_int_eq(count(fs, "ds_read"), reads);
	ck_assert_int_eq(count(pf_pro, "ds_read"), 0);
	ck_assert_int_eq(count(fs_pro, "ds_read"), reads);
	ck_assert_int_eq(count(fs, "v_mfma"), count(pf, "v_mfma"));
	ck_assert_msg(strstr(fs, "v_mfma") < strstr(fs, "ds_read"), "four_stage: a ds_read before the first MFMA:\n%s", fs);
	ck_assert_msg(strstr(pf, "ds_read") < strstr(pf, "v_mfma"), "prefetch: no ds_read before the first MFMA:\n%s", pf);
	/* the prologue: trips 0 and 1 into LDS, a barrier after each
	 * buffer's writes and one before the first */
	ck_assert_int_eq(count(fs_pro, "s_barrier"), 3);
	ck_assert_int_eq(count(pf_pro, "s_barrier"), 2);
	free(fs);
	free(pf);
	free(fs_pro);
	free(pf_pro);
}
END_TEST

/* The line of `wavecc compile --stats` starting with key. */
static int stat(const char *out, const char *key)
{
	const char *p = strstr(out, key);
	ck_assert_ptr_nonnull(p);
	return atoi(p + strlen(key));
}

START_TEST(default_schedule)
{
	/* a GEMM: prefetched by default */
	char *def = loop_text(""), *pf = loop_text("--schedule prefetch");
	ck_assert_str_eq(def, pf);
	free(def);
	free(pf);
	/* attention fills the registers: the default gives way rather than
	 * spill (no more AGPRs than without the schedule) or lose a wave */
	static const char *const kernels[] = {
		"compile tests/driver/wave/vanilla_attention_16x16x16.json -S -o /dev/null --stats",
	};
	for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) {
		char args[512];
		CmdResult d = wavecc(kernels[i]);
		snprintf(args, sizeof args, "%s --schedule none", kernels[i]);
		CmdResult n = wavecc(args);
		ck_assert_msg(d.status == 0 && n.status == 0, "%s%s", d.err, n.err);
		ck_assert_int_eq(stat(d.out, "\nagpr"), stat(n.out, "\nagpr"));
		ck_assert_int_ge(stat(d.out, "\nwaves per SIMD"), stat(n.out, "\nwaves per SIMD"));
		cmd_result_free(&d);
		cmd_result_free(&n);
	}
	{
		/* a ping-pong loop keeps its prefetch at two waves per SIMD
		 * (driver/pipeline.c) where dropping it would give a third:
		 * Wave's causal sliding window (3 waves unpiped); and Wave's
		 * template at head dim 128 in 128x64 tiles, one wave in isel's
		 * order (260 registers), is scheduled into two (driver/order.c) */
		static const char *const two[] = {
			"compile tests/driver/wave/vanilla_attention_causal_sw_16x16x16.json -D B=2",
			"compile tests/driver/wave/vanilla_attention_16x16x32_k8.json -D B=2 -D M=256 -D K2=256 -D N=128 "
			"-D K1=128 -D BLOCK_N=128 -D BLOCK_M=128 -D BLOCK_K2=64",
		};
		for (size_t i = 0; i < sizeof two / sizeof *two; i++) {
			char args[512];
			snprintf(args, sizeof args, "%s -S -o -", two[i]);
			CmdResult a = wavecc(args);
			snprintf(args, sizeof args, "%s -S -o /dev/null --stats", two[i]);
			CmdResult d = wavecc(args);
			snprintf(args, sizeof args, "%s -S -o /dev/null --stats --schedule none", two[i]);
			CmdResult n = wavecc(args);
			ck_assert_msg(a.status == 0 && d.status == 0 && n.status == 0, "%s%s%s", a.err, d.err, n.err);
			ck_assert_msg(strstr(a.out, "// schedule: prefetch, 1 loop prefetched"), "%s", two[i]);
			ck_assert_int_eq(stat(d.out, "\nwaves per SIMD"), 2);
			ck_assert_int_eq(stat(n.out, "\nwaves per SIMD"), i ? 2 : 3);
			cmd_result_free(&a);
			cmd_result_free(&d);
			cmd_result_free(&n);
		}
	}
	{
		/* GQA attention fills the registers without it (vanilla attention
		 * no longer does since issue 13's savings): asked for, the schedule
		 * spills into AGPRs; by default it gives way rather than spill (no
		 * more AGPRs than without the schedule, and no more VGPRs: the
		 * plain form also drops the loop-invariant reads' hoisting, which
		 * --schedule none keeps where it costs no wave) */
		const char *k = "compile tests/driver/wave/gqa_bshd_attention_16x16x16.json -S -o /dev/null --stats";
		char args[512];
		CmdResult d = wavecc(k);
		snprintf(args, sizeof args, "%s --schedule none", k);
		CmdResult n = wavecc(args);
		snprintf(args, sizeof args, "%s --schedule prefetch", k);
		CmdResult p = wavecc(args);
		ck_assert_msg(d.status == 0 && n.status == 0 && p.status == 0, "%s%s%s", d.err, n.err, p.err);
		ck_assert_int_gt(stat(p.out, "\nagpr"), stat(n.out, "\nagpr"));
		ck_assert_int_eq(stat(d.out, "\nagpr"), stat(n.out, "\nagpr"));
		ck_assert_int_le(stat(d.out, "\nvgpr"), stat(n.out, "\nvgpr"));
		cmd_result_free(&d);
		cmd_result_free(&n);
		cmd_result_free(&p);
	}
}
END_TEST

START_TEST(kernel_options_are_read)
{
	/* "options": {"schedule": "prefetch", "lds_stages": 2}: one barrier
	 * in the loop; the command line's --lds-stages 1 wins over it */
	CmdResult r = wavecc("run tests/driver/data/gemm_prefetch_options.json --mcpu gfx90a");
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "status %d\n%s%s", r.status, r.out, r.err);
	cmd_result_free(&r);
	r = wavecc("compile tests/driver/data/gemm_prefetch_options.json -S -o -");
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(count(r.out, "s_barrier"), 3); /* prologue 2, loop 1 */
	cmd_result_free(&r);
	r = wavecc("compile tests/driver/data/gemm_prefetch_options.json -S -o - --lds-stages 1");
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(count(r.out, "s_barrier"), 4); /* prologue 2, loop 2 */
	cmd_result_free(&r);
}
END_TEST

/* The code compiled with opts, without its "// schedule:" header line. */
static char *code_without_schedule_line(const char *opts)
{
	char args[512];
	snprintf(args, sizeof args, "compile examples/gemm_16x16x16.json -S -o - %s", opts);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
	char *line = strstr(r.out, "// schedule: ");
	ck_assert_msg(line, "%s", r.out);
	char *end = strchr(line, '\n');
	memmove(line, end + 1, strlen(end + 1) + 1);
	char *text = strdup(r.out);
	cmd_result_free(&r);
	return text;
}

START_TEST(wave_schedule_names)
{
	/* modulo: Wave pairs it with multi-buffering; 256x256 tiles hold one
	 * wave per SIMD by their AGPRs, so the second LDS buffer costs none;
	 * four_stage is a schedule of its own there (four_stage_reads_the_next_trip) */
	const char *big = "-D BLOCK_M=256 -D BLOCK_N=256 -D BLOCK_K=16 -D M=512 -D N=512 -D K=512";
	char opts[256];
	snprintf(opts, sizeof opts, "%s --schedule prefetch --lds-stages 2", big);
	char *want = code_without_schedule_line(opts);
	snprintf(opts, sizeof opts, "%s --schedule modulo", big);
	char *got = code_without_schedule_line(opts);
	ck_assert_msg(strcmp(want, got) == 0, "modulo differs from prefetch with 2 LDS stages");
	free(got);
	snprintf(opts, sizeof opts, "%s --schedule four_stage", big);
	got = code_without_schedule_line(opts);
	ck_assert_msg(strcmp(want, got) != 0, "four_stage is prefetch with 2 LDS stages");
	free(got);
	free(want);
	/* where the second buffer costs waves (64x64 tiles: 4 workgroups per
	 * CU in 16 KiB of LDS, 8 in 8 KiB), they give way, to one buffer
	 * (four_stage through prefetch with two) */
	want = code_without_schedule_line("--schedule prefetch");
	got = code_without_schedule_line("--schedule modulo");
	ck_assert_str_eq(want, got);
	free(got);
	got = code_without_schedule_line("--schedule four_stage");
	ck_assert_str_eq(want, got);
	free(got);
	got = code_without_schedule_line("--schedule prefetch_attention");
	ck_assert_str_eq(want, got);
	free(want);
	free(got);
	/* the header says what was compiled for what was asked */
	char args[512];
	snprintf(args, sizeof args, "compile examples/gemm_16x16x16.json %s -S -o - --schedule modulo", big);
	CmdResult r = wavecc(args);
	ck_assert_msg(strstr(r.out, "// schedule: prefetch, 1 loop prefetched, 1 with 2 LDS buffers (asked: modulo)\n"),
		"%s", r.out);
	cmd_result_free(&r);
	r = wavecc("compile examples/gemm_16x16x16.json -S -o - --schedule modulo");
	ck_assert_msg(strstr(r.out, "// schedule: prefetch, 1 loop prefetched, 0 with 2 LDS buffers (asked: modulo)\n"),
		"%s", r.out);
	cmd_result_free(&r);
	r = wavecc("compile examples/gemm_16x16x16.json -S -o - --schedule four_stage");
	ck_assert_msg(strstr(r.out, "// schedule: prefetch, 1 loop prefetched, 0 with 2 LDS buffers (asked: four_stage)\n"),
		"%s", r.out);
	cmd_result_free(&r);
	snprintf(args, sizeof args, "compile examples/gemm_16x16x16.json %s -S -o - --schedule four_stage", big);
	r = wavecc(args);
	ck_assert_msg(strstr(r.out, "// schedule: four_stage, 1 loop prefetched, 1 with 2 LDS buffers, 1 in four stages\n"),
		"%s", r.out);
	cmd_result_free(&r);
	r = wavecc("compile examples/gemm_16x16x16.json -S -o - --schedule none");
	ck_assert_msg(strstr(r.out, "// schedule: none, 0 loops prefetched, 0 with 2 LDS buffers\n"), "%s", r.out);
	cmd_result_free(&r);
	/* in the kernel's options, with Wave's multi_buffer_count; both targets */
	const char *mcpu[] = {"gfx942", "gfx90a"};
	for (int i = 0; i < 2; i++) {
		char args[256];
		snprintf(args, sizeof args, "run tests/driver/data/gemm_wave_schedule_options.json --mcpu %s", mcpu[i]);
		r = wavecc(args);
		ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s\n%s%s", args, r.out, r.err);
		cmd_result_free(&r);
	}
	r = wavecc("compile tests/driver/data/gemm_wave_schedule_options.json -S -o -");
	ck_assert_msg(strstr(r.out, "(asked: four_stage)"), "%s", r.out);
	cmd_result_free(&r);
	/* modulo gives way as the default does: this attention allocates at
	 * fewer waves per SIMD with it than without (a ping-pong loop keeps
	 * its prefetch at two: default_schedule), as with the default */
	const char *att = "compile tests/driver/wave/vanilla_attention_causal_sw_16x16x16.json -D B=2 -S -o /dev/null "
			  "--stats";
	snprintf(args, sizeof args, "%s --schedule modulo", att);
	CmdResult m = wavecc(args);
	CmdResult n = wavecc(att);
	ck_assert_msg(m.status == 0 && n.status == 0, "%s%s", m.err, n.err);
	ck_assert_int_eq(stat(m.out, "\nwaves per SIMD"), stat(n.out, "\nwaves per SIMD"));
	cmd_result_free(&m);
	cmd_result_free(&n);
}
END_TEST

START_TEST(bad_options_are_located)
{
	CmdResult r = wavecc("compile tests/driver/data/gemm_bad_options.json -S -o /dev/null");
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "gemm_bad_options.json:148:5: error: options.unroll: unknown field 'unroll'") &&
			      strstr(r.err, ":145:17: error: options.schedule: unknown schedule 'fast' (none, prefetch, "
					    "modulo, four_stage or prefetch_attention)") &&
			      strstr(r.err, ":146:19: error: options.lds_stages: 3 is out of range [1, 2]") &&
			      strstr(r.err, ":147:27: error: options.multi_buffer_count: 3 is out of range [1, 2]"),
		"%s", r.err);
	cmd_result_free(&r);
	/* Wave's options that steer only Wave's code generation: accepted,
	 * type-checked */
	const char *dir0 = test_tmpdir("prefetch_wave_options");
	const char *extra[] = {"\"canonicalize\": true, \"use_buffer_ops\": false, \"use_scheduling_barriers\": true,",
		"\"use_buffer_ops\": 1,"};
	for (int i = 0; i < 2; i++) {
		char cmd0[2048];
		snprintf(cmd0, sizeof cmd0,
			"cd '%s' && sed 's/\"four_stage\",/\"four_stage\", %s/' "
			"tests/driver/data/gemm_wave_schedule_options.json > '%s/k.json' && '%s' compile '%s/k.json' -S -o /dev/null",
			test_root(), extra[i], dir0, test_bin(), dir0);
		r = run_cmd(cmd0, NULL);
		if (i == 0)
			ck_assert_msg(r.status == 0, "%s", r.err);
		else
			ck_assert_msg(r.status == 1 && strstr(r.err, "error: options.use_buffer_ops: expected a boolean"), "%s",
				r.err);
		cmd_result_free(&r);
	}
	/* Wave's name and wavecc's for the LDS stages must agree */
	char cmd[2048];
	const char *dir = test_tmpdir("prefetch_options");
	snprintf(cmd, sizeof cmd,
		"cd '%s' && sed 's/\"four_stage\",/\"four_stage\", \"lds_stages\": 1,/' "
		"tests/driver/data/gemm_wave_schedule_options.json > '%s/k.json' && '%s' compile '%s/k.json' -o /dev/null",
		test_root(), dir, test_bin(), dir);
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "k.json:146:27: error: options.multi_buffer_count: 2 disagrees with lds_stages 1"),
		"%s", r.err);
	cmd_result_free(&r);
	r = wavecc("compile examples/gemm_16x16x16.json --schedule fast");
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "--schedule fast: expected none, prefetch, modulo, four_stage or prefetch_attention"),
		"%s", r.err);
	cmd_result_free(&r);
}
END_TEST

START_TEST(waves_per_eu_is_checked)
{
	/* 256x256 tiles take 256 AGPRs: one wave per SIMD, not four; the
	 * kernel stands (Wave's LLVM would spill to scratch memory to meet the
	 * target; wavecc spills only where the registers run out) and a
	 * warning says so */
	CmdResult r = wavecc("run examples/gemm_16x16x16.json -D BLOCK_M=256 -D BLOCK_N=256 "
			     "-D M=512 -D N=512 --waves-per-eu 4");
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s%s", r.out, r.err);
	ck_assert_msg(strstr(r.err, "warning: waves_per_eu 4 not met: it allows 128 VGPRs and AGPRs per wave; the "
				    "kernel needs") &&
			      strstr(r.err, "): 1 wave per SIMD (wavecc spills to scratch memory only where the registers run "
					    "out"),
		"%s", r.err);
	cmd_result_free(&r);
	r = wavecc("compile examples/gemm_16x16x16.json -S -o /dev/null --waves-per-eu 4");
	ck_assert_msg(r.status == 0 && !strstr(r.err, "warning"), "%s", r.err);
	cmd_result_free(&r);
	/* a schedule asked for by name gives way to a target it misses: this
	 * attention allocates at 2 waves per SIMD prefetched, 3 without */
	const char *att = "compile tests/driver/wave/vanilla_attention_causal_sw_16x16x16.json -D B=2 -S -o - "
			  "--schedule prefetch";
	char args[512];
	snprintf(args, sizeof args, "%s --waves-per-eu 3", att);
	r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "// schedule: none, 0 loops prefetched") && !strstr(r.err, "warning"),
		"%s%s", r.out, r.err);
	cmd_result_free(&r);
	snprintf(args, sizeof args, "%s --waves-per-eu 2", att);
	r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "// schedule: prefetch, 1 loop prefetched"), "%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* The asked order within a trip (--interleave, options.interleave):
 * the loop changes, the kernels still pass on both targets, bad patterns
 * are located errors. */
START_TEST(interleave_option)
{
	const char *mcpu[] = {"gfx942", "gfx90a"};
	for (int i = 0; i < 2; i++) {
		char args[256];
		snprintf(args, sizeof args, "run examples/gemm_16x16x16.json -D K=160 --interleave mfma:1,lds:1 --mcpu %s",
			mcpu[i]);
		CmdResult r = wavecc(args);
		ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s\n%s%s", args, r.out, r.err);
		cmd_result_free(&r);
	}
	char *def = loop_text(""), *asked = loop_text("--interleave mfma:1,lds:1");
	ck_assert_msg(strcmp(def, asked) != 0, "the asked order changed nothing");
	free(def);
	free(asked);
	char cmd[2048];
	const char *dir = test_tmpdir("prefetch_interleave");
	const char *pats[] = {"mfma:2,lds:1,vmem-load:1", "mfma"};
	for (int i = 0; i < 2; i++) {
		snprintf(cmd, sizeof cmd,
			"cd '%s' && sed 's/\"four_stage\",/\"four_stage\", \"interleave\": \"%s\",/' "
			"tests/driver/data/gemm_wave_schedule_options.json > '%s/k.json' && '%s' run '%s/k.json'",
			test_root(), pats[i], dir, test_bin(), dir);
		CmdResult r = run_cmd(cmd, NULL);
		if (i == 0)
			ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s%s", r.out, r.err);
		else
			ck_assert_msg(r.status == 1 && strstr(r.err, "k.json:144:14: error: options.interleave 'mfma': a group "
								   "without ':COUNT'"),
				"%s", r.err);
		cmd_result_free(&r);
	}
	CmdResult r = wavecc("compile examples/gemm_16x16x16.json --interleave mfma:1,branch:1");
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "--interleave 'mfma:1,branch:1': an unknown class"), "%s", r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver/prefetch");
	TCase *tc = tcase_create("prefetch");
	tcase_set_timeout(tc, 300);
	test_add_loop_sampled(tc, prefetched_gemm_passes, 4 * NGEMM);
	test_add_loop_sampled(tc, four_stage_gemm_passes, 2 * NGEMM);
	test_add_loop_sampled(tc, four_stage_kept_gemm_passes, 2 * NKEPT);
	tcase_add_test(tc, prefetch_loads_after_the_mfmas);
	tcase_add_test(tc, unaligned_k_loop_is_split);
	test_add_loop_sampled(tc, split_loop_passes, 8 * NSPLIT);
	tcase_add_test(tc, four_stage_reads_the_next_trip);
	tcase_add_test(tc, default_schedule);
	tcase_add_test(tc, kernel_options_are_read);
	tcase_add_test(tc, wave_schedule_names);
	tcase_add_test(tc, bad_options_are_located);
	tcase_add_test(tc, interleave_option);
	tcase_add_test(tc, waves_per_eu_is_checked);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
