/* load_graph.h — internals of the graph loader, shared by load_graph.c
 * (collect, references, order, build driver) and load_ops.c (per-op
 * attributes and type rules). */
#ifndef WAVECC_LOAD_GRAPH_H
#define WAVECC_LOAD_GRAPH_H

#include "load.h"

typedef struct NList NList;

typedef struct Ref {
	JV jv;
	const char *name;
} Ref;
typedef Vec(Ref) Refs;

typedef struct Node {
	JV jv;
	const char *name;
	OpKind kind; /* OP_COUNT: unknown op (name still reserved) */
	NList *list;
	int idx;
	NList *body; /* iterate, conditional */
	bool bad;
	bool top_output; /* an output in the kernel body: accepted, ignored */
	Op *op;
	Vec(int) deps;
	Refs refs; /* value references, Op.args order (phase 2) */
} Node;

struct NList {
	Vec(Node *) nodes; /* input order */
	Vec(Node *) order; /* topological order */
	NList *parent;
	Node *owner;
	Region *region;
	Vec(const char *) params; /* iter arg names */
	bool incomplete; /* a node of this list was rejected while collecting */
};

enum { E_ARG = 1, E_NODE, E_PARAM };
typedef struct Ent {
	const char *key; /* interned */
	int kind;
	Value *arg;
	Node *node;
	NList *list; /* E_PARAM */
	int idx;
} Ent;

typedef struct G {
	Ld *L;
	Kernel *k;
	Ent *tab;
	size_t cap, n;
	Vec(NList *) lists;
	Vec(Node *) all;
	Vec(struct Setter { Node *n; Op *op; }) setters; /* set_symbols built so far (load_control.c) */
	/* iterates with a condition and the set_symbols of their bodies' loop
	 * symbols (load_while.c) */
	Vec(struct While { Node *n; Op *op; Sym *cond; Sym *start; Node *start_node; JV start_jv;
		bool dim_axis; /* the axis is a dim of the kernel (Wave's sequential batched GEMM's B) */
		Sym *dcond; /* the conjuncts over carried values (GET_ITER_ARG<i>), or NULL */
		bool trips; /* a carried axis rewritten (max_trips): the axis counts trips, no set_symbol */ }) whiles;
	Vec(struct LoopSet { Node *n; Op *op; Sym *value; }) loop_sets;
} G;

/* load_while.c: iterates with a condition (Wave's while loops) */
bool ld_build_while(G *g, Node *n, Op *op);
bool ld_build_loop_set(G *g, Node *n, Op *op, JV f, KSymbol *ks);
bool ld_is_while_axis(G *g, const Node *n, const KSymbol *ks);
void ld_finish_while(G *g);

/* load_control.c: Wave's scheduling hints and counter waits (graph.h op_is_hint,
 * memory_counter_wait_barrier) */
bool ld_build_hint(G *g, Node *n, Op *op, JV *jvs);
/* load_softsign.c: softsign, expanded into the elementwise ops Wave lowers it to */
bool ld_build_softsign(G *g, Node *n, Op *op, JV *jvs);

/* load_scan.c: cumsum */
bool ld_build_scan(G *g, Node *n, Op *op, JV *jvs);

/* load_bitcast.c */
bool ld_build_bitcast(G *g, Node *n, Op *op, JV *jvs);
/* load_scaled_mma.c */
bool ld_build_scaled_mma(G *g, Node *n, Op *op, JV *jvs);
/* load_mma.c: mma; and, shared with scaled_mma, the optional mma_type
 * field and the dims of lhs, rhs, acc (jvs[0..2]: where each is named)
 * with their one reduction dim */
bool ld_build_mma(G *g, Node *n, Op *op, JV *jvs);
bool ld_get_op_mma_type(G *g, Node *n, Op *op);
bool ld_check_mma_dims(G *g, Node *n, Value *lhs, Value *rhs, Value *acc, const JV *jvs, Sym **kdim);

/* load_names.c */
Ent *ld_tab_find(G *g, const char *key);
Ent *ld_tab_add(G *g, const char *key);

/* load_types.c */
const char *ld_tstr(G *g, DType dt, Shape s); /* "f32[M, N]", in the scratch arena */
const char *ld_vstr(G *g, const Value *v);
bool ld_subset(Shape a, Shape b);   /* dims of a among those of b */
bool ld_same_set(Shape a, Shape b); /* same dims, any order */
bool ld_is_int_dtype(DType t);
bool ld_list_encloses(const NList *outer, const NList *l); /* is l outer or inside it? */
/* Does node x come after node m in m's list, or in a body nested in a node
 * that does? */
bool ld_node_follows(const Node *m, const Node *x);

/* load_ops.c */
/* Attributes and result type of one op (operands in op->args, their JSON
 * locations in jvs); false after reporting. */
bool ld_build_op(G *g, Node *n, Op *op, JV *jvs);
bool ld_check_declared_type(G *g, Node *n, Op *op); /* optional "type" */
bool ld_load_index(G *g, Node *n, Op *op);          /* optional "index" */
/* After the walker built an iterate's body: the body's output against the
 * iter args; false after reporting. */
bool ld_finish_iterate(G *g, Node *n, Op *op);

/* load_control.c: conditional (and set_symbol) */
bool ld_build_conditional(G *g, Node *n, Op *op, JV *jvs);
/* After the walker built a conditional's body: its output against the
 * else values; false after reporting. */
bool ld_finish_conditional(G *g, Node *n, Op *op);
bool ld_build_set_symbol(G *g, Node *n, Op *op, JV *jvs);
/* A node whose mapping mentions a symbol that a set_symbol of an enclosing
 * list sets depends on that set_symbol (phase 2). */
void ld_set_symbol_deps(G *g);
/* In mapping expressions of node n, each symbol set by a set_symbol in
 * scope becomes that set_symbol's per-lane symbol (Op.expr). */
void ld_mapping_set_symbols(G *g, Node *n, Mapping *m);
/* s without the dims that a set_symbol in scope of n has set (they have a
 * single position: a write drops them, as Wave does). */
Shape ld_without_set_symbols(G *g, Node *n, Shape s);
/* e with each dim whose extent a set_symbol in scope of n sets renamed to
 * that set_symbol's symbol (apply_expr's `x < N_KV`). */
Sym *ld_expr_set_extents(G *g, Node *n, Sym *e);

#endif
