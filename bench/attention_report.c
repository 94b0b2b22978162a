/* attention_report.c — the static cost of the compiled attention kernels
 * (`make bench-attention`; issue 13 item 6), all measured in one run.
 *
 * Per kernel: registers (VGPR, AGPR, SGPR), LDS bytes and the waves per
 * SIMD they allow, as `wavecc compile --stats` reports them (driver/stats.c),
 * and the main loop (loop_report.c: the innermost backward branch holding
 * the most MFMAs — the loop over K2, with both MMAs and the online softmax):
 * its instructions by class, per MFMA, and llvm-mca-22's cycles per trip
 * and matrix-core (XDL) busy cycles per trip, whose ratio is the MFMA
 * pressure. llvm-mca's model is one wave, in order, with fixed latencies:
 * a figure to compare code with, not a time. Nothing here ran on a GPU.
 *
 * The reference is the simplest MFMA loop there is, measured the same way
 * in the same run: clang-19 -O3 on tests/validate/kernels/gemm_lds.cl (the
 * reference of gemm_report.c; 64x64x32 tiles, 2x2 waves of 16x16x16), and
 * wavecc's GEMM of that tiling. The ratio columns divide an attention
 * loop's instructions per MFMA and its MFMA pressure by clang's GEMM's: an
 * attention loop also computes a softmax per MFMA, so it needs more
 * instructions per MFMA than a GEMM; the ratio says how many more.
 *
 * Usage: attention_report WAVECC [--mcpu gfx942] (from the repository
 * root). */
#include <string.h>
#include <unistd.h>

#include "../driver/stats.h"
#include "bench.h"
#include "loop_report.h"

typedef struct Row {
	const char *name, *args; /* kernel file and -D values */
} Row;

/* Wave's shapes as wave_test.c runs them (the kernels' own symbols) */
static const Row rows[] = {
	{"vanilla 16x16x16 (Wave, 128x64, K2 by 64)", "tests/driver/wave/vanilla_attention_16x16x16.json"},
	{"vanilla 32x32x8 (Wave, 128x64, K2 by 64)", "tests/driver/wave/vanilla_attention_32x32x8.json"},
	{"causal sliding window 16x16x16 (Wave)", "tests/driver/wave/vanilla_attention_causal_sw_16x16x16.json"},
	{"examples/attention.json", "examples/attention.json"},
	{"decode phase 0 16x16x16 (Wave)", "tests/driver/wave/decode_attention_phase0_16x16x16.json"},
	{"extend 16x16x16 (Wave, SGLang)", "tests/driver/wave/extend_attention_16x16x16.json"},
	{"extend causal 16x16x16 (Wave, SGLang)", "tests/driver/wave/extend_attention_causal_16x16x16.json"},
	{"paged decode phase 1 (Wave, SGLang)", "tests/driver/wave/paged_decode_phase1_f16.json -D B=16 -D N=64"},
	{"gemm_16x16x16 (reference: 64x64x32, 2x2)", "examples/gemm_16x16x16.json"},
};
#define NROWS (sizeof rows / sizeof rows[0])

typedef struct Cost {
	int vgpr, agpr, sgpr, lds, waves;
	LoopStats loop;
	bool whole; /* no loop: the whole kernel measured */
	bool ok;    /* compiled */
} Cost;

/* The value after `key` at the start of a line of the --stats report. */
static int stat_int(const char *s, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = s; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, key, n) == 0 && p[n] == ' ')
			return atoi(p + n);
	return -1;
}

static int meta_int(const char *s, const char *key)
{
	const char *p = strstr(s, key);
	return p ? atoi(p + strlen(key)) : 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0, k;
	char *b = malloc(cap);
	while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
		n += k;
		if (n + 1 >= cap)
			b = realloc(b, cap *= 2);
	}
	b[n] = 0;
	fclose(f);
	return b;
}

/* One wavecc kernel: --stats for the resources, -S for the loop. */
static void wavecc_cost(const char *wavecc, const Row *r, const char *mcpu, const char *tmp, Cost *c)
{
	char cmd[8192], path[4096];
	snprintf(path, sizeof path, "%s/k.s", tmp);
	snprintf(cmd, sizeof cmd, "'%s' compile %s --mcpu %s -S --stats -o '%s' 2>/dev/null", wavecc, r->args, mcpu, path);
	char *st = bench_run_out(cmd);
	char *s = st ? slurp(path) : NULL;
	if (s) {
		c->vgpr = stat_int(st, "vgpr");
		c->agpr = stat_int(st, "agpr");
		c->sgpr = stat_int(st, "sgpr");
		c->lds = stat_int(st, "lds bytes");
		c->waves = stat_int(st, "waves per SIMD");
		char *copy = strdup(s);
		loop_report(s, mcpu, tmp, &c->loop);
		if (!c->loop.found) {
			c->whole = true;
			body_report(copy, mcpu, tmp, &c->loop);
		}
		free(copy);
		c->ok = true;
	}
	free(st);
	free(s);
}

/* The reference: clang-19 -O3 on gemm_lds.cl; its occupancy by the same
 * model (driver/stats.c) for its 256 work-items. */
