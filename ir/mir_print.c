/* mir_print.c — machine IR as text in llvm-mc's AMDGPU syntax.
 *
 * After register allocation the output of mir_print is what the assembly
 * emitter (asm/emit.c) places between the kernel's label and s_endpgm, so
 * every spelling here must be accepted by llvm-mc-19 for gfx942 and gfx90a
 * (tests/driver checks both). Before allocation virtual registers print as
 * %N:s2 / %N:v1 for dumps, after a first line `// vregs: %0:s2 ...` with
 * every virtual register's class. mir_parse.c reads this form back.
 *
 * Operand order is the assembler's: defs, then uses, then modifiers
 * (MUBUF `offen offset:N`, `lds`). s_waitcnt prints its counters from the
 * instruction's vmcnt/lgkmcnt fields. An LDS DMA's M0 use and a lane
 * swap's uses (its two defs again) are not printed. */
#include <string.h>

#include "mir.h"

static const char file_letter[RF_COUNT] = {'s', 'v', 'a'};

void mir_print_opnd(Buf *b, MOpnd o)
{
	switch ((MOpndKind)o.kind) {
	case MO_NONE:
		buf_puts(b, "<none>");
		return;
	case MO_VREG:
		if (o.sub)
			buf_printf(b, "%%%u.%u:%c%d", o.reg, o.sub, file_letter[rc_file(o.rc)], rc_size(o.rc));
		else
			buf_printf(b, "%%%u:%c%d", o.reg, file_letter[rc_file(o.rc)], rc_size(o.rc));
		return;
	case MO_PREG: {
		char r[32];
		isa_reg_name(r, sizeof r, file_letter[rc_file(o.rc)], o.reg, rc_size(o.rc));
		buf_puts(b, r);
		return;
	}
	case MO_IMM:
		if (o.imm >= -16 && o.imm <= 64)
			buf_printf(b, "%lld", (long long)o.imm);
		else
			buf_printf(b, "0x%llx", (unsigned long long)(uint32_t)o.imm);
		return;
	case MO_VCC:
		buf_puts(b, "vcc");
		return;
	case MO_EXEC:
		buf_puts(b, "exec");
		return;
	case MO_M0:
		buf_puts(b, "m0");
		return;
	case MO_OFF:
		buf_puts(b, "off");
		return;
	}
	die("bad operand kind %d", o.kind);
}

/* A DPP control as llvm-mc spells it (the rows the emulator implements). */
static void print_dpp(Buf *b, unsigned c)
{
	if (c <= 0xff)
		buf_printf(b, " quad_perm:[%u,%u,%u,%u]", c & 3, (c >> 2) & 3, (c >> 4) & 3, (c >> 6) & 3);
	else if (c >= 0x101 && c <= 0x10f)
		buf_printf(b, " row_shl:%u", c & 15);
	else if (c >= 0x111 && c <= 0x11f)
		buf_printf(b, " row_shr:%u", c & 15);
	else if (c >= 0x121 && c <= 0x12f)
		buf_printf(b, " row_ror:%u", c & 15);
	else if (c == 0x140)
		buf_puts(b, " row_mirror");
	else if (c == 0x141)
		buf_puts(b, " row_half_mirror");
	else if (c == 0x142)
		buf_puts(b, " row_bcast:15");
	else if (c == 0x143)
		buf_puts(b, " row_bcast:31");
	else
		die("dpp_ctrl 0x%x has no spelling here", c);
	buf_puts(b, " row_mask:0xf bank_mask:0xf");
}

/* The label a branch to block i prints (blocks without a label get one). */
static void print_label(Buf *b, const MFunc *f, int i)
{
	if (f && i >= 0 && (size_t)i < f->blocks.len && f->blocks.data[i]->label)
		buf_puts(b, f->blocks.data[i]->label);
	else
		buf_printf(b, ".LBB_%d", i);
}

static void print_target(Buf *b, const MFunc *f, int i)
{
	buf_putc(b, ' ');
	print_label(b, f, i);
}

/* The row's mnemonic as the function's target spells it (ir/isa). */
static void print_name(Buf *b, const MFunc *f, MOp op)
{
	char name[64];
	isa_mnemonic(name, sizeof name, op, f && strcmp(f->target->name, "gfx90a") == 0);
	buf_puts(b, name);
}

/* MInst.mods as llvm-mc spells them (mir.h): an f8f6f4 MFMA's scale bytes
 * as op_sel (low bit) and op_sel_hi (high bit) of sources 0 and 1, then
 * cbsz and blgp; a VOP3 row's op_sel with one entry per source and the
 * destination's last. */
static void print_mods(Buf *b, const MInst *in)
{
	const IsaInfo *r = &isa_info[in->op];
	if (!in->mods)
		return;
	if (r->flags & IF_F8F6F4) {
		unsigned a = mi_scale_sel(in, 0), c = mi_scale_sel(in, 1);
		if ((a | c) & 1)
			buf_printf(b, " op_sel:[%u,%u,0]", a & 1, c & 1);
		if ((a | c) & 2)
			buf_printf(b, " op_sel_hi:[%u,%u,0]", a >> 1, c >> 1);
		if (mi_cbsz(in))
			buf_printf(b, " cbsz:%u", mi_cbsz(in));
		if (mi_blgp(in))
			buf_printf(b, " blgp:%u", mi_blgp(in));
		return;
	}
	buf_printf(b, " op_sel:[%u,%u", in->mods & 1u, in->mods >> 1 & 1u);
	if (r->src[2])
		buf_printf(b, ",%u", in->mods >> 2 & 1u);
	buf_printf(b, ",%u]", in->mods >> 3 & 1u);
}

