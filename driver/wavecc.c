/* wavecc.c — the public C library (include/wavecc.h) over the driver, the
 * runtime and the interpreter.
 *
 * Every call collects its diagnostics in memory (a Diag writing into an
 * open_memstream, or the runtime's message Buf) and hands them to the
 * caller as one malloc'd string; nothing here prints or exits. A kernel
 * handle keeps the graph as loaded and the symbol bindings set on it;
 * compile works on a view with the bindings (driver/pipeline.c), interpret
 * and the argument queries on their own view (subst_bind), so the graph a
 * handle holds never changes. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/wavecc.h"
#include "../frontend/frontend.h"
#include "../interp/interp.h"
#include "../loader/runtime/launch.h"
#include "../util/dtype.h"
#include "api.h"
#include "stats.h"

const char *wavecc_version(void)
{
	return WAVECC_VERSION_STRING;
}

/* ---- messages ---- */

typedef struct Msgs {
	Diag d;
	FILE *f;
	char *text;
	size_t len;
} Msgs;

static void msgs_open(Msgs *m)
{
	*m = (Msgs){0};
	diag_init(&m->d);
	m->f = open_memstream(&m->text, &m->len);
	if (!m->f)
		die("open_memstream: out of memory");
	m->d.out = m->f;
}

/* Close m; on failure give its text to *error (or drop it), on success
 * drop it (success leaves *error NULL). */
static void msgs_finish(Msgs *m, bool ok, char **error)
{
	fclose(m->f);
	if (!ok && error)
		*error = m->text;
	else
		free(m->text);
}

static void msgs_close(Msgs *m, char **error) { msgs_finish(m, false, error); }

