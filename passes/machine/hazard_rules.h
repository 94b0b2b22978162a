/* hazard_rules.h — the wait-state rules of gfx942, gfx950 and gfx90a that the
 * hardware does not interlock, as data shared by the resolver (hazards.c)
 * and the independent checker (hazard_check.c). The two share what a rule
 * says (this table and hz_need); each walks the stream its own way.
 *
 * A wait state is one issued instruction between producer and consumer;
 * `s_nop k` counts k + 1 (AMDGPUUsage). Sources: for every row and the operand
 * details, LLVM's GCNHazardRecognizer.cpp @00b3068e
 * ("HR fn" names the function); the gfx950 rows (permlane swaps) from LLVM
 * 22's, what llc-22 -mcpu=gfx950 inserts and rocRoller's gfx950 wait-state
 * observers; they apply on gfx950 only, where the consumers exist. MFMA pass counts and the XDL flag are in
 * each MFMA's row of the instruction table (ir/isa/insts.h, IF_PASSES and
 * IF_XDL, from the CDNA3 ISA guide and LLVM's isXDL) — never guessed from the shape.
 *
 * Rows: X(id, what, gfx942, gfx90a, source). The numbers are wait states;
 * HZ_OFF means the row does not exist on that target; HZ_BY_PASSES means the
 * number depends on the producing MFMA (its passes and pipe are in its
 * row of ir/isa/insts.h; see hz_need in hazard_rules.c, whose
 * comments give the formula and the table values). */
#ifndef WAVECC_HAZARD_RULES_H
#define WAVECC_HAZARD_RULES_H

#include "../../ir/mir.h"

enum { HZ_OFF = -1, HZ_BY_PASSES = -2 };

