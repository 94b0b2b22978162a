/* asm.h — the allocated machine function → assembly text (emit.c) →
 * relocatable object (llvm-mc, llvm_mc.c); the linker that makes the code
 * object is the code-object writer (loader/codeobj/link.c).
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

#include "../passes/graph/analysis.h"
#include "../passes/plan/plan.h"
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
 * llvm-mc-19 (then -20, -18, -17) on PATH, /usr/lib/llvm-19/bin/llvm-mc,
 * llvm-mc-22 (then -21) on PATH, /usr/lib/llvm-22/bin/llvm-mc (gfx950 needs
 * LLVM 20 or later, so a gfx950 build skips the older ones).
 * An explicit path or $WAVECC_LLVM_MC that is not executable is an error
 * (no silent fallback); they are used as given. A candidate found by the
 * search is skipped when it is too old to know `mcpu` (Debian's plain
 * llvm-mc may be LLVM 14, which has no gfx942). On failure the message lists
 * what was tried. */
int llvm_mc_find(const char *explicit_path, const char *mcpu, LlvmMc *mc, Buf *msg);

typedef struct AsmOptions {
	const char *llvm_mc;     /* --llvm-mc, or NULL */
	const char *mcpu;        /* a target ID: "gfx942" (default when NULL), "gfx90a",
				  * "gfx942:sramecc-", ...; a bare processor takes its
				  * features from the text's .amdgcn_target */
	const char *source_name; /* replaces "<stdin>" in llvm-mc's messages */
	bool verbose;            /* say which llvm-mc runs, on stderr */
} AsmOptions;

/* Known targets for --mcpu: a processor (gfx942, gfx90a, gfx940, gfx941,
 * gfx950) with optional target-ID features :sramecc+/- and :xnack+/-. */
bool asm_known_mcpu(const char *mcpu);
/* Split a target ID into the processor and llvm-mc's -mattr list
 * ("gfx942:sramecc-" -> "gfx942", "-sramecc"); false if unknown. */
bool asm_split_target(const char *id, char *proc, size_t proc_len, char *mattr, size_t mattr_len);
/* The target ID of the text's `.amdgcn_target "amdgcn-amd-amdhsa--ID"`
 * directive (e.g. "gfx942:sramecc-"), or false if it has none. */
bool asm_text_target(const char *text, size_t len, char *id, size_t id_len);

/* Assemble `text` into a relocatable object appended to `obj` (taken from
 * the object cache when $WAVECC_ASM_CACHE names one). */
int asm_assemble(const AsmOptions *o, const char *text, size_t len, Buf *obj, Buf *msg);

/* ---- asm_cache.c ---- */
/* The cache key of running `tool` with argv[1..] on text: 32 hex digits
 * and a NUL; false if tool cannot be stat'ed. */
bool asm_cache_key(const char *tool, char *const argv[], const char *text, size_t len, char key[33]);
/* Append the object kept under key in dir to obj; false (obj unchanged) on
 * a miss or an entry that does not read back whole. */
bool asm_cache_get(const char *dir, const char *key, Buf *obj);
/* Keep obj under key in dir (made if missing), atomically; failures are
 * silent (the cache is only a cache). */
void asm_cache_put(const char *dir, const char *key, const void *obj, size_t len);

/* ---- emit.c ---- */
/* The allocated machine function f of the analysed kernel c as one llvm-mc
 * source (text, descriptor, metadata), appended to text. With a tag, the
 * same as one variant of a batch source (driver/batch.c): no target
 * directive, sections NAME.TAG, symbols KERNEL__TAG, block labels
 * .LTAG_..., metadata unchanged (loader/codeobj/link.c undoes the rest).
 * The header names the plan's schedule and what selection made of it. */
void emit_assembly(Analysis *c, const Plan *p, const MFunc *f, const char *tag, Buf *text);
/* The launch descriptor (docs/launch-format.md) naming code_object,
 * appended to json. wgs_per_cu > 0: the kernel is co-resident (its
 * workgroups wait for each other) and a CU holds that many of them, which
 * the descriptor records ("co_resident", "workgroups_per_cu"). */
void emit_launch(Analysis *c, const MFunc *f, const char *code_object, int wgs_per_cu, Buf *json);
/* The kernarg segment's size: a 64-bit buffer pointer per argument. */
int emit_kernarg_size(const Kernel *k);

/* ---- origin.c ---- */
/* The graph op whose code holds line `line` (1-based) of the compiler's
 * assembly `text`: the name in the nearest `// OPNAME` comment above it
 * within the code, copied into name; false outside any op's code. */
bool asm_line_op(const char *text, size_t len, long line, char *name, size_t name_len);
/* Copy llvm-mc's messages `msg` to `out`, followed by a note for each
 * `TAG:LINE:COL:` message naming the generated line and its graph op;
 * op_where (may be NULL) gives the op's location in the kernel graph. */
void asm_explain(Buf *out, const char *msg, const char *tag, const char *text, size_t len,
	const char *(*op_where)(void *ctx, const char *op), void *ctx);

#endif