static void set_error(char **error, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void set_error(char **error, const char *fmt, ...)
{
	if (!error)
		return;
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	buf_putc(&b, '\n');
	*error = xstrdup(buf_cstr(&b));
	buf_free(&b);
}

static void clear_error(char **error)
{
	if (error)
		*error = NULL;
}

/* ---- kernels ---- */

static wavecc_kernel *wrap_kernel(Kernel *k)
{
	if (!k)
		return NULL;
	wavecc_kernel *h = xcalloc(1, sizeof *h);
	h->k = k;
	arena_init(&h->params_arena);
	return h;
}

wavecc_kernel *wavecc_kernel_parse(const char *json, size_t len, const char *name, char **error)
{
	clear_error(error);
	if (!json) {
		set_error(error, "wavecc_kernel_parse: no text");
		return NULL;
	}
	Msgs m;
	msgs_open(&m);
	/* names live as long as the process (interned): locations point at them */
	Kernel *k = load_kernel_text(json, len, intern(name ? name : "<memory>"), &m.d);
	msgs_finish(&m, k != NULL, error);
	return wrap_kernel(k);
}

wavecc_kernel *wavecc_kernel_load(const char *path, char **error)
{
	clear_error(error);
	if (!path) {
		set_error(error, "wavecc_kernel_load: no path");
		return NULL;
	}
	Msgs m;
	msgs_open(&m);
	Kernel *k = load_kernel_file(intern(path), &m.d);
	msgs_finish(&m, k != NULL, error);
	return wrap_kernel(k);
}

void wavecc_kernel_free(wavecc_kernel *k)
{
	if (!k)
		return;
	for (int i = 0; i < k->ndefs; i++)
		free(k->def_text[i]);
	arena_free(&k->params_arena);
	kernel_free(k->k);
	free(k);
}

const char *wavecc_kernel_name(const wavecc_kernel *k)
{
	return k ? k->k->name : NULL;
}

wavecc_status wavecc_kernel_set_symbol(wavecc_kernel *k, const char *name, int64_t value, char **error)
{
	clear_error(error);
	if (!k || !name) {
		set_error(error, "wavecc_kernel_set_symbol: no kernel or no name");
		return WAVECC_EARG;
	}
	const KSymbol *s = kernel_symbol(k->k, name);
	if (!s) {
		set_error(error, "kernel %s has no symbol %s", k->k->name, name);
		return WAVECC_EARG;
	}
	if (s->kind != SYMK_DYNAMIC && s->kind != SYMK_VALUE) {
		set_error(error, "%s:%d:%d: error: %s: only dynamic symbols and symbol values can be set",
			s->loc.file ? s->loc.file : "<memory>", s->loc.line, s->loc.col, s->name);
		return WAVECC_EINPUT;
	}
	const char *n = intern(name);
	int i = 0;
	while (i < k->ndefs && k->def_name[i] != n)
		i++;
	if (i == MAX_DEFS) {
		set_error(error, "at most %d symbols can be set", MAX_DEFS);
		return WAVECC_EARG;
	}
	if (i == k->ndefs)
		k->ndefs++;
	else
		free(k->def_text[i]);
	k->def_name[i] = n;
	k->def_val[i] = value;
	char text[512];
	snprintf(text, sizeof text, "%s=%lld", n, (long long)value);
	k->def_text[i] = xstrdup(text);
	k->params_valid = false;
	return WAVECC_OK;
}

/* k's graph with its bindings (a view: kernel_view_free), and the values
 * of its dynamic symbols in dyn (k->dyn_syms order; may be NULL). NULL with
 * diagnostics in m when a binding is bad or a dynamic symbol has no value. */
static Kernel *bound_view(const Kernel *g, int ndefs, const char *const *names, const int64_t *vals, int64_t *dyn,
	Msgs *m)
{
	const char *missing = subst_dynamic_values(g, ndefs, names, vals, dyn);
	if (missing) {
		diag_error(&m->d, (Loc){g->file, 0, 0},
			"dynamic symbol %s of kernel %s needs a value (wavecc_kernel_set_symbol)", missing, g->name);
		return NULL;
	}
	return subst_bound_view(g, ndefs, names, vals, &m->d);
}

size_t wavecc_kernel_num_args(const wavecc_kernel *k)
{
	return k ? k->k->args.len : 0;
}

wavecc_status wavecc_kernel_arg(const wavecc_kernel *k, size_t i, wavecc_arg_info *info, char **error)
{
	clear_error(error);
	if (!k || !info || i >= k->k->args.len) {
		set_error(error, "wavecc_kernel_arg: no kernel, no info, or argument %zu of %zu", i,
			k ? k->k->args.len : 0);
		return WAVECC_EARG;
	}
	Msgs m;
	msgs_open(&m);
	Kernel *v = bound_view(k->k, k->ndefs, k->def_name, k->def_val, NULL, &m);
	if (!v) {
		msgs_close(&m, error);
		return WAVECC_EINPUT;
	}
	const Value *a = v->args.data[i];
	*info = (wavecc_arg_info){.name = a->name, .dtype = dtype_name(a->dtype),
		.element_size = (size_t)dtype_size(a->dtype), .rank = a->shape.rank};
	uint64_t count = 1;
	wavecc_status st = WAVECC_OK;
	for (int d = 0; d < a->shape.rank && d < 8; d++) {
		Sym *e = kernel_subs(v, a->shape.dims[d]);
		int64_t x;
		if (!sym_is_int(e, &x) || x < 0) {
			diag_error(&m.d, a->loc, "argument %s: dimension %d is %s, not a size (bind its symbols)", a->name, d,
				sym_str(v->sc, e));
			st = WAVECC_EINPUT;
			break;
		}
		info->shape[d] = x;
		count = x && count > UINT64_MAX / (uint64_t)x ? UINT64_MAX : count * (uint64_t)x;
	}
	if (a->shape.rank > 8) {
		diag_error(&m.d, a->loc, "argument %s has rank %d; the API describes up to 8", a->name, a->shape.rank);
		st = WAVECC_EINPUT;
	}
	info->bytes = count == UINT64_MAX ? UINT64_MAX : count * info->element_size;
	for (size_t j = 0; j < v->op_list.len; j++) {
		const Op *op = v->op_list.data[j];
		info->reads |= (op->kind == OP_READ && op->args[0] == a) || (op->kind == OP_ATOMIC_ADD && op->args[1] == a);
		info->writes |= (op->kind == OP_WRITE || op->kind == OP_ATOMIC_ADD) && op->args[1] == a;
	}
	kernel_view_free(v);
	msgs_finish(&m, st == WAVECC_OK, error);
	return st;
}

/* k's parameters under its bindings, described once per binding state;
 * -1 with diagnostics in m (a binding the graph rejects). */
static int kernel_params(wavecc_kernel *k, Msgs *m)
{
	if (k->params_valid)
		return 0;
	arena_free(&k->params_arena);
	arena_init(&k->params_arena);
	if (api_params(k->k, k->ndefs, k->def_name, k->def_val, &k->params_arena, &k->params, &k->nparams, &m->d) != 0)
		return -1;
	k->params_valid = true;
	return 0;
}

size_t wavecc_kernel_num_params(const wavecc_kernel *k)
{
	if (!k)
		return 0;
	Msgs m;
	msgs_open(&m);
	/* the cache is the handle's own state, not the graph's: a const
	 * handle may fill it */
	wavecc_kernel *mk = (wavecc_kernel *)k;
	size_t n = kernel_params(mk, &m) == 0 ? mk->nparams : 0;
	msgs_close(&m, NULL);
	return n;
}

wavecc_status wavecc_kernel_param(const wavecc_kernel *k, size_t i, wavecc_param_info *info, char **error)
{
	clear_error(error);
	if (!k || !info) {
		set_error(error, "wavecc_kernel_param: no kernel or no info");
		return WAVECC_EARG;
	}
	Msgs m;
	msgs_open(&m);
	wavecc_kernel *mk = (wavecc_kernel *)k;
	if (kernel_params(mk, &m) != 0) {
		msgs_close(&m, error);
		return WAVECC_EINPUT;
	}
	msgs_finish(&m, true, error);
	if (i >= mk->nparams) {
		set_error(error, "wavecc_kernel_param: parameter %zu of %zu", i, mk->nparams);
		return WAVECC_EARG;
	}
	return api_param_out(&mk->params[i], info, error);
}

/* ---- compiling ---- */

/* The first version's size: the struct as 0.3 declared it. */
#define COMPILE_OPTIONS_SIZE_0_3 (offsetof(wavecc_compile_options, dump_plan) + sizeof(int))

/* o checked and read into co, over k's bindings: 0, or -1 with the
 * message in *error (bad options are a bad argument). The defines go
 * after the handle's, so they win; *binds gets "NAME=VALUE" for each
 * (the launch's -D), owned by the caller. */
static int options_of(const wavecc_kernel *k, const wavecc_compile_options *o, CompileOptions *co, char **error)
{
	static const wavecc_compile_options none = {.struct_size = sizeof none};
	if (!o)
		o = &none;
	if (o->struct_size < COMPILE_OPTIONS_SIZE_0_3) {
		set_error(error, "wavecc_compile_options.struct_size is %zu: set it to sizeof(wavecc_compile_options)",
			o->struct_size);
		return -1;
	}
	for (size_t b = sizeof *o; b < o->struct_size; b++)
		if (((const unsigned char *)o)[b]) {
			set_error(error, "wavecc_compile_options: byte %zu is set, a field this library (%s) does not "
					 "have",
				b, WAVECC_VERSION_STRING);
			return -1;
		}
	*co = (CompileOptions){.mcpu = o->target ? o->target : "gfx942",
		.code_object = o->code_object_name ? o->code_object_name : "kernel.hsaco", .llvm_mc = o->llvm_mc,
		.ndefs = k->ndefs, .no_schedule = o->no_schedule != 0, .lds_stages = o->lds_stages,
		.waves_per_eu = o->waves_per_eu, .interleave = o->interleave, .dump = o->dump_mir ? ~0u : 0,
		.dump_plan = o->dump_plan != 0};
	for (int i = 0; i < k->ndefs; i++) {
		co->def_name[i] = k->def_name[i];
		co->def_val[i] = k->def_val[i];
	}
	if (o->ndefines && !o->defines) {
		set_error(error, "wavecc_compile_options: %zu defines and no array", o->ndefines);
		return -1;
	}
	for (size_t i = 0; i < o->ndefines; i++) {
		if (!o->defines[i].name) {
			set_error(error, "wavecc_compile_options: define %zu has no name", i);
			return -1;
		}
		if (co->ndefs == MAX_DEFS) {
			set_error(error, "wavecc_compile_options: at most %d symbols bound in all", MAX_DEFS);
			return -1;
		}
		co->def_name[co->ndefs] = intern(o->defines[i].name);
		co->def_val[co->ndefs++] = o->defines[i].value;
	}
	if (o->schedule) {
		co->schedule = kernel_schedule_from_name(o->schedule);
		if (!co->schedule) {
			set_error(error, "wavecc_compile_options.schedule %s: expected " SCHEDULE_NAMES, o->schedule);
			return -1;
		}
	}
	if (o->lds_stages < 0 || o->lds_stages > 2 || o->waves_per_eu < 0 || o->waves_per_eu > 8) {
		set_error(error, "wavecc_compile_options: lds_stages %d / waves_per_eu %d: lds_stages is 1 or 2, "
				 "waves_per_eu 1 to 8 (0: not given)",
			o->lds_stages, o->waves_per_eu);
		return -1;
	}
	if (o->denorm_fp_math_f32) {
		const char *d = o->denorm_fp_math_f32;
		if (strcmp(d, "ieee") == 0 || strcmp(d, "dynamic") == 0)
			co->f32_denorm = F32_DENORM_KEEP;
		else if (strcmp(d, "preserve-sign") == 0 || strcmp(d, "positive-zero") == 0)
			co->f32_denorm = F32_DENORM_FLUSH;
		else {
			set_error(error, "wavecc_compile_options.denorm_fp_math_f32 %s: expected ieee, dynamic, "
					 "preserve-sign or positive-zero",
				d);
			return -1;
		}
	}
	if (o->assembly_only)
		co->stop_after = "emit_assembly";
	return 0;
}

/* The old options as the new ones. */
static wavecc_compile_options options_new(const wavecc_options *o)
{
	wavecc_compile_options n = {.struct_size = sizeof n};
	if (o) {
		n.target = o->target;
		n.llvm_mc = o->llvm_mc;
		n.code_object_name = o->code_object_name;
	}
	return n;
}

/* The result of a Compile run to the end (or to its assembly), with the
 * bindings it was compiled with (co's) and the dump text (may be NULL). */
static wavecc_compiled *take_result(Compile *c, const wavecc_kernel *k, const CompileOptions *co, char *dump)
{
	wavecc_compiled *r = xcalloc(1, sizeof *r);
	if (!co->stop_after) {
		Buf rep = {0}, msg = {0};
		StageTimes st = {.load_us = -1, .write_us = -1, .total_us = -1};
		/* our own linker's output that our reader rejects is a bug */
		if (compile_stats(&rep, c, &st, &msg) != 0)
			die("statistics: %s", buf_cstr(&msg));
		r->stats = xstrdup(buf_cstr(&rep));
		buf_free(&rep);
		buf_free(&msg);
	} else {
		r->stats = xstrdup("");
	}
	r->dump = dump ? dump : xstrdup("");
	r->asm_text = c->asm_text;
	r->code_object = c->code_object;
	r->launch_json = c->launch_json;
	c->asm_text = c->code_object = c->launch_json = (Buf){0};
	r->nbind = co->ndefs;
	for (int i = 0; i < co->ndefs; i++) {
		char text[512];
		snprintf(text, sizeof text, "%s=%lld", co->def_name[i], (long long)co->def_val[i]);
		r->bind[i] = xstrdup(text);
	}
	arena_init(&r->arena);
	/* the bindings compiled, so they are good */
	Msgs m;
	msgs_open(&m);
	if (api_params(k->k, co->ndefs, co->def_name, co->def_val, &r->arena, &r->params, &r->nparams, &m.d) != 0)
		die("the parameters of a kernel that compiled");
	msgs_close(&m, NULL);
	return r;
}

/* A memory stream for the dumps o asks for (NULL when none). */
static FILE *dump_open(CompileOptions *co, char **text, size_t *len)
{
	*text = NULL;
	if (!co->dump && !co->dump_plan)
		return NULL;
	co->dump_out = open_memstream(text, len);
	if (!co->dump_out)
		die("open_memstream: out of memory");
	return co->dump_out;
}

/* The dump text (owned by the caller), or NULL. */
static char *dump_close(FILE *f, char **text)
{
	if (!f)
		return NULL;
	fclose(f); /* sets *text */
	return *text;
}

wavecc_compiled *wavecc_compile_ex(const wavecc_kernel *k, const wavecc_compile_options *o, char **error)
{
	clear_error(error);
	if (!k) {
		set_error(error, "wavecc_compile: no kernel");
		return NULL;
	}
	CompileOptions co;
	if (options_of(k, o, &co, error) != 0)
		return NULL;
	char *dump;
	size_t dump_len;
	FILE *df = dump_open(&co, &dump, &dump_len);
	Msgs m;
	msgs_open(&m);
	Compile c;
	compile_init(&c, k->k, &co, &m.d);
	int rc = compile_run(&c);
	dump = dump_close(df, &dump);
	wavecc_compiled *r = NULL;
	if (rc == 0)
		r = take_result(&c, k, &co, dump);
	else
		free(dump);
	compile_free(&c);
	msgs_finish(&m, r, error);
	return r;
}

wavecc_compiled *wavecc_compile(const wavecc_kernel *k, const wavecc_options *o, char **error)
{
	wavecc_compile_options n = options_new(o);
	return wavecc_compile_ex(k, &n, error);
}

size_t wavecc_compile_many_ex(const wavecc_kernel *const *ks, size_t n, const wavecc_compile_options *o,
	wavecc_compiled **out, char **errors)
{
	Compile *cs = xcalloc(n + 1, sizeof *cs);
	Compile **ps = xcalloc(n + 1, sizeof *ps);
	Msgs *ms = xcalloc(n + 1, sizeof *ms);
	CompileOptions *cos = xcalloc(n + 1, sizeof *cos);
	FILE **dfs = xcalloc(n + 1, sizeof *dfs);
	char **dumps = xcalloc(n + 1, sizeof *dumps);
	size_t *dump_lens = xcalloc(n + 1, sizeof *dump_lens);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		out[i] = NULL;
		if (errors)
			errors[i] = NULL;
		if (!ks[i]) {
			if (errors)
				set_error(&errors[i], "wavecc_compile_many: kernel %zu is NULL", i);
			continue;
		}
		if (options_of(ks[i], o, &cos[i], errors ? &errors[i] : NULL) != 0)
			continue;
		dfs[i] = dump_open(&cos[i], &dumps[i], &dump_lens[i]);
		msgs_open(&ms[i]);
		compile_init(&cs[i], ks[i]->k, &cos[i], &ms[i].d);
		ps[m++] = &cs[i];
	}
	/* the assembly alone needs no llvm-mc run to share */
	if (o && o->assembly_only)
		for (size_t j = 0; j < m; j++)
			compile_run(ps[j]);
	else
		compile_batch(ps, m);
	size_t ok = 0;
	for (size_t i = 0; i < n; i++) {
		if (!cs[i].k) /* NULL, or bad options */
			continue;
		char *dump = dump_close(dfs[i], &dumps[i]);
		bool good = !compile_failed(&cs[i]);
		if (good) {
			out[i] = take_result(&cs[i], ks[i], &cos[i], dump);
			ok++;
		} else
			free(dump);
		msgs_finish(&ms[i], good, errors ? &errors[i] : NULL);
		compile_free(&cs[i]);
	}
	free(cs);
	free(ps);
	free(ms);
	free(cos);
	free(dfs);
	free(dumps);
	free(dump_lens);
	return ok;
}

