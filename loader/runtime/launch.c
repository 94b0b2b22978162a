/* launch.c — parse and resolve launch descriptors (contract in launch.h,
 * format in docs/launch-format.md).
 *
 * jansson parses the document (duplicate keys rejected) and reports syntax
 * errors with line and column; util/json_pos.c rescans the accepted
 * text for the position of every value, so each semantic message carries
 * FILE:LINE:COL and the JSON path of the offending value. Parsing checks
 * types, ranges and the kernarg layout (each argument inside kernarg_size,
 * naturally aligned, no two overlapping); expressions are parsed here and
 * evaluated in launch_resolve once the -D bindings are known. Unknown keys
 * are ignored: later versions of the format may add keys. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/json_pos.h"
#include "../../ir/sym/sym.h"
#include "../codeobj/codeobj.h"
#include "launch.h"

typedef struct {
	LaunchDesc *d;
	Diag *diag;
	int errors;
} P;

static Loc at(P *p, const JPos *pos)
{
	Loc l = {p->d->path, pos ? pos->line : 0, pos ? pos->col : 0};
	return l;
}

static void perr(P *p, const JPos *pos, const char *jpath, const char *fmt, ...) PRINTF_LIKE(4, 5);
static void perr(P *p, const JPos *pos, const char *jpath, const char *fmt, ...)
{
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	if (jpath && *jpath)
		buf_printf(&b, "%s: ", jpath);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	diag_error(p->diag, at(p, pos), "%s", buf_cstr(&b));
	buf_free(&b);
	p->errors++;
}

static const char *jtype(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* Required member `key` of obj; reports its absence at the object. */
static json_t *need(P *p, json_t *obj, const JPos *opos, const char *opath, const char *key, const JPos **kpos)
{
	json_t *v = json_object_get(obj, key);
	*kpos = jpos_get(opos, key);
	if (!v)
		perr(p, opos, opath, "missing key \"%s\"", key);
	return v;
}

static const char *jp(P *p, const char *parent, const char *key)
{
	return *parent ? arena_printf(&p->d->arena, "%s.%s", parent, key) : arena_strdup(&p->d->arena, key);
}

static const char *jpi(P *p, const char *parent, size_t i)
{
	return arena_printf(&p->d->arena, "%s[%zu]", parent, i);
}

static bool get_str(P *p, json_t *v, const JPos *pos, const char *path, const char **out)
{
	if (!json_is_string(v)) {
		perr(p, pos, path, "expected a string, got %s", jtype(v));
		return false;
	}
	*out = arena_strdup(&p->d->arena, json_string_value(v));
	return true;
}

static bool get_int(P *p, json_t *v, const JPos *pos, const char *path, int64_t lo, int64_t hi, int64_t *out)
{
	if (!json_is_integer(v)) {
		perr(p, pos, path, "expected an integer, got %s", jtype(v));
		return false;
	}
	json_int_t x = json_integer_value(v);
	if (x < lo || x > hi) {
		perr(p, pos, path, "%lld is out of range [%lld, %lld]", (long long)x, (long long)lo, (long long)hi);
		return false;
	}
	*out = x;
	return true;
}

/* An integer or an expression string (parsed now, evaluated later). */
static bool get_dim(P *p, json_t *v, const JPos *pos, const char *path, LaunchDim *dim)
{
	dim->loc = at(p, pos);
	dim->path = path;
	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0) {
			perr(p, pos, path, "must not be negative");
			return false;
		}
		dim->value = json_integer_value(v);
		return true;
	}
	if (!json_is_string(v)) {
		perr(p, pos, path, "expected an integer or an expression string, got %s", jtype(v));
		return false;
	}
	dim->expr = arena_strdup(&p->d->arena, json_string_value(v));
	SymParseError e;
	dim->sym = sym_parse(p->d->symctx, dim->expr, &e);
	if (!dim->sym) {
		/* the expression starts one column after the opening quote */
		Loc l = dim->loc;
		if (l.col)
			l.col += e.col;
		diag_error(p->diag, l, "%s: bad expression \"%s\": %s", path, dim->expr, e.msg);
		p->errors++;
		return false;
	}
	return true;
}

