/* launch.c — parse and resolve launch descriptors (contract in launch.h,
 * format in docs/launch-format.md).
 *
 * The document is read through util/json.h, the reader kernel graphs use
 * too: syntax errors with line and column, duplicate keys rejected, and
 * each semantic message carrying FILE:LINE:COL and the JSON path of the
 * offending value. Parsing checks
 * types, ranges and the kernarg layout (each argument inside kernarg_size,
 * naturally aligned, no two overlapping); expressions are parsed here and
 * evaluated in launch_resolve once the -D bindings are known. Unknown keys
 * are ignored: later versions of the format may add keys. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/json.h"
#include "../../ir/sym/sym.h"
#include "../codeobj/codeobj.h"
#include "launch.h"

typedef struct {
	LaunchDesc *d;
	JReader r;
} P;

/* A required member of o. */
static JV need(P *p, JV o, const char *key)
{
	JV v = jr_get(&p->r, o, key);
	jr_need(&p->r, o, v, key);
	return v;
}

/* A string kept in the descriptor's arena (names outlive the parse). */
static bool get_str(P *p, JV v, const char **out)
{
	if (!jr_string(&p->r, v, out))
		return false;
	*out = arena_strdup(&p->d->arena, *out);
	return true;
}

static bool get_int(P *p, JV v, int64_t lo, int64_t hi, int64_t *out)
{
	long long x;
	if (!jr_int(&p->r, v, lo, hi, &x))
		return false;
	*out = x;
	return true;
}

/* An integer or an expression string (parsed now, evaluated later). */
static bool get_dim(P *p, JV v, LaunchDim *dim)
{
	dim->loc = jr_loc(&p->r, v.pos);
	dim->path = v.path;
	if (json_is_integer(v.v)) {
		if (json_integer_value(v.v) < 0) {
			jr_err(&p->r, v, "must not be negative");
			return false;
		}
		dim->value = json_integer_value(v.v);
		return true;
	}
	if (!json_is_string(v.v)) {
		jr_wrong_type(&p->r, v, "an integer or an expression string");
		return false;
	}
	dim->expr = arena_strdup(&p->d->arena, json_string_value(v.v));
	SymParseError e;
	dim->sym = sym_parse(p->d->symctx, dim->expr, &e);
	if (!dim->sym) {
		/* the expression starts one column after the opening quote */
		Loc l = dim->loc;
		if (l.col)
			l.col += e.col;
		diag_error(p->r.d, l, "%s: bad expression \"%s\": %s", v.path, dim->expr, e.msg);
		p->r.errors++;
		return false;
	}
	return true;
}

