/* util_test.c — arena, vectors, buffers, interning, atomic writes, diagnostics. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../test.h"
#include "../../util/dtype.h"

START_TEST(arena_zeroed_aligned_and_reset)
{
	Arena a;
	arena_init(&a);
	unsigned char *p = arena_alloc(&a, 3);
	ck_assert_uint_eq((uintptr_t)p % 16, 0);
	ck_assert_uint_eq(p[0] | p[1] | p[2], 0);
	ArenaMark m = arena_mark(&a);
	/* larger than a block: gets its own */
	char *big = arena_alloc(&a, 3 << 20);
	big[(3 << 20) - 1] = 7;
	ck_assert_uint_gt(a.total, (size_t)3 << 20);
	arena_reset(&a, m);
	ck_assert_uint_eq(a.total, m.total);
	char *s = arena_printf(&a, "%s-%d", "x", 42);
	ck_assert_str_eq(s, "x-42");
	char *r = arena_realloc(&a, s, 5, 100);
	ck_assert_str_eq(r, "x-42");
	arena_free(&a);
	ck_assert_ptr_null(a.head);
}
END_TEST

START_TEST(vec_push_grows)
{
	Vec(int) v = {0};
	for (int i = 0; i < 1000; i++)
		vec_push(&v, i * 3);
	ck_assert_uint_eq(v.len, 1000);
	ck_assert_int_eq(v.data[999], 2997);
	ck_assert_int_eq(vec_pop(&v), 2997);
	ck_assert_int_eq(vec_last(&v), 2994);
	vec_free(&v);
	ck_assert_uint_eq(v.cap, 0);
}
END_TEST

START_TEST(buf_printf_appends)
{
	Buf b = {0};
	ck_assert_str_eq(buf_cstr(&b), "");
	buf_puts(&b, "ab");
	buf_printf(&b, "%d%s", 12, "cd");
	buf_putc(&b, '!');
	ck_assert_str_eq(buf_cstr(&b), "ab12cd!");
	ck_assert_uint_eq(b.len, 7);
	buf_clear(&b);
	ck_assert_str_eq(buf_cstr(&b), "");
	buf_free(&b);
}
END_TEST

START_TEST(intern_identity)
{
	char x[] = "BLOCK_M";
	const char *a = intern("BLOCK_M");
	const char *b = intern(x);
	ck_assert_ptr_eq(a, b);
	ck_assert_ptr_ne(intern("BLOCK_N"), a);
	ck_assert_ptr_eq(intern_n("BLOCK_MX", 7), a);
	/* many strings: table must grow without losing any */
	char name[32];
	const char *first = intern("s0");
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof name, "s%d", i);
		intern(name);
	}
	ck_assert_ptr_eq(intern("s0"), first);
	ck_assert_str_eq(intern("s4999"), "s4999");
}
END_TEST

START_TEST(atomic_write_and_read)
{
	const char *dir = test_tmpdir("util");
	char path[4096];
	snprintf(path, sizeof path, "%s/out.bin", dir);
	ck_assert_int_eq(write_file_atomic(path, "hello", 5, 0644), 0);
	size_t n = 0;
	char *s = read_file(path, &n);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(s, "hello");
	free(s);
	/* a missing directory fails cleanly and leaves nothing */
	snprintf(path, sizeof path, "%s/nodir/out.bin", dir);
	ck_assert_int_eq(write_file_atomic(path, "x", 1, 0644), -1);
	ck_assert_ptr_null(read_file(path, NULL));
}
END_TEST

START_TEST(diag_formats_location)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	Diag d;
	diag_init(&d);
	d.out = mem;
	diag_error(&d, (Loc){"k.json", 3, 14}, "%s: unknown op '%s'", "$.graph[2].op", "frob");
	diag_error(&d, (Loc){NULL, 0, 0}, "no location");
	fclose(mem);
	ck_assert_int_eq(d.nerrors, 2);
	ck_assert_str_eq(text, "k.json:3:14: error: $.graph[2].op: unknown op 'frob'\n"
			       "wavecc: error: no location\n");
	free(text);
}
END_TEST

START_TEST(cli_usage_and_version)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "'%s' version", test_bin());
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "wavecc "));
	cmd_result_free(&r);
	snprintf(cmd, sizeof cmd, "'%s' no-such-command", test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "unknown command 'no-such-command'"));
	cmd_result_free(&r);
	snprintf(cmd, sizeof cmd, "'%s'", test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
}
END_TEST

START_TEST(half_conversions_round_to_nearest_even)
{
	/* exact values and both kinds of tie */
	ck_assert_uint_eq(f32_to_f16(1.0f), 0x3c00);
	ck_assert_uint_eq(f32_to_f16(-2.0f), 0xc000);
	ck_assert_uint_eq(f32_to_f16(65504.0f), 0x7bff);
	ck_assert_uint_eq(f32_to_f16(65520.0f), 0x7c00); /* rounds up to inf */
	ck_assert_uint_eq(f32_to_f16(1.0f + 0x1p-11f), 0x3c00); /* tie -> even */
	ck_assert_uint_eq(f32_to_f16(1.0f + 3 * 0x1p-11f), 0x3c02); /* tie -> even (up) */
	ck_assert_uint_eq(f32_to_f16(0x1p-24f), 0x0001); /* smallest subnormal */
	ck_assert_uint_eq(f32_to_f16(0x1p-25f), 0x0000); /* tie -> even (zero) */
	ck_assert_uint_eq(f32_to_f16(0x1.8p-25f), 0x0001);
	ck_assert(f16_to_f32(0x7e00) != f16_to_f32(0x7e00)); /* nan */
	ck_assert_uint_eq(f32_to_f16(f16_to_f32(0x7e00)) & 0x7c00, 0x7c00);
	/* every finite half round-trips */
	for (uint32_t h = 0; h < 0x10000; h++) {
		if ((h & 0x7c00) == 0x7c00)
			continue;
		ck_assert_uint_eq(f32_to_f16(f16_to_f32((uint16_t)h)), h);
	}
	ck_assert_uint_eq(f32_to_bf16(1.0f), 0x3f80);
	ck_assert_uint_eq(f32_to_bf16(1.0f + 0x1p-8f), 0x3f80); /* tie -> even */
	ck_assert_uint_eq(f32_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
	ck_assert(bf16_to_f32(0x3f80) == 1.0f);
	ck_assert_int_eq(dtype_from_name("bf16"), DT_BF16);
	ck_assert_int_eq(dtype_from_name("f17"), DT_NONE);
	ck_assert_int_eq(dtype_size(DT_I64), 8);
	int32_t iv[2];
	dtype_store(DT_I32, iv, 1, -7.9);
	ck_assert_int_eq(iv[1], -7);
	ck_assert(dtype_load(DT_I32, iv, 1) == -7.0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, arena_zeroed_aligned_and_reset);
	tcase_add_test(tc, vec_push_grows);
	tcase_add_test(tc, buf_printf_appends);
	tcase_add_test(tc, intern_identity);
	tcase_add_test(tc, atomic_write_and_read);
	tcase_add_test(tc, diag_formats_location);
	tcase_add_test(tc, cli_usage_and_version);
	tcase_add_test(tc, half_conversions_round_to_nearest_even);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