static void parse_arg(P *p, json_t *a, const JPos *apos, const char *apath, LaunchArg *arg)
{
	const JPos *kp;
	json_t *v;
	arg->loc = at(p, apos);
	arg->dtype = DT_NONE;
	if (!json_is_object(a)) {
		perr(p, apos, apath, "expected an object, got %s", jtype(a));
		return;
	}
	if ((v = need(p, a, apos, apath, "name", &kp)))
		get_str(p, v, kp, jp(p, apath, "name"), &arg->name);
	const char *kind = NULL;
	if ((v = need(p, a, apos, apath, "kind", &kp)) && get_str(p, v, kp, jp(p, apath, "kind"), &kind)) {
		if (strcmp(kind, "buffer") == 0)
			arg->kind = LARG_BUFFER;
		else if (strcmp(kind, "scalar") == 0)
			arg->kind = LARG_SCALAR;
		else
			perr(p, kp, jp(p, apath, "kind"), "unknown kind \"%s\" (expected \"buffer\" or \"scalar\")", kind);
	}
	const char *dt;
	if ((v = need(p, a, apos, apath, "dtype", &kp)) && get_str(p, v, kp, jp(p, apath, "dtype"), &dt)) {
		arg->dtype = dtype_from_name(dt);
		static const DType ok[] = {DT_F16, DT_BF16, DT_F32, DT_F64, DT_I8,  DT_I16,
					   DT_I32, DT_I64,  DT_U8,  DT_U16, DT_U32, DT_U64};
		bool good = false;
		for (size_t i = 0; i < ARRAY_LEN(ok); i++)
			good |= arg->dtype == ok[i];
		if (!good) {
			perr(p, kp, jp(p, apath, "dtype"),
			     "unsupported dtype \"%s\" (expected f16, bf16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64)",
			     dt);
			arg->dtype = DT_NONE;
		}
	}
	int64_t off;
	if ((v = need(p, a, apos, apath, "offset", &kp)) &&
	    get_int(p, v, kp, jp(p, apath, "offset"), 0, UINT32_MAX, &off))
		arg->offset = (uint32_t)off;
	json_t *shape = json_object_get(a, "shape");
	const JPos *spos = jpos_get(apos, "shape");
	const char *spath = jp(p, apath, "shape");
	if (arg->kind == LARG_BUFFER) {
		if (!shape) {
			perr(p, apos, apath, "missing key \"shape\" (required for a buffer)");
		} else if (!json_is_array(shape)) {
			perr(p, spos, spath, "expected an array, got %s", jtype(shape));
		} else if (json_array_size(shape) > NPY_MAX_DIMS) {
			perr(p, spos, spath, "at most %d dimensions", NPY_MAX_DIMS);
		} else {
			arg->ndim = (int)json_array_size(shape);
			for (size_t i = 0; i < json_array_size(shape); i++)
				get_dim(p, json_array_get(shape, i), jpos_at(spos, i), jpi(p, spath, i), &arg->shape[i]);
		}
		const char *acc;
		if ((v = need(p, a, apos, apath, "access", &kp)) && get_str(p, v, kp, jp(p, apath, "access"), &acc)) {
			if (strcmp(acc, "read") == 0)
				arg->access = ACC_READ;
			else if (strcmp(acc, "write") == 0)
				arg->access = ACC_WRITE;
			else if (strcmp(acc, "readwrite") == 0)
				arg->access = ACC_READWRITE;
			else
				perr(p, kp, jp(p, apath, "access"),
				     "unknown access \"%s\" (expected \"read\", \"write\" or \"readwrite\")", acc);
		}
		if (json_object_get(a, "value"))
			perr(p, jpos_get(apos, "value"), jp(p, apath, "value"), "a buffer cannot have a value");
	} else {
		arg->access = ACC_READ;
		if (shape && !(json_is_array(shape) && json_array_size(shape) == 0))
			perr(p, spos, spath, "a scalar has no shape (omit it or write [])");
		json_t *acc = json_object_get(a, "access");
		if (acc && !(json_is_string(acc) && strcmp(json_string_value(acc), "read") == 0))
			perr(p, jpos_get(apos, "access"), jp(p, apath, "access"), "a scalar's access can only be \"read\"");
		if ((v = json_object_get(a, "value"))) {
			if (!json_is_number(v))
				perr(p, jpos_get(apos, "value"), jp(p, apath, "value"), "expected a number, got %s",
				     jtype(v));
			else if (json_is_real(v) && arg->dtype != DT_NONE && !dtype_is_float(arg->dtype))
				perr(p, jpos_get(apos, "value"), jp(p, apath, "value"),
				     "a real number for an integer scalar");
			else {
				arg->has_value = true;
				arg->value = json_number_value(v);
				arg->ivalue = json_is_integer(v) ? json_integer_value(v) : 0;
			}
		}
	}
}

