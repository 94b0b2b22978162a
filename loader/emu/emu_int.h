/* emu_int.h — the emulator's internal types: decoded instructions, wave and
 * workgroup state, and the prototypes shared by its files, grouped by the
 * file that defines them.
 *
 * Register files: SGPRs s0..s101, then the specials VCC (106/107), M0 (124),
 * EXEC (126/127) kept in their own fields. The VGPR file is the unified
 * gfx90a/gfx942 file: ArchVGPRs v0..v(accum_offset-1), AGPR aN at
 * accum_offset+N; stored register-major (`vgpr[reg*64 + lane]`) so an
 * operand is one contiguous 64-lane row. */
#ifndef WAVECC_EMU_INT_H
#define WAVECC_EMU_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"
#include "../../ir/isa/isa.h"

enum {
	SRC_VCC_LO = 106, SRC_VCC_HI = 107, SRC_M0 = 124, SRC_EXEC_LO = 126, SRC_EXEC_HI = 127,
	SRC_ZERO = 128, SRC_DPP = 250, SRC_SDWA = 249, SRC_VCCZ = 251, SRC_EXECZ = 252,
	SRC_SCC = 253, SRC_LITERAL = 255, SRC_VGPR = 256,
	NUM_SGPRS = 108,
	SRC_SHARED_BASE = 235, SRC_SHARED_LIMIT = 236, SRC_PRIVATE_BASE = 237, SRC_PRIVATE_LIMIT = 238,
};

/* Apertures for FLAT addresses (the high dword of a 64-bit flat address):
 * an address whose high dword is EMU_SHARED_HI addresses the workgroup's LDS
 * at its low dword. Device allocations never reach these addresses. */
enum { EMU_SHARED_HI = 0x10000u, EMU_PRIVATE_HI = 0x20000u };
/* gfx90a's private-segment buffer V# (user SGPRs) carries this in its 16
 * base-high bits: MUBUF through it addresses the lane's private memory at
 * base-low + soffset + offset + voffset (the swizzle is invisible). */
enum { EMU_PRIVATE_VSHARP_HI = 0xfff0u };

/* One decoded instruction. Fields not used by a format are zero. */
typedef struct Inst {
	uint16_t id;      /* IsaOp */
	uint8_t fmt;      /* IsaFormat of the encoding actually used */
	uint8_t words;    /* size in dwords, literal included */
	bool vop3;        /* VOP1/2/C op in its VOP3 encoding */
	bool has_lit;
	uint16_t src[3];  /* 9-bit operand codes; VGPRs 256+ */
	uint16_t dst;     /* VALU: vdst VGPR number (or SGPR code for sdst rows);
	                     SALU: sdst code; memory: vdst/vdata register */
	uint16_t sdst;    /* VOP3b carry/sdst and VOPC VOP3 sdst code */
	uint32_t lit;
	int32_t imm;      /* simm16 (SOPK/SOPP), memory offset */
	uint8_t abs, neg, neg_hi, opsel, opsel_hi, omod;
	bool clamp;
	/* DPP / SDWA (src0 is then a VGPR given in src[0]) */
	bool dpp, sdwa;
	uint16_t dpp_ctrl;
	uint8_t row_mask, bank_mask;
	bool bound_ctrl;
	uint8_t sdwa_dst_sel, sdwa_dst_unused, sdwa_sel[2];
	bool sdwa_sext[2];
	/* MFMA */
	uint8_t cbsz, abid, blgp;
	bool acc_cd, acc_a, acc_b;
	/* a scaled MFMA (IF_MSCALE, its v_mfma_ld_scale_b32 half): the scale
	 * operands' codes and the byte of each ({op_sel_hi, op_sel}) */
	uint16_t scale_src[2];
	uint8_t scale_sel[2];
	/* memory */
	uint16_t addr, data0, data1; /* VGPRs */
	uint8_t offset0, offset1;   /* DS */
	uint8_t sbase, soffset;     /* SMEM sbase (SGPR number), soffset code */
	bool soffset_en, smem_imm;
	uint8_t srsrc;              /* MUBUF: SGPR number of the V# */
	bool offen, idxen, lds, glc, slc, sc1;
	bool acc;                   /* memory data in AGPRs */
	uint8_t seg;                /* FLAT seg: 0 flat, 1 scratch, 2 global */
	uint8_t saddr;              /* FLAT saddr code (0x7f: off) */
	bool sve;                   /* scratch: the VGPR address is used */
	uint64_t raw;               /* first two dwords, for unknown encodings */
} Inst;

