/* api_threads_test.c — the library from several threads at once: each
 * thread loads its own kernels, compiles them, runs them on the emulator
 * and checks them against the interpreter, while every thread also
 * compiles, runs and interprets one shared kernel handle (its calls take
 * turns on the handle's lock) and makes a call that fails: the diagnostics
 * each thread sees are its own. Any data race in the process-wide state
 * (interned names, the emulator's decode tables, libelf, the SIGPIPE
 * disposition while llvm-mc runs, the thread's diagnostics) shows as a
 * wrong result, a crash or, under check-asan, a report. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/wavecc.h"
#include "../test.h"

enum { THREADS = 4, ROUNDS = 2 };

static const char *const KERNELS[] = {"copy.json", "add.json", "reduce_sum.json", "softmax.json", "gemm_global.json",
	"cast.json"};

static wavecc_kernel *shared;

/* A kernel's argument i as a buffer of its size, seeded. */
static wavecc_buffer buffer(const wavecc_kernel *k, size_t i, uint64_t seed, char *why, size_t why_len)
{
	wavecc_arg_info info;
	char *err = NULL;
	wavecc_buffer b = {0};
	if (wavecc_kernel_arg(k, i, &info, &err) != WAVECC_OK) {
		snprintf(why, why_len, "arg %zu: %s", i, err);
		free(err);
		return b;
	}
	b = (wavecc_buffer){info.name, calloc(1, info.bytes + 1), info.bytes};
	if (wavecc_fill_random(k, i, seed, b.data, b.bytes, &err) != WAVECC_OK) {
		snprintf(why, why_len, "fill %zu: %s", i, err);
		free(err);
	}
	return b;
}

/* Compile k, run it and interpret it on the same inputs; "" when the
 * results agree, else why not. */
static void check_kernel(const wavecc_kernel *k, uint64_t seed, char *why, size_t why_len)
{
	char *err = NULL;
	wavecc_compiled *c = wavecc_compile(k, NULL, &err);
	if (!c) {
		snprintf(why, why_len, "%s: compile: %s", wavecc_kernel_name(k), err);
		free(err);
		return;
	}
	size_t n = wavecc_kernel_num_args(k);
	wavecc_buffer got[8], want[8];
	for (size_t i = 0; i < n && i < 8 && !why[0]; i++) {
		got[i] = buffer(k, i, seed, why, why_len);
		want[i] = got[i];
		want[i].data = malloc(got[i].bytes + 1);
		memcpy(want[i].data, got[i].data, got[i].bytes);
	}
	if (!why[0] && wavecc_run(c, WAVECC_BACKEND_EMULATOR, got, n, &err) != WAVECC_OK)
		snprintf(why, why_len, "%s: run: %s", wavecc_kernel_name(k), err);
	else if (!why[0] && wavecc_interpret(k, want, n, &err) != WAVECC_OK)
		snprintf(why, why_len, "%s: interpret: %s", wavecc_kernel_name(k), err);
	free(err);
	for (size_t i = 0; i < n && !why[0]; i++) {
		wavecc_arg_info info;
		wavecc_kernel_arg(k, i, &info, NULL);
		if (!info.writes)
			continue;
		size_t count = info.bytes / info.element_size, bad = 0;
		for (size_t e = 0; e < count; e++) {
			double g, w;
			if (strcmp(info.dtype, "f32") == 0) {
				g = ((float *)got[i].data)[e];
				w = ((float *)want[i].data)[e];
			} else {
				/* other types: bit for bit (copies, casts to
				 * 16 bits are exact in both) */
				g = memcmp((char *)got[i].data + e * info.element_size,
					    (char *)want[i].data + e * info.element_size, info.element_size);
				w = 0;
			}
			bad += !(fabs(g - w) <= 1e-3 + 2e-3 * fabs(w));
		}
		if (bad)
			snprintf(why, why_len, "%s: %s: %zu of %zu elements differ", wavecc_kernel_name(k), info.name, bad,
				count);
	}
	for (size_t i = 0; i < n && i < 8; i++) {
		free(got[i].data);
		free(want[i].data);
	}
	wavecc_compiled_free(c);
}

typedef struct {
	int id;
	char why[1024];
} Worker;

static void *work(void *arg)
{
	Worker *w = arg;
	char path[4096];
	for (int r = 0; r < ROUNDS && !w->why[0]; r++) {
		const char *name = KERNELS[(w->id + r) % (sizeof KERNELS / sizeof *KERNELS)];
		snprintf(path, sizeof path, "%s/examples/%s", test_root(), name);
		char *err = NULL;
		wavecc_kernel *k = wavecc_kernel_load(path, &err);
		if (!k) {
			snprintf(w->why, sizeof w->why, "%s: %s", name, err);
			free(err);
			break;
		}
		check_kernel(k, (uint64_t)(w->id * 10 + r), w->why, sizeof w->why);
		wavecc_kernel_free(k);
		if (!w->why[0])
			check_kernel(shared, (uint64_t)w->id, w->why, sizeof w->why);
		/* a failing call: this thread's diagnostics say so, and only it */
		wavecc_options o = {.target = w->id % 2 ? "gfx1100" : "gfx1030"};
		if (!w->why[0] && wavecc_compile(shared, &o, NULL)) {
			snprintf(w->why, sizeof w->why, "compile for %s succeeded", o.target);
		} else if (!w->why[0]) {
			wavecc_diagnostic d = {.struct_size = sizeof d};
			if (wavecc_last_diagnostic_count() != 1 || wavecc_last_diagnostic(0, &d) != WAVECC_OK ||
				!strstr(d.message, o.target))
				snprintf(w->why, sizeof w->why, "thread %d: its diagnostic is not its own: %s", w->id,
					d.message ? d.message : "(none)");
		}
	}
	return NULL;
}

START_TEST(threads_compile_and_run_at_once)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/examples/gemm_global.json", test_root());
	char *err = NULL;
	shared = wavecc_kernel_load(path, &err);
	ck_assert_msg(shared, "%s", err);
	pthread_t t[THREADS];
	Worker w[THREADS];
	for (int i = 0; i < THREADS; i++) {
		w[i] = (Worker){.id = i};
		ck_assert_int_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	for (int i = 0; i < THREADS; i++)
		ck_assert_msg(!w[i].why[0], "thread %d: %s", i, w[i].why);
	wavecc_kernel_free(shared);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver/api_threads");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, threads_compile_and_run_at_once);
	suite_add_tcase(s, t);
	return run_suite(s);
}