static void clang_cost(const char *mcpu, const char *tmp, Cost *c)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd,
		"clang-19 -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O3 -S -o - "
		"tests/validate/kernels/gemm_lds.cl 2>/dev/null",
		mcpu);
	char *s = bench_run_out(cmd);
	if (!s)
		return;
	c->vgpr = meta_int(s, ".vgpr_count:");
	c->agpr = meta_int(s, ".agpr_count:");
	c->sgpr = meta_int(s, ".sgpr_count:");
	c->lds = meta_int(s, ".group_segment_fixed_size:");
	loop_report(s, mcpu, tmp, &c->loop);
	free(s);
	Occupancy o;
	stats_occupancy(target_from_name(mcpu), c->vgpr > 0 ? c->vgpr : 1, c->agpr, c->sgpr > 0 ? c->sgpr : 1, c->lds,
		256, &o);
	c->waves = o.waves_per_simd;
	c->ok = true;
}

static double per_mfma(const LoopStats *l) { return l->mfmas ? (double)l->insts / l->mfmas : 0; }
static double pressure(const LoopStats *l) { return l->mca && l->cycles > 0 ? 100.0 * l->xdl / l->cycles : 0; }

static void print_resources(const char *name, const Cost *c, const Cost *ref)
{
	const LoopStats *l = &c->loop, *rl = &ref->loop;
	char label[128];
	snprintf(label, sizeof label, "%s%s", name, c->whole ? " *" : "");
	printf("%-44s %5d %5d %5d %6d %6d %5d %5d %7.1f %6.2fx", label, c->vgpr, c->agpr, c->sgpr, c->lds, c->waves,
		l->insts, l->mfmas, per_mfma(l), per_mfma(rl) > 0 ? per_mfma(l) / per_mfma(rl) : 0);
	if (l->mca && rl->mca)
		printf(" %8.1f %6.1f%% %6.2fx\n", l->cycles, pressure(l), pressure(rl) > 0 ? pressure(l) / pressure(rl) : 0);
	else
		printf(" %8s %7s %7s\n", "-", "-", "-");
}

static void print_classes(const char *name, const Cost *c)
{
	char label[128];
	snprintf(label, sizeof label, "%s%s", name, c->whole ? " *" : "");
	printf("%-44s", label);
	for (int k = 0; k < MC_COUNT; k++)
		printf(" %9d", c->loop.by_class[k]);
	printf(" %6d\n", c->loop.unknown);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		bench_fail(2, "usage: attention_report WAVECC [--mcpu gfx942]");
	const char *wavecc = argv[1], *mcpu = argc > 3 && strcmp(argv[2], "--mcpu") == 0 ? argv[3] : "gfx942";
	if (!target_from_name(mcpu))
		bench_fail(2, "attention_report: unknown --mcpu %s", mcpu);
	char tmp[] = "/tmp/attention_report.XXXXXX";
	if (!mkdtemp(tmp))
		bench_fail(1, "attention_report: no temporary folder");
	Cost cost[NROWS] = {{0}}, ref = {0};
	for (size_t i = 0; i < NROWS; i++)
		wavecc_cost(wavecc, &rows[i], mcpu, tmp, &cost[i]);
	clang_cost(mcpu, tmp, &ref);
	const char *ref_name = "clang-19 -O3 gemm_lds.cl (reference)";

	printf("Attention static report, %s (main loop; llvm-mca-22: one wave, in order, fixed latencies; not a time)\n",
		mcpu);
	printf("%-44s %5s %5s %5s %6s %6s %5s %5s %7s %7s %8s %7s %7s\n", "kernel", "vgpr", "agpr", "sgpr", "lds",
		"w/simd", "loop", "mfma", "inst/mf", "vs ref", "cyc/it", "xdl%", "vs ref");
	for (size_t i = 0; i < NROWS; i++) {
		if (cost[i].ok && cost[i].loop.found)
			print_resources(rows[i].name, &cost[i], &ref);
		else
			printf("%-44s %s\n", rows[i].name, cost[i].ok ? "no loop with MFMAs" : "did not compile");
	}
	if (ref.ok && ref.loop.found)
		print_resources(ref_name, &ref, &ref);
	else
		printf("%-44s did not run\n", ref_name);

	printf("\nMain loop instructions by class (the classes of --stats)\n%-44s", "kernel");
	for (int k = 0; k < MC_COUNT; k++)
		printf(" %9s", isa_class_name[k]);
	printf(" %6s\n", "other");
	for (size_t i = 0; i < NROWS; i++)
		if (cost[i].ok && cost[i].loop.found)
			print_classes(rows[i].name, &cost[i]);
	if (ref.ok && ref.loop.found)
		print_classes(ref_name, &ref);

	char rm[4200];
	snprintf(rm, sizeof rm, "rm -rf '%s'", tmp);
	if (system(rm) != 0)
		fprintf(stderr, "attention_report: could not remove %s\n", tmp);
	printf("w/simd: waves per SIMD the registers and LDS allow; loop: instructions in the main loop; inst/mf: per "
	       "MFMA; cyc/it: llvm-mca cycles per loop trip; xdl%%: matrix-core busy cycles per trip over cyc/it (MFMA "
	       "pressure); vs ref: the value over clang-19's GEMM loop's; *: no loop (one K2 tile per workgroup), the "
	       "whole kernel measured\n");
	return 0;
}
