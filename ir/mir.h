/* mir.h — the machine IR: what instruction selection produces and every
 * later stage (waitcnt and hazard passes, scheduling, register allocation,
 * the assembly printer) reads and rewrites.
 *
 * Model (after ACO's aco_ir.h and QBE's all.h):
 *   MFunc    one kernel: blocks in layout order, the virtual-register table
 *            (one RegClass per vreg), the target, and after allocation the
 *            number of physical registers used per file;
 *   MBlock   a label and a straight list of instructions; the last one may
 *            branch (s_cbranch_*, s_branch) to another block by index;
 *   MInst    an opcode, defs then uses (MOpnd), memory modifiers, the graph
 *            op it came from (printed as a comment) and, for s_waitcnt, the
 *            counter values;
 *   MOpnd    a virtual register (before allocation), a physical register
 *            (after, or fixed ones like the kernarg pointer), an immediate,
 *            or a named special register (vcc, exec, m0, off).
 *
 * Opcodes are the rows of the emulator's instruction table
 * (ir/isa/insts.h): one list of the CDNA instructions, with format,
 * opcode per target, operand widths in dwords and flags, read here by isel,
 * the passes and the printer and by the emulator's decoder alike. The
 * compiler-only properties — scheduling class and latency — are derived from
 * a row's format and flags (isa_class, isa_latency in ir/isa) instead of being a
 * second table to keep in step.
 *
 * Register classes are one byte: file (SGPR/VGPR/AGPR) and size in dwords;
 * the alignment a tuple needs follows from the class and the target
 * (rc_align). Targets are const data (target_gfx942, target_gfx90a, target_gfx950).
 *
 * Ownership: an MFunc owns its blocks and instructions (heap vectors freed by
 * mfunc_free); names and notes point into the kernel's arena or interned
 * strings. Misuse (wrong operand count for a row) is a compiler bug: die().
 */
#ifndef WAVECC_MIR_H
#define WAVECC_MIR_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/isa.h"
#include "../util/util.h"

/* ---- targets ---- */
typedef struct Target {
	const char *name;     /* the processor: "gfx942" */
	const char *id;       /* the target ID: "gfx942", "gfx942:sramecc-:xnack+" */
	const char *triple;   /* "amdgcn-amd-amdhsa--" + id */
	int sramecc, xnack;   /* the ID's features: 0 any (unnamed), 1 on (+), -1 off (-) */
	int sgprs;            /* addressable SGPRs for allocation (VCC excluded) */
	int vgprs;            /* arch VGPRs per wave */
	int agprs;            /* AGPRs per wave */
	int lds_bytes;        /* LDS per workgroup */
	bool vgpr_tuple_align; /* 64-bit+ VGPR/AGPR tuples start at even registers */
} Target;
extern const Target target_gfx942, target_gfx90a, target_gfx950;
/* A processor with optional features in LLVM's target-ID order,
 * `gfx942[:sramecc(+|-)][:xnack(+|-)]`; NULL if unknown or malformed. */
const Target *target_from_name(const char *mcpu);
/* Target i of every target ID the compiler knows (each processor with each
 * combination of features, processors in order), or NULL past the end. */
const Target *target_at(size_t i);

/* ---- register classes ---- */
typedef enum RegFile { RF_SGPR, RF_VGPR, RF_AGPR, RF_COUNT } RegFile;
typedef uint8_t RegClass; /* file << 5 | size (1..16 dwords) */
static inline RegClass rc_make(RegFile f, int size) { return (RegClass)((unsigned)f << 5 | (unsigned)size); }
static inline RegFile rc_file(RegClass rc) { return (RegFile)(rc >> 5); }
static inline int rc_size(RegClass rc) { return rc & 31; }
/* The register index a tuple of this class must start at a multiple of. */
int rc_align(RegClass rc, const Target *t);
enum { MIR_MAX_PHYS = 512 }; /* physical registers per file, an upper bound */
#define RC_S1 rc_make(RF_SGPR, 1)
#define RC_S2 rc_make(RF_SGPR, 2)
#define RC_S4 rc_make(RF_SGPR, 4)
#define RC_V1 rc_make(RF_VGPR, 1)
#define RC_V2 rc_make(RF_VGPR, 2)

