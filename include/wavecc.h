/* wavecc.h — the wavecc library: compile Wave kernel graphs (JSON, format
 * wavecc-kernel/1) to AMD GPU code objects for CDNA chips (gfx942, gfx90a, gfx950),
 * run code objects on wavecc's emulator or through the HIP runtime, and run
 * the reference interpreter on the same buffers.
 *
 * Ownership. Every object a function returns belongs to the caller and is
 * released by its *_free function (each accepts NULL). Text and bytes
 * returned by accessors belong to the object they came from and stay valid
 * until it is freed. Error messages (`char **error`) are allocated with
 * malloc and freed by the caller with free(). Buffers passed in stay the
 * caller's: the library reads and writes them during the call only.
 *
 * Threading (since 0.3). Thread-safe: any number of threads may call the
 * library at once. A call that uses a kernel handle holds that handle's
 * lock for its length, so calls on one handle take turns (the rest run in
 * parallel); a compiled kernel never changes after it is made, so any
 * threads may run and query it at once. Freeing a handle while another
 * thread uses it is the caller's mistake. The process-wide state (interned
 * names, the emulator's decode tables, libelf's start-up, SIGPIPE while
 * llvm-mc runs) is locked or made once; the diagnostics are per thread.
 *
 * Errors. A function that can fail returns NULL or a nonzero wavecc_status.
 * When `error` is not NULL it then receives the diagnostics as text, one per
 * line, located like the command line's: "FILE:LINE:COL: error: JSON.path:
 * message" for the kernel graph and a launch descriptor, the graph op's
 * location for what the compiler cannot compile, "wavecc: error: message"
 * where no input is to blame. On success *error is set to NULL. The same
 * diagnostics, warnings included, are data too (wavecc_last_diagnostic).
 * The library never prints an error, never exits, and bad input never
 * crashes it; a bug in wavecc itself returns WAVECC_EINTERNAL ("Internal
 * errors" below). llvm-mc (an LLVM 17 or newer with AMDGPU; see
 * wavecc_options.llvm_mc) runs as a child process when a kernel is
 * compiled. docs/library.md documents the library (installed by `make
 * install` as PREFIX/share/doc/wavecc/library.md, beside the kernel graph
 * and launch descriptor formats).
 *
 * Typical use (examples/api_gemm.c):
 *   k = wavecc_kernel_load("gemm.json", &err);
 *   c = wavecc_compile(k, NULL, &err);              -- gfx942, llvm-mc found on PATH
 *   wavecc_kernel_arg(k, i, &info, &err);           -- sizes of the buffers
 *   wavecc_run(c, WAVECC_BACKEND_EMULATOR, bufs, n, &err);
 *   wavecc_interpret(k, ref, n, &err);              -- the reference results
 */
#ifndef WAVECC_H
#define WAVECC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WAVECC_VERSION_MAJOR 0
#define WAVECC_VERSION_MINOR 3
#define WAVECC_VERSION_PATCH 0
#define WAVECC_VERSION_STRING "0.3.0"

/* "0.3.0": the library's version (the soname carries the major). Minor
 * versions only add: functions, enum values, and fields at the end of the
 * structs that carry a struct_size (docs/library.md, "Compatibility"). */
const char *wavecc_version(void);

typedef enum wavecc_status {
	WAVECC_OK = 0,
	WAVECC_EINPUT = 1,  /* bad input: the kernel graph, a symbol, a buffer, a code object */
	WAVECC_EARG = 2,    /* a bad argument to the call itself (NULL, unknown name, index) */
	WAVECC_ERUN = 3,    /* the run failed: an emulator fault, no GPU for HIP */
	WAVECC_EINTERNAL = 4, /* a bug in wavecc (since 0.3): the call was abandoned, see
			       * "Internal errors" below */
} wavecc_status;

