/* validate_bench.c — emulator speed on real compiler output: the project's
 * LDS-staged GEMM reference kernel (tests/validate/kernels/gemm_lds.cl, 64x64
 * tiles and K steps of 32 through LDS, v_mfma_f32_16x16x16_f16) compiled by
 * clang-19 -O3 for gfx942 and run with its launch descriptor by
 * `wavecc run -v` (the binary beside this program, $(BUILD)/wavecc) on the
 * emulator with seeded random inputs.
 *
 * Figures: wave instructions executed, emulator seconds (its own timer) and
 * wave instructions per second; the reference measured in the same run is a
 * naive host C GEMM of the same shape (f16 inputs widened to f32), reported
 * as the ratio emulator time / host time.
 *
 *   validate_bench [--quick] [KERNEL_DIR]
 *
 * KERNEL_DIR (default tests/validate/kernels) holds gemm_lds.cl and
 * gemm_lds.launch.json. Build and run from the repository root:
 *   make build/wavecc build/bench/validate_bench && build/bench/validate_bench */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../util/util.h"

#include "bench.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Host reference: C[M][N] = A[M][K] * B[N][K]^T in f32, A and B given as f32. */
static double host_gemm(int M, int N, int K)
{
	float *a = xmalloc((size_t)M * K * 4), *b = xmalloc((size_t)N * K * 4), *c = xmalloc((size_t)M * N * 4);
	for (int i = 0; i < M * K; i++)
		a[i] = (float)(i % 17) * 0.125f - 1.0f;
	for (int i = 0; i < N * K; i++)
		b[i] = (float)(i % 13) * 0.25f - 1.5f;
	double t0 = now_s();
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += a[i * K + k] * b[j * K + k];
			c[i * N + j] = s;
		}
	double t = now_s() - t0;
	volatile float sink = c[(M - 1) * N + N - 1];
	(void)sink;
	free(a), free(b), free(c);
	return t;
}

int main(int argc, char **argv)
{
	bool quick = false;
	const char *kdir = "tests/validate/kernels";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = true;
		else if (argv[i][0] == '-')
			bench_fail(2, "validate_bench [--quick] [KERNEL_DIR]");
		else
			kdir = argv[i];
	}
	int M = quick ? 128 : 512, N = M, K = quick ? 64 : 512;
	char dir[] = "/tmp/validate-bench-XXXXXX";
	if (!mkdtemp(dir))
		die("mkdtemp failed");
	Buf cmd = {0};
	buf_printf(&cmd,
		   "clang-19 -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O3 '%s/gemm_lds.cl' "
		   "-o '%s/gemm_lds.hsaco'",
		   kdir, dir);
	double tc = now_s();
	if (system(buf_cstr(&cmd)) != 0)
		bench_fail(1, "clang-19 could not compile %s/gemm_lds.cl", kdir);
	tc = now_s() - tc;
	/* the descriptor names its code object relative to itself: copy it beside the build */
	char desc[256], src[1024];
	snprintf(desc, sizeof desc, "%s/gemm_lds.launch.json", dir);
	snprintf(src, sizeof src, "%s/gemm_lds.launch.json", kdir);
	size_t jlen;
	char *json = read_file(src, &jlen);
	if (!json)
		bench_fail(1, "cannot read %s", src);
	if (write_file_atomic(desc, json, jlen, 0644) != 0)
		die("cannot write %s", desc);
	free(json);

	/* run the wavecc binary beside this one ($(BUILD)/wavecc), as a user would */
	char *self = realpath(argv[0], NULL);
	if (!self)
		die("cannot resolve %s", argv[0]);
	char *slash = strrchr(self, '/');
	*slash = 0;
	buf_clear(&cmd);
	buf_printf(&cmd, "'%s/../wavecc' run '%s' -D M=%d -D N=%d -D K=%d --random 1 -v 2>&1", self, desc, M, N, K);
	free(self);
	double t0 = now_s();
	FILE *f = popen(buf_cstr(&cmd), "r");
	if (!f)
		die("popen failed");
	char line[512];
	unsigned long long insns = 0, waves = 0;
	double secs = 0;
	bool got = false;
	while (fgets(line, sizeof line, f)) {
		/* the emulator's own report: "wavecc: emulator ran N wave instructions in W waves (T s)" */
		const char *p = strstr(line, "emulator ran ");
		if (p && sscanf(p, "emulator ran %llu wave instructions in %llu waves (%lf s)", &insns, &waves, &secs) == 3)
			got = true;
	}
	int st = pclose(f);
	double wall = now_s() - t0;
	if (st != 0 || !got)
		bench_fail(1, "wavecc run failed on gemm_lds (status %d): %s", st, buf_cstr(&cmd));
	if (secs <= 0)
		secs = wall;
	double th = host_gemm(M, N, K);
	printf("gemm_lds %dx%dx%d (clang-19 -O3, %.0f ms to compile): %llu wave instructions in %llu waves\n", M, N,
	       K, tc * 1e3, insns, waves);
	printf("  emulator: %.3f s (%.3f s wall incl. process, loading, buffers), %.2f M wave instructions/s\n", secs, wall,
	       (double)insns / secs * 1e-6);
	printf("  reference: host C GEMM of the same shape %.4f s; emulator / host = %.1fx\n", th, secs / th);
	buf_free(&cmd);
	snprintf(desc, sizeof desc, "rm -rf '%s'", dir);
	if (system(desc) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return 0;
}
