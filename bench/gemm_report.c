/* gemm_report.c — the static quality of compiled GEMMs, next to clang -O3
 * (clang-19; clang-22 for gfx950, which LLVM 19 does not know) on an
 * equivalent OpenCL kernel with the same tiling, in one run (`make
 * bench-gemm`; issue 11 item 9). Rows of gfx950's own MFMAs print on gfx950
 * only.
 *
 * Per kernel: the main loop (the innermost backward branch holding the most
 * MFMAs), its instructions per MFMA, registers (VGPR + AGPR), LDS bytes and
 * the waves per SIMD they allow (driver/stats.c's model, the same for both
 * sides), and llvm-mca-22's view of the loop on the target: cycles per
 * iteration and the XDL (matrix core) pipe's busy cycles per iteration, whose
 * ratio is the MFMA pressure — how much of the loop's time one wave keeps
 * the matrix core busy. llvm-mca-22 is used because llvm-mca-19 crashes on
 * buffer instructions. Its model is one wave, in order, with fixed
 * latencies (80 cycles for a buffer load, 500 for s_barrier): a static
 * figure to compare code with, not a time; other waves hide latency on
 * the hardware. Nothing here ran on a GPU.
 *
 * The reference is tests/validate/kernels/gemm_lds.cl: 64x64 workgroup
 * tiles, K steps of 32 through padded LDS rows, 2x2 waves of 16x16x16 f16
 * MFMAs — the tiling of examples/gemm_16x16x16.json (the first row).
 *
 * Usage: gemm_report WAVECC [--mcpu gfx942] (from the repository root). */
#include <string.h>
#include <unistd.h>

#include "../driver/stats.h"
#include "bench.h"
#include "loop_report.h"

typedef struct Row {
	const char *name, *args; /* kernel file and -D values */
	const char *only;        /* the one target the row's MMA exists on, or NULL */
} Row;

static const Row rows[] = {
	{"gemm_16x16x16 (shared, 64x64x32, 2x2 waves)", "examples/gemm_16x16x16.json", NULL},
	{"gemm_global (global, 64x64x32, 2x2 waves)", "examples/gemm_global.json", NULL},
	{"gemm_32x32x8 (shared, 64x64x32)", "examples/gemm_32x32x8.json", NULL},
	{"gemm_16x16x16 128x128x32", "examples/gemm_16x16x16.json -D BLOCK_M=128 -D BLOCK_N=128 -D M=256 -D N=256", NULL},
	{"gemm_16x16x16 256x256x32 (AGPR acc)",
		"examples/gemm_16x16x16.json -D BLOCK_M=256 -D BLOCK_N=256 -D M=512 -D N=512", NULL},
	{"gemm bf16 32x32x8 (shared)", "tests/driver/data/gemm_bf16_32x32x8.json", NULL},
	{"gemm 16x16x32 f16 (gfx950 MFMA, 64x64x32)", "tests/driver/wave/cdna4_gemm_16x16x32_f16_f16.json", "gfx950"},
	{"gemm 32x32x16 f16 (gfx950 MFMA, 64x64x32)", "tests/driver/wave/cdna4_gemm_32x32x16_f16_f16.json", "gfx950"},
};


typedef struct Quality {
	int insts, mfmas;       /* in the main loop */
	int vgpr, agpr, sgpr, lds, waves;
	double cycles, xdl;     /* llvm-mca per iteration */
	bool ok;
} Quality;

/* The main loop of the assembly text `s` into q (instructions, MFMAs, mca). */
static void loop_quality(char *s, const char *mcpu, const char *tmp, Quality *q)
{
	LoopStats l = {0};
	loop_report(s, mcpu, tmp, &l);
	q->insts = l.insts;
	q->mfmas = l.mfmas;
	q->cycles = l.cycles;
	q->xdl = l.xdl;
	q->ok = l.mca;
}

static int meta_int(const char *s, const char *key)
{
	const char *p = strstr(s, key);
	return p ? atoi(p + strlen(key)) : 0;
}

static void occupancy(Quality *q, const char *mcpu)
{
	Occupancy o;
	stats_occupancy(target_from_name(mcpu), q->vgpr > 0 ? q->vgpr : 1, q->agpr, q->sgpr > 0 ? q->sgpr : 1, q->lds,
		256, &o);
	q->waves = o.waves_per_simd;
}