/* ---- operands ---- */
typedef enum MOpndKind {
	MO_NONE,
	MO_VREG, /* reg = virtual register number */
	MO_PREG, /* reg = first physical register of the file rc_file(rc) */
	MO_IMM,  /* imm: an integer or the bits of a float literal */
	MO_VCC,  /* the vcc pair */
	MO_EXEC, /* the exec pair */
	MO_M0,
	MO_OFF,  /* "off": no address VGPR (MUBUF/global with SGPR base only) */
} MOpndKind;

typedef struct MOpnd {
	uint8_t kind;
	RegClass rc; /* MO_VREG/MO_PREG: file and width of this access */
	uint8_t sub; /* MO_VREG: first dword within the vreg's tuple */
	uint8_t pad_;
	uint32_t reg;
	int64_t imm;
} MOpnd;
_Static_assert(sizeof(MOpnd) == 16, "MOpnd stays small: it is copied by value everywhere");

static inline MOpnd mo_vreg(uint32_t v, RegClass rc) { return (MOpnd){.kind = MO_VREG, .rc = rc, .reg = v}; }
/* Dwords [sub, sub + size) of a wider virtual register. */
static inline MOpnd mo_vsub(uint32_t v, int sub, RegClass rc)
{
	return (MOpnd){.kind = MO_VREG, .rc = rc, .sub = (uint8_t)sub, .reg = v};
}
static inline MOpnd mo_preg(uint32_t r, RegClass rc) { return (MOpnd){.kind = MO_PREG, .rc = rc, .reg = r}; }
static inline MOpnd mo_imm(int64_t v) { return (MOpnd){.kind = MO_IMM, .imm = v}; }
static inline MOpnd mo_special(MOpndKind k) { return (MOpnd){.kind = (uint8_t)k}; }
static inline bool mo_is_reg(MOpnd o) { return o.kind == MO_VREG || o.kind == MO_PREG; }

/* ---- instructions ---- */
typedef uint16_t MOp; /* an IsaOp row of ir/isa/insts.h */

/* Scheduling classes and latencies: ir/isa/isa.h. */

enum {
	MIF_E64 = 1 << 0,   /* print the VOP3 form (_e64) of a VOP1/VOP2/VOPC row */
	MIF_E32 = 1 << 1,   /* print the _e32 suffix explicitly */
	MIF_OFFEN = 1 << 2, /* MUBUF: the address VGPR is an offset */
	MIF_TIED = 1 << 3,  /* def[0] keeps bits it does not write (d16 loads):
	                       it is live into the instruction; not printed as a use */
	MIF_GLC = 1 << 4,   /* MUBUF atomic: returns the old value (glc; sc0 on gfx942)
	                       into its data register (def[0], MIF_TIED) */
	MIF_PCREL_LO = 1 << 5, /* s_add_u32 of a long branch (below): its immediate is the low
	                          word of the distance from it to block `target` */
	MIF_PCREL_HI = 1 << 6, /* s_addc_u32 of a long branch: the high word of that distance */
	MIF_SPILL = 1 << 7, /* spill code register allocation added (regalloc/spill.c): a copy to or
	                       from a spill home (AGPR, VGPR lane, scratch), or its set-up; the
	                       spill checker follows values through these */
	MIF_LDS = 1 << 8,   /* MUBUF load with the lds bit (LDS DMA): no def, the data goes to
	                       LDS at M0 + offset + the row's width x lane; M0 is its last use,
	                       not printed (gfx942: dwords; gfx950: also 96 and 128 bits) */
	MIF_VOL = 1 << 9,   /* MUBUF load or store of a volatile access (isel/memory.c): coherent
	                       at system scope as LLVM compiles a volatile access, sc0 sc1 on
	                       gfx942/gfx950; glc on a gfx90a load, nothing on its store */
	MIF_AGENT = 1 << 10, /* MUBUF load or store of an acquire or release (isel/memory.c): coherent
	                        at agent scope, sc1 on gfx942/gfx950; glc on a gfx90a load */
};

