/* load.h — internals shared by the frontend's files: the loader state,
 * located diagnostics, typed field access with JSON paths, expressions.
 * load.c holds the top level (symbols, constraints, arguments) and these
 * helpers; load_graph.c the graph (names, topological order, types). */
#ifndef WAVECC_LOAD_H
#define WAVECC_LOAD_H

#include <jansson.h>

#include "../ir/graph.h"
#include "../util/json_pos.h"

/* One JSON location: the value, its position node and its path. */
typedef struct JV {
	json_t *v;
	const JPos *pos;
	const char *path;
} JV;

/* Extra symbols visible to one expression (mapping iterators, params). */
typedef struct Scope {
	int n;
	Sym *const *syms;
	const struct Scope *up;
} Scope;

typedef struct Ld {
	Kernel *k;
	Diag *d;
	const char *file;
	Arena tmp; /* paths and scratch, freed after loading */
	Vec(Sym *) ivars; /* induction variables of tiling constraints */
} Ld;

/* Report "path: message" at the value's position. */
void ld_err(Ld *L, JV at, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* At a member's key (unknown fields). */
void ld_err_key(Ld *L, JV obj, const char *key, const char *fmt, ...) PRINTF_LIKE(4, 5);

/* Member `key` of object `o`; .v is NULL when absent. */
JV jv_get(Ld *L, JV o, const char *key);
JV jv_at(Ld *L, JV a, size_t i);
/* Report members of o that are not in the space-separated lists. */
void check_fields(Ld *L, JV o, const char *list1, const char *list2);

/* Typed readers: each reports a missing (if required) or ill-typed value
 * and returns false. */
bool need(Ld *L, JV o, JV f, const char *key);
bool get_string(Ld *L, JV v, const char **out); /* interned */
bool get_ident(Ld *L, JV v, const char **out);  /* identifier, interned */
bool get_int(Ld *L, JV v, long long lo, long long hi, long long *out);
bool get_bool(Ld *L, JV v, bool *out);
bool get_number(Ld *L, JV v, double *out);
bool get_dtype(Ld *L, JV v, DType *out);
bool is_identifier(const char *s);

/* An expression (string or integer), its free symbols checked against the
 * kernel's symbols plus `scope`. NULL after reporting. */
Sym *get_expr(Ld *L, JV v, const Scope *scope);
/* Parse `text`, a part of string v starting col_off bytes into it. */
Sym *parse_expr_at(Ld *L, JV v, const char *text, int col_off, const Scope *scope);
/* A dimension symbol: an identifier naming a symbol with a value, a dynamic
 * symbol or an alias. */
Sym *get_dim(Ld *L, JV v);
/* A list of distinct dims. */
bool get_shape(Ld *L, JV v, Shape *out);
/* Is `name` usable in expressions (outside any local scope)? */
bool symbol_known(Ld *L, const char *name);

/* load_graph.c */
void load_graph(Ld *L, JV graph);

#endif