size_t wavecc_compile_many(const wavecc_kernel *const *ks, size_t n, const wavecc_options *o, wavecc_compiled **out,
	char **errors)
{
	wavecc_compile_options c = options_new(o);
	return wavecc_compile_many_ex(ks, n, &c, out, errors);
}

void wavecc_compiled_free(wavecc_compiled *c)
{
	if (!c)
		return;
	buf_free(&c->asm_text);
	buf_free(&c->code_object);
	buf_free(&c->launch_json);
	free(c->stats);
	free(c->dump);
	for (int i = 0; i < c->nbind; i++)
		free(c->bind[i]);
	arena_free(&c->arena);
	free(c);
}

size_t wavecc_compiled_num_params(const wavecc_compiled *c)
{
	return c ? c->nparams : 0;
}

wavecc_status wavecc_compiled_param(const wavecc_compiled *c, size_t i, wavecc_param_info *info, char **error)
{
	clear_error(error);
	if (!c || !info || i >= c->nparams) {
		set_error(error, "wavecc_compiled_param: no compiled kernel, no info, or parameter %zu of %zu", i,
			c ? c->nparams : 0);
		return WAVECC_EARG;
	}
	return api_param_out(&c->params[i], info, error);
}

static const void *out_bytes(const Buf *b, size_t *len)
{
	if (len)
		*len = b->len;
	return b->data;
}

