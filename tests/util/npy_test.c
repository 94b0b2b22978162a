/* npy_test.c — util/npy: round trips, files written by NumPy itself, files
 * read back by NumPy, and malformed inputs (each must fail with a message,
 * never crash). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../test.h"
#include "../../util/npy.h"

START_TEST(round_trip_all_dtypes)
{
	DType types[] = {DT_F16, DT_BF16, DT_F32, DT_F64, DT_I8, DT_I16, DT_I32, DT_I64, DT_U8, DT_U16, DT_U32};
	const char *dir = test_tmpdir("npy_rt");
	for (size_t k = 0; k < ARRAY_LEN(types); k++) {
		DType t = types[k];
		int64_t shape[2] = {3, 5};
		unsigned char data[15 * 8];
		for (size_t i = 0; i < sizeof data; i++)
			data[i] = (unsigned char)(i * 7 + k);
		char path[512], err[512];
		snprintf(path, sizeof path, "%s/%s.npy", dir, dtype_name(t));
		ck_assert_int_eq(npy_write(path, t, 2, shape, data, err, sizeof err), 0);
		NpyArray a;
		ck_assert_int_eq(npy_read(path, &a, err, sizeof err), 0);
		ck_assert_int_eq(npy_check(&a, "x", t, 2, shape, err, sizeof err), 0);
		ck_assert_uint_eq(a.count, 15);
		ck_assert_int_eq(memcmp(a.data, data, 15 * (size_t)dtype_size(t)), 0);
		/* the 64-byte header alignment NumPy uses */
		size_t len;
		char *raw = read_file(path, &len);
		ck_assert_uint_eq((len - a.nbytes) % 64, 0);
		free(raw);
		npy_free(&a);
	}
}
END_TEST

START_TEST(zero_d_and_one_d_and_empty)
{
	char err[512];
	Buf b = {0};
	float one = 2.5f;
	npy_encode(&b, DT_F32, 0, NULL, &one);
	NpyArray a;
	ck_assert_int_eq(npy_parse(b.data, b.len, "mem", &a, err, sizeof err), 0);
	ck_assert_int_eq(a.ndim, 0);
	ck_assert_uint_eq(a.count, 1);
	ck_assert(*(float *)a.data == 2.5f);
	npy_free(&a);
	buf_clear(&b);
	int64_t s1[1] = {4};
	int32_t v[4] = {1, -2, 3, -4};
	npy_encode(&b, DT_I32, 1, s1, v);
	buf_cstr(&b); /* the header text starts after the 10-byte preamble */
	ck_assert_ptr_nonnull(strstr(b.data + 10, "'shape': (4,)"));
	ck_assert_int_eq(npy_parse(b.data, b.len, "mem", &a, err, sizeof err), 0);
	ck_assert_int_eq(((int32_t *)a.data)[3], -4);
	npy_free(&a);
	buf_clear(&b);
	int64_t s0[2] = {0, 7};
	npy_encode(&b, DT_F16, 2, s0, NULL);
	ck_assert_int_eq(npy_parse(b.data, b.len, "mem", &a, err, sizeof err), 0);
	ck_assert_uint_eq(a.count, 0);
	npy_free(&a);
	buf_free(&b);
}
END_TEST

START_TEST(mismatch_messages)
{
	char err[512];
	Buf b = {0};
	int64_t s[2] = {2, 3};
	float d[6] = {0};
	npy_encode(&b, DT_F32, 2, s, d);
	NpyArray a;
	ck_assert_int_eq(npy_parse(b.data, b.len, "in.npy", &a, err, sizeof err), 0);
	ck_assert_int_eq(npy_check(&a, "A", DT_F16, 2, s, err, sizeof err), -1);
	ck_assert_str_eq(err, "A: dtype mismatch: expected f16 (descr '<f2'), the file has descr '<f4'");
	int64_t s2[2] = {3, 2};
	ck_assert_int_eq(npy_check(&a, "A", DT_F32, 2, s2, err, sizeof err), -1);
	ck_assert_str_eq(err, "A: shape mismatch: expected (3, 2), the file has (2, 3)");
	int64_t s3[1] = {6};
	ck_assert_int_eq(npy_check(&a, "A", DT_F32, 1, s3, err, sizeof err), -1);
	npy_free(&a);
	buf_free(&b);
}
END_TEST

