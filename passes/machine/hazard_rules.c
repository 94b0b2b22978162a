/* hazard_rules.c — what each row of HAZARD_RULES (hazard_rules.h) asks of a
 * (producer, consumer) pair, for gfx942 and gfx90a.
 *
 * hz_need looks at one pair only: the resolver and the checker each find
 * the producers within HZ_MAX_STATES wait states of a consumer, on every
 * path, and ask this function about each. Where LLVM looks at the nearest
 * producer of a kind only, every producer in range is considered here —
 * never fewer wait states than LLVM, more only when an older producer with
 * a longer pipeline was overwritten by a shorter one in between.
 *
 * Registers: explicit operands plus the implicit ones the rules need — VCC
 * read by an e32 v_cndmask/v_addc (IF_VCCIN) and written by an e32
 * compare/carry (IF_VCCOUT), EXEC written by v_cmpx, and EXEC read by every
 * VMEM instruction (the VMEM row counts any SGPR it reads, EXEC included).
 * VGPR and AGPR are separate files; an MFMA's C/D may be either. */
#include <string.h>

#include "hazard_rules.h"

const char *const hazard_rule_name[HZ_COUNT] = {
#define X(id, what, a, b, src) what,
	HAZARD_RULES(X)
#undef X
};

static const int rule_942[HZ_COUNT] = {
#define X(id, what, a, b, src) a,
	HAZARD_RULES(X)
#undef X
};
static const int rule_90a[HZ_COUNT] = {
#define X(id, what, a, b, src) b,
	HAZARD_RULES(X)
#undef X
};

static bool is_942(const Target *t) { return strcmp(t->name, "gfx90a") != 0; }
/* gfx950 follows gfx942's rows (GCNHazardRecognizer tests hasGFX940Insts,
 * which gfx950 has), and an XDL MFMA's result is ready one wait state later
 * for the rows LLVM adds `IsGFX950` / `hasGFX950Insts()` to (an XDL producer
 * of more than 2 passes before a VALU, memory or MFMA reader or writer).
 * Where the exact gfx950 rule is not pinned down here the extra state is
 * taken for every XDL pass count: more s_nop than needed is slower, never
 * wrong. */
static bool is_950(const Target *t) { return strcmp(t->name, "gfx950") == 0; }

static int xdl_950(const Target *t, const MInst *p)
{
	return strcmp(t->name, "gfx950") == 0 && isa_mfma_xdl(p->op, false) ? 1 : 0;
}

/* The fixed number of a row on t, HZ_OFF if absent. */
static int fixed(const Target *t, HazardRule r) { return is_942(t) ? rule_942[r] : rule_90a[r]; }

/* Passes of an MFMA on target t: the row's (ir/isa); die() for a row
 * without a count on t. */
int hz_mfma_passes(const MInst *in, const Target *t)
{
	int p = isa_mfma_passes_fmt(in->op, !is_942(t), mi_cbsz(in), mi_blgp(in));
	if (!p)
		die("%s has no MFMA pass count on %s (ir/isa/insts.h)", mop_name(in->op), t->name);
	return p;
}

/* ---- instruction kinds ---- */
static bool is_mfma(const MInst *i) { return isa_class(i->op) == MC_MFMA; }
static bool is_valu(const MInst *i)
{
	MClass c = isa_class(i->op);
	return c == MC_VALU || c == MC_TRANS || c == MC_MFMA;
}
static bool is_vmem(const MInst *i)
{
	MClass c = isa_class(i->op);
	return c == MC_VMEM_LOAD || c == MC_VMEM_STORE;
}
static bool is_ds(const MInst *i) { return isa_class(i->op) == MC_LDS; }
static bool is_dgemm(const MInst *i) { return is_mfma(i) && isa_info[i->op].type == T_F64; }
static bool is_dot(const MInst *i) { return strncmp(mop_name(i->op), "v_dot", 5) == 0; }
static bool is_e32_implicit(const MInst *i) { return !(i->flags & MIF_E64) && !i->dpp; }
static bool is_permlane_swap(const MInst *i) { return i->op == I_V_PERMLANE16_SWAP_B32 || i->op == I_V_PERMLANE32_SWAP_B32; }
/* An LDS DMA reads M0 (its LDS address): a MUBUF load with the lds bit,
 * global_load_lds_*. */
