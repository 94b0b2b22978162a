/* asm.h — assembly text → relocatable object (llvm-mc) → loadable code object
 * (our own libelf linker).
 *
 * Everything works on memory: the compiler hands assembly text in a buffer
 * and gets the code-object bytes back; only the CLI touches files. llvm-mc
 * runs as a child process fed through pipes, so no temporary files exist.
 *
 * Errors: functions return 0, or -1 after appending a message (possibly
 * several lines, e.g. llvm-mc's diagnostics) to `msg`. On success `msg` may
 * hold llvm-mc's warnings; callers should print it if non-empty. */
#ifndef WAVECC_ASM_H
#define WAVECC_ASM_H

#include <stdbool.h>
#include <stddef.h>

#include "../util/util.h"

/* ---- llvm_mc.c ---- */

/* Where the llvm-mc that runs was found; `how` is one of "--llvm-mc",
 * "$WAVECC_LLVM_MC", "PATH", "default location". */
typedef struct LlvmMc {
	char path[1024];
	const char *how;
	char skipped[1024]; /* lines naming candidates passed over, for -v */
} LlvmMc;

/* Find llvm-mc, in this order: `explicit_path` (the --llvm-mc option; may be
 * NULL), $WAVECC_LLVM_MC, `llvm-mc` on PATH, /opt/rocm/llvm/bin/llvm-mc,
 * llvm-mc-19 (then -20, -18, -17) on PATH, /usr/lib/llvm-19/bin/llvm-mc.
 * An explicit path or $WAVECC_LLVM_MC that is not executable is an error
 * (no silent fallback); they are used as given. A candidate found by the
 * search is skipped when it is too old to know `mcpu` (Debian's plain
 * llvm-mc may be LLVM 14, which has no gfx942). On failure the message lists
 * what was tried. */
int llvm_mc_find(const char *explicit_path, const char *mcpu, LlvmMc *mc, Buf *msg);

typedef struct AsmOptions {
	const char *llvm_mc;     /* --llvm-mc, or NULL */
	const char *mcpu;        /* "gfx942" (default when NULL) or "gfx90a", ... */
	const char *source_name; /* replaces "<stdin>" in llvm-mc's messages */
	bool verbose;            /* say which llvm-mc runs, on stderr */
} AsmOptions;

/* Known targets for --mcpu: name and ELF e_flags machine (cdna3-facts §1.9). */
bool asm_known_mcpu(const char *mcpu);

/* Assemble `text` into a relocatable object appended to `obj`. */
int asm_assemble(const AsmOptions *o, const char *text, size_t len, Buf *obj, Buf *msg);

/* ---- link.c ---- */

/* Link one relocatable AMDGPU object into an ET_DYN code object laid out like
 * `ld.lld -shared` does (see link.c), appended to `out`. `name` is used in
 * messages. */
int asm_link(const void *obj, size_t len, const char *name, Buf *out, Buf *msg);

/* Assemble and link in one step. */
int asm_build(const AsmOptions *o, const char *text, size_t len, Buf *code_object, Buf *msg);

#endif
