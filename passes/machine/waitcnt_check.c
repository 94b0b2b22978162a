/* waitcnt_check.c — the independent s_waitcnt checker: re-derives from the
 * final instruction stream which memory operations may still be in flight
 * at every instruction, over every path of the CFG, and reports each access
 * that can observe one. It shares no code with the inserter (waitcnt.c):
 * it models operations, not counters, and registers as ranges, not slots.
 *
 * Hardware model (AMD's CDNA3 ISA guide, s_waitcnt; an LDS DMA is a VMEM
 * op): an operation is outstanding from its
 * issue until a later s_waitcnt proves it done. `s_waitcnt vmcnt(N)` proves
 * done every VMEM op (MUBUF, global_, scratch_; loads, stores and atomics
 * complete in order) with at least N VMEM ops issued after it; lgkmcnt(N)
 * every DS op with at least N DS ops after it; an SMEM op only with
 * lgkmcnt(0); a flat_ op once both vmcnt(0) and lgkmcnt(0) were seen. With
 * more ops after it than a counter can hold (63 / 15) an op is done at any
 * wait on that counter.
 *
 * Errors reported, one per (instruction, outstanding op):
 *   - an instruction reads a register an outstanding op writes;
 *   - it writes such a register, unless it is a later op of the same
 *     in-order queue (VMEM after VMEM, DS after DS), whose write lands last;
 *   - s_barrier is reached while a DS op that accesses LDS memory (not
 *     ds_swizzle/ds_permute/ds_bpermute) or an LDS DMA (a VMEM load with
 *     the lds bit, global_load_lds_*) is outstanding: other waves may read
 *     or overwrite that LDS after the barrier;
 *   - a DS op accesses LDS while an LDS DMA is outstanding (whatever the
 *     addresses: the LDS the DMA writes is not known here).
 * A reported op is then treated as done, so one missing wait is one report.
 *
 * Algorithm: the state at a program point is the set of possibly
 * outstanding (op, number of same-queue ops issued after it) pairs. Each
 * pair evolves on its own through an instruction, so the union of the
 * predecessors' exit sets at a block entry is exact for this model, and
 * iterating to a fixpoint (sets only grow, and are bounded) covers every
 * path including loop back edges. A last walk per block reports. */
#include <stdlib.h>
#include <string.h>

#include "machine.h"

typedef enum Queue { Q_VMEM, Q_DS, Q_SMEM, Q_FLAT, Q_NONE } Queue;

typedef struct Pend {
	uint32_t blk, idx; /* where the operation was issued */
	uint8_t after;     /* same-queue ops issued after it (saturates) */
	uint8_t flat_left; /* Q_FLAT: bit 0 vmcnt(0) not seen yet, bit 1 lgkmcnt(0) */
	uint16_t pad_;
} Pend;

typedef Vec(Pend) OpSet; /* sorted by (blk, idx, after, flat_left), no duplicates */

static Queue queue_of(MOp op)
{
	MClass c = isa_class(op);
	if (c == MC_SMEM)
		return Q_SMEM;
	if (c == MC_LDS)
		return Q_DS;
	if (c == MC_VMEM_LOAD || c == MC_VMEM_STORE)
		return strncmp(mop_name(op), "flat_", 5) ? Q_VMEM : Q_FLAT;
	return Q_NONE;
}

static bool accesses_lds(MOp op)
{
	const char *n = mop_name(op);
	return queue_of(op) == Q_DS && strcmp(n, "ds_swizzle_b32") && strcmp(n, "ds_permute_b32") &&
	       strcmp(n, "ds_bpermute_b32");
}

/* A VMEM op that writes LDS (buffer_load ... lds, global_load_lds_*). */
static bool writes_lds(const MInst *in)
{
	return (in->flags & MIF_LDS) || strncmp(mop_name(in->op), "global_load_lds_", 16) == 0;
}

