/* mir.c — machine IR construction, the per-instruction properties derived
 * from the shared instruction table, targets, and the structural verifier.
 *
 * Class and latency come from a row's format and flags (IsaInfo in
 * ir/isa/insts.h) so the compiler reads the same rows as the emulator's
 * decoder; the latencies are a coarse model (AMD's CDNA3 ISA guide: VALU 4-cycle
 * issue over 64 lanes, SMEM/VMEM/LDS variable) until measured per row.
 *
 * The verifier runs between passes in the pipeline (driver/pipeline.c): it
 * checks operand counts and register widths against the row, that vreg
 * operands stay inside their vreg's class, that branch targets are block
 * indices and branches end their blocks, that every vreg dword read is
 * defined on every path from the entry (a forward must-analysis over the
 * CFG, check_defined), and after allocation that physical registers fit the
 * target's files and alignment. */
#include <stdlib.h>
#include <string.h>

#include "mir.h"

/* Every target ID the compiler knows, as const data: the processor's
 * limits, with each combination of the two features. The generated code
 * is right whatever the features say (no d16 loads, whose unloaded half
 * SRAM ECC zeroes; the XNACK soft-clause rule is applied always, see
 * passes/machine/hazard_rules.h), so a bare processor, which the runtime loads in
 * any mode, is the default; a named feature is declared as given. */
#define TGT(proc, feat, sr, xn) \
	{.name = proc, .id = proc feat, .triple = "amdgcn-amd-amdhsa--" proc feat, .sramecc = sr, .xnack = xn, \
	 .sgprs = 102, /* VCC excluded */ .vgprs = 512, /* unified VGPR+AGPR file; arch VGPRs up to 256 */ \
	 .agprs = 256, .lds_bytes = 65536, .vgpr_tuple_align = true}
#define TGT_FEATURES(proc) \
	TGT(proc, "", 0, 0), TGT(proc, ":xnack+", 0, 1), TGT(proc, ":xnack-", 0, -1), \
	TGT(proc, ":sramecc+", 1, 0), TGT(proc, ":sramecc+:xnack+", 1, 1), TGT(proc, ":sramecc+:xnack-", 1, -1), \
	TGT(proc, ":sramecc-", -1, 0), TGT(proc, ":sramecc-:xnack+", -1, 1), TGT(proc, ":sramecc-:xnack-", -1, -1)
#define TGT_950(feat, sr, xn) \
	{.name = "gfx950", .id = "gfx950" feat, .triple = "amdgcn-amd-amdhsa--gfx950" feat, .sramecc = sr, \
	 .xnack = xn, .sgprs = 102, .vgprs = 512, .agprs = 256, .lds_bytes = 163840, .vgpr_tuple_align = true}
/* gfx950 (CDNA4, MI350/MI355X): gfx942's files, 160 KiB of LDS a workgroup may take whole (AMD CDNA4 ISA
 * guide; LLVM's AMDGPU backend: addressable LDS 163840 for gfx950) */
#define TGT_950_FEATURES \
	TGT_950("", 0, 0), TGT_950(":xnack+", 0, 1), TGT_950(":xnack-", 0, -1), TGT_950(":sramecc+", 1, 0), \
	TGT_950(":sramecc+:xnack+", 1, 1), TGT_950(":sramecc+:xnack-", 1, -1), TGT_950(":sramecc-", -1, 0), \
	TGT_950(":sramecc-:xnack+", -1, 1), TGT_950(":sramecc-:xnack-", -1, -1)
static const Target targets[] = {TGT_FEATURES("gfx942"), TGT_FEATURES("gfx90a"), TGT_950_FEATURES};
const Target target_gfx942 = TGT("gfx942", "", 0, 0);
const Target target_gfx90a = TGT("gfx90a", "", 0, 0);
const Target target_gfx950 = TGT_950("", 0, 0);

const Target *target_from_name(const char *mcpu)
{
	if (!mcpu)
		return &targets[0];
	for (size_t i = 0; i < ARRAY_LEN(targets); i++)
		if (strcmp(mcpu, targets[i].id) == 0)
			return &targets[i];
	return NULL;
}

const Target *target_at(size_t i)
{
	return i < ARRAY_LEN(targets) ? &targets[i] : NULL;
}

