/* api_test.c — the public library (include/wavecc.h) in process: every
 * error is a located message handed back (never printed), a kernel
 * compiles, runs on the emulator and matches the interpreter in memory,
 * symbols set on a handle reach compile, run and interpret alike, and the
 * handle's graph never changes. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/wavecc.h"
#include "../test.h"

static char path_buf[4096];
static const char *example(const char *name)
{
	snprintf(path_buf, sizeof path_buf, "%s/examples/%s", test_root(), name);
	return path_buf;
}

static float f16_to_float(uint16_t h)
{
	int e = h >> 10 & 31, m = h & 1023;
	float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m + 1024), e - 25);
	return h >> 15 ? -v : v;
}

START_TEST(errors_are_located_and_returned)
{
	char *err = (char *)1;
	ck_assert_ptr_null(wavecc_kernel_parse("{\"format\": ", 11, "bad.json", &err));
	ck_assert_msg(err && strstr(err, "bad.json:1:") && strstr(err, "error"), "%s", err);
	free(err);
	err = (char *)1;
	ck_assert_ptr_null(wavecc_kernel_load("/nonexistent/k.json", &err));
	ck_assert_msg(err && strstr(err, "/nonexistent/k.json"), "%s", err);
	free(err);
	/* NULL error pointers are allowed */
	ck_assert_ptr_null(wavecc_kernel_parse("[]", 2, NULL, NULL));
	ck_assert_ptr_null(wavecc_kernel_parse(NULL, 0, NULL, NULL));

	/* what the compiler does not take is located at the op */
	wavecc_kernel *k = wavecc_kernel_load(example("../tests/driver/data/softmax_big_workgroup.json"), &err);
	ck_assert_msg(k, "%s", err);
	ck_assert_ptr_null(err);
	ck_assert_ptr_null(wavecc_compile(k, NULL, &err));
	ck_assert_msg(err && strstr(err, "softmax_big_workgroup.json:13:5: error: constraints[0]"), "%s", err);
	free(err);
	/* an unknown target */
	wavecc_options o = {.target = "gfx1100"};
	ck_assert_ptr_null(wavecc_compile(k, &o, &err));
	ck_assert_msg(err && strstr(err, "unknown target gfx1100"), "%s", err);
	free(err);
	/* symbols */
	ck_assert_int_eq(wavecc_kernel_set_symbol(k, "NO_SUCH", 1, &err), WAVECC_EARG);
	ck_assert_msg(err && strstr(err, "no symbol NO_SUCH"), "%s", err);
	free(err);
	ck_assert_int_eq(wavecc_kernel_set_symbol(NULL, "M", 1, &err), WAVECC_EARG);
	free(err);
	wavecc_arg_info info;
	ck_assert_int_eq(wavecc_kernel_arg(k, 99, &info, &err), WAVECC_EARG);
	free(err);
	wavecc_kernel_free(k);
	wavecc_kernel_free(NULL);
	wavecc_compiled_free(NULL);
	ck_assert_str_eq(wavecc_version(), WAVECC_VERSION_STRING);
}
END_TEST

/* gemm_global: compile in memory, run on the emulator, interpret, compare. */
START_TEST(gemm_compiles_runs_and_matches)
{
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_load(example("gemm_global.json"), &err);
	ck_assert_msg(k, "%s", err);
	wavecc_compiled *c = wavecc_compile(k, NULL, &err);
	ck_assert_msg(c, "%s", err);
	size_t len = 0;
	ck_assert_msg(strstr(wavecc_compiled_assembly(c, &len), "v_mfma_f32_16x16x16"), "no MFMA in the assembly");
	ck_assert_uint_gt(len, 100);
	const unsigned char *co = wavecc_compiled_code_object(c, &len);
	ck_assert_uint_gt(len, 1000);
	ck_assert(co[0] == 0x7f && co[1] == 'E' && co[2] == 'L' && co[3] == 'F');
	ck_assert_ptr_nonnull(strstr(wavecc_compiled_launch(c, NULL), "\"format\": \"wavecc-launch/1\""));
	ck_assert_ptr_nonnull(strstr(wavecc_compiled_stats(c), "inst mfma"));

	size_t n = wavecc_kernel_num_args(k);
	ck_assert_uint_eq(n, 3);
	wavecc_buffer got[3], want[3];
	wavecc_arg_info info[3];
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(wavecc_kernel_arg(k, i, &info[i], &err), WAVECC_OK);
		got[i] = (wavecc_buffer){info[i].name, calloc(1, info[i].bytes), info[i].bytes};
		want[i] = (wavecc_buffer){info[i].name, calloc(1, info[i].bytes), info[i].bytes};
		ck_assert_int_eq(wavecc_fill_random(k, i, 5, got[i].data, got[i].bytes, &err), WAVECC_OK);
		memcpy(want[i].data, got[i].data, info[i].bytes);
	}
	ck_assert_str_eq(info[0].dtype, "f16");
	ck_assert_str_eq(info[2].dtype, "f32");
	ck_assert(info[0].reads && !info[0].writes && info[2].writes);
	ck_assert_int_eq(info[2].rank, 2);
	ck_assert_uint_eq(info[2].bytes, (uint64_t)info[2].shape[0] * (uint64_t)info[2].shape[1] * 4);
	/* the inputs are the documented generator's: multiples of 1/64 in [-2, 2) */
	float a0 = f16_to_float(((uint16_t *)got[0].data)[0]);
	ck_assert(a0 >= -2 && a0 < 2 && a0 * 64 == floorf(a0 * 64));

	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, got, n, &err), WAVECC_OK);
	ck_assert_int_eq(wavecc_interpret(k, want, n, &err), WAVECC_OK);
	const float *g = got[2].data, *w = want[2].data;
	size_t count = info[2].bytes / 4, nonzero = 0;
	for (size_t e = 0; e < count; e++) {
		ck_assert_msg(fabsf(g[e] - w[e]) <= 1e-3f + 2e-3f * fabsf(w[e]), "c[%zu]: got %g, want %g", e, g[e], w[e]);
		nonzero += w[e] != 0;
	}
	ck_assert_uint_gt(nonzero, count / 2);

	/* HIP: no AMD GPU here, so the run fails clearly (status and message),
	 * after everything before the launch was checked */
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_HIP, got, n, &err), WAVECC_ERUN);
	ck_assert_msg(err && (strstr(err, "GPU") || strstr(err, "HIP")), "%s", err);
	free(err);
	/* a wrong buffer size is bad input, reported and not run */
	got[2].bytes--;
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, got, n, &err), WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "buffer 'c' has"), "%s", err);
	free(err);
	got[2].bytes++;
	ck_assert_int_eq(wavecc_interpret(k, got, n - 1, &err), WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "argument c needs a buffer"), "%s", err);
	free(err);
	for (size_t i = 0; i < n; i++) {
		free(got[i].data);
		free(want[i].data);
	}
	wavecc_compiled_free(c);
	wavecc_kernel_free(k);
}
END_TEST

/* copy_dynamic has dynamic M and N: bound on the handle, they reach the
 * argument sizes, the compiler and the interpreter; rebinding changes all
 * three, since nothing rewrote the handle's graph. */
START_TEST(symbols_reach_every_use)
{
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_load(example("copy_dynamic.json"), &err);
	ck_assert_msg(k, "%s", err);
	wavecc_arg_info info;
	ck_assert_int_eq(wavecc_kernel_arg(k, 0, &info, &err), WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "needs a value"), "%s", err);
	free(err);
	/* unbound, the dynamic symbols are kernel arguments: the code object
	 * compiles, and running it asks for their values */
	wavecc_compiled *generic = wavecc_compile(k, NULL, &err);
	ck_assert_msg(generic, "%s", err);
	wavecc_buffer none[2] = {{"a", calloc(1, 8), 8}, {"b", calloc(1, 8), 8}};
	ck_assert_int_eq(wavecc_run(generic, WAVECC_BACKEND_EMULATOR, none, 2, &err), WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "'M'"), "%s", err);
	free(err);
	free(none[0].data);
	free(none[1].data);
	wavecc_compiled_free(generic);
	for (int round = 0; round < 2; round++) {
		int64_t M = round ? 37 : 111, N = round ? 300 : 813;
		ck_assert_int_eq(wavecc_kernel_set_symbol(k, "M", M, &err), WAVECC_OK);
		ck_assert_int_eq(wavecc_kernel_set_symbol(k, "N", N, &err), WAVECC_OK);
		ck_assert_int_eq(wavecc_kernel_arg(k, 0, &info, &err), WAVECC_OK);
		ck_assert_int_eq(info.shape[0], M);
		ck_assert_int_eq(info.shape[1], N);
		wavecc_compiled *c = wavecc_compile(k, NULL, &err);
		ck_assert_msg(c, "%s", err);
		wavecc_buffer b[2];
		for (size_t i = 0; i < 2; i++) {
			ck_assert_int_eq(wavecc_kernel_arg(k, i, &info, &err), WAVECC_OK);
			b[i] = (wavecc_buffer){info.name, calloc(1, info.bytes), info.bytes};
		}
		ck_assert_int_eq(wavecc_fill_random(k, 0, 9, b[0].data, b[0].bytes, &err), WAVECC_OK);
		ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, b, 2, &err), WAVECC_OK);
		ck_assert_msg(memcmp(b[0].data, b[1].data, b[0].bytes) == 0, "the copy differs (M=%lld)", (long long)M);
		memset(b[1].data, 0, b[1].bytes);
		ck_assert_int_eq(wavecc_interpret(k, b, 2, &err), WAVECC_OK);
		ck_assert(memcmp(b[0].data, b[1].data, b[0].bytes) == 0);
		free(b[0].data);
		free(b[1].data);
		wavecc_compiled_free(c);
	}
	wavecc_kernel_free(k);
}
END_TEST

