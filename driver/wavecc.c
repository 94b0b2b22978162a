/* wavecc.c — the public C library (include/wavecc.h) over the driver, the
 * runtime and the interpreter.
 *
 * Every public function that can fail is one ApiCall (api.h,
 * driver/api_call.c): its messages are collected as data and handed back
 * as text, a die() inside ends the call with WAVECC_EINTERNAL instead of
 * aborting the host, and what it holds is released (api_defer) whatever
 * happens; nothing here prints or exits. The work of each function is a
 * static function called by its public wrapper, which only sets up the
 * call. Objects a die() must not leak live on the heap, deferred.
 *
 * A kernel handle keeps the graph as loaded and the symbol bindings set on
 * it; compile works on a view with the bindings (driver/pipeline.c),
 * interpret and the argument queries on their own view (subst_bind), so
 * the graph a handle holds never changes. Views still add expression nodes
 * to the graph's shared SymCtx, so a call that uses a handle holds its
 * lock (api_lock_all); compiled kernels never change after they are made
 * and need none. */
#include <errno.h>
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

/* Start public call `name`; on an internal error return `fail`. */
#define API_BEGIN(call, name, error, fail) \
	ApiCall *call = api_begin(name, error); \
	if (setjmp(call->dc.jb) != 0) \
		return api_internal(call), fail

const char *wavecc_version(void)
{
	return WAVECC_VERSION_STRING;
}

/* Lock one handle for the call. */
static void lock_one(ApiCall *call, const wavecc_kernel *k)
{
	wavecc_kernel *ks[1] = {(wavecc_kernel *)k};
	api_lock_all(call, ks, 1);
}

/* ---- diagnostics ---- */

size_t wavecc_last_diagnostic_count(void)
{
	return api_last()->v.len;
}

wavecc_status wavecc_last_diagnostic(size_t i, wavecc_diagnostic *d)
{
	return api_diag_out(api_last(), i, d);
}

/* ---- kernels ---- */

/* A handle for k, loaded from text (copied: the compile cache's key). */
static wavecc_kernel *wrap_kernel(Kernel *k, const char *text, size_t len)
{
	if (!k)
		return NULL;
	wavecc_kernel *h = xcalloc(1, sizeof *h);
	h->k = k;
	h->source = xmalloc(len + 1);
	memcpy(h->source, text, len);
	h->source[len] = 0;
	h->source_len = len;
	arena_init(&h->params_arena);
	pthread_mutex_init(&h->lock, NULL);
	return h;
}

wavecc_kernel *wavecc_kernel_parse(const char *json, size_t len, const char *name, char **error)
{
	API_BEGIN(call, "wavecc_kernel_parse", error, NULL);
	if (!json) {
		api_error(call, "wavecc_kernel_parse: no text");
		api_end(call, WAVECC_EARG);
		return NULL;
	}
	/* names live as long as the process (interned): locations point at them */
	wavecc_kernel *h = wrap_kernel(load_kernel_text(json, len, intern(name ? name : "<memory>"), &call->d), json, len);
	api_end(call, h ? WAVECC_OK : WAVECC_EINPUT);
	return h;
}

wavecc_kernel *wavecc_kernel_load(const char *path, char **error)
{
	API_BEGIN(call, "wavecc_kernel_load", error, NULL);
	if (!path) {
		api_error(call, "wavecc_kernel_load: no path");
		api_end(call, WAVECC_EARG);
		return NULL;
	}
	size_t len;
	char *text = read_file(path, &len);
	if (!text) {
		diag_error(&call->d, (Loc){intern(path), 0, 0}, "cannot read: %s", file_strerror(errno));
		api_end(call, WAVECC_EINPUT);
		return NULL;
	}
	api_defer(call, free, text);
	wavecc_kernel *h = wrap_kernel(load_kernel_text(text, len, intern(path), &call->d), text, len);
	api_end(call, h ? WAVECC_OK : WAVECC_EINPUT);
	return h;
}

void wavecc_kernel_free(wavecc_kernel *k)
{
	if (!k)
		return;
	for (int i = 0; i < k->ndefs; i++)
		free(k->def_text[i]);
	arena_free(&k->params_arena);
	kernel_free(k->k);
	free(k->source);
	pthread_mutex_destroy(&k->lock);
	free(k);
}

const char *wavecc_kernel_name(const wavecc_kernel *k)
{
	return k ? k->k->name : NULL;
}