static void print_row(const char *name, const Quality *q)
{
	printf("%-46s %6d %5d %8.1f %5d %5d %6d %6d", name, q->insts, q->mfmas, q->mfmas ? (double)q->insts / q->mfmas : 0,
		q->vgpr, q->agpr, q->lds, q->waves);
	if (q->ok)
		printf(" %8.1f %6.1f %6.1f%%\n", q->cycles, q->xdl, q->cycles > 0 ? 100.0 * q->xdl / q->cycles : 0);
	else
		printf(" %8s %6s %7s\n", "-", "-", "-");
}

int main(int argc, char **argv)
{
	if (argc < 2)
		bench_fail(2, "usage: gemm_report WAVECC [--mcpu gfx942]");
	const char *wavecc = argv[1], *mcpu = argc > 3 && strcmp(argv[2], "--mcpu") == 0 ? argv[3] : "gfx942";
	if (!target_from_name(mcpu))
		bench_fail(2, "gemm_report: unknown --mcpu %s", mcpu);
	char tmp[] = "/tmp/gemm_report.XXXXXX";
	if (!mkdtemp(tmp))
		bench_fail(1, "gemm_report: no temporary folder");
	printf("GEMM static report, %s (llvm-mca-22: one wave, in order, fixed latencies; not a time)\n", mcpu);
	printf("%-46s %6s %5s %8s %5s %5s %6s %6s %8s %6s %7s\n", "kernel", "loop", "mfma", "inst/mf", "vgpr", "agpr",
		"lds", "w/simd", "cyc/it", "xdl/it", "xdl%");
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		if (rows[i].only && strcmp(rows[i].only, mcpu) != 0)
			continue;
		char cmd[8192];
		Quality q = {0};
		snprintf(cmd, sizeof cmd, "'%s' compile %s --mcpu %s -S -o - 2>/dev/null", wavecc, rows[i].args, mcpu);
		char *s = bench_run_out(cmd);
		if (!s) {
			printf("%-46s did not compile\n", rows[i].name);
			continue;
		}
		q.vgpr = meta_int(s, ".vgpr_count: ");
		q.agpr = meta_int(s, ".agpr_count: ");
		q.sgpr = meta_int(s, ".amdhsa_next_free_sgpr ");
		q.lds = meta_int(s, ".group_segment_fixed_size: ");
		loop_quality(s, mcpu, tmp, &q);
		free(s);
		occupancy(&q, mcpu);
		print_row(rows[i].name, &q);
	}
	/* the reference: clang -O3 on the same tiling */
	const char *clang = bench_clang(mcpu);
	char cmd[8192], label[96];
	snprintf(cmd, sizeof cmd,
		"%s -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O3 -S -o - "
		"tests/validate/kernels/gemm_lds.cl 2>/dev/null",
		clang, mcpu);
	char *s = bench_run_out(cmd);
	Quality q = {0};
	if (s) {
		q.vgpr = meta_int(s, ".vgpr_count:");
		q.agpr = meta_int(s, ".agpr_count:");
		q.sgpr = meta_int(s, ".sgpr_count:");
		q.lds = meta_int(s, ".group_segment_fixed_size:");
		loop_quality(s, mcpu, tmp, &q);
		free(s);
		occupancy(&q, mcpu);
		snprintf(label, sizeof label, "%s -O3 gemm_lds.cl (64x64x32, 2x2 waves)", clang);
		print_row(label, &q);
	} else {
		printf("%s on tests/validate/kernels/gemm_lds.cl did not run\n", clang);
	}
	char rm[4200];
	snprintf(rm, sizeof rm, "rm -rf '%s'", tmp);
	if (system(rm) != 0)
		fprintf(stderr, "gemm_report: could not remove %s\n", tmp);
	printf("loop: instructions in the main loop; inst/mf: per MFMA; w/simd: waves per SIMD the registers and LDS "
	       "allow; cyc/it: llvm-mca cycles per loop trip; xdl/it: matrix-core busy cycles per trip; xdl%%: their "
	       "ratio (MFMA pressure)\n");
	return 0;
}
