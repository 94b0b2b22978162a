/* emu_harness.h — helpers for the emulator suites: assemble a snippet with
 * llvm-mc-19 (its .text read from the object with libelf), map them at a
 * fixed address with a kernel descriptor built here (not by the linker),
 * and launch. The snippet sees s[0:1] = kernarg pointer, s2 = workgroup id
 * x (s3 = y, s4 = z when wg_dims > 1), v0 = packed work-item ids. */
#ifndef WAVECC_TESTS_EMU_HARNESS_H
#define WAVECC_TESTS_EMU_HARNESS_H

#include "../../../loader/emu/emu.h"
#include "../../test.h"

enum { H_CODE_ADDR = 0x100000 };

typedef struct {
	EmuMemory *mem;
	uint8_t *code;
	size_t code_size;
	EmuLaunch l;
	uint8_t kernarg[256];
	char err[1024];
	EmuStats stats;
} Harness;

/* Assemble `body` (one instruction per line) for gfx942; returns the code
 * size in bytes (0 on assembler failure, with the message printed). */
size_t h_assemble(const char *body, uint8_t **code, const char *mcpu);
/* Set up: assemble, map code, default launch of one 64-lane workgroup,
 * 256 VGPRs with accum_offset 128 (a0 is register 128). */
void h_init(Harness *h, const char *body);
/* Map a buffer and store its address at kernarg offset `off`. */
uint64_t h_buffer(Harness *h, void *p, size_t size, unsigned off, bool writable);
void h_arg32(Harness *h, unsigned off, uint32_t v);
/* Launch; returns emu_launch's result (message in h->err). */
int h_run(Harness *h);
void h_free(Harness *h);
/* Compile OpenCL C (one kernel) with clang-19 for `mcpu` (clang-22 for
 * gfx950, which LLVM 19 does not know; extra `flags`), take its .text and
 * its kernel descriptor from the relocatable object (no linker), and set up
 * as h_init does. Returns false (with a message) if clang fails. */
bool h_init_cl(Harness *h, const char *source, const char *mcpu, const char *flags);
/* The same with clang-`llvm` (19 or 22: LLVM 22 expands frem into the
 * exact frexp/ldexp reduction loop, 19 into one fdiv and trunc). */
bool h_init_cl_llvm(Harness *h, const char *source, const char *mcpu, const char *flags, int llvm);
/* Is the program `name` on PATH (command -v)? */
bool h_have_tool(const char *name);

#endif
