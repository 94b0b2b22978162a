/* cse.c — local value numbering on virtual registers (before allocation):
 * an instruction that recomputes a value its block already holds is
 * removed (eliminate_redundant).
 *
 * Instruction selection lowers each access on its own, so one block can
 * compute the same value several times: the same `v_cmp_gt_i32 vcc, s, v`
 * before every masked load of a trip (each followed by a v_cndmask reading
 * vcc, and s_nops for the VALU-writes-VCC hazard), or the same `v_add_u32
 * v, 0x80000, w` into several registers of a prologue.
 *
 * Algorithm: per block, in order, a table of available instructions. An
 * instruction is a candidate if its row is one of a few pure VALU/SALU rows
 * (pure(): no memory, no exec write, no carry out, no DPP, no tied def,
 * operands only vregs, immediates and an explicit vcc read) or a compare
 * (VOPC, not v_cmpx). A candidate identical to an available one (same row,
 * flags, immediates and uses, defs of the same kind and class) is removed:
 *   - a compare into vcc: the vcc it would write is still there;
 *   - a definition of a vreg: when both vregs have exactly one definition
 *     in the function, every read of the later one reads the earlier one
 *     (defined before it in the same block, never redefined, so it holds
 *     the same value wherever the later one was read). A vreg defined more
 *     than once (a loop-carried register) is never touched;
 *   - a SALU row that writes SCC besides its vreg: only if SCC is written
 *     again, unread, later in the block (scc_dead_from).
 * An available entry goes away when any vreg it reads is written, when
 * vcc is written (if it reads or writes vcc), and everything goes when
 * EXEC may change (VALU results hold only the lanes of the EXEC they ran
 * under).
 *
 * Then dead definitions go (remove_dead): a pure row whose vreg nothing
 * reads, until none is left.
 *
 * Contract: virtual registers in, mir_verify-clean in and out; the same
 * values in every register every instruction reads. */
#include <stdlib.h>
#include <string.h>

#include "machine.h"

/* SALU rows that write SCC (and read none): dropped only where the SCC
 * they write is dead. */
static bool scc_row(MOp op)
{
	switch (op) {
	case I_S_ADD_U32:
	case I_S_ADD_I32:
	case I_S_SUB_U32:
	case I_S_SUB_I32:
	case I_S_LSHL_B32:
	case I_S_LSHR_B32:
	case I_S_ASHR_I32:
	case I_S_AND_B32:
	case I_S_XOR_B32:
	case I_S_MIN_I32:
	case I_S_MAX_I32:
		return true;
	default:
		return false;
	}
}

/* Rows whose result is a function of their operands (and EXEC) only. */
static bool pure_row(MOp op)
{
	switch (op) {
	case I_V_ADD_U32:
	case I_V_SUB_U32:
	case I_V_SUBREV_U32:
	case I_V_ADD3_U32:
	case I_V_MUL_LO_U32:
	case I_V_MUL_HI_U32:
	case I_V_LSHLREV_B32:
	case I_V_LSHRREV_B32:
	case I_V_ASHRREV_I32:
	case I_V_AND_B32:
	case I_V_OR_B32:
	case I_V_XOR_B32:
	case I_V_NOT_B32:
	case I_V_BFE_U32:
	case I_V_PERM_B32:
	case I_V_MIN_I32:
	case I_V_MAX_I32:
	case I_V_MIN_U32:
	case I_V_MAX_U32:
	case I_V_MOV_B32:
	case I_V_CNDMASK_B32:
	case I_V_CVT_F32_U32:
	case I_V_CVT_F32_I32:
	case I_S_MOV_B32:
	case I_S_MOV_B64:
	case I_S_MUL_I32:
	case I_S_MUL_HI_U32:
		return true;
	default:
		return scc_row(op);
	}
}

static bool is_compare(MOp op)
{
	return isa_info[op].fmt == FMT_VOPC && !(isa_info[op].flags & IF_CMPX);
}