typedef struct Wave {
	uint32_t sgpr[NUM_SGPRS];
	uint64_t exec;
	uint32_t m0;
	bool scc;
	uint64_t pc;
	uint32_t *vgpr;   /* nregs * 64 */
	uint32_t nregs;   /* unified file size */
	uint32_t accum_offset;
	uint32_t id;      /* wave index in the workgroup */
	uint32_t priv_offset; /* gfx90a: the wave's scratch offset the ABI hands it (an SGPR); MUBUF
	                         through the private segment V# takes it off the address */
	bool done, at_barrier;
	bool vskip;       /* s_setvskip: vector instructions are skipped */
	bool gpr_idx;     /* s_set_gpr_idx_on: VALU VGPR operands named by M0[15:12] are offset by M0[7:0] */
	struct LateWave *late; /* late memory: what is outstanding (late.c), else NULL */
	/* the concurrent order's spin detection (wave.c): the wave's state
	 * hash at its last taken backward branch from each of a few pcs, and
	 * the launch's store count then; `stuck` when a state repeated with
	 * no store in between (the loop can only end if some wave stores) */
	struct {
		uint64_t pc, hash, stores;
	} spin[4];
	bool stuck;
	uint64_t stuck_stores;
} Wave;

typedef struct Emu Emu;

typedef struct Workgroup {
	uint32_t id[3];
	uint8_t *lds;
	uint32_t lds_size;
	/* private (scratch) memory: priv_size bytes per lane, lane l of wave i
	 * at priv + (64*i + l) * priv_size */
	uint8_t *priv;
	uint32_t priv_size;
	Wave *waves;
	uint32_t nwaves;
	bool finished; /* the concurrent order: every wave has ended */
} Workgroup;

/* Decode cache: one slot per dword of the code region, in pages of
 * CODE_PAGE slots allocated when an instruction in them first runs (the
 * region is the whole code object image, which may be far larger than its
 * code: a page table costs 8 bytes per 4 KiB of image, a page ~100 KiB). */
enum { CODE_PAGE = 1024 };
typedef struct {
	Inst insts[CODE_PAGE];
	uint8_t state[CODE_PAGE]; /* 0: not decoded, 1: decoded */
} CodePage;
typedef struct {
	uint64_t base, size;
	const uint8_t *host;
	CodePage **pages; /* size / 4 / CODE_PAGE + 1 entries, NULL until used */
	size_t npages;
} CodeCache;

struct Emu {
	EmuMemory *mem;
	const EmuLaunch *l;
	EmuArch arch;
	CodeCache code;
	Workgroup *wg;
	uint64_t executed, cap;
	char *err;
	size_t err_len;
	bool failed;
	/* recording (EmuLaunch.hook): the current instruction's memory access,
	 * filled by the executors through emu_note_* only when hook is set */
	const EmuHook *hook;
	uint32_t wg_linear;
	uint64_t cap_addr[128], cap_mask;
	uint16_t cap_bytes;
	uint8_t cap_space;
	bool cap_two;
	/* the memory modes (EmuLaunch.policy): late memory, races; `watch`
	 * when either is on (every LDS and global access goes through
	 * emu_watch); the current workgroup's barrier epoch (releases so far) */
	bool late, races, canary, watch;
	uint32_t epoch;
	/* events the hook was given (the model order checks that the picked
	 * instruction reported one) */
	uint64_t recorded;
	/* the concurrent workgroup order: stores and atomics executed so far
	 * (any memory), for the spin detection */
	bool concurrent;
	uint64_t stores;
	struct Watch *wt;   /* watch.c */
	struct LateMem *lm; /* late.c */
};

