/* insts.h — the CDNA (gfx942 / gfx90a) instruction table, one X-macro row per
 * instruction: the machine IR's opcodes (I_*), read by instruction
 * selection, the MIR printer, parser and verifier, the machine passes and
 * their checkers, and the emulator's decoder, disassembler and executors.
 * The rows are defined once (isa.c); isa.h derives classes, latencies and
 * spellings from them. Names: I_<ID> rows, IF_* flags, FMT_* formats,
 * T_* element types, IsaInfo the row's record.
 *
 * Row: X(ID, mnemonic, format, op942, op90a, type, dst, s0, s1, s2, flags)
 *   ID        enum suffix: the instruction is I_<ID>
 *   mnemonic  llvm-mc spelling for gfx942 (gfx90a spells most MFMAs
 *             without the underscore before the type: isa_mnemonic)
 *   format    FMT_SOP1 … FMT_FLAT: the encoding the opcode belongs to. VOP1/VOP2/
 *             VOPC rows also decode from VOP3 (op + 0x140 / 0x100 / 0).
 *   op942     opcode field on gfx942 (NA: not on gfx942)
 *   op90a     opcode on gfx90a, SAME when equal, NA when absent
 *   type      element type of the operation: decides how inline constants
 *             are read (T_F16: 0.5 is 0x3800) and which bit abs/neg touch
 *   dst, s0..s2  operand widths in dwords (0: no such operand). For memory
 *             rows `dst` is the data width in dwords (loads and stores).
 *   flags     IF_* bits below
 * Opcode numbers: LLVM's AMDGPU .td files (VI/GFX9 encodings) and llvm-mc-19
 * output; tests/loader/emu/decode_test.c checks every row against llvm-objdump-19. */
#ifndef WAVECC_ISA_INSTS_H
#define WAVECC_ISA_INSTS_H

#include <stdint.h>

typedef enum {
	FMT_SOP1, FMT_SOP2, FMT_SOPK, FMT_SOPC, FMT_SOPP, FMT_SMEM,
	FMT_VOP1, FMT_VOP2, FMT_VOPC, FMT_VOP3, FMT_VOP3P, FMT_DS, FMT_MUBUF, FMT_FLAT,
	FMT_COUNT
} IsaFormat;

typedef enum {
	T_B32, T_I32, T_U32, T_F32, T_B64, T_I64, T_U64, T_F64,
	T_F16, T_BF16, T_B16, T_I16, T_U16, T_NONE
} IsaType;

enum {
	IF_VOP3B = 1 << 0,   /* VOP3 form has an SGPR-pair carry/sdst (VOP3b) */
	IF_CMPX = 1 << 1,    /* compare also writes EXEC */
	IF_TRANS = 1 << 2,   /* transcendental */
	IF_LOAD = 1 << 3,
	IF_STORE = 1 << 4,
	IF_ATOMIC = 1 << 5,
	IF_SIGNED = 1 << 6,  /* sign-extending sub-dword load */
	IF_VCCIN = 1 << 7,   /* e32 form reads VCC implicitly (cndmask, addc) */
	IF_VCCOUT = 1 << 8,  /* e32 form writes VCC implicitly (add_co, cmp) */
	IF_MFMA = 1 << 9,
	IF_BRANCH = 1 << 10,
	IF_D16HI = 1 << 11,  /* sub-dword load/store of the high half */
	IF_D16 = 1 << 12,    /* sub-dword load into the low half, high kept */
	IF_SDST = 1 << 13,   /* VALU result goes to an SGPR (readlane, readfirstlane) */
	IF_SMEM_BUF = 1 << 14, /* s_buffer_*: base is a buffer descriptor */
	IF_NOSRC = 1 << 15,  /* SOPK/SOPP: simm16 is not a register operand */
	IF_CMPSWAP = 1 << 16, /* atomic compare-swap: data is {new, cmp}, twice the width */
	IF_XDL = 1 << 27,    /* MFMA on gfx942's XDL pipe (AMD CDNA3 ISA guide 4.1; LLVM isXDL) */
	IF_GFX950 = 1 << 28, /* only on gfx950 (CDNA4): op942 is its gfx950 opcode, passes are gfx950's */
	IF_F8F6F4 = 1 << 29, /* MFMA whose A/B formats are cbsz/blgp (gfx950 f8f6f4, ISA_INSTS_MFMA_MX) */
	IF_MSCALE = 1 << 30,  /* scaled MFMA: uses 3 and 4 are the e8m0 scale registers (VOP3PX2) */
};
/* MFMA rows: passes on gfx942 and on gfx90a (0: not on that target), from
 * LLVM's SISchedule.td and llvm-mca-19's RThroughput; bits 17..26. */
#define IF_PASSES(p942, p90a) ((uint32_t)(p942) << 17 | (uint32_t)(p90a) << 22)
#define IF_PASSES_942(fl) ((int)((fl) >> 17 & 31))
#define IF_PASSES_90A(fl) ((int)((fl) >> 22 & 31))

#define NA (-1)
#define SAME (-2)

