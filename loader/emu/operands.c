/* operands.c — the registers an instruction reads and writes, from its
 * decoded fields: the late-memory mode (late.c) checks them against the
 * loads still outstanding and takes a memory instruction's written
 * registers as what returns late.
 *
 * The reading of each format follows the disassembler (decode.c's
 * emu_print) and the executors: VALU sources by their operand widths (VGPR
 * codes from 256, SGPR codes below NUM_SGPRS; inline constants, literals,
 * M0, EXEC and the other specials name no tracked register), the implicit
 * VCC of the e32 carry and cndmask forms and of v_div_fmas, both operands
 * of the swaps (v_swap_b32, v_permlane16/32_swap_b32), the VOP3b and
 * VOPC SGPR-pair results; MFMA A/B/C/D in AGPRs by their acc bits; SALU
 * destinations and sources by the row's widths (a SOPK destination is also
 * read), s_cbranch_vcc* reading VCC; SMEM base, offset and data; DS address,
 * data and destination (twice the width for ds_read2); MUBUF address, V#,
 * soffset and data; FLAT address (one or two VGPRs by segment and saddr),
 * saddr and data. AGPR n is accum_offset + n in the unified file. */
#include <string.h>

#include "emu_int.h"

static void add(RegUse *u, bool vgpr, unsigned first, int n, bool write)
{
	if (n <= 0 || u->n == (int)(sizeof u->r / sizeof u->r[0]))
		return;
	u->r[u->n++] = (RegRange){.first = (uint16_t)first, .n = (uint16_t)n, .vgpr = vgpr, .write = write};
}

/* A 9-bit operand code: a VGPR (+ acc: the AGPR offset) or an SGPR; other
 * codes name nothing tracked. */
static void add_code(RegUse *u, unsigned code, int width, unsigned acc, bool write)
{
	if (code >= SRC_VGPR)
		add(u, true, code - SRC_VGPR + acc, width, write);
	else if (code < NUM_SGPRS)
		add(u, false, code, code + (unsigned)width > NUM_SGPRS ? (int)(NUM_SGPRS - code) : width, write);
}

static void valu_use(const Wave *w, const Inst *in, RegUse *u)
{
	const IsaInfo *r = &isa_info[in->id];
	unsigned acc = w->accum_offset;
	if (r->flags & IF_MFMA) {
		add(u, true, in->dst + (in->acc_cd ? acc : 0), r->dst, true);
		add_code(u, in->src[0], emu_operand_width(in, 0), in->acc_a ? acc : 0, false);
		add_code(u, in->src[1], emu_operand_width(in, 1), in->acc_b ? acc : 0, false);
		add_code(u, in->src[2], r->src[2], in->acc_cd ? acc : 0, false);
		if (r->flags & IF_MSCALE)
			for (int i = 0; i < 2; i++)
				add_code(u, in->scale_src[i], 1, 0, false);
		return;
	}
	bool e32 = !in->vop3 && in->fmt != FMT_VOP3 && in->fmt != FMT_VOP3P;
	if (in->fmt == FMT_VOPC)
		add_code(u, in->sdst, 2, 0, true);
	else if (r->flags & IF_SDST)
		add_code(u, in->dst, 1, 0, true);
	else if (emu_operand_width(in, -1))
		add(u, true, in->dst + (in->id == I_V_ACCVGPR_WRITE_B32 || in->id == I_V_ACCVGPR_MOV_B32 ? acc : 0),
		    emu_operand_width(in, -1), true);
	if ((r->flags & IF_VOP3B) && !e32)
		add_code(u, in->sdst, 2, 0, true);
	else if ((r->flags & IF_VCCOUT) && e32)
		add(u, false, SRC_VCC_LO, 2, true);
	for (int i = 0; i < 3; i++) {
		int wd = emu_operand_width(in, i);
		if (wd)
			add_code(u, in->src[i], wd, i == 0 && (in->id == I_V_ACCVGPR_READ_B32 || in->id == I_V_ACCVGPR_MOV_B32) ? acc : 0,
				 false);
	}
	if (r->flags & IF_VCCIN) {
		if (e32)
			add(u, false, SRC_VCC_LO, 2, false);
		else
			add_code(u, in->src[2], 2, 0, false);
	}
	if (in->id == I_V_DIV_FMAS_F32 || in->id == I_V_DIV_FMAS_F64)
		add(u, false, SRC_VCC_LO, 2, false);
	if (in->id == I_V_PERMLANE16_SWAP_B32 || in->id == I_V_PERMLANE32_SWAP_B32 || in->id == I_V_SWAP_B32) {
		add(u, true, in->dst, 1, false); /* both operands read and written */
		add_code(u, in->src[0], 1, 0, true);
	}
}

static void salu_use(const Inst *in, RegUse *u)
{
	const IsaInfo *r = &isa_info[in->id];
	switch (in->fmt) {
	case FMT_SOP1: case FMT_SOP2: case FMT_SOPC:
		if (r->dst)
			add_code(u, in->dst, r->dst, 0, true);
		for (int i = 0; i < 2; i++)
			if (r->src[i])
				add_code(u, in->src[i], r->src[i], 0, false);
		return;
	case FMT_SOPK: /* s_movk writes it; the compares, s_addk, s_mulk read it */
		add_code(u, in->dst, 1, 0, false);
		add_code(u, in->dst, 1, 0, true);
		return;
	case FMT_SOPP:
		if (in->id == I_S_CBRANCH_VCCZ || in->id == I_S_CBRANCH_VCCNZ)
			add(u, false, SRC_VCC_LO, 2, false);
		return;
	default: return;
	}
}

