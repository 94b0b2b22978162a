/* api_call.c — the boundary of one public library call (api.h, ApiCall):
 * messages collected as text and as data, internal errors caught, what the
 * call holds released and its handles unlocked at the end, whatever
 * happened.
 *
 * Diagnostics. The call's Diag hands every message to the sink here, which
 * keeps it as a wavecc_diagnostic: severity, location, JSON path, op, hint,
 * the message alone and the whole text as printed (plus the op's source
 * location, "(at FILE:LINE:COL)", when the graph gives one); the `error`
 * text is those texts, one per line. The JSON reader gives paths as data
 * (diag_error_path); the compiler's messages carry the path of the op or
 * constraint they are about as their first words ("graph[3]: ..."), which
 * is recognised against the paths the kernel really has (never guessed
 * from the shape of the text alone). The op is the one at that path, else
 * the one located where the message is. The runtime's messages come as
 * text lines "FILE:LINE:COL: PATH: message" (api_text) and are read back
 * into the same fields. When the call ends its list becomes the calling
 * thread's (a thread-specific slot, freed when the thread exits).
 *
 * Internal errors. api_begin pushes a DieCatch (util/diag.c) for the
 * thread; die() longjmps to the setjmp in the public function, which calls
 * api_internal. The call object is on the heap, so it is intact after the
 * jump; the deferred releases run; locks are released. The failing
 * stage's own stack frames are gone, so what only they held is leaked. */
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* ---- the thread's list ---- */

static pthread_key_t last_key;
static pthread_once_t last_once = PTHREAD_ONCE_INIT;

static void last_release(void *p)
{
	api_diags_free(p);
	free(p);
}

static void last_init(void)
{
	if (pthread_key_create(&last_key, last_release) != 0)
		die("pthread_key_create failed");
}

static ApiDiags *last_slot(void)
{
	pthread_once(&last_once, last_init);
	ApiDiags *d = pthread_getspecific(last_key);
	if (!d) {
		d = xcalloc(1, sizeof *d);
		arena_init(&d->arena);
		if (pthread_setspecific(last_key, d) != 0)
			die("pthread_setspecific failed");
	}
	return d;
}

const ApiDiags *api_last(void)
{
	return last_slot();
}

void api_diags_free(ApiDiags *d)
{
	arena_free(&d->arena);
	vec_free(&d->v);
}

static const char *dup_or_null(Arena *a, const char *s)
{
	return s ? arena_strdup(a, s) : NULL;
}

/* d with its text copied into a. */
static wavecc_diagnostic copy_entry(Arena *a, wavecc_diagnostic d)
{
	d.message = dup_or_null(a, d.message);
	d.file = dup_or_null(a, d.file);
	d.json_path = dup_or_null(a, d.json_path);
	d.op = dup_or_null(a, d.op);
	d.source_file = dup_or_null(a, d.source_file);
	d.hint = dup_or_null(a, d.hint);
	d.text = dup_or_null(a, d.text);
	return d;
}

void api_diags_copy(ApiDiags *to, const ApiDiags *from)
{
	api_diags_free(to);
	arena_init(&to->arena);
	for (size_t i = 0; i < from->v.len; i++)
		vec_push(&to->v, copy_entry(&to->arena, from->v.data[i]));
}

/* The first version's size: the struct as 0.3 declared it. */
#define DIAGNOSTIC_SIZE_0_3 (offsetof(wavecc_diagnostic, text) + sizeof(const char *))

wavecc_status api_diag_out(const ApiDiags *list, size_t i, wavecc_diagnostic *out)
{
	if (!out || out->struct_size < DIAGNOSTIC_SIZE_0_3 || i >= list->v.len)
		return WAVECC_EARG;
	const wavecc_diagnostic *d = &list->v.data[i];
	size_t size = MIN(out->struct_size, sizeof *d);
	memcpy((char *)out + sizeof out->struct_size, (const char *)d + sizeof d->struct_size,
		size - sizeof d->struct_size);
	return WAVECC_OK;
}

