/* schedule_report.c — what the reduction loop's schedule buys, in one run
 * (`make bench-schedule`; issue 15 item 5): for the GEMM configurations
 * (including 4096x4096x4096 f16 with Wave's large tiles) and attention, per
 * schedule (none, prefetch, four_stage): the cycle model's matrix-core utilisation and
 * modeled TFLOP/s (`wavecc profile --json`, docs/cycle-model.md) and
 * llvm-mca-22's MFMA pressure of the main loop (XDL busy cycles over cycles
 * per trip, bench/loop_report.c).
 *
 * Every figure is a model's: the cycle model simulates one CU and scales to
 * the grid; llvm-mca models one wave in order. Nothing here ran on a GPU.
 *
 * Beside them, for the LDS GEMM rows, clang -O3 (clang-19; clang-22 for gfx950) on the same tiling:
 * bench/ref/gemm_lds_tiled.cl built with the row's tile, K step and wave
 * grid (-D BM, BN, BK, WAVES_M, WAVES_N; the workgroup shaped as wavecc's)
 * through the same cycle model (bench/ref_profile.c), llvm-mca-22's MFMA
 * pressure of its main loop, and the ratio of wavecc's prefetch schedule's
 * modeled TFLOP/s to clang's. Rows without an
 * OpenCL kernel of their tiling print "-".
 *
 * Usage: schedule_report WAVECC [--mcpu gfx942] (from the repository root). */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "loop_report.h"
#include "ref_profile.h"

/* A tiling of bench/ref/gemm_lds_tiled.cl: tile, K step, waves along M and N. */
typedef struct Tiling {
	int bm, bn, bk, wm, wn;
} Tiling;

typedef struct Row {
	const char *name, *args; /* kernel file and -D values */
	Tiling clang;            /* clang-19's kernel of the same tiling; bm 0: none */
} Row;

#define BIG "-D M=4096 -D N=4096 -D K=4096"
static const Row rows[] = {
	{"gemm 64x64x32 2x2 waves, 4096^3", "examples/gemm_16x16x16.json " BIG, {64, 64, 32, 2, 2}},
	{"gemm 128x128x32 2x2 waves, 4096^3", "examples/gemm_16x16x16.json -D BLOCK_M=128 -D BLOCK_N=128 " BIG,
		{128, 128, 32, 2, 2}},
	{"gemm 128x128x64 2x2 waves, 4096^3",
		"examples/gemm_16x16x16.json -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 " BIG, {128, 128, 64, 2, 2}},
	{"gemm 256x128x64 2x2 waves, 4096^3",
		"examples/gemm_16x16x16.json -D BLOCK_M=256 -D BLOCK_N=128 -D BLOCK_K=64 " BIG, {256, 128, 64, 2, 2}},
	{"gemm 128x256x64 4x2 waves (Wave pingpong), 4096^3", "tests/driver/wave/wg_gemm_pingpong_16x16x16.json " BIG,
		{128, 256, 64, 4, 2}},
	{"gemm 32x32x8 64x64x32, 4096^3", "examples/gemm_32x32x8.json " BIG, {0}},
	{"gemm_global 64x64x32, 4096^3", "examples/gemm_global.json " BIG, {0}},
	{"vanilla attention 16x16x16", "tests/driver/wave/vanilla_attention_16x16x16.json", {0}},
};

static const char *const schedules[] = {"none", "prefetch", "four_stage"};

typedef struct Figures {
	double util, tflops; /* cycle model; NAN when it did not run */
	double mca;          /* llvm-mca XDL busy / cycles per trip; NAN without */
} Figures;

/* The cycle model's figures of a compiled launch descriptor. */
static void profile(const char *wavecc, const char *launch, Figures *f)
{
	char args[4200];
	snprintf(args, sizeof args, "'%s'", launch);
	ProfileFig p = ref_profile(wavecc, args);
	if (p.ok) {
		f->util = p.util;
		f->tflops = p.tflops;
	}
}

/* The main loop's llvm-mca MFMA pressure of the row at a schedule. */
static void mca(const char *wavecc, const Row *r, const char *sched, const char *mcpu, const char *tmp, Figures *f)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "'%s' compile %s --schedule %s --mcpu %s -S -o - 2>/dev/null", wavecc, r->args, sched,
		mcpu);
	char *s = bench_run_out(cmd);
	if (!s)
		return;
	LoopStats l = {0};
	loop_report(s, mcpu, tmp, &l);
	free(s);
	if (l.mca && l.cycles > 0)
		f->mca = l.xdl / l.cycles;
}