static wavecc_status set_symbol(ApiCall *call, wavecc_kernel *k, const char *name, int64_t value)
{
	if (!k || !name) {
		api_error(call, "wavecc_kernel_set_symbol: no kernel or no name");
		return WAVECC_EARG;
	}
	lock_one(call, k);
	call->sink.k = k->k;
	const KSymbol *s = kernel_symbol(k->k, name);
	if (!s) {
		api_error(call, "kernel %s has no symbol %s", k->k->name, name);
		return WAVECC_EARG;
	}
	if (s->kind != SYMK_DYNAMIC && s->kind != SYMK_VALUE) {
		diag_error(&call->d, s->loc, "%s: only dynamic symbols and symbol values can be set", s->name);
		return WAVECC_EINPUT;
	}
	const char *n = intern(name);
	int i = 0;
	while (i < k->ndefs && k->def_name[i] != n)
		i++;
	if (i == MAX_DEFS) {
		api_error(call, "at most %d symbols can be set", MAX_DEFS);
		return WAVECC_EARG;
	}
	char text[512];
	snprintf(text, sizeof text, "%s=%lld", n, (long long)value);
	char *t = xstrdup(text);
	if (i == k->ndefs)
		k->ndefs++;
	else
		free(k->def_text[i]);
	k->def_name[i] = n;
	k->def_val[i] = value;
	k->def_text[i] = t;
	k->params_valid = false;
	return WAVECC_OK;
}

wavecc_status wavecc_kernel_set_symbol(wavecc_kernel *k, const char *name, int64_t value, char **error)
{
	API_BEGIN(call, "wavecc_kernel_set_symbol", error, WAVECC_EINTERNAL);
	return api_end(call, set_symbol(call, k, name, value));
}

/* g's graph with the bindings (a view: kernel_view_free), and the values
 * of its dynamic symbols in dyn (g->dyn_syms order; may be NULL). NULL
 * with diagnostics when a binding is bad or a dynamic symbol has no
 * value. */
static Kernel *bound_view(const Kernel *g, int ndefs, const char *const *names, const int64_t *vals, int64_t *dyn,
	Diag *d)
{
	const char *missing = subst_dynamic_values(g, ndefs, names, vals, dyn);
	if (missing) {
		diag_hint(d, "bind it: wavecc_kernel_set_symbol(k, \"%s\", VALUE), or an int32_t entry named %s", missing,
			missing);
		diag_error(d, (Loc){g->file, 0, 0}, "dynamic symbol %s of kernel %s needs a value (wavecc_kernel_set_symbol)",
			missing, g->name);
		return NULL;
	}
	return subst_bound_view(g, ndefs, names, vals, d);
}

static void view_release(void *v)
{
	kernel_view_free(v);
}

size_t wavecc_kernel_num_args(const wavecc_kernel *k)
{
	return k ? k->k->args.len : 0;
}

static wavecc_status kernel_arg(ApiCall *call, const wavecc_kernel *k, size_t i, wavecc_arg_info *info)
{
	if (!k || !info || i >= k->k->args.len) {
		api_error(call, "wavecc_kernel_arg: no kernel, no info, or argument %zu of %zu", i, k ? k->k->args.len : 0);
		return WAVECC_EARG;
	}
	lock_one(call, k);
	call->sink.k = k->k;
	Kernel *v = bound_view(k->k, k->ndefs, k->def_name, k->def_val, NULL, &call->d);
	if (!v)
		return WAVECC_EINPUT;
	api_defer(call, view_release, v);
	const Value *a = v->args.data[i];
	*info = (wavecc_arg_info){.name = a->name, .dtype = dtype_name(a->dtype),
		.element_size = (size_t)dtype_size(a->dtype), .rank = a->shape.rank};
	uint64_t count = 1;
	for (int d = 0; d < a->shape.rank && d < 8; d++) {
		Sym *e = kernel_subs(v, a->shape.dims[d]);
		int64_t x;
		if (!sym_is_int(e, &x) || x < 0) {
			diag_error(&call->d, a->loc, "argument %s: dimension %d is %s, not a size (bind its symbols)", a->name,
				d, sym_str(v->sc, e));
			return WAVECC_EINPUT;
		}
		info->shape[d] = x;
		count = x && count > UINT64_MAX / (uint64_t)x ? UINT64_MAX : count * (uint64_t)x;
	}
	if (a->shape.rank > 8) {
		diag_error(&call->d, a->loc, "argument %s has rank %d; the API describes up to 8", a->name, a->shape.rank);
		return WAVECC_EINPUT;
	}
	info->bytes = count == UINT64_MAX ? UINT64_MAX : count * info->element_size;
	for (size_t j = 0; j < v->op_list.len; j++) {
		const Op *op = v->op_list.data[j];
		/* the atomics and scatter_add read what they combine with */
		info->reads |= op_memory(op) == a && op->kind != OP_WRITE;
		info->writes |= op_memory(op) == a && op_stores(op->kind);
	}
	return WAVECC_OK;
}

wavecc_status wavecc_kernel_arg(const wavecc_kernel *k, size_t i, wavecc_arg_info *info, char **error)
{
	API_BEGIN(call, "wavecc_kernel_arg", error, WAVECC_EINTERNAL);
	return api_end(call, kernel_arg(call, k, i, info));
}