/* ---- recognising paths and ops ---- */

/* Does message start with path p followed by ':' ' ', '.' or '['? */
static bool starts_with_path(const char *msg, const char *p)
{
	size_t n = strlen(p);
	return n && strncmp(msg, p, n) == 0 && (msg[n] == ':' || msg[n] == '.' || msg[n] == '[');
}

/* The op or constraint path msg starts with, as its first word up to
 * ": "; the op whose path it is under goes to *op. */
static const char *path_in_message(Arena *a, const Kernel *k, const char *msg, const Op **op)
{
	const char *colon = strstr(msg, ": ");
	if (!colon || memchr(msg, ' ', (size_t)(colon - msg)))
		return NULL;
	const Op *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < k->op_list.len; i++) {
		const Op *o = k->op_list.data[i];
		if (o->path && starts_with_path(msg, o->path) && strlen(o->path) > best_len) {
			best = o;
			best_len = strlen(o->path);
		}
	}
	bool con = false;
	for (size_t i = 0; !best && !con && i < k->cons.len; i++)
		con = k->cons.data[i].path && starts_with_path(msg, k->cons.data[i].path);
	if (!best && !con)
		return NULL;
	*op = best;
	return arena_strndup(a, msg, (size_t)(colon - msg));
}

static bool same_loc(Loc a, Loc b)
{
	return a.line == b.line && a.col == b.col && a.line > 0 &&
	       (a.file == b.file || (a.file && b.file && strcmp(a.file, b.file) == 0));
}

static const Op *op_at(const Kernel *k, Loc loc)
{
	for (size_t i = 0; i < k->op_list.len; i++)
		if (same_loc(k->op_list.data[i]->loc, loc))
			return k->op_list.data[i];
	return NULL;
}

/* ---- collecting ---- */

static void add(ApiSink *s, wavecc_severity sev, Loc loc, const char *path, const char *msg, const char *hint,
	const char *text)
{
	Arena *a = &s->list->arena;
	const Kernel *k = s->k;
	const Op *op = NULL;
	if (path && strcmp(path, "(document)") == 0)
		path = NULL;
	if (!path && k && sev != WAVECC_SEVERITY_INTERNAL) {
		const char *p = path_in_message(a, k, msg, &op);
		if (p) {
			msg += strlen(p) + 2;
			path = p;
		}
	}
	if (!op && k && path) /* a path the reader gave: the op under it */
		for (size_t i = 0; i < k->op_list.len; i++) {
			const Op *o = k->op_list.data[i];
			if (o->path && (strcmp(path, o->path) == 0 || starts_with_path(path, o->path)) &&
				(!op || strlen(o->path) > strlen(op->path)))
				op = o;
		}
	if (!op && k)
		op = op_at(k, loc);
	wavecc_diagnostic d = {.struct_size = sizeof d, .severity = sev, .message = arena_strdup(a, msg),
		.file = dup_or_null(a, loc.file), .line = loc.line, .col = loc.col, .json_path = dup_or_null(a, path),
		.op = op ? arena_strdup(a, op->name) : NULL, .hint = dup_or_null(a, hint),
		.text = arena_strdup(a, text)};
	const SrcLoc *src = op ? op->src : NULL;
	if (src) {
		d.source_file = arena_strdup(a, src->file);
		d.source_line = src->line;
		d.source_col = src->col;
		/* the text says it too, after the message's first line */
		size_t first = strcspn(text, "\n");
		d.text = src->col > 0 ? arena_printf(a, "%.*s (at %s:%d:%d)%s", (int)first, text, src->file, src->line,
						src->col, text + first)
				      : arena_printf(a, "%.*s (at %s:%d)%s", (int)first, text, src->file, src->line,
						text + first);
	}
	vec_push(&s->list->v, d);
}

