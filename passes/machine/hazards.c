/* hazards.c — wait states the hardware does not interlock, inserted as
 * s_nop over the CFG.
 *
 * The rules are the rows of hazard_rules.h (gfx942 and gfx90a numbers from
 * LLVM's GCNHazardRecognizer.cpp, MFMA pass counts from SISchedule.td): for a producer p and a later
 * consumer c, hz_need says how many wait states must separate them; the
 * soft-clause row asks for one non-memory instruction inside a run of
 * back-to-back VMEM (or SMEM) instructions.
 *
 * State at a program point: every instruction that issued fewer than
 * HZ_MAX_STATES wait states ago on some path, with the fewest wait states
 * since it over all paths (the conservative merge: the worst tail of any
 * predecessor, loop back edges included), plus the members of the current
 * VMEM and SMEM soft clauses (union over paths). Producers are named by
 * block and ordinal among the block's non-s_nop instructions, which does
 * not change when s_nops are inserted.
 *
 * Algorithm: rounds over the blocks in layout order. A block's entry state
 * is the merge of its predecessors' latest exit states; walking it, before
 * each instruction the largest shortfall over the producers in the state
 * (need - distance) is inserted as s_nop chunks of at most 8 wait states
 * (s_nop 7, as LLVM emits), then the instruction issues. Rounds repeat
 * until one inserts nothing and changes no state. Inserting only adds wait
 * states, and no consumer needs more than HZ_MAX_STATES, so this ends. In
 * straight-line code the result is minimal (each s_nop covers exactly the
 * shortfall at its consumer); at a join a later round may lengthen a
 * predecessor's tail after an s_nop was sized for the shorter one, which
 * can leave that s_nop longer than the final stream needs (never shorter).
 *
 * The independent checker is hazard_check.c. Requires: insert_waitcnt (an
 * s_waitcnt is a wait state too) and allocated registers. */
#include <stdlib.h>
#include <string.h>

#include "hazard_rules.h"
#include "machine.h"

typedef struct HEnt {
	int32_t blk, ord, dist; /* producer; wait states since it (0 for clause members) */
} HEnt;
typedef Vec(HEnt) HList;

typedef struct HState {
	HList prod, vclause, sclause;
} HState;

typedef Vec(int32_t) IdxList;

typedef struct Resolver {
	MFunc *f;
	IdxList *ords; /* per block: index of each non-s_nop instruction by ordinal */
} Resolver;

static void build_ords(Resolver *r, size_t bi)
{
	MBlock *b = r->f->blocks.data[bi];
	r->ords[bi].len = 0;
	for (size_t i = 0; i < b->insts.len; i++)
		if (b->insts.data[i].op != I_S_NOP)
			vec_push(&r->ords[bi], (int32_t)i);
}

static const MInst *inst_of(const Resolver *r, HEnt e)
{
	return &r->f->blocks.data[e.blk]->insts.data[r->ords[e.blk].data[e.ord]];
}

static int ent_cmp(const void *a, const void *b)
{
	const HEnt *x = a, *y = b;
	if (x->blk != y->blk)
		return x->blk < y->blk ? -1 : 1;
	if (x->ord != y->ord)
		return x->ord < y->ord ? -1 : 1;
	return x->dist < y->dist ? -1 : x->dist > y->dist;
}

/* Sort; keep one entry per producer, the nearest. */
static void list_normalise(HList *l)
{
	if (l->len)
		qsort(l->data, l->len, sizeof *l->data, ent_cmp);
	size_t n = 0;
	for (size_t i = 0; i < l->len; i++)
		if (!n || l->data[n - 1].blk != l->data[i].blk || l->data[n - 1].ord != l->data[i].ord)
			l->data[n++] = l->data[i];
	l->len = n;
}

static void list_append(HList *d, const HList *s)
{
	for (size_t i = 0; i < s->len; i++)
		vec_push(d, s->data[i]);
}

static bool list_eq(const HList *a, const HList *b)
{
	return a->len == b->len && (!a->len || memcmp(a->data, b->data, a->len * sizeof *a->data) == 0);
}

static bool state_eq(const HState *a, const HState *b)
{
	return list_eq(&a->prod, &b->prod) && list_eq(&a->vclause, &b->vclause) && list_eq(&a->sclause, &b->sclause);
}

static void state_copy(HState *d, const HState *s)
{
	d->prod.len = d->vclause.len = d->sclause.len = 0;
	list_append(&d->prod, &s->prod);
	list_append(&d->vclause, &s->vclause);
	list_append(&d->sclause, &s->sclause);
}

static void state_free(HState *s)
{
	vec_free(&s->prod);
	vec_free(&s->vclause);
	vec_free(&s->sclause);
}

/* n wait states pass: producers move away; those out of every rule's
 * reach are dropped. */
static void advance(HState *s, int n)
{
	size_t k = 0;
	for (size_t i = 0; i < s->prod.len; i++) {
		HEnt e = s->prod.data[i];
		e.dist += n;
		if (e.dist < HZ_MAX_STATES)
			s->prod.data[k++] = e;
	}
	s->prod.len = k;
}