static Figures measure(const char *wavecc, const Row *r, const char *sched, const char *mcpu, const char *tmp)
{
	Figures f = {NAN, NAN, NAN};
	char cmd[4096], launch[512];
	snprintf(launch, sizeof launch, "%s/k.launch.json", tmp);
	snprintf(cmd, sizeof cmd, "'%s' compile %s --schedule %s --mcpu %s -o '%s/k.hsaco' >/dev/null 2>&1", wavecc,
		r->args, sched, mcpu, tmp);
	if (system(cmd) == 0)
		profile(wavecc, launch, &f);
	mca(wavecc, r, sched, mcpu, tmp, &f);
	return f;
}

/* clang-19 -O3's bench/ref/gemm_lds_tiled.cl at the row's tiling through
 * the cycle model at the row's sizes, and llvm-mca-22's MFMA pressure of its
 * main loop (its assembly, -S, through the loop finder wavecc's rows use). */
static Figures clang_figures(const char *wavecc, const Row *r, const char *mcpu, const char *tmp)
{
	Figures f = {NAN, NAN, NAN};
	const Tiling *t = &r->clang;
	if (t->bm == 0)
		return f;
	char flags[256], launch[2048];
	snprintf(flags, sizeof flags, "-D BM=%d -D BN=%d -D BK=%d -D WAVES_M=%d -D WAVES_N=%d", t->bm, t->bn, t->bk, t->wm,
		t->wn);
	/* the workgroup as wavecc shapes it: WAVES_M waves along x, WAVES_N along y; LDS rows padded by 8 halves */
	snprintf(launch, sizeof launch,
		"\"workgroup_size\": [%d, %d, 1], \"grid\": [\"M // %d\", \"N // %d\", 1], \"lds_bytes\": %d, " REF_GEMM_ARGS,
		64 * t->wm, t->wn, t->bm, t->bn, (t->bm + t->bn) * (t->bk + 8) * 2);
	Ref ref = {"bench/ref/gemm_lds_tiled.cl", flags, "gemm_lds_tiled", launch};
	char *path = ref_build(&ref, mcpu, tmp);
	if (!path)
		return f;
	char args[4200];
	snprintf(args, sizeof args, "'%s' %s", path, BIG);
	free(path);
	ProfileFig p = ref_profile(wavecc, args);
	if (p.ok) {
		f.util = p.util;
		f.tflops = p.tflops;
	}
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		"%s -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O3 %s -S -o - %s 2>/dev/null", bench_clang(mcpu), mcpu,
		flags, ref.cl);
	char *s = bench_run_out(cmd);
	if (s) {
		LoopStats l = {0};
		loop_report(s, mcpu, tmp, &l);
		free(s);
		if (l.mca && l.cycles > 0)
			f.mca = l.xdl / l.cycles;
	}
	return f;
}

static void pct(double v)
{
	if (isnan(v))
		printf(" %8s", "-");
	else
		printf(" %7.1f%%", 100.0 * v);
}

static void num(double v)
{
	if (isnan(v))
		printf(" %8s", "-");
	else
		printf(" %8.1f", v);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		bench_fail(2, "usage: schedule_report WAVECC [--mcpu gfx942]");
	const char *wavecc = argv[1], *mcpu = argc > 3 && strcmp(argv[2], "--mcpu") == 0 ? argv[3] : "gfx942";
	char tmp[] = "/tmp/schedule_report.XXXXXX";
	if (!mkdtemp(tmp))
		bench_fail(1, "schedule_report: no temporary folder");
	printf("Reduction-loop schedules, %s: cycle model (wavecc profile: matrix-core utilisation, modeled TFLOP/s) "
	       "and llvm-mca-22 MFMA pressure of the main loop; models, not measurements\n",
		mcpu);
	printf("%-50s %-9s %9s %8s %8s %9s %8s %9s %8s\n", "kernel", "schedule", "mc util", "TFLOP/s", "mca xdl",
		"clang util", "clang TF", "clang mca", "pf/clang");
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		Figures c = clang_figures(wavecc, &rows[i], mcpu, tmp);
		for (size_t k = 0; k < sizeof schedules / sizeof schedules[0]; k++) {
			Figures f = measure(wavecc, &rows[i], schedules[k], mcpu, tmp);
			printf("%-50s %-9s", rows[i].name, schedules[k]);
			pct(f.util);
			num(f.tflops);
			pct(f.mca);
			pct(c.util);
			num(c.tflops);
			pct(c.mca);
			/* the prefetch schedule's modeled TFLOP/s over clang's */
			if (strcmp(schedules[k], "prefetch") == 0 && !isnan(f.tflops) && c.tflops > 0)
				printf(" %7.2fx", f.tflops / c.tflops);
			else
				printf(" %8s", "-");
			printf("\n");
			fflush(stdout);
		}
	}
	char rm[4200];
	snprintf(rm, sizeof rm, "rm -rf '%s'", tmp);
	if (system(rm) != 0)
		fprintf(stderr, "schedule_report: could not remove %s\n", tmp);
	return 0;
}