static void parse_arg(P *p, JV a, LaunchArg *arg)
{
	JReader *r = &p->r;
	JV v;
	arg->loc = jr_loc(r, a.pos);
	arg->dtype = DT_NONE;
	if (!jr_object(r, a))
		return;
	if ((v = need(p, a, "name")).v)
		get_str(p, v, &arg->name);
	const char *kind = NULL;
	if ((v = need(p, a, "kind")).v && get_str(p, v, &kind)) {
		if (strcmp(kind, "buffer") == 0)
			arg->kind = LARG_BUFFER;
		else if (strcmp(kind, "scalar") == 0)
			arg->kind = LARG_SCALAR;
		else
			jr_err(r, v, "unknown kind \"%s\" (expected \"buffer\" or \"scalar\")", kind);
	}
	const char *dt;
	if ((v = need(p, a, "dtype")).v && get_str(p, v, &dt)) {
		arg->dtype = dtype_from_name(dt);
		static const DType ok[] = {DT_F16, DT_BF16, DT_F32, DT_F64, DT_I1, DT_I8,  DT_I16, DT_I32,
					   DT_I64, DT_U8,   DT_U16, DT_U32, DT_U64, DT_F8E4M3FNUZ, DT_F8E5M2FNUZ,
					   DT_F8E4M3FN, DT_F8E5M2, DT_F8E8M0FNU};
		bool good = false;
		for (size_t i = 0; i < ARRAY_LEN(ok); i++)
			good |= arg->dtype == ok[i];
		if (!good) {
			jr_err(r, v, "unsupported dtype \"%s\" (expected f16, bf16, f32, f64, i1, i8, i16, i32, i64, u8, u16, u32, u64, "
			       "f8e4m3fnuz, f8e5m2fnuz, f8e4m3fn, f8e5m2, f8e8m0fnu)",
			       dt);
			arg->dtype = DT_NONE;
		}
	}
	int64_t off;
	if ((v = need(p, a, "offset")).v && get_int(p, v, 0, UINT32_MAX, &off))
		arg->offset = (uint32_t)off;
	JV shape = jr_get(r, a, "shape");
	if (arg->kind == LARG_BUFFER) {
		if (!shape.v) {
			jr_err(r, a, "missing field 'shape' (required for a buffer)");
		} else if (!jr_array(r, shape)) {
		} else if (json_array_size(shape.v) > NPY_MAX_DIMS) {
			jr_err(r, shape, "at most %d dimensions", NPY_MAX_DIMS);
		} else {
			arg->ndim = (int)json_array_size(shape.v);
			for (size_t i = 0; i < json_array_size(shape.v); i++)
				get_dim(p, jr_at(r, shape, i), &arg->shape[i]);
		}
		const char *acc;
		if ((v = need(p, a, "access")).v && get_str(p, v, &acc)) {
			if (strcmp(acc, "read") == 0)
				arg->access = ACC_READ;
			else if (strcmp(acc, "write") == 0)
				arg->access = ACC_WRITE;
			else if (strcmp(acc, "readwrite") == 0)
				arg->access = ACC_READWRITE;
			else
				jr_err(r, v, "unknown access \"%s\" (expected \"read\", \"write\" or \"readwrite\")", acc);
		}
		if ((v = jr_get(r, a, "value")).v)
			jr_err(r, v, "a buffer cannot have a value");
	} else {
		arg->access = ACC_READ;
		if (shape.v && !(json_is_array(shape.v) && json_array_size(shape.v) == 0))
			jr_err(r, shape, "a scalar has no shape (omit it or write [])");
		JV acc = jr_get(r, a, "access");
		if (acc.v && !(json_is_string(acc.v) && strcmp(json_string_value(acc.v), "read") == 0))
			jr_err(r, acc, "a scalar's access can only be \"read\"");
		if ((v = jr_get(r, a, "value")).v) {
			if (!json_is_number(v.v))
				jr_wrong_type(r, v, "a number");
			else if (json_is_real(v.v) && arg->dtype != DT_NONE && !dtype_is_float(arg->dtype))
				jr_err(r, v, "a real number for an integer scalar");
			else {
				arg->has_value = true;
				arg->value = json_number_value(v.v);
				arg->ivalue = json_is_integer(v.v) ? json_integer_value(v.v) : 0;
			}
		}
	}
}

static void check_layout(P *p, JV args)
{
	LaunchDesc *d = p->d;
	JReader *r = &p->r;
	for (size_t i = 0; i < d->nargs; i++) {
		LaunchArg *a = &d->args[i];
		if (!a->name || a->dtype == DT_NONE)
			continue;
		JV ai = jr_at(r, args, i), off = jr_get(r, ai, "offset");
		uint32_t size = a->kind == LARG_BUFFER ? 8 : (uint32_t)dtype_size(a->dtype);
		if (a->offset % size)
			jr_err(r, off, "offset %u of \"%s\" is not a multiple of its size %u", a->offset, a->name, size);
		if ((uint64_t)a->offset + size > d->kernarg_size)
			jr_err(r, off, "\"%s\" (bytes %u..%u) does not fit in kernarg_size %u", a->name, a->offset,
			       a->offset + size - 1, d->kernarg_size);
		for (size_t k = 0; k < i; k++) {
			LaunchArg *b = &d->args[k];
			if (!b->name || b->dtype == DT_NONE)
				continue;
			uint32_t bs = b->kind == LARG_BUFFER ? 8 : (uint32_t)dtype_size(b->dtype);
			if (strcmp(a->name, b->name) == 0)
				jr_err(r, jr_get(r, ai, "name"), "duplicate argument name \"%s\"", a->name);
			else if (a->offset < b->offset + bs && b->offset < a->offset + size)
				jr_err(r, off, "\"%s\" overlaps \"%s\" in the kernarg segment", a->name, b->name);
		}
	}
}

