/* uniform.c — the uniformity analysis: which values are the same in every
 * lane of a wave, or in every lane of every wave of a workgroup.
 *
 * Why: a conditional or a loop whose condition is the same in every lane
 * runs as a scalar branch with every lane (isel/control.c), so that loops,
 * MMAs and reductions may sit inside it; a condition that may differ
 * between lanes needs an exec mask, under which those are not compiled.
 *
 * Levels (Uniformity): U_VARYING (may differ between lanes), U_WAVE (the
 * same in every lane of one wave; waves may differ), U_WG (the same in
 * every lane of every wave of the workgroup). The level of a value is the
 * lowest of what it is made of.
 *
 * Algorithm: an optimistic fixpoint over the values. Every value starts at
 * U_WG and each pass lowers a value to the lowest level its rules allow
 * from the current levels, until no level changes (levels only fall, so it
 * ends in at most 2 * values passes; loop-carried values, which feed their
 * own next value, stay uniform only when nothing else lowers them). Rules:
 *   - a value of rank > 0 whose per-thread index (indices.c) has a
 *     work-item id ($T0-$T2) in a coordinate is varying: lanes hold other
 *     elements; a value of rank > 0 without an index is varying too;
 *   - register constants, scalar kernel arguments: U_WG; a `scalar` of an
 *     expression: U_WG unless the expression names a work-item id; a
 *     set symbol's per-lane symbol `$T_<op>` in any expression takes the
 *     level of that set_symbol's register;
 *   - self_index: by its index (above); apply_expr: its expression and
 *     operands; elementwise ops (unary, binary, compare, select, cast) and
 *     broadcast/permute: their operands;
 *   - read: the mapping's expressions and dynamic values (the address), and
 *     the memory: U_WG when nothing in the kernel stores into the buffer
 *     (or the workgroup has one wave), else U_WAVE — one load instruction
 *     reads one address for all the lanes of a wave at once, but another
 *     wave may store between two waves' loads;
 *   - an iterate's carried value (VAL_ITER_ARG) and result: its init and
 *     the body's output value; get_result: the loop's result; a
 *     conditional's result: its condition, else value and body value;
 *   - anything else (reductions, scans, MMAs, atomics, extracts, topk):
 *     varying (their results may be uniform, but nothing proves it here).
 * Values computed under an exec mask hold only the active lanes' values;
 * the users (isel/control.c) combine a uniform condition with exec, so the
 * inactive lanes do not matter. */
#include <string.h>

#include "analysis.h"

static bool is_thread_id(const Sym *e)
{
	const char *n = sym_name(e);
	return n[0] == '$' && n[1] == 'T' && n[2] >= '0' && n[2] <= '9';
}

typedef struct UCtx {
	Analysis *c;
	uint8_t *lv;    /* by value id */
	const Op **set; /* by op id: the set_symbols (to find a $T_ symbol's) */
	bool many_waves;
	bool *stored;   /* by value id: a buffer something in the kernel stores into */
} UCtx;

static uint8_t lmin(uint8_t a, uint8_t b) { return a < b ? a : b; }

/* The level of expression e: U_VARYING if it names a work-item id, the
 * level of a set symbol's register where it names one. */
static uint8_t expr_level(const UCtx *u, const Sym *e)
{
	if (!e)
		return U_WG;
	if (sym_kind(e) == SYM_SYMBOL) {
		if (is_thread_id(e))
			return U_VARYING;
		const char *n = sym_name(e);
		if (n[0] == '$' && n[1] == 'T' && n[2] == '_') {
			for (int i = 0; i < u->c->k->nops; i++) {
				const Op *s = u->set[i];
				if (s && s->expr == e)
					return u->lv[s->args[0]->id];
			}
			return U_VARYING;
		}
		return U_WG;
	}
	uint8_t l = U_WG;
	for (int i = 0; i < sym_nargs(e) && l; i++)
		l = lmin(l, expr_level(u, sym_arg(e, i)));
	return l;
}

/* U_WG when every coordinate of the op's index is free of work-item ids
 * (every lane holds the same elements), else U_VARYING. */
static uint8_t index_level(const UCtx *u, const Op *op)
{
	const NodeIndex *ix = u->c->index ? u->c->index[op->id] : NULL;
	if (!ix)
		return U_VARYING;
	for (int i = 0; i < ix->ndims; i++)
		if (expr_level(u, ix->d[i].coord) == U_VARYING || expr_level(u, ix->d[i].start) == U_VARYING)
			return U_VARYING;
	return U_WG;
}

static uint8_t args_level(const UCtx *u, const Op *op, int from, int to)
{
	uint8_t l = U_WG;
	for (int i = from; i < to && i < op->nargs; i++)
		if (op->args[i] && !value_is_memory(op->args[i]))
			l = lmin(l, u->lv[op->args[i]->id]);
	return l;
}