/* A long branch (passes/machine/branch.c) reaches any block, where
 * s_branch and s_cbranch_* reach 32768 dwords each way. It ends its block:
 *     s_getpc_b64 s[p:p+1]                  the address of the next instruction
 *     s_add_u32 s[p], s[p], LO              MIF_PCREL_LO, target T
 *     s_addc_u32 s[p+1], s[p+1], HI         MIF_PCREL_HI, target T
 *     s_setpc_b64 s[p:p+1]                  target T: an unconditional branch
 * The immediates are not known to the compiler (they are 0 in the IR):
 * the printer writes them as expressions of T's label that llvm-mc
 * resolves, `(T-.)&4294967295` and `(T-.+8)>>32` (`.` is the instruction's
 * own address; the s_add_u32 before the s_addc_u32 is 8 bytes, as its
 * operand is always a literal). The pair is dead at T; SCC is written. */

enum { MI_MAX_DEFS = 2, MI_MAX_USES = 5 }; /* 5: a scaled MFMA's A, B, C and two scales */

typedef struct MInst {
	MOp op;
	uint8_t ndef, nuse;
	uint32_t flags;      /* MIF_* */
	int32_t offset;      /* MUBUF/DS immediate offset field */
	int16_t vmcnt, lgkmcnt; /* s_waitcnt: -1 = no wait on that counter */
	int32_t target;      /* s_branch / s_cbranch_*: the block index jumped to
	                        (read only for branch rows) */
	uint16_t dpp;        /* VOP1/VOP2 with a DPP source: dpp_ctrl (0 = none;
	                        quad_perm [0,0,0,0] is never useful) */
	uint16_t mods;       /* modifiers printed after the operands (MI_MODS_* below) */
	const char *note;    /* the graph op this came from, or NULL */
	MOpnd def[MI_MAX_DEFS];
	MOpnd use[MI_MAX_USES];
} MInst;

static inline unsigned mi_cbsz(const MInst *in) { return in->mods & 7u; }
static inline unsigned mi_blgp(const MInst *in) { return in->mods >> 3 & 7u; }
static inline unsigned mi_scale_sel(const MInst *in, int b) { return in->mods >> (6 + 2 * b) & 3u; }

/* MInst.mods. gfx950's f8f6f4 MFMAs (IF_F8F6F4): A's format (cbsz) in
 * bits 0-2, B's (blgp) in 3-5 (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4), and on
 * the scaled ones the byte of each scale register the scale is in, A's in
 * 6-7 and B's in 8-9 (printed as op_sel/op_sel_hi). VOP3 rows: op_sel
 * (bit i for source i, bit 3 for the destination; the scaled conversions'
 * byte and word selects). */
#define MI_MODS_MFMA(cbsz, blgp, sela, selb) \
	((uint16_t)((unsigned)(cbsz) | (unsigned)(blgp) << 3 | (unsigned)(sela) << 6 | (unsigned)(selb) << 8))

typedef struct MBlock {
	const char *label;
	Vec(MInst) insts;
} MBlock;