/* A register operand as [lo, hi) in a file; false for non-registers. */
static bool range_of(MOpnd o, int *file, int *lo, int *hi)
{
	*file = RF_SGPR;
	if (o.kind == MO_PREG) {
		*file = rc_file(o.rc);
		*lo = (int)o.reg;
		*hi = *lo + rc_size(o.rc);
	} else if (o.kind == MO_VCC) {
		*lo = 106, *hi = 108;
	} else if (o.kind == MO_EXEC) {
		*lo = 126, *hi = 128;
	} else if (o.kind == MO_M0) {
		*lo = 124, *hi = 125;
	} else {
		return false;
	}
	return true;
}

static bool opnds_overlap(MOpnd a, MOpnd b)
{
	int fa, la, ha, fb, lb, hb;
	return range_of(a, &fa, &la, &ha) && range_of(b, &fb, &lb, &hb) && fa == fb && la < hb && lb < ha;
}

static int op_cmp(const void *a, const void *b)
{
	const Pend *x = a, *y = b;
	if (x->blk != y->blk)
		return x->blk < y->blk ? -1 : 1;
	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	if (x->after != y->after)
		return x->after < y->after ? -1 : 1;
	return (int)x->flat_left - (int)y->flat_left;
}

static void set_normalise(OpSet *s)
{
	if (s->len)
		qsort(s->data, s->len, sizeof *s->data, op_cmp);
	size_t n = 0;
	for (size_t i = 0; i < s->len; i++)
		if (!n || op_cmp(&s->data[n - 1], &s->data[i]))
			s->data[n++] = s->data[i];
	s->len = n;
}

/* d |= s (both normalised); returns whether d grew. */
static bool set_union(OpSet *d, const OpSet *s)
{
	size_t before = d->len;
	for (size_t i = 0; i < s->len; i++)
		vec_push(d, s->data[i]);
	set_normalise(d);
	return d->len != before;
}

typedef struct Checker {
	const MFunc *f;
	Buf *msg; /* NULL while iterating */
	int bad;
} Checker;

static const MInst *inst_at(const Checker *k, Pend o) { return &k->f->blocks.data[o.blk]->insts.data[o.idx]; }

static void report(Checker *k, size_t bi, size_t i, const char *what, Pend o)
{
	if (!k->msg)
		return;
	const MInst *in = &k->f->blocks.data[bi]->insts.data[i];
	buf_printf(k->msg, "waitcnt check: %s: block %zu inst %zu (%s) %s (%s at block %u inst %u)\n", k->f->name, bi,
		i, mop_name(in->op), what, mop_name(inst_at(k, o)->op), o.blk, o.idx);
	k->bad++;
}

/* What `in` does to one outstanding op: 0 nothing, 1 a read of its result,
 * 2 an overwrite, 3 a barrier it must precede. */
static int conflict(const Checker *k, const MInst *in, Pend o)
{
	const MInst *p = inst_at(k, o);
	Queue qp = queue_of(p->op), qi = queue_of(in->op);
	if (in->op == I_S_BARRIER && (accesses_lds(p->op) || writes_lds(p)))
		return 3;
	if (writes_lds(p) && accesses_lds(in->op))
		return 4;
	for (int w = 0; w < p->ndef; w++) {
		for (int u = 0; u < in->nuse; u++)
			if (opnds_overlap(p->def[w], in->use[u]))
				return 1;
		for (int d = 0; d < in->ndef; d++) {
			/* (A d16 load that keeps the other half is such a write
			 * too: in order, the older value has landed before it.) */
			bool in_order = qp == qi && (qp == Q_VMEM || qp == Q_DS);
			if (opnds_overlap(p->def[w], in->def[d]) && !in_order)
				return 2;
		}
	}
	return 0;
}

