/* emu.h — the CDNA CPU emulator's interface (gfx942; gfx90a where encodings
 * differ). The emulator executes machine code read from emulated device
 * memory; it never sees assembly text.
 *
 * Memory model: a flat 64-bit device address space made of regions the
 * caller maps (code object image, kernarg segment, buffers). An access that
 * falls outside every region stops the launch with an error naming the
 * address and the instruction, never a host crash.
 *
 * Contract: emu_launch runs every workgroup of the grid to completion (or to
 * the first error) and returns 0, or -1 with a message in `err`. */
#ifndef WAVECC_EMU_H
#define WAVECC_EMU_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "../codeobj/kd.h"

typedef struct EmuMemory EmuMemory;

EmuMemory *emu_mem_new(void);
void emu_mem_free(EmuMemory *m);
/* Map `size` bytes of host memory (owned by the caller, must outlive the
 * launch) at a fresh device address the emulator picks (aligned to `align`,
 * at least 256, with unmapped guard space around each region). Returns the
 * device address. `name` appears in error messages. */
uint64_t emu_mem_map(EmuMemory *m, void *host, uint64_t size, uint64_t align, bool writable, const char *name);
/* Map at a fixed device address (the code object image at its load base).
 * Returns 0, or -1 if it overlaps an existing region. */
int emu_mem_map_at(EmuMemory *m, uint64_t addr, void *host, uint64_t size, bool writable, const char *name);
/* Host pointer for [addr, addr+size) if it lies inside one region, else NULL. */
void *emu_mem_host(EmuMemory *m, uint64_t addr, uint64_t size, bool for_write);

typedef enum { EMU_GFX942, EMU_GFX90A, EMU_GFX950 } EmuArch;

/* What a d16 load (buffer/global/flat/scratch/ds *_d16 and *_d16_hi, the
 * short, ubyte and sbyte forms) does to the half of its 32-bit VGPR that it
 * does not load. With SRAM ECC enabled (MI200, MI300 as shipped) the load
 * writes the whole register and that half becomes 0; with SRAM ECC off it
 * keeps its old bits. The code object's target ID says which one its code
 * assumes (sramecc on or any: clobber; off: preserve; LLVM's
 * GCNSubtarget::d16PreservesUnusedBits). The zero value is the hardware's
 * default, clobbering. */
typedef enum { EMU_D16_CLOBBER, EMU_D16_PRESERVE } EmuD16;

/* ---- what the hardware leaves open ----
 * The order in which a workgroup's waves issue, the order of the workgroups,
 * and what LDS, scratch and the registers the ABI does not initialise hold at
 * the start. A correct kernel gives the same result under every choice; the
 * non-default ones exist to catch the kernels that do not (docs/emulator.md,
 * "Dispatch" and "Initial state"). Every zero value is the default. */
typedef enum {
	EMU_WAVES_INTERLEAVE, /* one instruction per ready wave in turn (round-robin), as a SIMD issues */
	EMU_WAVES_BARRIER,    /* each wave runs until it ends or reaches s_barrier, then the next */
	EMU_WAVES_RANDOM,     /* each instruction from a ready wave picked at random (seeded) */
	EMU_WAVES_MODEL,      /* the wave EmuLaunch.hook->pick names: the cycle model's issue order
	                         (loader/timing tm_order_hook; docs/emulator.md, "The model order") */
} EmuWaveOrder;
/* concurrent: every workgroup of the grid resident at once, each live wave
 * issuing one instruction per round, workgroup after workgroup, so that a
 * workgroup waiting on a flag another stores (a spin-wait) sees it; a round
 * in which every live wave repeats its state in a loop with no store since
 * (nothing can release it) fails as a hang. Memory is immediate and
 * coherent: it checks progress, not the cache ordering a flag needs. */