/* Runtime shapes: examples/gemm_dynamic.json (M, N, K dynamic) compiled
 * once, without bindings, runs at three shapes — aligned, unaligned in
 * every dim, K shorter than a tile — with the sizes given at launch, and
 * matches the interpreter bound to the same sizes. */
START_TEST(one_code_object_three_shapes)
{
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_load(example("gemm_dynamic.json"), &err);
	ck_assert_msg(k, "%s", err);
	wavecc_compiled *c = wavecc_compile(k, NULL, &err);
	ck_assert_msg(c, "%s", err);
	size_t len, llen;
	const void *co = wavecc_compiled_code_object(c, &len);
	const char *launch = wavecc_compiled_launch(c, &llen);
	ck_assert_msg(strstr(launch, "\"kind\": \"scalar\""), "%s", launch);
	static const int64_t shapes[3][3] = {{128, 128, 128}, {100, 70, 90}, {33, 200, 5}};
	for (int s = 0; s < 3; s++) {
		static const char *const names[3] = {"M", "N", "K"};
		char text[3][32];
		const char *binds[3];
		for (int d = 0; d < 3; d++) {
			ck_assert_int_eq(wavecc_kernel_set_symbol(k, names[d], shapes[s][d], &err), WAVECC_OK);
			snprintf(text[d], sizeof text[d], "%s=%lld", names[d], (long long)shapes[s][d]);
			binds[d] = text[d];
		}
		wavecc_buffer got[3], want[3];
		for (size_t i = 0; i < 3; i++) {
			wavecc_arg_info info;
			ck_assert_int_eq(wavecc_kernel_arg(k, i, &info, &err), WAVECC_OK);
			got[i] = (wavecc_buffer){info.name, calloc(1, info.bytes), info.bytes};
			want[i] = (wavecc_buffer){info.name, calloc(1, info.bytes), info.bytes};
			if (i < 2) {
				ck_assert_int_eq(wavecc_fill_random(k, i, 3 + s, got[i].data, got[i].bytes, &err), WAVECC_OK);
				memcpy(want[i].data, got[i].data, got[i].bytes);
			}
		}
		ck_assert_int_eq(wavecc_run_code_object(co, len, launch, llen, binds, 3, WAVECC_BACKEND_EMULATOR, got, 3,
					 &err),
			WAVECC_OK);
		ck_assert_int_eq(wavecc_interpret(k, want, 3, &err), WAVECC_OK);
		const float *g = got[2].data, *w = want[2].data;
		size_t n = got[2].bytes / 4, bad = 0;
		for (size_t i = 0; i < n; i++)
			bad += !(fabsf(g[i] - w[i]) <= 1e-5f + 1e-5f * fabsf(w[i]));
		ck_assert_msg(bad == 0, "shape %d: %zu of %zu elements differ", s, bad, n);
		for (size_t i = 0; i < 3; i++) {
			free(got[i].data);
			free(want[i].data);
		}
	}
	wavecc_compiled_free(c);
	wavecc_kernel_free(k);
}
END_TEST

/* A launch descriptor that does not match the code object is located. */
START_TEST(run_code_object_checks_the_descriptor)
{
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_load(example("copy.json"), &err);
	ck_assert_msg(k, "%s", err);
	wavecc_compiled *c = wavecc_compile(k, NULL, &err);
	ck_assert_msg(c, "%s", err);
	size_t len, llen;
	const void *co = wavecc_compiled_code_object(c, &len);
	const char *launch = wavecc_compiled_launch(c, &llen);
	char *other = strdup(launch);
	char *at = strstr(other, "\"kernel\": \"");
	ck_assert_ptr_nonnull(at);
	at[11] = 'X';
	ck_assert_int_eq(wavecc_run_code_object(co, len, other, strlen(other), NULL, 0, WAVECC_BACKEND_EMULATOR, NULL,
				 0, &err),
		WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "kernel: no kernel"), "%s", err);
	free(err);
	ck_assert_int_eq(wavecc_run_code_object(co, len, "{", 1, NULL, 0, WAVECC_BACKEND_EMULATOR, NULL, 0, &err),
		WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "<launch descriptor>:1:"), "%s", err);
	free(err);
	free(other);
	wavecc_compiled_free(c);
	wavecc_kernel_free(k);
}
END_TEST

/* api_axpy_dynamic: y = alpha x + beta with M, N dynamic. Every parameter
 * is described in kernarg order (buffers, runtime sizes, scalars) at the
 * offsets the launch descriptor gives; the scalars' values and the sizes
 * go in as wavecc_buffer entries to both the compiled kernel and the
 * interpreter, which agree; binding a size removes its parameter. */