/* May in change EXEC (v_cmpx, the saveexec rows, an exec def)? */
static bool writes_exec(const MInst *in)
{
	if ((isa_info[in->op].flags & IF_CMPX) || strstr(isa_info[in->op].name, "exec"))
		return true;
	for (int d = 0; d < in->ndef; d++)
		if (in->def[d].kind == MO_EXEC)
			return true;
	return false;
}

/* May in write vcc (an explicit vcc def, or a row that writes it in its
 * e32 form or as a VOP3b carry)? */
static bool writes_vcc(const MInst *in)
{
	if (isa_info[in->op].flags & (IF_VCCOUT | IF_VOP3B))
		return true;
	for (int d = 0; d < in->ndef; d++)
		if (in->def[d].kind == MO_VCC)
			return true;
	return false;
}

static bool reads_vcc(const MInst *in)
{
	for (int u = 0; u < in->nuse; u++)
		if (in->use[u].kind == MO_VCC)
			return true;
	return false;
}

/* Is in an instruction a later identical one may be dropped for: a pure
 * row or a compare, one def (a vreg, or vcc for a compare), uses only
 * vregs, immediates and (for a row that reads it) an explicit vcc? */
static bool candidate(const MInst *in)
{
	bool cmp = is_compare(in->op);
	if (!(cmp || pure_row(in->op)) || in->ndef != 1 || in->dpp || (in->flags & MIF_TIED))
		return false;
	if (in->def[0].kind != MO_VREG && !(cmp && in->def[0].kind == MO_VCC))
		return false;
	bool vccin = isa_info[in->op].flags & IF_VCCIN;
	for (int u = 0; u < in->nuse; u++) {
		uint8_t k = in->use[u].kind;
		if (k != MO_VREG && k != MO_IMM && !(k == MO_VCC && vccin))
			return false;
	}
	/* an e32 cndmask without its vcc operand reads vcc implicitly */
	return !vccin || (in->flags & MIF_E64) || reads_vcc(in);
}

static bool same_opnd(MOpnd a, MOpnd b)
{
	if (a.kind != b.kind)
		return false;
	switch (a.kind) {
	case MO_VREG:
		return a.reg == b.reg && a.sub == b.sub && a.rc == b.rc;
	case MO_IMM:
		return a.imm == b.imm;
	default:
		return true;
	}
}

/* Do a and b compute the same value (into defs of the same kind)? */
static bool same(const MFunc *f, const MInst *a, const MInst *b)
{
	if (a->op != b->op || a->flags != b->flags || a->offset != b->offset || a->nuse != b->nuse ||
		a->def[0].kind != b->def[0].kind || a->def[0].rc != b->def[0].rc || a->def[0].sub != b->def[0].sub)
		return false;
	if (a->def[0].kind == MO_VREG && f->vregs.data[a->def[0].reg] != f->vregs.data[b->def[0].reg])
		return false;
	for (int u = 0; u < a->nuse; u++)
		if (!same_opnd(a->use[u], b->use[u]))
			return false;
	return true;
}

/* For each position i of b, into dead[i]: is the SCC an instruction
 * before i writes overwritten, from i on, before anything may read it? Any
 * scalar row not known to leave SCC alone, or the end of the block, counts
 * as a read. One backward pass (the question asked of every position is
 * answered by the next instruction that decides it). */
static void scc_dead_from(const MBlock *b, bool *dead)
{
	dead[b->insts.len] = false;
	for (size_t j = b->insts.len; j-- > 0;) {
		MOp op = b->insts.data[j].op;
		uint8_t fmt = isa_info[op].fmt;
		bool scalar = fmt == FMT_SOP1 || fmt == FMT_SOP2 || fmt == FMT_SOPK || fmt == FMT_SOPP;
		bool leaves_scc = op == I_S_MOV_B32 || op == I_S_MOV_B64 || op == I_S_MUL_I32 || op == I_S_MUL_HI_U32 ||
				  op == I_S_WAITCNT || op == I_S_BARRIER || op == I_S_NOP;
		if (scc_row(op) || fmt == FMT_SOPC)
			dead[j] = true;
		else if (scalar && !leaves_scc)
			dead[j] = false;
		else
			dead[j] = dead[j + 1];
	}
}