/* An LDS DMA: a MUBUF load with the lds bit, or gfx950's
 * global_load_lds_dwordx3/x4; it reads global memory and writes LDS. */
static inline bool emu_is_lds_dma(const Inst *in) { return (in->fmt == FMT_MUBUF && in->lds) || isa_lds_dma(in->id); }

/* Record lane `lane`'s address (slot 64 + lane: a ds_*2 second address). */
static inline void emu_note_addr(Emu *e, int slot, uint64_t a)
{
	if (e->hook) {
		e->cap_addr[slot] = a;
		e->cap_mask |= 1ull << (slot & 63);
	}
}
/* A scratch byte address as the hardware lays it out (dword k of lane l at
 * wave base + 256 k + 4 l, the private swizzle), in an address range of its
 * own above the device allocations, so lanes share cache lines. */
static inline uint64_t emu_scratch_addr(const Wave *w, uint32_t a, int lane)
{
	return (UINT64_C(0x7e) << 40) + (uint64_t)w->id * (UINT64_C(1) << 28) + (uint64_t)(a / 4) * 256 + (uint64_t)lane * 4 + a % 4;
}
static inline void emu_note_access(Emu *e, EmuSpace space, unsigned lane_bytes, bool two)
{
	if (e->hook) {
		e->cap_space = (uint8_t)space;
		e->cap_bytes = (uint16_t)lane_bytes;
		e->cap_two = two;
	}
}

/* ---- decode.c ---- */
/* Decode at `p` (at least `avail` bytes readable). Returns the length in
 * dwords, or 0 if the bytes run out. Unknown encodings give id I_UNKNOWN. */
int emu_decode(EmuArch arch, const uint8_t *p, size_t avail, Inst *in);
/* Disassemble into buf (llvm-mc-like syntax). */
void emu_print(const Inst *in, uint64_t pc, char *buf, size_t len);
const char *emu_inst_name(const Inst *in);
/* Width in dwords of operand i (0..2) or of the destination (i = -1); an
 * f8f6f4 MFMA's A and B by their formats (cbsz, blgp). */
int emu_operand_width(const Inst *in, int i);

/* ---- mem.c ---- */
/* Region containing [addr, addr+size); NULL if none. */
typedef struct EmuRegion {
	uint64_t addr, size;
	uint8_t *host;
	bool writable;
	const char *name;
	uint32_t index; /* in mapping order, < emu_mem_count */
} EmuRegion;
const EmuRegion *emu_mem_find(EmuMemory *m, uint64_t addr, uint64_t size);
size_t emu_mem_count(const EmuMemory *m);
const EmuRegion *emu_mem_region(EmuMemory *m, size_t index);
/* What an access of `size` bytes at addr, outside every region, hit: the
 * region whose guard zone holds it ("offset 4100 of 'c' (4096 bytes at
 * 0x...): 4 bytes past its end", "... before the start of ..."), or "not
 * near any mapped region". */
void emu_mem_describe(EmuMemory *m, uint64_t addr, uint64_t size, char *buf, size_t len);
/* "offset 64 of 'c' (address 0x...)", or "LDS offset 0x40" for r NULL. */
void emu_where_text(const EmuRegion *r, uint64_t off, char *buf, size_t len);