/* The LDS keys: lds_bytes (static + dynamic, the first revision's one
 * key), static_lds_bytes and dynamic_lds_bytes (the split, optional).
 * lds_bytes may be left out when dynamic_lds_bytes is given; when all
 * three are given they must add up. Each at most gfx950's 160 KiB
 * (LAUNCH_MAX_LDS_BYTES); the emulator holds each arch to its own. */
static void parse_lds(P *p, JV root)
{
	LaunchDesc *d = p->d;
	JReader *r = &p->r;
	int64_t x;
	d->static_lds = d->dynamic_lds = -1;
	JV st = jr_get(r, root, "static_lds_bytes"), dy = jr_get(r, root, "dynamic_lds_bytes");
	if (st.v && get_int(p, st, 0, LAUNCH_MAX_LDS_BYTES, &x)) {
		d->static_lds = x;
		d->static_lds_loc = jr_loc(r, st.pos);
	}
	if (dy.v && get_int(p, dy, 0, LAUNCH_MAX_LDS_BYTES, &x))
		d->dynamic_lds = x;
	JV v = dy.v ? jr_get(r, root, "lds_bytes") : need(p, root, "lds_bytes");
	d->lds_bytes_loc = v.v ? jr_loc(r, v.pos) : dy.v ? jr_loc(r, dy.pos) : jr_loc(r, v.pos);
	if (v.v && get_int(p, v, 0, LAUNCH_MAX_LDS_BYTES, &x)) {
		d->lds_bytes = (uint32_t)x;
		d->has_lds_bytes = true;
	}
	if (d->static_lds >= 0 && d->dynamic_lds >= 0) {
		if (d->static_lds + d->dynamic_lds > LAUNCH_MAX_LDS_BYTES)
			jr_err(r, dy, "static %lld + dynamic %lld bytes of LDS: at most %d", (long long)d->static_lds,
				(long long)d->dynamic_lds, LAUNCH_MAX_LDS_BYTES);
		else if (d->has_lds_bytes && d->lds_bytes != d->static_lds + d->dynamic_lds)
			jr_err(r, v, "%u is not static_lds_bytes + dynamic_lds_bytes (%lld + %lld)", d->lds_bytes,
				(long long)d->static_lds, (long long)d->dynamic_lds);
		else if (!d->has_lds_bytes)
			d->lds_bytes = (uint32_t)(d->static_lds + d->dynamic_lds);
	} else if (d->has_lds_bytes && d->static_lds > (int64_t)d->lds_bytes) {
		jr_err(r, st, "static_lds_bytes %lld is more than lds_bytes %u", (long long)d->static_lds, d->lds_bytes);
	} else if (d->has_lds_bytes && d->dynamic_lds > (int64_t)d->lds_bytes) {
		jr_err(r, dy, "dynamic_lds_bytes %lld is more than lds_bytes %u", (long long)d->dynamic_lds, d->lds_bytes);
	}
}