int rc_align(RegClass rc, const Target *t)
{
	int n = rc_size(rc);
	if (rc_file(rc) == RF_SGPR)
		return n >= 4 ? 4 : n >= 2 ? 2 : 1; /* SGPR tuples: pairs even, quads and up 4-aligned */
	return n >= 2 && t->vgpr_tuple_align ? 2 : 1;
}

MFunc *mfunc_new(const char *name, const Target *t)
{
	MFunc *f = xcalloc(1, sizeof *f);
	f->name = name;
	f->target = t;
	return f;
}

void mfunc_free(MFunc *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->blocks.len; i++) {
		vec_free(&f->blocks.data[i]->insts);
		free(f->blocks.data[i]);
	}
	vec_free(&f->blocks);
	vec_free(&f->vregs);
	free(f);
}

MBlock *mfunc_block(MFunc *f, const char *label)
{
	MBlock *b = xcalloc(1, sizeof *b);
	b->label = label;
	vec_push(&f->blocks, b);
	return b;
}

int *mfunc_vreg_defs(const MFunc *f)
{
	int *n = xcalloc(f->vregs.len + 1, sizeof *n);
	for (size_t b = 0; b < f->blocks.len; b++) {
		const MBlock *bl = f->blocks.data[b];
		for (size_t i = 0; i < bl->insts.len; i++)
			for (int d = 0; d < bl->insts.data[i].ndef; d++)
				if (bl->insts.data[i].def[d].kind == MO_VREG)
					n[bl->insts.data[i].def[d].reg]++;
	}
	return n;
}

uint32_t mfunc_vreg(MFunc *f, RegClass rc)
{
	check_that(rc_size(rc) >= 1 && rc_size(rc) <= 16);
	vec_push(&f->vregs, rc);
	return (uint32_t)(f->vregs.len - 1);
}

MInst *mblock_add(MBlock *b, MOp op, int ndef, const MOpnd *defs, int nuse, const MOpnd *uses)
{
	check_that(op > I_UNKNOWN && op < I_COUNT);
	check_that(ndef >= 0 && ndef <= MI_MAX_DEFS && nuse >= 0 && nuse <= MI_MAX_USES);
	MInst in = {.op = op, .ndef = (uint8_t)ndef, .nuse = (uint8_t)nuse, .vmcnt = -1, .lgkmcnt = -1, .target = -1};
	for (int i = 0; i < ndef; i++)
		in.def[i] = defs[i];
	for (int i = 0; i < nuse; i++)
		in.use[i] = uses[i];
	vec_push(&b->insts, in);
	return &vec_last(&b->insts);
}

MInst *mblock_insert(MBlock *b, size_t i, MInst in)
{
	check_that(i <= b->insts.len);
	vec_grow(&b->insts, 1);
	memmove(&b->insts.data[i + 1], &b->insts.data[i], (b->insts.len - i) * sizeof(MInst));
	b->insts.data[i] = in;
	b->insts.len++;
	return &b->insts.data[i];
}

MInst *mblock_branch(MBlock *b, MOp op, int target)
{
	check_that(mop_is_branch(op) && target >= 0);
	MInst *in = mblock_add(b, op, 0, NULL, 0, NULL);
	in->target = target;
	return in;
}

bool mop_is_branch(MOp op) { return isa_class(op) == MC_BRANCH && op != I_S_SWAPPC_B64; }

bool mop_is_uncond_branch(MOp op) { return op == I_S_BRANCH || op == I_S_SETPC_B64; }

static bool is_vgpr(MOpnd o) { return mo_is_reg(o) && rc_file(o.rc) == RF_VGPR; }

/* Does llvm-mc take the VOP3 form of a VOP1/VOP2/VOPC row printed without
 * a suffix? When an operand does not fit the 32-bit form: src1 of a VOP2
 * row not a VGPR, a compare's or carry's result not in vcc, a carry-in or
 * condition not read from vcc. */
static bool takes_vop3(const MInst *in)
{
	const IsaInfo *r = &isa_info[in->op];
	if (r->fmt == FMT_VOP2 && in->nuse >= 2 && !is_vgpr(in->use[1]))
		return true;
	if (r->fmt == FMT_VOPC && in->ndef && in->def[0].kind != MO_VCC && !(r->flags & IF_CMPX))
		return true;
	for (int d = 1; d < in->ndef; d++)
		if (in->def[d].kind != MO_VCC)
			return true;
	if (r->flags & IF_VCCIN)
		for (int u = 2; u < in->nuse; u++)
			if (in->use[u].kind != MO_VCC)
				return true;
	return false;
}