START_TEST(every_parameter_with_its_slot)
{
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_load(example("../tests/driver/data/api_axpy_dynamic.json"), &err);
	ck_assert_msg(k, "%s", err);
	ck_assert_uint_eq(wavecc_kernel_num_args(k), 2); /* the buffers, as before */
	ck_assert_uint_eq(wavecc_kernel_num_params(k), 6);
	static const struct {
		const char *name;
		wavecc_param_kind kind;
		const char *dtype;
		uint32_t offset, bytes;
	} want[6] = {{"x", WAVECC_PARAM_BUFFER, "f32", 0, 8}, {"y", WAVECC_PARAM_BUFFER, "f32", 8, 8},
		{"M", WAVECC_PARAM_SIZE, "i32", 16, 4}, {"N", WAVECC_PARAM_SIZE, "i32", 20, 4},
		{"alpha", WAVECC_PARAM_SCALAR, "f32", 24, 4}, {"beta", WAVECC_PARAM_SCALAR, "f32", 28, 4}};
	wavecc_param_info p[6];
	for (size_t i = 0; i < 6; i++) {
		p[i].struct_size = sizeof p[i];
		ck_assert_int_eq(wavecc_kernel_param(k, i, &p[i], &err), WAVECC_OK);
		ck_assert_str_eq(p[i].name, want[i].name);
		ck_assert_int_eq(p[i].kind, want[i].kind);
		ck_assert_str_eq(p[i].dtype, want[i].dtype);
		ck_assert_uint_eq(p[i].kernarg_offset, want[i].offset);
		ck_assert_uint_eq(p[i].kernarg_bytes, want[i].bytes);
	}
	/* unbound, a buffer's dims are the runtime sizes */
	ck_assert_int_eq(p[0].rank, 2);
	ck_assert(p[0].shape[0] == -1 && p[0].shape[1] == -1 && p[0].bytes == 0);
	ck_assert_str_eq(p[0].dims[0], "M");
	ck_assert(p[0].reads && !p[0].writes && p[1].writes);
	/* a struct_size too small for the first version is refused */
	wavecc_param_info small = {.struct_size = 8};
	ck_assert_int_eq(wavecc_kernel_param(k, 0, &small, &err), WAVECC_EARG);
	ck_assert_msg(err && strstr(err, "struct_size"), "%s", err);
	free(err);
	ck_assert_int_eq(wavecc_kernel_param(k, 6, &p[0], &err), WAVECC_EARG);
	free(err);

	/* the descriptor the compiler writes agrees, slot by slot */
	wavecc_compiled *c = wavecc_compile(k, NULL, &err);
	ck_assert_msg(c, "%s", err);
	const char *launch = wavecc_compiled_launch(c, NULL);
	ck_assert_uint_eq(wavecc_compiled_num_params(c), 6);
	for (size_t i = 0; i < 6; i++) {
		wavecc_param_info q = {.struct_size = sizeof q};
		ck_assert_int_eq(wavecc_compiled_param(c, i, &q, &err), WAVECC_OK);
		char slot[128];
		snprintf(slot, sizeof slot, "\"name\": \"%s\", \"kind\": \"%s\", \"dtype\": \"%s\"", q.name,
			q.kind == WAVECC_PARAM_BUFFER ? "buffer" : "scalar", q.dtype);
		const char *at = strstr(launch, slot);
		ck_assert_msg(at, "%s not in %s", slot, launch);
		char off[64];
		snprintf(off, sizeof off, "\"offset\": %u", q.kernarg_offset);
		const char *end = strchr(at, '}');
		const char *o = strstr(at, off);
		ck_assert_msg(o && o < end, "%s: %s", slot, off);
	}

	/* run and interpret with the values as entries */
	int32_t M = 3, N = 300;
	float alpha = 1.5f, beta = -0.25f;
	size_t bytes = (size_t)M * (size_t)N * 4;
	float *x = malloc(bytes), *y = calloc(1, bytes), *yref = calloc(1, bytes);
	for (int i = 0; i < M * N; i++)
		x[i] = (float)(i % 17) - 8.0f;
	wavecc_buffer run[6] = {{"x", x, bytes}, {"y", y, bytes}, {"alpha", &alpha, 4}, {"M", &M, 4}, {"N", &N, 4},
		{"beta", &beta, 4}};
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, run, 6, &err), WAVECC_OK);
	run[1].data = yref;
	ck_assert_int_eq(wavecc_interpret(k, run, 6, &err), WAVECC_OK);
	for (int i = 0; i < M * N; i++) {
		ck_assert_msg(y[i] == 1.5f * x[i] - 0.25f, "y[%d] = %g", i, y[i]);
		ck_assert_msg(yref[i] == y[i], "reference y[%d] = %g", i, yref[i]);
	}
	/* a value of the wrong size, and a missing one, are bad input */
	run[1].data = y;
	run[2].bytes = 8;
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, run, 6, &err), WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "scalar 'alpha' (f32) takes 4 bytes"), "%s", err);
	free(err);
	ck_assert_int_eq(wavecc_interpret(k, run, 6, &err), WAVECC_EINPUT);
	free(err);
	run[2].bytes = 4;
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, run, 5, &err), WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "beta"), "%s", err);
	free(err);
	ck_assert_int_eq(wavecc_interpret(k, run, 5, &err), WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "scalar beta needs a value of 4 bytes"), "%s", err);
	free(err);
	wavecc_compiled_free(c);

	/* M bound on the handle: no parameter for it, the buffers' first dim
	 * known; a compiled kernel takes an entry for M only with that value */
	ck_assert_int_eq(wavecc_kernel_set_symbol(k, "M", M, &err), WAVECC_OK);
	ck_assert_uint_eq(wavecc_kernel_num_params(k), 5);
	wavecc_param_info q = {.struct_size = sizeof q};
	ck_assert_int_eq(wavecc_kernel_param(k, 2, &q, &err), WAVECC_OK);
	ck_assert_str_eq(q.name, "N");
	ck_assert_uint_eq(q.kernarg_offset, 16);
	ck_assert_int_eq(wavecc_kernel_param(k, 3, &q, &err), WAVECC_OK);
	ck_assert_str_eq(q.name, "alpha");
	ck_assert_uint_eq(q.kernarg_offset, 20);
	ck_assert_int_eq(wavecc_kernel_param(k, 0, &q, &err), WAVECC_OK);
	ck_assert(q.shape[0] == M && q.shape[1] == -1);
	c = wavecc_compile(k, NULL, &err);
	ck_assert_msg(c, "%s", err);
	memset(y, 0, bytes);
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, run, 6, &err), WAVECC_OK);
	ck_assert(y[7] == 1.5f * x[7] - 0.25f);
	int32_t other = 4;
	run[3].data = &other;
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, run, 6, &err), WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "compiled with M=3"), "%s", err);
	free(err);
	wavecc_compiled_free(c);
	free(x);
	free(y);
	free(yref);
	wavecc_kernel_free(k);
}
END_TEST

/* wavecc_compile_ex carries the command line's options: each one shows in
 * what comes back; bad ones are refused before anything compiles. */
