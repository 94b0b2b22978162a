/* json.h — the one JSON reader: jansson for the values, json_pos.c for where
 * they are, and typed reads that report every problem as a located
 * diagnostic "FILE:LINE:COL: error: JSON.path: message". Kernel graphs
 * (frontend/) and launch descriptors (loader/runtime/launch.c) both read
 * through it, so the same mistake reads the same in either.
 *
 * A JV is one place in the document: the value (NULL when absent), its
 * position node, and its path ("args[2].shape"; "" for the document).
 * Reads never fail silently: a missing or ill-typed value is reported and
 * the read returns false; the reader counts the errors. Paths live in the
 * reader's arena. */
#ifndef WAVECC_JSON_H
#define WAVECC_JSON_H

#include <jansson.h>
#include <stdbool.h>

#include "json_pos.h"
#include "util.h"

typedef struct JV {
	json_t *v;
	const JPos *pos;
	const char *path;
} JV;

typedef struct JReader {
	Diag *d;
	const char *file; /* for locations */
	Arena *arena;     /* paths and the position tree */
	int errors;
} JReader;

/* Parse text into a document: the root JV, or .v NULL after reporting
 * "invalid JSON: ..." at the error's line and column (also at the end of
 * the input). any: a scalar document is allowed. Free with json_decref. */
JV jr_parse(JReader *r, const char *text, size_t len, bool any);

Loc jr_loc(const JReader *r, const JPos *p);
/* "path: message" at the value ("(document)" for the root). */
void jr_err(JReader *r, JV at, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* The same at a member's key (an unknown field). */
void jr_err_key(JReader *r, JV obj, const char *key, const char *fmt, ...) PRINTF_LIKE(4, 5);
/* "expected WANT, got a string" */
void jr_wrong_type(JReader *r, JV v, const char *want);
/* "an object", "an integer", ... */
const char *jr_type_name(const json_t *v);

/* Member key of o (.v NULL when absent; .pos then o's), element i of a. */
JV jr_get(JReader *r, JV o, const char *key);
JV jr_at(JReader *r, JV a, size_t i);
/* Report each member of o named in neither space-separated list. */
void jr_check_fields(JReader *r, JV o, const char *list1, const char *list2);

/* Typed reads; each reports and returns false. */
bool jr_need(JReader *r, JV o, JV f, const char *key); /* "missing field 'key'" */
bool jr_object(JReader *r, JV v);
bool jr_array(JReader *r, JV v);
bool jr_string(JReader *r, JV v, const char **out);    /* interned */
bool jr_int(JReader *r, JV v, long long lo, long long hi, long long *out);
bool jr_bool(JReader *r, JV v, bool *out);
bool jr_number(JReader *r, JV v, double *out);

#endif