/* ---- diagnostics as data (since 0.3) ----
 *
 * Every call that has an `error` parameter also keeps what it reported —
 * errors, and warnings even when it succeeds — as a list of diagnostics
 * for the calling thread, replacing the list of that thread's previous
 * such call (the text stays valid until then). A compiled kernel keeps
 * the warnings of its compile for its life (wavecc_compiled_diagnostic).
 * The `error` text is the same messages as printed lines (a hint the
 * message lacks on a "hint:" line after it, as the command line prints it).
 *
 * Internal errors. A bug in wavecc (a verifier, a checker, an impossible
 * state: what the command line reports as "internal error at FILE:LINE"
 * and aborts on) makes the call return WAVECC_EINTERNAL (or NULL) with
 * "wavecc: internal error at FILE:LINE: message" in *error and one
 * diagnostic of severity WAVECC_SEVERITY_INTERNAL whose file and line are
 * wavecc's source; the host process goes on. What the call had allocated
 * is freed, except what the failing stage held only in its own stack
 * frames (leaked); no object is half made; the handles passed in are
 * unchanged and remain usable (a kernel's graph is never modified), and
 * no lock stays held. docs/library.md says more. */
typedef enum wavecc_severity {
	WAVECC_SEVERITY_ERROR = 0,
	WAVECC_SEVERITY_WARNING = 1,
	WAVECC_SEVERITY_INTERNAL = 2, /* a bug in wavecc: file and line are wavecc's source */
} wavecc_severity;

typedef struct wavecc_diagnostic {
	size_t struct_size;     /* set by the caller: sizeof(wavecc_diagnostic) */
	wavecc_severity severity;
	const char *message;    /* the message alone: no location, severity or JSON path */
	const char *file;       /* the document it is about (a kernel graph, "<launch descriptor>"), or NULL */
	int line, col;          /* in it, 1-based; 0 when not known */
	const char *json_path;  /* the place in the document: "graph[3].mapping", "symbols.M"; or NULL */
	const char *op;         /* the graph op it is about, by name, or NULL */
	const char *source_file; /* that op's place in the program that made the graph (the op's
				  * "loc" key, docs/kernel-format.md), or NULL */
	int source_line, source_col;
	const char *hint;       /* a fix, when there is one; NULL otherwise */
	const char *text;       /* the whole message, as the error text and the command line give it */
} wavecc_diagnostic;

/* The calling thread's list: how many, and diagnostic i. */
size_t wavecc_last_diagnostic_count(void);
wavecc_status wavecc_last_diagnostic(size_t i, wavecc_diagnostic *d);

/* ---- what the compiler knows (since 0.3) ----
 * From the compiler's own tables, so a frontend need not copy them. Text
 * is static. A `_info` struct is versioned like the others: the caller
 * sets struct_size = sizeof of it first. */

/* The processors wavecc compiles for ("gfx942", "gfx90a", "gfx950"; a target ID
 * may add features: "gfx942:sramecc-:xnack+"), NULL past the end. */
size_t wavecc_num_targets(void);
const char *wavecc_target(size_t i);

/* Wave's MMA types (MMAType): the matrix shape, the operand and
 * accumulator dtypes, and the targets wavecc compiles each for. */
typedef struct wavecc_mma_type_info {
	size_t struct_size;
	const char *name;       /* "F32_16x16x16_F16" */
	int m, n, k;            /* the product shape of one instruction (K8/K4 types: of both halves;
				 * "GenericDot": of its default parameters, 1 x 64 x 4) */
	const char *in_dtype;   /* the operands' dtype in its name ("f16" for the *_F16 types) */
	const char *acc_dtype;  /* the accumulator's */
	int native;             /* 0: a Wave virtual type that runs as two instructions */
	const char *targets;    /* the targets wavecc compiles it for with in_dtype operands,
				 * space-separated ("gfx942 gfx90a"); "" for none yet */
	const char *f16_targets;  /* the same with f16 operands ("" when none takes them) */
	const char *bf16_targets; /* the same with bf16 operands (the *_F16 types take bf16 as
				   * Wave does; gfx950 runs the F8 shapes on 16-bit data) */
} wavecc_mma_type_info;
size_t wavecc_num_mma_types(void);
wavecc_status wavecc_mma_type(size_t i, wavecc_mma_type_info *info);