int mir_inst_bytes(const MInst *in)
{
	const IsaInfo *r = &isa_info[in->op];
	bool literal = in->flags & (MIF_PCREL_LO | MIF_PCREL_HI);
	for (int u = 0; u < in->nuse; u++)
		if (in->use[u].kind == MO_IMM && (in->use[u].imm < -16 || in->use[u].imm > 64))
			literal = true; /* outside the integer inline constants */
	switch ((IsaFormat)r->fmt) {
	case FMT_SOPP:
	case FMT_SOPK: /* a 16-bit immediate inside the word */
		return 4;
	case FMT_SOP1:
	case FMT_SOP2:
	case FMT_SOPC:
		return literal ? 8 : 4;
	case FMT_VOP1:
	case FMT_VOP2:
	case FMT_VOPC:
		if (in->op == I_V_MADMK_F32 || in->op == I_V_MADAK_F32 || in->op == I_V_FMAMK_F32 ||
			in->op == I_V_FMAAK_F32)
			return 8; /* the constant K is always a literal */
		return (in->flags & MIF_E64) || in->dpp || literal || takes_vop3(in) ? 8 : 4;
	default: /* SMEM, VOP3, VOP3P, DS, MUBUF, FLAT: 64-bit words (gfx9 VOP3 takes no literal);
		  * a scaled MFMA is two (VOP3PX2) */
		return (r->flags & IF_MSCALE) ? 16 : 8;
	}
}

int mfunc_succs(const MFunc *f, size_t bi, int succ[2])
{
	const MBlock *b = f->blocks.data[bi];
	int n = 0;
	const MInst *last = b->insts.len ? &vec_last(&b->insts) : NULL;
	if (last && mop_is_branch(last->op) && last->target >= 0)
		succ[n++] = last->target;
	bool falls = !last || (last->op != I_S_ENDPGM && !mop_is_uncond_branch(last->op));
	if (falls && bi + 1 < f->blocks.len && !(n && succ[0] == (int)bi + 1))
		succ[n++] = (int)bi + 1;
	return n;
}

/* Stores, compares into SCC and SOPP rows write no register; a VOP3b row
 * writes its result and a carry or condition pair; every other row with a
 * destination writes one. isel builds instructions this way, the printer
 * lists defs first, and the parser splits operands by it. */
int mir_ndef(MOp op, uint32_t flags)
{
	const IsaInfo *r = &isa_info[op];
	/* a MUBUF atomic writes its data register only when it returns */
	if (r->fmt == FMT_MUBUF && (r->flags & IF_ATOMIC))
		return (flags & MIF_GLC) ? 1 : 0;
	if ((flags & MIF_LDS) || isa_lds_dma(op)) /* an LDS DMA writes LDS, no register */
		return 0;
	if (op == I_V_PERMLANE16_SWAP_B32 || op == I_V_PERMLANE32_SWAP_B32)
		return 2; /* both operands written (and read: the same two as uses) */
	/* a DS atomic returns the old value in its _rtn form only */
	if (r->fmt == FMT_DS && (r->flags & IF_ATOMIC))
		return (r->flags & IF_LOAD) ? 1 : 0;
	if (r->dst == 0 || (r->flags & IF_STORE) || r->fmt == FMT_SOPP || r->fmt == FMT_SOPC)
		return 0;
	return (r->flags & IF_VOP3B) ? 2 : 1;
}

const char *mop_name(MOp op)
{
	check_that(op < I_COUNT);
	return isa_info[op].name;
}

/* ---- verifier ---- */

static void vfail(Buf *msg, int *n, const MFunc *f, size_t bi, size_t ii, const char *what)
{
	buf_printf(msg, "mir verify: %s: block %zu inst %zu (%s): %s\n", f->name, bi, ii,
		mop_name(f->blocks.data[bi]->insts.data[ii].op), what);
	(*n)++;
}

static bool same_sreg(MOpnd a, int file_reg)
{
	return a.kind == MO_PREG && rc_file(a.rc) == RF_SGPR && rc_size(a.rc) == 1 && (int)a.reg == file_reg;
}

/* Is the s_setpc_b64 at ii of b the end of a long branch (mir.h): getpc,
 * add, addc and setpc on one allocated SGPR pair, both adds naming the
 * setpc's target? */