static void sink(void *ctx, const DiagInfo *info)
{
	add(ctx, info->severity == DIAG_ERROR ? WAVECC_SEVERITY_ERROR : WAVECC_SEVERITY_WARNING, info->loc, info->path,
		info->msg, info->hint, info->text);
}

/* Is s[0..n) a JSON path: NAME, then .NAME or [INDEX] parts? */
static bool is_path(const char *s, size_t n)
{
	size_t i = 0;
	bool name = true;
	if (!n)
		return false;
	while (i < n) {
		char ch = s[i];
		if (ch == '[') {
			size_t j = i + 1;
			while (j < n && s[j] >= '0' && s[j] <= '9')
				j++;
			if (j == i + 1 || j >= n || s[j] != ']')
				return false;
			i = j + 1;
			name = false;
		} else if (ch == '.') {
			i++;
			name = true;
		} else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_') {
			if (!name)
				return false;
			i++;
		} else
			return false;
	}
	return true;
}

/* One line "[FILE:LINE:COL: ][error: |warning: ][PATH: ]msg" (buf_diag's
 * form; "wavecc: " stands for no file). */
static void add_line(ApiCall *c, const char *line)
{
	Loc loc = {0};
	const char *rest = line;
	wavecc_severity sev = WAVECC_SEVERITY_ERROR;
	/* the location: the first ": " after ":LINE:COL" */
	for (const char *p = strstr(line, ": "); p; p = strstr(p + 1, ": ")) {
		const char *q = p;
		int digits[2] = {0, 0}, ok = 0;
		for (int part = 1; part >= 0; part--) {
			const char *e = q;
			while (q > line && q[-1] >= '0' && q[-1] <= '9')
				q--;
			if (q == e || q == line || q[-1] != ':')
				break;
			digits[part] = atoi(q);
			q--;
			ok++;
		}
		if (ok == 2) {
			loc = (Loc){arena_strndup(&c->diags.arena, line, (size_t)(q - line)), digits[0], digits[1]};
			rest = p + 2;
			break;
		}
	}
	if (strncmp(rest, "wavecc: ", 8) == 0)
		rest += 8;
	if (strncmp(rest, "error: ", 7) == 0) {
		rest += 7;
	} else if (strncmp(rest, "warning: ", 9) == 0) {
		rest += 9;
		sev = WAVECC_SEVERITY_WARNING;
	}
	const char *path = NULL;
	const char *colon = strstr(rest, ": ");
	if (colon && is_path(rest, (size_t)(colon - rest))) {
		path = arena_strndup(&c->diags.arena, rest, (size_t)(colon - rest));
		rest = colon + 2;
	}
	add(&c->sink, sev, loc, path, rest, NULL, line);
}

void api_text(ApiCall *c, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		if (n) {
			char *line = arena_strndup(&c->diags.arena, text, n);
			add_line(c, line);
		}
		text += n + (nl ? 1 : 0);
	}
}

void api_error(ApiCall *c, const char *fmt, ...)
{
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	add(&c->sink, WAVECC_SEVERITY_ERROR, (Loc){0}, NULL, buf_cstr(&b), NULL, buf_cstr(&b));
	c->d.nerrors++;
	buf_free(&b);
}

/* ---- the call ---- */

ApiCall *api_begin(const char *fn, char **error)
{
	ApiCall *c = xcalloc(1, sizeof *c);
	c->fn = fn;
	c->error = error;
	if (error)
		*error = NULL;
	arena_init(&c->diags.arena);
	diag_init(&c->d);
	c->f = open_memstream(&c->text, &c->len);
	if (!c->f)
		die("open_memstream: out of memory");
	c->sink.list = &c->diags;
	api_diag_to(c, &c->d, &c->sink);
	die_catch_push(&c->dc);
	return c;
}

void api_diag_to(ApiCall *c, Diag *d, ApiSink *s)
{
	diag_init(d);
	d->out = c->f;
	d->sink = sink;
	d->sink_ctx = s;
}

