/* load.h — internals shared by the frontend's files: the loader state,
 * located diagnostics and typed field access (the shared reader,
 * util/json.h), values and expressions (load_values.c). load.c holds the
 * top level (symbols, constraints, arguments) and calls the graph walker
 * (load_graph.c: names, topological order, types), which calls the op
 * builders (load_ops.c); each file only calls down. */
#ifndef WAVECC_LOAD_H
#define WAVECC_LOAD_H

#include "../ir/graph.h"
#include "../util/json.h"

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
	JReader r; /* the JSON reader (util/json.h), over d, file and tmp */
	Vec(Sym *) ivars; /* induction variables of tiling constraints */
	Vec(const char *) bad_args; /* arguments reported and left out: their uses say nothing more */
	Vec(const char *) loop_syms; /* interned: symbols a loop with a condition sets (load_while.c) */
	Vec(const char *) start_args; /* interned: i32 scalar arguments a loop starts at, taken as runtime
				       * values (load_while.c) */
	Vec(json_t *) spins; /* iterate nodes rewritten from spin-waits (load_while.c: ld_rewrite_spin_waits) */
} Ld;
void ld_declare_loop_symbols(Ld *L, JV root);
/* Spin-waits (a loop whose axis' next value follows a read: a flag another
 * workgroup stores) rewritten as loops over a carried flag; marks the
 * kernel co-resident (load_while.c). Before ld_declare_loop_symbols. */
void ld_rewrite_spin_waits(Ld *L, JV root);
bool ld_is_spin(const Ld *L, const json_t *iterate);
bool ld_is_loop_symbol(const Ld *L, const char *name);
bool ld_is_start_arg(const Ld *L, const char *name); /* an i32 scalar argument a loop starts at */

/* Located reports and typed reads go through the shared JSON reader
 * (util/json.h); these name them in the frontend's terms. */
#define ld_err(L, at, ...) jr_err(&(L)->r, at, __VA_ARGS__)
#define ld_err_key(L, obj, key, ...) jr_err_key(&(L)->r, obj, key, __VA_ARGS__)
static inline Loc loc_of(Ld *L, const JPos *p) { return jr_loc(&L->r, p); }
static inline void wrong_type(Ld *L, JV v, const char *want) { jr_wrong_type(&L->r, v, want); }
static inline JV jv_get(Ld *L, JV o, const char *key) { return jr_get(&L->r, o, key); }
static inline JV jv_at(Ld *L, JV a, size_t i) { return jr_at(&L->r, a, i); }
static inline void check_fields(Ld *L, JV o, const char *list1, const char *list2)
{
	jr_check_fields(&L->r, o, list1, list2);
}
static inline bool need(Ld *L, JV o, JV f, const char *key) { return jr_need(&L->r, o, f, key); }
static inline bool get_string(Ld *L, JV v, const char **out) { return jr_string(&L->r, v, out); }
static inline bool get_int(Ld *L, JV v, long long lo, long long hi, long long *out)
{
	return jr_int(&L->r, v, lo, hi, out);
}
static inline bool get_bool(Ld *L, JV v, bool *out) { return jr_bool(&L->r, v, out); }
static inline bool get_number(Ld *L, JV v, double *out) { return jr_number(&L->r, v, out); }

bool ld_get_ident(Ld *L, JV v, const char **out);  /* identifier, interned */
/* The fix for the next message about an unknown name word of names[0..n)
 * (the diagnostics' hint, util/diag.c): the nearest name, else the names
 * when they are few. */
void ld_hint_name(Ld *L, const char *word, const char *const *names, size_t n);
/* "unknown WHAT 'S' (did you mean ...? known: ...)" at `at`, with its fix
 * hint; and that for an MMA type name. */
void ld_err_unknown(Ld *L, JV at, const char *what, const char *s, const char *const *names, size_t n);
void ld_err_unknown_mma(Ld *L, JV f, const char *s);
/* An mma_type: a name of the MMA table (Wave's MMAType) or a GenericDot,
 * given as "GenericDot" (Wave's defaults) or as an object {"kind":
 * "GenericDot", "out_vec_size", "k_vec_size", "k_mult", "along_dim"}. */
bool ld_get_mma_type(Ld *L, JV f, MmaType *t, GenericDot *g);
bool ld_get_dtype(Ld *L, JV v, DType *out);
bool ld_is_identifier(const char *s);

/* An expression (string or integer), its free symbols checked against the
 * kernel's symbols plus `scope`. NULL after reporting. */
Sym *ld_get_expr(Ld *L, JV v, const Scope *scope);
/* Parse `text`, a part of string v starting col_off bytes into it. */
Sym *ld_parse_expr_at(Ld *L, JV v, const char *text, int col_off, const Scope *scope);
/* A dimension symbol: an identifier naming a symbol with a value, a dynamic
 * symbol or an alias. */
Sym *ld_get_dim(Ld *L, JV v);
/* A list of distinct dims. */
bool ld_get_shape(Ld *L, JV v, Shape *out);
/* Is `name` usable in expressions (outside any local scope)? */
bool ld_symbol_known(Ld *L, const char *name);
/* A name the expression language defines ($T0, $WG1, ...). */
bool ld_is_builtin_symbol(const char *n);
/* The free symbols of e, at most cap of them into out; returns how many
 * there are (possibly more than cap). */
size_t ld_free_syms(const Sym *e, Sym **out, size_t cap);


/* load_graph.c */
void ld_load_graph(Ld *L, JV graph);

#endif
