/* api_gemm.c — wavecc's C library in use: compile a kernel graph in memory,
 * run the code object on the emulator, run the reference interpreter on the
 * same inputs, and compare.
 *
 *   cc api_gemm.c $(pkg-config --cflags --libs wavecc) -o api_gemm
 *   ./api_gemm examples/gemm_global.json [TARGET]
 *
 * Prints the kernel's statistics line by line, then one line per buffer the
 * kernel writes, then PASS or FAIL; exits 0 on PASS. Floats are compared
 * with |got - want| <= 1e-3 + 2e-3 |want| (the f16 inputs accumulate in
 * f32 on both sides; the tolerance covers the order of the sums). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wavecc.h>

/* Element i of a buffer as a double; only the types the example needs. */
static double load(const char *dtype, const void *p, size_t i)
{
	if (strcmp(dtype, "f32") == 0)
		return ((const float *)p)[i];
	if (strcmp(dtype, "i32") == 0)
		return ((const int32_t *)p)[i];
	if (strcmp(dtype, "f16") == 0) { /* IEEE half, by hand: no compiler extension needed */
		uint16_t h = ((const uint16_t *)p)[i];
		int e = h >> 10 & 31, m = h & 1023;
		double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
		return h >> 15 ? -v : v;
	}
	return NAN;
}

static int fail(const char *what, char *error)
{
	fprintf(stderr, "api_gemm: %s:\n%s", what, error ? error : "(no message)\n");
	free(error);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: api_gemm KERNEL.json [TARGET]\n");
		return 2;
	}
	char *error = NULL;
	printf("wavecc %s\n", wavecc_version());
	wavecc_kernel *k = wavecc_kernel_load(argv[1], &error);
	if (!k)
		return fail("cannot load the kernel", error);
	wavecc_options o = {.target = argc == 3 ? argv[2] : "gfx942"};
	wavecc_compiled *c = wavecc_compile(k, &o, &error);
	if (!c)
		return fail("cannot compile", error);
	fputs(wavecc_compiled_stats(c), stdout);

	/* one buffer per argument for the kernel, one for the interpreter */
	size_t n = wavecc_kernel_num_args(k);
	wavecc_buffer *got = calloc(n, sizeof *got), *want = calloc(n, sizeof *want);
	wavecc_arg_info *info = calloc(n, sizeof *info);
	for (size_t i = 0; i < n; i++) {
		if (wavecc_kernel_arg(k, i, &info[i], &error) != WAVECC_OK)
			return fail("argument", error);
		got[i] = (wavecc_buffer){info[i].name, calloc(1, info[i].bytes + 1), info[i].bytes};
		want[i] = (wavecc_buffer){info[i].name, calloc(1, info[i].bytes + 1), info[i].bytes};
		if (wavecc_fill_random(k, i, 1, got[i].data, got[i].bytes, &error) != WAVECC_OK)
			return fail("inputs", error);
		memcpy(want[i].data, got[i].data, info[i].bytes);
	}
	if (wavecc_run(c, WAVECC_BACKEND_EMULATOR, got, n, &error) != WAVECC_OK)
		return fail("the run failed", error);
	if (wavecc_interpret(k, want, n, &error) != WAVECC_OK)
		return fail("the interpreter failed", error);

	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		if (!info[i].writes)
			continue;
		size_t count = info[i].bytes / info[i].element_size, wrong = 0;
		double max_err = 0;
		for (size_t e = 0; e < count; e++) {
			double g = load(info[i].dtype, got[i].data, e), w = load(info[i].dtype, want[i].data, e);
			double err = fabs(g - w);
			max_err = err > max_err ? err : max_err;
			wrong += !(err <= 1e-3 + 2e-3 * fabs(w));
		}
		printf("%s %s: %zu elements %s, max abs err %.3g, %zu wrong\n", wrong ? "FAIL" : "PASS", info[i].name, count,
			info[i].dtype, max_err, wrong);
		bad += wrong != 0;
	}
	printf("%s\n", bad ? "FAIL" : "PASS");
	for (size_t i = 0; i < n; i++) {
		free(got[i].data);
		free(want[i].data);
	}
	free(got);
	free(want);
	free(info);
	wavecc_compiled_free(c);
	wavecc_kernel_free(k);
	return bad ? 1 : 0;
}
