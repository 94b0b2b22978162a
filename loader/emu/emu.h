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
} EmuHook;

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
} EmuLaunch;

typedef struct EmuStats {
	uint64_t instructions; /* wave instructions executed */
	uint64_t waves;
	double seconds;
} EmuStats;

int emu_launch(EmuMemory *m, const EmuLaunch *l, EmuStats *stats, char *err, size_t err_len);

#endif
