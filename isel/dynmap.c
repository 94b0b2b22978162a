/* dynmap.c — dynamic values of index mappings (Wave's dynamic_val_mappings:
 * offsets, gathers and scatters whose memory coordinates come from another
 * tensor's elements).
 *
 * A dynamic value is a register the thread already holds (read earlier with
 * its own index). Each element of the access takes the dynamic value's
 * element at the same register coordinates (docs/kernel-format.md, "Index
 * mappings"; interp/memory.c binds it the same way): the value is gathered
 * into the access's element order (elementwise.c), and each element's
 * dword stands in the mapping's expressions as a symbol of its own,
 * `$DV<vreg>_<dword>` (isel.h), which expr.c lowers to that VGPR and treats
 * as a per-lane term. Elements that share a dword (an offset per row, read by a
 * run along the row) get the same symbol, so their distances still
 * simplify to integers and the run stays one wide access (memory.c).
 * Bounds need nothing special: the mapped coordinate's relations against
 * the memory's dims are not provable, so they become lane-mask conditions
 * and an offset outside the tensor reads 0 and drops its store, as the
 * interpreter does.
 * Only 32-bit integer values are compiled (i32, u32; both compare as
 * signed, so a u32 at 2^31 or more is out of bounds in both readings). */
#include <stdio.h>
#include <string.h>

#include "isel.h"

/* The symbol standing for dword o: an immediate is its value itself. */
static Sym *dword_sym(Isel *s, MOpnd o)
{
	SymCtx *sc = s->c->k->sc;
	if (o.kind == MO_IMM)
		return sym_int(sc, (int32_t)o.imm);
	char name[48];
	snprintf(name, sizeof name, "%s%u_%u", ISEL_DYN_PREFIX, (unsigned)o.reg, (unsigned)o.sub);
	return sym_symbol(sc, name);
}

/* Is every dim of v's shape among the access register's dims? */
static bool dims_covered(Shape v, int nreg, Sym **rdims)
{
	for (int i = 0; i < v.rank; i++) {
		bool found = false;
		for (int r = 0; r < nreg; r++)
			found |= rdims[r] == v.dims[i];
		if (!found)
			return false;
	}
	return true;
}

TVal **isel_dyn_values(Isel *s, Op *op, const Mapping *m, const NodeIndex *ix)
{
	Analysis *c = s->c;
	if (!m || !m->ndyn)
		return NULL;
	TVal **dv = ARENA_NEWN(&c->arena, TVal *, m->ndyn);
	bool rd = op->kind == OP_READ;
	int nreg = rd ? m->nout : m->nin;
	Sym **rdims = rd ? m->out_dims : m->in_dims;
	for (int d = 0; d < m->ndyn; d++) {
		Value *x = op->args[op->nargs - m->ndyn + d];
		const TVal *v = s->val[x->id];
		if (!v) {
			analysis_error(c, op->loc, "%s: dynamic value %s has no per-thread value", op->path, x->name);
			return NULL;
		}
		if (dtype_info[x->dtype].cls == DTC_FLOAT || dtype_size(x->dtype) != 4) {
			analysis_error(c, op->loc, "%s: dynamic value %s is %s: only 32-bit integer dynamic values are "
						  "compiled yet",
				op->path, x->name, dtype_name(x->dtype));
			return NULL;
		}
		/* a dim the access lacks would need Wave's dynamic_val_mappings
		 * to say which of its elements an access element takes */
		if (!dims_covered(x->shape, nreg, rdims)) {
			analysis_error(c, op->loc, "%s: dynamic value %s has a dim the mapping's register side lacks: not "
						  "compiled",
				op->path, x->name);
			return NULL;
		}
		TVal *g = isel_tval_gather(s, v, ix, op);
		if (!g)
			return NULL;
		if (g == v) { /* a private copy: its dwords are rewritten below */
			g = ARENA_NEW(&c->arena, TVal);
			*g = *v;
			g->splat = false;
			g->d = ARENA_NEWN(&c->arena, MOpnd, v->nd ? v->nd : 1);
			memcpy(g->d, v->d, sizeof(MOpnd) * (size_t)v->nd);
		}
		/* AGPR or SGPR dwords into VGPRs, so each symbol names a VGPR */
		for (int i = 0; i < g->nd; i++)
			if (g->d[i].kind != MO_IMM)
				g->d[i] = isel_expr_to_vgpr(s, isel_vgpr(s, g->d[i]));
		dv[d] = g;
	}
	return dv;
}

int isel_dyn_bind(Isel *s, const Mapping *m, TVal *const *dv, int64_t e, Sym **from, Sym **to)
{
	if (!m || !dv)
		return 0;
	for (int d = 0; d < m->ndyn; d++) {
		from[d] = m->dyn[d];
		to[d] = dword_sym(s, dv[d]->d[isel_elem_dword(dv[d], e)]);
	}
	return m->ndyn;
}