/* ---- scalar ---------------------------------------------------------- */
#define ISA_INSTS_SALU(X) \
	X(S_MOV_B32, "s_mov_b32", FMT_SOP1, 0x00, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(S_MOV_B64, "s_mov_b64", FMT_SOP1, 0x01, SAME, T_B64, 2, 2, 0, 0, 0) \
	X(S_CMOV_B32, "s_cmov_b32", FMT_SOP1, 0x02, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(S_CMOV_B64, "s_cmov_b64", FMT_SOP1, 0x03, SAME, T_B64, 2, 2, 0, 0, 0) \
	X(S_NOT_B32, "s_not_b32", FMT_SOP1, 0x04, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(S_NOT_B64, "s_not_b64", FMT_SOP1, 0x05, SAME, T_B64, 2, 2, 0, 0, 0) \
	X(S_BREV_B32, "s_brev_b32", FMT_SOP1, 0x08, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(S_BCNT1_I32_B32, "s_bcnt1_i32_b32", FMT_SOP1, 0x0c, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(S_BCNT1_I32_B64, "s_bcnt1_i32_b64", FMT_SOP1, 0x0d, SAME, T_B64, 1, 2, 0, 0, 0) \
	X(S_FF1_I32_B32, "s_ff1_i32_b32", FMT_SOP1, 0x10, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(S_FF1_I32_B64, "s_ff1_i32_b64", FMT_SOP1, 0x11, SAME, T_B64, 1, 2, 0, 0, 0) \
	X(S_FLBIT_I32_B32, "s_flbit_i32_b32", FMT_SOP1, 0x12, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(S_SEXT_I32_I8, "s_sext_i32_i8", FMT_SOP1, 0x16, SAME, T_I32, 1, 1, 0, 0, 0) \
	X(S_SEXT_I32_I16, "s_sext_i32_i16", FMT_SOP1, 0x17, SAME, T_I32, 1, 1, 0, 0, 0) \
	X(S_BITSET0_B32, "s_bitset0_b32", FMT_SOP1, 0x18, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(S_BITSET1_B32, "s_bitset1_b32", FMT_SOP1, 0x1a, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(S_GETPC_B64, "s_getpc_b64", FMT_SOP1, 0x1c, SAME, T_B64, 2, 0, 0, 0, 0) \
	X(S_SETPC_B64, "s_setpc_b64", FMT_SOP1, 0x1d, SAME, T_B64, 0, 2, 0, 0, IF_BRANCH) \
	X(S_SWAPPC_B64, "s_swappc_b64", FMT_SOP1, 0x1e, SAME, T_B64, 2, 2, 0, 0, IF_BRANCH) \
	X(S_AND_SAVEEXEC_B64, "s_and_saveexec_b64", FMT_SOP1, 0x20, SAME, T_B64, 2, 2, 0, 0, 0) \
	X(S_OR_SAVEEXEC_B64, "s_or_saveexec_b64", FMT_SOP1, 0x21, SAME, T_B64, 2, 2, 0, 0, 0) \
	X(S_XOR_SAVEEXEC_B64, "s_xor_saveexec_b64", FMT_SOP1, 0x22, SAME, T_B64, 2, 2, 0, 0, 0) \
	X(S_ANDN2_SAVEEXEC_B64, "s_andn2_saveexec_b64", FMT_SOP1, 0x23, SAME, T_B64, 2, 2, 0, 0, 0) \
	X(S_ORN2_SAVEEXEC_B64, "s_orn2_saveexec_b64", FMT_SOP1, 0x24, SAME, T_B64, 2, 2, 0, 0, 0) \
	X(S_ABS_I32, "s_abs_i32", FMT_SOP1, 0x30, SAME, T_I32, 1, 1, 0, 0, 0) \
	X(S_SET_GPR_IDX_IDX, "s_set_gpr_idx_idx", FMT_SOP1, 0x32, SAME, T_B32, 0, 1, 0, 0, 0) \
	X(S_ANDN1_SAVEEXEC_B64, "s_andn1_saveexec_b64", FMT_SOP1, 0x33, SAME, T_B64, 2, 2, 0, 0, 0) \
	X(S_ADD_U32, "s_add_u32", FMT_SOP2, 0x00, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_SUB_U32, "s_sub_u32", FMT_SOP2, 0x01, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_ADD_I32, "s_add_i32", FMT_SOP2, 0x02, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(S_SUB_I32, "s_sub_i32", FMT_SOP2, 0x03, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(S_ADDC_U32, "s_addc_u32", FMT_SOP2, 0x04, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_SUBB_U32, "s_subb_u32", FMT_SOP2, 0x05, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_MIN_I32, "s_min_i32", FMT_SOP2, 0x06, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(S_MIN_U32, "s_min_u32", FMT_SOP2, 0x07, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_MAX_I32, "s_max_i32", FMT_SOP2, 0x08, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(S_MAX_U32, "s_max_u32", FMT_SOP2, 0x09, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_CSELECT_B32, "s_cselect_b32", FMT_SOP2, 0x0a, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_CSELECT_B64, "s_cselect_b64", FMT_SOP2, 0x0b, SAME, T_B64, 2, 2, 2, 0, 0) \
	X(S_AND_B32, "s_and_b32", FMT_SOP2, 0x0c, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_AND_B64, "s_and_b64", FMT_SOP2, 0x0d, SAME, T_B64, 2, 2, 2, 0, 0) \
	X(S_OR_B32, "s_or_b32", FMT_SOP2, 0x0e, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_OR_B64, "s_or_b64", FMT_SOP2, 0x0f, SAME, T_B64, 2, 2, 2, 0, 0) \
	X(S_XOR_B32, "s_xor_b32", FMT_SOP2, 0x10, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_XOR_B64, "s_xor_b64", FMT_SOP2, 0x11, SAME, T_B64, 2, 2, 2, 0, 0) \
	X(S_ANDN2_B32, "s_andn2_b32", FMT_SOP2, 0x12, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_ANDN2_B64, "s_andn2_b64", FMT_SOP2, 0x13, SAME, T_B64, 2, 2, 2, 0, 0) \
	X(S_ORN2_B32, "s_orn2_b32", FMT_SOP2, 0x14, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_ORN2_B64, "s_orn2_b64", FMT_SOP2, 0x15, SAME, T_B64, 2, 2, 2, 0, 0) \
	X(S_NAND_B64, "s_nand_b64", FMT_SOP2, 0x17, SAME, T_B64, 2, 2, 2, 0, 0) \
	X(S_NOR_B64, "s_nor_b64", FMT_SOP2, 0x19, SAME, T_B64, 2, 2, 2, 0, 0) \
	X(S_NOR_B32, "s_nor_b32", FMT_SOP2, 0x18, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_XNOR_B64, "s_xnor_b64", FMT_SOP2, 0x1b, SAME, T_B64, 2, 2, 2, 0, 0) \
	X(S_LSHL_B32, "s_lshl_b32", FMT_SOP2, 0x1c, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_LSHL_B64, "s_lshl_b64", FMT_SOP2, 0x1d, SAME, T_B64, 2, 2, 1, 0, 0) \
	X(S_LSHR_B32, "s_lshr_b32", FMT_SOP2, 0x1e, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_LSHR_B64, "s_lshr_b64", FMT_SOP2, 0x1f, SAME, T_B64, 2, 2, 1, 0, 0) \
	X(S_ASHR_I32, "s_ashr_i32", FMT_SOP2, 0x20, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(S_ASHR_I64, "s_ashr_i64", FMT_SOP2, 0x21, SAME, T_I64, 2, 2, 1, 0, 0) \
	X(S_BFM_B32, "s_bfm_b32", FMT_SOP2, 0x22, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_BFM_B64, "s_bfm_b64", FMT_SOP2, 0x23, SAME, T_B64, 2, 1, 1, 0, 0) \
	X(S_MUL_I32, "s_mul_i32", FMT_SOP2, 0x24, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(S_BFE_U32, "s_bfe_u32", FMT_SOP2, 0x25, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_BFE_I32, "s_bfe_i32", FMT_SOP2, 0x26, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(S_BFE_U64, "s_bfe_u64", FMT_SOP2, 0x27, SAME, T_U64, 2, 2, 1, 0, 0) \
	X(S_ABSDIFF_I32, "s_absdiff_i32", FMT_SOP2, 0x2a, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(S_MUL_HI_U32, "s_mul_hi_u32", FMT_SOP2, 0x2c, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_MUL_HI_I32, "s_mul_hi_i32", FMT_SOP2, 0x2d, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(S_LSHL1_ADD_U32, "s_lshl1_add_u32", FMT_SOP2, 0x2e, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_LSHL2_ADD_U32, "s_lshl2_add_u32", FMT_SOP2, 0x2f, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_LSHL3_ADD_U32, "s_lshl3_add_u32", FMT_SOP2, 0x30, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_LSHL4_ADD_U32, "s_lshl4_add_u32", FMT_SOP2, 0x31, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(S_PACK_LL_B32_B16, "s_pack_ll_b32_b16", FMT_SOP2, 0x32, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_PACK_LH_B32_B16, "s_pack_lh_b32_b16", FMT_SOP2, 0x33, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_PACK_HH_B32_B16, "s_pack_hh_b32_b16", FMT_SOP2, 0x34, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(S_MOVK_I32, "s_movk_i32", FMT_SOPK, 0x00, SAME, T_I32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMOVK_I32, "s_cmovk_i32", FMT_SOPK, 0x01, SAME, T_I32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_EQ_I32, "s_cmpk_eq_i32", FMT_SOPK, 0x02, SAME, T_I32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_LG_I32, "s_cmpk_lg_i32", FMT_SOPK, 0x03, SAME, T_I32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_GT_I32, "s_cmpk_gt_i32", FMT_SOPK, 0x04, SAME, T_I32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_GE_I32, "s_cmpk_ge_i32", FMT_SOPK, 0x05, SAME, T_I32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_LT_I32, "s_cmpk_lt_i32", FMT_SOPK, 0x06, SAME, T_I32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_LE_I32, "s_cmpk_le_i32", FMT_SOPK, 0x07, SAME, T_I32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_EQ_U32, "s_cmpk_eq_u32", FMT_SOPK, 0x08, SAME, T_U32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_LG_U32, "s_cmpk_lg_u32", FMT_SOPK, 0x09, SAME, T_U32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_GT_U32, "s_cmpk_gt_u32", FMT_SOPK, 0x0a, SAME, T_U32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_GE_U32, "s_cmpk_ge_u32", FMT_SOPK, 0x0b, SAME, T_U32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_LT_U32, "s_cmpk_lt_u32", FMT_SOPK, 0x0c, SAME, T_U32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMPK_LE_U32, "s_cmpk_le_u32", FMT_SOPK, 0x0d, SAME, T_U32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_ADDK_I32, "s_addk_i32", FMT_SOPK, 0x0e, SAME, T_I32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_MULK_I32, "s_mulk_i32", FMT_SOPK, 0x0f, SAME, T_I32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_GETREG_B32, "s_getreg_b32", FMT_SOPK, 0x11, SAME, T_B32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_SETREG_B32, "s_setreg_b32", FMT_SOPK, 0x12, SAME, T_B32, 1, 0, 0, 0, IF_NOSRC) \
	X(S_CMP_EQ_I32, "s_cmp_eq_i32", FMT_SOPC, 0x00, SAME, T_I32, 0, 1, 1, 0, 0) \
	X(S_CMP_LG_I32, "s_cmp_lg_i32", FMT_SOPC, 0x01, SAME, T_I32, 0, 1, 1, 0, 0) \
	X(S_CMP_GT_I32, "s_cmp_gt_i32", FMT_SOPC, 0x02, SAME, T_I32, 0, 1, 1, 0, 0) \
	X(S_CMP_GE_I32, "s_cmp_ge_i32", FMT_SOPC, 0x03, SAME, T_I32, 0, 1, 1, 0, 0) \
	X(S_CMP_LT_I32, "s_cmp_lt_i32", FMT_SOPC, 0x04, SAME, T_I32, 0, 1, 1, 0, 0) \
	X(S_CMP_LE_I32, "s_cmp_le_i32", FMT_SOPC, 0x05, SAME, T_I32, 0, 1, 1, 0, 0) \
	X(S_CMP_EQ_U32, "s_cmp_eq_u32", FMT_SOPC, 0x06, SAME, T_U32, 0, 1, 1, 0, 0) \
	X(S_CMP_LG_U32, "s_cmp_lg_u32", FMT_SOPC, 0x07, SAME, T_U32, 0, 1, 1, 0, 0) \
	X(S_CMP_GT_U32, "s_cmp_gt_u32", FMT_SOPC, 0x08, SAME, T_U32, 0, 1, 1, 0, 0) \
	X(S_CMP_GE_U32, "s_cmp_ge_u32", FMT_SOPC, 0x09, SAME, T_U32, 0, 1, 1, 0, 0) \
	X(S_CMP_LT_U32, "s_cmp_lt_u32", FMT_SOPC, 0x0a, SAME, T_U32, 0, 1, 1, 0, 0) \
	X(S_CMP_LE_U32, "s_cmp_le_u32", FMT_SOPC, 0x0b, SAME, T_U32, 0, 1, 1, 0, 0) \
	X(S_BITCMP0_B32, "s_bitcmp0_b32", FMT_SOPC, 0x0c, SAME, T_B32, 0, 1, 1, 0, 0) \
	X(S_BITCMP1_B32, "s_bitcmp1_b32", FMT_SOPC, 0x0d, SAME, T_B32, 0, 1, 1, 0, 0) \
	X(S_BITCMP0_B64, "s_bitcmp0_b64", FMT_SOPC, 0x0e, SAME, T_B64, 0, 2, 1, 0, 0) \
	X(S_BITCMP1_B64, "s_bitcmp1_b64", FMT_SOPC, 0x0f, SAME, T_B64, 0, 2, 1, 0, 0) \
	X(S_SETVSKIP, "s_setvskip", FMT_SOPC, 0x10, SAME, T_B32, 0, 1, 1, 0, 0) \
	X(S_SET_GPR_IDX_ON, "s_set_gpr_idx_on", FMT_SOPC, 0x11, SAME, T_B32, 0, 1, 0, 0, 0) \
	X(S_CMP_EQ_U64, "s_cmp_eq_u64", FMT_SOPC, 0x12, SAME, T_U64, 0, 2, 2, 0, 0) \
	X(S_CMP_LG_U64, "s_cmp_lg_u64", FMT_SOPC, 0x13, SAME, T_U64, 0, 2, 2, 0, 0) \
	X(S_NOP, "s_nop", FMT_SOPP, 0x00, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC) \
	X(S_ENDPGM, "s_endpgm", FMT_SOPP, 0x01, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC) \
	X(S_BRANCH, "s_branch", FMT_SOPP, 0x02, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC | IF_BRANCH) \
	X(S_CBRANCH_SCC0, "s_cbranch_scc0", FMT_SOPP, 0x04, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC | IF_BRANCH) \
	X(S_CBRANCH_SCC1, "s_cbranch_scc1", FMT_SOPP, 0x05, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC | IF_BRANCH) \
	X(S_CBRANCH_VCCZ, "s_cbranch_vccz", FMT_SOPP, 0x06, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC | IF_BRANCH) \
	X(S_CBRANCH_VCCNZ, "s_cbranch_vccnz", FMT_SOPP, 0x07, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC | IF_BRANCH) \
	X(S_CBRANCH_EXECZ, "s_cbranch_execz", FMT_SOPP, 0x08, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC | IF_BRANCH) \
	X(S_CBRANCH_EXECNZ, "s_cbranch_execnz", FMT_SOPP, 0x09, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC | IF_BRANCH) \
	X(S_BARRIER, "s_barrier", FMT_SOPP, 0x0a, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC) \
	X(S_WAITCNT, "s_waitcnt", FMT_SOPP, 0x0c, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC) \
	X(S_SLEEP, "s_sleep", FMT_SOPP, 0x0e, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC) \
	X(S_SETPRIO, "s_setprio", FMT_SOPP, 0x0f, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC) \
	X(S_SET_GPR_IDX_OFF, "s_set_gpr_idx_off", FMT_SOPP, 0x1c, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC) \
	X(S_SET_GPR_IDX_MODE, "s_set_gpr_idx_mode", FMT_SOPP, 0x1d, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC) \
	X(S_SENDMSG, "s_sendmsg", FMT_SOPP, 0x10, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC) \
	X(S_TRAP, "s_trap", FMT_SOPP, 0x12, SAME, T_NONE, 0, 0, 0, 0, IF_NOSRC) \
	X(S_LOAD_DWORD, "s_load_dword", FMT_SMEM, 0x00, SAME, T_B32, 1, 0, 0, 0, IF_LOAD) \
	X(S_LOAD_DWORDX2, "s_load_dwordx2", FMT_SMEM, 0x01, SAME, T_B32, 2, 0, 0, 0, IF_LOAD) \
	X(S_LOAD_DWORDX4, "s_load_dwordx4", FMT_SMEM, 0x02, SAME, T_B32, 4, 0, 0, 0, IF_LOAD) \
	X(S_LOAD_DWORDX8, "s_load_dwordx8", FMT_SMEM, 0x03, SAME, T_B32, 8, 0, 0, 0, IF_LOAD) \
	X(S_LOAD_DWORDX16, "s_load_dwordx16", FMT_SMEM, 0x04, SAME, T_B32, 16, 0, 0, 0, IF_LOAD) \
	X(S_BUFFER_LOAD_DWORD, "s_buffer_load_dword", FMT_SMEM, 0x08, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_SMEM_BUF) \
	X(S_BUFFER_LOAD_DWORDX2, "s_buffer_load_dwordx2", FMT_SMEM, 0x09, SAME, T_B32, 2, 0, 0, 0, IF_LOAD | IF_SMEM_BUF) \
	X(S_BUFFER_LOAD_DWORDX4, "s_buffer_load_dwordx4", FMT_SMEM, 0x0a, SAME, T_B32, 4, 0, 0, 0, IF_LOAD | IF_SMEM_BUF) \
	X(S_BUFFER_LOAD_DWORDX8, "s_buffer_load_dwordx8", FMT_SMEM, 0x0b, SAME, T_B32, 8, 0, 0, 0, IF_LOAD | IF_SMEM_BUF) \
	X(S_BUFFER_LOAD_DWORDX16, "s_buffer_load_dwordx16", FMT_SMEM, 0x0c, SAME, T_B32, 16, 0, 0, 0, IF_LOAD | IF_SMEM_BUF) \
	X(S_STORE_DWORD, "s_store_dword", FMT_SMEM, 0x10, SAME, T_B32, 1, 0, 0, 0, IF_STORE) \
	X(S_STORE_DWORDX2, "s_store_dwordx2", FMT_SMEM, 0x11, SAME, T_B32, 2, 0, 0, 0, IF_STORE) \
	X(S_STORE_DWORDX4, "s_store_dwordx4", FMT_SMEM, 0x12, SAME, T_B32, 4, 0, 0, 0, IF_STORE) \
	X(S_ATOMIC_INC, "s_atomic_inc", FMT_SMEM, 0x8b, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(S_ATOMIC_DEC, "s_atomic_dec", FMT_SMEM, 0x8c, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(S_DCACHE_INV, "s_dcache_inv", FMT_SMEM, 0x20, SAME, T_NONE, 0, 0, 0, 0, 0) \
	X(S_DCACHE_WB, "s_dcache_wb", FMT_SMEM, 0x21, SAME, T_NONE, 0, 0, 0, 0, 0) \
	X(S_MEMTIME, "s_memtime", FMT_SMEM, 0x24, SAME, T_B64, 2, 0, 0, 0, 0) \
	X(S_MEMREALTIME, "s_memrealtime", FMT_SMEM, 0x25, SAME, T_B64, 2, 0, 0, 0, 0)

/* ---- VALU (VOP1, VOP2, VOPC, VOP3-only, VOP3P) ------------------------ */
#define ISA_INSTS_VOP1(X) \
	X(V_NOP, "v_nop", FMT_VOP1, 0x00, SAME, T_NONE, 0, 0, 0, 0, 0) \
	X(V_MOV_B32, "v_mov_b32", FMT_VOP1, 0x01, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(V_READFIRSTLANE_B32, "v_readfirstlane_b32", FMT_VOP1, 0x02, SAME, T_B32, 1, 1, 0, 0, IF_SDST) \
	X(V_CVT_I32_F64, "v_cvt_i32_f64", FMT_VOP1, 0x03, SAME, T_F64, 1, 2, 0, 0, 0) \
	X(V_CVT_F64_I32, "v_cvt_f64_i32", FMT_VOP1, 0x04, SAME, T_I32, 2, 1, 0, 0, 0) \
	X(V_CVT_F32_I32, "v_cvt_f32_i32", FMT_VOP1, 0x05, SAME, T_I32, 1, 1, 0, 0, 0) \
	X(V_CVT_F32_U32, "v_cvt_f32_u32", FMT_VOP1, 0x06, SAME, T_U32, 1, 1, 0, 0, 0) \
	X(V_CVT_U32_F32, "v_cvt_u32_f32", FMT_VOP1, 0x07, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_CVT_I32_F32, "v_cvt_i32_f32", FMT_VOP1, 0x08, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_CVT_F16_F32, "v_cvt_f16_f32", FMT_VOP1, 0x0a, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_CVT_F32_F16, "v_cvt_f32_f16", FMT_VOP1, 0x0b, SAME, T_F16, 1, 1, 0, 0, 0) \
	X(V_CVT_RPI_I32_F32, "v_cvt_rpi_i32_f32", FMT_VOP1, 0x0c, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_CVT_FLR_I32_F32, "v_cvt_flr_i32_f32", FMT_VOP1, 0x0d, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_CVT_F32_F64, "v_cvt_f32_f64", FMT_VOP1, 0x0f, SAME, T_F64, 1, 2, 0, 0, 0) \
	X(V_CVT_F64_F32, "v_cvt_f64_f32", FMT_VOP1, 0x10, SAME, T_F32, 2, 1, 0, 0, 0) \
	X(V_CVT_F32_UBYTE0, "v_cvt_f32_ubyte0", FMT_VOP1, 0x11, SAME, T_U32, 1, 1, 0, 0, 0) \
	X(V_CVT_OFF_F32_I4, "v_cvt_off_f32_i4", FMT_VOP1, 0x0e, SAME, T_U32, 1, 1, 0, 0, 0) \
	X(V_CVT_F32_UBYTE1, "v_cvt_f32_ubyte1", FMT_VOP1, 0x12, SAME, T_U32, 1, 1, 0, 0, 0) \
	X(V_CVT_F32_UBYTE2, "v_cvt_f32_ubyte2", FMT_VOP1, 0x13, SAME, T_U32, 1, 1, 0, 0, 0) \
	X(V_CVT_F32_UBYTE3, "v_cvt_f32_ubyte3", FMT_VOP1, 0x14, SAME, T_U32, 1, 1, 0, 0, 0) \
	X(V_CVT_U32_F64, "v_cvt_u32_f64", FMT_VOP1, 0x15, SAME, T_F64, 1, 2, 0, 0, 0) \
	X(V_CVT_F64_U32, "v_cvt_f64_u32", FMT_VOP1, 0x16, SAME, T_U32, 2, 1, 0, 0, 0) \
	X(V_TRUNC_F64, "v_trunc_f64", FMT_VOP1, 0x17, SAME, T_F64, 2, 2, 0, 0, 0) \
	X(V_CEIL_F64, "v_ceil_f64", FMT_VOP1, 0x18, SAME, T_F64, 2, 2, 0, 0, 0) \
	X(V_RNDNE_F64, "v_rndne_f64", FMT_VOP1, 0x19, SAME, T_F64, 2, 2, 0, 0, 0) \
	X(V_FLOOR_F64, "v_floor_f64", FMT_VOP1, 0x1a, SAME, T_F64, 2, 2, 0, 0, 0) \
	X(V_FRACT_F32, "v_fract_f32", FMT_VOP1, 0x1b, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_TRUNC_F32, "v_trunc_f32", FMT_VOP1, 0x1c, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_CEIL_F32, "v_ceil_f32", FMT_VOP1, 0x1d, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_RNDNE_F32, "v_rndne_f32", FMT_VOP1, 0x1e, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_FLOOR_F32, "v_floor_f32", FMT_VOP1, 0x1f, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_EXP_F32, "v_exp_f32", FMT_VOP1, 0x20, SAME, T_F32, 1, 1, 0, 0, IF_TRANS) \
	X(V_LOG_F32, "v_log_f32", FMT_VOP1, 0x21, SAME, T_F32, 1, 1, 0, 0, IF_TRANS) \
	X(V_RCP_F32, "v_rcp_f32", FMT_VOP1, 0x22, SAME, T_F32, 1, 1, 0, 0, IF_TRANS) \
	X(V_RCP_IFLAG_F32, "v_rcp_iflag_f32", FMT_VOP1, 0x23, SAME, T_F32, 1, 1, 0, 0, IF_TRANS) \
	X(V_RSQ_F32, "v_rsq_f32", FMT_VOP1, 0x24, SAME, T_F32, 1, 1, 0, 0, IF_TRANS) \
	X(V_RCP_F64, "v_rcp_f64", FMT_VOP1, 0x25, SAME, T_F64, 2, 2, 0, 0, IF_TRANS) \
	X(V_RSQ_F64, "v_rsq_f64", FMT_VOP1, 0x26, SAME, T_F64, 2, 2, 0, 0, IF_TRANS) \
	X(V_SQRT_F32, "v_sqrt_f32", FMT_VOP1, 0x27, SAME, T_F32, 1, 1, 0, 0, IF_TRANS) \
	X(V_SQRT_F64, "v_sqrt_f64", FMT_VOP1, 0x28, SAME, T_F64, 2, 2, 0, 0, IF_TRANS) \
	X(V_SIN_F32, "v_sin_f32", FMT_VOP1, 0x29, SAME, T_F32, 1, 1, 0, 0, IF_TRANS) \
	X(V_COS_F32, "v_cos_f32", FMT_VOP1, 0x2a, SAME, T_F32, 1, 1, 0, 0, IF_TRANS) \
	X(V_NOT_B32, "v_not_b32", FMT_VOP1, 0x2b, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(V_BFREV_B32, "v_bfrev_b32", FMT_VOP1, 0x2c, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(V_FFBH_U32, "v_ffbh_u32", FMT_VOP1, 0x2d, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(V_FFBL_B32, "v_ffbl_b32", FMT_VOP1, 0x2e, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(V_FFBH_I32, "v_ffbh_i32", FMT_VOP1, 0x2f, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(V_FREXP_EXP_I32_F32, "v_frexp_exp_i32_f32", FMT_VOP1, 0x33, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_FREXP_MANT_F32, "v_frexp_mant_f32", FMT_VOP1, 0x34, SAME, T_F32, 1, 1, 0, 0, 0) \
	X(V_CVT_F16_U16, "v_cvt_f16_u16", FMT_VOP1, 0x39, SAME, T_U16, 1, 1, 0, 0, 0) \
	X(V_CVT_F16_I16, "v_cvt_f16_i16", FMT_VOP1, 0x3a, SAME, T_I16, 1, 1, 0, 0, 0) \
	X(V_CVT_U16_F16, "v_cvt_u16_f16", FMT_VOP1, 0x3b, SAME, T_F16, 1, 1, 0, 0, 0) \
	X(V_CVT_I16_F16, "v_cvt_i16_f16", FMT_VOP1, 0x3c, SAME, T_F16, 1, 1, 0, 0, 0) \
	X(V_RCP_F16, "v_rcp_f16", FMT_VOP1, 0x3d, SAME, T_F16, 1, 1, 0, 0, IF_TRANS) \
	X(V_SQRT_F16, "v_sqrt_f16", FMT_VOP1, 0x3e, SAME, T_F16, 1, 1, 0, 0, IF_TRANS) \
	X(V_RSQ_F16, "v_rsq_f16", FMT_VOP1, 0x3f, SAME, T_F16, 1, 1, 0, 0, IF_TRANS) \
	X(V_LOG_F16, "v_log_f16", FMT_VOP1, 0x40, SAME, T_F16, 1, 1, 0, 0, IF_TRANS) \
	X(V_EXP_F16, "v_exp_f16", FMT_VOP1, 0x41, SAME, T_F16, 1, 1, 0, 0, IF_TRANS) \
	X(V_FLOOR_F16, "v_floor_f16", FMT_VOP1, 0x44, SAME, T_F16, 1, 1, 0, 0, 0) \
	X(V_CEIL_F16, "v_ceil_f16", FMT_VOP1, 0x45, SAME, T_F16, 1, 1, 0, 0, 0) \
	X(V_TRUNC_F16, "v_trunc_f16", FMT_VOP1, 0x46, SAME, T_F16, 1, 1, 0, 0, 0) \
	X(V_RNDNE_F16, "v_rndne_f16", FMT_VOP1, 0x47, SAME, T_F16, 1, 1, 0, 0, 0) \
	X(V_FRACT_F16, "v_fract_f16", FMT_VOP1, 0x48, SAME, T_F16, 1, 1, 0, 0, 0) \
	X(V_MOV_B64, "v_mov_b64", FMT_VOP1, 0x38, NA, T_B64, 2, 2, 0, 0, 0) \
	X(V_CVT_F32_FP8, "v_cvt_f32_fp8", FMT_VOP1, 0x54, NA, T_B32, 1, 1, 0, 0, 0) \
	X(V_CVT_F32_BF8, "v_cvt_f32_bf8", FMT_VOP1, 0x55, NA, T_B32, 1, 1, 0, 0, 0) \
	X(V_CVT_PK_F32_FP8, "v_cvt_pk_f32_fp8", FMT_VOP1, 0x56, NA, T_B32, 2, 1, 0, 0, 0) \
	X(V_CVT_PK_F32_BF8, "v_cvt_pk_f32_bf8", FMT_VOP1, 0x57, NA, T_B32, 2, 1, 0, 0, 0) \
	X(V_SWAP_B32, "v_swap_b32", FMT_VOP1, 0x51, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(V_ACCVGPR_MOV_B32, "v_accvgpr_mov_b32", FMT_VOP1, 0x52, SAME, T_B32, 1, 1, 0, 0, 0)

#define ISA_INSTS_VOP2(X) \
	X(V_CNDMASK_B32, "v_cndmask_b32", FMT_VOP2, 0x00, SAME, T_B32, 1, 1, 1, 0, IF_VCCIN) \
	X(V_ADD_F32, "v_add_f32", FMT_VOP2, 0x01, SAME, T_F32, 1, 1, 1, 0, 0) \
	X(V_SUB_F32, "v_sub_f32", FMT_VOP2, 0x02, SAME, T_F32, 1, 1, 1, 0, 0) \
	X(V_SUBREV_F32, "v_subrev_f32", FMT_VOP2, 0x03, SAME, T_F32, 1, 1, 1, 0, 0) \
	X(V_FMAC_F64, "v_fmac_f64", FMT_VOP2, 0x04, SAME, T_F64, 2, 2, 2, 0, 0) \
	X(V_MUL_F32, "v_mul_f32", FMT_VOP2, 0x05, SAME, T_F32, 1, 1, 1, 0, 0) \
	X(V_MUL_I32_I24, "v_mul_i32_i24", FMT_VOP2, 0x06, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(V_MUL_HI_I32_I24, "v_mul_hi_i32_i24", FMT_VOP2, 0x07, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(V_MUL_U32_U24, "v_mul_u32_u24", FMT_VOP2, 0x08, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(V_MUL_HI_U32_U24, "v_mul_hi_u32_u24", FMT_VOP2, 0x09, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(V_MIN_F32, "v_min_f32", FMT_VOP2, 0x0a, SAME, T_F32, 1, 1, 1, 0, 0) \
	X(V_MAX_F32, "v_max_f32", FMT_VOP2, 0x0b, SAME, T_F32, 1, 1, 1, 0, 0) \
	X(V_MIN_I32, "v_min_i32", FMT_VOP2, 0x0c, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(V_MAX_I32, "v_max_i32", FMT_VOP2, 0x0d, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(V_MIN_U32, "v_min_u32", FMT_VOP2, 0x0e, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(V_MAX_U32, "v_max_u32", FMT_VOP2, 0x0f, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(V_LSHRREV_B32, "v_lshrrev_b32", FMT_VOP2, 0x10, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(V_ASHRREV_I32, "v_ashrrev_i32", FMT_VOP2, 0x11, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(V_LSHLREV_B32, "v_lshlrev_b32", FMT_VOP2, 0x12, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(V_AND_B32, "v_and_b32", FMT_VOP2, 0x13, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(V_OR_B32, "v_or_b32", FMT_VOP2, 0x14, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(V_XOR_B32, "v_xor_b32", FMT_VOP2, 0x15, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(V_MAC_F32, "v_mac_f32", FMT_VOP2, NA, 0x16, T_F32, 1, 1, 1, 0, 0) \
	X(V_MADMK_F32, "v_madmk_f32", FMT_VOP2, NA, 0x17, T_F32, 1, 1, 1, 0, 0) \
	X(V_MADAK_F32, "v_madak_f32", FMT_VOP2, NA, 0x18, T_F32, 1, 1, 1, 0, 0) \
	X(V_FMAMK_F32, "v_fmamk_f32", FMT_VOP2, 0x17, NA, T_F32, 1, 1, 1, 0, 0) \
	X(V_FMAAK_F32, "v_fmaak_f32", FMT_VOP2, 0x18, NA, T_F32, 1, 1, 1, 0, 0) \
	X(V_ADD_CO_U32, "v_add_co_u32", FMT_VOP2, 0x19, SAME, T_U32, 1, 1, 1, 0, IF_VOP3B | IF_VCCOUT) \
	X(V_SUB_CO_U32, "v_sub_co_u32", FMT_VOP2, 0x1a, SAME, T_U32, 1, 1, 1, 0, IF_VOP3B | IF_VCCOUT) \
	X(V_SUBREV_CO_U32, "v_subrev_co_u32", FMT_VOP2, 0x1b, SAME, T_U32, 1, 1, 1, 0, IF_VOP3B | IF_VCCOUT) \
	X(V_ADDC_CO_U32, "v_addc_co_u32", FMT_VOP2, 0x1c, SAME, T_U32, 1, 1, 1, 0, IF_VOP3B | IF_VCCIN | IF_VCCOUT) \
	X(V_SUBB_CO_U32, "v_subb_co_u32", FMT_VOP2, 0x1d, SAME, T_U32, 1, 1, 1, 0, IF_VOP3B | IF_VCCIN | IF_VCCOUT) \
	X(V_SUBBREV_CO_U32, "v_subbrev_co_u32", FMT_VOP2, 0x1e, SAME, T_U32, 1, 1, 1, 0, IF_VOP3B | IF_VCCIN | IF_VCCOUT) \
	X(V_ADD_F16, "v_add_f16", FMT_VOP2, 0x1f, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_SUB_F16, "v_sub_f16", FMT_VOP2, 0x20, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_SUBREV_F16, "v_subrev_f16", FMT_VOP2, 0x21, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_MUL_F16, "v_mul_f16", FMT_VOP2, 0x22, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_MAC_F16, "v_mac_f16", FMT_VOP2, 0x23, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_ADD_U16, "v_add_u16", FMT_VOP2, 0x26, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_SUB_U16, "v_sub_u16", FMT_VOP2, 0x27, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_SUBREV_U16, "v_subrev_u16", FMT_VOP2, 0x28, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_MUL_LO_U16, "v_mul_lo_u16", FMT_VOP2, 0x29, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_LSHLREV_B16, "v_lshlrev_b16", FMT_VOP2, 0x2a, SAME, T_B16, 1, 1, 1, 0, 0) \
	X(V_LSHRREV_B16, "v_lshrrev_b16", FMT_VOP2, 0x2b, SAME, T_B16, 1, 1, 1, 0, 0) \
	X(V_ASHRREV_I16, "v_ashrrev_i16", FMT_VOP2, 0x2c, SAME, T_I16, 1, 1, 1, 0, 0) \
	X(V_MAX_F16, "v_max_f16", FMT_VOP2, 0x2d, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_MIN_F16, "v_min_f16", FMT_VOP2, 0x2e, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_MAX_U16, "v_max_u16", FMT_VOP2, 0x2f, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_MAX_I16, "v_max_i16", FMT_VOP2, 0x30, SAME, T_I16, 1, 1, 1, 0, 0) \
	X(V_MIN_U16, "v_min_u16", FMT_VOP2, 0x31, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_MIN_I16, "v_min_i16", FMT_VOP2, 0x32, SAME, T_I16, 1, 1, 1, 0, 0) \
	X(V_LDEXP_F16, "v_ldexp_f16", FMT_VOP2, 0x33, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_ADD_U32, "v_add_u32", FMT_VOP2, 0x34, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(V_SUB_U32, "v_sub_u32", FMT_VOP2, 0x35, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(V_SUBREV_U32, "v_subrev_u32", FMT_VOP2, 0x36, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(V_DOT2C_F32_F16, "v_dot2c_f32_f16", FMT_VOP2, 0x37, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_DOT4C_I32_I8, "v_dot4c_i32_i8", FMT_VOP2, 0x39, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(V_FMAC_F32, "v_fmac_f32", FMT_VOP2, 0x3b, SAME, T_F32, 1, 1, 1, 0, 0) \
	X(V_XNOR_B32, "v_xnor_b32", FMT_VOP2, 0x3d, SAME, T_B32, 1, 1, 1, 0, 0)

/* VOPC: the compare family is generated from (type, base opcode) below. */
#define ISA_CMP_F(X, T, t, base, cls, fl, fs, ff) \
	X(V_CMP##fl##_F_##T, "v_cmp" fs "_f_" #t, FMT_VOPC, base + 0, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_LT_##T, "v_cmp" fs "_lt_" #t, FMT_VOPC, base + 1, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_EQ_##T, "v_cmp" fs "_eq_" #t, FMT_VOPC, base + 2, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_LE_##T, "v_cmp" fs "_le_" #t, FMT_VOPC, base + 3, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_GT_##T, "v_cmp" fs "_gt_" #t, FMT_VOPC, base + 4, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_LG_##T, "v_cmp" fs "_lg_" #t, FMT_VOPC, base + 5, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_GE_##T, "v_cmp" fs "_ge_" #t, FMT_VOPC, base + 6, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_O_##T, "v_cmp" fs "_o_" #t, FMT_VOPC, base + 7, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_U_##T, "v_cmp" fs "_u_" #t, FMT_VOPC, base + 8, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_NGE_##T, "v_cmp" fs "_nge_" #t, FMT_VOPC, base + 9, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_NLG_##T, "v_cmp" fs "_nlg_" #t, FMT_VOPC, base + 10, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_NGT_##T, "v_cmp" fs "_ngt_" #t, FMT_VOPC, base + 11, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_NLE_##T, "v_cmp" fs "_nle_" #t, FMT_VOPC, base + 12, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_NEQ_##T, "v_cmp" fs "_neq_" #t, FMT_VOPC, base + 13, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_NLT_##T, "v_cmp" fs "_nlt_" #t, FMT_VOPC, base + 14, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_TRU_##T, "v_cmp" fs "_tru_" #t, FMT_VOPC, base + 15, SAME, cls, 2, 1, 1, 0, ff)
#define ISA_CMP_I(X, T, t, base, cls, fl, fs, ff) \
	X(V_CMP##fl##_F_##T, "v_cmp" fs "_f_" #t, FMT_VOPC, base + 0, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_LT_##T, "v_cmp" fs "_lt_" #t, FMT_VOPC, base + 1, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_EQ_##T, "v_cmp" fs "_eq_" #t, FMT_VOPC, base + 2, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_LE_##T, "v_cmp" fs "_le_" #t, FMT_VOPC, base + 3, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_GT_##T, "v_cmp" fs "_gt_" #t, FMT_VOPC, base + 4, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_NE_##T, "v_cmp" fs "_ne_" #t, FMT_VOPC, base + 5, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_GE_##T, "v_cmp" fs "_ge_" #t, FMT_VOPC, base + 6, SAME, cls, 2, 1, 1, 0, ff) \
	X(V_CMP##fl##_T_##T, "v_cmp" fs "_t_" #t, FMT_VOPC, base + 7, SAME, cls, 2, 1, 1, 0, ff)

/* The compare row's "width" fields are adjusted for 64-bit types by the
 * decoder (type T_F64/T_I64/T_U64 means two-dword sources). */
#define ISA_INSTS_VOPC(X) \
	X(V_CMP_CLASS_F32, "v_cmp_class_f32", FMT_VOPC, 0x10, SAME, T_F32, 2, 1, 1, 0, 0) \
	X(V_CMPX_CLASS_F32, "v_cmpx_class_f32", FMT_VOPC, 0x11, SAME, T_F32, 2, 1, 1, 0, IF_CMPX) \
	X(V_CMP_CLASS_F64, "v_cmp_class_f64", FMT_VOPC, 0x12, SAME, T_F64, 2, 2, 1, 0, 0) \
	X(V_CMP_CLASS_F16, "v_cmp_class_f16", FMT_VOPC, 0x14, SAME, T_F16, 2, 1, 1, 0, 0) \
	ISA_CMP_F(X, F16, f16, 0x20, T_F16, , "", 0) \
	ISA_CMP_F(X, F32, f32, 0x40, T_F32, , "", 0) \
	ISA_CMP_F(X, F64, f64, 0x60, T_F64, , "", 0) \
	ISA_CMP_I(X, I16, i16, 0xa0, T_I16, , "", 0) \
	ISA_CMP_I(X, U16, u16, 0xa8, T_U16, , "", 0) \
	ISA_CMP_I(X, I32, i32, 0xc0, T_I32, , "", 0) \
	ISA_CMP_I(X, U32, u32, 0xc8, T_U32, , "", 0) \
	ISA_CMP_I(X, I64, i64, 0xe0, T_I64, , "", 0) \
	ISA_CMP_I(X, U64, u64, 0xe8, T_U64, , "", 0) \
	ISA_CMPX_ROWS(X)
/* The v_cmpx rows: the literal X below is the name infix (V_CMPX_*), so the
 * row macro parameter has another name. */
#define ISA_CMPX_ROWS(R) \
	ISA_CMP_F(R, F16, f16, 0x30, T_F16, X, "x", IF_CMPX) \
	ISA_CMP_F(R, F32, f32, 0x50, T_F32, X, "x", IF_CMPX) \
	ISA_CMP_F(R, F64, f64, 0x70, T_F64, X, "x", IF_CMPX) \
	ISA_CMP_I(R, I16, i16, 0xb0, T_I16, X, "x", IF_CMPX) \
	ISA_CMP_I(R, U16, u16, 0xb8, T_U16, X, "x", IF_CMPX) \
	ISA_CMP_I(R, I32, i32, 0xd0, T_I32, X, "x", IF_CMPX) \
	ISA_CMP_I(R, U32, u32, 0xd8, T_U32, X, "x", IF_CMPX) \
	ISA_CMP_I(R, I64, i64, 0xf0, T_I64, X, "x", IF_CMPX) \
	ISA_CMP_I(R, U64, u64, 0xf8, T_U64, X, "x", IF_CMPX)

#define ISA_INSTS_VOP3(X) \
	X(V_MAD_F32, "v_mad_f32", FMT_VOP3, NA, 0x1c1, T_F32, 1, 1, 1, 1, 0) \
	X(V_MAD_I32_I24, "v_mad_i32_i24", FMT_VOP3, 0x1c2, SAME, T_I32, 1, 1, 1, 1, 0) \
	X(V_MAD_U32_U24, "v_mad_u32_u24", FMT_VOP3, 0x1c3, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_BFE_U32, "v_bfe_u32", FMT_VOP3, 0x1c8, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_BFE_I32, "v_bfe_i32", FMT_VOP3, 0x1c9, SAME, T_I32, 1, 1, 1, 1, 0) \
	X(V_BFI_B32, "v_bfi_b32", FMT_VOP3, 0x1ca, SAME, T_B32, 1, 1, 1, 1, 0) \
	X(V_FMA_F32, "v_fma_f32", FMT_VOP3, 0x1cb, SAME, T_F32, 1, 1, 1, 1, 0) \
	X(V_FMA_F64, "v_fma_f64", FMT_VOP3, 0x1cc, SAME, T_F64, 2, 2, 2, 2, 0) \
	X(V_ALIGNBIT_B32, "v_alignbit_b32", FMT_VOP3, 0x1ce, SAME, T_B32, 1, 1, 1, 1, 0) \
	X(V_ALIGNBYTE_B32, "v_alignbyte_b32", FMT_VOP3, 0x1cf, SAME, T_B32, 1, 1, 1, 1, 0) \
	X(V_MIN3_F32, "v_min3_f32", FMT_VOP3, 0x1d0, SAME, T_F32, 1, 1, 1, 1, 0) \
	X(V_MIN3_I32, "v_min3_i32", FMT_VOP3, 0x1d1, SAME, T_I32, 1, 1, 1, 1, 0) \
	X(V_MIN3_U32, "v_min3_u32", FMT_VOP3, 0x1d2, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_MAX3_F32, "v_max3_f32", FMT_VOP3, 0x1d3, SAME, T_F32, 1, 1, 1, 1, 0) \
	X(V_MAX3_I32, "v_max3_i32", FMT_VOP3, 0x1d4, SAME, T_I32, 1, 1, 1, 1, 0) \
	X(V_MAX3_U32, "v_max3_u32", FMT_VOP3, 0x1d5, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_MED3_F32, "v_med3_f32", FMT_VOP3, 0x1d6, SAME, T_F32, 1, 1, 1, 1, 0) \
	X(V_MED3_I32, "v_med3_i32", FMT_VOP3, 0x1d7, SAME, T_I32, 1, 1, 1, 1, 0) \
	X(V_MED3_U32, "v_med3_u32", FMT_VOP3, 0x1d8, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_SAD_U8, "v_sad_u8", FMT_VOP3, 0x1d9, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_SAD_HI_U8, "v_sad_hi_u8", FMT_VOP3, 0x1da, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_SAD_U16, "v_sad_u16", FMT_VOP3, 0x1db, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_SAD_U32, "v_sad_u32", FMT_VOP3, 0x1dc, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_DIV_FIXUP_F32, "v_div_fixup_f32", FMT_VOP3, 0x1de, SAME, T_F32, 1, 1, 1, 1, 0) \
	X(V_DIV_FIXUP_F64, "v_div_fixup_f64", FMT_VOP3, 0x1df, SAME, T_F64, 2, 2, 2, 2, 0) \
	X(V_DIV_SCALE_F32, "v_div_scale_f32", FMT_VOP3, 0x1e0, SAME, T_F32, 1, 1, 1, 1, IF_VOP3B) \
	X(V_DIV_SCALE_F64, "v_div_scale_f64", FMT_VOP3, 0x1e1, SAME, T_F64, 2, 2, 2, 2, IF_VOP3B) \
	X(V_DIV_FMAS_F32, "v_div_fmas_f32", FMT_VOP3, 0x1e2, SAME, T_F32, 1, 1, 1, 1, 0) \
	X(V_DIV_FMAS_F64, "v_div_fmas_f64", FMT_VOP3, 0x1e3, SAME, T_F64, 2, 2, 2, 2, 0) \
	X(V_MSAD_U8, "v_msad_u8", FMT_VOP3, 0x1e4, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_MAD_U64_U32, "v_mad_u64_u32", FMT_VOP3, 0x1e8, SAME, T_U32, 2, 1, 1, 2, IF_VOP3B) \
	X(V_MAD_I64_I32, "v_mad_i64_i32", FMT_VOP3, 0x1e9, SAME, T_I32, 2, 1, 1, 2, IF_VOP3B) \
	X(V_MAD_LEGACY_F16, "v_mad_legacy_f16", FMT_VOP3, 0x1ea, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_MAD_LEGACY_U16, "v_mad_legacy_u16", FMT_VOP3, 0x1eb, SAME, T_U16, 1, 1, 1, 1, 0) \
	X(V_MAD_LEGACY_I16, "v_mad_legacy_i16", FMT_VOP3, 0x1ec, SAME, T_I16, 1, 1, 1, 1, 0) \
	X(V_PERM_B32, "v_perm_b32", FMT_VOP3, 0x1ed, SAME, T_B32, 1, 1, 1, 1, 0) \
	X(V_FMA_LEGACY_F16, "v_fma_legacy_f16", FMT_VOP3, 0x1ee, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_MAD_U32_U16, "v_mad_u32_u16", FMT_VOP3, 0x1f1, SAME, T_U16, 1, 1, 1, 1, 0) \
	X(V_MAD_I32_I16, "v_mad_i32_i16", FMT_VOP3, 0x1f2, SAME, T_I16, 1, 1, 1, 1, 0) \
	X(V_XAD_U32, "v_xad_u32", FMT_VOP3, 0x1f3, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_MIN3_F16, "v_min3_f16", FMT_VOP3, 0x1f4, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_MAX3_F16, "v_max3_f16", FMT_VOP3, 0x1f7, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_MED3_F16, "v_med3_f16", FMT_VOP3, 0x1fa, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_LSHL_ADD_U32, "v_lshl_add_u32", FMT_VOP3, 0x1fd, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_ADD_LSHL_U32, "v_add_lshl_u32", FMT_VOP3, 0x1fe, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_ADD3_U32, "v_add3_u32", FMT_VOP3, 0x1ff, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_LSHL_OR_B32, "v_lshl_or_b32", FMT_VOP3, 0x200, SAME, T_B32, 1, 1, 1, 1, 0) \
	X(V_AND_OR_B32, "v_and_or_b32", FMT_VOP3, 0x201, SAME, T_B32, 1, 1, 1, 1, 0) \
	X(V_OR3_B32, "v_or3_b32", FMT_VOP3, 0x202, SAME, T_B32, 1, 1, 1, 1, 0) \
	X(V_MAD_F16, "v_mad_f16", FMT_VOP3, 0x203, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_MAD_U16, "v_mad_u16", FMT_VOP3, 0x204, SAME, T_U16, 1, 1, 1, 1, 0) \
	X(V_MAD_I16, "v_mad_i16", FMT_VOP3, 0x205, SAME, T_I16, 1, 1, 1, 1, 0) \
	X(V_FMA_F16, "v_fma_f16", FMT_VOP3, 0x206, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_DIV_FIXUP_F16, "v_div_fixup_f16", FMT_VOP3, 0x207, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_LSHL_ADD_U64, "v_lshl_add_u64", FMT_VOP3, 0x208, NA, T_U64, 2, 2, 1, 2, 0) \
	X(V_ADD_F64, "v_add_f64", FMT_VOP3, 0x280, SAME, T_F64, 2, 2, 2, 0, 0) \
	X(V_MUL_F64, "v_mul_f64", FMT_VOP3, 0x281, SAME, T_F64, 2, 2, 2, 0, 0) \
	X(V_MIN_F64, "v_min_f64", FMT_VOP3, 0x282, SAME, T_F64, 2, 2, 2, 0, 0) \
	X(V_MAX_F64, "v_max_f64", FMT_VOP3, 0x283, SAME, T_F64, 2, 2, 2, 0, 0) \
	X(V_LDEXP_F64, "v_ldexp_f64", FMT_VOP3, 0x284, SAME, T_F64, 2, 2, 1, 0, 0) \
	X(V_MUL_LO_U32, "v_mul_lo_u32", FMT_VOP3, 0x285, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(V_MUL_HI_U32, "v_mul_hi_u32", FMT_VOP3, 0x286, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(V_MUL_HI_I32, "v_mul_hi_i32", FMT_VOP3, 0x287, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(V_LDEXP_F32, "v_ldexp_f32", FMT_VOP3, 0x288, SAME, T_F32, 1, 1, 1, 0, 0) \
	X(V_READLANE_B32, "v_readlane_b32", FMT_VOP3, 0x289, SAME, T_B32, 1, 1, 1, 0, IF_SDST) \
	X(V_WRITELANE_B32, "v_writelane_b32", FMT_VOP3, 0x28a, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(V_BCNT_U32_B32, "v_bcnt_u32_b32", FMT_VOP3, 0x28b, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(V_MBCNT_LO_U32_B32, "v_mbcnt_lo_u32_b32", FMT_VOP3, 0x28c, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(V_MBCNT_HI_U32_B32, "v_mbcnt_hi_u32_b32", FMT_VOP3, 0x28d, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(V_LSHLREV_B64, "v_lshlrev_b64", FMT_VOP3, 0x28f, SAME, T_B64, 2, 1, 2, 0, 0) \
	X(V_LSHRREV_B64, "v_lshrrev_b64", FMT_VOP3, 0x290, SAME, T_B64, 2, 1, 2, 0, 0) \
	X(V_ASHRREV_I64, "v_ashrrev_i64", FMT_VOP3, 0x291, SAME, T_I64, 2, 1, 2, 0, 0) \
	X(V_BFM_B32, "v_bfm_b32", FMT_VOP3, 0x293, SAME, T_B32, 1, 1, 1, 0, 0) \
	X(V_CVT_PKRTZ_F16_F32, "v_cvt_pkrtz_f16_f32", FMT_VOP3, 0x296, SAME, T_F32, 1, 1, 1, 0, 0) \
	X(V_CVT_PK_U16_U32, "v_cvt_pk_u16_u32", FMT_VOP3, 0x297, SAME, T_U32, 1, 1, 1, 0, 0) \
	X(V_CVT_PK_I16_I32, "v_cvt_pk_i16_i32", FMT_VOP3, 0x298, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(V_ADD_I32, "v_add_i32", FMT_VOP3, 0x29c, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(V_SUB_I32, "v_sub_i32", FMT_VOP3, 0x29d, SAME, T_I32, 1, 1, 1, 0, 0) \
	X(V_PACK_B32_F16, "v_pack_b32_f16", FMT_VOP3, 0x2a0, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_MUL_LEGACY_F32, "v_mul_legacy_f32", FMT_VOP3, 0x2a1, SAME, T_F32, 1, 1, 1, 0, 0) \
	X(V_CVT_PK_FP8_F32, "v_cvt_pk_fp8_f32", FMT_VOP3, 0x2a2, NA, T_F32, 1, 1, 1, 0, 0) \
	X(V_CVT_PK_BF8_F32, "v_cvt_pk_bf8_f32", FMT_VOP3, 0x2a3, NA, T_F32, 1, 1, 1, 0, 0) \
	X(V_CVT_SR_FP8_F32, "v_cvt_sr_fp8_f32", FMT_VOP3, 0x2a4, NA, T_F32, 1, 1, 1, 0, 0) \
	X(V_CVT_SR_BF8_F32, "v_cvt_sr_bf8_f32", FMT_VOP3, 0x2a5, NA, T_F32, 1, 1, 1, 0, 0) \
	ISA_INSTS_VOP3_MX(X)

/* gfx950's scaled conversions between f32 and the OCP 8- and 4-bit floats
 * (opcodes from llvm-mc-22 -mcpu=gfx950). The scale is an f32 operand
 * whose exponent field scales (loader/emu/valu.c). op_sel picks the source
 * byte (fp4: op_sel[1:0]; the single fp8: op_sel[1:0]; the fp8 pair: the
 * word, op_sel[0]); the narrowing forms write one byte (fp4: op_sel[3:2])
 * or word (fp8: op_sel[3]) of their destination and keep the rest (the
 * destination is read: MIF_TIED in the machine IR). */
#define ISA_INSTS_VOP3_MX(X) \
	X(V_CVT_SCALEF32_PK_FP8_F32, "v_cvt_scalef32_pk_fp8_f32", FMT_VOP3, 0x235, NA, T_F32, 1, 1, 1, 1, IF_GFX950) \
	X(V_CVT_SCALEF32_PK_BF8_F32, "v_cvt_scalef32_pk_bf8_f32", FMT_VOP3, 0x236, NA, T_F32, 1, 1, 1, 1, IF_GFX950) \
	X(V_CVT_SCALEF32_PK_F32_FP8, "v_cvt_scalef32_pk_f32_fp8", FMT_VOP3, 0x239, NA, T_F32, 2, 1, 1, 0, IF_GFX950) \
	X(V_CVT_SCALEF32_PK_F32_BF8, "v_cvt_scalef32_pk_f32_bf8", FMT_VOP3, 0x23a, NA, T_F32, 2, 1, 1, 0, IF_GFX950) \
	X(V_CVT_SCALEF32_F32_FP8, "v_cvt_scalef32_f32_fp8", FMT_VOP3, 0x23b, NA, T_F32, 1, 1, 1, 0, IF_GFX950) \
	X(V_CVT_SCALEF32_F32_BF8, "v_cvt_scalef32_f32_bf8", FMT_VOP3, 0x23c, NA, T_F32, 1, 1, 1, 0, IF_GFX950) \
	X(V_CVT_SCALEF32_PK_FP4_F32, "v_cvt_scalef32_pk_fp4_f32", FMT_VOP3, 0x23d, NA, T_F32, 1, 1, 1, 1, IF_GFX950) \
	X(V_CVT_SCALEF32_PK_F32_FP4, "v_cvt_scalef32_pk_f32_fp4", FMT_VOP3, 0x23f, NA, T_F32, 2, 1, 1, 0, IF_GFX950)

#define ISA_INSTS_VOP3P(X) \
	X(V_PK_MAD_I16, "v_pk_mad_i16", FMT_VOP3P, 0x00, SAME, T_I16, 1, 1, 1, 1, 0) \
	X(V_PK_MUL_LO_U16, "v_pk_mul_lo_u16", FMT_VOP3P, 0x01, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_PK_ADD_I16, "v_pk_add_i16", FMT_VOP3P, 0x02, SAME, T_I16, 1, 1, 1, 0, 0) \
	X(V_PK_SUB_I16, "v_pk_sub_i16", FMT_VOP3P, 0x03, SAME, T_I16, 1, 1, 1, 0, 0) \
	X(V_PK_LSHLREV_B16, "v_pk_lshlrev_b16", FMT_VOP3P, 0x04, SAME, T_B16, 1, 1, 1, 0, 0) \
	X(V_PK_LSHRREV_B16, "v_pk_lshrrev_b16", FMT_VOP3P, 0x05, SAME, T_B16, 1, 1, 1, 0, 0) \
	X(V_PK_ASHRREV_I16, "v_pk_ashrrev_i16", FMT_VOP3P, 0x06, SAME, T_I16, 1, 1, 1, 0, 0) \
	X(V_PK_MAX_I16, "v_pk_max_i16", FMT_VOP3P, 0x07, SAME, T_I16, 1, 1, 1, 0, 0) \
	X(V_PK_MIN_I16, "v_pk_min_i16", FMT_VOP3P, 0x08, SAME, T_I16, 1, 1, 1, 0, 0) \
	X(V_PK_MAD_U16, "v_pk_mad_u16", FMT_VOP3P, 0x09, SAME, T_U16, 1, 1, 1, 1, 0) \
	X(V_PK_ADD_U16, "v_pk_add_u16", FMT_VOP3P, 0x0a, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_PK_SUB_U16, "v_pk_sub_u16", FMT_VOP3P, 0x0b, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_PK_MAX_U16, "v_pk_max_u16", FMT_VOP3P, 0x0c, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_PK_MIN_U16, "v_pk_min_u16", FMT_VOP3P, 0x0d, SAME, T_U16, 1, 1, 1, 0, 0) \
	X(V_PK_FMA_F16, "v_pk_fma_f16", FMT_VOP3P, 0x0e, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_PK_ADD_F16, "v_pk_add_f16", FMT_VOP3P, 0x0f, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_PK_MUL_F16, "v_pk_mul_f16", FMT_VOP3P, 0x10, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_PK_MIN_F16, "v_pk_min_f16", FMT_VOP3P, 0x11, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_PK_MAX_F16, "v_pk_max_f16", FMT_VOP3P, 0x12, SAME, T_F16, 1, 1, 1, 0, 0) \
	X(V_FMA_MIX_F32, "v_fma_mix_f32", FMT_VOP3P, 0x20, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_FMA_MIXLO_F16, "v_fma_mixlo_f16", FMT_VOP3P, 0x21, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_FMA_MIXHI_F16, "v_fma_mixhi_f16", FMT_VOP3P, 0x22, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_DOT2_F32_F16, "v_dot2_f32_f16", FMT_VOP3P, 0x23, SAME, T_F16, 1, 1, 1, 1, 0) \
	X(V_DOT2_I32_I16, "v_dot2_i32_i16", FMT_VOP3P, 0x26, SAME, T_I16, 1, 1, 1, 1, 0) \
	X(V_DOT2_U32_U16, "v_dot2_u32_u16", FMT_VOP3P, 0x27, SAME, T_U16, 1, 1, 1, 1, 0) \
	X(V_DOT4_I32_I8, "v_dot4_i32_i8", FMT_VOP3P, 0x28, SAME, T_I32, 1, 1, 1, 1, 0) \
	X(V_DOT4_U32_U8, "v_dot4_u32_u8", FMT_VOP3P, 0x29, SAME, T_U32, 1, 1, 1, 1, 0) \
	X(V_PK_FMA_F32, "v_pk_fma_f32", FMT_VOP3P, 0x30, SAME, T_F32, 2, 2, 2, 2, 0) \
	X(V_PK_MUL_F32, "v_pk_mul_f32", FMT_VOP3P, 0x31, SAME, T_F32, 2, 2, 2, 0, 0) \
	X(V_PK_ADD_F32, "v_pk_add_f32", FMT_VOP3P, 0x32, SAME, T_F32, 2, 2, 2, 0, 0) \
	X(V_PK_MOV_B32, "v_pk_mov_b32", FMT_VOP3P, 0x33, SAME, T_B32, 2, 2, 2, 0, 0) \
	X(V_ACCVGPR_READ_B32, "v_accvgpr_read_b32", FMT_VOP3P, 0x58, SAME, T_B32, 1, 1, 0, 0, 0) \
	X(V_ACCVGPR_WRITE_B32, "v_accvgpr_write_b32", FMT_VOP3P, 0x59, SAME, T_B32, 1, 1, 0, 0, 0) \
	/* gfx950: the first half of a scaled MFMA (ISA_INSTS_MFMA_MX), alone */ \
	X(V_MFMA_LD_SCALE_B32, "v_mfma_ld_scale_b32", FMT_VOP3P, 0x2c, NA, T_B32, 0, 1, 1, 0, IF_GFX950)

/* gfx950's doubled-K i8 MFMAs and the f8f6f4 family (opcodes from
 * llvm-mc-22 -mcpu=gfx950, passes from the wait states llc-22 inserts
 * after them). The f8f6f4 rows (IF_F8F6F4) take A's format in cbsz and
 * B's in blgp (0 fp8 e4m3, 1 bf8 e5m2, 2 fp6 e2m3, 3 bf6 e3m2, 4 fp4 e2m1;
 * A/B are 8, 8, 6, 6 or 4 registers: isa_f8f6f4_dwords); their passes are
 * the row's with 6- and 4-bit operands and twice that when A or B is 8-bit
 * (isa_mfma_passes_fmt). The scaled rows (IF_MSCALE) are the VOP3PX2 pair
 * v_mfma_ld_scale_b32 + the MFMA (16 bytes; the MFMA's abid[0] set): two
 * more 1-register sources, the e8m0 scales of A and B, whose byte
 * {op_sel_hi, op_sel} picks; they share the unscaled row's opcode. */
#define ISA_INSTS_MFMA_MX(X) \
	X(V_MFMA_I32_16X16X64_I8, "v_mfma_i32_16x16x64_i8", FMT_VOP3P, 0x36, NA, T_I32, 4, 4, 4, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL | IF_GFX950) \
	X(V_MFMA_I32_32X32X32_I8, "v_mfma_i32_32x32x32_i8", FMT_VOP3P, 0x38, NA, T_I32, 16, 4, 4, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL | IF_GFX950) \
	X(V_MFMA_F32_16X16X128_F8F6F4, "v_mfma_f32_16x16x128_f8f6f4", FMT_VOP3P, 0x2d, NA, T_B32, 4, 8, 8, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL | IF_GFX950 | IF_F8F6F4) \
	X(V_MFMA_F32_32X32X64_F8F6F4, "v_mfma_f32_32x32x64_f8f6f4", FMT_VOP3P, 0x2e, NA, T_B32, 16, 8, 8, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL | IF_GFX950 | IF_F8F6F4) \
	X(V_MFMA_SCALE_F32_16X16X128_F8F6F4, "v_mfma_scale_f32_16x16x128_f8f6f4", FMT_VOP3P, 0x2d, NA, T_B32, 4, 8, 8, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL | IF_GFX950 | IF_F8F6F4 | IF_MSCALE) \
	X(V_MFMA_SCALE_F32_32X32X64_F8F6F4, "v_mfma_scale_f32_32x32x64_f8f6f4", FMT_VOP3P, 0x2e, NA, T_B32, 16, 8, 8, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL | IF_GFX950 | IF_F8F6F4 | IF_MSCALE)

/* MFMA rows: dst/s2 = C/D registers, s0/s1 = A/B registers. The type is the
 * A/B element type; flags carry the passes per target and the XDL pipe.
 * The gfx90a-only i8 rows (32x32x8, 16x16x16; gfx940 replaced them with
 * 32x32x16 and 16x16x32) keep the underscore spelling of the others so
 * isa_mnemonic derives gfx90a's v_mfma_i32_32x32x8i8 from it. */
#define ISA_INSTS_MFMA(X) \
	X(V_MFMA_F32_32X32X1_2B_F32, "v_mfma_f32_32x32x1_2b_f32", FMT_VOP3P, 0x40, SAME, T_F32, 32, 1, 1, 32, IF_MFMA | IF_PASSES(16, 16)) \
	X(V_MFMA_F32_16X16X1_4B_F32, "v_mfma_f32_16x16x1_4b_f32", FMT_VOP3P, 0x41, SAME, T_F32, 16, 1, 1, 16, IF_MFMA | IF_PASSES(8, 8)) \
	X(V_MFMA_F32_4X4X1_16B_F32, "v_mfma_f32_4x4x1_16b_f32", FMT_VOP3P, 0x42, SAME, T_F32, 4, 1, 1, 4, IF_MFMA | IF_PASSES(2, 2)) \
	X(V_MFMA_F32_32X32X2_F32, "v_mfma_f32_32x32x2_f32", FMT_VOP3P, 0x44, SAME, T_F32, 16, 1, 1, 16, IF_MFMA | IF_PASSES(16, 16)) \
	X(V_MFMA_F32_16X16X4_F32, "v_mfma_f32_16x16x4_f32", FMT_VOP3P, 0x45, SAME, T_F32, 4, 1, 1, 4, IF_MFMA | IF_PASSES(8, 8)) \
	X(V_MFMA_F32_32X32X4_2B_F16, "v_mfma_f32_32x32x4_2b_f16", FMT_VOP3P, 0x48, SAME, T_F16, 32, 2, 2, 32, IF_MFMA | IF_PASSES(16, 16) | IF_XDL) \
	X(V_MFMA_F32_16X16X4_4B_F16, "v_mfma_f32_16x16x4_4b_f16", FMT_VOP3P, 0x49, SAME, T_F16, 16, 2, 2, 16, IF_MFMA | IF_PASSES(8, 8) | IF_XDL) \
	X(V_MFMA_F32_4X4X4_16B_F16, "v_mfma_f32_4x4x4_16b_f16", FMT_VOP3P, 0x4a, SAME, T_F16, 4, 2, 2, 4, IF_MFMA | IF_PASSES(2, 2) | IF_XDL) \
	X(V_MFMA_F32_32X32X8_F16, "v_mfma_f32_32x32x8_f16", FMT_VOP3P, 0x4c, SAME, T_F16, 16, 2, 2, 16, IF_MFMA | IF_PASSES(8, 16) | IF_XDL) \
	X(V_MFMA_F32_16X16X16_F16, "v_mfma_f32_16x16x16_f16", FMT_VOP3P, 0x4d, SAME, T_F16, 4, 2, 2, 4, IF_MFMA | IF_PASSES(4, 8) | IF_XDL) \
	X(V_MFMA_F32_32X32X4_2B_BF16, "v_mfma_f32_32x32x4_2b_bf16", FMT_VOP3P, 0x5d, 0x63, T_BF16, 32, 2, 2, 32, IF_MFMA | IF_PASSES(16, 16) | IF_XDL) \
	X(V_MFMA_F32_16X16X4_4B_BF16, "v_mfma_f32_16x16x4_4b_bf16", FMT_VOP3P, 0x5e, 0x64, T_BF16, 16, 2, 2, 16, IF_MFMA | IF_PASSES(8, 8) | IF_XDL) \
	X(V_MFMA_F32_4X4X4_16B_BF16, "v_mfma_f32_4x4x4_16b_bf16", FMT_VOP3P, 0x5f, 0x65, T_BF16, 4, 2, 2, 4, IF_MFMA | IF_PASSES(2, 2) | IF_XDL) \
	X(V_MFMA_F32_32X32X8_BF16, "v_mfma_f32_32x32x8_bf16", FMT_VOP3P, 0x60, 0x66, T_BF16, 16, 2, 2, 16, IF_MFMA | IF_PASSES(8, 16) | IF_XDL) \
	X(V_MFMA_F32_16X16X16_BF16, "v_mfma_f32_16x16x16_bf16", FMT_VOP3P, 0x61, 0x67, T_BF16, 4, 2, 2, 4, IF_MFMA | IF_PASSES(4, 8) | IF_XDL) \
	X(V_MFMA_I32_32X32X4_2B_I8, "v_mfma_i32_32x32x4_2b_i8", FMT_VOP3P, 0x50, SAME, T_I32, 32, 1, 1, 32, IF_MFMA | IF_PASSES(16, 16) | IF_XDL) \
	X(V_MFMA_I32_16X16X4_4B_I8, "v_mfma_i32_16x16x4_4b_i8", FMT_VOP3P, 0x51, SAME, T_I32, 16, 1, 1, 16, IF_MFMA | IF_PASSES(8, 8) | IF_XDL) \
	X(V_MFMA_I32_4X4X4_16B_I8, "v_mfma_i32_4x4x4_16b_i8", FMT_VOP3P, 0x52, SAME, T_I32, 4, 1, 1, 4, IF_MFMA | IF_PASSES(2, 2) | IF_XDL) \
	X(V_MFMA_I32_32X32X8_I8, "v_mfma_i32_32x32x8_i8", FMT_VOP3P, NA, 0x54, T_I32, 16, 1, 1, 16, IF_MFMA | IF_PASSES(0, 16) | IF_XDL) \
	X(V_MFMA_I32_16X16X16_I8, "v_mfma_i32_16x16x16_i8", FMT_VOP3P, NA, 0x55, T_I32, 4, 1, 1, 4, IF_MFMA | IF_PASSES(0, 8) | IF_XDL) \
	X(V_MFMA_I32_32X32X16_I8, "v_mfma_i32_32x32x16_i8", FMT_VOP3P, 0x56, NA, T_I32, 16, 2, 2, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL) \
	X(V_MFMA_I32_16X16X32_I8, "v_mfma_i32_16x16x32_i8", FMT_VOP3P, 0x57, NA, T_I32, 4, 2, 2, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL) \
	X(V_MFMA_F32_16X16X8_XF32, "v_mfma_f32_16x16x8_xf32", FMT_VOP3P, 0x3e, NA, T_F32, 4, 2, 2, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL) \
	X(V_MFMA_F32_32X32X4_XF32, "v_mfma_f32_32x32x4_xf32", FMT_VOP3P, 0x3f, NA, T_F32, 16, 2, 2, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL) \
	X(V_MFMA_F32_16X16X32_BF8_BF8, "v_mfma_f32_16x16x32_bf8_bf8", FMT_VOP3P, 0x70, NA, T_B32, 4, 2, 2, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL) \
	X(V_MFMA_F32_16X16X32_BF8_FP8, "v_mfma_f32_16x16x32_bf8_fp8", FMT_VOP3P, 0x71, NA, T_B32, 4, 2, 2, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL) \
	X(V_MFMA_F32_16X16X32_FP8_BF8, "v_mfma_f32_16x16x32_fp8_bf8", FMT_VOP3P, 0x72, NA, T_B32, 4, 2, 2, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL) \
	X(V_MFMA_F32_16X16X32_FP8_FP8, "v_mfma_f32_16x16x32_fp8_fp8", FMT_VOP3P, 0x73, NA, T_B32, 4, 2, 2, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL) \
	X(V_MFMA_F32_32X32X16_BF8_BF8, "v_mfma_f32_32x32x16_bf8_bf8", FMT_VOP3P, 0x74, NA, T_B32, 16, 2, 2, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL) \
	X(V_MFMA_F32_32X32X16_BF8_FP8, "v_mfma_f32_32x32x16_bf8_fp8", FMT_VOP3P, 0x75, NA, T_B32, 16, 2, 2, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL) \
	X(V_MFMA_F32_32X32X16_FP8_BF8, "v_mfma_f32_32x32x16_fp8_bf8", FMT_VOP3P, 0x76, NA, T_B32, 16, 2, 2, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL) \
	X(V_MFMA_F32_32X32X16_FP8_FP8, "v_mfma_f32_32x32x16_fp8_fp8", FMT_VOP3P, 0x77, NA, T_B32, 16, 2, 2, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL) \
	/* gfx950 (CDNA4): K doubled, A/B four dwords (8 f16/bf16 per lane); opcodes and passes from llvm-mc-22 \
	 * and llvm-mca-22 -mcpu=gfx950 (RThroughput 4 and 8, as the K-halved gfx942 forms) */ \
	X(V_MFMA_F32_16X16X32_F16, "v_mfma_f32_16x16x32_f16", FMT_VOP3P, 0x54, NA, T_F16, 4, 4, 4, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL | IF_GFX950) \
	X(V_MFMA_F32_32X32X16_F16, "v_mfma_f32_32x32x16_f16", FMT_VOP3P, 0x55, NA, T_F16, 16, 4, 4, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL | IF_GFX950) \
	X(V_MFMA_F32_16X16X32_BF16, "v_mfma_f32_16x16x32_bf16", FMT_VOP3P, 0x35, NA, T_BF16, 4, 4, 4, 4, IF_MFMA | IF_PASSES(4, 0) | IF_XDL | IF_GFX950) \
	X(V_MFMA_F32_32X32X16_BF16, "v_mfma_f32_32x32x16_bf16", FMT_VOP3P, 0x37, NA, T_BF16, 16, 4, 4, 16, IF_MFMA | IF_PASSES(8, 0) | IF_XDL | IF_GFX950) \
	ISA_INSTS_MFMA_MX(X) \
	X(V_MFMA_F64_16X16X4_F64, "v_mfma_f64_16x16x4_f64", FMT_VOP3P, 0x6e, SAME, T_F64, 8, 2, 2, 8, IF_MFMA | IF_PASSES(8, 8)) \
	X(V_MFMA_F64_4X4X4_4B_F64, "v_mfma_f64_4x4x4_4b_f64", FMT_VOP3P, 0x6f, SAME, T_F64, 2, 2, 2, 2, IF_MFMA | IF_PASSES(4, 4))

/* ---- LDS (DS) ---------------------------------------------------------- */
#define ISA_INSTS_DS(X) \
	X(DS_ADD_U32, "ds_add_u32", FMT_DS, 0x00, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_SUB_U32, "ds_sub_u32", FMT_DS, 0x01, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_MIN_I32, "ds_min_i32", FMT_DS, 0x05, SAME, T_I32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_MAX_I32, "ds_max_i32", FMT_DS, 0x06, SAME, T_I32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_MIN_U32, "ds_min_u32", FMT_DS, 0x07, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_MAX_U32, "ds_max_u32", FMT_DS, 0x08, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_AND_B32, "ds_and_b32", FMT_DS, 0x09, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_OR_B32, "ds_or_b32", FMT_DS, 0x0a, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_XOR_B32, "ds_xor_b32", FMT_DS, 0x0b, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_WRITE_B32, "ds_write_b32", FMT_DS, 0x0d, SAME, T_B32, 1, 0, 0, 0, IF_STORE) \
	X(DS_WRITE2_B32, "ds_write2_b32", FMT_DS, 0x0e, SAME, T_B32, 1, 0, 0, 0, IF_STORE) \
	X(DS_WRITE2ST64_B32, "ds_write2st64_b32", FMT_DS, 0x0f, SAME, T_B32, 1, 0, 0, 0, IF_STORE) \
	X(DS_CMPST_B32, "ds_cmpst_b32", FMT_DS, 0x10, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_ADD_F32, "ds_add_f32", FMT_DS, 0x15, SAME, T_F32, 1, 0, 0, 0, IF_ATOMIC) \
	X(DS_WRITE_B8, "ds_write_b8", FMT_DS, 0x1e, SAME, T_B32, 1, 0, 0, 0, IF_STORE) \
	X(DS_WRITE_B16, "ds_write_b16", FMT_DS, 0x1f, SAME, T_B32, 1, 0, 0, 0, IF_STORE) \
	X(DS_ADD_RTN_U32, "ds_add_rtn_u32", FMT_DS, 0x20, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC | IF_LOAD) \
	X(DS_MAX_RTN_U32, "ds_max_rtn_u32", FMT_DS, 0x28, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC | IF_LOAD) \
	X(DS_WRXCHG_RTN_B32, "ds_wrxchg_rtn_b32", FMT_DS, 0x2d, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC | IF_LOAD) \
	X(DS_CMPST_RTN_B32, "ds_cmpst_rtn_b32", FMT_DS, 0x30, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC | IF_LOAD) \
	X(DS_READ_B32, "ds_read_b32", FMT_DS, 0x36, SAME, T_B32, 1, 0, 0, 0, IF_LOAD) \
	X(DS_READ2_B32, "ds_read2_b32", FMT_DS, 0x37, SAME, T_B32, 1, 0, 0, 0, IF_LOAD) \
	X(DS_READ2ST64_B32, "ds_read2st64_b32", FMT_DS, 0x38, SAME, T_B32, 1, 0, 0, 0, IF_LOAD) \
	X(DS_READ_I8, "ds_read_i8", FMT_DS, 0x39, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_SIGNED) \
	X(DS_READ_U8, "ds_read_u8", FMT_DS, 0x3a, SAME, T_B32, 1, 0, 0, 0, IF_LOAD) \
	X(DS_READ_I16, "ds_read_i16", FMT_DS, 0x3b, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_SIGNED) \
	X(DS_READ_U16, "ds_read_u16", FMT_DS, 0x3c, SAME, T_B32, 1, 0, 0, 0, IF_LOAD) \
	X(DS_SWIZZLE_B32, "ds_swizzle_b32", FMT_DS, 0x3d, SAME, T_B32, 1, 0, 0, 0, 0) \
	X(DS_PERMUTE_B32, "ds_permute_b32", FMT_DS, 0x3e, SAME, T_B32, 1, 0, 0, 0, 0) \
	X(DS_BPERMUTE_B32, "ds_bpermute_b32", FMT_DS, 0x3f, SAME, T_B32, 1, 0, 0, 0, 0) \
	X(DS_WRITE_B64, "ds_write_b64", FMT_DS, 0x4d, SAME, T_B32, 2, 0, 0, 0, IF_STORE) \
	X(DS_WRITE2_B64, "ds_write2_b64", FMT_DS, 0x4e, SAME, T_B32, 2, 0, 0, 0, IF_STORE) \
	X(DS_WRITE2ST64_B64, "ds_write2st64_b64", FMT_DS, 0x4f, SAME, T_B32, 2, 0, 0, 0, IF_STORE) \
	X(DS_WRITE_B8_D16_HI, "ds_write_b8_d16_hi", FMT_DS, 0x54, SAME, T_B32, 1, 0, 0, 0, IF_STORE | IF_D16HI) \
	X(DS_WRITE_B16_D16_HI, "ds_write_b16_d16_hi", FMT_DS, 0x55, SAME, T_B32, 1, 0, 0, 0, IF_STORE | IF_D16HI) \
	X(DS_READ_U8_D16, "ds_read_u8_d16", FMT_DS, 0x56, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16) \
	X(DS_READ_U8_D16_HI, "ds_read_u8_d16_hi", FMT_DS, 0x57, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16HI) \
	X(DS_READ_I8_D16, "ds_read_i8_d16", FMT_DS, 0x58, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16 | IF_SIGNED) \
	X(DS_READ_I8_D16_HI, "ds_read_i8_d16_hi", FMT_DS, 0x59, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16HI | IF_SIGNED) \
	X(DS_READ_U16_D16, "ds_read_u16_d16", FMT_DS, 0x5a, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16) \
	X(DS_READ_U16_D16_HI, "ds_read_u16_d16_hi", FMT_DS, 0x5b, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16HI) \
	X(DS_READ_B64, "ds_read_b64", FMT_DS, 0x76, SAME, T_B32, 2, 0, 0, 0, IF_LOAD) \
	X(DS_READ2_B64, "ds_read2_b64", FMT_DS, 0x77, SAME, T_B32, 2, 0, 0, 0, IF_LOAD) \
	X(DS_READ2ST64_B64, "ds_read2st64_b64", FMT_DS, 0x78, SAME, T_B32, 2, 0, 0, 0, IF_LOAD) \
	X(DS_WRITE_B96, "ds_write_b96", FMT_DS, 0xde, SAME, T_B32, 3, 0, 0, 0, IF_STORE) \
	X(DS_WRITE_B128, "ds_write_b128", FMT_DS, 0xdf, SAME, T_B32, 4, 0, 0, 0, IF_STORE) \
	X(DS_READ_B96, "ds_read_b96", FMT_DS, 0xfe, SAME, T_B32, 3, 0, 0, 0, IF_LOAD) \
	X(DS_READ_B128, "ds_read_b128", FMT_DS, 0xff, SAME, T_B32, 4, 0, 0, 0, IF_LOAD)

/* ---- vector memory: MUBUF and FLAT/GLOBAL/SCRATCH (same op numbers) ---- */
/* loads and stores (also scratch_*), then the atomics (not scratch) */
#define ISA_VMEM_LDST_ROWS(X, P, p, F) \
	X(P##_LOAD_UBYTE, p "_load_ubyte", F, 0x10, SAME, T_B32, 1, 0, 0, 0, IF_LOAD) \
	X(P##_LOAD_SBYTE, p "_load_sbyte", F, 0x11, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_SIGNED) \
	X(P##_LOAD_USHORT, p "_load_ushort", F, 0x12, SAME, T_B32, 1, 0, 0, 0, IF_LOAD) \
	X(P##_LOAD_SSHORT, p "_load_sshort", F, 0x13, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_SIGNED) \
	X(P##_LOAD_DWORD, p "_load_dword", F, 0x14, SAME, T_B32, 1, 0, 0, 0, IF_LOAD) \
	X(P##_LOAD_DWORDX2, p "_load_dwordx2", F, 0x15, SAME, T_B32, 2, 0, 0, 0, IF_LOAD) \
	X(P##_LOAD_DWORDX3, p "_load_dwordx3", F, 0x16, SAME, T_B32, 3, 0, 0, 0, IF_LOAD) \
	X(P##_LOAD_DWORDX4, p "_load_dwordx4", F, 0x17, SAME, T_B32, 4, 0, 0, 0, IF_LOAD) \
	X(P##_STORE_BYTE, p "_store_byte", F, 0x18, SAME, T_B32, 1, 0, 0, 0, IF_STORE) \
	X(P##_STORE_BYTE_D16_HI, p "_store_byte_d16_hi", F, 0x19, SAME, T_B32, 1, 0, 0, 0, IF_STORE | IF_D16HI) \
	X(P##_STORE_SHORT, p "_store_short", F, 0x1a, SAME, T_B32, 1, 0, 0, 0, IF_STORE) \
	X(P##_STORE_SHORT_D16_HI, p "_store_short_d16_hi", F, 0x1b, SAME, T_B32, 1, 0, 0, 0, IF_STORE | IF_D16HI) \
	X(P##_STORE_DWORD, p "_store_dword", F, 0x1c, SAME, T_B32, 1, 0, 0, 0, IF_STORE) \
	X(P##_STORE_DWORDX2, p "_store_dwordx2", F, 0x1d, SAME, T_B32, 2, 0, 0, 0, IF_STORE) \
	X(P##_STORE_DWORDX3, p "_store_dwordx3", F, 0x1e, SAME, T_B32, 3, 0, 0, 0, IF_STORE) \
	X(P##_STORE_DWORDX4, p "_store_dwordx4", F, 0x1f, SAME, T_B32, 4, 0, 0, 0, IF_STORE) \
	X(P##_LOAD_UBYTE_D16, p "_load_ubyte_d16", F, 0x20, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16) \
	X(P##_LOAD_UBYTE_D16_HI, p "_load_ubyte_d16_hi", F, 0x21, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16HI) \
	X(P##_LOAD_SBYTE_D16, p "_load_sbyte_d16", F, 0x22, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16 | IF_SIGNED) \
	X(P##_LOAD_SBYTE_D16_HI, p "_load_sbyte_d16_hi", F, 0x23, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16HI | IF_SIGNED) \
	X(P##_LOAD_SHORT_D16, p "_load_short_d16", F, 0x24, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16) \
	X(P##_LOAD_SHORT_D16_HI, p "_load_short_d16_hi", F, 0x25, SAME, T_B32, 1, 0, 0, 0, IF_LOAD | IF_D16HI)
#define ISA_VMEM_ATOMIC_ROWS(X, P, p, F, addf90a) \
	X(P##_ATOMIC_SWAP, p "_atomic_swap", F, 0x40, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_CMPSWAP, p "_atomic_cmpswap", F, 0x41, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC | IF_CMPSWAP) \
	X(P##_ATOMIC_ADD, p "_atomic_add", F, 0x42, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_SUB, p "_atomic_sub", F, 0x43, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_SMIN, p "_atomic_smin", F, 0x44, SAME, T_I32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_UMIN, p "_atomic_umin", F, 0x45, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_SMAX, p "_atomic_smax", F, 0x46, SAME, T_I32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_UMAX, p "_atomic_umax", F, 0x47, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_AND, p "_atomic_and", F, 0x48, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_OR, p "_atomic_or", F, 0x49, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_XOR, p "_atomic_xor", F, 0x4a, SAME, T_B32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_INC, p "_atomic_inc", F, 0x4b, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_DEC, p "_atomic_dec", F, 0x4c, SAME, T_U32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_ADD_F32, p "_atomic_add_f32", F, 0x4d, addf90a, T_F32, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_PK_ADD_F16, p "_atomic_pk_add_f16", F, 0x4e, addf90a, T_F16, 1, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_ADD_F64, p "_atomic_add_f64", F, 0x4f, SAME, T_F64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_MIN_F64, p "_atomic_min_f64", F, 0x50, SAME, T_F64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_MAX_F64, p "_atomic_max_f64", F, 0x51, SAME, T_F64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_SWAP_X2, p "_atomic_swap_x2", F, 0x60, SAME, T_B64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_CMPSWAP_X2, p "_atomic_cmpswap_x2", F, 0x61, SAME, T_B64, 2, 0, 0, 0, IF_ATOMIC | IF_CMPSWAP) \
	X(P##_ATOMIC_ADD_X2, p "_atomic_add_x2", F, 0x62, SAME, T_U64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_SUB_X2, p "_atomic_sub_x2", F, 0x63, SAME, T_U64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_SMIN_X2, p "_atomic_smin_x2", F, 0x64, SAME, T_I64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_UMIN_X2, p "_atomic_umin_x2", F, 0x65, SAME, T_U64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_SMAX_X2, p "_atomic_smax_x2", F, 0x66, SAME, T_I64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_UMAX_X2, p "_atomic_umax_x2", F, 0x67, SAME, T_U64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_AND_X2, p "_atomic_and_x2", F, 0x68, SAME, T_B64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_OR_X2, p "_atomic_or_x2", F, 0x69, SAME, T_B64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_XOR_X2, p "_atomic_xor_x2", F, 0x6a, SAME, T_B64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_INC_X2, p "_atomic_inc_x2", F, 0x6b, SAME, T_U64, 2, 0, 0, 0, IF_ATOMIC) \
	X(P##_ATOMIC_DEC_X2, p "_atomic_dec_x2", F, 0x6c, SAME, T_U64, 2, 0, 0, 0, IF_ATOMIC)

#define ISA_VMEM_ROWS(X, P, p, F, addf90a) ISA_VMEM_LDST_ROWS(X, P, p, F) ISA_VMEM_ATOMIC_ROWS(X, P, p, F, addf90a)

#define ISA_INSTS_VMEM(X) \
	ISA_VMEM_ROWS(X, BUFFER, "buffer", FMT_MUBUF, SAME) \
	ISA_VMEM_ROWS(X, FLAT, "flat", FMT_FLAT, NA) \
	ISA_VMEM_ROWS(X, GLOBAL, "global", FMT_FLAT, SAME) \
	ISA_VMEM_LDST_ROWS(X, SCRATCH, "scratch", FMT_FLAT) \
	X(FLAT_ATOMIC_PK_ADD_BF16, "flat_atomic_pk_add_bf16", FMT_FLAT, 0x52, NA, T_BF16, 1, 0, 0, 0, IF_ATOMIC) \
	X(GLOBAL_ATOMIC_PK_ADD_BF16, "global_atomic_pk_add_bf16", FMT_FLAT, 0x52, NA, T_BF16, 1, 0, 0, 0, IF_ATOMIC) \
	ISA_INSTS_CACHE(X)

/* Cache control, no operands (isel/memory.c's acquire and release, as LLVM's
 * AMDGPUUsage memory-model tables give them at agent scope): buffer_wbl2
 * writes back the L2's dirty lines, buffer_inv invalidates (gfx942/gfx950,
 * printed with sc1: agent scope), buffer_wbinvl1_vol invalidates gfx90a's L1.
 * Counted in vmcnt; the emulator's memory has no caches, so they change no
 * value there. Opcodes from llvm-mc-22 -show-encoding. */
#define ISA_INSTS_CACHE(X) \
	X(BUFFER_WBL2, "buffer_wbl2", FMT_MUBUF, 0x28, SAME, T_NONE, 0, 0, 0, 0, 0) \
	X(BUFFER_INV, "buffer_inv", FMT_MUBUF, 0x29, NA, T_NONE, 0, 0, 0, 0, 0) \
	X(BUFFER_WBINVL1_VOL, "buffer_wbinvl1_vol", FMT_MUBUF, NA, 0x3f, T_NONE, 0, 0, 0, 0, 0)

/* ---- gfx950 (CDNA4): transposing LDS reads, lane swaps, bf16 packing,
 * 96/128-bit direct-to-LDS loads. Opcodes from llvm-mc-22 -mcpu=gfx950
 * -show-encoding (tests/loader/emu/decode_test.c checks them against
 * llvm-objdump-22). A DS transposing read: each lane reads 64 (96) bits at
 * its address, the 16 lanes of each row exchange elements (docs/emulator.md);
 * v_permlane*_swap write both operands; buffer_atomic_pk_add_bf16 is the
 * MUBUF form of global_atomic_pk_add_bf16 (gfx942 has only the FLAT ones);
 * global_load_lds_dword (gfx942's too) and _dwordx3/x4 write LDS at
 * M0 + offset + 4/12/16 * lane, no VGPR
 * (`dst` is the data width). The
 * buffer_load_dwordx3/x4 forms with the lds bit are the MUBUF rows with the
 * bit set (Inst.lds; in the machine IR MIF_LDS). */
#define ISA_INSTS_GFX950_XFER(X) \
	X(DS_READ_B64_TR_B4, "ds_read_b64_tr_b4", FMT_DS, 0xe0, NA, T_B32, 2, 0, 0, 0, IF_LOAD | IF_GFX950) \
	X(DS_READ_B96_TR_B6, "ds_read_b96_tr_b6", FMT_DS, 0xe1, NA, T_B32, 3, 0, 0, 0, IF_LOAD | IF_GFX950) \
	X(DS_READ_B64_TR_B8, "ds_read_b64_tr_b8", FMT_DS, 0xe2, NA, T_B32, 2, 0, 0, 0, IF_LOAD | IF_GFX950) \
	X(DS_READ_B64_TR_B16, "ds_read_b64_tr_b16", FMT_DS, 0xe3, NA, T_B32, 2, 0, 0, 0, IF_LOAD | IF_GFX950) \
	X(V_PERMLANE16_SWAP_B32, "v_permlane16_swap_b32", FMT_VOP1, 0x59, NA, T_B32, 1, 1, 0, 0, IF_GFX950) \
	X(V_PERMLANE32_SWAP_B32, "v_permlane32_swap_b32", FMT_VOP1, 0x5a, NA, T_B32, 1, 1, 0, 0, IF_GFX950) \
	X(V_CVT_PK_BF16_F32, "v_cvt_pk_bf16_f32", FMT_VOP3, 0x268, NA, T_F32, 1, 1, 1, 0, IF_GFX950) \
	X(GLOBAL_LOAD_LDS_DWORD, "global_load_lds_dword", FMT_FLAT, 0x2a, NA, T_B32, 1, 0, 0, 0, IF_LOAD) \
	X(GLOBAL_LOAD_LDS_DWORDX3, "global_load_lds_dwordx3", FMT_FLAT, 0x7e, NA, T_B32, 3, 0, 0, 0, IF_LOAD | IF_GFX950) \
	X(GLOBAL_LOAD_LDS_DWORDX4, "global_load_lds_dwordx4", FMT_FLAT, 0x7d, NA, T_B32, 4, 0, 0, 0, IF_LOAD | IF_GFX950) \
	X(BUFFER_ATOMIC_PK_ADD_BF16, "buffer_atomic_pk_add_bf16", FMT_MUBUF, 0x52, NA, T_BF16, 1, 0, 0, 0, IF_ATOMIC | IF_GFX950)

#define ISA_INSTS(X) \
	ISA_INSTS_SALU(X) ISA_INSTS_VOP1(X) ISA_INSTS_VOP2(X) ISA_INSTS_VOPC(X) \
	ISA_INSTS_VOP3(X) ISA_INSTS_VOP3P(X) ISA_INSTS_MFMA(X) ISA_INSTS_DS(X) \
	ISA_INSTS_VMEM(X) \
	ISA_INSTS_GFX950_XFER(X)

typedef enum {
	I_UNKNOWN,
#define X(id, name, fmt, op, op90, ty, d, s0, s1, s2, fl) I_##id,
	ISA_INSTS(X)
#undef X
	I_COUNT
} IsaOp;

typedef struct {
	const char *name;
	uint8_t fmt, type, dst, src[3];
	int16_t op942, op90a;
	uint32_t flags;
	uint8_t cls;    /* the scheduling class (MClass, ir/isa/isa.h), filled in isa.c */
} IsaInfo;

extern const IsaInfo isa_info[I_COUNT];

#endif
