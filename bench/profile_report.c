/* profile_report.c — modelled speed of wavecc's code next to clang-19 -O3's
 * on an equivalent OpenCL kernel of the same tiling, both in the same cycle
 * model (`make bench-profile`; issue 14 item 5; docs/cycle-model.md).
 *
 * For each row: `wavecc profile` of the compiled example (or GEMM
 * configuration of bench/gemm_report.c) at a realistic size, and, where an
 * equivalent OpenCL kernel exists, clang-19 -O3's code object of it run
 * through the same loader/profile path with a launch descriptor written
 * for it (bench/ref_profile.c, shared with schedule_report.c). Printed:
 * modelled TFLOP/s (MFMA kernels) or HBM GB/s (the others) of each side
 * and its fraction of the modelled peak (the chip's f16 matrix peak, or its
 * achievable HBM bandwidth). Every figure is a model's output
 * (loader/timing), not a measurement; nothing here ran on a GPU.
 *
 * The references: tests/validate/kernels/gemm_lds.cl (64x64x32 tiles through
 * LDS, 2x2 waves of 16x16x16 f16 MFMAs), gemm_bf16.cl (64x64 tiles of
 * 32x32x8 bf16 MFMAs, K steps of 16 where wavecc's example takes 32),
 * bench/ref/gemm_global.cl (gemm_lds.cl's tiling from global memory) and
 * bench/ref/copy.cl (copy.json's tiling). Rows without one print "-".
 *
 * Usage: profile_report WAVECC [--mcpu gfx942|gfx90a] (from the repository
 * root). */
#include <string.h>
#include <unistd.h>

#include "../loader/timing/timing.h"
#include "bench.h"
#include "loop_report.h"
#include "ref_profile.h"

static const Ref REF_GEMM_LDS = {"tests/validate/kernels/gemm_lds.cl", "", "gemm_lds",
	"\"workgroup_size\": [256, 1, 1], \"grid\": [\"M // 64\", \"N // 64\", 1], \"lds_bytes\": 10240, "
	REF_GEMM_ARGS};

static const Ref REF_GEMM_GLOBAL = {"bench/ref/gemm_global.cl", "", "gemm_global",
	"\"workgroup_size\": [256, 1, 1], \"grid\": [\"M // 64\", \"N // 64\", 1], \"lds_bytes\": 0, "
	REF_GEMM_ARGS};

static const Ref REF_GEMM_BF16 = {"tests/validate/kernels/gemm_bf16.cl", "-I tests/validate/kernels", "gemm_bf16",
	"\"workgroup_size\": [256, 1, 1], \"grid\": [\"N // 64\", \"M // 64\", 1], \"lds_bytes\": 4480, "
	"\"kernarg_size\": 36, \"args\": ["
	"{\"name\": \"A\", \"kind\": \"buffer\", \"dtype\": \"bf16\", \"shape\": [\"M\", \"K\"], \"offset\": 0, \"access\": \"read\"},"
	"{\"name\": \"B\", \"kind\": \"buffer\", \"dtype\": \"bf16\", \"shape\": [\"K\", \"N\"], \"offset\": 8, \"access\": \"read\"},"
	"{\"name\": \"C\", \"kind\": \"buffer\", \"dtype\": \"f32\", \"shape\": [\"M\", \"N\"], \"offset\": 16, \"access\": \"write\"},"
	"{\"name\": \"M\", \"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 24},"
	"{\"name\": \"N\", \"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 28},"
	"{\"name\": \"K\", \"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 32}]"};

static const Ref REF_COPY = {"bench/ref/copy.cl", "", "copy",
	"\"workgroup_size\": [64, 1, 1], \"grid\": [\"N // 256\", \"M\", 1], \"lds_bytes\": 0, "
	"\"kernarg_size\": 20, \"args\": ["
	"{\"name\": \"a\", \"kind\": \"buffer\", \"dtype\": \"f16\", \"shape\": [\"M\", \"N\"], \"offset\": 0, \"access\": \"read\"},"
	"{\"name\": \"b\", \"kind\": \"buffer\", \"dtype\": \"f16\", \"shape\": [\"M\", \"N\"], \"offset\": 8, \"access\": \"write\"},"
	"{\"name\": \"N\", \"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 16}]"};

