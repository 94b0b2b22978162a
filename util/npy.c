/* npy.c — NumPy .npy reader and writer (contract in npy.h).
 *
 * The header dict is parsed by a small recursive reader of the Python literal
 * subset NumPy writes: quoted strings, True/False, integers and tuples of
 * integers, separated by commas with optional whitespace. Anything else is an
 * error naming the byte offset in the header. Sizes are checked for overflow
 * before the element bytes are copied, and the file length must equal the
 * header plus count*itemsize exactly. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

static const char MAGIC[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* ---- header dict ---- */

typedef struct {
	const char *p, *end, *start;
	const char *name;
	char *err;
	size_t err_len;
	int failed;
} Hdr;

static int hfail(Hdr *h, const char *what)
{
	if (!h->failed)
		snprintf(h->err, h->err_len, "%s: bad .npy header at byte %ld: %s", h->name,
			 (long)(h->p - h->start), what);
	h->failed = 1;
	return -1;
}

static void skip_ws(Hdr *h)
{
	while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
		h->p++;
}

static int eat(Hdr *h, char c)
{
	skip_ws(h);
	if (h->p < h->end && *h->p == c) {
		h->p++;
		return 1;
	}
	return 0;
}

/* A quoted string into out (truncating never: too long is an error). */
static int read_str(Hdr *h, char *out, size_t n)
{
	skip_ws(h);
	if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
		return hfail(h, "expected a quoted string");
	char q = *h->p++;
	size_t k = 0;
	while (h->p < h->end && *h->p != q) {
		if (k + 1 >= n)
			return hfail(h, "string too long");
		out[k++] = *h->p++;
	}
	if (h->p >= h->end)
		return hfail(h, "unterminated string");
	h->p++;
	out[k] = 0;
	return 0;
}

static int read_int(Hdr *h, int64_t *v)
{
	skip_ws(h);
	const char *s = h->p;
	int64_t x = 0;
	if (s >= h->end || *s < '0' || *s > '9')
		return hfail(h, "expected a non-negative integer");
	while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
		int d = *h->p - '0';
		if (x > (INT64_MAX - d) / 10)
			return hfail(h, "integer too large");
		x = x * 10 + d;
		h->p++;
	}
	if (h->p < h->end && *h->p == 'L') /* Python 2 long suffix */
		h->p++;
	*v = x;
	return 0;
}

static int read_bool(Hdr *h, int *v)
{
	skip_ws(h);
	size_t left = (size_t)(h->end - h->p);
	if (left >= 4 && memcmp(h->p, "True", 4) == 0) {
		h->p += 4;
		*v = 1;
		return 0;
	}
	if (left >= 5 && memcmp(h->p, "False", 5) == 0) {
		h->p += 5;
		*v = 0;
		return 0;
	}
	return hfail(h, "expected True or False");
}

static int read_shape(Hdr *h, NpyArray *a)
{
	if (!eat(h, '('))
		return hfail(h, "expected a shape tuple");
	a->ndim = 0;
	for (;;) {
		if (eat(h, ')'))
			return 0;
		if (a->ndim == NPY_MAX_DIMS)
			return hfail(h, "too many dimensions");
		if (read_int(h, &a->shape[a->ndim]) != 0)
			return -1;
		a->ndim++;
		if (!eat(h, ',')) {
			if (eat(h, ')'))
				return 0;
			return hfail(h, "expected ',' or ')' in shape");
		}
	}
}

/* Normalise a descr to "<xN" / "|xN"; reject what we cannot hold. */
static int norm_descr(Hdr *h, const char *d, NpyArray *a)
{
	size_t n = strlen(d);
	if (n < 3 || n > 5 || !strchr("<>|=", d[0]) || !strchr("fiubc", d[1]))
		return hfail(h, "unsupported descr (only simple numeric types are supported)");
	char *end;
	long sz = strtol(d + 2, &end, 10);
	if (*end || sz <= 0 || sz > 16)
		return hfail(h, "bad item size in descr");
	if (d[0] == '>' && sz > 1)
		return hfail(h, "big-endian data is not supported");
	if (d[1] == 'c')
		return hfail(h, "complex data is not supported");
	a->itemsize = (int)sz;
	snprintf(a->descr, sizeof a->descr, "%c%c%ld", sz == 1 ? '|' : '<', d[1], sz);
	return 0;
}

