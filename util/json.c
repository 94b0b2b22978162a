/* json.c — the located, typed JSON reader (contract in json.h). Locations
 * come from the position tree (json_pos.c), which jansson does not keep;
 * an absent member is reported at its enclosing object. */
#include <stdarg.h>
#include <string.h>

#include "json.h"

JV jr_parse(JReader *r, const char *text, size_t len, bool any)
{
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES | (any ? JSON_DECODE_ANY : 0), &je);
	if (!root) {
		Loc loc = jpos_error_loc(r->file, text, len, je.line, je.column, (size_t)je.position);
		diag_error(r->d, loc, "invalid JSON: %s", je.text);
		r->errors++;
		return (JV){NULL, NULL, ""};
	}
	return (JV){root, jpos_build(r->arena, text, len), ""};
}

Loc jr_loc(const JReader *r, const JPos *p)
{
	return (Loc){r->file, p ? p->line : 0, p ? p->col : 0};
}

static void verr(JReader *r, Loc loc, const char *path, const char *fmt, va_list ap)
{
	Buf b = {0};
	buf_vprintf(&b, fmt, ap);
	diag_error_path(r->d, loc, path && *path ? path : "(document)", "%s", buf_cstr(&b));
	buf_free(&b);
	r->errors++;
}

void jr_err(JReader *r, JV at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verr(r, jr_loc(r, at.pos), at.path, fmt, ap);
	va_end(ap);
}

void jr_err_key(JReader *r, JV obj, const char *key, const char *fmt, ...)
{
	const JPosMember *m = jpos_member(obj.pos, key);
	Loc loc = m ? (Loc){r->file, m->key_line, m->key_col} : jr_loc(r, obj.pos);
	const char *path = *obj.path ? arena_printf(r->arena, "%s.%s", obj.path, key) : key;
	va_list ap;
	va_start(ap, fmt);
	verr(r, loc, path, fmt, ap);
	va_end(ap);
}

const char *jr_type_name(const json_t *v)
{
	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "a value";
}

void jr_wrong_type(JReader *r, JV v, const char *want)
{
	jr_err(r, v, "expected %s, got %s", want, jr_type_name(v.v));
}

JV jr_get(JReader *r, JV o, const char *key)
{
	JV x;
	x.v = json_is_object(o.v) ? json_object_get(o.v, key) : NULL;
	x.pos = jpos_get(o.pos, key);
	x.path = *o.path ? arena_printf(r->arena, "%s.%s", o.path, key) : key;
	if (!x.pos)
		x.pos = o.pos; /* absent: point at the enclosing object */
	return x;
}

JV jr_at(JReader *r, JV a, size_t i)
{
	JV x;
	x.v = json_is_array(a.v) ? json_array_get(a.v, i) : NULL;
	x.pos = jpos_at(a.pos, i);
	x.path = arena_printf(r->arena, "%s[%zu]", a.path, i);
	return x;
}

static bool in_list(const char *list, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ' ');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && strncmp(p, key, n) == 0)
			return true;
		p = e ? e + 1 : p + len;
	}
	return false;
}

void jr_check_fields(JReader *r, JV o, const char *list1, const char *list2)
{
	const char *key;
	json_t *val;
	json_object_foreach(o.v, key, val)
	{
		(void)val;
		if (!in_list(list1, key) && !in_list(list2, key))
			jr_err_key(r, o, key, "unknown field '%s'", key);
	}
}

bool jr_need(JReader *r, JV o, JV f, const char *key)
{
	if (f.v)
		return true;
	jr_err(r, o, "missing field '%s'", key);
	return false;
}

bool jr_object(JReader *r, JV v)
{
	if (json_is_object(v.v))
		return true;
	jr_wrong_type(r, v, "an object");
	return false;
}

bool jr_array(JReader *r, JV v)
{
	if (json_is_array(v.v))
		return true;
	jr_wrong_type(r, v, "an array");
	return false;
}

bool jr_string(JReader *r, JV v, const char **out)
{
	if (!json_is_string(v.v)) {
		jr_wrong_type(r, v, "a string");
		return false;
	}
	*out = intern_n(json_string_value(v.v), json_string_length(v.v));
	return true;
}

bool jr_int(JReader *r, JV v, long long lo, long long hi, long long *out)
{
	if (!json_is_integer(v.v)) {
		jr_wrong_type(r, v, "an integer");
		return false;
	}
	long long x = json_integer_value(v.v);
	if (x < lo || x > hi) {
		jr_err(r, v, "%lld is out of range [%lld, %lld]", x, lo, hi);
		return false;
	}
	*out = x;
	return true;
}

bool jr_bool(JReader *r, JV v, bool *out)
{
	if (!json_is_boolean(v.v)) {
		jr_wrong_type(r, v, "a boolean");
		return false;
	}
	*out = json_is_true(v.v);
	return true;
}

bool jr_number(JReader *r, JV v, double *out)
{
	if (!json_is_number(v.v)) {
		jr_wrong_type(r, v, "a number");
		return false;
	}
	*out = json_number_value(v.v);
	return true;
}