char *api_diags_text(const ApiDiags *list)
{
	Buf b = {0};
	for (size_t i = 0; i < list->v.len; i++) {
		const wavecc_diagnostic *d = &list->v.data[i];
		buf_printf(&b, "%s\n", d->text);
		/* the fix on a line of its own, as the command line prints it (util/diag.c) */
		if (d->hint && d->text && !strstr(d->text, d->hint)) {
			const char *sev = strstr(d->text, d->severity == WAVECC_SEVERITY_WARNING ? "warning: " : "error: ");
			buf_printf(&b, "%.*shint: %s\n", sev ? (int)(sev - d->text) : 0, d->text, d->hint);
		}
	}
	char *r = xstrdup(buf_cstr(&b));
	buf_free(&b);
	return r;
}

void api_diags_append(ApiCall *c, const ApiDiags *from)
{
	for (size_t i = 0; i < from->v.len; i++)
		vec_push(&c->diags.v, copy_entry(&c->diags.arena, from->v.data[i]));
}

void api_defer(ApiCall *c, void (*fn)(void *), void *p)
{
	if (c->ndefer == API_MAX_DEFER)
		die("%s: more than %d deferred releases", c->fn, API_MAX_DEFER);
	c->defer[c->ndefer].fn = fn;
	c->defer[c->ndefer++].p = p;
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (wavecc_kernel *const *)a, y = (uintptr_t) * (wavecc_kernel *const *)b;
	return x < y ? -1 : x > y;
}

void api_lock_all(ApiCall *c, wavecc_kernel *const *ks, size_t n)
{
	if ((size_t)(c->caplocks - c->nlocks) < n) { /* room for all of them */
		c->caplocks = c->nlocks + (int)n;
		c->locks = xrealloc(c->locks, (size_t)c->caplocks * sizeof *c->locks);
	}
	wavecc_kernel **l = c->locks + c->nlocks;
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		bool seen = !ks[i];
		for (size_t j = 0; j < m && !seen; j++)
			seen = l[j] == ks[i];
		for (int j = 0; j < c->nlocks && !seen; j++)
			seen = c->locks[j] == ks[i];
		if (seen)
			continue;
		l[m++] = ks[i];
	}
	/* one order for every thread: no two calls wait on each other */
	qsort(l, m, sizeof *l, by_address);
	for (size_t i = 0; i < m; i++)
		pthread_mutex_lock(&l[i]->lock);
	c->nlocks += (int)m;
}

/* Release what the call holds and hand its messages on. */
static void finish(ApiCall *c, wavecc_status st)
{
	die_catch_pop(&c->dc);
	while (c->ndefer > 0) {
		c->ndefer--;
		c->defer[c->ndefer].fn(c->defer[c->ndefer].p);
	}
	for (int i = c->nlocks - 1; i >= 0; i--)
		pthread_mutex_unlock(&c->locks[i]->lock);
	free(c->locks);
	fclose(c->f); /* what was printed is what the diagnostics' text says */
	free(c->text);
	if (st != WAVECC_OK && c->error)
		*c->error = api_diags_text(&c->diags);
	if (c->quiet) {
		api_diags_free(&c->diags);
	} else {
		ApiDiags *last = last_slot();
		api_diags_free(last);
		*last = c->diags;
	}
	free(c);
}

wavecc_status api_end(ApiCall *c, wavecc_status st)
{
	finish(c, st);
	return st;
}

wavecc_status api_internal(ApiCall *c)
{
	Buf b = {0};
	buf_printf(&b, "wavecc: internal error at %s:%d: %s", c->dc.file, c->dc.line, c->dc.msg);
	add(&c->sink, WAVECC_SEVERITY_INTERNAL, (Loc){c->dc.file, c->dc.line, 0}, NULL, c->dc.msg,
		"this is a bug in wavecc; please report it with the input", buf_cstr(&b));
	buf_free(&b);
	finish(c, WAVECC_EINTERNAL);
	return WAVECC_EINTERNAL;
}