/* ---- wave.c ---- */
/* Stop the launch with a message naming the instruction and its address. */
void emu_fail(Emu *e, Wave *w, const Inst *in, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
uint32_t emu_sreg_read(Emu *e, Wave *w, unsigned code);
void emu_sreg_write(Emu *e, Wave *w, unsigned code, uint32_t v);
uint64_t emu_sreg_read64(Emu *e, Wave *w, unsigned code);
void emu_sreg_write64(Emu *e, Wave *w, unsigned code, uint64_t v);
/* Scalar operand value (SGPR, special, inline constant or literal). The
 * `type` decides how float inline constants are encoded. */
uint32_t emu_scalar_src(Emu *e, Wave *w, const Inst *in, unsigned code, IsaType type);
uint64_t emu_scalar_src64(Emu *e, Wave *w, const Inst *in, unsigned code, IsaType type);
static inline uint32_t *vreg(Wave *w, unsigned r) { return w->vgpr + (size_t)r * 64; }
/* Check a VGPR range lies inside the wave's allocation. */
bool emu_vreg_ok(Emu *e, Wave *w, const Inst *in, unsigned r, unsigned n);
/* The decoded instruction at pc if it has run (for messages), else NULL
 * (regs.c). */
const Inst *emu_inst_at(Emu *e, uint64_t pc);

/* ---- salu.c ---- */
/* Execute a scalar instruction; returns false if the wave should stop
 * issuing this round (barrier, end). Sets w->pc. */
void emu_exec_salu(Emu *e, Wave *w, const Inst *in);

/* ---- valu.c ---- */
void emu_exec_valu(Emu *e, Wave *w, const Inst *in);

/* ---- vmem.c ---- */
void emu_exec_smem(Emu *e, Wave *w, const Inst *in);
void emu_exec_ds(Emu *e, Wave *w, const Inst *in);
void emu_exec_vmem(Emu *e, Wave *w, const Inst *in);

/* ---- operands.c ---- */
/* A run of registers an instruction reads or writes: VGPRs in the unified
 * file (AGPR n at accum_offset + n) or SGPRs (VCC at 106/107). */
typedef struct RegRange {
	uint16_t first, n;
	bool vgpr, write;
} RegRange;
typedef struct RegUse {
	RegRange r[12];
	int n;
} RegUse;
void emu_reg_use(const Wave *w, const Inst *in, RegUse *u);

/* What an access does to memory. */
typedef enum { MA_READ, MA_WRITE, MA_ATOMIC } EmuAccess;

/* ---- late.c: late memory (policy.memory EMU_MEMORY_LATE) ---- */
/* The state of the workgroup's waves and of memory, allocated once per
 * launch (after e->wg is set), and its release. */
void emu_late_new(Emu *e, Workgroup *g);
void emu_late_free(Emu *e, Workgroup *g);
/* A wave starts: nothing outstanding. */
void emu_late_start(Wave *w);
/* Before an instruction issues: the registers it reads or writes must not
 * wait for a load (false and the launch failed otherwise); a memory
 * instruction is recorded as outstanding. */
bool emu_late_before(Emu *e, Wave *w, const Inst *in);
/* After it ran (and after emu_late_settle): a load's results are held back
 * until they return; s_waitcnt returns what it guarantees, s_endpgm
 * everything. */
void emu_late_after(Emu *e, Wave *w, const Inst *in);
/* An access of `size` bytes at offset `off` of region r (NULL: LDS) by
 * lane `lane`: a read of bytes another wave's store has not completed fails
 * (false); a write is logged for emu_late_settle. */
bool emu_late_access(Emu *e, Wave *w, const Inst *in, const EmuRegion *r, uint64_t off, unsigned size, int lane,
	EmuAccess kind);
/* After the instruction ran: its writes that changed bytes another wave's
 * store has not completed fail; the bytes its own store changed stay
 * marked until it completes. */
void emu_late_settle(Emu *e, Wave *w, const Inst *in);

/* ---- watch.c: memory watched by the late and race modes ---- */
void emu_watch_new(Emu *e);
void emu_watch_free(Emu *e);
/* An access of `size` bytes by lane `lane` of w: LDS byte offset `addr`
 * (r NULL) or device address `addr` in region r. Late memory's check, and
 * the race detector's records; false when the launch failed. */
bool emu_watch(Emu *e, Wave *w, const Inst *in, const EmuRegion *r, uint64_t addr, unsigned size, int lane);
/* After the instruction ran: its writes settled (late memory's, and the
 * races of those that changed memory reported). */
void emu_watch_settle(Emu *e, Wave *w, const Inst *in);
/* The distinct pairs of racing instructions found. */
uint64_t emu_watch_races(const Emu *e);


/* ---- mfma.c ---- */
void emu_exec_mfma(Emu *e, Wave *w, const Inst *in);

#endif