static bool is_lds_dma(const MInst *i)
{
	return ((i->flags & MIF_LDS) && isa_info[i->op].fmt == FMT_MUBUF) || isa_lds_dma(i->op);
}
/* XDL as LLVM's isXDL: on gfx90a every non-DGEMM MFMA, on gfx942 the rows
 * flagged IF_XDL (ir/isa/insts.h). */
static bool is_xdl(const Target *t, const MInst *i) { return isa_mfma_xdl(i->op, !is_942(t)); }

/* ---- registers ---- */
typedef struct Range {
	int file, lo, hi; /* [lo, hi) in file; SGPR file holds vcc (106), m0 (124), exec (126) */
} Range;

static bool range(MOpnd o, Range *r)
{
	switch ((MOpndKind)o.kind) {
	case MO_PREG: *r = (Range){rc_file(o.rc), (int)o.reg, (int)o.reg + rc_size(o.rc)}; return true;
	case MO_VCC: *r = (Range){RF_SGPR, 106, 108}; return true;
	case MO_EXEC: *r = (Range){RF_SGPR, 126, 128}; return true;
	case MO_M0: *r = (Range){RF_SGPR, 124, 125}; return true;
	default: return false;
	}
}

static bool overlap(Range a, Range b) { return a.file == b.file && a.lo < b.hi && b.lo < a.hi; }
static bool opnd_overlap(MOpnd a, MOpnd b)
{
	Range x, y;
	return range(a, &x) && range(b, &y) && overlap(x, y);
}

static const Range R_VCC = {RF_SGPR, 106, 108}, R_EXEC = {RF_SGPR, 126, 128}, R_M0 = {RF_SGPR, 124, 125};

static bool has_explicit(const MOpnd *o, int n, MOpndKind k)
{
	for (int i = 0; i < n; i++)
		if (o[i].kind == k)
			return true;
	return false;
}

/* Does p write anything overlapping r (implicit VCC/EXEC defs included)? */
static bool writes(const MInst *p, Range r)
{
	Range x;
	for (int d = 0; d < p->ndef; d++)
		if (range(p->def[d], &x) && overlap(x, r))
			return true;
	unsigned fl = isa_info[p->op].flags;
	if ((fl & IF_VCCOUT) && is_e32_implicit(p) && !has_explicit(p->def, p->ndef, MO_VCC) && overlap(R_VCC, r))
		return true;
	if ((fl & IF_CMPX) && overlap(R_EXEC, r))
		return true;
	return false;
}

static bool writes_opnd(const MInst *p, MOpnd o)
{
	Range r;
	return range(o, &r) && writes(p, r);
}

/* Does c read VCC implicitly (e32 forms with the vcc operand left out)? */
static bool reads_vcc_implicit(const MInst *c)
{
	return (isa_info[c->op].flags & IF_VCCIN) && is_e32_implicit(c) && !has_explicit(c->use, c->nuse, MO_VCC);
}

/* Does p write any SGPR-file register c reads? (explicit uses; with
 * `vcc_implicit` also an implicit VCC read; with `exec` EXEC too). */
static bool sgpr_raw(const MInst *p, const MInst *c, bool vcc_implicit, bool exec)
{
	Range r;
	for (int u = 0; u < c->nuse; u++)
		if (range(c->use[u], &r) && r.file == RF_SGPR && writes(p, r))
			return true;
	if (vcc_implicit && reads_vcc_implicit(c) && writes(p, R_VCC))
		return true;
	return exec && writes(p, R_EXEC);
}

/* Does p write a VGPR/AGPR c reads (explicit)? */
static bool vector_raw(const MInst *p, const MInst *c)
{
	Range r;
	for (int u = 0; u < c->nuse; u++)
		if (range(c->use[u], &r) && r.file != RF_SGPR && writes(p, r))
			return true;
	return false;
}

/* The data operand of a store that exposes its data VGPRs to the next
 * VALU writes (HR createsVALUHazard): more than 64 bits, and for MUBUF no
 * register soffset. Returns the use index or -1. */