START_TEST(compile_options_reach_the_compiler)
{
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_load(example("gemm_global.json"), &err);
	ck_assert_msg(k, "%s", err);
	/* NULL options: the defaults, as wavecc_compile */
	wavecc_compiled *c = wavecc_compile_ex(k, NULL, &err);
	ck_assert_msg(c, "%s", err);
	ck_assert_ptr_nonnull(strstr(wavecc_compiled_assembly(c, NULL), "// schedule: prefetch"));
	ck_assert_str_eq(wavecc_compiled_dump(c, NULL), "");
	wavecc_compiled_free(c);
	/* --schedule none, --dump-mir, --dump-plan */
	wavecc_compile_options o = {.struct_size = sizeof o, .schedule = "none", .dump_mir = 1, .dump_plan = 1};
	c = wavecc_compile_ex(k, &o, &err);
	ck_assert_msg(c, "%s", err);
	ck_assert_ptr_nonnull(strstr(wavecc_compiled_assembly(c, NULL), "// schedule: none"));
	const char *dump = wavecc_compiled_dump(c, NULL);
	ck_assert_msg(strstr(dump, "## after allocate_registers") && strstr(dump, "## plan"), "%.300s", dump);
	wavecc_compiled_free(c);
	/* -S: the assembly without llvm-mc (a missing one is never run) */
	o = (wavecc_compile_options){.struct_size = sizeof o, .assembly_only = 1, .llvm_mc = "/nonexistent/llvm-mc",
		.target = "gfx90a"};
	c = wavecc_compile_ex(k, &o, &err);
	ck_assert_msg(c, "%s", err);
	size_t len = 1;
	ck_assert_ptr_null(wavecc_compiled_code_object(c, &len));
	ck_assert_uint_eq(len, 0);
	ck_assert_ptr_nonnull(strstr(wavecc_compiled_assembly(c, NULL), "gfx90a"));
	ck_assert_ptr_nonnull(strstr(wavecc_compiled_launch(c, NULL), "wavecc-launch/1"));
	wavecc_compiled_free(c);
	/* the same through compile_many_ex */
	const wavecc_kernel *ks[2] = {k, k};
	wavecc_compiled *out[2];
	char *errs[2];
	ck_assert_uint_eq(wavecc_compile_many_ex(ks, 2, &o, out, errs), 2);
	ck_assert_ptr_nonnull(strstr(wavecc_compiled_assembly(out[1], NULL), "gfx90a"));
	wavecc_compiled_free(out[0]);
	wavecc_compiled_free(out[1]);
	/* a hundred handles in one call (each locked for the call: there
	 * was a limit of 64) */
	enum { MANY = 100 };
	wavecc_kernel *many[MANY];
	wavecc_compiled *mout[MANY];
	char *merr[MANY];
	for (int i = 0; i < MANY; i++) {
		many[i] = wavecc_kernel_load(example("copy.json"), &err);
		ck_assert_msg(many[i], "%s", err);
	}
	ck_assert_uint_eq(wavecc_compile_many_ex((const wavecc_kernel *const *)many, MANY, &o, mout, merr), MANY);
	for (int i = 0; i < MANY; i++) {
		ck_assert_ptr_nonnull(strstr(wavecc_compiled_assembly(mout[i], NULL), "gfx90a"));
		wavecc_compiled_free(mout[i]);
		wavecc_kernel_free(many[i]);
	}
	/* bad options: a bad argument, nothing compiled */
	o = (wavecc_compile_options){.struct_size = sizeof o, .schedule = "fastest"};
	ck_assert_ptr_null(wavecc_compile_ex(k, &o, &err));
	ck_assert_msg(err && strstr(err, "schedule fastest: expected none, prefetch"), "%s", err);
	free(err);
	ck_assert_uint_eq(wavecc_compile_many_ex(ks, 2, &o, out, errs), 0);
	ck_assert_msg(errs[1] && strstr(errs[1], "schedule fastest"), "%s", errs[1]);
	free(errs[0]);
	free(errs[1]);
	o = (wavecc_compile_options){.struct_size = sizeof o, .waves_per_eu = 9};
	ck_assert_ptr_null(wavecc_compile_ex(k, &o, &err));
	ck_assert_msg(err && strstr(err, "waves_per_eu 1 to 8"), "%s", err);
	free(err);
	o = (wavecc_compile_options){.struct_size = sizeof o, .denorm_fp_math_f32 = "flush"};
	ck_assert_ptr_null(wavecc_compile_ex(k, &o, &err));
	ck_assert_msg(err && strstr(err, "denorm_fp_math_f32 flush"), "%s", err);
	free(err);
	o = (wavecc_compile_options){.struct_size = 16};
	ck_assert_ptr_null(wavecc_compile_ex(k, &o, &err));
	ck_assert_msg(err && strstr(err, "struct_size is 16"), "%s", err);
	free(err);
	/* a newer caller's larger struct: zero extra bytes are fine, a field
	 * this library does not know is refused, not ignored */
	struct {
		wavecc_compile_options o;
		int64_t newer_field;
	} big = {.o = {.struct_size = sizeof big}};
	c = wavecc_compile_ex(k, &big.o, &err);
	ck_assert_msg(c, "%s", err);
	wavecc_compiled_free(c);
	big.newer_field = 1;
	ck_assert_ptr_null(wavecc_compile_ex(k, &big.o, &err));
	ck_assert_msg(err && strstr(err, "does not have"), "%s", err);
	free(err);
	wavecc_kernel_free(k);

	/* -D: defines specialise this compile only (no runtime size left),
	 * over the handle's bindings; a name the kernel lacks is bad input */
	k = wavecc_kernel_load(example("copy_dynamic.json"), &err);
	ck_assert_msg(k, "%s", err);
	ck_assert_int_eq(wavecc_kernel_set_symbol(k, "M", 1000, &err), WAVECC_OK);
	wavecc_define defs[2] = {{"M", 4}, {"N", 64}};
	o = (wavecc_compile_options){.struct_size = sizeof o, .defines = defs, .ndefines = 2};
	c = wavecc_compile_ex(k, &o, &err);
	ck_assert_msg(c, "%s", err);
	ck_assert_uint_eq(wavecc_compiled_num_params(c), 2);
	wavecc_param_info p = {.struct_size = sizeof p};
	ck_assert_int_eq(wavecc_compiled_param(c, 0, &p, &err), WAVECC_OK);
	ck_assert(p.shape[0] == 4 && p.shape[1] == 64 && p.bytes == 4 * 64 * 2);
	ck_assert_uint_eq(wavecc_kernel_num_params(k), 3); /* the handle still has N as a size */
	uint16_t a[256], b[256] = {0};
	for (int i = 0; i < 256; i++)
		a[i] = (uint16_t)(0x3c00 + i);
	wavecc_buffer bufs[2] = {{"a", a, sizeof a}, {"b", b, sizeof b}};
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, bufs, 2, &err), WAVECC_OK);
	ck_assert(memcmp(a, b, sizeof a) == 0);
	wavecc_compiled_free(c);
	defs[1].name = "Q";
	ck_assert_ptr_null(wavecc_compile_ex(k, &o, &err));
	ck_assert_msg(err && strstr(err, "-D Q: kernel dynamic_copy has no symbol"), "%s", err);
	free(err);
	wavecc_kernel_free(k);

	/* denorm_fp_math_f32 over the graph's: softmax's exp without the
	 * rescaling around it */
	k = wavecc_kernel_load(example("softmax.json"), &err);
	ck_assert_msg(k, "%s", err);
	o = (wavecc_compile_options){.struct_size = sizeof o, .assembly_only = 1};
	c = wavecc_compile_ex(k, &o, &err);
	ck_assert_msg(c, "%s", err);
	o.denorm_fp_math_f32 = "preserve-sign";
	wavecc_compiled *flush = wavecc_compile_ex(k, &o, &err);
	ck_assert_msg(flush, "%s", err);
	size_t keep_len, flush_len;
	wavecc_compiled_assembly(c, &keep_len);
	wavecc_compiled_assembly(flush, &flush_len);
	ck_assert_msg(flush_len < keep_len, "%zu >= %zu", flush_len, keep_len);
	wavecc_compiled_free(c);
	wavecc_compiled_free(flush);
	wavecc_kernel_free(k);
}
END_TEST

/* Diagnostic i of the thread's list. */
static wavecc_diagnostic last(size_t i)
{
	wavecc_diagnostic d = {.struct_size = sizeof d};
	ck_assert_msg(wavecc_last_diagnostic(i, &d) == WAVECC_OK, "no diagnostic %zu of %zu", i,
		wavecc_last_diagnostic_count());
	return d;
}

/* Diagnostics come back as data, every field from what the library knows:
 * the JSON reader's paths, the compiler's op paths and ops, an op's
 * source location from its "loc", the launch descriptor's lines, warnings
 * of a compile that succeeds (kept by the compiled kernel), hints. */