int launch_parse(const char *text, size_t len, const char *path, LaunchDesc *d, Diag *diag)
{
	memset(d, 0, sizeof *d);
	arena_init(&d->arena);
	d->symctx = sym_ctx_new();
	d->path = arena_strdup(&d->arena, path);
	d->loc = (Loc){d->path, 0, 0};
	P p = {d, {diag, d->path, &d->arena, 0}};
	JReader *r = &p.r;
	JV root = jr_parse(r, text, len, true);
	if (!root.v)
		return -1;
	JV v;
	if (!json_is_object(root.v)) {
		jr_err(r, root, "a launch descriptor is a JSON object, got %s", jr_type_name(root.v));
		goto out;
	}
	const char *fmt;
	if ((v = need(&p, root, "format")).v && get_str(&p, v, &fmt) && strcmp(fmt, LAUNCH_FORMAT) != 0) {
		jr_err(r, v, "unsupported format \"%s\" (expected \"%s\")", fmt, LAUNCH_FORMAT);
		goto out; /* a different document: the other messages would only confuse */
	}
	if ((v = need(&p, root, "code_object")).v && get_str(&p, v, &d->code_object)) {
		d->code_object_loc = jr_loc(r, v.pos);
		if (d->code_object[0] == '/') {
			d->code_object_path = d->code_object;
		} else {
			const char *slash = strrchr(d->path, '/');
			d->code_object_path = slash ? arena_printf(&d->arena, "%.*s/%s", (int)(slash - d->path), d->path,
								   d->code_object)
						    : d->code_object;
		}
	}
	if ((v = need(&p, root, "kernel")).v)
		get_str(&p, v, &d->kernel);
	d->kernel_loc = jr_loc(r, v.pos);
	if ((v = need(&p, root, "arch")).v && (d->arch_loc = jr_loc(r, v.pos), true) && get_str(&p, v, &d->arch) &&
	    strcmp(d->arch, "gfx942") != 0 && strcmp(d->arch, "gfx90a") != 0 && strcmp(d->arch, "gfx950") != 0 &&
	    strcmp(d->arch, "gfx940") != 0 && strcmp(d->arch, "gfx941") != 0)
		jr_err(r, v, "unknown arch \"%s\" (expected gfx942, gfx90a, gfx950, gfx940 or gfx941)", d->arch);
	if ((v = need(&p, root, "workgroup_size")).v) {
		d->workgroup_size_loc = jr_loc(r, v.pos);
		if (!json_is_array(v.v) || json_array_size(v.v) != 3) {
			jr_err(r, v, "expected an array of 3 integers");
		} else {
			int64_t prod = 1;
			for (size_t i = 0; i < 3; i++) {
				int64_t x = 1;
				get_int(&p, jr_at(r, v, i), 1, 1024, &x);
				d->workgroup_size[i] = (uint32_t)x;
				prod *= x;
			}
			if (prod > 1024)
				jr_err(r, v, "%lld work-items per workgroup; at most 1024", (long long)prod);
		}
	}
	if ((v = need(&p, root, "grid")).v) {
		if (!json_is_array(v.v) || json_array_size(v.v) != 3)
			jr_err(r, v, "expected an array of 3 entries (integers or expressions)");
		else
			for (size_t i = 0; i < 3; i++)
				get_dim(&p, jr_at(r, v, i), &d->grid[i]);
	}
	parse_lds(&p, root);
	int64_t x;
	if ((v = jr_get(r, root, "co_resident")).v) {
		d->co_resident_loc = jr_loc(r, v.pos);
		jr_bool(r, v, &d->co_resident);
	}
	if ((v = jr_get(r, root, "workgroups_per_cu")).v) {
		d->workgroups_per_cu_loc = jr_loc(r, v.pos);
		get_int(&p, v, 1, 1 << 16, &d->workgroups_per_cu);
	} else if (d->co_resident) {
		jr_err(r, jr_get(r, root, "co_resident"), "a co-resident kernel needs \"workgroups_per_cu\" (the "
			"workgroups one CU holds at once)");
	}
	if ((v = need(&p, root, "kernarg_size")).v && get_int(&p, v, 0, 1 << 20, &x))
		d->kernarg_size = (uint32_t)x;
	bool layout_ok = r->errors == 0;
	if ((v = need(&p, root, "args")).v && jr_array(r, v)) {
		d->nargs = json_array_size(v.v);
		d->args = ARENA_NEWN(&d->arena, LaunchArg, d->nargs ? d->nargs : 1);
		for (size_t i = 0; i < d->nargs; i++)
			parse_arg(&p, jr_at(r, v, i), &d->args[i]);
		if (layout_ok)
			check_layout(&p, v);
	}
out:
	json_decref(root.v);
	return r->errors ? -1 : 0;
}