static int exposed_store_data(const MInst *p)
{
	if (isa_class(p->op) != MC_VMEM_STORE && !((isa_info[p->op].flags & IF_ATOMIC) && is_vmem(p)))
		return -1;
	int data = -1;
	bool soffset_reg = false;
	for (int u = 0; u < p->nuse; u++) {
		MOpnd o = p->use[u];
		if (o.kind != MO_PREG)
			continue;
		if (rc_file(o.rc) != RF_SGPR && rc_size(o.rc) > 2)
			data = u;
		if (rc_file(o.rc) == RF_SGPR && rc_size(o.rc) == 1)
			soffset_reg = true;
	}
	if (isa_info[p->op].fmt == FMT_MUBUF && soffset_reg)
		return -1;
	return data;
}

/* Does p write a byte or word of its VGPR above the lowest, keeping the
 * rest (LLVM's getDstSelForwardingOperand): a VOP3 row with op_sel[3] (a
 * 16-bit result in the high half, v_cvt_pk_fp8_f32's high word), gfx950's
 * scaled narrowing conversions with a nonzero destination byte (fp4:
 * op_sel[3:2]) or word (fp8: op_sel[3]). The machine IR has no SDWA. */
static bool dst_sel_forwards(const MInst *p)
{
	const IsaInfo *r = &isa_info[p->op];
	if (r->fmt != FMT_VOP3 || !p->ndef)
		return false;
	if (p->op == I_V_CVT_SCALEF32_PK_FP4_F32)
		return (p->mods & 0xc) != 0;
	return (p->mods & 8) != 0;
}

/* Does c read (explicitly, or through a tied destination) a VGPR p writes? */
static bool vector_raw_tied(const MInst *p, const MInst *c)
{
	Range r;
	return vector_raw(p, c) ||
	       ((c->flags & MIF_TIED) && c->ndef && range(c->def[0], &r) && r.file != RF_SGPR && writes(p, r));
}

static void take(int *need, HazardRule *rule, int n, HazardRule r)
{
	if (n > *need) {
		*need = n;
		*rule = r;
	}
}

/* MFMA producer p, MFMA consumer c (HR checkMAIHazards90A). */
static void mfma_to_mfma(const Target *t, const MInst *p, const MInst *c, int *need, HazardRule *rule)
{
	bool g942 = is_942(t);
	int np = hz_mfma_passes(p, t);
	bool p_d16 = is_dgemm(p) && np == 8, p_d4 = is_dgemm(p) && np == 4;
	/* uses 3 and 4 of a scaled MFMA (its scales) count as SrcA/SrcB, as
	 * LLVM's loop over every use but src2 has them */
	for (int u = 0; u < c->nuse; u++) {
		if (!opnd_overlap(p->def[0], c->use[u]))
			continue;
		if (u == 2) { /* SrcC */
			MOpnd d = p->def[0], s = c->use[2];
			bool full = d.kind == s.kind && d.reg == s.reg && d.rc == s.rc;
			int n = 0;
			if (!is_dgemm(c) && !g942 && is_dgemm(p))
				n = 0; /* 90a: SGEMM after DGEMM, not checked by LLVM */
			else if (full)
				/* Accumulation chain: 0; 2 after a 2-pass producer on 942;
				 * 4 for DGEMM 4x4 -> DGEMM 4x4. */
				n = p_d4 && is_dgemm(c) && hz_mfma_passes(c, t) == 4 ? 4 : g942 && np == 2 ? 2 : 0;
			else if (p_d16)
				n = is_xdl(t, c) ? 0 : 9;
			else if (p_d4)
				n = is_xdl(t, c) ? 0 : 4;
			else if (g942)
				/* XDL producer NP+1 (3, 5, 9, 17); other NP (2, 4, 8, 16);
				 * an XDL consumer after a non-XDL producer: 0. */
				n = is_xdl(t, c) && !is_xdl(t, p) ? 0 : is_xdl(t, p) ? np + 1 + xdl_950(t, p) : np;
			else
				/* gfx90a: 2 / 8 / 16 (SGEMM consumer), 3 / 9 / 17 (DGEMM). */
				n = is_dgemm(c) ? np + 1 : np;
			take(need, rule, n, full ? HZ_MFMA_SRCC_SAME : HZ_MFMA_SRCC_OVERLAP);
		} else { /* SrcA/SrcB */
			int n = p_d16 ? 11 : p_d4 ? 6 : g942 && !is_xdl(t, p) ? np + 2 : np + 3 + xdl_950(t, p);
			/* 942: XDL NP+3 (5, 7, 11, 19), other NP+2; 90a: 5 / 11 / 19. */
			take(need, rule, n, HZ_MFMA_SRCAB);
		}
	}
}