START_TEST(diagnostics_are_data)
{
	char *err = NULL;
	/* the reader: path, location, no op (the graph was not made) */
	static const char bad[] = "{\"format\": \"wavecc-kernel/1\", \"name\": \"k\",\n"
				  " \"arguments\": [{\"name\": \"a\", \"type\": \"memory\", \"dtype\": \"f17\",\n"
				  "   \"shape\": [4], \"address_space\": \"global\"}], \"constraints\": [], \"graph\": []}";
	ck_assert_ptr_null(wavecc_kernel_parse(bad, strlen(bad), "bad.json", &err));
	ck_assert_uint_eq(wavecc_last_diagnostic_count(), 3);
	wavecc_diagnostic d = last(2);
	ck_assert_str_eq(last(0).json_path, "constraints");
	ck_assert_str_eq(last(1).json_path, "arguments[0].shape[0]");
	ck_assert_int_eq(d.severity, WAVECC_SEVERITY_ERROR);
	ck_assert_str_eq(d.file, "bad.json");
	ck_assert_int_eq(d.line, 2);
	ck_assert_int_gt(d.col, 0);
	ck_assert_str_eq(d.json_path, "arguments[0].dtype");
	ck_assert_msg(strstr(d.message, "f17") && !strstr(d.message, "arguments[0]"), "%s", d.message);
	ck_assert_ptr_null(d.op);
	ck_assert_msg(strstr(err, d.text), "%s / %s", err, d.text); /* the text is the error's line */
	free(err);
	/* a struct too small for the first version */
	wavecc_diagnostic small = {.struct_size = 16};
	ck_assert_int_eq(wavecc_last_diagnostic(0, &small), WAVECC_EARG);
	ck_assert_int_eq(wavecc_last_diagnostic(99, &d), WAVECC_EARG);

	/* the compiler: the op by its path, its source location from "loc";
	 * the warning before the error is kept too */
	wavecc_kernel *k = wavecc_kernel_load(example("../tests/driver/data/api_collide_loc.json"), &err);
	ck_assert_msg(k, "%s", err);
	ck_assert_uint_eq(wavecc_last_diagnostic_count(), 0); /* a success without warnings: the list is empty */
	ck_assert_ptr_null(wavecc_compile(k, NULL, &err));
	size_t n = wavecc_last_diagnostic_count();
	ck_assert_uint_ge(n, 1);
	d = last(n - 1);
	ck_assert_int_eq(d.severity, WAVECC_SEVERITY_ERROR);
	ck_assert_str_eq(d.json_path, "graph[1]");
	ck_assert_str_eq(d.op, "write");
	ck_assert_int_eq(d.line, 78);
	ck_assert_str_eq(d.source_file, "collide.py");
	ck_assert_int_eq(d.source_line, 12);
	ck_assert_int_eq(d.source_col, 9);
	ck_assert_msg(strncmp(d.message, "the write's mapping", 19) == 0, "%s", d.message);
	ck_assert_msg(strstr(d.text, "graph[1]: the write's") && strstr(d.text, "(at collide.py:12:9)"), "%s", d.text);
	ck_assert_msg(strstr(err, "(at collide.py:12:9)"), "%s", err);
	free(err);
	wavecc_kernel_free(k);

	/* a bad "loc" is located like any field */
	{
		size_t len;
		char *text = read_file(example("../tests/driver/data/api_collide_loc.json"), &len);
		ck_assert_ptr_nonnull(text);
		char *at = strstr(text, "\"line\": 12");
		ck_assert_ptr_nonnull(at);
		at[8] = '0';
		at[9] = ' ';
		ck_assert_ptr_null(wavecc_kernel_parse(text, len, "loc.json", &err));
		ck_assert_msg(err && strstr(err, "graph[1].loc.line"), "%s", err);
		free(err);
		free(text);
	}

	/* a constraint's path, no op */
	k = wavecc_kernel_load(example("../tests/driver/data/softmax_big_workgroup.json"), &err);
	ck_assert_msg(k, "%s", err);
	ck_assert_ptr_null(wavecc_compile(k, NULL, &err));
	free(err);
	d = last(0);
	ck_assert_str_eq(d.json_path, "constraints[0]");
	ck_assert_ptr_null(d.op);
	/* an unknown target, with its fix */
	wavecc_options o = {.target = "gfx1100"};
	ck_assert_ptr_null(wavecc_compile(k, &o, &err));
	free(err);
	d = last(0);
	ck_assert_msg(d.hint && strstr(d.hint, "gfx942"), "%s", d.hint ? d.hint : "(no hint)");
	wavecc_kernel_free(k);

	/* a warning of a compile that succeeds: no error text, but data, on
	 * the thread's list and on the compiled kernel for its life */
	k = wavecc_kernel_load(example("attention.json"), &err);
	ck_assert_msg(k, "%s", err);
	wavecc_compile_options co = {.struct_size = sizeof co, .waves_per_eu = 8, .assembly_only = 1};
	wavecc_compiled *c = wavecc_compile_ex(k, &co, &err);
	ck_assert_msg(c, "%s", err);
	ck_assert_ptr_null(err);
	ck_assert_uint_eq(wavecc_last_diagnostic_count(), 1);
	ck_assert_uint_eq(wavecc_compiled_num_diagnostics(c), 1);
	wavecc_kernel_free(k); /* the compiled kernel's diagnostics are its own */
	wavecc_version();      /* not a call with `error`: the list stays */
	ck_assert_uint_eq(wavecc_last_diagnostic_count(), 1);
	d = (wavecc_diagnostic){.struct_size = sizeof d};
	ck_assert_int_eq(wavecc_compiled_diagnostic(c, 0, &d), WAVECC_OK);
	ck_assert_int_eq(d.severity, WAVECC_SEVERITY_WARNING);
	ck_assert_msg(strstr(d.message, "waves_per_eu 8 not met"), "%s", d.message);
	ck_assert_msg(d.hint && strstr(d.hint, "waves_per_eu 2"), "%s", d.hint ? d.hint : "(no hint)");
	ck_assert_int_eq(wavecc_compiled_diagnostic(c, 1, &d), WAVECC_EARG);
	wavecc_compiled_free(c);

	/* the runtime's messages: the launch descriptor's path and place */
	k = wavecc_kernel_load(example("copy.json"), &err);
	ck_assert_msg(k, "%s", err);
	c = wavecc_compile(k, NULL, &err);
	ck_assert_msg(c, "%s", err);
	wavecc_param_info p = {.struct_size = sizeof p};
	ck_assert_int_eq(wavecc_compiled_param(c, 1, &p, &err), WAVECC_OK);
	void *mem = calloc(1, p.bytes + 2);
	wavecc_buffer b[2] = {{"a", mem, p.bytes}, {"b", mem, p.bytes + 2}};
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, b, 2, &err), WAVECC_EINPUT);
	d = last(0);
	ck_assert_str_eq(d.file, "<launch descriptor>");
	ck_assert_int_gt(d.line, 0);
	ck_assert_str_eq(d.json_path, "args[1]");
	ck_assert_msg(strncmp(d.message, "buffer 'b' has", 14) == 0, "%s", d.message);
	ck_assert_msg(strstr(err, d.text), "%s", err);
	free(err);
	/* a bad argument: a message without a place */
	ck_assert_int_eq(wavecc_run(NULL, WAVECC_BACKEND_EMULATOR, b, 2, &err), WAVECC_EARG);
	d = last(0);
	ck_assert_ptr_null(d.file);
	ck_assert_ptr_null(d.json_path);
	free(err);
	/* the next call replaces the list */
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, b, 1, &err), WAVECC_EINPUT);
	free(err);
	ck_assert_int_eq(wavecc_interpret(k, b, 0, &err), WAVECC_EINPUT);
	free(err);
	ck_assert_msg(strstr(last(0).message, "needs a buffer"), "%s", last(0).message);
	/* a dynamic symbol without a value: its fix */
	wavecc_kernel_free(k);
	k = wavecc_kernel_load(example("copy_dynamic.json"), &err);
	ck_assert_msg(k, "%s", err);
	wavecc_arg_info info;
	ck_assert_int_eq(wavecc_kernel_arg(k, 0, &info, &err), WAVECC_EINPUT);
	free(err);
	d = last(0);
	ck_assert_msg(d.hint && strstr(d.hint, "wavecc_kernel_set_symbol(k, \"M\""), "%s", d.hint ? d.hint : "-");
	free(mem);
	wavecc_compiled_free(c);
	wavecc_kernel_free(k);
}
END_TEST

/* An internal error (forced through the test hook) ends the call with
 * WAVECC_EINTERNAL and wavecc's file:line, never the process; the handles
 * stay usable and unlocked, so the next call works. Under check-asan this
 * also shows the call released what it held. */
START_TEST(internal_errors_return)
{
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_load(example("gemm_global.json"), &err);
	ck_assert_msg(k, "%s", err);
	/* a die() after a pipeline row */
	setenv("WAVECC_INTERNAL_ERROR_AT", "allocate_registers", 1);
	ck_assert_ptr_null(wavecc_compile(k, NULL, &err));
	ck_assert_msg(err && strstr(err, "wavecc: internal error at driver/pipeline.c:") &&
			strstr(err, "forced at allocate_registers"),
		"%s", err);
	free(err);
	ck_assert_uint_eq(wavecc_last_diagnostic_count(), 1);
	wavecc_diagnostic d = last(0);
	ck_assert_int_eq(d.severity, WAVECC_SEVERITY_INTERNAL);
	ck_assert_str_eq(d.file, "driver/pipeline.c");
	ck_assert_int_gt(d.line, 0);
	ck_assert_ptr_nonnull(d.hint);
	/* compile_many: every kernel fails with it, nothing half made */
	const wavecc_kernel *ks[2] = {k, k};
	wavecc_compiled *out[2] = {NULL, NULL};
	char *errs[2];
	ck_assert_uint_eq(wavecc_compile_many(ks, 2, NULL, out, errs), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_ptr_null(out[i]);
		ck_assert_msg(errs[i] && strstr(errs[i], "internal error at driver/pipeline.c:"), "%s", errs[i]);
		free(errs[i]);
	}
	/* the same handle compiles once the hook is off: it was released */
	unsetenv("WAVECC_INTERNAL_ERROR_AT");
	wavecc_compiled *c = wavecc_compile(k, NULL, &err);
	ck_assert_msg(c, "%s", err);
	/* in the runtime and in the interpreter */
	wavecc_buffer b[3];
	for (size_t i = 0; i < 3; i++) {
		wavecc_arg_info info;
		ck_assert_int_eq(wavecc_kernel_arg(k, i, &info, &err), WAVECC_OK);
		b[i] = (wavecc_buffer){info.name, calloc(1, info.bytes), info.bytes};
	}
	setenv("WAVECC_INTERNAL_ERROR_AT", "run", 1);
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, b, 3, &err), WAVECC_EINTERNAL);
	ck_assert_msg(err && strstr(err, "internal error at loader/runtime/run.c:"), "%s", err);
	free(err);
	setenv("WAVECC_INTERNAL_ERROR_AT", "interp", 1);
	ck_assert_int_eq(wavecc_interpret(k, b, 3, &err), WAVECC_EINTERNAL);
	ck_assert_msg(err && strstr(err, "internal error at interp/exec.c:"), "%s", err);
	free(err);
	unsetenv("WAVECC_INTERNAL_ERROR_AT");
	ck_assert_int_eq(wavecc_run(c, WAVECC_BACKEND_EMULATOR, b, 3, &err), WAVECC_OK);
	ck_assert_int_eq(wavecc_interpret(k, b, 3, &err), WAVECC_OK);
	for (size_t i = 0; i < 3; i++)
		free(b[i].data);
	wavecc_compiled_free(c);
	wavecc_kernel_free(k);
}
END_TEST

/* The launch of a kernel compiled once for every size, evaluated for given
 * sizes, is the launch of the kernel compiled for those sizes: grid,
 * workgroup size, static and dynamic LDS (hipModuleLaunchKernel's
 * sharedMemBytes), kernarg size. */