static void smem_use(const Inst *in, RegUse *u)
{
	const IsaInfo *r = &isa_info[in->id];
	if (in->id == I_S_DCACHE_INV || in->id == I_S_DCACHE_WB)
		return;
	if (in->id == I_S_MEMTIME || in->id == I_S_MEMREALTIME) {
		add_code(u, in->dst, 2, 0, true);
		return;
	}
	add_code(u, in->sbase, (r->flags & IF_SMEM_BUF) ? 4 : 2, 0, false);
	if (in->soffset_en)
		add_code(u, in->soffset, 1, 0, false);
	if (r->dst)
		add_code(u, in->dst, r->dst, 0, !(r->flags & IF_STORE));
}

static void ds_use(const Wave *w, const Inst *in, RegUse *u)
{
	const IsaInfo *r = &isa_info[in->id];
	unsigned acc = in->acc ? w->accum_offset : 0;
	bool cross = in->id == I_DS_SWIZZLE_B32 || in->id == I_DS_PERMUTE_B32 || in->id == I_DS_BPERMUTE_B32;
	bool read2 = strncmp(r->name, "ds_read2", 8) == 0, write2 = strncmp(r->name, "ds_write2", 9) == 0;
	bool cmpst = in->id == I_DS_CMPST_B32 || in->id == I_DS_CMPST_RTN_B32;
	add(u, true, in->addr, 1, false);
	if (cross) {
		if (in->id != I_DS_SWIZZLE_B32)
			add(u, true, in->data0, 1, false);
		add(u, true, in->dst, 1, true);
		return;
	}
	if (!(r->flags & IF_LOAD) || (r->flags & IF_ATOMIC)) {
		add(u, true, in->data0 + acc, r->dst, false);
		if (write2 || cmpst)
			add(u, true, in->data1 + acc, r->dst, false);
	}
	if (r->flags & IF_LOAD)
		add(u, true, in->dst + acc, r->dst * (read2 ? 2 : 1), true);
}

static void mubuf_use(const Wave *w, const Inst *in, RegUse *u)
{
	const IsaInfo *r = &isa_info[in->id];
	unsigned acc = in->acc ? w->accum_offset : 0;
	if (isa_cache_op(in->id)) /* buffer_wbl2, buffer_inv, buffer_wbinvl1_vol: no operands */
		return;
	add(u, true, in->addr, in->offen && in->idxen ? 2 : (in->offen || in->idxen) ? 1 : 0, false);
	add(u, false, in->srsrc, 4, false);
	add_code(u, in->soffset, 1, 0, false);
	if (in->lds)
		return;
	int n = r->dst * ((r->flags & IF_CMPSWAP) ? 2 : 1);
	if (r->flags & (IF_STORE | IF_ATOMIC))
		add(u, true, in->dst + acc, n, false);
	if ((r->flags & IF_LOAD) || ((r->flags & IF_ATOMIC) && in->glc))
		add(u, true, in->dst + acc, r->dst, true);
}

static void flat_use(const Wave *w, const Inst *in, RegUse *u)
{
	const IsaInfo *r = &isa_info[in->id];
	unsigned acc = in->acc ? w->accum_offset : 0;
	bool saddr = in->saddr != 0x7f;
	if (in->seg == 1) { /* scratch */
		if (in->sve)
			add(u, true, in->addr, 1, false);
		if (saddr)
			add_code(u, in->saddr, 1, 0, false);
	} else {
		add(u, true, in->addr, in->seg == 2 && saddr ? 1 : 2, false);
		if (in->seg == 2 && saddr)
			add_code(u, in->saddr, 2, 0, false);
	}
	if (r->flags & (IF_STORE | IF_ATOMIC))
		add(u, true, in->data0 + acc, r->dst * ((r->flags & IF_CMPSWAP) ? 2 : 1), false);
	if (((r->flags & IF_LOAD) && !isa_lds_dma(in->id)) || ((r->flags & IF_ATOMIC) && in->glc))
		add(u, true, in->dst + acc, r->dst, true);
}

void emu_reg_use(const Wave *w, const Inst *in, RegUse *u)
{
	u->n = 0;
	switch (in->fmt) {
	case FMT_SOP1: case FMT_SOP2: case FMT_SOPK: case FMT_SOPC: case FMT_SOPP: salu_use(in, u); return;
	case FMT_SMEM: smem_use(in, u); return;
	case FMT_VOP1: case FMT_VOP2: case FMT_VOPC: case FMT_VOP3: case FMT_VOP3P: valu_use(w, in, u); return;
	case FMT_DS: ds_use(w, in, u); return;
	case FMT_MUBUF: mubuf_use(w, in, u); return;
	case FMT_FLAT: flat_use(w, in, u); return;
	default: return;
	}
}
