/* wave_inputs.c — inputs that Wave's tests build with torch and that
 * `wavecc run`'s seeded random fill cannot stand in for: the offsets of
 * Wave's offset-write tests are a permutation of a row (randperm), so that
 * no two elements are stored to one place. Random offsets would collide,
 * and which colliding store lands is up to the hardware (the interpreter
 * keeps its last), so such a test would compare two races. Wave's custom
 * attention mask is i8 0 or 1 ((randn > 0).int()): the fill's -8..7 would
 * mask nearly every row (any nonzero byte masks it). Extend attention's
 * index buffers (qo_indptr, kv_indptr, kv_indices) say where each
 * sequence's tokens are: random ones would send the kernel anywhere, and
 * so do prefill attention's offsets and sequence_lengths.
 * Wave's packed GEMM reads f16 pairs from i32 buffers: the fill's i32
 * -8..7 make every negative one a pair of NaNs, and the whole product NaN.
 * Wave's f8 attention tests quantize q, k and v to integers in [-128, 128]
 * (ceil(clamp(randn·128, -128, 128))): with the fill's [-2, 2) the f8
 * scales would make every score nearly 0 and the softmax flat, so a wrong
 * Q·Kᵀ could not show. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../test.h"
#include "wave_inputs.h"

/* A seeded generator (splitmix64), so every run writes the same file. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The rows x cols buffer v of type t as NAME.npy in the scratch folder dir
 * (test_tmpdir), its path in path; who names the caller in a failure. */
static void write_2d(const char *who, const char *dir, const char *name, DType t, long rows, long cols,
	const void *v, char *path, size_t plen)
{
	char err[256];
	snprintf(path, plen, "%s/%s.npy", test_tmpdir(dir), name);
	int64_t shape[2] = {rows, cols};
	if (npy_write(path, t, 2, shape, v, err, sizeof err) < 0)
		die("%s: %s", who, err);
}