typedef enum { EMU_WGS_FORWARD, EMU_WGS_REVERSE, EMU_WGS_RANDOM, EMU_WGS_CONCURRENT } EmuWgOrder;
/* zero: LDS zeroed per workgroup, SGPRs per wave, VGPRs and scratch once per
 * launch (a later workgroup sees what earlier ones left); garbage: LDS and
 * scratch per workgroup, SGPRs, VCC, M0, SCC and VGPRs per wave, with a
 * seeded non-zero pattern */
typedef enum { EMU_FILL_ZERO, EMU_FILL_GARBAGE } EmuFill;
/* When memory completes (docs/emulator.md, "Late memory"): immediately at
 * issue, s_waitcnt a no-op (the default); or late: a load's destination
 * registers are written when an s_waitcnt guarantees it has returned (a
 * read or write of them before is an error naming the load and the wait it
 * lacks), and a store's bytes are flagged until the writer's covering wait
 * (another wave touching them before is an error). */
typedef enum { EMU_MEMORY_NOW, EMU_MEMORY_LATE } EmuMemoryMode;

typedef struct EmuPolicy {
	EmuWaveOrder waves;
	EmuWgOrder wgs;
	EmuFill fill;
	EmuMemoryMode memory;
	/* record every LDS and global access and report the races: two
	 * accesses of different waves of a workgroup to the same byte with no
	 * s_barrier between them, or of different workgroups (global), one of
	 * them a write and not both atomic (EmuStats.races, EmuLaunch.report) */
	bool races;
	/* a buffer store or atomic the range check drops within the buffer's
	 * guard zone (less than its size past num_records) is an error naming
	 * the buffer and the offset: an off-by-one bound, not a masked lane */
	bool canary;
	/* every wave of a workgroup meets every other at the same s_barrier
	 * instructions: a barrier released while waves wait at different
	 * ones, or while a wave has ended, is an error naming the waves */
	bool barriers;
	uint64_t seed; /* of the random orders and of the garbage */
} EmuPolicy;

/* The modes' names, as `wavecc run` spells them: interleave barrier random model,
 * forward reverse random, zero garbage, now late. */
typedef enum { EMU_POLICY_WAVES, EMU_POLICY_WGS, EMU_POLICY_FILL, EMU_POLICY_MEMORY } EmuPolicyField;
/* The mode called `s`, or -1. */
int emu_policy_parse(EmuPolicyField f, const char *s);
const char *emu_policy_name(EmuPolicyField f, int mode);

/* ---- the recording hook (timing models, profilers) ----
 * With EmuLaunch.hook set, every executed wave instruction is reported after
 * it ran, with what a timing model needs and the functional state cannot
 * give later: the EXEC mask it ran under, the VGPRs it read and wrote, the
 * per-lane addresses of a memory access, the pc it went on to. Without a
 * hook the emulator only tests one pointer per instruction. */
typedef enum { EMU_SPACE_NONE, EMU_SPACE_GLOBAL, EMU_SPACE_LDS, EMU_SPACE_SCRATCH, EMU_SPACE_SCALAR } EmuSpace;

typedef struct EmuEvent {
	uint32_t wg;        /* linear workgroup id (x fastest) */
	uint32_t wave;      /* wave index in the workgroup */
	uint64_t pc, next_pc;
	uint16_t op;        /* IsaOp row (ir/isa/insts.h) */
	uint8_t fmt;        /* IsaFormat of the encoding */
	uint8_t mfma_fmt;   /* an f8f6f4 MFMA's operand formats: cbsz | blgp << 3 (its passes) */
	int32_t imm;        /* simm16 of SOPP/SOPK, memory offset */
	uint64_t exec;      /* EXEC before the instruction */
	/* VGPRs in the unified file (AGPR n is accum_offset + n): first
	 * register and count, count 0 when there is none */
	uint16_t vdst, nvdst, vsrc[3], nvsrc[3];
	/* memory: lane l's byte address in addr[l] (the second address of a
	 * ds_read2/ds_write2 in addr[64 + l]) for each lane set in amask;
	 * scratch addresses are synthesised so a lane's dword k of one wave
	 * lies next to the other lanes' (the hardware's swizzle) */
	const uint64_t *addr;
	uint64_t amask;
	uint16_t lane_bytes; /* bytes per lane and address */
	bool two;            /* ds_read2 / ds_write2 */
	uint8_t space;       /* EmuSpace */
	const void *inst;    /* the decoded instruction, for emu_event_text; valid during the call */
} EmuEvent;

