/* hazards.c — wait states the hardware does not interlock, inserted as
 * s_nop, and an independent checker of the final stream.
 *
 * Rules (cdna3-facts §5; one X-macro row each, read by both the resolver and
 * the checker): a writer class writes a register file, a reader class reads
 * it; the reader needs N wait states after the writer on the targets given.
 * Each instruction between them counts one wait state, `s_nop k` counts
 * k + 1. Rows built so far are the SGPR/VCC ones the compiled kernels can
 * form; the MFMA, VMEM-store-data, M0 and soft-clause rows come with the
 * instructions that create them.
 *
 * Resolver: one forward walk after register allocation and waitcnt
 * insertion, keeping per SGPR slot the wait-state count at its last VALU
 * write; before a reader that is too close, insert one s_nop covering the
 * largest shortfall. Checker: for every reader, walk backwards over the
 * final stream counting wait states to the nearest writer of each register
 * it reads; report any row whose distance is unmet. Straight-line code only.
 * Requires: insert_waitcnt (an s_waitcnt counts as a wait state too). */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

/* X(name, writer, reader, wait states, gfx942, gfx90a) */
#define HAZARD_RULES(X) \
	X("VALU writes SGPR/VCC -> VALU reads it", MC_VALU, MC_VALU, 2, 1, 0) \
	X("VALU writes SGPR -> VMEM reads it (srsrc, soffset)", MC_VALU, MC_VMEM_LOAD, 5, 1, 1) \
	X("VALU writes SGPR -> VMEM store reads it (srsrc, soffset)", MC_VALU, MC_VMEM_STORE, 5, 1, 1)

typedef struct Rule {
	const char *name;
	MClass writer, reader;
	int states;
	bool on942, on90a;
} Rule;

static const Rule rules[] = {
#define X(n, w, r, s, a, b) {n, w, r, s, a, b},
	HAZARD_RULES(X)
#undef X
};

enum { NS = 128 }; /* SGPR slots: s0..s105, vcc = 106..107 */

static int sslot(MOpnd o, int d)
{
	if (o.kind == MO_VCC)
		return 106 + d;
	if (o.kind == MO_PREG && rc_file(o.rc) == RF_SGPR)
		return (int)o.reg + d;
	return -1;
}

static int nslots(MOpnd o) { return o.kind == MO_VCC ? 2 : o.kind == MO_PREG ? rc_size(o.rc) : 0; }

static bool rule_on(const Rule *r, const Target *t)
{
	return strcmp(t->name, "gfx90a") == 0 ? r->on90a : r->on942;
}

static bool is_valu_class(MClass c) { return c == MC_VALU || c == MC_TRANS; }

static int states_of(const MInst *in) { return in->op == EI_S_NOP ? (int)in->use[0].imm + 1 : 1; }

void resolve_hazards(Compile *c)
{
	MFunc *f = c->mf;
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		MBlock *b = f->blocks.data[bi];
		long last[NS];
		for (int i = 0; i < NS; i++)
			last[i] = -1000;
		long now = 0; /* wait states issued before the current instruction */
		for (size_t i = 0; i < b->insts.len; i++) {
			MInst *in = &b->insts.data[i];
			MClass rc = mir_class(in->op);
			if (is_valu_class(rc))
				rc = MC_VALU;
			int need = 0;
			for (size_t r = 0; r < ARRAY_LEN(rules); r++) {
				if (rules[r].reader != rc || !rule_on(&rules[r], f->target))
					continue;
				for (int u = 0; u < in->nuse; u++)
					for (int d = 0; d < nslots(in->use[u]); d++) {
						int s = sslot(in->use[u], d);
						if (s >= 0)
							need = MAX(need, rules[r].states - (int)(now - last[s] - 1));
					}
			}
			if (need > 0) {
				MInst nop = {.op = EI_S_NOP, .nuse = 1, .vmcnt = -1, .lgkmcnt = -1, .note = in->note};
				nop.use[0] = mo_imm(need - 1);
				mblock_insert(b, i, nop);
				now += need;
				i++;
				in = &b->insts.data[i];
			}
			if (is_valu_class(mir_class(in->op)))
				for (int d = 0; d < in->ndef; d++)
					for (int k = 0; k < nslots(in->def[d]); k++) {
						int s = sslot(in->def[d], k);
						if (s >= 0)
							last[s] = now;
					}
			now += states_of(in);
		}
	}
}

int check_hazards(const MFunc *f, Buf *msg)
{
	int bad = 0;
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *b = f->blocks.data[bi];
		for (size_t i = 0; i < b->insts.len; i++) {
			const MInst *in = &b->insts.data[i];
			MClass rc = mir_class(in->op);
			for (size_t r = 0; r < ARRAY_LEN(rules); r++) {
				const Rule *ru = &rules[r];
				if (!rule_on(ru, f->target) || !(ru->reader == rc || (ru->reader == MC_VALU && is_valu_class(rc))))
					continue;
				for (int u = 0; u < in->nuse; u++) {
					bool reported = false; /* one report per operand, not per dword */
					for (int d = 0; d < nslots(in->use[u]) && !reported; d++) {
						int s = sslot(in->use[u], d);
						int dist = 0;
						for (size_t j = i; s >= 0 && j-- > 0 && dist < ru->states;) {
							const MInst *w = &b->insts.data[j];
							bool writes = false;
							if (is_valu_class(mir_class(w->op)))
								for (int k = 0; k < w->ndef; k++)
									for (int e = 0; e < nslots(w->def[k]); e++)
										writes |= sslot(w->def[k], e) == s;
							if (writes) {
								buf_printf(msg, "hazard check: %s: block %zu inst %zu (%s): %s: %d of %d "
										"wait states\n",
									f->name, bi, i, mop_name(in->op), ru->name, dist, ru->states);
								bad++;
								reported = true;
								break;
							}
							dist += states_of(w);
						}
					}
				}
			}
		}
	}
	return bad;
}