static void check_layout(P *p, json_t *args, const JPos *apos)
{
	LaunchDesc *d = p->d;
	for (size_t i = 0; i < d->nargs; i++) {
		LaunchArg *a = &d->args[i];
		if (!a->name || a->dtype == DT_NONE)
			continue;
		const JPos *pos = jpos_get(jpos_at(apos, i), "offset");
		const char *path = jp(p, jpi(p, "args", i), "offset");
		uint32_t size = a->kind == LARG_BUFFER ? 8 : (uint32_t)dtype_size(a->dtype);
		if (a->offset % size)
			perr(p, pos, path, "offset %u of \"%s\" is not a multiple of its size %u", a->offset, a->name, size);
		if ((uint64_t)a->offset + size > d->kernarg_size)
			perr(p, pos, path, "\"%s\" (bytes %u..%u) does not fit in kernarg_size %u", a->name, a->offset,
			     a->offset + size - 1, d->kernarg_size);
		for (size_t k = 0; k < i; k++) {
			LaunchArg *b = &d->args[k];
			if (!b->name || b->dtype == DT_NONE)
				continue;
			uint32_t bs = b->kind == LARG_BUFFER ? 8 : (uint32_t)dtype_size(b->dtype);
			if (strcmp(a->name, b->name) == 0)
				perr(p, jpos_get(jpos_at(apos, i), "name"), jp(p, jpi(p, "args", i), "name"),
				     "duplicate argument name \"%s\"", a->name);
			else if (a->offset < b->offset + bs && b->offset < a->offset + size)
				perr(p, pos, path, "\"%s\" overlaps \"%s\" in the kernarg segment", a->name, b->name);
		}
	}
	(void)args;
}