static int parse_dict(Hdr *h, NpyArray *a)
{
	int have_descr = 0, have_order = 0, have_shape = 0, fortran = 0;
	if (!eat(h, '{'))
		return hfail(h, "expected '{'");
	for (;;) {
		if (eat(h, '}'))
			break;
		char key[32], d[16];
		if (read_str(h, key, sizeof key) != 0)
			return -1;
		if (!eat(h, ':'))
			return hfail(h, "expected ':'");
		if (strcmp(key, "descr") == 0) {
			if (read_str(h, d, sizeof d) != 0 || norm_descr(h, d, a) != 0)
				return -1;
			have_descr = 1;
		} else if (strcmp(key, "fortran_order") == 0) {
			if (read_bool(h, &fortran) != 0)
				return -1;
			have_order = 1;
		} else if (strcmp(key, "shape") == 0) {
			if (read_shape(h, a) != 0)
				return -1;
			have_shape = 1;
		} else {
			return hfail(h, "unknown key in header dict");
		}
		if (!eat(h, ',')) {
			if (eat(h, '}'))
				break;
			return hfail(h, "expected ',' or '}'");
		}
	}
	if (!have_descr || !have_order || !have_shape)
		return hfail(h, "header must have 'descr', 'fortran_order' and 'shape'");
	if (fortran) {
		int multi = 0;
		for (int i = 0; i < a->ndim; i++)
			multi += a->shape[i] > 1;
		if (multi > 1) /* 1-d data is the same in either order */
			return hfail(h, "Fortran-order arrays are not supported (save with C order)");
	}
	return 0;
}

int npy_parse(const void *bytes, size_t len, const char *name, NpyArray *a, char *err, size_t err_len)
{
	const unsigned char *b = bytes;
	memset(a, 0, sizeof *a);
	if (len < 10 || memcmp(b, MAGIC, 6) != 0) {
		snprintf(err, err_len, "%s: not a .npy file (bad magic)", name);
		return -1;
	}
	int major = b[6];
	size_t hlen, hstart;
	if (major == 1) {
		hlen = (size_t)b[8] | (size_t)b[9] << 8;
		hstart = 10;
	} else if (major == 2 || major == 3) {
		if (len < 12) {
			snprintf(err, err_len, "%s: truncated .npy header", name);
			return -1;
		}
		hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
		hstart = 12;
	} else {
		snprintf(err, err_len, "%s: unsupported .npy format version %d.%d", name, major, b[7]);
		return -1;
	}
	if (hlen > len - hstart) {
		snprintf(err, err_len, "%s: truncated .npy header", name);
		return -1;
	}
	Hdr h = {(const char *)b + hstart, (const char *)b + hstart + hlen, (const char *)b + hstart, name, err,
		 err_len, 0};
	if (parse_dict(&h, a) != 0)
		return -1;
	uint64_t count = 1;
	for (int i = 0; i < a->ndim; i++) {
		if (a->shape[i] != 0 && count > UINT64_MAX / 2 / (uint64_t)a->shape[i]) {
			snprintf(err, err_len, "%s: shape too large", name);
			return -1;
		}
		count *= (uint64_t)a->shape[i];
	}
	size_t data_len = len - hstart - hlen;
	if (count > SIZE_MAX / (size_t)a->itemsize || count * (size_t)a->itemsize != data_len) {
		char sb[256];
		snprintf(err, err_len, "%s: data size %zu bytes does not match shape %s of %s (%llu bytes)", name,
			 data_len, npy_shape_str(a->ndim, a->shape, sb, sizeof sb), a->descr,
			 (unsigned long long)(count * (uint64_t)a->itemsize));
		return -1;
	}
	a->count = count;
	a->nbytes = data_len;
	a->data = xmalloc(data_len ? data_len : 1);
	memcpy(a->data, b + hstart + hlen, data_len);
	return 0;
}

