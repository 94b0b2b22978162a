/* schedule_report.c — what the reduction loop's schedule buys, in one run
 * (`make bench-schedule`; issue 15 item 5): for the GEMM configurations
 * (including 4096x4096x4096 f16 with Wave's large tiles) and attention, per
 * schedule (none, prefetch): the cycle model's matrix-core utilisation and
 * modeled TFLOP/s (`wavecc profile --json`, docs/cycle-model.md) and
 * llvm-mca-22's MFMA pressure of the main loop (XDL busy cycles over cycles
 * per trip, bench/loop_report.c).
 *
 * Every figure is a model's: the cycle model simulates one CU and scales to
 * the grid; llvm-mca models one wave in order. Nothing here ran on a GPU.
 *
 * The clang-19 -O3 column (the same tiling as OpenCL through the cycle
 * model) comes from bench/profile_report.c, which another change adds:
 * clang_figure() is the hook; until it lands the column prints "-".
 *
 * Usage: schedule_report WAVECC [--mcpu gfx942] (from the repository root). */
#include <jansson.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "loop_report.h"

typedef struct Row {
	const char *name, *args; /* kernel file and -D values */
} Row;

#define BIG "-D M=4096 -D N=4096 -D K=4096"
static const Row rows[] = {
	{"gemm 64x64x32 2x2 waves, 4096^3", "examples/gemm_16x16x16.json " BIG},
	{"gemm 128x128x32 2x2 waves, 4096^3", "examples/gemm_16x16x16.json -D BLOCK_M=128 -D BLOCK_N=128 " BIG},
	{"gemm 128x128x64 2x2 waves, 4096^3",
		"examples/gemm_16x16x16.json -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 " BIG},
	{"gemm 256x128x64 2x2 waves, 4096^3",
		"examples/gemm_16x16x16.json -D BLOCK_M=256 -D BLOCK_N=128 -D BLOCK_K=64 " BIG},
	{"gemm 128x256x64 4x2 waves (Wave pingpong), 4096^3", "tests/driver/wave/wg_gemm_pingpong_16x16x16.json " BIG},
	{"gemm 32x32x8 64x64x32, 4096^3", "examples/gemm_32x32x8.json " BIG},
	{"gemm_global 64x64x32, 4096^3", "examples/gemm_global.json " BIG},
	{"vanilla attention 16x16x16", "tests/driver/wave/vanilla_attention_16x16x16.json"},
};

static const char *const schedules[] = {"none", "prefetch"};

typedef struct Figures {
	double util, tflops; /* cycle model; NAN when it did not run */
	double mca;          /* llvm-mca XDL busy / cycles per trip; NAN without */
} Figures;

/* The cycle model's figures of a compiled launch descriptor. */
static void profile(const char *wavecc, const char *launch, Figures *f)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "'%s' profile '%s' --json 2>/dev/null", wavecc, launch);
	char *s = bench_run_out(cmd);
	json_error_t e;
	json_t *j = s ? json_loads(s, 0, &e) : NULL;
	free(s);
	if (!j)
		return;
	json_t *u = json_object_get(j, "matrix_utilisation"), *t = json_object_get(j, "tflops");
	if (json_is_number(u) && json_is_number(t)) {
		f->util = json_number_value(u);
		f->tflops = json_number_value(t);
	}
	json_decref(j);
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

/* The hook for clang-19 -O3 on the row's tiling through the cycle model
 * (bench/profile_report.c, another change): NAN until it is there. */
static double clang_figure(const Row *r, const char *mcpu)
{
	(void)r;
	(void)mcpu;
	return NAN;
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
	printf("%-50s %-9s %9s %8s %8s %9s\n", "kernel", "schedule", "mc util", "TFLOP/s", "mca xdl", "clang util");
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		for (size_t k = 0; k < sizeof schedules / sizeof schedules[0]; k++) {
			Figures f = measure(wavecc, &rows[i], schedules[k], mcpu, tmp);
			printf("%-50s %-9s", rows[i].name, schedules[k]);
			pct(f.util);
			num(f.tflops);
			pct(f.mca);
			pct(k == 0 ? clang_figure(&rows[i], mcpu) : NAN);
			printf("\n");
			fflush(stdout);
		}
	char rm[4200];
	snprintf(rm, sizeof rm, "rm -rf '%s'", tmp);
	if (system(rm) != 0)
		fprintf(stderr, "schedule_report: could not remove %s\n", tmp);
	return 0;
}
