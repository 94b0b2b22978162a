/* util_test.c — arena, vectors, buffers, interning, diagnostics; output
 * files (regular files replaced atomically, symbolic links followed and
 * kept, FIFOs and character devices written into, never replaced; sets of
 * outputs all or nothing), bounded reads, and temporary folders removed on
 * exit and on fatal signals. */
#include <errno.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
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

/* a reset keeps the blocks it drops and later blocks come from them: the
 * memory handed out again is zeroed, and a loop of mark, allocate, reset
 * ends with the same blocks (no growth) */
START_TEST(arena_reuses_dropped_blocks_zeroed)
{
	Arena a;
	arena_init(&a);
	ArenaMark m = arena_mark(&a);
	unsigned char *first = NULL;
	for (int trip = 0; trip < 4; trip++) {
		unsigned char *p = arena_alloc(&a, 300 << 10);
		unsigned char *q = arena_alloc(&a, 900 << 10);
		for (size_t i = 0; i < (300 << 10); i += 4093)
			ck_assert_uint_eq(p[i], 0);
		for (size_t i = 0; i < (900 << 10); i += 4093)
			ck_assert_uint_eq(q[i], 0);
		memset(p, 0xab, 300 << 10);
		memset(q, 0xcd, 900 << 10);
		if (trip == 0)
			first = q;
#if !defined(__SANITIZE_ADDRESS__)
		else
			ck_assert_ptr_eq(q, first); /* the same block again */
#else
		(void)first; /* ASan's allocator hands out fresh blocks */
#endif
		arena_reset(&a, m);
		ck_assert_uint_eq(a.total, 0);
	}
	ck_assert_uint_le(a.nspare, (size_t)64 << 20);
	arena_free(&a);
	ck_assert_ptr_null(a.spare);
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

/* 8-bit floats: codes, round to nearest even, subnormals, and what
 * overflows to (NaN for the formats without infinity, as LLVM's APFloat
 * gives; infinity for OCP e5m2). */
static unsigned f8(DType t, double x)
{
	unsigned char b[1];
	dtype_store(t, b, 0, x);
	return b[0];
}

START_TEST(f8_conversions)
{
	const DType q = DT_F8E4M3FNUZ, b = DT_F8E5M2FNUZ, fn = DT_F8E4M3FN, e5 = DT_F8E5M2;
	ck_assert_uint_eq(f8(q, 1.0), 0x40);
	ck_assert_uint_eq(f8(q, 1.0625), 0x40); /* tie -> even */
	ck_assert_uint_eq(f8(q, 1.1875), 0x42); /* tie -> even */
	ck_assert_uint_eq(f8(q, 240.0), 0x7f);  /* largest */
	ck_assert_uint_eq(f8(q, 247.0), 0x7f);
	ck_assert_uint_eq(f8(q, 248.0), 0x80); /* half an ulp past: NaN */
	ck_assert_uint_eq(f8(q, -0.0), 0x00);  /* no negative zero */
	ck_assert_uint_eq(f8(q, 0x1p-10), 0x01); /* smallest subnormal */
	ck_assert_uint_eq(f8(q, -2.5), 0xca);
	ck_assert_uint_eq(f8(q, NAN), 0x80);
	ck_assert_uint_eq(f8(b, 57344.0), 0x7f);
	ck_assert_uint_eq(f8(b, 61440.0), 0x80);
	ck_assert_uint_eq(f8(b, 1.0), 0x40);
	ck_assert_uint_eq(f8(fn, 1.0), 0x38);
	ck_assert_uint_eq(f8(fn, 448.0), 0x7e);
	ck_assert_uint_eq(f8(fn, 464.0), 0x7f); /* NaN */
	ck_assert_uint_eq(f8(fn, -0.0), 0x80);
	ck_assert_uint_eq(f8(e5, 61440.0), 0x7c); /* infinity */
	ck_assert_uint_eq(f8(e5, 1.0), 0x3c);
	/* every code decodes and encodes back to itself (NaNs to the NaN) */
	const DType all[] = {q, b, fn, e5};
	for (int t = 0; t < 4; t++)
		for (unsigned c = 0; c < 256; c++) {
			unsigned char x[1] = {(unsigned char)c};
			double v = dtype_load(all[t], x, 0);
			if (isnan(v) || (v == 0 && all[t] <= b))
				continue;
			ck_assert_msg(f8(all[t], v) == c, "%s code %02x -> %g -> %02x", dtype_name(all[t]), c, v, f8(all[t], v));
		}
	/* between two neighbouring finite codes of either sign: the midpoint
	 * goes to the even code, a value just off it to the nearer one */
	for (int t = 0; t < 4; t++)
		for (unsigned c = 0; c < 256; c++) {
			unsigned char x[2] = {(unsigned char)c, (unsigned char)(c + 1)};
			double lo = dtype_load(all[t], x, 0), hi = dtype_load(all[t], x, 1);
			if ((c & 0x7f) == 0x7f || !isfinite(lo) || !isfinite(hi) || (lo == 0 && hi == 0))
				continue;
			double mid = (lo + hi) / 2, up = nextafter(mid, hi), down = nextafter(mid, lo);
			unsigned even = c & 1 ? c + 1 : c;
			ck_assert_msg(f8(all[t], mid) == even, "%s: %a, between %02x and %02x, -> %02x", dtype_name(all[t]), mid,
				c, c + 1, f8(all[t], mid));
			ck_assert_msg(f8(all[t], up) == c + 1, "%s: %a -> %02x, not %02x", dtype_name(all[t]), up,
				f8(all[t], up), c + 1);
			ck_assert_msg(f8(all[t], down) == c, "%s: %a -> %02x, not %02x", dtype_name(all[t]), down, f8(all[t], down), c);
		}
}
END_TEST

/* OCP MX element types: every f4e2m1fn code against the table of Wave's
 * mxfp_utils.py (mxfp4_to_f32), the f6 extremes, saturation (f4/f6 have no
 * NaN or infinity), round to nearest even, the f4 nibble order (element 2j
 * low, 2j+1 high, a store keeping the other nibble), and the e8m0 scale
 * (2^(c-127), 0xff NaN, the nearest power of two, clamped). */
static const double f4_table[16] = {0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6};

START_TEST(mx_conversions)
{
	const DType f4 = DT_F4E2M1FN, e2m3 = DT_F6E2M3FN, e3m2 = DT_F6E3M2FN, e8 = DT_F8E8M0FNU;
	ck_assert_int_eq(dtype_bits(f4), 4);
	ck_assert_int_eq(dtype_bits(e2m3), 8);
	ck_assert_int_eq(dtype_bits(DT_I8), 8);
	ck_assert_int_eq(dtype_bits(DT_F32), 32);
	for (unsigned c = 0; c < 16; c++) {
		unsigned char b[1] = {(unsigned char)(c | (0xa << 4))};
		ck_assert_msg(dtype_load(f4, b, 0) == f4_table[c] && signbit(dtype_load(f4, b, 0)) == signbit(f4_table[c]),
			"f4 code %x", c);
		ck_assert(dtype_load(f4, b, 1) == -1.0); /* 0xa, the high nibble */
		unsigned char o[1] = {0x5a};
		dtype_store(f4, o, 0, f4_table[c]);
		ck_assert_uint_eq(o[0], 0x50 | c); /* the high nibble kept */
		dtype_store(f4, o, 1, f4_table[c]);
		ck_assert_uint_eq(o[0], (c << 4) | c);
	}
	unsigned char b[2] = {0, 0};
	dtype_store(f4, b, 3, 7.0); /* past 6: saturates */
	ck_assert_uint_eq(b[1], 0x70);
	dtype_store(f4, b, 2, -1e30);
	ck_assert_uint_eq(b[1], 0x7f);
	dtype_store(f4, b, 2, 5.0); /* tie of 4 (0x6) and 6 (0x7): even */
	ck_assert_uint_eq(b[1] & 0xf, 0x6);
	dtype_store(f4, b, 2, 2.5); /* tie of 2 (0x4) and 3 (0x5) */
	ck_assert_uint_eq(b[1] & 0xf, 0x4);
	dtype_store(f4, b, 2, 0.25); /* tie of 0 and 0.5 */
	ck_assert_uint_eq(b[1] & 0xf, 0x0);
	dtype_store(f4, b, 2, 0.26);
	ck_assert_uint_eq(b[1] & 0xf, 0x1);
	dtype_store(f4, b, 2, NAN);
	ck_assert_uint_eq(b[1] & 0xf, 0x0);
	/* f6: largest 7.5 (e2m3) and 28 (e3m2), smallest subnormals 1/8 and 1/16 */
	unsigned char x[1] = {0x1f};
	ck_assert(dtype_load(e2m3, x, 0) == 7.5);
	ck_assert(dtype_load(e3m2, x, 0) == 28.0);
	x[0] = 0x21;
	ck_assert(dtype_load(e2m3, x, 0) == -0.125);
	ck_assert(dtype_load(e3m2, x, 0) == -0.0625);
	x[0] = 0xdf; /* the top two bits are not part of an f6 */
	ck_assert(dtype_load(e2m3, x, 0) == 7.5);
	ck_assert_uint_eq(f8(e2m3, 100.0), 0x1f);
	ck_assert_uint_eq(f8(e3m2, -100.0), 0x3f);
	ck_assert_uint_eq(f8(e2m3, 1.0), 0x08);
	ck_assert_uint_eq(f8(e3m2, 1.0), 0x0c);
	for (unsigned c = 0; c < 64; c++) {
		x[0] = (unsigned char)c;
		double v = dtype_load(e2m3, x, 0), w = dtype_load(e3m2, x, 0);
		ck_assert_msg(f8(e2m3, v) == c || (v == 0 && c == 0x20), "e2m3 %02x", c);
		ck_assert_msg(f8(e3m2, w) == c || (w == 0 && c == 0x20), "e3m2 %02x", c);
	}
	/* e8m0 */
	x[0] = 127;
	ck_assert(dtype_load(e8, x, 0) == 1.0);
	x[0] = 0;
	ck_assert(dtype_load(e8, x, 0) == 0x1p-127);
	x[0] = 254;
	ck_assert(dtype_load(e8, x, 0) == 0x1p127);
	x[0] = 255;
	ck_assert(isnan(dtype_load(e8, x, 0)));
	ck_assert_uint_eq(f8(e8, 0.25), 125);
	ck_assert_uint_eq(f8(e8, 1.4), 127);
	ck_assert_uint_eq(f8(e8, 1.6), 128);
	ck_assert_uint_eq(f8(e8, 1.5), 128); /* tie of 127 and 128: even */
	ck_assert_uint_eq(f8(e8, 3.0), 128); /* tie of 128 and 129 */
	ck_assert_uint_eq(f8(e8, 0.0), 0);
	ck_assert_uint_eq(f8(e8, -4.0), 0);
	ck_assert_uint_eq(f8(e8, 1e300), 254);
	ck_assert_uint_eq(f8(e8, INFINITY), 254);
	ck_assert_uint_eq(f8(e8, NAN), 255);
	for (unsigned c = 0; c < 255; c++) {
		x[0] = (unsigned char)c;
		ck_assert_uint_eq(f8(e8, dtype_load(e8, x, 0)), c);
	}
	/* the OCP f8 specials: e4m3fn has no infinity, NaN S.1111.111, max 448 */
	x[0] = 0x7f;
	ck_assert(isnan(dtype_load(DT_F8E4M3FN, x, 0)));
	x[0] = 0xfe;
	ck_assert(dtype_load(DT_F8E4M3FN, x, 0) == -448.0);
	x[0] = 0x78; /* e4m3fn: the exponent field all ones is a number */
	ck_assert(dtype_load(DT_F8E4M3FN, x, 0) == 256.0);
	x[0] = 0x7c;
	ck_assert(isinf(dtype_load(DT_F8E5M2, x, 0)));
	x[0] = 0x7b;
	ck_assert(dtype_load(DT_F8E5M2, x, 0) == 57344.0);
	ck_assert(dtype_is_mx_element(DT_F8E5M2) && dtype_is_mx_element(f4) && !dtype_is_mx_element(DT_F8E4M3FNUZ));
	ck_assert(dtype_is_f8(DT_F8E4M3FN) && !dtype_is_f8(e8) && !dtype_is_f8(f4));
}
END_TEST

START_TEST(half_conversions_round_to_nearest_even)
{
	/* exact values and both kinds of tie */
	ck_assert_uint_eq(dtype_f32_to_f16(1.0f), 0x3c00);
	ck_assert_uint_eq(dtype_f32_to_f16(-2.0f), 0xc000);
	ck_assert_uint_eq(dtype_f32_to_f16(65504.0f), 0x7bff);
	ck_assert_uint_eq(dtype_f32_to_f16(65520.0f), 0x7c00); /* rounds up to inf */
	ck_assert_uint_eq(dtype_f32_to_f16(1.0f + 0x1p-11f), 0x3c00); /* tie -> even */
	ck_assert_uint_eq(dtype_f32_to_f16(1.0f + 3 * 0x1p-11f), 0x3c02); /* tie -> even (up) */
	ck_assert_uint_eq(dtype_f32_to_f16(0x1p-24f), 0x0001); /* smallest subnormal */
	ck_assert_uint_eq(dtype_f32_to_f16(0x1p-25f), 0x0000); /* tie -> even (zero) */
	ck_assert_uint_eq(dtype_f32_to_f16(0x1.8p-25f), 0x0001);
	ck_assert(dtype_f16_to_f32(0x7e00) != dtype_f16_to_f32(0x7e00)); /* nan */
	ck_assert_uint_eq(dtype_f32_to_f16(dtype_f16_to_f32(0x7e00)) & 0x7c00, 0x7c00);
	/* every finite half round-trips */
	for (uint32_t h = 0; h < 0x10000; h++) {
		if ((h & 0x7c00) == 0x7c00)
			continue;
		ck_assert_uint_eq(dtype_f32_to_f16(dtype_f16_to_f32((uint16_t)h)), h);
	}
	ck_assert_uint_eq(dtype_f32_to_bf16(1.0f), 0x3f80);
	ck_assert_uint_eq(dtype_f32_to_bf16(1.0f + 0x1p-8f), 0x3f80); /* tie -> even */
	ck_assert_uint_eq(dtype_f32_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
	ck_assert(dtype_bf16_to_f32(0x3f80) == 1.0f);
	ck_assert_int_eq(dtype_from_name("bf16"), DT_BF16);
	ck_assert_int_eq(dtype_from_name("f17"), DT_NONE);
	ck_assert_int_eq(dtype_size(DT_I64), 8);
	int32_t iv[2];
	dtype_store(DT_I32, iv, 1, -7.9);
	ck_assert_int_eq(iv[1], -7);
	ck_assert(dtype_load(DT_I32, iv, 1) == -7.0);
}
END_TEST


static const char *tpath(const char *name)
{
	static const char *dir;
	if (!dir)
		dir = test_tmpdir("util_outputs");
	char p[2048];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return intern(p);
}

static char *slurp(const char *path)
{
	size_t len;
	char *t = read_file(path, &len);
	ck_assert_msg(t != NULL, "%s: %s", path, strerror(errno));
	return t;
}

START_TEST(output_regular_file_is_replaced_atomically)
{
	const char *f = tpath("reg.txt");
	ck_assert_int_eq(file_write_output(f, "old", 3, 0644), 0);
	struct stat a, b;
	ck_assert_int_eq(stat(f, &a), 0);
	ck_assert_int_eq(file_write_output(f, "new text", 8, 0644), 0);
	ck_assert_int_eq(stat(f, &b), 0);
	ck_assert(S_ISREG(b.st_mode));
	ck_assert_uint_ne(a.st_ino, b.st_ino); /* a new file renamed over the old one */
	char *t = slurp(f);
	ck_assert_str_eq(t, "new text");
	free(t);
	/* no temporary left beside it */
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c tmp", tpath(""));
	CmdResult r = run_cmd(cmd, NULL);
	ck_assert_str_eq(r.out, "0\n");
	cmd_result_free(&r);
}
END_TEST

START_TEST(output_symlink_is_followed_and_kept)
{
	const char *target = tpath("target.txt"), *link = tpath("link.txt"), *link2 = tpath("link2.txt");
	unlink(target);
	unlink(link);
	unlink(link2);
	ck_assert_int_eq(symlink("target.txt", link), 0); /* relative, dangling at first */
	ck_assert_int_eq(symlink(link, link2), 0);        /* a chain of two */
	ck_assert_int_eq(file_write_output(link2, "through", 7, 0644), 0);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(lstat(link2, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(lstat(target, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	char *t = slurp(target);
	ck_assert_str_eq(t, "through");
	free(t);
	ck_assert_int_eq(file_write_output(link, "again", 5, 0644), 0);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	t = slurp(target);
	ck_assert_str_eq(t, "again");
	free(t);
}
END_TEST

START_TEST(output_fifo_is_written_into)
{
	const char *fifo = tpath("fifo"), *got = tpath("fifo.got");
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	struct stat before, after;
	ck_assert_int_eq(stat(fifo, &before), 0);
	pid_t pid = fork();
	if (pid == 0) { /* the reader */
		char cmd[4200];
		snprintf(cmd, sizeof cmd, "cat '%s' > '%s'", fifo, got);
		_exit(system(cmd) == 0 ? 0 : 1);
	}
	ck_assert_int_eq(file_write_output(fifo, "into the pipe", 13, 0644), 0);
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(stat(fifo, &after), 0);
	ck_assert(S_ISFIFO(after.st_mode));
	ck_assert_uint_eq(before.st_ino, after.st_ino);
	char *t = slurp(got);
	ck_assert_str_eq(t, "into the pipe");
	free(t);
}
END_TEST

START_TEST(output_char_device_is_written_into)
{
	/* A private null device in the scratch folder (root may mknod; where
	 * that is not permitted the case is skipped, saying so). */
	const char *dev = tpath("null");
	unlink(dev);
	if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) != 0) {
		fprintf(stderr, "output_char_device_is_written_into: mknod not permitted (%s); skipped\n", strerror(errno));
		return;
	}
	struct stat before, after;
	ck_assert_int_eq(stat(dev, &before), 0);
	ck_assert_int_eq(file_write_output(dev, "discarded", 9, 0644), 0);
	ck_assert_int_eq(stat(dev, &after), 0);
	ck_assert(S_ISCHR(after.st_mode));
	ck_assert_uint_eq(before.st_ino, after.st_ino);
	ck_assert_uint_eq(before.st_rdev, after.st_rdev);
	/* an OutputSet with a device among regular files works too */
	OutputSet set;
	outputs_init(&set);
	ck_assert_int_eq(outputs_add(&set, dev, "x", 1, 0644), 0);
	ck_assert_int_eq(outputs_add(&set, tpath("beside_dev.txt"), "y", 1, 0644), 0);
	ck_assert_int_eq(outputs_commit(&set, NULL), 0);
	ck_assert_int_eq(stat(dev, &after), 0);
	ck_assert(S_ISCHR(after.st_mode));
	ck_assert_int_eq(stat(tpath("beside_dev.txt"), &after), 0);
}
END_TEST

START_TEST(output_under_dev_is_never_replaced)
{
	/* Even a regular file under /dev/ (as /dev/null becomes once some tool
	 * replaced it) is written in place: /dev/shm holds one we may make. */
	char p[64];
	snprintf(p, sizeof p, "/dev/shm/wavecc-util-test-%d", (int)getpid());
	if (file_write_output(p, "first", 5, 0644) != 0) {
		fprintf(stderr, "output_under_dev_is_never_replaced: cannot write %s (%s); skipped\n", p, strerror(errno));
		return;
	}
	struct stat a, b;
	ck_assert_int_eq(stat(p, &a), 0);
	ck_assert_int_eq(file_write_output(p, "2nd", 3, 0644), 0);
	ck_assert_int_eq(stat(p, &b), 0);
	ck_assert_uint_eq(a.st_ino, b.st_ino);
	char *t = slurp(p);
	ck_assert_str_eq(t, "2nd"); /* truncated, then written */
	free(t);
	unlink(p);
}
END_TEST

START_TEST(output_set_is_all_or_nothing)
{
	const char *a = tpath("set_a.txt"), *b = tpath("set_b.txt");
	unlink(a);
	unlink(b);
	OutputSet set;
	outputs_init(&set);
	ck_assert_int_eq(outputs_add(&set, a, "A", 1, 0644), 0);
	ck_assert_int_eq(outputs_add(&set, b, "B", 1, 0644), 0);
	struct stat st;
	ck_assert_int_ne(stat(a, &st), 0); /* staged, not visible */
	outputs_abort(&set);
	ck_assert_int_ne(stat(a, &st), 0);
	ck_assert_int_ne(stat(b, &st), 0);
	/* a later output that cannot be written: the earlier one is not left */
	outputs_init(&set);
	ck_assert_int_eq(outputs_add(&set, a, "A", 1, 0644), 0);
	ck_assert_int_ne(outputs_add(&set, tpath("no/such/folder/x"), "X", 1, 0644), 0);
	outputs_abort(&set);
	ck_assert_int_ne(stat(a, &st), 0);
	outputs_init(&set);
	ck_assert_int_eq(outputs_add(&set, a, "A", 1, 0644), 0);
	ck_assert_int_eq(outputs_add(&set, b, "B", 1, 0644), 0);
	ck_assert_int_eq(outputs_commit(&set, NULL), 0);
	char *t = slurp(b);
	ck_assert_str_eq(t, "B");
	free(t);
}
END_TEST

START_TEST(reads_are_bounded)
{
	/* an endless file is refused at the limit, not read until memory runs out */
	size_t len = 0;
	errno = 0;
	char *t = read_file_max("/dev/zero", 1 << 20, &len);
	ck_assert_ptr_null(t);
	ck_assert_int_eq(errno, EFBIG);
	ck_assert_ptr_nonnull(strstr(file_strerror(EFBIG), READ_FILE_MAX_TEXT));
	t = read_file("/dev/zero", &len);
	ck_assert_ptr_null(t);
	ck_assert_int_eq(errno, EFBIG);
	/* exactly at the limit is fine; an empty file is "" */
	const char *f = tpath("limit.txt");
	ck_assert_int_eq(file_write_output(f, "12345678", 8, 0644), 0);
	t = read_file_max(f, 8, &len);
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(len, 8);
	free(t);
	ck_assert_ptr_null(read_file_max(f, 7, &len));
	ck_assert_int_eq(file_write_output(f, "", 0, 0644), 0);
	t = read_file(f, &len);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t, "");
	free(t);
}
END_TEST

START_TEST(tempdir_is_removed_on_every_path)
{
	setenv("TMPDIR", tpath(""), 1);
	const char *d = tempdir_create("wavecc-test");
	ck_assert_ptr_nonnull(d);
	char sub[4200];
	snprintf(sub, sizeof sub, "%s/sub", d);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof sub, "%s/sub/f", d);
	ck_assert_int_eq(file_write_output(sub, "x", 1, 0644), 0);
	char keep[4200];
	snprintf(keep, sizeof keep, "%s", d);
	tempdir_remove(d);
	struct stat st;
	ck_assert_int_ne(stat(keep, &st), 0);
	/* a child that dies of SIGSEGV or SIGABRT (die()) or exits early.
	 * Under ASan a SIGSEGV ends in a sanitizer report, which make
	 * check-asan counts as a failure: the sanitizer build raises SIGILL
	 * there instead (ASan leaves it alone: handle_sigill=0). */
#if defined(__SANITIZE_ADDRESS__)
	int sigs[] = {SIGILL, SIGABRT, 0};
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	int sigs[] = {SIGILL, SIGABRT, 0};
#else
	int sigs[] = {SIGSEGV, SIGABRT, 0};
#endif
#else
	int sigs[] = {SIGSEGV, SIGABRT, 0};
#endif
	for (int i = 0; i < 3; i++) {
		int fds[2];
		ck_assert_int_eq(pipe(fds), 0);
		pid_t pid = fork();
		if (pid == 0) {
			close(fds[0]);
			const char *cd = tempdir_create("wavecc-test");
			char f[4200];
			snprintf(f, sizeof f, "%s/file", cd);
			if (file_write_output(f, "x", 1, 0644) != 0 || write(fds[1], cd, strlen(cd) + 1) < 0)
				_exit(3);
			close(fds[1]);
			if (sigs[i])
				raise(sigs[i]);
			exit(4);
		}
		close(fds[1]);
		char got[4200] = {0};
		ck_assert_int_gt(read(fds[0], got, sizeof got - 1), 0);
		close(fds[0]);
		int status;
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		if (sigs[i])
			ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i]);
		else
			ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 4);
		ck_assert_msg(stat(got, &st) != 0, "%s survived", got);
	}
	unsetenv("TMPDIR");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, arena_zeroed_aligned_and_reset);
	tcase_add_test(tc, arena_reuses_dropped_blocks_zeroed);
	tcase_add_test(tc, f8_conversions);
	tcase_add_test(tc, mx_conversions);
	tcase_add_test(tc, vec_push_grows);
	tcase_add_test(tc, buf_printf_appends);
	tcase_add_test(tc, intern_identity);
	tcase_add_test(tc, atomic_write_and_read);
	tcase_add_test(tc, diag_formats_location);
	tcase_add_test(tc, cli_usage_and_version);
	tcase_add_test(tc, half_conversions_round_to_nearest_even);
	tcase_add_test(tc, output_regular_file_is_replaced_atomically);
	tcase_add_test(tc, output_symlink_is_followed_and_kept);
	tcase_add_test(tc, output_fifo_is_written_into);
	tcase_add_test(tc, output_char_device_is_written_into);
	tcase_add_test(tc, output_under_dev_is_never_replaced);
	tcase_add_test(tc, output_set_is_all_or_nothing);
	tcase_add_test(tc, reads_are_bounded);
	tcase_add_test(tc, tempdir_is_removed_on_every_path);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