int launch_parse(const char *text, size_t len, const char *path, LaunchDesc *d, Diag *diag)
{
	memset(d, 0, sizeof *d);
	arena_init(&d->arena);
	d->symctx = sym_ctx_new();
	d->path = arena_strdup(&d->arena, path);
	d->loc = (Loc){d->path, 0, 0};
	P p = {d, diag, 0};
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		diag_error(diag, jpos_error_loc(d->path, text, len, je.line, je.column, (size_t)je.position), "%s",
			   je.text);
		return -1;
	}
	const JPos *rp = jpos_build(&d->arena, text, len);
	const JPos *kp;
	json_t *v;
	if (!json_is_object(root)) {
		perr(&p, rp, "", "a launch descriptor is a JSON object, got %s", jtype(root));
		goto out;
	}
	const char *fmt;
	if ((v = need(&p, root, rp, "", "format", &kp)) && get_str(&p, v, kp, "format", &fmt) &&
	    strcmp(fmt, LAUNCH_FORMAT) != 0) {
		perr(&p, kp, "format", "unsupported format \"%s\" (expected \"%s\")", fmt, LAUNCH_FORMAT);
		goto out; /* a different document: the other messages would only confuse */
	}
	if ((v = need(&p, root, rp, "", "code_object", &kp)) && get_str(&p, v, kp, "code_object", &d->code_object)) {
		d->code_object_loc = at(&p, kp);
		if (d->code_object[0] == '/') {
			d->code_object_path = d->code_object;
		} else {
			const char *slash = strrchr(d->path, '/');
			d->code_object_path = slash ? arena_printf(&d->arena, "%.*s/%s", (int)(slash - d->path), d->path,
								   d->code_object)
						    : d->code_object;
		}
	}
	if ((v = need(&p, root, rp, "", "kernel", &kp)))
		get_str(&p, v, kp, "kernel", &d->kernel);
	d->kernel_loc = at(&p, kp);
	if ((v = need(&p, root, rp, "", "arch", &kp)) && (d->arch_loc = at(&p, kp), true) &&
	    get_str(&p, v, kp, "arch", &d->arch) &&
	    strcmp(d->arch, "gfx942") != 0 && strcmp(d->arch, "gfx90a") != 0 && strcmp(d->arch, "gfx950") != 0 &&
	    strcmp(d->arch, "gfx940") != 0 && strcmp(d->arch, "gfx941") != 0)
		perr(&p, kp, "arch", "unknown arch \"%s\" (expected gfx942, gfx90a, gfx950, gfx940 or gfx941)", d->arch);
	if ((v = need(&p, root, rp, "", "workgroup_size", &kp))) {
		d->workgroup_size_loc = at(&p, kp);
		if (!json_is_array(v) || json_array_size(v) != 3) {
			perr(&p, kp, "workgroup_size", "expected an array of 3 integers");
		} else {
			int64_t prod = 1;
			for (size_t i = 0; i < 3; i++) {
				int64_t x = 1;
				get_int(&p, json_array_get(v, i), jpos_at(kp, i), jpi(&p, "workgroup_size", i), 1, 1024, &x);
				d->workgroup_size[i] = (uint32_t)x;
				prod *= x;
			}
			if (prod > 1024)
				perr(&p, kp, "workgroup_size", "%lld work-items per workgroup; at most 1024",
				     (long long)prod);
		}
	}
	if ((v = need(&p, root, rp, "", "grid", &kp))) {
		if (!json_is_array(v) || json_array_size(v) != 3)
			perr(&p, kp, "grid", "expected an array of 3 entries (integers or expressions)");
		else
			for (size_t i = 0; i < 3; i++)
				get_dim(&p, json_array_get(v, i), jpos_at(kp, i), jpi(&p, "grid", i), &d->grid[i]);
	}
	int64_t x;
	d->lds_bytes_loc = at(&p, jpos_get(rp, "lds_bytes"));
	if ((v = need(&p, root, rp, "", "lds_bytes", &kp)) && get_int(&p, v, kp, "lds_bytes", 0, 65536, &x))
		d->lds_bytes = (uint32_t)x;
	if ((v = need(&p, root, rp, "", "kernarg_size", &kp)) &&
	    get_int(&p, v, kp, "kernarg_size", 0, 1 << 20, &x))
		d->kernarg_size = (uint32_t)x;
	bool layout_ok = p.errors == 0;
	if ((v = need(&p, root, rp, "", "args", &kp))) {
		if (!json_is_array(v)) {
			perr(&p, kp, "args", "expected an array, got %s", jtype(v));
		} else {
			d->nargs = json_array_size(v);
			d->args = ARENA_NEWN(&d->arena, LaunchArg, d->nargs ? d->nargs : 1);
			for (size_t i = 0; i < d->nargs; i++)
				parse_arg(&p, json_array_get(v, i), jpos_at(kp, i), jpi(&p, "args", i), &d->args[i]);
			if (layout_ok)
				check_layout(&p, v, kp);
		}
	}
out:
	json_decref(root);
	return p.errors ? -1 : 0;
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
		diag_error(diag, dim->loc, "%s: \"%s\" evaluates to %lld%s%lld, not a non-negative integer", dim->path,
			   dim->expr, (long long)r.p, r.q != 1 ? "/" : "", r.q != 1 ? (long long)r.q : 0LL);
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

int launch_resolve(LaunchDesc *d, int ndefs, const char *const *defs, Diag *diag)
{
	int errors = 0;
	uint64_t total = 0; /* bytes of all buffers */
	bool total_reported = false;
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
	for (int i = 0; i < 3; i++) {
		if (eval_dim(d, &env, &d->grid[i], diag) != 0)
			errors++;
		else if (d->grid[i].value < 1 || d->grid[i].value > UINT32_MAX) {
			diag_error(diag, d->grid[i].loc, "%s: %lld workgroups; expected 1..%u", d->grid[i].path,
				   (long long)d->grid[i].value, UINT32_MAX);
			errors++;
		}
	}
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
	free(names);
	free(vals);
	vec_free(&env.syms);
	vec_free(&env.vals);
	return errors ? -1 : 0;
}
