/* api_cache.c — the library's opt-in on-disk compile cache.
 *
 * On when wavecc_compile_options.cache_dir names a folder, or, with that
 * NULL, when $WAVECC_CACHE_DIR does ("" turns it off either way). A
 * compile whose key is in the folder returns the stored result without
 * running the pipeline or llvm-mc; one that is not is compiled and
 * stored.
 *
 * The key is everything the result depends on, as text: wavecc's version,
 * every compile option that reaches the compiler (target, llvm-mc, the
 * code object's name in the descriptor, the bindings in order, schedule,
 * LDS stages, waves per EU, interleave, no-schedule, denormals, -S), the
 * kernel's name for messages, and the kernel graph's JSON exactly as
 * given. The file name is a 128-bit hash of the key (two FNV-1a hashes),
 * and the file holds the whole key, compared byte for byte on every load:
 * a hash collision is a miss, never another kernel's code. Dumps
 * (dump_mir, dump_plan) are never cached: such a compile always runs.
 *
 * A file is "wavecc-cache/1\n" and length-prefixed fields (64-bit little
 * endian lengths): the key, the assembly, the code object, the launch
 * descriptor, the statistics, then the compile's warnings (each field of
 * each wavecc_diagnostic). It is written whole to a temporary file and
 * renamed (util/file.c), so readers (other threads, other processes) see
 * a complete entry or none; a file that does not read back whole is a
 * miss and is replaced. Nothing is ever evicted: the folder is the
 * caller's to clear. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api.h"

#define CACHE_MAGIC "wavecc-cache/1\n"

const char *api_cache_dir(const wavecc_compile_options *o)
{
	const char *dir = o && o->cache_dir ? o->cache_dir : getenv("WAVECC_CACHE_DIR");
	return dir && *dir ? dir : NULL;
}

/* A result read in part. */
static void discard(wavecc_compiled *c)
{
	buf_free(&c->asm_text);
	buf_free(&c->code_object);
	buf_free(&c->launch_json);
	free(c->stats);
	free(c->dump);
	arena_free(&c->arena);
	api_diags_free(&c->diags);
	free(c);
}

void api_cache_key(Buf *key, const wavecc_kernel *k, const CompileOptions *co)
{
	buf_printf(key, "wavecc %s\ntarget %s\nllvm-mc %s\ncode object %s\n", WAVECC_VERSION_STRING, co->mcpu,
		co->llvm_mc ? co->llvm_mc : "", co->code_object ? co->code_object : "");
	buf_puts(key, "defines");
	for (int i = 0; i < co->ndefs; i++)
		buf_printf(key, " %s=%lld", co->def_name[i], (long long)co->def_val[i]);
	buf_printf(key, "\nschedule %d lds_stages %d waves_per_eu %d no_schedule %d f32_denorm %d stop_after %s\n",
		(int)co->schedule, co->lds_stages, co->waves_per_eu, (int)co->no_schedule, (int)co->f32_denorm,
		co->stop_after ? co->stop_after : "");
	buf_printf(key, "interleave %s\nname %s\ngraph %zu\n", co->interleave ? co->interleave : "",
		k->k->file ? k->k->file : "", k->source_len);
	buf_putn(key, k->source, k->source_len);
}

static uint64_t fnv(const char *s, size_t n, uint64_t h, uint64_t prime)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * prime;
	return h;
}

/* The entry's path for key. */
static char *entry_path(const char *dir, const Buf *key)
{
	uint64_t a = fnv(key->data, key->len, 0xcbf29ce484222325ull, 0x100000001b3ull);
	uint64_t b = fnv(key->data, key->len, 0x84222325cbf29ce4ull, 0x1000193ull * 0x10001ull);
	Buf p = {0};
	buf_printf(&p, "%s/%016llx%016llx.wcc", dir, (unsigned long long)a, (unsigned long long)b);
	char *r = xstrdup(buf_cstr(&p));
	buf_free(&p);
	return r;
}

/* ---- writing ---- */

static void put_u64(Buf *b, uint64_t v)
{
	unsigned char x[8];
	for (int i = 0; i < 8; i++)
		x[i] = (unsigned char)(v >> (8 * i));
	buf_putn(b, x, 8);
}

static void put_blob(Buf *b, const void *p, size_t n)
{
	put_u64(b, n);
	buf_putn(b, p, n);
}

/* A string or NULL (length all ones). */
static void put_str(Buf *b, const char *s)
{
	if (!s)
		put_u64(b, UINT64_MAX);
	else
		put_blob(b, s, strlen(s));
}

/* dir and its parents as needed. */
static void make_dirs(const char *dir)
{
	char *p = xstrdup(dir);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0777);
			*s = '/';
		}
	mkdir(p, 0777);
	free(p);
}