/* MFMA producer p, non-MFMA VALU/VMEM/DS consumer c (HR checkMAIVALUHazards). */
static void mfma_to_other(const Target *t, const MInst *p, const MInst *c, int *need, HazardRule *rule)
{
	bool g942 = is_942(t), mem = is_vmem(c) || is_ds(c);
	int np = hz_mfma_passes(p, t);
	/* RAW: DGEMM 4-pass VALU 6 / mem 9, 8-pass VALU 11 / mem 18; otherwise
	 * 942 XDL NP+3 (7 for 16x16x16 f16, 11 for 32x32x8 f16), non-XDL NP+2;
	 * 90a NP+3 (5 / 11 / 19). */
	int raw = is_dgemm(p) ? (np == 4 ? (mem ? 9 : 6) : (mem ? 18 : 11))
		  : g942 && !is_xdl(t, p) ? np + 2
					  : np + 3 + xdl_950(t, p);
	for (int u = 0; u < c->nuse; u++)
		if (opnd_overlap(p->def[0], c->use[u]))
			take(need, rule, raw, HZ_MFMA_RAW);
	/* WAW: DGEMM 6 / 11; otherwise as RAW for VALU. */
	int waw = is_dgemm(p) ? (np == 4 ? 6 : 11) : g942 && !is_xdl(t, p) ? np + 2 : np + 3 + xdl_950(t, p);
	/* WAR on SrcC: NP - 1 (1, 3, 7, 15); not after a DGEMM, and on gfx942
	 * only after an XDL MFMA. */
	bool war_on = !is_dgemm(p) && (!g942 || is_xdl(t, p)) && p->nuse > 2;
	for (int d = 0; d < c->ndef; d++) {
		if (opnd_overlap(p->def[0], c->def[d]))
			take(need, rule, waw, HZ_MFMA_WAW);
		if (war_on && opnd_overlap(p->use[2], c->def[d]))
			take(need, rule, np - 1, HZ_MFMA_WAR);
	}
}