const char *wavecc_compiled_assembly(const wavecc_compiled *c, size_t *len)
{
	if (!c)
		return NULL;
	if (len)
		*len = c->asm_text.len;
	return c->asm_text.data;
}

const void *wavecc_compiled_code_object(const wavecc_compiled *c, size_t *len)
{
	return c ? out_bytes(&c->code_object, len) : NULL;
}

const char *wavecc_compiled_launch(const wavecc_compiled *c, size_t *len)
{
	return c ? out_bytes(&c->launch_json, len) : NULL;
}

const char *wavecc_compiled_stats(const wavecc_compiled *c)
{
	return c ? c->stats : NULL;
}

const char *wavecc_compiled_dump(const wavecc_compiled *c, size_t *len)
{
	if (len)
		*len = c ? strlen(c->dump) : 0;
	return c ? c->dump : NULL;
}

/* ---- running ---- */

wavecc_status wavecc_run_code_object(const void *code_object, size_t code_len, const char *launch_json,
	size_t launch_len, const char *const *bindings, size_t nbindings, wavecc_backend backend, wavecc_buffer *bufs,
	size_t n, char **error)
{
	clear_error(error);
	if (!code_object || !launch_json || (n && !bufs) || (nbindings && !bindings) ||
		(backend != WAVECC_BACKEND_EMULATOR && backend != WAVECC_BACKEND_HIP)) {
		set_error(error, "wavecc_run: a code object, a launch descriptor, the buffers and a backend are needed");
		return WAVECC_EARG;
	}
	Msgs m;
	msgs_open(&m);
	LaunchDesc ld;
	wavecc_status st = WAVECC_EINPUT;
	HostBuffer *hb = xcalloc(n + 1, sizeof *hb);
	size_t nhb = 0;
	/* the bindings, then the values of the scalar entries (a later
	 * binding of a name wins) */
	const char **defs = xcalloc(nbindings + n + 1, sizeof *defs);
	char **owned = xcalloc(n + 1, sizeof *owned);
	size_t ndefs = 0, nowned = 0;
	for (size_t i = 0; i < nbindings; i++)
		defs[ndefs++] = bindings[i];
	if (launch_parse(launch_json, launch_len, "<launch descriptor>", &ld, &m.d) != 0)
		goto out; /* launch_free releases a descriptor that did not parse too */
	for (size_t i = 0; i < n; i++) {
		if (!bufs[i].name) {
			diag_error(&m.d, (Loc){0}, "buffer %zu has no name", i);
			goto out;
		}
		const LaunchArg *a = launch_arg(&ld, bufs[i].name);
		if (a && a->kind == LARG_SCALAR) {
			char text[512];
			if (!api_value_text(&bufs[i], a->dtype, text, sizeof text)) {
				diag_error(&m.d, a->loc, "scalar '%s' (%s) takes %d bytes of value, the entry has %zu%s",
					a->name, dtype_name(a->dtype), dtype_size(a->dtype), bufs[i].bytes,
					bufs[i].data ? "" : " and no data");
				goto out;
			}
			defs[ndefs++] = owned[nowned++] = xstrdup(text);
			continue;
		}
		hb[nhb++] = (HostBuffer){bufs[i].name, bufs[i].data, bufs[i].bytes};
	}
	if (launch_resolve(&ld, (int)ndefs, defs, &m.d) != 0)
		goto out;
	RunOptions ro = {.backend = backend == WAVECC_BACKEND_HIP ? BACKEND_HIP : BACKEND_EMU};
	Buf msg = {0};
	int r = launch_run_memory(&ld, code_object, code_len, &ro, hb, nhb, &msg);
	if (r != 0) {
		fputs(buf_cstr(&msg), m.f);
		st = r == -2 ? WAVECC_ERUN : WAVECC_EINPUT;
		buf_free(&msg);
		goto out;
	}
	buf_free(&msg);
	st = WAVECC_OK;
out:
	launch_free(&ld);
	free(hb);
	for (size_t i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	free(defs);
	msgs_finish(&m, st == WAVECC_OK, error);
	return st;
}

/* The value c was compiled with for symbol name, or false. */
static bool compiled_binding(const wavecc_compiled *c, const char *name, int64_t *v)
{
	size_t len = strlen(name);
	bool found = false;
	for (int i = 0; i < c->nbind; i++)
		if (strncmp(c->bind[i], name, len) == 0 && c->bind[i][len] == '=') {
			*v = strtoll(c->bind[i] + len + 1, NULL, 10);
			found = true; /* the last one wins */
		}
	return found;
}

wavecc_status wavecc_run(const wavecc_compiled *c, wavecc_backend backend, wavecc_buffer *bufs, size_t n,
	char **error)
{
	clear_error(error);
	if (!c || (n && !bufs)) {
		set_error(error, "wavecc_run: no compiled kernel or no buffers");
		return WAVECC_EARG;
	}
	/* an entry for a symbol the kernel was compiled with a value of: the
	 * same value, or an error; the code object has no parameter for it */
	wavecc_buffer *keep = xcalloc(n + 1, sizeof *keep);
	size_t nkeep = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t bound;
		if (bufs[i].name && !api_param_find(c->params, c->nparams, bufs[i].name) &&
			compiled_binding(c, bufs[i].name, &bound)) {
			int32_t v;
			if (bufs[i].bytes != sizeof v || !bufs[i].data) {
				set_error(error, "wavecc_run: the entry of symbol %s must hold an int32_t (4 bytes), not %zu bytes",
					bufs[i].name, bufs[i].bytes);
				free(keep);
				return WAVECC_EINPUT;
			}
			memcpy(&v, bufs[i].data, sizeof v);
			if (v != bound) {
				set_error(error, "wavecc_run: %s is %lld in the entries, but the kernel was compiled with %s=%lld",
					bufs[i].name, (long long)v, bufs[i].name, (long long)bound);
				free(keep);
				return WAVECC_EINPUT;
			}
			continue;
		}
		keep[nkeep++] = bufs[i];
	}
	wavecc_status st = wavecc_run_code_object(c->code_object.data, c->code_object.len, c->launch_json.data,
		c->launch_json.len, (const char *const *)c->bind, (size_t)c->nbind, backend, keep, nkeep, error);
	free(keep);
	return st;
}

