/* sweep_bench.c — compile time per variant of a 100-variant GEMM sweep
 * (issue 10, item 8): the variants compiled in one process with one llvm-mc
 * run (`wavecc compile --sweep`, and wavecc_compile_many in process) next
 * to the same variants compiled one process each (`wavecc compile -D`), in
 * the same run on the same machine.
 *
 *   sweep_bench WAVECC KERNEL.json [-n RUNS]
 *
 * The sweep is BLOCK_M in {32, 64} x BLOCK_N in {32, 64} x BLOCK_K in
 * {16, 32, 64, 128, 256} x K in {256, 512, 1024, 2048, 4096} with M = N =
 * 1024: 100 variants of examples/gemm_global.json, all of which compile.
 * Each figure is the best of RUNS (default 3) wall times; outputs go to a
 * temporary folder removed at the end. Run by `make bench-sweep`. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../include/wavecc.h"
#include "../util/util.h"

#include "bench.h"

static const int BM[] = {32, 64}, BN[] = {32, 64}, BK[] = {16, 32, 64, 128, 256}, KS[] = {256, 512, 1024, 2048, 4096};
enum { NVAR = 2 * 2 * 5 * 5 };

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void sh(const char *cmd)
{
	if (system(cmd) != 0)
		die("command failed: %s", cmd);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		bench_fail(2, "usage: sweep_bench WAVECC KERNEL.json [-n RUNS]");
	const char *bin = argv[1], *kernel = argv[2];
	int runs = argc >= 5 && strcmp(argv[3], "-n") == 0 ? atoi(argv[4]) : 3;
	if (runs < 1)
		runs = 1;
	const char *tmp = tempdir_create("wavecc-sweep-bench");
	if (!tmp)
		die("cannot create a temporary folder");
	char cmd[8192];
	double best_one = 1e30, best_each = 1e30, best_api = 1e30;
	int compiled = 0;

	for (int r = 0; r < runs; r++) {
		/* one process, one llvm-mc run */
		snprintf(cmd, sizeof cmd,
			"'%s' compile '%s' -D M=1024 -D N=1024 --sweep BLOCK_M=32,64 --sweep BLOCK_N=32,64 "
			"--sweep BLOCK_K=16,32,64,128,256 --sweep K=256,512,1024,2048,4096 -o '%s/one' > '%s/one.txt'",
			bin, kernel, tmp, tmp);
		double t0 = now();
		sh(cmd);
		double t1 = now();
		best_one = MIN(best_one, t1 - t0);

		/* one process per variant */
		t0 = now();
		for (int v = 0; v < NVAR; v++) {
			snprintf(cmd, sizeof cmd,
				"'%s' compile '%s' -D M=1024 -D N=1024 -D BLOCK_M=%d -D BLOCK_N=%d -D BLOCK_K=%d -D K=%d "
				"-o '%s/each.hsaco'",
				bin, kernel, BM[v / 50], BN[v / 25 % 2], BK[v / 5 % 5], KS[v % 5], tmp);
			sh(cmd);
		}
		t1 = now();
		best_each = MIN(best_each, t1 - t0);

		/* the library, in process */
		char *err = NULL;
		wavecc_kernel *ks[NVAR];
		wavecc_compiled *out[NVAR];
		t0 = now();
		for (int v = 0; v < NVAR; v++) {
			ks[v] = wavecc_kernel_load(kernel, &err);
			if (!ks[v])
				die("%s", err);
			const char *names[] = {"M", "N", "BLOCK_M", "BLOCK_N", "BLOCK_K", "K"};
			int vals[] = {1024, 1024, BM[v / 50], BN[v / 25 % 2], BK[v / 5 % 5], KS[v % 5]};
			for (int s = 0; s < 6; s++)
				if (wavecc_kernel_set_symbol(ks[v], names[s], vals[s], &err) != WAVECC_OK)
					die("%s", err);
		}
		compiled = (int)wavecc_compile_many((const wavecc_kernel *const *)ks, NVAR, NULL, out, NULL);
		t1 = now();
		best_api = MIN(best_api, t1 - t0);
		for (int v = 0; v < NVAR; v++) {
			wavecc_compiled_free(out[v]);
			wavecc_kernel_free(ks[v]);
		}
	}
	snprintf(cmd, sizeof cmd, "%s/one.txt", tmp);
	size_t len;
	char *lines = read_file(cmd, &len);
	int nlines = 0;
	for (size_t i = 0; lines && i < len; i++)
		nlines += lines[i] == '\n';
	free(lines);
	tempdir_remove(tmp);

	printf("sweep of %d variants of %s (best of %d runs; %d compiled in process, %d lines from --sweep)\n", NVAR,
		kernel, runs, compiled, nlines);
	printf("%-44s %10s %12s %8s\n", "", "total s", "ms/variant", "ratio");
	printf("%-44s %10.3f %12.2f %8.2f\n", "one process each (wavecc compile -D)", best_each, 1000 * best_each / NVAR,
		1.0);
	printf("%-44s %10.3f %12.2f %8.2f\n", "one process, one llvm-mc (wavecc --sweep)", best_one,
		1000 * best_one / NVAR, best_each / best_one);
	printf("%-44s %10.3f %12.2f %8.2f\n", "in process (wavecc_compile_many)", best_api, 1000 * best_api / NVAR,
		best_each / best_api);
	return compiled == NVAR && nlines == NVAR ? 0 : 1;
}