int npy_read(const char *path, NpyArray *a, char *err, size_t err_len)
{
	size_t len;
	memset(a, 0, sizeof *a);
	/* The magic first, so that a wrong file (even an endless one such as
	 * /dev/zero) is refused at once; then at most NPY_READ_MAX bytes. */
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, err_len, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	char head[6];
	size_t got = fread(head, 1, sizeof head, f);
	if (got < sizeof head || memcmp(head, MAGIC, sizeof head) != 0) {
		bool bad = ferror(f);
		fclose(f);
		snprintf(err, err_len, "%s: %s", path, bad ? "cannot read: I/O error" : "not a .npy file (bad magic)");
		return -1;
	}
	char *bytes = file_read_stream_max(f, head, got, NPY_READ_MAX, &len);
	int e = errno;
	fclose(f);
	if (!bytes) {
		snprintf(err, err_len, "%s: cannot read: %s", path,
			 e == EFBIG ? "larger than the .npy input limit of " NPY_READ_MAX_TEXT : strerror(e));
		return -1;
	}
	int r = npy_parse(bytes, len, path, a, err, err_len);
	free(bytes);
	return r;
}

void npy_free(NpyArray *a)
{
	free(a->data);
	a->data = NULL;
	a->nbytes = 0;
}

const char *npy_shape_str(int ndim, const int64_t *shape, char *buf, size_t len)
{
	size_t k = 0;
	k += (size_t)snprintf(buf + k, len - k, "(");
	for (int i = 0; i < ndim && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%lld", i ? ", " : "", (long long)shape[i]);
	if (ndim == 1 && k < len)
		k += (size_t)snprintf(buf + k, len - k, ",");
	if (k < len)
		snprintf(buf + k, len - k, ")");
	return buf;
}

int npy_check(const NpyArray *a, const char *name, DType t, int ndim, const int64_t *shape, char *err,
	      size_t err_len)
{
	const char *want = dtype_info[t].npy;
	if (strcmp(a->descr, want) != 0) {
		snprintf(err, err_len, "%s: dtype mismatch: expected %s (descr '%s'), the file has descr '%s'", name,
			 dtype_name(t), want, a->descr);
		return -1;
	}
	int same = a->ndim == ndim;
	for (int i = 0; same && i < ndim; i++)
		same = a->shape[i] == shape[i];
	if (!same) {
		char s1[256], s2[256];
		snprintf(err, err_len, "%s: shape mismatch: expected %s, the file has %s", name,
			 npy_shape_str(ndim, shape, s1, sizeof s1), npy_shape_str(a->ndim, a->shape, s2, sizeof s2));
		return -1;
	}
	return 0;
}

void npy_encode(Buf *out, DType t, int ndim, const int64_t *shape, const void *data)
{
	char sb[512];
	Buf h = {0};
	buf_printf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", dtype_info[t].npy,
		   npy_shape_str(ndim, shape, sb, sizeof sb));
	/* Pad with spaces so magic + version + length + header ends on a 64-byte
	 * boundary, the last byte being '\n' (what NumPy writes). */
	int v2 = h.len + 1 + 10 > 65535;
	size_t pre = v2 ? 12 : 10;
	size_t total = (pre + h.len + 1 + 63) / 64 * 64;
	while (pre + h.len + 1 < total)
		buf_putc(&h, ' ');
	buf_putc(&h, '\n');
	buf_putn(out, MAGIC, 6);
	buf_putc(out, (char)(v2 ? 2 : 1));
	buf_putc(out, 0);
	uint32_t hl = (uint32_t)h.len;
	unsigned char lb[4] = {(unsigned char)hl, (unsigned char)(hl >> 8), (unsigned char)(hl >> 16),
			       (unsigned char)(hl >> 24)};
	buf_putn(out, lb, v2 ? 4 : 2);
	buf_putn(out, h.data, h.len);
	buf_free(&h);
	uint64_t count = 1;
	for (int i = 0; i < ndim; i++)
		count *= (uint64_t)shape[i];
	if (count)
		buf_putn(out, data, (size_t)count * (size_t)dtype_size(t));
}

int npy_write(const char *path, DType t, int ndim, const int64_t *shape, const void *data, char *err,
	      size_t err_len)
{
	Buf b = {0};
	npy_encode(&b, t, ndim, shape, data);
	int r = write_file_atomic(path, b.data, b.len, 0644);
	if (r != 0)
		snprintf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
	buf_free(&b);
	return r;
}