#define HAZARD_RULES(X) \
	X(HZ_VALU_SGPR_VMEM, "VALU writes SGPR -> VMEM reads it", 5, 5, "HR checkVMEMHazards") \
	X(HZ_VALU_SGPR_LANESEL, "VALU writes SGPR -> v_readlane/v_writelane lane select", 4, 4, \
		"HR checkRWLaneHazards") \
	X(HZ_VALU_SGPR_VALU, "VALU writes SGPR/VCC -> VALU reads it", 2, HZ_OFF, \
		"HR checkVALUHazards (VDecCoExec, gfx940 only)") \
	X(HZ_VALU_VGPR_READLANE, "VALU writes VGPR -> v_readlane/v_readfirstlane reads it", 1, HZ_OFF, \
		"HR checkVALUHazards") \
	X(HZ_VALU_EXEC_LANE, "VALU writes EXEC -> v_readlane/v_readfirstlane/v_writelane", 4, HZ_OFF, \
		"HR checkVALUHazards") \
	X(HZ_TRANS_USE, "transcendental VALU -> non-trans VALU reads its result", 1, HZ_OFF, \
		"HR checkVALUHazards (TransForwarding)") \
	X(HZ_VGPR_DPP, "VGPR written -> DPP reads it", 2, 2, "HR checkDPPHazards (any writer)") \
	X(HZ_VALU_EXEC_DPP, "VALU writes EXEC -> DPP", 5, 5, "HR checkDPPHazards") \
	X(HZ_VALU_VCC_DIVFMAS, "VALU writes VCC -> v_div_fmas", 4, 4, "HR checkDivFMasHazards") \
	X(HZ_SETREG, "s_setreg -> s_setreg/s_getreg", 2, 2, \
		"HR checkSetRegHazards (any hwreg here: MIR does not carry the field)") \
	X(HZ_STORE_DATA, "VMEM store of more than 64 bits -> VALU overwrites its data", 2, 1, \
		"HR createsVALUHazard (MUBUF only without an soffset register)") \
	X(HZ_SOFT_CLAUSE, "XNACK soft clause: a store after loads, or a member writes a register a member reads", 1, \
		1, "HR checkSoftClauseHazards (targets are xnack-any)") \
	X(HZ_VALU_MFMA, "VALU writes VGPR/AGPR -> MFMA reads it (A, B or C)", 2, 2, \
		"HR checkMAIHazards90A (legacy VALU, not DOT)") \
	X(HZ_VALU_EXEC_MFMA, "VALU writes EXEC -> MFMA", 4, 4, "HR checkMAIHazards90A") \
	X(HZ_MFMA_RAW, "MFMA writes -> VALU/VMEM/DS reads it", HZ_BY_PASSES, HZ_BY_PASSES, \
		"HR checkMAIVALUHazards") \
	X(HZ_MFMA_WAW, "MFMA writes -> VALU/VMEM/DS writes it", HZ_BY_PASSES, HZ_BY_PASSES, \
		"HR checkMAIVALUHazards") \
	X(HZ_MFMA_WAR, "MFMA reads SrcC -> VALU/VMEM/DS writes it", HZ_BY_PASSES, HZ_BY_PASSES, \
		"HR checkMAIVALUHazards") \
	X(HZ_MFMA_SRCC_SAME, "MFMA writes -> MFMA reads the identical range as SrcC", HZ_BY_PASSES, HZ_BY_PASSES, \
		"HR checkMAIHazards90A") \
	X(HZ_MFMA_SRCC_OVERLAP, "MFMA writes -> MFMA reads an overlapping range as SrcC", HZ_BY_PASSES, \
		HZ_BY_PASSES, "HR checkMAIHazards90A") \
	X(HZ_MFMA_SRCAB, "MFMA writes -> MFMA reads it as SrcA/SrcB", HZ_BY_PASSES, HZ_BY_PASSES, \
		"HR checkMAIHazards90A") \
	X(HZ_DGEMM_FMA64, "DGEMM -> v_fma_f64/v_fmac_f64", 2, 2, "HR checkMAIVALUHazards") \
	X(HZ_DOT_RAW, "DOT writes -> VALU/VMEM/DS reads it (another op, or the same op's A/B)", 3, 3, \
		"HR checkMAIVALUHazards") \
	X(HZ_DOT_WAW, "DOT writes -> another VALU/VMEM/DS op writes it", 3, 3, "HR checkMAIVALUHazards") \
	X(HZ_DSTSEL_FWD, "VALU writes a byte or word of its VGPR above the lowest (op_sel dst) -> VALU reads it", 1, \
		HZ_OFF, "HR checkVALUHazards (DstSelForwarding, gfx950's CvtScaleForwarding; llc-22 -mcpu=gfx950)") \
	X(HZ_VALU_PERMLANE, "VALU writes VGPR -> v_permlane16/32_swap reads it (gfx950)", 2, HZ_OFF, \
		"HR checkPermlaneHazards (VALUWritesVDstWaitStates)") \
	X(HZ_VALU_EXEC_PERMLANE, "VALU writes EXEC (v_cmpx) -> v_permlane16/32_swap (gfx950)", 4, HZ_OFF, \
		"HR checkPermlaneHazards (VCmpXWritesExecWaitStates)") \
	X(HZ_M0_LDS_DMA, "SALU writes M0 -> LDS DMA (buffer_load ... lds, global_load_lds_*)", 1, 1, \
		"HR checkReadM0Hazards (hasReadM0LdsDmaHazard)")

typedef enum HazardRule {
#define X(id, what, a, b, src) id,
	HAZARD_RULES(X)
#undef X
	HZ_COUNT
} HazardRule;

extern const char *const hazard_rule_name[HZ_COUNT];

/* The most wait states any rule asks for (a 16-pass MFMA's SrcA/B or
 * RAW distance, one more on gfx950): walks back this far and no further. */
enum { HZ_MAX_STATES = 20 };

/* Passes of an MFMA on target t (die() for a row without a count); an
 * f8f6f4 MFMA's by its operand formats (isa_mfma_passes_fmt). */
int hz_mfma_passes(const MInst *in, const Target *t);

/* The wait states rule(s) require between producer p and a later consumer
 * c on target t (0: none); *rule gets the row asking the most. The pair's
 * order in the stream is p first; nothing else between them matters. */
int hz_need(const Target *t, const MInst *p, const MInst *c, HazardRule *rule);

/* The soft-clause row: `members` are the memory instructions of c's kind
 * (VMEM for VMEM, SMEM for SMEM) issued back to back just before c,
 * nearest first. Returns 1 if c needs a breaker before it, else 0. */
int hz_clause_need(const MInst *const *members, int n, const MInst *c);
/* Whether c can join a soft clause, and whether p continues one for c. */
bool hz_clause_kind(const MInst *c, int *kind); /* kind 1 VMEM, 2 SMEM */

#endif