int launch_parse_file(const char *path, LaunchDesc *d, Diag *diag)
{
	size_t len;
	char why[128];
	const char *problem = input_file_problem(path, LAUNCH_MAX_FILE_BYTES, why, sizeof why);
	char *text = problem ? NULL : read_file(path, &len);
	if (!text) {
		memset(d, 0, sizeof *d);
		arena_init(&d->arena);
		if (!problem)
			snprintf(why, sizeof why, "cannot read: %s", strerror(errno));
		diag_error(diag, (Loc){path, 0, 0}, "%s", why);
		return -1;
	}
	int r = launch_parse(text, len, path, d, diag);
	free(text);
	return r;
}

void launch_free(LaunchDesc *d)
{
	if (d->symctx)
		sym_ctx_free(d->symctx);
	arena_free(&d->arena);
	memset(d, 0, sizeof *d);
}

const LaunchArg *launch_arg(const LaunchDesc *d, const char *name)
{
	for (size_t i = 0; i < d->nargs; i++)
		if (d->args[i].name && strcmp(d->args[i].name, name) == 0)
			return &d->args[i];
	return NULL;
}

/* Bound symbols for sym_eval. */
typedef struct {
	Vec(Sym *) syms;
	Vec(int64_t) vals;
} Env;

static int eval_dim(LaunchDesc *d, Env *env, LaunchDim *dim, Diag *diag)
{
	if (!dim->expr)
		return 0;
	SymRat r;
	const char *why = NULL;
	if (sym_eval(d->symctx, dim->sym, (int)env->syms.len, env->syms.data, env->vals.data, &r, &why) != 0) {
		/* name the first unbound symbol, if that is the problem */
		Sym *fs[16];
		size_t n = sym_free_symbols(d->symctx, dim->sym, fs, 16);
		for (size_t i = 0; i < n && i < 16; i++) {
			bool bound = false;
			for (size_t k = 0; k < env->syms.len; k++)
				bound |= env->syms.data[k] == fs[i];
			if (!bound) {
				diag_error(diag, dim->loc, "%s: unbound symbol '%s' in \"%s\" (bind it with -D %s=VALUE)",
					   dim->path, sym_name(fs[i]), dim->expr, sym_name(fs[i]));
				return -1;
			}
		}
		diag_error(diag, dim->loc, "%s: cannot evaluate \"%s\": %s", dim->path, dim->expr, why ? why : "?");
		return -1;
	}
	if (r.q != 1 || r.p < 0) {
		char val[64];
		if (r.q != 1)
			snprintf(val, sizeof val, "%lld/%lld", (long long)r.p, (long long)r.q);
		else
			snprintf(val, sizeof val, "%lld", (long long)r.p); /* it printed "-20" for -2 */
		diag_error(diag, dim->loc, "%s: \"%s\" evaluates to %s, not a non-negative integer", dim->path, dim->expr,
			   val);
		return -1;
	}
	dim->value = r.p;
	return 0;
}

static bool parse_i64(const char *s, int64_t *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 0);
	if (errno || end == s || *end)
		return false;
	*v = x;
	return true;
}