/* k's parameters under its bindings, described once per binding state;
 * -1 after reporting a binding the graph rejects. The cache is the
 * handle's own state, not the graph's: a const handle fills it too (under
 * its lock). */
static int kernel_params(ApiCall *call, const wavecc_kernel *ck)
{
	wavecc_kernel *k = (wavecc_kernel *)ck;
	lock_one(call, k);
	call->sink.k = k->k;
	if (k->params_valid)
		return 0;
	arena_free(&k->params_arena);
	arena_init(&k->params_arena);
	k->params = NULL;
	k->nparams = 0;
	if (api_params(k->k, k->ndefs, k->def_name, k->def_val, &k->params_arena, &k->params, &k->nparams, &call->d) !=
		0)
		return -1;
	k->params_valid = true;
	return 0;
}

size_t wavecc_kernel_num_params(const wavecc_kernel *k)
{
	if (!k)
		return 0;
	API_BEGIN(call, "wavecc_kernel_num_params", NULL, 0);
	call->quiet = true; /* no `error`: the thread's list stays */
	size_t n = kernel_params(call, k) == 0 ? k->nparams : 0;
	api_end(call, WAVECC_OK);
	return n;
}

static wavecc_status kernel_param(ApiCall *call, const wavecc_kernel *k, size_t i, wavecc_param_info *info)
{
	if (!k || !info) {
		api_error(call, "wavecc_kernel_param: no kernel or no info");
		return WAVECC_EARG;
	}
	if (kernel_params(call, k) != 0)
		return WAVECC_EINPUT;
	if (i >= k->nparams) {
		api_error(call, "wavecc_kernel_param: parameter %zu of %zu", i, k->nparams);
		return WAVECC_EARG;
	}
	char *msg = NULL;
	wavecc_status st = api_param_out(&k->params[i], info, &msg);
	if (msg)
		api_error(call, "%s", msg);
	free(msg);
	return st;
}

wavecc_status wavecc_kernel_param(const wavecc_kernel *k, size_t i, wavecc_param_info *info, char **error)
{
	API_BEGIN(call, "wavecc_kernel_param", error, WAVECC_EINTERNAL);
	return api_end(call, kernel_param(call, k, i, info));
}

/* ---- compiling ---- */

/* The first version's size: the struct as 0.3 declared it. */
#define COMPILE_OPTIONS_SIZE_0_3 (offsetof(wavecc_compile_options, cache_dir) + sizeof(const char *))

/* o checked and read into co, over k's bindings: 0, or -1 after reporting
 * (bad options are a bad argument). The defines go after the handle's
 * bindings, so they win. */