/* The available instructions: a hash table of entries (chains newest
 * first) keyed by what same() compares, and, to retire entries without
 * scanning them all, the entries reading each vreg and those naming vcc.
 * An entry is valid while it is not dead and its generation is the
 * table's: a new block or an EXEC write starts a new generation, which
 * retires every entry at once. Retired entries leave the chains when a
 * lookup passes them, so a function costs time linear in its
 * instructions. */
typedef struct Entry {
	const MInst *in;
	uint32_t gen;
	bool dead;
	int next; /* the next older entry of its chain, or -1 */
} Entry;

typedef struct Link {
	int entry, next;
} Link;

typedef struct Avail {
	Vec(Entry) e;
	int *head;       /* per bucket: newest entry, or -1 */
	size_t mask;     /* buckets - 1 */
	Vec(Link) links; /* the lists below */
	int *users;      /* per vreg: links to the entries that read it, or -1 */
	uint32_t *ugen;  /* per vreg: the generation users[] belongs to */
	int vcc;         /* links to the entries reading or writing vcc */
	uint32_t gen;
} Avail;

static uint64_t mix(uint64_t h, uint64_t x) { return (h ^ x) * 0x100000001b3ull; }

/* A hash of what same() compares. */
static size_t key(const MFunc *f, const MInst *in)
{
	uint64_t h = 0xcbf29ce484222325ull;
	h = mix(h, in->op);
	h = mix(h, in->flags);
	h = mix(h, (uint32_t)in->offset);
	h = mix(h, in->nuse);
	h = mix(h, (uint64_t)in->def[0].kind << 16 | (uint64_t)in->def[0].rc << 8 | in->def[0].sub);
	if (in->def[0].kind == MO_VREG)
		h = mix(h, f->vregs.data[in->def[0].reg]);
	for (int u = 0; u < in->nuse; u++) {
		MOpnd o = in->use[u];
		h = mix(h, o.kind);
		if (o.kind == MO_VREG)
			h = mix(h, (uint64_t)o.reg << 16 | (uint64_t)o.rc << 8 | o.sub);
		else if (o.kind == MO_IMM)
			h = mix(h, (uint64_t)o.imm);
	}
	return (size_t)(h ^ h >> 29);
}

static void avail_init(Avail *av, const MFunc *f)
{
	size_t n = 0;
	for (size_t b = 0; b < f->blocks.len; b++)
		n += f->blocks.data[b]->insts.len;
	size_t buckets = 64;
	while (buckets < 2 * n)
		buckets *= 2;
	*av = (Avail){.mask = buckets - 1, .vcc = -1, .gen = 1};
	av->head = xmalloc(buckets * sizeof *av->head);
	memset(av->head, 0xff, buckets * sizeof *av->head);
	av->users = xcalloc(f->vregs.len + 1, sizeof *av->users);
	av->ugen = xcalloc(f->vregs.len + 1, sizeof *av->ugen);
}

static void avail_free(Avail *av)
{
	vec_free(&av->e);
	vec_free(&av->links);
	free(av->head);
	free(av->users);
	free(av->ugen);
}

static bool valid(const Avail *av, int e) { return !av->e.data[e].dead && av->e.data[e].gen == av->gen; }

/* Every entry available so far goes (a new block, an EXEC write). */
static void retire_all(Avail *av)
{
	av->gen++;
	av->vcc = -1;
}

static void retire_list(Avail *av, int l)
{
	for (; l >= 0; l = av->links.data[l].next)
		av->e.data[av->links.data[l].entry].dead = true;
}

static void link_push(Avail *av, int *list, int entry)
{
	vec_push(&av->links, ((Link){entry, *list}));
	*list = (int)av->links.len - 1;
}