/* "[2048, 16777216] of f32" for messages about a buffer's size */
static const char *shape_text(LaunchDesc *d, const LaunchArg *a)
{
	Buf b = {0};
	buf_putc(&b, '[');
	for (int k = 0; k < a->ndim; k++)
		buf_printf(&b, "%s%lld", k ? ", " : "", (long long)a->shape[k].value);
	buf_printf(&b, "] of %s", dtype_name(a->dtype));
	const char *r = arena_strdup(&d->arena, buf_cstr(&b));
	buf_free(&b);
	return r;
}

/* The -D values (and the integer scalars' own values) as symbol bindings
 * in env, scalars' values set; the errors found. */
static int bind_values(LaunchDesc *d, int ndefs, const char *const *defs, Env *e, Diag *diag)
{
	int errors = 0;
	Env env = {0};
	/* -D values, by name; a later -D of the same name wins */
	const char **names = xcalloc((size_t)ndefs + 1, sizeof *names);
	const char **vals = xcalloc((size_t)ndefs + 1, sizeof *vals);
	for (int i = 0; i < ndefs; i++) {
		const char *eq = strchr(defs[i], '=');
		if (!eq || eq == defs[i] || !eq[1]) {
			diag_error(diag, (Loc){"-D", 0, 0}, "'%s' is not NAME=VALUE", defs[i]);
			errors++;
			continue;
		}
		names[i] = arena_strndup(&d->arena, defs[i], (size_t)(eq - defs[i]));
		vals[i] = eq + 1;
	}
	for (int i = 0; i < ndefs; i++) {
		if (!names[i])
			continue;
		const LaunchArg *a = launch_arg(d, names[i]);
		if (a && a->kind == LARG_BUFFER) {
			diag_error(diag, (Loc){"-D", 0, 0}, "%s names a buffer argument, not a scalar or symbol", names[i]);
			errors++;
			continue;
		}
		bool is_float = a && dtype_is_float(a->dtype);
		int64_t iv;
		if (!is_float && !parse_i64(vals[i], &iv)) {
			diag_error(diag, (Loc){"-D", 0, 0}, "%s=%s: the value is not an integer", names[i], vals[i]);
			errors++;
			continue;
		}
		if (is_float) {
			char *end;
			double x = strtod(vals[i], &end);
			if (end == vals[i] || *end) {
				diag_error(diag, (Loc){"-D", 0, 0}, "%s=%s: the value is not a number", names[i], vals[i]);
				errors++;
				continue;
			}
			((LaunchArg *)a)->value = x;
			((LaunchArg *)a)->has_value = true;
			continue;
		}
		if (a) {
			((LaunchArg *)a)->value = (double)iv;
			((LaunchArg *)a)->ivalue = iv;
			((LaunchArg *)a)->has_value = true;
		}
		vec_push(&env.syms, sym_symbol(d->symctx, names[i]));
		vec_push(&env.vals, iv);
	}
	/* integer scalars with a "value" bind their symbol too, unless -D did */
	for (size_t i = 0; i < d->nargs; i++) {
		LaunchArg *a = &d->args[i];
		if (a->kind != LARG_SCALAR || !a->has_value || dtype_is_float(a->dtype))
			continue;
		Sym *s = sym_symbol(d->symctx, a->name);
		bool have = false;
		for (size_t k = 0; k < env.syms.len; k++)
			have |= env.syms.data[k] == s;
		if (!have) {
			vec_push(&env.syms, s);
			vec_push(&env.vals, a->ivalue);
		}
	}
	free(names);
	free(vals);
	*e = env;
	return errors;
}

static int resolve_grid(LaunchDesc *d, Env *e, Diag *diag)
{
	int errors = 0;
	for (int i = 0; i < 3; i++) {
		if (eval_dim(d, e, &d->grid[i], diag) != 0)
			errors++;
		else if (d->grid[i].value < 0 || d->grid[i].value > UINT32_MAX) {
			/* 0 is an empty launch (a runtime size of 0: nothing to do) */
			diag_error(diag, d->grid[i].loc, "%s: %lld workgroups; expected 0..%u", d->grid[i].path,
				   (long long)d->grid[i].value, UINT32_MAX);
			errors++;
		}
	}
	return errors;
}