const char *wave_perm_input(const char *spec, char *opt, size_t len)
{
	char name[64];
	long rows, cols, scale;
	if (sscanf(spec, "%63[^:]:%ld,%ld,%ld", name, &rows, &cols, &scale) != 4 || rows < 1 || cols < 1)
		die("wave_perm_input: bad spec '%s' (NAME:ROWS,COLS,SCALE)", spec);
	int32_t *v = malloc(sizeof *v * (size_t)(rows * cols));
	int32_t *perm = malloc(sizeof *perm * (size_t)cols);
	if (!v || !perm)
		die("wave_perm_input: out of memory");
	uint64_t s = (uint64_t)(rows * 1000003 + cols);
	for (long i = 0; i < cols; i++)
		perm[i] = (int32_t)i;
	for (long i = cols - 1; i > 0; i--) { /* Fisher-Yates */
		long j = (long)(next(&s) % (uint64_t)(i + 1));
		int32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	/* Wave: randperm(cols).reshape(1, cols).repeat(rows, 1) * scale */
	for (long r = 0; r < rows; r++)
		for (long i = 0; i < cols; i++)
			v[r * cols + i] = perm[i] * (int32_t)scale;
	char dir[128], path[4096];
	snprintf(dir, sizeof dir, "wave_inputs_%s_%ldx%ld_%ld", name, rows, cols, scale);
	write_2d("wave_perm_input", dir, name, DT_I32, rows, cols, v, path, sizeof path);
	free(v);
	free(perm);
	snprintf(opt, len, "--in %s=%s", name, path);
	return opt;
}

const char *wave_bits_input(const char *spec, char *opt, size_t len)
{
	char name[64];
	long rows, cols;
	if (sscanf(spec, "%63[^:]:%ld,%ld", name, &rows, &cols) != 3 || rows < 1 || cols < 1)
		die("wave_bits_input: bad spec '%s' (NAME:ROWS,COLS)", spec);
	int8_t *v = malloc((size_t)(rows * cols));
	if (!v)
		die("wave_bits_input: out of memory");
	uint64_t s = (uint64_t)(rows * 7919 + cols);
	for (long i = 0; i < rows * cols; i++)
		v[i] = (int8_t)(next(&s) >> 63); /* 0 or 1, each half the time */
	char dir[128], path[4096];
	snprintf(dir, sizeof dir, "wave_inputs_bits_%s_%ldx%ld", name, rows, cols);
	write_2d("wave_bits_input", dir, name, DT_I8, rows, cols, v, path, sizeof path);
	free(v);
	snprintf(opt, len, "--in %s=%s", name, path);
	return opt;
}

/* One i32 vector NAME.npy of n elements in directory dir; its --in
 * option appended to opt. */
static void write_i32(const char *dir, const char *name, const int32_t *v, long n, char *opt, size_t len)
{
	char path[4096], err[256];
	snprintf(path, sizeof path, "%s/%s.npy", dir, name);
	int64_t shape[1] = {n};
	if (npy_write(path, DT_I32, 1, shape, v, err, sizeof err) < 0)
		die("wave_extend_input: %s", err);
	size_t used = strlen(opt);
	snprintf(opt + used, len - used, "%s--in %s=%s", used ? " " : "", name, path);
}

/* The custom mask of Wave's extend test (create_inputs): per sequence an
 * ext x (prefix + ext) i8 block, row m holding 1 for every prefix key and
 * for the new keys j <= m (causal), 0 past them; the blocks back to back,
 * mask_offsets their starts. */
static void extend_mask(const char *dir, int n, const long *pre, const long *ext, char *opt, size_t len)
{
	int32_t off[17] = {0};
	for (int i = 0; i < n && i < 16; i++)
		off[i + 1] = off[i] + (int32_t)(ext[i] * (pre[i] + ext[i]));
	int8_t *m = calloc((size_t)off[n] + 1, 1);
	if (!m)
		die("wave_extend_input: out of memory");
	for (int i = 0; i < n; i++)
		for (long r = 0; r < ext[i]; r++)
			for (long c = 0; c < pre[i] + ext[i]; c++)
				m[off[i] + r * (pre[i] + ext[i]) + c] = (int8_t)(c < pre[i] || c - pre[i] <= r);
	char path[4096], err[256];
	snprintf(path, sizeof path, "%s/custom_mask.npy", dir);
	int64_t shape[1] = {off[n]};
	if (npy_write(path, DT_I8, 1, shape, m, err, sizeof err) < 0)
		die("wave_extend_input: %s", err);
	free(m);
	size_t used = strlen(opt);
	snprintf(opt + used, len - used, " --in custom_mask=%s", path);
	write_i32(dir, "mask_offsets", off, n + 1, opt, len);
}

const char *wave_extend_input(const char *spec, char *opt, size_t len)
{
	enum { MAX_SEQ = 16 };
	long pre[MAX_SEQ], ext[MAX_SEQ], nkv;
	int n = 0, used = 0;
	const char *p = spec;
	while (n < MAX_SEQ && sscanf(p, "%ld/%ld%n", &pre[n], &ext[n], &used) == 2 && pre[n] >= 0 && ext[n] >= 0) {
		n++;
		p += used;
		if (*p != ',')
			break;
		p++;
	}
	int tail = 0;
	if (n == 0 || sscanf(p, ":%ld%n", &nkv, &tail) != 1)
		die("wave_extend_input: bad spec '%s' (PREFIX/EXTEND,...:N_KV[:mask])", spec);
	bool mask = strcmp(p + tail, ":mask") == 0;
	int32_t qo[MAX_SEQ + 1] = {0}, kvp[MAX_SEQ + 1] = {0};
	long loc = 0; /* the sequence's first row in the cache pool */
	int32_t *idx = calloc((size_t)nkv + 1, sizeof *idx);
	if (!idx)
		die("wave_extend_input: out of memory");
	for (int i = 0; i < n; i++) {
		qo[i + 1] = qo[i] + (int32_t)ext[i];
		kvp[i + 1] = kvp[i] + (int32_t)pre[i];
		/* Wave's create_inputs: the prefix rows of sequence i are
		 * arange(b_start_loc[i], + prefix), its start in the pool */
		for (long j = 0; j < pre[i]; j++) {
			if (kvp[i] + j >= nkv || loc + j >= nkv)
				die("wave_extend_input: '%s': N_KV %ld is too small", spec, nkv);
			idx[kvp[i] + j] = (int32_t)(loc + j);
		}
		loc += pre[i] + ext[i];
	}
	char dir[160];
	snprintf(dir, sizeof dir, "wave_inputs_extend_%.120s", spec);
	for (char *c = dir; *c; c++) /* one directory per spec */
		if (*c == '/' || *c == ',' || *c == ':')
			*c = '_';
	const char *at = test_tmpdir(dir); /* emptied: once for the three */
	opt[0] = 0;
	write_i32(at, "qo_indptr", qo, n + 1, opt, len);
	write_i32(at, "kv_indptr", kvp, n + 1, opt, len);
	write_i32(at, "kv_indices", idx, nkv, opt, len);
	free(idx);
	if (mask)
		extend_mask(at, n, pre, ext, opt, len);
	return opt;
}

const char *wave_prefill_input(const char *spec, char *opt, size_t len)
{
	enum { MAX_SEQ = 16 };
	int32_t off[MAX_SEQ], lens[MAX_SEQ];
	int n = 0, used = 0;
	long l;
	const char *p = spec;
	while (n < MAX_SEQ && sscanf(p, "%ld%n", &l, &used) == 1 && l > 0) {
		/* Wave's create_inputs: each sequence starts where the last ends */
		off[n] = n ? off[n - 1] + lens[n - 1] : 0;
		lens[n++] = (int32_t)l;
		p += used;
		if (*p != ',')
			break;
		p++;
	}
	if (n == 0 || *p)
		die("wave_prefill_input: bad spec '%s' (LEN,LEN,...)", spec);
	char dir[160];
	snprintf(dir, sizeof dir, "wave_inputs_prefill_%.120s", spec);
	for (char *c = dir; *c; c++)
		if (*c == ',')
			*c = '_';
	const char *at = test_tmpdir(dir);
	opt[0] = 0;
	write_i32(at, "offsets", off, n, opt, len);
	write_i32(at, "sequence_lengths", lens, n, opt, len);
	return opt;
}

const char *wave_paged_input(const char *spec, char *opt, size_t len)
{
	long n, kv;
	char tail;
	if (sscanf(spec, "%ld,%ld%c", &n, &kv, &tail) != 2 || n < 1 || n > 100000 || kv < 1 || kv > 1000000)
		die("wave_paged_input: bad spec '%s' (NUM_SEQS,KV_LEN)", spec);
	int32_t *ri = malloc(sizeof *ri * (size_t)(n + 1));
	if (!ri)
		die("wave_paged_input: out of memory");
	/* Wave's create_inputs: the running sums of n lengths kv, each inner
	 * boundary moved by randint(-d, d), d = kv / 10 */
	uint64_t s = (uint64_t)(n * 7919 + kv);
	long d = kv / 10;
	for (long i = 0; i <= n; i++) {
		ri[i] = (int32_t)(i * kv);
		if (d > 0 && i > 0 && i < n)
			ri[i] += (int32_t)((long)(next(&s) % (uint64_t)(2 * d)) - d);
	}
	char dir[160];
	snprintf(dir, sizeof dir, "wave_inputs_paged_%ld_%ld", n, kv);
	write_i32(test_tmpdir(dir), "request_indices", ri, n + 1, opt, len);
	free(ri);
	return opt;
}

/* A standard normal value from two uniform ones (Box-Muller). */
static double gauss(uint64_t *s)
{
	double u1 = ((double)(next(s) >> 11) + 1) / 9007199254740993.0; /* (0, 1] */
	double u2 = (double)(next(s) >> 11) / 9007199254740992.0;
	return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Parse "NAME:D0,...,SCALE" (one to four dims) into name, dims and scale. */
static int quant_spec(const char *spec, char *name, int64_t *dim, long *scale)
{
	const char *colon = strchr(spec, ':');
	if (!colon || colon == spec || colon - spec > 63)
		return -1;
	snprintf(name, 64, "%.*s", (int)(colon - spec), spec);
	long v[5];
	int n = 0;
	const char *p = colon + 1;
	for (;;) {
		char *end;
		if (n == 5)
			return -1;
		v[n++] = strtol(p, &end, 10);
		if (end == p || v[n - 1] < 1)
			return -1;
		if (*end == 0)
			break;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
	if (n < 2)
		return -1;
	for (int i = 0; i < n - 1; i++)
		dim[i] = v[i];
	*scale = v[n - 1];
	return n - 1;
}

const char *wave_quant_input(const char *spec, char *opt, size_t len)
{
	char name[64];
	int64_t d[4];
	long scale;
	int rank = quant_spec(spec, name, d, &scale);
	if (rank < 1)
		die("wave_quant_input: bad spec '%s' (NAME:D0,...,SCALE, one to four dims)", spec);
	int64_t n = 1;
	for (int i = 0; i < rank; i++)
		n *= d[i];
	uint16_t *v = malloc(sizeof *v * (size_t)n);
	if (!v)
		die("wave_quant_input: out of memory");
	uint64_t s = (uint64_t)n * 31 + (uint64_t)(unsigned char)name[0];
	for (int64_t i = 0; i < n; i++)
		dtype_store(DT_F16, v, (uint64_t)i, ceil(fmin(fmax(gauss(&s) * (double)scale, (double)-scale), (double)scale)));
	char dir[512], dims[96] = "", path[4096], err[256];
	for (int i = 0; i < rank; i++) /* the shape in the name: one file per spec */
		snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%s%lld", i ? "x" : "", (long long)d[i]);
	snprintf(dir, sizeof dir, "wave_inputs_quant_%s_%s_%ld", name, dims, scale);
	snprintf(path, sizeof path, "%s/%s.npy", test_tmpdir(dir), name);
	if (npy_write(path, DT_F16, rank, d, v, err, sizeof err) < 0)
		die("wave_quant_input: %s", err);
	free(v);
	size_t used = strlen(opt);
	snprintf(opt + used, len - used, "%s--in %s=%s", used ? " " : "", name, path);
	return opt;
}

const char *wave_packed_input(const char *spec, char *opt, size_t len)
{
	char name[64];
	long rows, cols;
	if (sscanf(spec, "%63[^:]:%ld,%ld", name, &rows, &cols) != 3 || rows < 1 || cols < 1)
		die("wave_packed_input: bad spec '%s' (NAME:ROWS,COLS)", spec);
	uint16_t *v = malloc(sizeof *v * (size_t)(2 * rows * cols));
	if (!v)
		die("wave_packed_input: out of memory");
	uint64_t s = (uint64_t)(rows * 6007 + cols) * 31 + (uint64_t)(unsigned char)name[0];
	for (long i = 0; i < 2 * rows * cols; i++) /* little endian: element 2j is the low half of j */
		dtype_store(DT_F16, v, (uint64_t)i, (double)((int64_t)(next(&s) >> 56) - 128) / 64);
	char dir[128], path[4096];
	snprintf(dir, sizeof dir, "wave_inputs_packed_%s_%ldx%ld", name, rows, cols);
	write_2d("wave_packed_input", dir, name, DT_I32, rows, cols, v, path, sizeof path);
	free(v);
	size_t used = strlen(opt);
	snprintf(opt + used, len - used, "%s--in %s=%s", used ? " " : "", name, path);
	return opt;
}

/* e8m0_shuffle of Wave's mxfp_utils.py on the rows x cols scales s: padded
 * with zeros to rows a multiple of 256 and cols of 8, viewed as
 * (r/32, 2, 16, c/8, 2, 4), permuted (0, 3, 5, 2, 4, 1), cut back to rows
 * x cols. */
static void e8m0_shuffle(const uint8_t *s, uint8_t *out, long rows, long cols)
{
	long sm = (rows + 255) / 256 * 256, sn = (cols + 7) / 8 * 8, o = 0;
	for (long a = 0; a < sm / 32; a++)
		for (long d = 0; d < sn / 8; d++)
			for (long f = 0; f < 4; f++)
				for (long c = 0; c < 16; c++)
					for (long e = 0; e < 2; e++)
						for (long b = 0; b < 2; b++, o++) {
							long i = a * 32 + b * 16 + c, j = d * 8 + e * 4 + f;
							long r = o / sn, q = o % sn;
							if (r < rows && q < cols)
								out[r * cols + q] = i < rows && j < cols ? s[i * cols + j] : 0;
						}
}

const char *wave_mx_input(const char *spec, char *opt, size_t len)
{
	char name[64], dims[64], kind[32];
	int64_t d[3];
	if (sscanf(spec, "%63[^:]:%63[^:]:%31s", name, dims, kind) != 3)
		die("wave_mx_input: bad spec '%s' (NAME:D0[,D1[,D2]]:KIND)", spec);
	int rank = sscanf(dims, "%" SCNd64 ",%" SCNd64 ",%" SCNd64, &d[0], &d[1], &d[2]);
	int64_t n = 1;
	for (int i = 0; i < rank; i++)
		n *= d[i] > 0 ? d[i] : 0;
	if (rank < 1 || n < 1)
		die("wave_mx_input: bad dims in '%s'", spec);
	uint8_t *v = malloc((size_t)n), *t = malloc((size_t)n);
	if (!v || !t)
		die("wave_mx_input: out of memory");
	/* KIND@mem: the file has the memory's own dtype (f8e5m2, f8e4m3fn,
	 * f8e8m0fnu) in place of i8 (a kernel that reads the types directly:
	 * Wave's test_scaled_gemm_mxfp8); the same bytes */
	char *at = strchr(kind, '@');
	bool typed = at && strcmp(at, "@mem") == 0;
	if (at)
		*at = 0;
	uint64_t s = (uint64_t)n * 7919 * 31 + (uint64_t)(unsigned char)name[0] + (uint64_t)strlen(name);
	bool scale = strncmp(kind, "scale", 5) == 0;
	for (int64_t i = 0; i < n; i++) {
		if (strcmp(kind, "f4") == 0) /* two e2m1 codes 0..15 */
			v[i] = (uint8_t)(next(&s) >> 56);
		else if (scale) /* randint(124, 128): 2^-3 .. 2^0 */
			v[i] = (uint8_t)(124 + (next(&s) >> 62));
		else if (strcmp(kind, "e5m2") == 0 || strcmp(kind, "e4m3") == 0) /* randn(...).to(f8) */
			dtype_store(kind[1] == '5' ? DT_F8E5M2 : DT_F8E4M3FN, v, (uint64_t)i, gauss(&s));
		else
			die("wave_mx_input: kind '%s' (f4, e5m2, e4m3, scale, scale_shuffled)", kind);
	}
	if (strcmp(kind, "scale_shuffled") == 0) {
		if (rank != 2)
			die("wave_mx_input: scale_shuffled takes two dims ('%s')", spec);
		e8m0_shuffle(v, t, (long)d[0], (long)d[1]);
		memcpy(v, t, (size_t)n);
	}
	char dir[200], path[4096], err[256];
	DType ft = !typed		       ? DT_I8
		   : scale		       ? DT_F8E8M0FNU
		   : strcmp(kind, "e5m2") == 0 ? DT_F8E5M2
		   : strcmp(kind, "e4m3") == 0 ? DT_F8E4M3FN
					       : DT_NONE;
	if (ft == DT_NONE)
		die("wave_mx_input: kind '%s' has no memory dtype for @mem", kind);
	snprintf(dir, sizeof dir, "wave_inputs_mx_%s_%s_%s%s", name, dims, kind, typed ? "_mem" : "");
	for (char *c = dir; *c; c++)
		*c = *c == ',' ? 'x' : *c;
	snprintf(path, sizeof path, "%s/%s.npy", test_tmpdir(dir), name);
	if (npy_write(path, ft, rank, d, v, err, sizeof err) < 0)
		die("wave_mx_input: %s", err);
	free(v);
	free(t);
	size_t used = strlen(opt);
	snprintf(opt + used, len - used, "%s--in %s=%s", used ? " " : "", name, path);
	return opt;
}

const char *wave_randint_input(const char *spec, char *opt, size_t len)
{
	char name[64];
	int64_t d[5];
	long lo, hi;
	int rank = 0; /* NAME:D0,...,LO,HI: the dims, then lo and hi */
	const char *colon = strchr(spec, ':'), *p = colon ? colon + 1 : NULL;
	if (!colon || colon == spec || colon - spec > 63)
		die("wave_randint_input: bad spec '%s' (NAME:D0,...,LO,HI, one to three dims)", spec);
	snprintf(name, sizeof name, "%.*s", (int)(colon - spec), spec);
	for (char *end = NULL; rank < 5; p = end + 1) {
		d[rank++] = strtoll(p, &end, 10);
		if (end == p || (*end != ',' && *end != 0))
			die("wave_randint_input: bad spec '%s' (NAME:D0,...,LO,HI, one to three dims)", spec);
		if (*end == 0)
			break;
	}
	if (rank < 3)
		die("wave_randint_input: bad spec '%s' (NAME:D0,...,LO,HI, one to three dims)", spec);
	hi = (long)d[--rank];
	lo = (long)d[--rank];
	int64_t n = 1;
	for (int i = 0; i < rank; i++)
		n *= d[i];
	if (hi <= lo || n < 1)
		die("wave_randint_input: bad spec '%s' (NAME:D0,...,LO,HI, one to three dims)", spec);
	int32_t *v = malloc(sizeof *v * (size_t)n);
	if (!v)
		die("wave_randint_input: out of memory");
	uint64_t s = (uint64_t)n * 7907 * 31 + (uint64_t)(hi - lo) + (uint64_t)(unsigned char)name[0];
	for (int64_t i = 0; i < n; i++)
		v[i] = (int32_t)(lo + (long)(next(&s) % (uint64_t)(hi - lo)));
	char dir[512], dims[96] = "", path[4096], err[256];
	for (int i = 0; i < rank; i++)
		snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%s%lld", i ? "x" : "", (long long)d[i]);
	snprintf(dir, sizeof dir, "wave_inputs_randint_%s_%s_%ld_%ld", name, dims, lo, hi);
	snprintf(path, sizeof path, "%s/%s.npy", test_tmpdir(dir), name);
	if (npy_write(path, DT_I32, rank, d, v, err, sizeof err) < 0)
		die("wave_randint_input: %s", err);
	free(v);
	size_t used = strlen(opt);
	snprintf(opt + used, len - used, "%s--in %s=%s", used ? " " : "", name, path);
	return opt;
}

const char *wave_arange_input(const char *spec, char *opt, size_t len)
{
	char name[64];
	long rows, cols;
	if (sscanf(spec, "%63[^:]:%ld,%ld", name, &rows, &cols) != 3 || rows < 1 || cols < 1)
		die("wave_arange_input: bad spec '%s' (NAME:ROWS,COLS)", spec);
	float *v = malloc(sizeof *v * (size_t)(rows * cols));
	if (!v)
		die("wave_arange_input: out of memory");
	for (long i = 0; i < rows * cols; i++)
		v[i] = (float)i;
	char dir[128], path[4096];
	snprintf(dir, sizeof dir, "wave_inputs_arange_%s_%ldx%ld", name, rows, cols);
	write_2d("wave_arange_input", dir, name, DT_F32, rows, cols, v, path, sizeof path);
	free(v);
	size_t used = strlen(opt);
	snprintf(opt + used, len - used, "%s--in %s=%s", used ? " " : "", name, path);
	return opt;
}

const char *wave_iota_input(const char *spec, char *opt, size_t len)
{
	char name[64];
	long n;
	char tail;
	if (sscanf(spec, "%63[^:]:%ld%c", name, &n, &tail) != 2 || n < 1 || n > 100000000)
		die("wave_iota_input: bad spec '%s' (NAME:N)", spec);
	int32_t *v = malloc(sizeof *v * (size_t)n);
	if (!v)
		die("wave_iota_input: out of memory");
	for (long i = 0; i < n; i++)
		v[i] = (int32_t)i;
	char dir[128], path[4096], err[256];
	snprintf(dir, sizeof dir, "wave_inputs_iota_%s_%ld", name, n);
	snprintf(path, sizeof path, "%s/%s.npy", test_tmpdir(dir), name);
	int64_t shape[1] = {n};
	if (npy_write(path, DT_I32, 1, shape, v, err, sizeof err) < 0)
		die("wave_iota_input: %s", err);
	free(v);
	size_t used = strlen(opt);
	snprintf(opt + used, len - used, "%s--in %s=%s", used ? " " : "", name, path);
	return opt;
}

const char *wave_zeros_input(const char *spec, char *opt, size_t len)
{
	char name[64], dt[16];
	long rows, cols;
	if (sscanf(spec, "%63[^:]:%ld,%ld:%15s", name, &rows, &cols, dt) != 4 || rows < 1 || cols < 1)
		die("wave_zeros_input: bad spec '%s' (NAME:ROWS,COLS:DTYPE)", spec);
	DType t = dtype_from_name(dt);
	if (t == DT_NONE || dtype_size(t) < 1 || dtype_size(t) > 8)
		die("wave_zeros_input: bad dtype in '%s'", spec);
	void *v = calloc((size_t)(rows * cols), (size_t)dtype_size(t));
	if (!v)
		die("wave_zeros_input: out of memory");
	char dir[128], path[4096];
	snprintf(dir, sizeof dir, "wave_inputs_zeros_%s_%ldx%ld_%s", name, rows, cols, dt);
	write_2d("wave_zeros_input", dir, name, t, rows, cols, v, path, sizeof path);
	free(v);
	size_t used = strlen(opt);
	snprintf(opt + used, len - used, "%s--in %s=%s", used ? " " : "", name, path);
	return opt;
}