START_TEST(launch_for_given_sizes)
{
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_load(example("gemm_dynamic.json"), &err);
	ck_assert_msg(k, "%s", err);
	wavecc_compile_options o = {.struct_size = sizeof o, .assembly_only = 1};
	wavecc_compiled *generic = wavecc_compile_ex(k, &o, &err); /* the assembly suffices: no llvm-mc */
	ck_assert_msg(generic, "%s", err);
	wavecc_compiled *full = wavecc_compile(k, NULL, &err);
	ck_assert_msg(full, "%s", err);
	static const int64_t sizes[3][3] = {{128, 128, 128}, {100, 70, 90}, {1, 200, 5}};
	for (int s = 0; s < 3; s++) {
		wavecc_define v[3] = {{"M", sizes[s][0]}, {"N", sizes[s][1]}, {"K", sizes[s][2]}};
		wavecc_launch_info got = {.struct_size = sizeof got}, want = {.struct_size = sizeof want};
		ck_assert_int_eq(wavecc_compiled_launch_evaluate(full, v, 3, &got, &err), WAVECC_OK);
		wavecc_launch_info from_asm = {.struct_size = sizeof from_asm};
		ck_assert_int_eq(wavecc_compiled_launch_evaluate(generic, v, 3, &from_asm, &err), WAVECC_OK);
		/* the kernel specialised to these sizes says the same in literals */
		for (int d = 0; d < 3; d++)
			ck_assert_int_eq(wavecc_kernel_set_symbol(k, v[d].name, v[d].value, &err), WAVECC_OK);
		wavecc_compiled *special = wavecc_compile(k, NULL, &err);
		ck_assert_msg(special, "%s", err);
		ck_assert_int_eq(wavecc_compiled_launch_evaluate(special, NULL, 0, &want, &err), WAVECC_OK);
		for (int d = 0; d < 3; d++) {
			ck_assert_uint_eq(got.grid[d], want.grid[d]);
			ck_assert_uint_eq(got.workgroup_size[d], want.workgroup_size[d]);
			ck_assert_uint_eq(from_asm.grid[d], want.grid[d]);
		}
		ck_assert_uint_eq(got.grid[0], (uint32_t)((sizes[s][0] + 63) / 64));
		ck_assert_uint_eq(got.grid[1], (uint32_t)((sizes[s][1] + 63) / 64));
		ck_assert_uint_eq(got.static_lds_bytes, 8192);
		ck_assert_uint_eq(want.static_lds_bytes, 8192);
		ck_assert_uint_eq(from_asm.static_lds_bytes, 8192);
		ck_assert_uint_eq(got.dynamic_lds_bytes, 0);
		ck_assert_uint_eq(got.kernarg_size, 36); /* 3 buffers, then M, N, K */
		ck_assert_uint_eq(want.kernarg_size, 24);
		/* a specialised kernel takes its own value, and no other */
		v[0].value++;
		ck_assert_int_eq(wavecc_compiled_launch_evaluate(special, v, 1, &want, &err), WAVECC_EINPUT);
		ck_assert_msg(err && strstr(err, "compiled with M="), "%s", err);
		free(err);
		wavecc_compiled_free(special);
	}
	/* a size not given is named */
	wavecc_define mn[2] = {{"M", 64}, {"N", 64}};
	wavecc_launch_info info = {.struct_size = sizeof info};
	ck_assert_int_eq(wavecc_compiled_launch_evaluate(full, mn, 1, &info, &err), WAVECC_EINPUT);
	ck_assert_msg(err && strstr(err, "grid[1]: unbound symbol 'N'"), "%s", err);
	free(err);
	ck_assert_int_eq(wavecc_compiled_launch_evaluate(full, mn, 2, &info, &err), WAVECC_OK);
	info.struct_size = 4;
	ck_assert_int_eq(wavecc_compiled_launch_evaluate(full, mn, 2, &info, &err), WAVECC_EARG);
	free(err);
	wavecc_compiled_free(generic);
	wavecc_compiled_free(full);
	wavecc_kernel_free(k);

	/* any descriptor: without a code object the static LDS is its own */
	static const char desc[] =
		"{\"format\": \"wavecc-launch/1\", \"code_object\": \"k.hsaco\", \"kernel\": \"k\", \"arch\": \"gfx942\", "
		"\"workgroup_size\": [256, 1, 1], \"grid\": [\"(N + 255) // 256\", 1, 1], \"static_lds_bytes\": 1024, "
		"\"dynamic_lds_bytes\": 4096, \"kernarg_size\": 12, \"args\": [{\"name\": \"x\", \"kind\": \"buffer\", "
		"\"dtype\": \"f32\", \"shape\": [\"N\"], \"offset\": 0, \"access\": \"readwrite\"}, {\"name\": \"N\", "
		"\"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": 8}]}";
	wavecc_define n = {"N", 1000};
	info = (wavecc_launch_info){.struct_size = sizeof info};
	ck_assert_int_eq(wavecc_launch_evaluate(NULL, 0, desc, strlen(desc), &n, 1, &info, &err), WAVECC_OK);
	ck_assert_uint_eq(info.grid[0], 4);
	ck_assert_uint_eq(info.workgroup_size[0], 256);
	ck_assert_uint_eq(info.static_lds_bytes, 1024);
	ck_assert_uint_eq(info.dynamic_lds_bytes, 4096);
	ck_assert_uint_eq(info.kernarg_size, 12);
}
END_TEST

/* What the compiler knows comes from its tables, and says what compiles:
 * every target and every MMA type claimed for a target compiles there
 * (those the gemm example can take), the rest are refused. */
START_TEST(queries_from_the_tables)
{
	ck_assert_uint_eq(wavecc_num_targets(), 3);
	ck_assert_str_eq(wavecc_target(0), "gfx942");
	ck_assert_str_eq(wavecc_target(1), "gfx90a");
	ck_assert_str_eq(wavecc_target(2), "gfx950");
	ck_assert_ptr_null(wavecc_target(3));
	size_t nm = wavecc_num_mma_types();
	ck_assert_uint_eq(nm, 19); /* 18 of Wave's MMAType and ScaledMMAType, and GenericDot */
	int found = 0;
	for (size_t i = 0; i < nm; i++) {
		wavecc_mma_type_info m = {.struct_size = sizeof m};
		ck_assert_int_eq(wavecc_mma_type(i, &m), WAVECC_OK);
		if (strcmp(m.name, "GenericDot") == 0) { /* dot products on the vector ALU (isel/dot.c) */
			ck_assert(m.m == 1 && m.n == 64 && m.k == 4 && !m.native);
			ck_assert_str_eq(m.f16_targets, "gfx942 gfx90a gfx950");
			ck_assert_str_eq(m.bf16_targets, "gfx942 gfx90a gfx950");
		} else if (strcmp(m.name, "F32_16x16x16_F16") == 0) {
			ck_assert(m.m == 16 && m.n == 16 && m.k == 16 && m.native);
			ck_assert_str_eq(m.in_dtype, "f16");
			ck_assert_str_eq(m.acc_dtype, "f32");
			ck_assert_str_eq(m.targets, "gfx942 gfx90a gfx950");
			ck_assert_str_eq(m.f16_targets, m.targets);
			ck_assert_str_eq(m.bf16_targets, "gfx942 gfx90a gfx950");
			found++;
		} else if (strcmp(m.name, "F32_16x16x32_F8") == 0) {
			/* fp8 (FNUZ) MFMAs: gfx942's; gfx950 runs the shape on 16-bit data */
			ck_assert_str_eq(m.in_dtype, "f8e4m3fnuz");
			ck_assert_str_eq(m.targets, "gfx942");
			ck_assert_str_eq(m.f16_targets, "gfx950");
			ck_assert_str_eq(m.bf16_targets, "gfx950");
			found++;
		} else if (strcmp(m.name, "I32_16x16x16_I8") == 0) {
			/* gfx90a's; gfx942 and gfx950 run it on their 16x16x32 i8
			 * MFMA with a zero dword (isel/mma.c mfma_on_target) */
			ck_assert_str_eq(m.targets, "gfx942 gfx90a gfx950");
			ck_assert_str_eq(m.f16_targets, "");
			found++;
		} else if (strcmp(m.name, "F32_16x16x32_F16") == 0) { /* gfx950's */
			ck_assert_str_eq(m.targets, "gfx950");
			found++;
		} else if (strcmp(m.name, "F32_16x16x32_K8_F16") == 0) {
			ck_assert_int_eq(m.native, 0);
			ck_assert_str_eq(m.targets, "gfx942 gfx90a gfx950");
			found++;
		} else if (strcmp(m.name, "F32_16x16x128_F8F6F4") == 0) {
			/* Wave's ScaledMMAType: scaled_mma's, interpreted, not compiled yet */
			ck_assert(m.m == 16 && m.n == 16 && m.k == 128 && m.native);
			ck_assert_str_eq(m.in_dtype, "f4e2m1fn");
			ck_assert_str_eq(m.targets, "");
			found++;
		}
	}
	ck_assert_int_eq(found, 6);
	wavecc_mma_type_info small = {.struct_size = 8};
	ck_assert_int_eq(wavecc_mma_type(0, &small), WAVECC_EARG);
	ck_assert_int_eq(wavecc_mma_type(nm, &small), WAVECC_EARG);
	/* the claims hold: the f16 type compiles on both targets */
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_load(example("gemm_16x16x16.json"), &err);
	ck_assert_msg(k, "%s", err);
	for (size_t t = 0; t < wavecc_num_targets(); t++) {
		wavecc_compile_options o = {.struct_size = sizeof o, .target = wavecc_target(t), .assembly_only = 1};
		wavecc_compiled *c = wavecc_compile_ex(k, &o, &err);
		ck_assert_msg(c, "%s: %s", wavecc_target(t), err);
		wavecc_compiled_free(c);
	}
	wavecc_kernel_free(k);

	size_t no = wavecc_num_ops();
	ck_assert_uint_gt(no, 40);
	bool mma = false, read = false;
	for (size_t i = 0; i < no; i++) {
		wavecc_op_info o = {.struct_size = sizeof o};
		ck_assert_int_eq(wavecc_op(i, &o), WAVECC_OK);
		if (strcmp(o.name, "mma") == 0) {
			ck_assert_str_eq(o.op_class, "mma");
			ck_assert_str_eq(o.operands, "lhs rhs acc");
			mma = true;
		}
		if (strcmp(o.name, "read") == 0) {
			ck_assert_str_eq(o.op_class, "memory");
			ck_assert_ptr_nonnull(strstr(o.attributes, "mapping"));
			read = true;
		}
	}
	ck_assert(mma && read);
	ck_assert_int_eq(wavecc_op(no, &(wavecc_op_info){.struct_size = sizeof(wavecc_op_info)}), WAVECC_EARG);
	wavecc_dtype_info d = {.struct_size = sizeof d};
	ck_assert_uint_ge(wavecc_num_dtypes(), 13);
	ck_assert_int_eq(wavecc_dtype(0, &d), WAVECC_OK);
	ck_assert_str_eq(d.name, "f16");
	ck_assert_uint_eq(d.size, 2);
	ck_assert_str_eq(d.kind, "float");
}
END_TEST