static int options_of(ApiCall *call, const wavecc_kernel *k, const wavecc_compile_options *o, CompileOptions *co)
{
	static const wavecc_compile_options none = {.struct_size = sizeof none};
	if (!o)
		o = &none;
	if (o->struct_size < COMPILE_OPTIONS_SIZE_0_3) {
		api_error(call, "wavecc_compile_options.struct_size is %zu: set it to sizeof(wavecc_compile_options)",
			o->struct_size);
		return -1;
	}
	for (size_t b = sizeof *o; b < o->struct_size; b++)
		if (((const unsigned char *)o)[b]) {
			api_error(call, "wavecc_compile_options: byte %zu is set, a field this library (%s) does not have", b,
				WAVECC_VERSION_STRING);
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
		api_error(call, "wavecc_compile_options: %zu defines and no array", o->ndefines);
		return -1;
	}
	for (size_t i = 0; i < o->ndefines; i++) {
		if (!o->defines[i].name) {
			api_error(call, "wavecc_compile_options: define %zu has no name", i);
			return -1;
		}
		if (co->ndefs == MAX_DEFS) {
			api_error(call, "wavecc_compile_options: at most %d symbols bound in all", MAX_DEFS);
			return -1;
		}
		co->def_name[co->ndefs] = intern(o->defines[i].name);
		co->def_val[co->ndefs++] = o->defines[i].value;
	}
	if (o->schedule) {
		co->schedule = kernel_schedule_from_name(o->schedule);
		if (!co->schedule) {
			api_error(call, "wavecc_compile_options.schedule %s: expected " SCHEDULE_NAMES, o->schedule);
			return -1;
		}
	}
	if (o->lds_stages < 0 || o->lds_stages > 2 || o->waves_per_eu < 0 || o->waves_per_eu > 8) {
		api_error(call, "wavecc_compile_options: lds_stages %d / waves_per_eu %d: lds_stages is 1 or 2, "
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
			api_error(call, "wavecc_compile_options.denorm_fp_math_f32 %s: expected ieee, dynamic, "
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

/* One kernel being compiled: the Compile, its options, its dump stream
 * and its messages (data, with the kernel's paths). */
typedef struct Job {
	const wavecc_kernel *k;
	CompileOptions co;
	Compile c;
	bool started; /* compile_init ran */
	FILE *dump_f;
	char *dump;
	size_t dump_len;
	Diag d;
	ApiDiags diags;
	ApiSink sink;
	const char *cache_dir; /* NULL: no cache (or dumps asked for) */
	Buf key;
} Job;

static void job_release(Job *j)
{
	if (j->started)
		compile_free(&j->c);
	if (j->dump_f)
		fclose(j->dump_f);
	free(j->dump);
	api_diags_free(&j->diags);
	buf_free(&j->key);
}

/* The bindings r was compiled with and the parameters they give. */
static void set_params(wavecc_compiled *r, const Job *j)
{
	const CompileOptions *co = &j->co;
	r->nbind = co->ndefs;
	for (int i = 0; i < co->ndefs; i++) {
		char text[512];
		snprintf(text, sizeof text, "%s=%lld", co->def_name[i], (long long)co->def_val[i]);
		r->bind[i] = xstrdup(text);
	}
	/* the bindings compiled, so they are good */
	Diag quiet = j->d;
	quiet.sink = NULL;
	if (api_params(j->k->k, co->ndefs, co->def_name, co->def_val, &r->arena, &r->params, &r->nparams, &quiet) != 0)
		die("the parameters of a kernel that compiled");
}

/* Read job j's options for k under o; false after reporting bad options. */
static bool job_prepare(ApiCall *call, Job *j, const wavecc_kernel *k, const wavecc_compile_options *o)
{
	j->k = k;
	j->sink = (ApiSink){&j->diags, k->k};
	api_diag_to(call, &j->d, &j->sink);
	if (options_of(call, k, o, &j->co) != 0)
		return false;
	if (!j->co.dump && !j->co.dump_plan && (j->cache_dir = api_cache_dir(o)))
		api_cache_key(&j->key, k, &j->co);
	return true;
}

/* The cached result of a prepared job, or NULL. */
static wavecc_compiled *job_cached(Job *j)
{
	wavecc_compiled *r = j->cache_dir ? api_cache_load(j->cache_dir, &j->key) : NULL;
	if (r) {
		set_params(r, j);
		api_diags_copy(&j->diags, &r->diags); /* the warnings, again */
	}
	return r;
}

/* Start the pipeline of a prepared job. */
static void job_start(Job *j)
{
	if (j->co.dump || j->co.dump_plan) {
		j->dump_f = open_memstream(&j->dump, &j->dump_len);
		if (!j->dump_f)
			die("open_memstream: out of memory");
		j->co.dump_out = j->dump_f;
	}
	compile_init(&j->c, j->k->k, &j->co, &j->d);
	j->started = true;
}

/* The result of job j run to the end (or to its assembly). */
static wavecc_compiled *take_result(Job *j)
{
	Compile *c = &j->c;
	const CompileOptions *co = &j->co;
	wavecc_compiled *r = xcalloc(1, sizeof *r);
	arena_init(&r->arena);
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
	if (j->dump_f) {
		fclose(j->dump_f); /* sets j->dump */
		j->dump_f = NULL;
	}
	r->dump = j->dump ? j->dump : xstrdup("");
	j->dump = NULL;
	r->asm_text = c->asm_text;
	r->code_object = c->code_object;
	r->launch_json = c->launch_json;
	c->asm_text = c->code_object = c->launch_json = (Buf){0};
	/* llvm-mc's own warnings on a success are the compile's too */
	if (c->tool_msg.len)
		diag_warning(&j->d, (Loc){j->k->k->file, 0, 0}, "llvm-mc: %s", buf_cstr(&c->tool_msg));
	api_diags_copy(&r->diags, &j->diags);
	set_params(r, j);
	/* a store that fails costs the next compile a miss, nothing more */
	if (j->cache_dir)
		api_cache_store(j->cache_dir, &j->key, r);
	return r;
}

/* A Job on the heap, released at the end of the call. */
static void job_free(void *p)
{
	job_release(p);
	free(p);
}

static wavecc_compiled *compile_ex(ApiCall *call, const wavecc_kernel *k, const wavecc_compile_options *o)
{
	if (!k) {
		api_error(call, "wavecc_compile: no kernel");
		return NULL;
	}
	lock_one(call, k);
	call->sink.k = k->k;
	Job *j = xcalloc(1, sizeof *j);
	api_defer(call, job_free, j);
	wavecc_compiled *r = NULL;
	if (job_prepare(call, j, k, o) && !(r = job_cached(j))) {
		job_start(j);
		if (compile_run(&j->c) == 0)
			r = take_result(j);
	}
	api_diags_append(call, &j->diags);
	return r;
}

wavecc_compiled *wavecc_compile_ex(const wavecc_kernel *k, const wavecc_compile_options *o, char **error)
{
	API_BEGIN(call, "wavecc_compile", error, NULL);
	wavecc_compiled *r = compile_ex(call, k, o);
	api_end(call, r ? WAVECC_OK : WAVECC_EINPUT);
	return r;
}

wavecc_compiled *wavecc_compile(const wavecc_kernel *k, const wavecc_options *o, char **error)
{
	wavecc_compile_options n = options_new(o);
	return wavecc_compile_ex(k, &n, error);
}

/* The jobs of one compile_many call. */
typedef struct Batch {
	size_t n;
	Job *jobs;
	Compile **ps;
} Batch;

static void batch_free(void *p)
{
	Batch *b = p;
	for (size_t i = 0; i < b->n; i++)
		job_release(&b->jobs[i]);
	free(b->jobs);
	free(b->ps);
	free(b);
}

static size_t compile_many_ex(ApiCall *call, const wavecc_kernel *const *ks, size_t n,
	const wavecc_compile_options *o, wavecc_compiled **out, char **errors)
{
	Batch *b = xcalloc(1, sizeof *b);
	b->n = n;
	b->jobs = xcalloc(n + 1, sizeof *b->jobs);
	b->ps = xcalloc(n + 1, sizeof *b->ps);
	api_defer(call, batch_free, b);
	api_lock_all(call, (wavecc_kernel *const *)ks, n);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		Job *j = &b->jobs[i];
		if (!ks[i]) {
			api_error(call, "wavecc_compile_many: kernel %zu is NULL", i);
			if (errors)
				errors[i] = xstrdup(call->diags.v.data[call->diags.v.len - 1].text);
			continue;
		}
		size_t before = call->diags.v.len;
		if (!job_prepare(call, j, ks[i], o)) {
			/* the options' message, for this kernel */
			if (errors) {
				ApiDiags one = {.v = {call->diags.v.data + before, call->diags.v.len - before, 0}};
				errors[i] = api_diags_text(&one);
			}
			continue;
		}
		if ((out[i] = job_cached(j))) {
			api_diags_append(call, &j->diags);
			continue;
		}
		job_start(j);
		b->ps[m++] = &j->c;
	}
	/* the assembly alone needs no llvm-mc run to share */
	if (o && o->struct_size >= COMPILE_OPTIONS_SIZE_0_3 && o->assembly_only)
		for (size_t i = 0; i < m; i++)
			compile_run(b->ps[i]);
	else
		compile_batch(b->ps, m);
	size_t ok = 0;
	for (size_t i = 0; i < n; i++) {
		Job *j = &b->jobs[i];
		ok += out[i] && !j->started; /* from the cache */
		if (!j->started)
			continue;
		bool good = !compile_failed(&j->c);
		if (good) {
			out[i] = take_result(j);
			ok++;
		} else if (errors) {
			errors[i] = api_diags_text(&j->diags);
		}
		api_diags_append(call, &j->diags);
	}
	return ok;
}

size_t wavecc_compile_many_ex(const wavecc_kernel *const *ks, size_t n, const wavecc_compile_options *o,
	wavecc_compiled **out, char **errors)
{
	for (size_t i = 0; i < n; i++) {
		out[i] = NULL;
		if (errors)
			errors[i] = NULL;
	}
	ApiCall *call = api_begin("wavecc_compile_many", NULL);
	if (setjmp(call->dc.jb) != 0) {
		/* nothing half made: every result and message goes, one message
		 * (the internal error) for each kernel */
		api_internal(call);
		const ApiDiags *last = api_last();
		const char *text = last->v.len ? last->v.data[last->v.len - 1].text : "wavecc: internal error";
		for (size_t i = 0; i < n; i++) {
			wavecc_compiled_free(out[i]);
			out[i] = NULL;
			if (errors) {
				free(errors[i]);
				Buf t = {0};
				buf_printf(&t, "%s\n", text);
				errors[i] = xstrdup(buf_cstr(&t));
				buf_free(&t);
			}
		}
		return 0;
	}
	size_t ok = compile_many_ex(call, ks, n, o, out, errors);
	api_end(call, ok == n ? WAVECC_OK : WAVECC_EINPUT);
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
	api_diags_free(&c->diags);
	free(c);
}

size_t wavecc_compiled_num_params(const wavecc_compiled *c)
{
	return c ? c->nparams : 0;
}

wavecc_status wavecc_compiled_param(const wavecc_compiled *c, size_t i, wavecc_param_info *info, char **error)
{
	API_BEGIN(call, "wavecc_compiled_param", error, WAVECC_EINTERNAL);
	if (!c || !info || i >= c->nparams) {
		api_error(call, "wavecc_compiled_param: no compiled kernel, no info, or parameter %zu of %zu", i,
			c ? c->nparams : 0);
		return api_end(call, WAVECC_EARG);
	}
	char *msg = NULL;
	wavecc_status st = api_param_out(&c->params[i], info, &msg);
	if (msg)
		api_error(call, "%s", msg);
	free(msg);
	return api_end(call, st);
}

size_t wavecc_compiled_num_diagnostics(const wavecc_compiled *c)
{
	return c ? c->diags.v.len : 0;
}

wavecc_status wavecc_compiled_diagnostic(const wavecc_compiled *c, size_t i, wavecc_diagnostic *d)
{
	return c ? api_diag_out(&c->diags, i, d) : WAVECC_EARG;
}

static const void *out_bytes(const Buf *b, size_t *len)
{
	if (len)
		*len = b->len;
	return b->data;
}

const char *wavecc_compiled_assembly(const wavecc_compiled *c, size_t *len)
{
	return c ? out_bytes(&c->asm_text, len) : NULL;
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

/* ---- launch geometry ---- */

static bool compiled_binding(const wavecc_compiled *c, const char *name, int64_t *v);

wavecc_status wavecc_launch_evaluate(const void *code_object, size_t code_len, const char *launch_json,
	size_t launch_len, const wavecc_define *values, size_t n, wavecc_launch_info *info, char **error)
{
	API_BEGIN(call, "wavecc_launch_evaluate", error, WAVECC_EINTERNAL);
	return api_end(call, api_launch_evaluate(call, code_object, code_len, launch_json, launch_len, NULL, 0, values,
				     n, info));
}

wavecc_status wavecc_compiled_launch_evaluate(const wavecc_compiled *c, const wavecc_define *values, size_t n,
	wavecc_launch_info *info, char **error)
{
	API_BEGIN(call, "wavecc_compiled_launch_evaluate", error, WAVECC_EINTERNAL);
	if (!c) {
		api_error(call, "wavecc_compiled_launch_evaluate: no compiled kernel");
		return api_end(call, WAVECC_EARG);
	}
	/* a value of a symbol c was compiled with a binding for must agree */
	for (size_t i = 0; i < n && values; i++) {
		int64_t bound;
		if (values[i].name && compiled_binding(c, values[i].name, &bound) && bound != values[i].value) {
			api_error(call, "wavecc_compiled_launch_evaluate: %s is %lld in the values, but the kernel was compiled "
					"with %s=%lld",
				values[i].name, (long long)values[i].value, values[i].name, (long long)bound);
			return api_end(call, WAVECC_EINPUT);
		}
	}
	/* the code object, when there is one (not with assembly_only: the
	 * descriptor's static LDS then) */
	return api_end(call, api_launch_evaluate(call, c->code_object.len ? c->code_object.data : NULL,
				     c->code_object.len, c->launch_json.data, c->launch_json.len,
				     (const char *const *)c->bind, (size_t)c->nbind, values, n, info));
}

/* ---- running ---- */

/* What a run holds until the call ends. */
typedef struct RunState {
	LaunchDesc ld;
	bool have_ld;
	HostBuffer *hb;
	const char **defs;
	char **owned;
	size_t nowned;
	Buf msg;
} RunState;

static void run_free(void *p)
{
	RunState *r = p;
	if (r->have_ld)
		launch_free(&r->ld);
	free(r->hb);
	for (size_t i = 0; i < r->nowned; i++)
		free(r->owned[i]);
	free(r->owned);
	free(r->defs);
	buf_free(&r->msg);
	free(r);
}

static wavecc_status run_code_object(ApiCall *call, const void *code_object, size_t code_len, const char *launch_json,
	size_t launch_len, const char *const *bindings, size_t nbindings, wavecc_backend backend, wavecc_buffer *bufs,
	size_t n)
{
	if (!code_object || !launch_json || (n && !bufs) || (nbindings && !bindings) ||
		(backend != WAVECC_BACKEND_EMULATOR && backend != WAVECC_BACKEND_HIP)) {
		api_error(call, "wavecc_run: a code object, a launch descriptor, the buffers and a backend are needed");
		return WAVECC_EARG;
	}
	RunState *r = xcalloc(1, sizeof *r);
	api_defer(call, run_free, r);
	r->hb = xcalloc(n + 1, sizeof *r->hb);
	size_t nhb = 0;
	/* the bindings, then the values of the scalar entries (a later
	 * binding of a name wins) */
	r->defs = xcalloc(nbindings + n + 1, sizeof *r->defs);
	r->owned = xcalloc(n + 1, sizeof *r->owned);
	size_t ndefs = 0;
	for (size_t i = 0; i < nbindings; i++)
		r->defs[ndefs++] = bindings[i];
	r->have_ld = true; /* launch_free releases a descriptor that did not parse too */
	if (launch_parse(launch_json, launch_len, "<launch descriptor>", &r->ld, &call->d) != 0)
		return WAVECC_EINPUT;
	for (size_t i = 0; i < n; i++) {
		if (!bufs[i].name) {
			api_error(call, "buffer %zu has no name", i);
			return WAVECC_EINPUT;
		}
		const LaunchArg *a = launch_arg(&r->ld, bufs[i].name);
		if (a && a->kind == LARG_SCALAR) {
			char text[512];
			if (!api_value_text(&bufs[i], a->dtype, text, sizeof text)) {
				diag_error(&call->d, a->loc, "scalar '%s' (%s) takes %d bytes of value, the entry has %zu%s",
					a->name, dtype_name(a->dtype), dtype_size(a->dtype), bufs[i].bytes,
					bufs[i].data ? "" : " and no data");
				return WAVECC_EINPUT;
			}
			r->defs[ndefs++] = r->owned[r->nowned++] = xstrdup(text);
			continue;
		}
		r->hb[nhb++] = (HostBuffer){bufs[i].name, bufs[i].data, bufs[i].bytes};
	}
	if (launch_resolve(&r->ld, (int)ndefs, r->defs, &call->d) != 0)
		return WAVECC_EINPUT;
	RunOptions ro = {.backend = backend == WAVECC_BACKEND_HIP ? BACKEND_HIP : BACKEND_EMU};
	int rc = launch_run_memory(&r->ld, code_object, code_len, &ro, r->hb, nhb, &r->msg);
	if (rc != 0) {
		api_text(call, buf_cstr(&r->msg));
		return rc == -2 ? WAVECC_ERUN : WAVECC_EINPUT;
	}
	return WAVECC_OK;
}

wavecc_status wavecc_run_code_object(const void *code_object, size_t code_len, const char *launch_json,
	size_t launch_len, const char *const *bindings, size_t nbindings, wavecc_backend backend, wavecc_buffer *bufs,
	size_t n, char **error)
{
	API_BEGIN(call, "wavecc_run_code_object", error, WAVECC_EINTERNAL);
	return api_end(call, run_code_object(call, code_object, code_len, launch_json, launch_len, bindings, nbindings,
				     backend, bufs, n));
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

static wavecc_status run_compiled(ApiCall *call, const wavecc_compiled *c, wavecc_backend backend, wavecc_buffer *bufs,
	size_t n)
{
	if (!c || (n && !bufs)) {
		api_error(call, "wavecc_run: no compiled kernel or no buffers");
		return WAVECC_EARG;
	}
	if (!c->code_object.len) {
		api_error(call, "wavecc_run: the kernel was compiled to its assembly only (assembly_only)");
		return WAVECC_EARG;
	}
	/* an entry for a symbol the kernel was compiled with a value of: the
	 * same value, or an error; the code object has no parameter for it */
	wavecc_buffer *keep = xcalloc(n + 1, sizeof *keep);
	api_defer(call, free, keep);
	size_t nkeep = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t bound;
		if (bufs[i].name && !api_param_find(c->params, c->nparams, bufs[i].name) &&
			compiled_binding(c, bufs[i].name, &bound)) {
			int32_t v;
			if (bufs[i].bytes != sizeof v || !bufs[i].data) {
				api_error(call, "wavecc_run: the entry of symbol %s must hold an int32_t (4 bytes), not %zu bytes",
					bufs[i].name, bufs[i].bytes);
				return WAVECC_EINPUT;
			}
			memcpy(&v, bufs[i].data, sizeof v);
			if (v != bound) {
				api_error(call, "wavecc_run: %s is %lld in the entries, but the kernel was compiled with %s=%lld",
					bufs[i].name, (long long)v, bufs[i].name, (long long)bound);
				return WAVECC_EINPUT;
			}
			continue;
		}
		keep[nkeep++] = bufs[i];
	}
	return run_code_object(call, c->code_object.data, c->code_object.len, c->launch_json.data, c->launch_json.len,
		(const char *const *)c->bind, (size_t)c->nbind, backend, keep, nkeep);
}

wavecc_status wavecc_run(const wavecc_compiled *c, wavecc_backend backend, wavecc_buffer *bufs, size_t n,
	char **error)
{
	API_BEGIN(call, "wavecc_run", error, WAVECC_EINTERNAL);
	return api_end(call, run_compiled(call, c, backend, bufs, n));
}

/* ---- the interpreter ---- */

static wavecc_buffer *find_buffer(wavecc_buffer *bufs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (bufs[i].name && strcmp(bufs[i].name, name) == 0)
			return &bufs[i];
	return NULL;
}

/* What an interpretation holds until the call ends. */
typedef struct InterpState {
	Interp in;
	bool have_in;
	Kernel *v;
	int64_t *dyn;
	const char **names;
	int64_t *vals;
} InterpState;

static void interp_state_free(void *p)
{
	InterpState *s = p;
	if (s->have_in)
		interp_free(&s->in);
	kernel_view_free(s->v);
	free(s->dyn);
	free(s->names);
	free(s->vals);
	free(s);
}

/* k's bindings, then the values of the entries that name its dynamic
 * symbols (int32_t each), into names/vals; 0, or -1 after reporting. */
static int interpret_bindings(ApiCall *call, const wavecc_kernel *k, const wavecc_buffer *bufs, size_t n,
	const char **names, int64_t *vals, int *count)
{
	int c = 0;
	for (int i = 0; i < k->ndefs; i++) {
		names[c] = k->def_name[i];
		vals[c++] = k->def_val[i];
	}
	for (size_t i = 0; i < n; i++) {
		if (!bufs[i].name) {
			api_error(call, "buffer %zu has no name", i);
			return -1;
		}
		const KSymbol *s = kernel_symbol(k->k, bufs[i].name);
		if (!s || s->kind != SYMK_DYNAMIC)
			continue;
		int32_t v;
		if (bufs[i].bytes != sizeof v || !bufs[i].data) {
			diag_error(&call->d, s->loc, "dynamic symbol %s: its entry must hold an int32_t (4 bytes), not %zu bytes",
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

static wavecc_status interpret(ApiCall *call, const wavecc_kernel *k, wavecc_buffer *bufs, size_t n)
{
	if (!k || (n && !bufs)) {
		api_error(call, "wavecc_interpret: no kernel or no buffers");
		return WAVECC_EARG;
	}
	lock_one(call, k);
	call->sink.k = k->k;
	InterpState *s = xcalloc(1, sizeof *s);
	api_defer(call, interp_state_free, s);
	s->dyn = xcalloc(k->k->dyn_syms.len + 1, sizeof *s->dyn);
	s->names = xcalloc((size_t)k->ndefs + n + 1, sizeof *s->names);
	s->vals = xcalloc((size_t)k->ndefs + n + 1, sizeof *s->vals);
	int nb = 0;
	if (interpret_bindings(call, k, bufs, n, s->names, s->vals, &nb) != 0)
		return WAVECC_EINPUT;
	s->v = bound_view(k->k, nb, s->names, s->vals, s->dyn, &call->d);
	if (!s->v)
		return WAVECC_EINPUT;
	s->have_in = true; /* interp_free releases a failed init too */
	if (interp_init(&s->in, s->v, s->dyn, &call->d) != 0)
		return WAVECC_EINPUT;
	Interp *in = &s->in;
	for (int i = 0; i < in->nargs; i++) {
		InterpArg *a = &in->args[i];
		wavecc_buffer *b = find_buffer(bufs, n, a->name);
		uint64_t bytes = a->count * (uint64_t)dtype_size(a->dtype);
		if (!b || b->bytes != bytes || (bytes && !b->data)) {
			diag_error(&call->d, a->mem->loc, "%s %s needs %s of %llu bytes%s", a->scalar ? "scalar" : "argument",
				a->name, a->scalar ? "a value" : "a buffer", (unsigned long long)bytes,
				b ? "" : " (none was given)");
			return WAVECC_EINPUT;
		}
		memcpy(a->data, b->data, bytes);
	}
	if (interp_run(in) != 0)
		return WAVECC_EINPUT;
	for (int i = 0; i < in->nargs; i++) {
		InterpArg *a = &in->args[i];
		if (!a->scalar) /* scalar entries are read only */
			memcpy(find_buffer(bufs, n, a->name)->data, a->data, a->count * (uint64_t)dtype_size(a->dtype));
	}
	return WAVECC_OK;
}

wavecc_status wavecc_interpret(const wavecc_kernel *k, wavecc_buffer *bufs, size_t n, char **error)
{
	API_BEGIN(call, "wavecc_interpret", error, WAVECC_EINTERNAL);
	return api_end(call, interpret(call, k, bufs, n));
}

static wavecc_status fill_random(ApiCall *call, const wavecc_kernel *k, size_t i, uint64_t seed, void *data,
	size_t bytes)
{
	wavecc_arg_info info;
	wavecc_status st = kernel_arg(call, k, i, &info);
	if (st != WAVECC_OK)
		return st;
	if (!data || bytes != info.bytes) {
		api_error(call, "wavecc_fill_random: argument %s needs %llu bytes, got %zu", info.name,
			(unsigned long long)info.bytes, bytes);
		return WAVECC_EARG;
	}
	const Value *a = k->k->args.data[i];
	InterpArg ia = {.mem = a, .name = a->name, .dtype = a->dtype, .count = info.bytes / info.element_size,
		.data = data};
	interp_fill_random(&ia, seed, (int)i);
	return WAVECC_OK;
}

wavecc_status wavecc_fill_random(const wavecc_kernel *k, size_t i, uint64_t seed, void *data, size_t bytes,
	char **error)
{
	API_BEGIN(call, "wavecc_fill_random", error, WAVECC_EINTERNAL);
	return api_end(call, fill_random(call, k, i, seed, data, bytes));
}