int hz_need(const Target *t, const MInst *p, const MInst *c, HazardRule *rule)
{
	int need = 0;
	*rule = HZ_COUNT;
	bool pv = is_valu(p), cv = is_valu(c), legacy_p = pv && !is_mfma(p);
#define RULE(r, cond) \
	do { \
		int n_ = fixed(t, r); \
		if (n_ > need && (cond)) \
			take(&need, rule, n_, r); \
	} while (0)
	RULE(HZ_VALU_SGPR_VMEM, pv && is_vmem(c) && sgpr_raw(p, c, false, true));
	RULE(HZ_VALU_SGPR_LANESEL, pv && (c->op == I_V_READLANE_B32 || c->op == I_V_WRITELANE_B32) && c->nuse > 1 &&
				   c->use[1].kind == MO_PREG && writes_opnd(p, c->use[1]));
	RULE(HZ_VALU_SGPR_VALU, pv && cv && sgpr_raw(p, c, true, false));
	bool readlane = c->op == I_V_READLANE_B32 || c->op == I_V_READFIRSTLANE_B32;
	RULE(HZ_VALU_VGPR_READLANE, pv && readlane && c->nuse && writes_opnd(p, c->use[0]));
	RULE(HZ_VALU_EXEC_LANE, pv && (readlane || c->op == I_V_WRITELANE_B32) && writes(p, R_EXEC));
	RULE(HZ_TRANS_USE, isa_class(p->op) == MC_TRANS && cv && isa_class(c->op) != MC_TRANS && p->ndef &&
				   (vector_raw(p, c) || sgpr_raw(p, c, false, false)));
	RULE(HZ_DSTSEL_FWD, pv && cv && dst_sel_forwards(p) && vector_raw_tied(p, c));
	RULE(HZ_VGPR_DPP, c->dpp && vector_raw(p, c));
	RULE(HZ_VALU_EXEC_DPP, pv && c->dpp && writes(p, R_EXEC));
	RULE(HZ_VALU_VCC_DIVFMAS, pv && (c->op == I_V_DIV_FMAS_F32 || c->op == I_V_DIV_FMAS_F64) && writes(p, R_VCC));
	RULE(HZ_SETREG, p->op == I_S_SETREG_B32 && (c->op == I_S_SETREG_B32 || c->op == I_S_GETREG_B32));
	/* gfx950's swaps read both operands (the MIR lists them as uses) */
	RULE(HZ_VALU_PERMLANE, is_950(t) && pv && is_permlane_swap(c) && vector_raw(p, c));
	RULE(HZ_VALU_EXEC_PERMLANE, is_950(t) && pv && is_permlane_swap(c) && writes(p, R_EXEC));
	RULE(HZ_M0_LDS_DMA, isa_class(p->op) == MC_SALU && is_lds_dma(c) && writes(p, R_M0));
	if (cv && !is_mfma(c)) {
		int data = exposed_store_data(p);
		for (int d = 0; data >= 0 && d < c->ndef; d++)
			RULE(HZ_STORE_DATA, opnd_overlap(p->use[data], c->def[d]));
	}
	if (is_mfma(c)) {
		RULE(HZ_VALU_MFMA, legacy_p && !is_dot(p) && vector_raw(p, c));
		RULE(HZ_VALU_EXEC_MFMA, legacy_p && writes(p, R_EXEC));
		if (is_mfma(p))
			mfma_to_mfma(t, p, c, &need, rule);
	} else if (cv || is_vmem(c) || is_ds(c)) {
		if (is_mfma(p))
			mfma_to_other(t, p, c, &need, rule);
		RULE(HZ_DGEMM_FMA64, is_dgemm(p) && (c->op == I_V_FMA_F64 || c->op == I_V_FMAC_F64));
		if (is_dot(p) && p->ndef) {
			for (int u = 0; u < c->nuse; u++)
				RULE(HZ_DOT_RAW, opnd_overlap(p->def[0], c->use[u]) && (c->op != p->op || u != 2));
			for (int d = 0; d < c->ndef; d++)
				RULE(HZ_DOT_WAW, c->op != p->op && opnd_overlap(p->def[0], c->def[d]));
		}
	}
#undef RULE
	return need;
}

/* ---- soft clauses (HR checkSoftClauseHazards) ---- */

bool hz_clause_kind(const MInst *c, int *kind)
{
	*kind = is_vmem(c) ? 1 : isa_class(c->op) == MC_SMEM ? 2 : 0;
	return *kind != 0;
}

static bool defs_meet_uses(const MInst *const *m, int n)
{
	for (int i = 0; i < n; i++)
		for (int d = 0; d < m[i]->ndef; d++)
			for (int j = 0; j < n; j++)
				for (int u = 0; u < m[j]->nuse; u++)
					if (opnd_overlap(m[i]->def[d], m[j]->use[u]))
						return true;
	return false;
}

int hz_clause_need(const MInst *const *members, int n, const MInst *c)
{
	bool defs = false;
	for (int i = 0; i < n; i++)
		defs |= members[i]->ndef > 0;
	if (!defs)
		return 0; /* a clause of stores (or nothing) */
	/* A store after loads: LLVM starts a new clause at every store. */
	if (isa_class(c->op) == MC_VMEM_STORE || (isa_info[c->op].flags & IF_ATOMIC))
		return 1;
	enum { MAXM = 64 };
	const MInst *all[MAXM + 1];
	int k = 0;
	for (int i = 0; i < n && k < MAXM; i++)
		all[k++] = members[i];
	all[k++] = c;
	return defs_meet_uses(all, k) ? 1 : 0;
}
