/* batch_test.c — many kernels, one llvm-mc run (driver/batch.c through
 * wavecc_compile_many): every variant's code object is byte for byte the
 * one compiling it alone gives, on both targets in one call; a variant the
 * compiler rejects gets its own located error and leaves the others alone;
 * a sweep of one kernel over symbol values gives distinct code objects. */
#include <stdlib.h>
#include <string.h>

#include "../../include/wavecc.h"
#include "../test.h"

static const char *const examples[] = {
	"add.json", "cast.json", "copy.json", "copy_aligned.json", "gemm_global.json", "../tests/driver/data/softmax_big_workgroup.json",
	"gemm_global_32x32x8.json", "gemm_global_unaligned.json", "reduce_block.json", "reduce_max.json",
	"reduce_sum.json", "softmax.json", "softmax_wide.json",
};
enum { NEX = sizeof examples / sizeof examples[0] };

static wavecc_kernel *load(const char *name)
{
	char path[4096], *err = NULL;
	snprintf(path, sizeof path, "%s/examples/%s", test_root(), name);
	wavecc_kernel *k = wavecc_kernel_load(path, &err);
	ck_assert_msg(k, "%s", err);
	return k;
}

static void same_bytes(const wavecc_compiled *a, const wavecc_compiled *b, const char *what)
{
	size_t la, lb;
	const void *pa = wavecc_compiled_code_object(a, &la), *pb = wavecc_compiled_code_object(b, &lb);
	ck_assert_msg(la == lb && memcmp(pa, pb, la) == 0, "%s: the batch's code object differs (%zu vs %zu bytes)",
		what, la, lb);
	ck_assert_str_eq(wavecc_compiled_launch(a, NULL), wavecc_compiled_launch(b, NULL));
	ck_assert_str_eq(wavecc_compiled_assembly(a, NULL), wavecc_compiled_assembly(b, NULL));
}

START_TEST(batch_equals_one_at_a_time)
{
	/* every example twice: once per target, all in one call */
	wavecc_kernel *k[NEX];
	const wavecc_kernel *ks[2 * NEX];
	for (int i = 0; i < NEX; i++)
		ks[i] = ks[NEX + i] = k[i] = load(examples[i]);
	wavecc_compiled *out[2 * NEX];
	char *errs[2 * NEX];
	wavecc_options o942 = {.target = "gfx942"}, o90a = {.target = "gfx90a"};
	/* one target per call: compile_many takes one options; two calls */
	size_t ok = wavecc_compile_many(ks, NEX, &o942, out, errs);
	ok += wavecc_compile_many(ks + NEX, NEX, &o90a, out + NEX, errs + NEX);
	ck_assert_uint_eq(ok, 2 * (NEX - 1));
	for (int i = 0; i < 2 * NEX; i++) {
		const char *name = examples[i % NEX];
		char *err = NULL;
		wavecc_compiled *alone = wavecc_compile(ks[i], i < NEX ? &o942 : &o90a, &err);
		if (strcmp(name, "../tests/driver/data/softmax_big_workgroup.json") == 0) {
			ck_assert_ptr_null(out[i]);
			ck_assert_ptr_null(alone);
			ck_assert_msg(errs[i] && strstr(errs[i], "softmax_big_workgroup.json:13:5: error: constraints[0]"), "%s",
				errs[i]);
			ck_assert_str_eq(errs[i], err);
			free(err);
			free(errs[i]);
			continue;
		}
		ck_assert_msg(out[i] && alone, "%s: %s / %s", name, errs[i], err);
		ck_assert_ptr_null(errs[i]);
		same_bytes(out[i], alone, name);
		wavecc_compiled_free(alone);
		wavecc_compiled_free(out[i]);
	}
	for (int i = 0; i < NEX; i++)
		wavecc_kernel_free(k[i]);
}
END_TEST

/* A sweep: copy_dynamic over several sizes, one handle each. */
START_TEST(sweep_gives_distinct_variants)
{
	enum { N = 6 };
	wavecc_kernel *k[N];
	wavecc_compiled *out[N];
	char *errs[N];
	for (int i = 0; i < N; i++) {
		k[i] = load("copy_dynamic.json");
		char *err = NULL;
		ck_assert_int_eq(wavecc_kernel_set_symbol(k[i], "M", 16 + 7 * i, &err), WAVECC_OK);
		ck_assert_int_eq(wavecc_kernel_set_symbol(k[i], "N", 100 + 50 * i, &err), WAVECC_OK);
	}
	ck_assert_uint_eq(wavecc_compile_many((const wavecc_kernel *const *)k, N, NULL, out, errs), N);
	for (int i = 0; i < N; i++) {
		char want[64];
		snprintf(want, sizeof want, "\"shape\": [%d, %d]", 16 + 7 * i, 100 + 50 * i);
		ck_assert_msg(strstr(wavecc_compiled_launch(out[i], NULL), want), "%s", wavecc_compiled_launch(out[i], NULL));
		char *err = NULL;
		wavecc_compiled *alone = wavecc_compile(k[i], NULL, &err);
		ck_assert_msg(alone, "%s", err);
		same_bytes(out[i], alone, "copy_dynamic");
		/* and it runs */
		wavecc_arg_info info;
		wavecc_buffer b[2];
		for (size_t j = 0; j < 2; j++) {
			ck_assert_int_eq(wavecc_kernel_arg(k[i], j, &info, &err), WAVECC_OK);
			b[j] = (wavecc_buffer){info.name, calloc(1, info.bytes), info.bytes};
		}
		ck_assert_int_eq(wavecc_fill_random(k[i], 0, 3, b[0].data, b[0].bytes, &err), WAVECC_OK);
		ck_assert_int_eq(wavecc_run(out[i], WAVECC_BACKEND_EMULATOR, b, 2, &err), WAVECC_OK);
		ck_assert(memcmp(b[0].data, b[1].data, b[0].bytes) == 0);
		free(b[0].data);
		free(b[1].data);
		wavecc_compiled_free(alone);
		wavecc_compiled_free(out[i]);
		wavecc_kernel_free(k[i]);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver/batch");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, batch_equals_one_at_a_time);
	tcase_add_test(t, sweep_gives_distinct_variants);
	suite_add_tcase(s, t);
	return run_suite(s);
}