/* The ops of the kernel graph format (docs/kernel-format.md). */
typedef struct wavecc_op_info {
	size_t struct_size;
	const char *name;        /* "read", "mma", "exp2", ... */
	const char *op_class;    /* "memory", "unary", "binary", "reduce", ... */
	const char *operands;    /* its operand keys, space-separated ("lhs rhs acc") */
	const char *attributes;  /* its other keys ("elements_per_thread mapping ...") */
} wavecc_op_info;
size_t wavecc_num_ops(void);
wavecc_status wavecc_op(size_t i, wavecc_op_info *info);

/* The element types ("f16", "bf16", "f32", "i8", "f8e4m3fnuz", ...). */
typedef struct wavecc_dtype_info {
	size_t struct_size;
	const char *name;
	size_t size;             /* bytes per element */
	const char *kind;        /* "float", "int" or "uint" */
} wavecc_dtype_info;
size_t wavecc_num_dtypes(void);
wavecc_status wavecc_dtype(size_t i, wavecc_dtype_info *info);

/* ---- kernel graphs ---- */

typedef struct wavecc_kernel wavecc_kernel;

/* Parse a kernel graph from len bytes of JSON; `name` names it in messages
 * (a file name; NULL: "<memory>"). NULL on bad input. */
wavecc_kernel *wavecc_kernel_parse(const char *json, size_t len, const char *name, char **error);
/* Load a kernel graph from a file. */
wavecc_kernel *wavecc_kernel_load(const char *path, char **error);
void wavecc_kernel_free(wavecc_kernel *k);
const char *wavecc_kernel_name(const wavecc_kernel *k);

/* Bind a dynamic symbol, or override a symbol's value, as `wavecc compile
 * -D NAME=VALUE` does; what derives from it follows. The binding applies to
 * every later compile, run and interpret of k (the last one set wins). */
wavecc_status wavecc_kernel_set_symbol(wavecc_kernel *k, const char *name, int64_t value, char **error);

/* A kernel argument (a buffer), under the symbols bound so far. */
typedef struct wavecc_arg_info {
	const char *name;
	const char *dtype;    /* "f16", "f32", "i32", ... (docs/kernel-format.md) */
	size_t element_size;  /* bytes per element */
	int rank;
	int64_t shape[8];     /* C order, outermost first */
	uint64_t bytes;       /* the buffer size a run needs */
	int reads, writes;    /* whether the kernel reads / writes it */
} wavecc_arg_info;

/* The buffer arguments only (scalars: wavecc_kernel_param). */
size_t wavecc_kernel_num_args(const wavecc_kernel *k);
/* Argument i; WAVECC_EINPUT when a shape symbol has no value yet. */
wavecc_status wavecc_kernel_arg(const wavecc_kernel *k, size_t i, wavecc_arg_info *info, char **error);

/* Every parameter of the compiled kernel, in kernarg order (since 0.3):
 * the buffers (arguments order), then the runtime sizes (dynamic symbols
 * no binding specialised, dynamic_symbols order), then the scalar
 * arguments (arguments order). A frontend that launches the code object
 * itself writes each at kernarg_offset (docs/abi.md). */
typedef enum wavecc_param_kind {
	WAVECC_PARAM_BUFFER = 0, /* a global buffer: its 64-bit address */
	WAVECC_PARAM_SCALAR = 1, /* a scalar argument ("type": "scalar"): its value */
	WAVECC_PARAM_SIZE = 2,   /* a dynamic symbol left to run time: its value, i32 */
} wavecc_param_kind;

