/* syntax.c — how llvm-mc spells registers and mnemonics, written once for
 * the machine IR's printer (ir/mir_print.c) and the emulator's disassembler
 * (loader/emu/decode.c), so the two agree with each other and with the
 * assembler (contract in isa.h). */
#include <stdio.h>
#include <string.h>

#include "isa.h"

void isa_reg_name(char *buf, size_t n, char file, unsigned reg, int width)
{
	if (width <= 1)
		snprintf(buf, n, "%c%u", file, reg);
	else
		snprintf(buf, n, "%c[%u:%u]", file, reg, reg + (unsigned)width - 1);
}

void isa_mnemonic(char *buf, size_t n, int op, bool gfx90a)
{
	const IsaInfo *r = &isa_info[op];
	const char *u = strrchr(r->name, '_');
	/* v_mfma_f32_16x16x16_f16 -> v_mfma_f32_16x16x16f16 (a digit before the
	 * last underscore: the shape, then the element type) */
	if ((r->flags & IF_MFMA) && gfx90a && u && u[-1] >= '0' && u[-1] <= '9') {
		/* the bf16 MFMAs with 4 operand elements per lane are CDNA2's
		 * ..bf16_1k set (gfx940 dropped the suffix); the 2b/4b/16b
		 * forms are not spelled for gfx90a here (never emitted) */
		bool k1 = op == I_V_MFMA_F32_32X32X8_BF16 || op == I_V_MFMA_F32_16X16X16_BF16;
		snprintf(buf, n, "%.*s%s%s", (int)(u - r->name), r->name, u + 1, k1 ? "_1k" : "");
		return;
	}
	snprintf(buf, n, "%s", r->name);
}