/* needle in the n bytes at hay, or NULL (memmem is a GNU extension). */
static char *find_bytes(char *hay, size_t n, const char *needle)
{
	size_t m = strlen(needle);
	for (size_t i = 0; i + m <= n; i++)
		if (memcmp(hay + i, needle, m) == 0)
			return hay + i;
	return NULL;
}

/* Entries in a cache folder. */
static int cache_entries(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += strstr(e->d_name, ".wcc") != NULL;
	closedir(d);
	return n;
}

/* The first entry's path in dir. */
static void first_entry(const char *dir, char *path, size_t len)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	path[0] = 0;
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".wcc")) {
			snprintf(path, len, "%s/%s", dir, e->d_name);
			break;
		}
	closedir(d);
	ck_assert(path[0]);
}

/* The same outputs; the statistics too (times and all) when b was read
 * from the cache entry a wrote. */
static void same_output(const wavecc_compiled *a, const wavecc_compiled *b, bool read_back)
{
	size_t la, lb;
	const char *ta = wavecc_compiled_assembly(a, &la), *tb = wavecc_compiled_assembly(b, &lb);
	ck_assert(la == lb && memcmp(ta, tb, la) == 0);
	const void *ca = wavecc_compiled_code_object(a, &la), *cb = wavecc_compiled_code_object(b, &lb);
	ck_assert(la == lb && (la == 0 || memcmp(ca, cb, la) == 0));
	ck_assert_str_eq(wavecc_compiled_launch(a, NULL), wavecc_compiled_launch(b, NULL));
	if (read_back)
		ck_assert_str_eq(wavecc_compiled_stats(a), wavecc_compiled_stats(b));
	ck_assert_uint_eq(wavecc_compiled_num_params(a), wavecc_compiled_num_params(b));
}

/* The compile cache: a second compile with the same key is read back (no
 * pipeline runs: the internal-error hook on the first row would fire),
 * byte for byte the first; any change of graph, option or binding is
 * another key; a damaged entry, or one whose key differs (a hash
 * collision), is a miss that compiles and replaces it; warnings come back
 * with the entry; $WAVECC_CACHE_DIR turns it on, "" off. */