bool api_cache_store(const char *dir, const Buf *key, const wavecc_compiled *c)
{
	Buf b = {0};
	buf_puts(&b, CACHE_MAGIC);
	put_blob(&b, key->data, key->len);
	put_blob(&b, c->asm_text.data, c->asm_text.len);
	put_blob(&b, c->code_object.data, c->code_object.len);
	put_blob(&b, c->launch_json.data, c->launch_json.len);
	put_str(&b, c->stats);
	put_u64(&b, c->diags.v.len);
	for (size_t i = 0; i < c->diags.v.len; i++) {
		const wavecc_diagnostic *d = &c->diags.v.data[i];
		put_u64(&b, (uint64_t)d->severity);
		put_u64(&b, (uint64_t)(int64_t)d->line);
		put_u64(&b, (uint64_t)(int64_t)d->col);
		put_u64(&b, (uint64_t)(int64_t)d->source_line);
		put_u64(&b, (uint64_t)(int64_t)d->source_col);
		const char *s[] = {d->message, d->file, d->json_path, d->op, d->source_file, d->hint, d->text};
		for (size_t j = 0; j < ARRAY_LEN(s); j++)
			put_str(&b, s[j]);
	}
	make_dirs(dir);
	char *path = entry_path(dir, key);
	bool ok = file_write_output(path, b.data, b.len, 0644) == 0;
	free(path);
	buf_free(&b);
	return ok;
}

/* ---- reading ---- */

typedef struct Reader {
	const char *p, *end;
	bool bad;
} Reader;

static uint64_t get_u64(Reader *r)
{
	if (r->bad || r->end - r->p < 8) {
		r->bad = true;
		return 0;
	}
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)(unsigned char)r->p[i] << (8 * i);
	r->p += 8;
	return v;
}

/* A blob's bytes (in the file's text) and length; NULL when absent
 * (get_str's NULL) or past the end (bad). */
static const char *get_blob(Reader *r, size_t *n)
{
	uint64_t len = get_u64(r);
	*n = 0;
	if (r->bad || len == UINT64_MAX)
		return NULL;
	if (len > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	const char *s = r->p;
	r->p += len;
	*n = (size_t)len;
	return s;
}

static void get_buf(Reader *r, Buf *b)
{
	size_t n;
	const char *s = get_blob(r, &n);
	if (s && n)
		buf_putn(b, s, n);
}

static const char *get_str(Reader *r, Arena *a)
{
	size_t n;
	const char *s = get_blob(r, &n);
	return s ? arena_strndup(a, s, n) : NULL;
}

wavecc_compiled *api_cache_load(const char *dir, const Buf *key)
{
	char *path = entry_path(dir, key);
	size_t len;
	char *text = read_file(path, &len);
	free(path);
	if (!text)
		return NULL;
	Reader r = {text, text + len, false};
	size_t n = strlen(CACHE_MAGIC), klen;
	if (len < n || memcmp(text, CACHE_MAGIC, n) != 0) {
		free(text);
		return NULL;
	}
	r.p += n;
	const char *k = get_blob(&r, &klen);
	if (!k || klen != key->len || memcmp(k, key->data, klen) != 0) { /* another key: a miss */
		free(text);
		return NULL;
	}
	wavecc_compiled *c = xcalloc(1, sizeof *c);
	arena_init(&c->arena);
	arena_init(&c->diags.arena);
	get_buf(&r, &c->asm_text);
	get_buf(&r, &c->code_object);
	get_buf(&r, &c->launch_json);
	const char *stats = get_str(&r, &c->arena);
	c->stats = xstrdup(stats ? stats : "");
	c->dump = xstrdup("");
	uint64_t nd = get_u64(&r);
	for (uint64_t i = 0; i < nd && !r.bad; i++) {
		wavecc_diagnostic d = {.struct_size = sizeof d};
		Arena *a = &c->diags.arena;
		d.severity = (wavecc_severity)get_u64(&r);
		d.line = (int)(int64_t)get_u64(&r);
		d.col = (int)(int64_t)get_u64(&r);
		d.source_line = (int)(int64_t)get_u64(&r);
		d.source_col = (int)(int64_t)get_u64(&r);
		d.message = get_str(&r, a);
		d.file = get_str(&r, a);
		d.json_path = get_str(&r, a);
		d.op = get_str(&r, a);
		d.source_file = get_str(&r, a);
		d.hint = get_str(&r, a);
		d.text = get_str(&r, a);
		if (!d.message || !d.text)
			r.bad = true;
		else
			vec_push(&c->diags.v, d);
	}
	free(text);
	if (r.bad || r.p != r.end || !c->launch_json.len) {
		discard(c);
		return NULL;
	}
	return c;
}
