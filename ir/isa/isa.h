/* isa.h — what the compiler asks of the instruction table (insts.h, one
 * X-macro row per CDNA instruction; the rows are defined once, in isa.c):
 * a row's scheduling class and latency, an MFMA's passes and pipe per
 * target, and the assembler's spelling of mnemonics and registers, which
 * the machine IR's printer (ir/mir_print.c) and the emulator's disassembler
 * (loader/emu/decode.c) both print through.
 *
 * Classes follow from a row's format and flags (a SOPP row is a branch or
 * control, VMEM splits into loads and stores, VOP3P MFMA rows are MFMA, the
 * transcendental flag makes TRANS); the latency of each class is the
 * compiler's model for scheduling and waits (issue-to-result cycles on
 * gfx942, from LLVM's SISchedule.td: SALU 1, VALU 4, TRANS 8, LDS 64, SMEM
 * 200, VMEM 500; an MFMA's is its passes times 4). */
#ifndef WAVECC_ISA_H
#define WAVECC_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "insts.h"

/* X(enum, name, latency in cycles) */
#define ISA_CLASSES(X) \
	X(MC_SALU, "salu", 1) \
	X(MC_SMEM, "smem", 200) \
	X(MC_VALU, "valu", 4) \
	X(MC_TRANS, "trans", 8) \
	X(MC_VMEM_LOAD, "vmem-load", 500) \
	X(MC_VMEM_STORE, "vmem-store", 4) \
	X(MC_LDS, "lds", 64) \
	X(MC_MFMA, "mfma", 32) /* without a target: 16x16x16 f16 is 8 passes on gfx90a */ \
	X(MC_BRANCH, "branch", 1) \
	X(MC_CONTROL, "control", 1) /* s_waitcnt, s_endpgm, s_nop, s_barrier */

typedef enum MClass {
#define X(e, name, lat) e,
	ISA_CLASSES(X)
#undef X
	MC_COUNT
} MClass;
extern const char *const isa_class_name[MC_COUNT];

/* The scheduling class of row op (a column of its row), and its latency. */
extern const uint16_t isa_class_latency[MC_COUNT];
static inline MClass isa_class(int op) { return (MClass)isa_info[op].cls; }
static inline int isa_latency(int op) { return isa_class_latency[isa_info[op].cls]; }
/* An MFMA row's passes on gfx90a (true) or gfx942 (false); 0 when the row
 * is no MFMA or does not exist on that target. */
int isa_mfma_passes(int op, bool gfx90a);
/* An MFMA on the XDL pipe: every non-DGEMM MFMA on gfx90a, the rows the
 * CDNA3 guide lists on gfx942. */
bool isa_mfma_xdl(int op, bool gfx90a);
/* gfx950's f8f6f4 MFMAs (IF_F8F6F4): the registers of an A or B operand
 * of format f (cbsz for A, blgp for B: 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4),
 * and the passes with A in format fa and B in fb: the row's, twice that
 * when either is an 8-bit format (the wait states llc-22 inserts after
 * v_mfma_scale_f32_16x16x128_f8f6f4: 12 after fp8 operands, 8 after
 * fp6/fp4 ones, so 8 and 4 passes). Other rows: isa_mfma_passes. */
static inline int isa_f8f6f4_dwords(unsigned f) { return f <= 1 ? 8 : f <= 3 ? 6 : 4; }
int isa_mfma_passes_fmt(int op, bool gfx90a, unsigned fa, unsigned fb);
/* A FLAT row that writes LDS instead of VGPRs (global_load_lds_dword,
 * gfx950's _dwordx3/x4): LDS at M0 + offset + its width per lane.
 * The MUBUF loads with the lds bit are the plain rows (Inst.lds, MIF_LDS). */
static inline bool isa_lds_dma(int op)
{
	return op == I_GLOBAL_LOAD_LDS_DWORD || op == I_GLOBAL_LOAD_LDS_DWORDX3 || op == I_GLOBAL_LOAD_LDS_DWORDX4;
}
/* A cache-control row (buffer_wbl2, buffer_inv, buffer_wbinvl1_vol): a
 * MUBUF instruction with no operands (insts.h). */
static inline bool isa_cache_op(int op)
{
	return op == I_BUFFER_WBL2 || op == I_BUFFER_INV || op == I_BUFFER_WBINVL1_VOL;
}
/* gfx950's transposing LDS reads (ds_read_b64_tr_b4/b8/b16,
 * ds_read_b96_tr_b6): the element width in bits, else 0. */
static inline int isa_ds_tr_bits(int op)
{
	return op == I_DS_READ_B64_TR_B16 ? 16 : op == I_DS_READ_B64_TR_B8 ? 8 : op == I_DS_READ_B96_TR_B6 ? 6
		: op == I_DS_READ_B64_TR_B4 ? 4 : 0;
}

/* ---- syntax.c: the assembler's spellings ---- */
/* Register `v5`, `s[4:7]`, `a[0:15]`: file letter s, v or a. */
void isa_reg_name(char *buf, size_t n, char file, unsigned reg, int width);
/* The mnemonic of row op on the target: gfx90a spells the f16/f32/i8 MFMAs
 * of one block without the underscore before the element type
 * (v_mfma_f32_16x16x16f16). Its other spellings (blocked forms such as
 * v_mfma_f32_32x32x4f16, bf16's _1k suffix) are not derived yet: the
 * compiler emits only the 16x16x16 and 32x32x8 f16 MFMAs, and llvm-mc would
 * reject a wrong spelling at the generated line. */
void isa_mnemonic(char *buf, size_t n, int op, bool gfx90a);

#endif