START_TEST(compile_cache)
{
	char dir[4096], dir2[4096], path[8192];
	snprintf(dir, sizeof dir, "%s/c", test_tmpdir("api_cache"));
	snprintf(dir2, sizeof dir2, "%s", test_tmpdir("api_cache_env"));
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_load(example("gemm_global.json"), &err);
	ck_assert_msg(k, "%s", err);
	wavecc_compile_options o = {.struct_size = sizeof o, .cache_dir = dir};
	wavecc_compiled *first = wavecc_compile_ex(k, &o, &err);
	ck_assert_msg(first, "%s", err);
	ck_assert_int_eq(cache_entries(dir), 1); /* the folder was made */
	setenv("WAVECC_INTERNAL_ERROR_AT", "subst_symbols", 1);
	wavecc_compiled *again = wavecc_compile_ex(k, &o, &err);
	ck_assert_msg(again, "%s", err);
	same_output(first, again, true);
	wavecc_compiled_free(again);
	/* another option: a miss, which compiles (and meets the hook) */
	o.schedule = "none";
	ck_assert_ptr_null(wavecc_compile_ex(k, &o, &err));
	ck_assert_msg(err && strstr(err, "forced at subst_symbols"), "%s", err);
	free(err);
	unsetenv("WAVECC_INTERNAL_ERROR_AT");
	wavecc_compiled *none = wavecc_compile_ex(k, &o, &err);
	ck_assert_msg(none, "%s", err);
	ck_assert_int_eq(cache_entries(dir), 2);
	wavecc_compiled_free(none);
	o.schedule = NULL;
	/* a binding: another key */
	ck_assert_int_eq(wavecc_kernel_set_symbol(k, "BLOCK_K", 16, &err), WAVECC_OK);
	wavecc_compiled *k16 = wavecc_compile_ex(k, &o, &err);
	ck_assert_msg(k16, "%s", err);
	ck_assert_int_eq(cache_entries(dir), 3);
	wavecc_compiled_free(k16);
	wavecc_kernel_free(k);
	k = wavecc_kernel_load(example("gemm_global.json"), &err);
	ck_assert_msg(k, "%s", err);

	/* every entry names wavecc's version in its key */
	first_entry(dir, path, sizeof path);
	size_t len;
	char *text = read_file(path, &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(find_bytes(text, len, "wavecc " WAVECC_VERSION_STRING "\n"));
	free(text);
	/* damaged entries: each a miss that compiles and replaces them */
	for (int round = 0; round < 2; round++) {
		wavecc_kernel *e = wavecc_kernel_load(example("copy.json"), &err);
		ck_assert_msg(e, "%s", err);
		snprintf(dir2, sizeof dir2, "%s/r%d", test_tmpdir("api_cache_damage"), round);
		o.cache_dir = dir2;
		wavecc_compiled *c1 = wavecc_compile_ex(e, &o, &err);
		ck_assert_msg(c1, "%s", err);
		first_entry(dir2, path, sizeof path);
		text = read_file(path, &len);
		ck_assert_ptr_nonnull(text);
		if (round == 0) {
			ck_assert_int_eq(file_write_output(path, text, len / 2, 0644), 0); /* cut short */
		} else {
			char *at = find_bytes(text, len, "\"name\": \"copy\"");
			ck_assert_ptr_nonnull(at);
			at[9] = 'k'; /* another kernel's key under this name */
			ck_assert_int_eq(file_write_output(path, text, len, 0644), 0);
		}
		setenv("WAVECC_INTERNAL_ERROR_AT", "subst_symbols", 1);
		ck_assert_ptr_null(wavecc_compile_ex(e, &o, &err)); /* a miss: it compiles */
		free(err);
		unsetenv("WAVECC_INTERNAL_ERROR_AT");
		wavecc_compiled *c2 = wavecc_compile_ex(e, &o, &err);
		ck_assert_msg(c2, "%s", err);
		same_output(c1, c2, false);
		size_t len2;
		char *text2 = read_file(path, &len2);
		ck_assert(text2 && len2 == len); /* whole again */
		free(text2);
		free(text);
		wavecc_compiled_free(c1);
		wavecc_compiled_free(c2);
		wavecc_kernel_free(e);
	}
	o.cache_dir = dir;

	/* the warnings come back with the entry */
	wavecc_kernel *att = wavecc_kernel_load(example("attention.json"), &err);
	ck_assert_msg(att, "%s", err);
	wavecc_compile_options w = {.struct_size = sizeof w, .waves_per_eu = 8, .assembly_only = 1, .cache_dir = dir};
	wavecc_compiled *a1 = wavecc_compile_ex(att, &w, &err);
	ck_assert_msg(a1, "%s", err);
	setenv("WAVECC_INTERNAL_ERROR_AT", "subst_symbols", 1);
	wavecc_compiled *a2 = wavecc_compile_ex(att, &w, &err);
	unsetenv("WAVECC_INTERNAL_ERROR_AT");
	ck_assert_msg(a2, "%s", err);
	same_output(a1, a2, true);
	ck_assert_uint_eq(wavecc_compiled_num_diagnostics(a2), 1);
	ck_assert_uint_eq(wavecc_last_diagnostic_count(), 1);
	wavecc_diagnostic d = {.struct_size = sizeof d};
	ck_assert_int_eq(wavecc_compiled_diagnostic(a2, 0, &d), WAVECC_OK);
	ck_assert_int_eq(d.severity, WAVECC_SEVERITY_WARNING);
	ck_assert_msg(strstr(d.message, "waves_per_eu 8 not met") && d.hint, "%s", d.message);
	wavecc_compiled_free(a1);
	wavecc_compiled_free(a2);

	/* compile_many: the cached one read, the other compiled */
	const wavecc_kernel *ks[2] = {k, att};
	wavecc_compiled *out[2];
	char *errs[2];
	ck_assert_uint_eq(wavecc_compile_many_ex(ks, 2, &o, out, errs), 2);
	same_output(first, out[0], true);
	wavecc_compiled_free(out[0]);
	wavecc_compiled_free(out[1]);
	wavecc_kernel_free(att);

	/* $WAVECC_CACHE_DIR with no option; "" turns it off */
	snprintf(dir2, sizeof dir2, "%s/env", test_tmpdir("api_cache_env"));
	setenv("WAVECC_CACHE_DIR", dir2, 1);
	wavecc_compiled *c = wavecc_compile(k, NULL, &err);
	ck_assert_msg(c, "%s", err);
	wavecc_compiled_free(c);
	ck_assert_int_eq(cache_entries(dir2), 1);
	o = (wavecc_compile_options){.struct_size = sizeof o, .cache_dir = "", .schedule = "none"};
	c = wavecc_compile_ex(k, &o, &err);
	ck_assert_msg(c, "%s", err);
	wavecc_compiled_free(c);
	ck_assert_int_eq(cache_entries(dir2), 1);
	unsetenv("WAVECC_CACHE_DIR");
	wavecc_compiled_free(first);
	wavecc_kernel_free(k);
}
END_TEST

/* The gemm example's text with from replaced by to (every occurrence). */
static char *gemm_variant(const char *from, const char *to, size_t *len)
{
	char *text = read_file(example("gemm_16x16x16.json"), len);
	ck_assert_ptr_nonnull(text);
	Buf b = {0};
	size_t fl = strlen(from);
	for (const char *p = text; *p;) {
		const char *at = strstr(p, from);
		if (!at) {
			buf_puts(&b, p);
			break;
		}
		buf_putn(&b, p, (size_t)(at - p));
		buf_puts(&b, to);
		p = at + fl;
	}
	free(text);
	*len = b.len;
	return (char *)buf_cstr(&b);
}

/* The hint of the thread's first diagnostic at path. */
static const char *hint_at(const char *path)
{
	for (size_t i = 0; i < wavecc_last_diagnostic_count(); i++) {
		wavecc_diagnostic d = last(i);
		if (d.json_path && strcmp(d.json_path, path) == 0)
			return d.hint ? d.hint : "(no hint)";
	}
	return "(no diagnostic at that path)";
}

/* Common mistakes come with their fix as data: the nearest name of an op,
 * dtype or MMA type; for an MMA type the target does not run, the one of
 * the same shape it does (a gfx950 type's K8 form) and the target that
 * runs it. */
START_TEST(hints_for_common_mistakes)
{
	static const struct {
		const char *from, *to, *path, *hint;
	} cases[] = {
		{"\"op\": \"mma\"", "\"op\": \"mmma\"", "graph[1].body[2].op", "did you mean 'mma'?"},
		{"\"f16\"", "\"F16\"", "arguments[0].dtype", "did you mean 'f16'?"},
		{"F32_16x16x16_F16", "F32_16x16x16_f16", "constraints[5].mma_type", "did you mean 'F32_16x16x16_F16'?"},
		{"\"kind\": \"wave\"", "\"kind\": \"wavee\"", "constraints[3].kind", "did you mean 'wave'?"},
		{"\"f16\"", "\"q7\"", "arguments[0].dtype", "one of f16, bf16, f32"},
		{"F32_16x16x16_F16", "F32_16x16x32_F16", "graph[1].body[2]",
			"on gfx942 use F32_16x16x32_K8_F16 (16x16x32), or compile for gfx950, the only target with it "
			"(--mcpu; Wave's options.target)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t len;
		char *text = gemm_variant(cases[i].from, cases[i].to, &len);
		char *err = NULL;
		wavecc_kernel *k = wavecc_kernel_parse(text, len, "gemm.json", &err);
		if (k) {
			wavecc_compile_options o = {.struct_size = sizeof o, .assembly_only = 1};
			ck_assert_ptr_null(wavecc_compile_ex(k, &o, &err));
			wavecc_kernel_free(k);
		}
		/* the error text gives a hint the message lacks on a line of its own, as the command line does */
		if (strstr(cases[i].hint, "gfx950"))
			ck_assert_msg(err && strstr(err, "gemm.json:") && strstr(err, ": hint: on gfx942 use"), "%s", err);
		free(err);
		const char *h = hint_at(cases[i].path);
		ck_assert_msg(strncmp(h, cases[i].hint, strlen(cases[i].hint)) == 0, "case %zu: %s", i, h);
		free(text);
	}
	/* an i8 MMA type of the other CDNA target: compiled on both, on the
	 * other shape of the i8 family where the target lacks its MFMA */
	size_t len;
	char *text = gemm_variant("F32_16x16x16_F16", "I32_16x16x16_I8", &len);
	char *t2 = text;
	for (char *p; (p = strstr(t2, "\"f16\"")); t2 = p)
		memcpy(p, "\"i8\" ", 5);
	for (char *p; (p = strstr(text, "\"f32\"")); )
		memcpy(p, "\"i32\"", 5);
	char *err = NULL;
	wavecc_kernel *k = wavecc_kernel_parse(text, len, "gemm_i8.json", &err);
	ck_assert_msg(k, "%s", err);
	wavecc_compile_options o = {.struct_size = sizeof o, .assembly_only = 1};
	for (int t = 0; t < 2; t++) {
		o.target = t ? "gfx90a" : "gfx942";
		wavecc_compiled *c = wavecc_compile_ex(k, &o, &err);
		ck_assert_msg(c, "%s: %s", o.target, err);
		wavecc_compiled_free(c);
	}
	wavecc_kernel_free(k);
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver/api");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, errors_are_located_and_returned);
	tcase_add_test(t, gemm_compiles_runs_and_matches);
	tcase_add_test(t, symbols_reach_every_use);
	tcase_add_test(t, one_code_object_three_shapes);
	tcase_add_test(t, run_code_object_checks_the_descriptor);
	tcase_add_test(t, every_parameter_with_its_slot);
	tcase_add_test(t, compile_options_reach_the_compiler);
	tcase_add_test(t, diagnostics_are_data);
	tcase_add_test(t, internal_errors_return);
	tcase_add_test(t, launch_for_given_sizes);
	tcase_add_test(t, queries_from_the_tables);
	tcase_add_test(t, compile_cache);
	tcase_add_test(t, hints_for_common_mistakes);
	suite_add_tcase(s, t);
	return run_suite(s);
}