static uint8_t rule(const UCtx *u, const Value *v)
{
	if (v->kind == VAL_MEMORY)
		return U_WG;
	if (v->kind == VAL_ITER_ARG) {
		const Op *l = v->loop;
		if (!l || l->kind != OP_ITERATE || v->arg_idx >= l->ninit || !l->body->ops.len)
			return U_VARYING;
		const Op *out = vec_last(&l->body->ops);
		if (v->arg_idx >= out->nargs)
			return U_VARYING;
		return lmin(u->lv[l->args[v->arg_idx]->id], u->lv[out->args[v->arg_idx]->id]);
	}
	const Op *d = v->def;
	uint8_t l = U_WG;
	if (v->shape.rank && d->kind != OP_ITERATE && d->kind != OP_CONDITIONAL && d->kind != OP_GET_RESULT)
		l = index_level(u, d);
	if (!l)
		return l;
	switch (op_class(d->kind)) {
	case OPC_SOURCE:
		if (d->kind == OP_SCALAR)
			return lmin(l, d->sarg ? U_WG : expr_level(u, d->expr));
		return l; /* register; self_index: its index */
	case OPC_UNARY: case OPC_BINARY: case OPC_COMPARE: case OPC_SELECT: case OPC_CAST: case OPC_SHAPE:
		return lmin(l, args_level(u, d, 0, d->nargs));
	case OPC_INDEX:
		return lmin(lmin(l, expr_level(u, d->expr)), args_level(u, d, 0, d->nargs));
	default:
		break;
	}
	switch (d->kind) {
	case OP_READ: {
		const Value *m = d->args[0];
		if (d->mapping)
			for (int i = 0; i < d->mapping->nin; i++)
				l = lmin(l, expr_level(u, d->mapping->in_exprs[i]));
		l = lmin(l, args_level(u, d, 1, d->nargs));
		if (value_is_local(m) || (u->stored[m->id] && u->many_waves))
			l = lmin(l, U_WAVE);
		return l;
	}
	case OP_ITERATE: {
		const Op *out = d->body->ops.len ? vec_last(&d->body->ops) : NULL;
		return out && v->res_idx < out->nargs ? u->lv[out->args[v->res_idx]->id] : U_VARYING;
	}
	case OP_GET_RESULT:
		return u->lv[d->args[0]->id];
	case OP_CONDITIONAL: {
		const Op *out = d->body->ops.len ? vec_last(&d->body->ops) : NULL;
		int i = v->res_idx;
		if (!out || i >= d->ninit || i >= out->nargs)
			return U_VARYING;
		uint8_t cl = d->expr ? expr_level(u, d->expr) : u->lv[d->args[d->ninit]->id];
		return lmin(cl, lmin(u->lv[d->args[i]->id], u->lv[out->args[i]->id]));
	}
	default:
		return U_VARYING;
	}
}

void analyze_uniformity(Analysis *c)
{
	Kernel *k = c->k;
	UCtx u = {c, NULL, NULL, false, NULL};
	u.lv = arena_alloc(&c->arena, (size_t)k->nvalues + 1);
	memset(u.lv, U_WG, (size_t)k->nvalues + 1);
	u.set = ARENA_NEWN(&c->arena, const Op *, (size_t)k->nops + 1);
	memset(u.set, 0, sizeof(const Op *) * ((size_t)k->nops + 1));
	u.stored = ARENA_NEWN(&c->arena, bool, (size_t)k->nvalues + 1);
	memset(u.stored, 0, (size_t)k->nvalues + 1);
	int64_t threads = (int64_t)c->wg_size[0] * c->wg_size[1] * c->wg_size[2];
	u.many_waves = threads > 64 || threads <= 0;
	for (size_t i = 0; i < k->op_list.len; i++) {
		const Op *op = k->op_list.data[i];
		if (op->kind == OP_SET_SYMBOL && op->expr && op->nargs)
			u.set[op->id] = op;
		const Value *m = op_stores(op->kind) ? op_memory(op) : NULL;
		if (m)
			u.stored[m->id] = true;
	}
	for (int pass = 0, changed = 1; changed && pass <= 2 * k->nvalues + 2; pass++) {
		changed = 0;
		for (size_t i = 0; i < k->values.len; i++) {
			const Value *v = k->values.data[i];
			uint8_t l = lmin(u.lv[v->id], rule(&u, v));
			if (l != u.lv[v->id]) {
				u.lv[v->id] = l;
				changed = 1;
			}
		}
	}
	c->uniform = u.lv;
	c->nuniform = k->nvalues;
}

Uniformity analysis_uniformity(Analysis *c, const Value *v)
{
	if (!c->uniform || c->nuniform != c->k->nvalues) /* computed before values were added */
		analyze_uniformity(c);
	return v && v->id >= 0 && v->id < c->k->nvalues ? (Uniformity)c->uniform[v->id] : U_VARYING;
}