/* Entries in makes stale go: those reading a vreg it writes, those naming
 * vcc when it may write vcc, all of them when it may write EXEC. */
static void invalidate(Avail *av, const MInst *in)
{
	if (writes_exec(in)) {
		retire_all(av);
		return;
	}
	if (writes_vcc(in)) {
		retire_list(av, av->vcc);
		av->vcc = -1;
	}
	for (int d = 0; d < in->ndef; d++) {
		uint32_t v = in->def[d].reg;
		if (in->def[d].kind != MO_VREG || av->ugen[v] != av->gen)
			continue;
		retire_list(av, av->users[v]);
		av->users[v] = -1;
	}
}

static void avail_add(const MFunc *f, Avail *av, const MInst *in)
{
	int e = (int)av->e.len;
	size_t h = key(f, in) & av->mask;
	vec_push(&av->e, ((Entry){in, av->gen, false, av->head[h]}));
	av->head[h] = e;
	if (reads_vcc(in) || in->def[0].kind == MO_VCC)
		link_push(av, &av->vcc, e);
	for (int u = 0; u < in->nuse; u++) {
		uint32_t v = in->use[u].reg;
		if (in->use[u].kind != MO_VREG)
			continue;
		if (av->ugen[v] != av->gen) {
			av->ugen[v] = av->gen;
			av->users[v] = -1;
		}
		link_push(av, &av->users[v], e);
	}
}

/* The newest valid entry computing what in computes; retired entries met
 * on the way leave the chain. */
static const MInst *lookup(const MFunc *f, Avail *av, const MInst *in)
{
	int *at = &av->head[key(f, in) & av->mask];
	while (*at >= 0) {
		Entry *en = &av->e.data[*at];
		if (!valid(av, *at)) {
			*at = en->next;
			continue;
		}
		if (same(f, en->in, in))
			return en->in;
		at = &en->next;
	}
	return NULL;
}

/* Uses of in through the renaming so far. */
static void rename_uses(MInst *in, const uint32_t *to)
{
	for (int u = 0; u < in->nuse; u++)
		if (in->use[u].kind == MO_VREG)
			in->use[u].reg = to[in->use[u].reg];
}

/* A vreg def this pass may rename or keep as an entry: the whole of a
 * vreg with one definition. */
static bool single_def(const MFunc *f, MOpnd d, const int *ndefs)
{
	return d.kind == MO_VREG && ndefs[d.reg] == 1 && d.sub == 0 && d.rc == f->vregs.data[d.reg];
}

/* Value numbering of block b: marks removed instructions in dead[] and
 * records renamed vregs in to[]; returns how many went. */
static int number_block(const MFunc *f, MBlock *b, const int *ndefs, uint32_t *to, bool *dead, Avail *av)
{
	int n = 0;
	retire_all(av);
	bool *scc_dead = xmalloc((b->insts.len + 1) * sizeof *scc_dead);
	scc_dead_from(b, scc_dead);
	for (size_t i = 0; i < b->insts.len; i++) {
		MInst *in = &b->insts.data[i];
		rename_uses(in, to);
		bool cand = candidate(in);
		const MInst *e = cand ? lookup(f, av, in) : NULL;
		bool vreg = cand && in->def[0].kind == MO_VREG;
		if (e && (!vreg || (single_def(f, in->def[0], ndefs) && single_def(f, e->def[0], ndefs))) &&
			(!scc_row(in->op) || scc_dead[i + 1])) {
			if (vreg)
				to[in->def[0].reg] = e->def[0].reg;
			dead[i] = true;
			n++;
			continue;
		}
		invalidate(av, in);
		if (cand && (!vreg || single_def(f, in->def[0], ndefs)))
			avail_add(f, av, in);
	}
	free(scc_dead);
	return n;
}