/* ---- the interpreter ---- */

static wavecc_buffer *find_buffer(wavecc_buffer *bufs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (bufs[i].name && strcmp(bufs[i].name, name) == 0)
			return &bufs[i];
	return NULL;
}

/* k's bindings, then the values of the entries that name its dynamic
 * symbols (int32_t each), into names/vals; 0, or -1 with a diagnostic. */
static int interpret_bindings(const wavecc_kernel *k, const wavecc_buffer *bufs, size_t n, const char **names,
	int64_t *vals, int *count, Msgs *m)
{
	int c = 0;
	for (int i = 0; i < k->ndefs; i++) {
		names[c] = k->def_name[i];
		vals[c++] = k->def_val[i];
	}
	for (size_t i = 0; i < n; i++) {
		if (!bufs[i].name) {
			diag_error(&m->d, (Loc){0}, "buffer %zu has no name", i);
			return -1;
		}
		const KSymbol *s = kernel_symbol(k->k, bufs[i].name);
		if (!s || s->kind != SYMK_DYNAMIC)
			continue;
		int32_t v;
		if (bufs[i].bytes != sizeof v || !bufs[i].data) {
			diag_error(&m->d, s->loc, "dynamic symbol %s: its entry must hold an int32_t (4 bytes), not %zu bytes",
				s->name, bufs[i].bytes);
			return -1;
		}
		memcpy(&v, bufs[i].data, sizeof v);
		names[c] = s->name;
		vals[c++] = v;
	}
	*count = c;
	return 0;
}