static void print_inst(Buf *b, const MFunc *f, const MInst *in)
{
	print_name(b, f, in->op);
	if (in->dpp)
		buf_puts(b, "_dpp");
	else if (in->flags & MIF_E64)
		buf_puts(b, "_e64");
	else if (in->flags & MIF_E32)
		buf_puts(b, "_e32");
	if (in->op == I_S_WAITCNT) {
		const char *sep = " ";
		if (in->vmcnt >= 0) {
			buf_printf(b, "%svmcnt(%d)", sep, in->vmcnt);
			sep = " ";
		}
		if (in->lgkmcnt >= 0)
			buf_printf(b, "%slgkmcnt(%d)", sep, in->lgkmcnt);
		return;
	}
	int k = 0;
	for (int i = 0; i < in->ndef; i++, k++) {
		buf_puts(b, k ? ", " : " ");
		mir_print_opnd(b, in->def[i]);
	}
	bool dma = (in->flags & MIF_LDS) || isa_lds_dma(in->op);
	bool swap = in->op == I_V_PERMLANE16_SWAP_B32 || in->op == I_V_PERMLANE32_SWAP_B32;
	for (int i = 0; i < in->nuse; i++, k++) {
		if (swap || (dma && in->use[i].kind == MO_M0))
			continue; /* a swap's uses are its defs; a DMA's M0 is implicit */
		buf_puts(b, k ? ", " : " ");
		if (in->use[i].kind == MO_IMM && (in->flags & (MIF_PCREL_LO | MIF_PCREL_HI))) {
			/* a long branch's distance, resolved by llvm-mc (mir.h) */
			buf_putc(b, '(');
			print_label(b, f, in->target);
			buf_puts(b, in->flags & MIF_PCREL_LO ? "-.)&4294967295" : "-.+8)>>32");
			continue;
		}
		mir_print_opnd(b, in->use[i]);
	}
	if (mop_is_branch(in->op) && in->op != I_S_SETPC_B64) /* a long branch's target is in its adds */
		print_target(b, f, in->target);
	if (in->flags & MIF_OFFEN)
		buf_puts(b, " offen");
	if (in->offset)
		buf_printf(b, " offset:%d", in->offset);
	if (in->flags & MIF_GLC) /* gfx940 renamed the bit (llvm-mc-19 takes only sc0 there) */
		buf_puts(b, f && f->target && strcmp(f->target->name, "gfx90a") != 0 ? " sc0" : " glc");
	if ((in->op == I_BUFFER_WBL2 || in->op == I_BUFFER_INV) && f && f->target &&
		strcmp(f->target->name, "gfx90a") != 0)
		buf_puts(b, " sc1"); /* agent scope (isel/memory.c's release and acquire) */
	if (in->flags & (MIF_VOL | MIF_AGENT)) { /* volatile is the stronger: system scope */
		bool g90a = f && f->target && strcmp(f->target->name, "gfx90a") == 0;
		buf_puts(b, !g90a ? ((in->flags & MIF_VOL) ? " sc0 sc1" : " sc1")
				  : (isa_info[in->op].flags & IF_LOAD) ? " glc" : "");
	}
	if (in->flags & MIF_LDS)
		buf_puts(b, " lds");
	if (in->dpp)
		print_dpp(b, in->dpp);
	print_mods(b, in);
}

void mir_print_inst(Buf *b, const MInst *in) { print_inst(b, NULL, in); }

void mir_print(Buf *b, const MFunc *f)
{
	const char *last_note = NULL;
	if (!f->allocated) { /* the virtual registers' classes, for mir_parse */
		buf_puts(b, "// vregs:");
		for (size_t v = 0; v < f->vregs.len; v++)
			buf_printf(b, " %%%zu:%c%d", v, file_letter[rc_file(f->vregs.data[v])], rc_size(f->vregs.data[v]));
		buf_putc(b, '\n');
	}
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *blk = f->blocks.data[bi];
		if (blk->label)
			buf_printf(b, "%s:\n", blk->label);
		else if (bi)
			buf_printf(b, ".LBB_%zu:\n", bi);
		for (size_t i = 0; i < blk->insts.len; i++) {
			const MInst *in = &blk->insts.data[i];
			/* One comment per group of instructions from the same graph
			 * op; a bare `//` where a group of none starts, so that the
			 * text reads back with the same notes (mir_parse) */
			if (in->note && in->note != last_note)
				buf_printf(b, "\t// %s\n", in->note);
			else if (!in->note && last_note)
				buf_puts(b, "\t//\n");
			last_note = in->note;
			buf_putc(b, '\t');
			print_inst(b, f, in);
			buf_putc(b, '\n');
		}
	}
}