typedef struct wavecc_param_info {
	/* The caller sets struct_size = sizeof(wavecc_param_info) before the
	 * call; the library fills the fields that fit in that size (later
	 * versions add fields at the end only). */
	size_t struct_size;
	const char *name;
	wavecc_param_kind kind;
	const char *dtype;       /* buffers: the element type; scalars: theirs; sizes: "i32" */
	size_t element_size;     /* bytes of one element (of the value, for scalars and sizes) */
	uint32_t kernarg_offset; /* byte offset in the kernarg segment */
	uint32_t kernarg_bytes;  /* bytes written there: 8 (an address), else element_size */
	int rank;                /* buffers; 0 otherwise */
	int64_t shape[8];        /* C order; -1 where only run time knows the size */
	const char *dims[8];     /* each dim as text: its value, or the expression over
				  * runtime sizes ("M", "K/2") where shape[d] is -1 */
	uint64_t bytes;          /* buffers: the size a run needs (0 while a dim is -1);
				  * scalars and sizes: element_size */
	int reads, writes;       /* buffers: whether the kernel reads / writes it */
} wavecc_param_info;

/* k's parameters as wavecc_compile would compile it now (under the
 * symbols bound so far: a bound dynamic symbol is no parameter). Text
 * belongs to k and stays valid until k is freed. */
size_t wavecc_kernel_num_params(const wavecc_kernel *k);
wavecc_status wavecc_kernel_param(const wavecc_kernel *k, size_t i, wavecc_param_info *info, char **error);

/* ---- compiling ---- */

typedef struct wavecc_options {
	const char *target;      /* a target ID: "gfx942" (NULL), "gfx90a", "gfx942:sramecc-", ... */
	const char *llvm_mc;     /* the llvm-mc to run; NULL: $WAVECC_LLVM_MC, then PATH and the usual places */
	const char *code_object_name; /* the file name the launch descriptor gives the code object
				       * (NULL: "kernel.hsaco") */
} wavecc_options;

/* A symbol's value: `wavecc compile -D NAME=VALUE`. */
typedef struct wavecc_define {
	const char *name;
	int64_t value;
} wavecc_define;

/* Every compile option of `wavecc compile` (since 0.3; docs/library.md,
 * "Compile options"). Zero (NULL) in a field means "not given": the
 * kernel graph's "options", else the default, apply, as on the command
 * line. Versioned: the caller sets struct_size = sizeof(wavecc_compile_options)
 * and zeroes the rest first (`wavecc_compile_options o = {.struct_size = sizeof o};`); a
 * later library adds fields at the end only, and a larger struct whose
 * extra bytes are not all zero (a field this library does not know) is
 * refused with WAVECC_EARG rather than ignored. */
typedef struct wavecc_compile_options {
	size_t struct_size;
	const char *target;           /* --mcpu: "gfx942" (NULL), "gfx90a", "gfx942:sramecc-", ... */
	const char *llvm_mc;          /* --llvm-mc: NULL: $WAVECC_LLVM_MC, then PATH and the usual places */
	const char *code_object_name; /* the file name the launch descriptor gives the code object (NULL:
				       * "kernel.hsaco") */
	const wavecc_define *defines; /* -D: bound for this compile, after (over) the handle's bindings */
	size_t ndefines;
	const char *schedule;         /* --schedule: "prefetch", "none", "four_stage", "modulo",
				       * "prefetch_attention" */
	int lds_stages;               /* --lds-stages: 1 or 2 */
	int waves_per_eu;             /* --waves-per-eu: 1 to 8, the occupancy target */
	const char *interleave;       /* --interleave: "mfma:1,lds:1,vmem-load:1" */
	int no_schedule;              /* --no-schedule: keep instruction selection's order */
	const char *denorm_fp_math_f32; /* the graph option of that name: "ieee", "dynamic",
					 * "preserve-sign", "positive-zero" (compile only: the
					 * interpreter follows the graph's) */
	int assembly_only;            /* -S: stop after the assembly; no llvm-mc run, no code
				       * object (its accessor gives len 0), no statistics */
	int dump_mir;                 /* --dump-mir: the machine IR after each machine pass, in
				       * wavecc_compiled_dump */
	int dump_plan;                /* --dump-plan: the loop plan, in wavecc_compiled_dump */
	const char *cache_dir;        /* the on-disk compile cache's folder (created if missing);
				       * NULL: $WAVECC_CACHE_DIR if set; "" or neither: no cache
				       * (docs/library.md, "Compile cache") */
} wavecc_compile_options;