static bool long_branch_ok(const MBlock *b, size_t ii)
{
	if (ii < 3)
		return false;
	const MInst *g = &b->insts.data[ii - 3], *lo = g + 1, *hi = g + 2, *set = g + 3;
	if (g->op != I_S_GETPC_B64 || lo->op != I_S_ADD_U32 || hi->op != I_S_ADDC_U32 || g->ndef != 1 ||
		set->nuse != 1 || lo->nuse != 2 || hi->nuse != 2)
		return false;
	MOpnd pr = g->def[0];
	if (pr.kind != MO_PREG || rc_file(pr.rc) != RF_SGPR || rc_size(pr.rc) != 2 || pr.reg % 2)
		return false;
	int r = (int)pr.reg;
	return set->use[0].kind == MO_PREG && set->use[0].rc == pr.rc && set->use[0].reg == pr.reg &&
	       (lo->flags & MIF_PCREL_LO) && (hi->flags & MIF_PCREL_HI) && lo->target == set->target &&
	       hi->target == set->target && same_sreg(lo->def[0], r) && same_sreg(lo->use[0], r) &&
	       same_sreg(hi->def[0], r + 1) && same_sreg(hi->use[0], r + 1);
}

/* Expected register width of def/use slot i for ALU rows, 0 to skip: the
 * row's, an f8f6f4 MFMA's A and B by their formats, a scaled MFMA's scale
 * registers one. */
static int slot_width(const MInst *in, bool def, int i)
{
	const IsaInfo *r = &isa_info[in->op];
	if (r->fmt == FMT_SOPP || r->fmt == FMT_SMEM || r->fmt == FMT_MUBUF || r->fmt == FMT_FLAT || r->fmt == FMT_DS)
		return 0;
	if (def)
		return i == 0 ? r->dst : 0;
	if ((r->flags & IF_F8F6F4) && i < 2)
		return isa_f8f6f4_dwords(i == 0 ? mi_cbsz(in) : mi_blgp(in));
	if ((r->flags & IF_MSCALE) && i >= 3)
		return 1;
	return i < 3 ? r->src[i] : 0;
}

/* A vreg operand names dwords inside its vreg, in the vreg's file. */
static bool vreg_access_ok(const MFunc *f, MOpnd o)
{
	if (o.reg >= f->vregs.len)
		return false;
	RegClass rc = f->vregs.data[o.reg];
	return rc_file(o.rc) == rc_file(rc) && o.sub + rc_size(o.rc) <= rc_size(rc) && rc_size(o.rc) >= 1;
}

/* Definedness on every path, per vreg dword: a forward must-analysis.
 * def[b] = dwords some instruction of b writes (a partial or tied def
 * defines just the dwords it writes); in[entry] = {}, in[b] = the
 * intersection of out[p] over predecessors p, out[b] = in[b] | def[b],
 * starting from "all defined" everywhere but the entry so loops reach the
 * greatest fixpoint: a loop-carried value defined before the loop is defined
 * at the loop top although the back edge carries it too. Unreachable blocks
 * keep "all defined" and are never reported. Every path, not some path: a
 * read that one path reaches undefined reads garbage on that path, which is
 * always a bug in the code isel makes. */