typedef struct Row {
	const char *name, *args; /* wavecc's kernel file and -D values */
	const Ref *ref;          /* the equivalent OpenCL kernel, or NULL */
	const char *ref_defs;    /* its -D values */
} Row;

#define GEMM4K "-D M=4096 -D N=4096 -D K=4096"
static const Row rows[] = {
	{"gemm_16x16x16 (LDS, 64x64x32)", "examples/gemm_16x16x16.json " GEMM4K, &REF_GEMM_LDS, GEMM4K},
	{"gemm_global (64x64x32)", "examples/gemm_global.json " GEMM4K, &REF_GEMM_GLOBAL, GEMM4K},
	{"gemm_32x32x8 (LDS, 64x64x32)", "examples/gemm_32x32x8.json " GEMM4K, NULL, NULL},
	{"gemm_global_32x32x8 (64x64x32)", "examples/gemm_global_32x32x8.json " GEMM4K, NULL, NULL},
	{"gemm_16x16x16 128x128x32", "examples/gemm_16x16x16.json " GEMM4K " -D BLOCK_M=128 -D BLOCK_N=128", NULL, NULL},
	{"gemm_16x16x16 256x256x32 (AGPR acc)", "examples/gemm_16x16x16.json " GEMM4K " -D BLOCK_M=256 -D BLOCK_N=256",
		NULL, NULL},
	{"gemm bf16 32x32x8 (LDS, 64x64x32; ref K 16)", "tests/driver/data/gemm_bf16_32x32x8.json " GEMM4K, &REF_GEMM_BF16,
		GEMM4K},
	{"gemm_dynamic (64x64x32)", "examples/gemm_dynamic.json " GEMM4K, NULL, NULL},
	{"gemm_unaligned 4000x4000x4000", "examples/gemm_unaligned.json -D M=4000 -D N=4000 -D K=4000", NULL, NULL},
	{"batched_gemm 16x1024^3 (32x32x16)", "examples/batched_gemm.json -D B=16 -D M=1024 -D N=1024 -D K=1024", NULL,
		NULL},
	{"gemm_global_unaligned 4000x4000x4000", "examples/gemm_global_unaligned.json -D M=4000 -D N=4000 -D K=4000", NULL,
		NULL},
	{"conv2d_igemm N=4 C=64 32x32 NF=64", "examples/conv2d_igemm.json -D N=4 -D C=64 -D H=32 -D W=32 -D NF=64", NULL,
		NULL},
	{"attention B=16 M=N=1024 K1=64 K2=1024", "examples/attention.json -D B=16 -D M=1024 -D N=1024 -D K1=64 -D K2=1024",
		NULL, NULL},
	{"attention_masked B=16 M=N=1024 K1=64 K2=1000",
		"examples/attention_masked.json -D B=16 -D M=1024 -D N=1024 -D K1=64 -D K2=1000", NULL, NULL},
	{"decode_attention_phase0 (example sizes)", "examples/decode_attention_phase0.json", NULL, NULL},
	{"decode_attention_phase1 (example sizes)", "examples/decode_attention_phase1.json", NULL, NULL},
	{"copy 8192x8192 f16", "examples/copy.json -D M=8192 -D N=8192", &REF_COPY, "-D M=8192 -D N=8192"},
	{"copy_aligned 8192x8192 f16", "examples/copy_aligned.json -D M=8192 -D N=8192", &REF_COPY, "-D M=8192 -D N=8192"},
	{"copy_dynamic 8192x8192", "examples/copy_dynamic.json -D M=8192 -D N=8192", NULL, NULL},
	{"add 8192x8192", "examples/add.json -D M=8192 -D N=8192", NULL, NULL},
	{"cast 8192x8192", "examples/cast.json -D M=8192 -D N=8192", NULL, NULL},
	{"softmax 8192x1024", "examples/softmax.json -D M=8192 -D N=1024", NULL, NULL},
	{"softmax_wide 8192x1024", "examples/softmax_wide.json -D M=8192", NULL, NULL},
	{"reduce_sum 8192x1024", "examples/reduce_sum.json -D M=8192 -D N=1024", NULL, NULL},
	{"reduce_max 8192x1024", "examples/reduce_max.json -D M=8192 -D N=1024", NULL, NULL},
	{"reduce_block 8192x4096", "examples/reduce_block.json -D M=8192 -D N=4096", NULL, NULL},
};