/* Dead definitions: a pure row (no memory, EXEC, VCC or DPP, not tied)
 * whose vreg nothing reads anywhere in the function, its SCC (for a SALU
 * row that writes one) dead after it, is removed, bottom-up so that a
 * chain goes in one sweep (removing one can leave its operands'
 * definitions unread). (An
 * index or address whose every use a folded mask or a moved read dropped
 * is left behind by selection.) Returns how many went. */
static int remove_dead(MFunc *f)
{
	int n = 0;
	uint32_t *uses = xcalloc(f->vregs.len + 1, sizeof *uses);
	for (size_t b = 0; b < f->blocks.len; b++)
		for (size_t i = 0; i < f->blocks.data[b]->insts.len; i++) {
			const MInst *in = &f->blocks.data[b]->insts.data[i];
			for (int u = 0; u < in->nuse; u++)
				if (in->use[u].kind == MO_VREG)
					uses[in->use[u].reg]++;
			if (in->flags & MIF_TIED) /* a tied def reads its register too */
				for (int d = 0; d < in->ndef; d++)
					if (in->def[d].kind == MO_VREG)
						uses[in->def[d].reg]++;
		}
	/* bottom-up (blocks last first, each from its end): a removed
	 * instruction gives back its operands' uses before their definitions
	 * are looked at, so a dead chain goes in one sweep; another sweep only
	 * for chains around a loop's back edge. Removing an SCC writer whose
	 * SCC was dead keeps an earlier one's dead: nothing reads SCC before
	 * the next live writer. */
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t b = f->blocks.len; b-- > 0;) {
			MBlock *bl = f->blocks.data[b];
			bool *scc_dead = xmalloc((bl->insts.len + 1) * sizeof *scc_dead);
			bool *gone = xcalloc(bl->insts.len + 1, sizeof *gone);
			scc_dead_from(bl, scc_dead);
			for (size_t i = bl->insts.len; i-- > 0;) {
				const MInst *in = &bl->insts.data[i];
				bool dead = pure_row(in->op) && in->ndef == 1 && in->def[0].kind == MO_VREG && !in->dpp &&
					    !(in->flags & MIF_TIED) && !uses[in->def[0].reg] && !writes_vcc(in) &&
					    !writes_exec(in) && (!scc_row(in->op) || scc_dead[i + 1]);
				if (!dead)
					continue;
				gone[i] = true;
				n++;
				changed = true;
				for (int u = 0; u < in->nuse; u++)
					if (in->use[u].kind == MO_VREG)
						uses[in->use[u].reg]--;
			}
			size_t k = 0;
			for (size_t i = 0; i < bl->insts.len; i++)
				if (!gone[i])
					bl->insts.data[k++] = bl->insts.data[i];
			bl->insts.len = k;
			free(gone);
			free(scc_dead);
		}
	}
	free(uses);
	return n;
}

int eliminate_redundant(MFunc *f)
{
	size_t nv = f->vregs.len;
	int *ndefs = mfunc_vreg_defs(f);
	uint32_t *to = xcalloc(nv + 1, sizeof *to);
	for (uint32_t v = 0; v <= nv; v++)
		to[v] = v;
	int n = 0;
	Avail av;
	avail_init(&av, f);
	for (size_t b = 0; b < f->blocks.len; b++) {
		MBlock *bl = f->blocks.data[b];
		bool *dead = xcalloc(bl->insts.len + 1, sizeof *dead);
		n += number_block(f, bl, ndefs, to, dead, &av);
		size_t k = 0;
		for (size_t i = 0; i < bl->insts.len; i++)
			if (!dead[i])
				bl->insts.data[k++] = bl->insts.data[i];
		bl->insts.len = k;
		free(dead);
	}
	/* reads in blocks numbered before the renaming was found */
	for (size_t b = 0; n && b < f->blocks.len; b++) {
		MBlock *bl = f->blocks.data[b];
		for (size_t i = 0; i < bl->insts.len; i++)
			rename_uses(&bl->insts.data[i], to);
	}
	avail_free(&av);
	free(to);
	free(ndefs);
	return n + remove_dead(f);
}