/* Run block bi from `set` (replaced by the exit set). */
static void walk(Checker *k, size_t bi, OpSet *set)
{
	static const char *const what[] = {"", "reads a register an outstanding load still writes",
		"overwrites a register an outstanding load still writes",
		"is a barrier reached with an LDS access outstanding",
		"accesses LDS an outstanding LDS DMA still writes"};
	const MBlock *b = k->f->blocks.data[bi];
	for (size_t i = 0; i < b->insts.len; i++) {
		const MInst *in = &b->insts.data[i];
		size_t n = 0;
		if (in->op == I_S_WAITCNT) {
			for (size_t j = 0; j < set->len; j++) {
				Pend o = set->data[j];
				Queue q = queue_of(inst_at(k, o)->op);
				bool done = (q == Q_VMEM && in->vmcnt >= 0 && o.after >= in->vmcnt) ||
					    (q == Q_DS && in->lgkmcnt >= 0 && o.after >= in->lgkmcnt) ||
					    (q == Q_SMEM && in->lgkmcnt == 0);
				if (q == Q_FLAT) {
					if (in->vmcnt == 0)
						o.flat_left &= (uint8_t)~1u;
					if (in->lgkmcnt == 0)
						o.flat_left &= (uint8_t)~2u;
					done = !o.flat_left;
				}
				if (!done)
					set->data[n++] = o;
			}
			set->len = n;
			set_normalise(set);
			continue;
		}
		/* Ops this instruction conflicts with are reported once and then
		 * treated as done. */
		for (size_t j = 0; j < set->len; j++) {
			int c = conflict(k, in, set->data[j]);
			if (!c) {
				set->data[n++] = set->data[j];
				continue;
			}
			/* One report per op, whatever its `after`: the set is sorted,
			 * and compaction never wrote past index j - 1's original. */
			if (!j || set->data[j - 1].blk != set->data[j].blk || set->data[j - 1].idx != set->data[j].idx)
				report(k, bi, i, what[c], set->data[j]);
		}
		set->len = n;
		Queue q = queue_of(in->op);
		if (q == Q_NONE)
			continue;
		for (size_t j = 0; j < set->len; j++) {
			Pend *o = &set->data[j];
			Queue oq = queue_of(inst_at(k, *o)->op);
			if (oq == q && q == Q_VMEM && o->after < 64)
				o->after++;
			if (oq == q && q == Q_DS && o->after < 16)
				o->after++;
		}
		if (in->ndef || accesses_lds(in->op) || writes_lds(in))
			vec_push(set, ((Pend){.blk = (uint32_t)bi, .idx = (uint32_t)i, .flat_left = q == Q_FLAT ? 3 : 0}));
		set_normalise(set);
	}
}

int check_waitcnt(const MFunc *f, Buf *msg)
{
	size_t nb = f->blocks.len;
	if (!nb)
		return 0;
	Checker k = {.f = f};
	OpSet *entry = xcalloc(nb, sizeof *entry);
	bool *reached = xcalloc(nb, sizeof *reached);
	OpSet cur = {0};
	reached[0] = true;
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t bi = 0; bi < nb; bi++) {
			if (!reached[bi])
				continue;
			cur.len = 0;
			for (size_t j = 0; j < entry[bi].len; j++)
				vec_push(&cur, entry[bi].data[j]);
			walk(&k, bi, &cur);
			int succ[2], ns = mfunc_succs(f, bi, succ);
			for (int s = 0; s < ns; s++) {
				grew |= !reached[succ[s]];
				reached[succ[s]] = true;
				grew |= set_union(&entry[succ[s]], &cur);
			}
		}
	}
	/* Report from the fixpoint; unreachable blocks start with nothing. */
	k.msg = msg;
	for (size_t bi = 0; bi < nb; bi++) {
		cur.len = 0;
		for (size_t j = 0; j < entry[bi].len; j++)
			vec_push(&cur, entry[bi].data[j]);
		walk(&k, bi, &cur);
	}
	for (size_t bi = 0; bi < nb; bi++)
		vec_free(&entry[bi]);
	vec_free(&cur);
	free(entry);
	free(reached);
	return k.bad;
}