typedef struct MFunc {
	const char *name;
	const Target *target;
	Vec(MBlock *) blocks;
	Vec(RegClass) vregs; /* class of each virtual register */
	/* After register allocation: registers used per file (the next free
	 * register), for the kernel descriptor. */
	int nregs[RF_COUNT];
	bool allocated;
	int lds_bytes; /* LDS the kernel allocates (isel: block reductions) */
	/* Scratch (private segment) memory, set by register allocation when it
	 * spills there (regalloc/spill.c, docs/abi.md "Scratch"): bytes per
	 * work-item, and on gfx90a the SGPR the hardware loads the wave's
	 * scratch offset into (the ABI's input SGPRs then start at s4, after
	 * the private segment buffer's V#); 0: none. */
	int scratch_bytes;
	int scratch_wave_sgpr;
	/* The SGPRs the hardware initialises (user and system SGPRs: the
	 * kernarg pointer, the workgroup ids) as isel set them up, whether or
	 * not the code still reads them all; 0: only those the code names. */
	int input_sgprs;
} MFunc;

/* ---- mir.c ---- */
MFunc *mfunc_new(const char *name, const Target *t);
void mfunc_free(MFunc *f);
MBlock *mfunc_block(MFunc *f, const char *label); /* append a block */
uint32_t mfunc_vreg(MFunc *f, RegClass rc);       /* a new virtual register */
/* How many instructions define each virtual register (vregs.len + 1
 * entries, the caller frees): the passes that move or merge definitions
 * touch only registers defined once. */
int *mfunc_vreg_defs(const MFunc *f);
/* Append an instruction; checks the operand counts against the row. */
MInst *mblock_add(MBlock *b, MOp op, int ndef, const MOpnd *defs, int nuse, const MOpnd *uses);
/* Insert before position i (waitcnt insertion). */
MInst *mblock_insert(MBlock *b, size_t i, MInst in);
/* Append a branch (s_branch, s_cbranch_scc0/1, s_cbranch_vccz, ...) to
 * block index `target`. */
MInst *mblock_branch(MBlock *b, MOp op, int target);

/* The CFG: the successors of block bi (0, 1 or 2, written to succ[]): the
 * branch target of its last instruction, and the next block in layout
 * order unless the block ends in s_branch or s_endpgm. */
int mfunc_succs(const MFunc *f, size_t bi, int succ[2]);
bool mop_is_branch(MOp op);        /* s_branch, the s_cbranch_* rows, s_setpc_b64 (a long branch) */
bool mop_is_uncond_branch(MOp op); /* s_branch, s_setpc_b64 */
/* Bytes the instruction takes in the code llvm-mc assembles from its
 * printed form: exact for the forms the compiler emits, more where the
 * encoding depends on what this does not model (a float immediate that is
 * an inline constant is counted as a 32-bit literal), never fewer, so a
 * distance summed from it bounds the real one (branch relaxation). */
int mir_inst_bytes(const MInst *in);

const char *mop_name(MOp op);
/* Issue-to-result latency in cycles, a coarse model for the scheduler and
 * the statistics until per-row latencies are measured. */

/* Structural checks: operand kinds and widths against the row, branch
 * targets, every vreg dword read defined on every path from the entry (over
 * the CFG), physical registers inside the target's files after allocation.
 * Returns the number of problems, each appended to msg. */
int mir_verify(const MFunc *f, Buf *msg);

/* ---- mir_print.c ---- */
/* One operand as llvm-mc spells it (v3, s[4:7], vcc, 0x80000000) or, for a
 * virtual register, %N:v2 (not assemblable; for dumps). */
void mir_print_opnd(Buf *b, MOpnd o);
/* One instruction on one line (no newline), llvm-mc syntax. */
void mir_print_inst(Buf *b, const MInst *in);
/* The whole function: labels, instructions, notes as comments. */
void mir_print(Buf *b, const MFunc *f);

/* ---- mir_parse.c ---- */
/* The function mir_print printed (its inverse; the form is described in
 * mir_parse.c): NULL with one "NAME:LINE:COL: message" line in err when the
 * text is not that form. Never aborts on bad text. */
MFunc *mir_parse(const char *text, size_t len, const char *name, const Target *t, Buf *err);
/* How many of an instruction's printed operands are defs: the rest are
 * uses. The verifier holds every instruction to it. */
int mir_ndef(MOp op, uint32_t flags);

#endif