typedef struct EmuHook {
	void (*on_inst)(void *ctx, const EmuEvent *ev);
	void *ctx;
	/* run only the workgroups with linear ids in [wg_first, wg_first +
	 * wg_count) (wg_count 0: all): a profile samples, the others' results
	 * are not computed */
	uint64_t wg_first, wg_count;
	/* or, when wg_nids > 0, only the linear ids wg_ids[0..wg_nids)
	 * (ascending): a sample spread over the grid */
	const uint64_t *wg_ids;
	size_t wg_nids;
	/* The wave order `model` (EMU_WAVES_MODEL; all three callbacks set,
	 * no sample): wg_begin when a workgroup starts (its linear id and
	 * waves), then pick for each instruction: the index of the wave that
	 * issues next, or -1 when none will (every wave has ended; anything
	 * else stops the launch). next[i] is wave i's next instruction,
	 * decoded and not run (pc, op, fmt, imm, exec, registers; no
	 * addresses; next_pc = pc), NULL while wave i waits at a barrier or
	 * has ended. on_inst then reports the picked instruction, once, after
	 * it ran (a vector instruction s_setvskip skipped: as decoded). */
	void (*wg_begin)(void *ctx, uint32_t wg, uint32_t nwaves);
	int (*pick)(void *ctx, const EmuEvent *const *next, uint32_t nwaves);
} EmuHook;

/* List the instructions of code[0..len) (offsets printed from `base`) to
 * out, one per line, trailing s_code_end/zero padding trimmed; returns how
 * many encodings the emulator does not know (printed as such). */
size_t emu_disassemble(EmuArch arch, const uint8_t *code, size_t len, uint64_t base, FILE *out);

/* The event's instruction as the disassembler prints it. */
void emu_event_text(const EmuEvent *ev, char *buf, size_t len);

typedef struct EmuLaunch {
	EmuArch arch;
	KernelDescriptor kd;     /* decoded; gives initial SGPR/VGPR state, LDS size */
	uint64_t kd_addr;        /* device address of the KD (entry = kd_addr + kd.kernel_code_entry_byte_offset) */
	uint64_t kernarg_addr;   /* device address of the kernarg segment */
	uint32_t grid[3];        /* workgroups in x, y, z */
	uint32_t wg_size[3];     /* work-items per workgroup in x, y, z */
	uint32_t dynamic_lds;    /* extra LDS bytes beyond the KD's static size */
	uint64_t max_instructions; /* 0: default cap of 1e8 wave instructions; stops runaway loops with a message */
	EmuD16 d16;              /* d16 loads: clobber (default) or preserve the other half */
	bool trace;              /* print each executed instruction to stderr */
	const EmuHook *hook;     /* NULL: no recording */
	EmuPolicy policy;        /* wave and workgroup order, initial fill, memory and race modes */
	/* policy.races: the races found, one line each (the first
	 * EMU_RACE_REPORTS distinct pairs of instructions), NUL-terminated;
	 * NULL: only counted */
	char *report;
	size_t report_len;
} EmuLaunch;

enum { EMU_RACE_REPORTS = 8 };

typedef struct EmuStats {
	uint64_t instructions; /* wave instructions executed */
	uint64_t waves;
	uint64_t races;        /* policy.races: distinct pairs of racing instructions */
	double seconds;
} EmuStats;

int emu_launch(EmuMemory *m, const EmuLaunch *l, EmuStats *stats, char *err, size_t err_len);

#endif