/* Wait states `in` still needs in state s. */
static int shortfall(const Resolver *r, const HState *s, const MInst *in)
{
	int need = 0;
	for (size_t i = 0; i < s->prod.len; i++) {
		HazardRule rule;
		int n = hz_need(r->f->target, inst_of(r, s->prod.data[i]), in, &rule) - s->prod.data[i].dist;
		need = MAX(need, n);
	}
	int kind;
	if (hz_clause_kind(in, &kind)) {
		const HList *cl = kind == 1 ? &s->vclause : &s->sclause;
		enum { MAXM = 64 };
		const MInst *m[MAXM];
		int n = 0;
		for (size_t i = 0; i < cl->len && n < MAXM; i++)
			m[n++] = inst_of(r, cl->data[i]);
		need = MAX(need, hz_clause_need(m, n, in));
	}
	return need;
}

/* Walk block bi from s (left as the exit state), inserting s_nops.
 * Returns whether anything was inserted. The block's instructions are
 * copied into a new list with the s_nops in place, so the walk is linear
 * (inserting into the list and renumbering it per s_nop was quadratic);
 * producers are looked up in the old list, whose ordinals the new one
 * keeps (s_nops have none). */
static bool walk_block(Resolver *r, size_t bi, HState *s)
{
	MBlock *b = r->f->blocks.data[bi];
	bool inserted = false;
	build_ords(r, bi);
	Vec(MInst) out = {0};
	int32_t ord = 0;
	for (size_t i = 0; i < b->insts.len; i++) {
		MInst *in = &b->insts.data[i];
		if (in->op == I_S_NOP) {
			advance(s, (int)in->use[0].imm + 1);
			s->vclause.len = s->sclause.len = 0;
			vec_push(&out, *in);
			continue;
		}
		int need = shortfall(r, s, in);
		if (need > 0) {
			const char *note = in->note;
			while (need > 0) {
				int k = MIN(need, 8);
				MInst nop = {.op = I_S_NOP, .nuse = 1, .vmcnt = -1, .lgkmcnt = -1, .target = -1, .note = note};
				nop.use[0] = mo_imm(k - 1);
				vec_push(&out, nop);
				advance(s, k);
				need -= k;
			}
			s->vclause.len = s->sclause.len = 0;
			inserted = true;
		}
		vec_push(&out, *in);
		advance(s, 1);
		vec_push(&s->prod, ((HEnt){(int32_t)bi, ord, 0}));
		int kind;
		hz_clause_kind(in, &kind);
		if (kind == 1) {
			vec_push(&s->vclause, ((HEnt){(int32_t)bi, ord, 0}));
			s->sclause.len = 0;
		} else if (kind == 2) {
			vec_push(&s->sclause, ((HEnt){(int32_t)bi, ord, 0}));
			s->vclause.len = 0;
		} else {
			s->vclause.len = s->sclause.len = 0;
		}
		ord++;
	}
	if (inserted) {
		vec_free(&b->insts);
		b->insts.data = out.data;
		b->insts.len = out.len;
		b->insts.cap = out.cap;
		build_ords(r, bi);
	} else {
		vec_free(&out);
	}
	list_normalise(&s->prod);
	list_normalise(&s->vclause);
	list_normalise(&s->sclause);
	return inserted;
}

void resolve_hazards(MFunc *f)
{
	size_t nb = f->blocks.len;
	if (!nb)
		return;
	Resolver r = {.f = f, .ords = xcalloc(nb, sizeof(IdxList))};
	HState *entry = xcalloc(nb, sizeof *entry), *exit_ = xcalloc(nb, sizeof *exit_), in = {0}, cur = {0};
	Vec(int) *preds = xcalloc(nb, sizeof *preds);
	for (size_t bi = 0; bi < nb; bi++) {
		int succ[2], ns = mfunc_succs(f, bi, succ);
		for (int k = 0; k < ns; k++)
			vec_push(&preds[succ[k]], (int)bi);
		build_ords(&r, bi);
	}
	for (int round = 0;; round++) {
		if (round > 64 + 8 * (int)nb * HZ_MAX_STATES)
			die("resolve_hazards: no fixpoint for %s", f->name);
		bool changed = false;
		for (size_t bi = 0; bi < nb; bi++) {
			in.prod.len = in.vclause.len = in.sclause.len = 0;
			for (size_t k = 0; k < preds[bi].len; k++) {
				const HState *p = &exit_[preds[bi].data[k]];
				list_append(&in.prod, &p->prod);
				list_append(&in.vclause, &p->vclause);
				list_append(&in.sclause, &p->sclause);
			}
			list_normalise(&in.prod);
			list_normalise(&in.vclause);
			list_normalise(&in.sclause);
			changed |= round == 0 || !state_eq(&in, &entry[bi]);
			state_copy(&entry[bi], &in);
			state_copy(&cur, &in);
			changed |= walk_block(&r, bi, &cur);
			changed |= !state_eq(&cur, &exit_[bi]);
			state_copy(&exit_[bi], &cur);
		}
		if (!changed)
			break;
	}
	for (size_t bi = 0; bi < nb; bi++) {
		state_free(&entry[bi]);
		state_free(&exit_[bi]);
		vec_free(&preds[bi]);
		vec_free(&r.ords[bi]);
	}
	state_free(&in);
	state_free(&cur);
	free(entry);
	free(exit_);
	free(preds);
	free(r.ords);
}
