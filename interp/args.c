/* args.c — the interpreter's kernel argument buffers: shapes evaluated from
 * the symbol values and the dynamic symbols, zeroed allocation, .npy input
 * and output (util/npy.h, checked dtype and shape), and the seeded random
 * generator documented in docs/interpreter.md so that anyone can reproduce
 * the inputs of `wavecc interp --random SEED`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/graph.h"
#include "../util/npy.h"
#include "interp.h"

/* Largest buffer the interpreter allocates for one argument. */
#define MAX_ARG_BYTES ((uint64_t)1 << 32)

Sym *interp_subs(Kernel *k, Sym *e)
{
	/* The values as written, substituted to a fixed point (the frontend
	 * rejects cycles, so at most one round per symbol plus one). No
	 * simplification: the interpreter evaluates exactly what was written. */
	int n = 0;
	Sym **from = xmalloc(sizeof(Sym *) * (k->syms.len + 1));
	Sym **to = xmalloc(sizeof(Sym *) * (k->syms.len + 1));
	for (size_t i = 0; i < k->syms.len; i++) {
		KSymbol *s = &k->syms.data[i];
		if ((s->kind == SYMK_VALUE || s->kind == SYMK_ALIAS) && s->value && s->value != s->sym) {
			from[n] = s->sym;
			to[n] = s->value;
			n++;
		}
	}
	for (size_t round = 0; n && round <= k->syms.len; round++) {
		Sym *next = sym_subs(k->sc, e, n, from, to);
		if (next == e)
			break;
		e = next;
	}
	free(from);
	free(to);
	return e;
}

/* Does the kernel read memory v (8-bit integers) only to bitcast it to MX
 * scales (f8e8m0fnu), as Wave declares its scale tensors? */
static bool mx_scale_buffer(const Kernel *k, const Value *v)
{
	if (dtype_size(v->dtype) != 1 || dtype_is_float(v->dtype))
		return false;
	bool scale = false;
	for (size_t i = 0; i < k->op_list.len; i++) {
		const Op *op = k->op_list.data[i];
		if (!op || op->kind != OP_BITCAST || op->nargs < 1 || !op->args[0])
			continue;
		const Value *x = op->args[0];
		if (x->kind != VAL_RESULT || !x->def || x->def->kind != OP_READ || x->def->args[0] != v)
			continue;
		if (op_result(op)->dtype != DT_F8E8M0FNU)
			return false;
		scale = true;
	}
	return scale;
}

int interp_init(Interp *in, Kernel *k, const int64_t *dyn_vals, Diag *d)
{
	memset(in, 0, sizeof *in);
	in->k = k;
	in->diag = d;
	size_t nd = k->dyn_syms.len;
	in->dyn = xcalloc(nd ? nd : 1, sizeof(int64_t));
	Sym **syms = xcalloc(nd ? nd : 1, sizeof(Sym *));
	for (size_t i = 0; i < nd; i++) {
		in->dyn[i] = dyn_vals[i];
		syms[i] = k->dyn_syms.data[i];
	}
	in->nargs = (int)(k->args.len + k->scalar_args.len);
	in->args = xcalloc(in->nargs ? (size_t)in->nargs : 1, sizeof(InterpArg));
	int rc = 0;
	/* the compiler assumes 0 <= value <= kernel_runtime_max
	 * (passes/graph/indices.c) */
	for (size_t i = 0; i < nd && rc == 0; i++) {
		int64_t max = kernel_runtime_max(k, syms[i]);
		if (in->dyn[i] < 0 || in->dyn[i] > max) {
			diag_error(d, kernel_symbol(k, sym_name(syms[i]))->loc,
				"interp: runtime %s %s = %lld: from 0 to %s (%lld)",
				max == GRAPH_MAX_RUNTIME_SIZE ? "size of dim" : "value of", sym_name(syms[i]),
				(long long)in->dyn[i], max == GRAPH_MAX_RUNTIME_SIZE ? "2^31 - 2^16" : "2^31 - 1", (long long)max);
			rc = -1;
		}
	}
	for (int i = 0; i < (int)k->args.len && rc == 0; i++) {
		const Value *v = k->args.data[i];
		InterpArg *a = &in->args[i];
		a->mem = v;
		a->name = v->name;
		a->dtype = v->dtype;
		a->rank = v->shape.rank;
		a->count = 1;
		a->mx_scale = mx_scale_buffer(k, v);
		if (a->rank > IT_MAX_RANK) {
			diag_error(d, v->loc, "interp: argument %s has rank %d, more than %d", v->name, a->rank,
				IT_MAX_RANK);
			rc = -1;
			break;
		}
		for (int j = 0; j < a->rank; j++) {
			SymRat q;
			const char *msg = NULL;
			Sym *e = interp_subs(k, v->shape.dims[j]);
			if (sym_eval(k->sc, e, (int)nd, syms, in->dyn, &q, &msg) < 0 || q.q != 1 || q.p < 0) {
				diag_error(d, v->loc, "interp: argument %s: dim %s does not evaluate to a size%s%s",
					v->name, sym_name(v->shape.dims[j]), msg ? ": " : "", msg ? msg : "");
				rc = -1;
				break;
			}
			a->shape[j] = q.p;
			if (q.p && a->count > MAX_ARG_BYTES / (uint64_t)q.p) {
				diag_error(d, v->loc, "interp: argument %s is too large", v->name);
				rc = -1;
				break;
			}
			a->count *= (uint64_t)q.p;
		}
		if (rc == 0 && a->count * (uint64_t)dtype_size(a->dtype) > MAX_ARG_BYTES) {
			diag_error(d, v->loc, "interp: argument %s is too large", v->name);
			rc = -1;
		}
		if (rc == 0)
			a->data = xcalloc(a->count ? a->count : 1, (size_t)dtype_size(a->dtype));
	}
	free(syms);
	for (size_t j = 0; j < k->scalar_args.len && rc == 0; j++) {
		const Value *v = op_result(k->scalar_args.data[j]);
		InterpArg *a = &in->args[k->args.len + j];
		a->mem = v;
		a->name = v->name;
		a->dtype = v->dtype;
		a->rank = 0;
		a->count = 1;
		a->scalar = true;
		a->data = xcalloc(1, (size_t)dtype_size(a->dtype));
	}
	return rc;
}