typedef struct wavecc_compiled wavecc_compiled;

/* Compile k for o->target (o may be NULL: the defaults). NULL on bad input,
 * with the diagnostics in *error. */
wavecc_compiled *wavecc_compile(const wavecc_kernel *k, const wavecc_options *o, char **error);
/* The same with every option (since 0.3; o may be NULL). */
wavecc_compiled *wavecc_compile_ex(const wavecc_kernel *k, const wavecc_compile_options *o, char **error);
/* Compile n kernels with one llvm-mc run (autotuning sweeps): out[i] is the
 * result of ks[i], or NULL with errors[i] (errors may be NULL) set. Returns
 * the number that compiled. */
size_t wavecc_compile_many(const wavecc_kernel *const *ks, size_t n, const wavecc_options *o, wavecc_compiled **out,
	char **errors);
/* The same with every option (since 0.3). Bad options fail every kernel,
 * with the message in each errors[i]. */
size_t wavecc_compile_many_ex(const wavecc_kernel *const *ks, size_t n, const wavecc_compile_options *o,
	wavecc_compiled **out, char **errors);
void wavecc_compiled_free(wavecc_compiled *c);

/* The outputs: assembly text for llvm-mc, the code object (ELF bytes for
 * HIP's hipModuleLoadData), the launch descriptor (JSON, format
 * wavecc-launch/1: grid, workgroup size, arguments), and the statistics
 * `wavecc compile --stats` prints (registers, occupancy, instruction mix,
 * code size, stage times). len may be NULL. */
const char *wavecc_compiled_assembly(const wavecc_compiled *c, size_t *len);
const void *wavecc_compiled_code_object(const wavecc_compiled *c, size_t *len);
const char *wavecc_compiled_launch(const wavecc_compiled *c, size_t *len);
const char *wavecc_compiled_stats(const wavecc_compiled *c);
/* What compile_options.dump_mir and dump_plan asked for ("" otherwise;
 * since 0.3). */
const char *wavecc_compiled_dump(const wavecc_compiled *c, size_t *len);
/* The warnings of the compile that made c (waves_per_eu not met, llvm-mc's
 * warnings, ...): as wavecc_last_diagnostic, for c's life (since 0.3). */
size_t wavecc_compiled_num_diagnostics(const wavecc_compiled *c);
wavecc_status wavecc_compiled_diagnostic(const wavecc_compiled *c, size_t i, wavecc_diagnostic *d);

/* The parameters of the compiled code object, as wavecc_kernel_param gave
 * them at compile time (since 0.3). Text belongs to c. */
size_t wavecc_compiled_num_params(const wavecc_compiled *c);
wavecc_status wavecc_compiled_param(const wavecc_compiled *c, size_t i, wavecc_param_info *info, char **error);

/* A launch's geometry for given values of the runtime sizes (since 0.3):
 * what hipModuleLaunchKernel takes. */
typedef struct wavecc_launch_info {
	size_t struct_size;          /* set by the caller: sizeof(wavecc_launch_info) */
	uint32_t grid[3];            /* workgroups in x, y, z (not work-items; HIP's gridDim) */
	uint32_t workgroup_size[3];  /* work-items per workgroup (HIP's blockDim) */
	uint32_t static_lds_bytes;   /* the kernel's own LDS (the code object's group segment) */
	uint32_t dynamic_lds_bytes;  /* the LDS to launch with: HIP's sharedMemBytes */
	uint32_t kernarg_size;       /* bytes of the kernarg segment the parameters are written into */
} wavecc_launch_info;