wavecc_status wavecc_interpret(const wavecc_kernel *k, wavecc_buffer *bufs, size_t n, char **error)
{
	clear_error(error);
	if (!k || (n && !bufs)) {
		set_error(error, "wavecc_interpret: no kernel or no buffers");
		return WAVECC_EARG;
	}
	Msgs m;
	msgs_open(&m);
	int64_t *dyn = xcalloc(k->k->dyn_syms.len + 1, sizeof *dyn);
	const char **names = xcalloc((size_t)k->ndefs + n + 1, sizeof *names);
	int64_t *vals = xcalloc((size_t)k->ndefs + n + 1, sizeof *vals);
	int nb = 0;
	Kernel *v = NULL;
	wavecc_status st = WAVECC_EINPUT;
	Interp in;
	bool have_in = false;
	if (interpret_bindings(k, bufs, n, names, vals, &nb, &m) != 0)
		goto out;
	v = bound_view(k->k, nb, names, vals, dyn, &m);
	if (!v || interp_init(&in, v, dyn, &m.d) != 0)
		goto out;
	have_in = true;
	for (int i = 0; i < in.nargs; i++) {
		InterpArg *a = &in.args[i];
		wavecc_buffer *b = find_buffer(bufs, n, a->name);
		uint64_t bytes = a->count * (uint64_t)dtype_size(a->dtype);
		if (!b || b->bytes != bytes || (bytes && !b->data)) {
			diag_error(&m.d, a->mem->loc, "%s %s needs %s of %llu bytes%s", a->scalar ? "scalar" : "argument",
				a->name, a->scalar ? "a value" : "a buffer", (unsigned long long)bytes,
				b ? "" : " (none was given)");
			goto out;
		}
		memcpy(a->data, b->data, bytes);
	}
	if (interp_run(&in) != 0)
		goto out;
	for (int i = 0; i < in.nargs; i++) {
		InterpArg *a = &in.args[i];
		if (!a->scalar) /* scalar entries are read only */
			memcpy(find_buffer(bufs, n, a->name)->data, a->data, a->count * (uint64_t)dtype_size(a->dtype));
	}
	st = WAVECC_OK;
out:
	if (have_in)
		interp_free(&in);
	kernel_view_free(v);
	free(dyn);
	free(names);
	free(vals);
	msgs_finish(&m, st == WAVECC_OK, error);
	return st;
}

wavecc_status wavecc_fill_random(const wavecc_kernel *k, size_t i, uint64_t seed, void *data, size_t bytes,
	char **error)
{
	wavecc_arg_info info;
	wavecc_status st = wavecc_kernel_arg(k, i, &info, error);
	if (st != WAVECC_OK)
		return st;
	if (!data || bytes != info.bytes) {
		set_error(error, "wavecc_fill_random: argument %s needs %llu bytes, got %zu", info.name,
			(unsigned long long)info.bytes, bytes);
		return WAVECC_EARG;
	}
	const Value *a = k->k->args.data[i];
	InterpArg ia = {.mem = a, .name = a->name, .dtype = a->dtype, .count = info.bytes / info.element_size,
		.data = data};
	interp_fill_random(&ia, seed, (int)i);
	return WAVECC_OK;
}