int launch_resolve_grid(LaunchDesc *d, int ndefs, const char *const *defs, Diag *diag)
{
	Env env;
	int errors = bind_values(d, ndefs, defs, &env, diag);
	errors += resolve_grid(d, &env, diag);
	vec_free(&env.syms);
	vec_free(&env.vals);
	return errors ? -1 : 0;
}

int launch_resolve(LaunchDesc *d, int ndefs, const char *const *defs, Diag *diag)
{
	uint64_t total = 0; /* bytes of all buffers */
	bool total_reported = false;
	Env env;
	int errors = bind_values(d, ndefs, defs, &env, diag);
	errors += resolve_grid(d, &env, diag);
	for (size_t i = 0; i < d->nargs; i++) {
		LaunchArg *a = &d->args[i];
		if (a->kind == LARG_SCALAR) {
			if (!a->has_value) {
				diag_error(diag, a->loc, "args[%zu]: scalar '%s' has no value (give \"value\" or -D %s=VALUE)",
					   i, a->name, a->name);
				errors++;
			} else if (!dtype_is_float(a->dtype) && a->dtype != DT_U64 && a->dtype != DT_I64) {
				int bits = 8 * dtype_size(a->dtype);
				bool sgn = dtype_info[a->dtype].cls == DTC_INT;
				int64_t lo = sgn ? -(INT64_C(1) << (bits - 1)) : 0;
				int64_t hi = sgn ? (INT64_C(1) << (bits - 1)) - 1 : (INT64_C(1) << bits) - 1;
				if (a->ivalue < lo || a->ivalue > hi) {
					diag_error(diag, a->loc, "args[%zu]: %lld does not fit scalar '%s' of type %s", i,
						   (long long)a->ivalue, a->name, dtype_name(a->dtype));
					errors++;
				}
			} else if (a->dtype == DT_U64 && a->ivalue < 0) {
				diag_error(diag, a->loc, "args[%zu]: %lld does not fit scalar '%s' of type u64", i,
					   (long long)a->ivalue, a->name);
				errors++;
			}
			continue;
		}
		uint64_t count = 1;
		bool ok = true;
		Loc sloc = a->ndim ? a->shape[0].loc : a->loc;
		for (int k = 0; k < a->ndim; k++) {
			if (eval_dim(d, &env, &a->shape[k], diag) != 0) {
				ok = false;
				errors++;
				continue;
			}
			uint64_t e = (uint64_t)a->shape[k].value;
			if (e && count > LAUNCH_MAX_BUFFER_BYTES / e) {
				count = LAUNCH_MAX_BUFFER_BYTES + 1; /* past the limit; reported below */
				continue;
			}
			count *= e;
		}
		if (ok && count * (uint64_t)dtype_size(a->dtype) > LAUNCH_MAX_BUFFER_BYTES) {
			diag_error(diag, sloc, "args[%zu].shape: buffer '%s' (%s) would take more than the limit of 4 GiB",
				   i, a->name, shape_text(d, a));
			ok = false;
			errors++;
		}
		if (ok) {
			a->count = count;
			a->nbytes = count * (uint64_t)dtype_size(a->dtype);
			total += a->nbytes;
			if (total > LAUNCH_MAX_TOTAL_BYTES && !total_reported) {
				diag_error(diag, sloc,
					   "args[%zu].shape: with buffer '%s' the launch needs %llu bytes of buffers; the "
					   "limit is 8 GiB",
					   i, a->name, (unsigned long long)total);
				errors++;
				total_reported = true;
			}
		}
	}
	vec_free(&env.syms);
	vec_free(&env.vals);
	return errors ? -1 : 0;
}