/* c's launch for the values of its runtime sizes (the symbols it was not
 * compiled with a binding for; a value of a symbol it was compiled with
 * must be that binding's). An expression that needs a value not given is
 * bad input naming the symbol. */
wavecc_status wavecc_compiled_launch_evaluate(const wavecc_compiled *c, const wavecc_define *values, size_t n,
	wavecc_launch_info *info, char **error);
/* The same for any launch descriptor (docs/launch-format.md) and its code
 * object: the static LDS is the code object's; code_object may be NULL,
 * then it is the descriptor's static_lds_bytes (or, without that key, all
 * of lds_bytes: the first revision's files do not say). */
wavecc_status wavecc_launch_evaluate(const void *code_object, size_t code_len, const char *launch_json,
	size_t launch_len, const wavecc_define *values, size_t n, wavecc_launch_info *info, char **error);

/* ---- running ---- */

/* One parameter's data, by name.
 *  - A buffer: its memory, exactly the argument's size (wavecc_arg_info.bytes,
 *    wavecc_param_info.bytes). The kernel reads and writes it in place.
 *  - A scalar argument or a runtime size (since 0.3): its value, `bytes` =
 *    the dtype's size (wavecc_param_info.element_size), in the dtype's
 *    encoding, little endian (an f16 scalar: 2 bytes of IEEE half; a size:
 *    an int32_t). Read only.
 * A scalar's entry is its value for this call; a size's entry binds the
 * dynamic symbol for this call (wavecc_run: it must agree with a binding
 * the kernel was compiled with). */
typedef struct wavecc_buffer {
	const char *name;
	void *data;
	size_t bytes;
} wavecc_buffer;

typedef enum wavecc_backend {
	WAVECC_BACKEND_EMULATOR, /* wavecc's CPU emulator of the code object */
	WAVECC_BACKEND_HIP,      /* an AMD GPU through the HIP runtime (libamdhip64, loaded on demand) */
} wavecc_backend;

/* Run a compiled kernel on buffers: one per buffer argument, one per
 * scalar argument, and one per runtime size the kernel was not compiled
 * with a binding for (wavecc_compiled_param lists them all). */
wavecc_status wavecc_run(const wavecc_compiled *c, wavecc_backend backend, wavecc_buffer *bufs, size_t n,
	char **error);
/* Run any code object (from wavecc or clang) with a launch descriptor
 * (docs/launch-format.md); `bindings` are "NAME=VALUE" strings for its
 * symbolic sizes and scalars (may be NULL when it has none). An entry of
 * bufs naming one of the descriptor's scalars gives its value as above
 * (over a binding of the same name). */
wavecc_status wavecc_run_code_object(const void *code_object, size_t code_len, const char *launch_json,
	size_t launch_len, const char *const *bindings, size_t nbindings, wavecc_backend backend, wavecc_buffer *bufs,
	size_t n, char **error);

/* ---- the reference interpreter ---- */

/* Execute k's graph at tensor level (docs/interpreter.md) on the buffers,
 * one per buffer argument and one per scalar argument (its value): reads
 * its inputs from them, writes its results into the buffers. An entry
 * naming a dynamic symbol (an int32_t, 4 bytes) binds it for this call,
 * over wavecc_kernel_set_symbol's binding. */
wavecc_status wavecc_interpret(const wavecc_kernel *k, wavecc_buffer *bufs, size_t n, char **error);

/* Fill a buffer with the documented seeded generator `wavecc run` and
 * `wavecc interp` use for argument number i (docs/interpreter.md). */
wavecc_status wavecc_fill_random(const wavecc_kernel *k, size_t i, uint64_t seed, void *data, size_t bytes,
	char **error);

#ifdef __cplusplus
}
#endif

#endif