void interp_free(Interp *in)
{
	for (int i = 0; in->args && i < in->nargs; i++) {
		free(in->args[i].data);
		free(in->args[i].written);
	}
	free(in->args);
	free(in->dyn);
	memset(in, 0, sizeof *in);
}

InterpArg *interp_arg(Interp *in, const char *name)
{
	for (int i = 0; i < in->nargs; i++)
		if (strcmp(in->args[i].name, name) == 0)
			return &in->args[i];
	return NULL;
}

/* splitmix64: a fixed, documented sequence. */
static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void interp_fill_random(InterpArg *a, uint64_t seed, int position)
{
	uint64_t s = seed * 0x100000001b3ull + (uint64_t)position;
	for (uint64_t i = 0; i < a->count; i++) {
		uint64_t r = splitmix(&s) >> 32;
		double v;
		if (a->mx_scale) {
			v = 123.0 + (double)(r % 9); /* the e8m0 codes of 2^-4 .. 2^4 */
			dtype_store(a->dtype, a->data, i, v > 127.0 && a->dtype == DT_I8 ? v - 256.0 : v);
			continue;
		}
		switch (dtype_info[a->dtype].cls) {
		case DTC_FLOAT: v = (double)(int64_t)(r % 256) / 64.0 - 2.0; break;
		case DTC_INT: v = a->dtype == DT_I1 ? (double)(r % 2) : (double)(int64_t)(r % 16) - 8.0; break;
		default: v = (double)(r % 16); break;
		}
		dtype_store(a->dtype, a->data, i, v);
	}
}

int interp_set_scalar(InterpArg *a, const char *text, char *err, size_t err_len)
{
	char *end;
	errno = 0;
	double v;
	if (dtype_is_float(a->dtype)) {
		v = strtod(text, &end);
	} else {
		long long i = strtoll(text, &end, 0);
		v = (double)i;
		if (errno == 0 && *end == 0 && (long long)v != i) {
			snprintf(err, err_len, "%s: %s is not exact in a double", a->name, text);
			return -1;
		}
	}
	if (end == text || *end || errno) {
		snprintf(err, err_len, "%s: '%s' is not %s", a->name, text,
			dtype_is_float(a->dtype) ? "a number" : "an integer");
		return -1;
	}
	dtype_store(a->dtype, a->data, 0, v);
	if (!dtype_is_float(a->dtype) && dtype_load(a->dtype, a->data, 0) != v) {
		snprintf(err, err_len, "%s: %s does not fit %s", a->name, text, dtype_name(a->dtype));
		return -1;
	}
	return 0;
}

int interp_load_npy(InterpArg *a, const char *path, char *err, size_t err_len)
{
	NpyArray arr;
	if (npy_read(path, &arr, err, err_len) < 0)
		return -1;
	if (npy_check(&arr, a->name, a->dtype, a->rank, a->shape, err, err_len) < 0) {
		npy_free(&arr);
		return -1;
	}
	memcpy(a->data, arr.data, a->count * (uint64_t)dtype_size(a->dtype));
	npy_free(&arr);
	return 0;
}

int interp_save_npy(const InterpArg *a, const char *path, char *err, size_t err_len)
{
	return npy_write(path, a->dtype, a->rank, a->shape, a->data, err, err_len);
}