/* Each malformed image must be rejected with the given text in the message. */
START_TEST(bad_files_rejected)
{
	static const struct {
		const char *hdr; /* header dict; NULL for raw bytes below */
		size_t extra;    /* data bytes after the header */
		const char *want;
	} cases[] = {
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 4, "does not match shape"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 12, "does not match shape"},
		{"{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", 4, "big-endian"},
		{"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16, "Fortran"},
		{"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", 4, "quoted string"},
		{"{'descr': '<f4', 'shape': (1,), }", 4, "must have"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (1,  }", 4, "expected"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", 4, "too large"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 4, "too large"},
		{"{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", 8, "complex"},
		{"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,), }", 4, "True or False"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", 4, "unknown key"},
		{"{'descr': '<f4", 4, "unterminated"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		Buf b = {0};
		buf_putn(&b, "\x93NUMPY\x01\x00", 8);
		size_t hl = strlen(cases[i].hdr);
		unsigned char lb[2] = {(unsigned char)hl, (unsigned char)(hl >> 8)};
		buf_putn(&b, lb, 2);
		buf_puts(&b, cases[i].hdr);
		for (size_t k = 0; k < cases[i].extra; k++)
			buf_putc(&b, 0);
		NpyArray a;
		char err[512] = "";
		int r = npy_parse(b.data, b.len, "bad.npy", &a, err, sizeof err);
		ck_assert_msg(r == -1, "case %zu accepted", i);
		ck_assert_msg(strstr(err, cases[i].want) && strncmp(err, "bad.npy: ", 9) == 0,
			      "case %zu: message '%s' lacks '%s'", i, err, cases[i].want);
		buf_free(&b);
	}
	/* raw-level damage */
	NpyArray a;
	char err[512];
	ck_assert_int_eq(npy_parse("hello world!", 12, "t.npy", &a, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "bad magic"));
	ck_assert_int_eq(npy_parse("\x93NUMPY\x01\x00\xff\x00{", 11, "t.npy", &a, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "truncated"));
	ck_assert_int_eq(npy_parse("\x93NUMPY\x07\x00\x00\x00", 10, "t.npy", &a, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "version 7.0"));
	ck_assert_int_eq(npy_read("/nonexistent/x.npy", &a, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.npy: cannot read"));
	/* writing into a missing directory leaves nothing and says why */
	int64_t s[1] = {1};
	float f = 0;
	ck_assert_int_eq(npy_write("/nonexistent/y.npy", DT_F32, 1, s, &f, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "cannot write"));
}
END_TEST

/* A python3 that has NumPy: Debian's (python3-numpy) first, since a python3
 * earlier on PATH (pyenv, venv) may lack it; NULL if none. */
static const char *numpy_python(void)
{
	static const char *const cands[] = {"/usr/bin/python3", "python3"};
	for (size_t i = 0; i < ARRAY_LEN(cands); i++) {
		char cmd[256];
		snprintf(cmd, sizeof cmd, "%s -c 'import numpy' >/dev/null 2>&1", cands[i]);
		if (system(cmd) == 0)
			return cands[i];
	}
	return NULL;
}

/* Interoperate with NumPy itself when python3-numpy is installed. */
START_TEST(numpy_interop)
{
	const char *py = numpy_python();
	if (!py) {
		test_skip("npy: numpy_interop", "NumPy not found (tools/setup.sh installs python3-numpy)");
		return;
	}
	const char *dir = test_tmpdir("npy_numpy");
	char cmd[2048], path[512], err[512];
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && %s -c \"import numpy as np; "
		 "np.save('a.npy', np.arange(12, dtype=np.float16).reshape(3, 4)); "
		 "np.save('b.npy', np.arange(6, dtype=np.int64)[::-1].copy()); "
		 "np.save('c.npy', np.asfortranarray(np.arange(5, dtype=np.uint8))); "
		 "np.lib.format.write_array(open('d.npy', 'wb'), np.ones((2, 2), np.float32), version=(2, 0))\"",
		 dir, py);
	ck_assert_int_eq(system(cmd), 0);
	NpyArray a;
	snprintf(path, sizeof path, "%s/a.npy", dir);
	ck_assert_int_eq(npy_read(path, &a, err, sizeof err), 0);
	int64_t s34[2] = {3, 4};
	ck_assert_int_eq(npy_check(&a, "a", DT_F16, 2, s34, err, sizeof err), 0);
	ck_assert(dtype_f16_to_f32(((uint16_t *)a.data)[11]) == 11.0f);
	npy_free(&a);
	snprintf(path, sizeof path, "%s/b.npy", dir);
	ck_assert_int_eq(npy_read(path, &a, err, sizeof err), 0);
	ck_assert_str_eq(a.descr, "<i8");
	ck_assert_int_eq(((int64_t *)a.data)[0], 5);
	npy_free(&a);
	snprintf(path, sizeof path, "%s/c.npy", dir); /* 1-d Fortran order is the same bytes */
	ck_assert_int_eq(npy_read(path, &a, err, sizeof err), 0);
	ck_assert_str_eq(a.descr, "|u1");
	npy_free(&a);
	snprintf(path, sizeof path, "%s/d.npy", dir);
	ck_assert_int_eq(npy_read(path, &a, err, sizeof err), 0);
	ck_assert(((float *)a.data)[3] == 1.0f);
	npy_free(&a);
	/* and NumPy reads ours */
	int64_t s[3] = {2, 1, 3};
	int16_t v[6] = {-3, -2, -1, 0, 1, 2};
	snprintf(path, sizeof path, "%s/ours.npy", dir);
	ck_assert_int_eq(npy_write(path, DT_I16, 3, s, v, err, sizeof err), 0);
	snprintf(cmd, sizeof cmd,
		 "%s -c \"import numpy as np; a = np.load('%s'); "
		 "assert a.dtype == np.int16 and a.shape == (2, 1, 3) and a[1, 0, 2] == 2 and a[0, 0, 0] == -3\"",
		 py, path);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("npy");
	TCase *tc = tcase_create("npy");
	tcase_set_timeout(tc, 60); /* numpy_interop starts python3 with NumPy: seconds on a loaded machine */
	tcase_add_test(tc, round_trip_all_dtypes);
	tcase_add_test(tc, zero_d_and_one_d_and_empty);
	tcase_add_test(tc, mismatch_messages);
	tcase_add_test(tc, bad_files_rejected);
	tcase_add_test(tc, numpy_interop);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