static int check_defined(const MFunc *f, Buf *msg)
{
	size_t nv = f->vregs.len, nb = f->blocks.len;
	uint32_t *base = xmalloc((nv + 1) * sizeof *base);
	uint32_t nd = 0;
	for (size_t v = 0; v < nv; v++) {
		base[v] = nd;
		nd += (uint32_t)rc_size(f->vregs.data[v]);
	}
	size_t w = nd / 64 + 1;
	uint64_t *in = xmalloc((nb * w + 1) * sizeof *in), *def = xcalloc(nb * w + 1, sizeof *def);
	uint64_t *cur = xmalloc(w * sizeof *cur);
	/* predecessors, CSR */
	size_t *pstart = xcalloc(nb + 2, sizeof *pstart), *preds = xmalloc((2 * nb + 1) * sizeof *preds);
	for (size_t bi = 0; bi < nb; bi++) {
		int s[2];
		int m = mfunc_succs(f, bi, s);
		for (int j = 0; j < m; j++)
			pstart[s[j] + 1]++;
	}
	for (size_t bi = 0; bi < nb; bi++)
		pstart[bi + 1] += pstart[bi];
	size_t *fill = xmalloc((nb + 1) * sizeof *fill);
	memcpy(fill, pstart, (nb + 1) * sizeof *fill);
	for (size_t bi = 0; bi < nb; bi++) {
		int s[2];
		int m = mfunc_succs(f, bi, s);
		for (int j = 0; j < m; j++)
			preds[fill[s[j]]++] = bi;
	}
	for (size_t bi = 0; bi < nb; bi++) {
		const MBlock *b = f->blocks.data[bi];
		memset(in + bi * w, bi ? 0xff : 0, w * sizeof *in);
		for (size_t ii = 0; ii < b->insts.len; ii++) {
			const MInst *x = &b->insts.data[ii];
			for (int d = 0; d < x->ndef; d++)
				if (x->def[d].kind == MO_VREG && vreg_access_ok(f, x->def[d]))
					for (int k = 0; k < rc_size(x->def[d].rc); k++) {
						uint32_t s = base[x->def[d].reg] + x->def[d].sub + (uint32_t)k;
						def[bi * w + s / 64] |= (uint64_t)1 << (s % 64);
					}
		}
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t bi = 1; bi < nb; bi++) {
			if (pstart[bi] == pstart[bi + 1])
				continue; /* unreachable (no predecessor): stays "all defined" */
			for (size_t i = 0; i < w; i++) {
				uint64_t x = ~(uint64_t)0;
				for (size_t p = pstart[bi]; p < pstart[bi + 1]; p++) {
					size_t q = preds[p];
					x &= in[q * w + i] | def[q * w + i];
				}
				if (x != in[bi * w + i]) {
					in[bi * w + i] = x;
					changed = true;
				}
			}
		}
	}
	int n = 0;
	for (size_t bi = 0; bi < nb; bi++) {
		const MBlock *b = f->blocks.data[bi];
		memcpy(cur, in + bi * w, w * sizeof *cur);
		for (size_t ii = 0; ii < b->insts.len; ii++) {
			const MInst *x = &b->insts.data[ii];
			for (int k = 0; k < x->nuse + 1; k++) {
				/* k == nuse: a tied def reads the dwords it keeps */
				MOpnd o = k < x->nuse ? x->use[k] : (x->flags & MIF_TIED) && x->ndef ? x->def[0] : mo_imm(0);
				if (o.kind != MO_VREG || !vreg_access_ok(f, o))
					continue;
				for (int d = 0; d < rc_size(o.rc); d++) {
					uint32_t s = base[o.reg] + o.sub + (uint32_t)d;
					if (!(cur[s / 64] >> (s % 64) & 1)) {
						char what[160];
						snprintf(what, sizeof what,
							"reads %%%u (dword %d) before any definition on some path from the entry",
							o.reg, o.sub + d);
						vfail(msg, &n, f, bi, ii, what);
						break;
					}
				}
			}
			for (int d = 0; d < x->ndef; d++)
				if (x->def[d].kind == MO_VREG && vreg_access_ok(f, x->def[d]))
					for (int k = 0; k < rc_size(x->def[d].rc); k++) {
						uint32_t s = base[x->def[d].reg] + x->def[d].sub + (uint32_t)k;
						cur[s / 64] |= (uint64_t)1 << (s % 64);
					}
		}
	}
	free(base);
	free(in);
	free(def);
	free(cur);
	free(pstart);
	free(preds);
	free(fill);
	return n;
}

/* The AGPR moves' files, which llvm-mc checks and the row does not say:
 * v_accvgpr_read_b32 AGPR -> VGPR, v_accvgpr_write_b32 VGPR (or SGPR or a
 * constant) -> AGPR, v_accvgpr_mov_b32 AGPR -> AGPR. */
static bool accvgpr_files_ok(const MInst *in)
{
	if (in->op != I_V_ACCVGPR_READ_B32 && in->op != I_V_ACCVGPR_WRITE_B32 && in->op != I_V_ACCVGPR_MOV_B32)
		return true;
	if (in->ndef != 1 || in->nuse < 1)
		return true; /* the def count check reports it */
	MOpnd d = in->def[0], u = in->use[0];
	bool ud = mo_is_reg(d), uu = mo_is_reg(u);
	RegFile fd = ud ? rc_file(d.rc) : RF_VGPR, fu = uu ? rc_file(u.rc) : RF_VGPR;
	switch (in->op) {
	case I_V_ACCVGPR_READ_B32:
		return (!ud || fd == RF_VGPR) && (!uu || fu == RF_AGPR);
	case I_V_ACCVGPR_WRITE_B32:
		return (!ud || fd == RF_AGPR) && (!uu || fu != RF_AGPR);
	default:
		return (!ud || fd == RF_AGPR) && (!uu || fu == RF_AGPR);
	}
}