/* "412.3 (31.5%)" of a figure against its peak, or "-". */
static void cell(char *out, size_t n, const ProfileFig *f, bool mfma, double matrix_peak, double hbm)
{
	if (!f || !f->ok) {
		snprintf(out, n, "%s", f ? "did not run" : "-");
		return;
	}
	double v = mfma ? f->tflops : f->gbps, peak = mfma ? matrix_peak : hbm;
	snprintf(out, n, "%.1f (%.1f%%)", v, 100 * v / peak);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		bench_fail(2, "usage: profile_report WAVECC [--mcpu gfx942|gfx90a]");
	const char *wavecc = argv[1], *mcpu = argc > 3 && strcmp(argv[2], "--mcpu") == 0 ? argv[3] : "gfx942";
	if (strcmp(mcpu, "gfx942") != 0 && strcmp(mcpu, "gfx90a") != 0)
		bench_fail(2, "profile_report: unknown --mcpu %s", mcpu);
	EmuArch arch = strcmp(mcpu, "gfx90a") == 0 ? EMU_GFX90A : EMU_GFX942;
	TmParams p;
	tm_params(arch, &p);
	double matrix_peak = (arch == EMU_GFX90A ? 1024.0 : 2048.0) * p.cus * p.clock_mhz * 1e6 / 1e12;
	double hbm = p.hbm_gbps * p.hbm_efficiency;
	char tmp[] = "/tmp/profile_report.XXXXXX";
	if (!mkdtemp(tmp))
		bench_fail(1, "profile_report: no temporary folder");
	printf("Modelled speed, wavecc vs clang-19 -O3 (same tiling), %s: %s (%.0f TFLOP/s f16 matrix peak, %.0f GB/s "
	       "achievable HBM). A model's output (docs/cycle-model.md), not a measurement.\n",
	       mcpu, arch == EMU_GFX90A ? "MI250X, one GCD" : "MI300X", matrix_peak, hbm);
	printf("%-46s %-6s %18s %18s %7s\n", "kernel", "unit", "wavecc (% peak)", "clang-19 (% peak)", "ratio");
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const Row *r = &rows[i];
		char args[4096];
		snprintf(args, sizeof args, "%s --mcpu %s", r->args, mcpu);
		ProfileFig w = ref_profile(wavecc, args), c = {0};
		bool has_ref = r->ref != NULL;
		if (has_ref) {
			char *launch = ref_build(r->ref, mcpu, tmp);
			if (launch) {
				snprintf(args, sizeof args, "%s %s", launch, r->ref_defs);
				c = ref_profile(wavecc, args);
				free(launch);
			}
		}
		bool mfma = (w.ok && w.tflops > 0) || (c.ok && c.tflops > 0);
		char a[64], b[64], ratio[32] = "-";
		cell(a, sizeof a, &w, mfma, matrix_peak, hbm);
		cell(b, sizeof b, has_ref ? &c : NULL, mfma, matrix_peak, hbm);
		double wv = mfma ? w.tflops : w.gbps, cv = mfma ? c.tflops : c.gbps;
		if (w.ok && c.ok && cv > 0)
			snprintf(ratio, sizeof ratio, "%.2f", wv / cv);
		printf("%-46s %-6s %18s %18s %7s\n", r->name, mfma ? "TFLOP/s" : "GB/s", a, b, ratio);
	}
	char rm[4200];
	snprintf(rm, sizeof rm, "rm -rf '%s'", tmp);
	if (system(rm) != 0)
		fprintf(stderr, "profile_report: could not remove %s\n", tmp);
	printf("%% peak: of the f16 matrix peak (TFLOP/s) or of the achievable HBM bandwidth (GB/s); ratio: wavecc over "
	       "clang-19; -: no equivalent OpenCL kernel of that tiling in the tree\n");
	return 0;
}
