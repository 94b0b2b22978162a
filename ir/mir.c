/* mir.c — machine IR construction, the per-instruction properties derived
 * from the shared instruction table, targets, and the structural verifier.
 *
 * Class and latency come from a row's format and flags (EmuInstInfo in
 * loader/emu/insts.h) so the compiler reads the same rows as the emulator's
 * decoder; the latencies are a coarse model (cdna3-facts: VALU 4-cycle
 * issue over 64 lanes, SMEM/VMEM/LDS variable) until measured per row.
 *
 * The verifier runs between passes in the pipeline (passes/pipeline.c): it
 * checks operand counts and register widths against the row, that every
 * vreg is defined before it is read in layout order (straight-line code;
 * loops will need the CFG version), and after allocation that physical
 * registers fit the target's files and alignment. */
#include <stdlib.h>
#include <string.h>

#include "mir.h"

const Target target_gfx942 = {
	.name = "gfx942",
	.triple = "amdgcn-amd-amdhsa--gfx942",
	.sgprs = 102,
	.vgprs = 512, /* unified VGPR+AGPR file per wave; arch VGPRs up to 256 */
	.agprs = 256,
	.lds_bytes = 65536,
	.vgpr_tuple_align = true,
};
const Target target_gfx90a = {
	.name = "gfx90a",
	.triple = "amdgcn-amd-amdhsa--gfx90a",
	.sgprs = 102,
	.vgprs = 512,
	.agprs = 256,
	.lds_bytes = 65536,
	.vgpr_tuple_align = true,
};

const Target *target_from_name(const char *mcpu)
{
	if (!mcpu || strcmp(mcpu, "gfx942") == 0)
		return &target_gfx942;
	if (strcmp(mcpu, "gfx90a") == 0)
		return &target_gfx90a;
	return NULL;
}

int rc_align(RegClass rc, const Target *t)
{
	int n = rc_size(rc);
	if (rc_file(rc) == RF_SGPR)
		return n >= 4 ? 4 : n >= 2 ? 2 : 1; /* SGPR tuples: pairs even, quads and up 4-aligned */
	return n >= 2 && t->vgpr_tuple_align ? 2 : 1;
}

const char *const mir_class_name[MC_COUNT] = {
#define X(e, name) name,
	MIR_CLASSES(X)
#undef X
};

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

uint32_t mfunc_vreg(MFunc *f, RegClass rc)
{
	check_that(rc_size(rc) >= 1 && rc_size(rc) <= 16);
	vec_push(&f->vregs, rc);
	return (uint32_t)(f->vregs.len - 1);
}

MInst *mblock_add(MBlock *b, MOp op, int ndef, const MOpnd *defs, int nuse, const MOpnd *uses)
{
	check_that(op > EI_UNKNOWN && op < EI_COUNT);
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

bool mop_is_branch(MOp op) { return mir_class(op) == MC_BRANCH && op != EI_S_SETPC_B64 && op != EI_S_SWAPPC_B64; }

bool mop_is_uncond_branch(MOp op) { return op == EI_S_BRANCH; }

int mfunc_succs(const MFunc *f, size_t bi, int succ[2])
{
	const MBlock *b = f->blocks.data[bi];
	int n = 0;
	const MInst *last = b->insts.len ? &vec_last(&b->insts) : NULL;
	if (last && mop_is_branch(last->op) && last->target >= 0)
		succ[n++] = last->target;
	bool falls = !last || (last->op != EI_S_ENDPGM && !mop_is_uncond_branch(last->op));
	if (falls && bi + 1 < f->blocks.len && !(n && succ[0] == (int)bi + 1))
		succ[n++] = (int)bi + 1;
	return n;
}

const char *mop_name(MOp op)
{
	check_that(op < EI_COUNT);
	return emu_inst_info[op].name;
}

MClass mir_class(MOp op)
{
	const EmuInstInfo *r = &emu_inst_info[op];
	switch (r->fmt) {
	case EF_SOP1:
	case EF_SOP2:
	case EF_SOPK:
	case EF_SOPC:
		return (r->flags & EIF_BRANCH) ? MC_BRANCH : MC_SALU;
	case EF_SOPP:
		return strncmp(r->name, "s_cbranch", 9) == 0 || strcmp(r->name, "s_branch") == 0 ? MC_BRANCH
											     : MC_CONTROL;
	case EF_SMEM:
		return MC_SMEM;
	case EF_DS:
		return MC_LDS;
	case EF_MUBUF:
	case EF_FLAT:
		return (r->flags & EIF_STORE) ? MC_VMEM_STORE : MC_VMEM_LOAD;
	default:
		if (r->flags & EIF_MFMA)
			return MC_MFMA;
		return (r->flags & EIF_TRANS) ? MC_TRANS : MC_VALU;
	}
}

int mir_latency(MOp op)
{
	switch (mir_class(op)) {
	case MC_SALU: return 1;
	case MC_SMEM: return 200;
	case MC_VALU: return 4;
	case MC_TRANS: return 8;
	case MC_VMEM_LOAD: return 500;
	case MC_VMEM_STORE: return 4;
	case MC_LDS: return 64;
	case MC_MFMA: return 32; /* 16x16x16 f16: 8 passes; 32x32x8: 16 passes */
	default: return 1;
	}
}

/* ---- verifier ---- */

static void vfail(Buf *msg, int *n, const MFunc *f, size_t bi, size_t ii, const char *what)
{
	buf_printf(msg, "mir verify: %s: block %zu inst %zu (%s): %s\n", f->name, bi, ii,
		mop_name(f->blocks.data[bi]->insts.data[ii].op), what);
	(*n)++;
}

/* Expected register width of def/use slot i for ALU rows, 0 to skip. */
static int slot_width(const EmuInstInfo *r, bool def, int i)
{
	if (r->fmt == EF_SOPP || r->fmt == EF_SMEM || r->fmt == EF_MUBUF || r->fmt == EF_FLAT || r->fmt == EF_DS)
		return 0;
	if (def)
		return i == 0 ? r->dst : 0;
	return i < 3 ? r->src[i] : 0;
}

int mir_verify(const MFunc *f, Buf *msg)
{
	int n = 0;
	uint8_t *defined = xcalloc(f->vregs.len + 1, 1);
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *b = f->blocks.data[bi];
		for (size_t ii = 0; ii < b->insts.len; ii++) {
			const MInst *in = &b->insts.data[ii];
			const EmuInstInfo *r = &emu_inst_info[in->op];
			for (int u = 0; u < in->nuse; u++) {
				MOpnd o = in->use[u];
				if (o.kind == MO_VREG && (o.reg >= f->vregs.len || !defined[o.reg]))
					vfail(msg, &n, f, bi, ii, "reads a virtual register before any definition");
				int w = slot_width(r, false, u);
				if (mo_is_reg(o) && w && rc_size(o.rc) != w && !(r->fmt == EF_VOPC && w == 2))
					vfail(msg, &n, f, bi, ii, "source register width differs from the row");
			}
			for (int d = 0; d < in->ndef; d++) {
				MOpnd o = in->def[d];
				if (o.kind == MO_VREG) {
					if (o.reg >= f->vregs.len)
						vfail(msg, &n, f, bi, ii, "defines an unknown virtual register");
					else
						defined[o.reg] = 1;
				}
				int w = slot_width(r, true, d);
				if (mo_is_reg(o) && w && rc_size(o.rc) != w)
					vfail(msg, &n, f, bi, ii, "result register width differs from the row");
			}
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
	free(defined);
	return n;
}