int mir_verify(const MFunc *f, Buf *msg)
{
	int n = 0;
	bool cfg_ok = true;
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *b = f->blocks.data[bi];
		for (size_t ii = 0; ii < b->insts.len; ii++) {
			const MInst *in = &b->insts.data[ii];
			const IsaInfo *r = &isa_info[in->op];
			if (in->ndef != mir_ndef(in->op, in->flags)) /* the printed form's def/use split */
				vfail(msg, &n, f, bi, ii, "def count differs from the row's (mir_ndef)");
			if (mop_is_branch(in->op)) {
				if (in->target < 0 || (size_t)in->target >= f->blocks.len) {
					vfail(msg, &n, f, bi, ii, "branch target is not a block index");
					cfg_ok = false;
				}
				if (ii + 1 != b->insts.len)
					vfail(msg, &n, f, bi, ii, "branch is not the last instruction of its block");
				if (in->op == I_S_SETPC_B64 && !long_branch_ok(b, ii))
					vfail(msg, &n, f, bi, ii,
						"s_setpc_b64 does not end a long branch (s_getpc_b64, s_add_u32, s_addc_u32 on "
						"one SGPR pair, one target)");
			}
			if (in->flags & (MIF_PCREL_LO | MIF_PCREL_HI)) {
				/* the adds of a long branch: two and one before its end */
				MOp want = (in->flags & MIF_PCREL_LO) ? I_S_ADD_U32 : I_S_ADDC_U32;
				size_t end = ii + (want == I_S_ADD_U32 ? 3 : 2);
				if (in->op != want || (in->flags & MIF_PCREL_LO && in->flags & MIF_PCREL_HI) ||
					end != b->insts.len || b->insts.data[end - 1].op != I_S_SETPC_B64)
					vfail(msg, &n, f, bi, ii, "a long branch's distance outside its s_add_u32/s_addc_u32");
			}
			for (int u = 0; u < in->nuse; u++) {
				MOpnd o = in->use[u];
				if (o.kind == MO_VREG && !vreg_access_ok(f, o))
					vfail(msg, &n, f, bi, ii, "reads outside any virtual register (number, file or dwords)");
				int w = slot_width(in, false, u);
				if (mo_is_reg(o) && w && rc_size(o.rc) != w && !(r->fmt == FMT_VOPC && w == 2))
					vfail(msg, &n, f, bi, ii, "source register width differs from the row");
			}
			for (int d = 0; d < in->ndef; d++) {
				MOpnd o = in->def[d];
				if (o.kind == MO_VREG && !vreg_access_ok(f, o))
					vfail(msg, &n, f, bi, ii, "writes outside any virtual register (number, file or dwords)");
				int w = slot_width(in, true, d);
				if (mo_is_reg(o) && w && rc_size(o.rc) != w)
					vfail(msg, &n, f, bi, ii, "result register width differs from the row");
			}
			if (!accvgpr_files_ok(in))
				vfail(msg, &n, f, bi, ii, "v_accvgpr_* operand in the wrong register file (read: AGPR to VGPR, "
							  "write: VGPR or SGPR to AGPR, mov: AGPR to AGPR)");
			if (!f->allocated)
				continue;
			for (int k = 0; k < in->ndef + in->nuse; k++) {
				MOpnd o = k < in->ndef ? in->def[k] : in->use[k - in->ndef];
				if (o.kind == MO_VREG)
					vfail(msg, &n, f, bi, ii, "virtual register left after allocation");
				if (o.kind != MO_PREG)
					continue;
				RegFile rf = rc_file(o.rc);
				int lim = rf == RF_SGPR ? f->target->sgprs : rf == RF_VGPR ? 256 : f->target->agprs;
				if ((int)o.reg + rc_size(o.rc) > lim)
					vfail(msg, &n, f, bi, ii, "physical register outside the file");
				if (o.reg % (uint32_t)rc_align(o.rc, f->target))
					vfail(msg, &n, f, bi, ii, "misaligned register tuple");
			}
		}
	}
	if (cfg_ok && !f->allocated)
		n += check_defined(f, msg);
	return n;
}
