/* launch.h — launch descriptors ("wavecc-launch/1", docs/launch-format.md)
 * and running one kernel from one on a backend (emulator or HIP).
 *
 * A descriptor is parsed once (launch_parse), then resolved against the
 * command line's -D bindings (launch_resolve): every grid entry and shape
 * entry that is an expression over dynamic symbols becomes a number, every
 * scalar gets its value. Expressions use the symbolic engine's syntax
 * (ir/sym/sym.h: + - * // floor ceiling Mod Max Min ...), evaluated exactly; the
 * result must be a non-negative integer.
 *
 * Errors go to a Diag as "FILE:LINE:COL: error: JSON.PATH: message"; the
 * functions return 0 or -1. Running reports to a message Buf instead, in the
 * same form (buf_diag; "wavecc: error: message" where nothing in the
 * descriptor is to blame), one complete line each, for the caller to print
 * as it is. Everything lives in the LaunchDesc's arena. */
#ifndef WAVECC_LAUNCH_H
#define WAVECC_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../emu/emu.h"
#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../../util/util.h"

#define LAUNCH_FORMAT "wavecc-launch/1"
/* Resource limits of a launch (docs/launch-format.md): one buffer holds at
 * most 4 GiB (what one buffer resource's 32-bit num_records can span), all
 * buffers together at most 8 GiB of host memory. Larger shapes are
 * located errors at the shape, never an allocation failure. */
#define LAUNCH_MAX_BUFFER_BYTES (UINT64_C(1) << 32)
#define LAUNCH_MAX_TOTAL_BYTES (UINT64_C(1) << 33)
/* A descriptor file is read whole: at most 16 MiB, a regular file. */
#define LAUNCH_MAX_FILE_BYTES (UINT64_C(1) << 24)
#define LAUNCH_MAX_CODE_OBJECT_BYTES (UINT64_C(1) << 30)
/* LDS per workgroup: gfx950's 160 KiB (the others have 64 KiB; the
 * emulator holds each arch to its own). */
#define LAUNCH_MAX_LDS_BYTES 163840

typedef enum { LARG_BUFFER, LARG_SCALAR } LaunchArgKind;
enum { ACC_READ = 1, ACC_WRITE = 2, ACC_READWRITE = 3 };

/* An integer given literally or as an expression. */
typedef struct LaunchDim {
	const char *expr; /* NULL: literal */
	void *sym;        /* parsed expression (Sym *), NULL for literals */
	int64_t value;    /* the literal, or the value after launch_resolve */
	Loc loc;
	const char *path; /* JSON path, e.g. "grid[0]" */
} LaunchDim;

typedef struct LaunchArg {
	const char *name;
	LaunchArgKind kind;
	DType dtype;
	int ndim;
	LaunchDim shape[NPY_MAX_DIMS];
	uint32_t offset;
	int access;           /* ACC_* */
	bool has_value;       /* "value" key */
	double value;         /* scalar: "value", then -D, after resolve */
	int64_t ivalue;       /* the same, exact, for integer dtypes */
	Loc loc;
	/* after launch_resolve */
	uint64_t count, nbytes; /* buffers */
} LaunchArg;

typedef struct LaunchDesc {
	Arena arena;
	void *symctx; /* SymCtx * for the expressions */
	const char *path;
	const char *code_object; /* as written */
	const char *code_object_path; /* resolved against the descriptor's folder */
	const char *kernel, *arch;
	uint32_t workgroup_size[3];
	LaunchDim grid[3];
	uint32_t lds_bytes, kernarg_size;
	/* the LDS split (optional keys): -1 when the descriptor does not say;
	 * lds_bytes is then static + dynamic (has_lds_bytes: it was given) */
	int64_t static_lds, dynamic_lds;
	bool has_lds_bytes;
	LaunchArg *args;
	size_t nargs;
	/* the co-residency contract (optional keys, docs/launch-format.md):
	 * the kernel's workgroups wait for each other, so the whole grid must
	 * be resident at once; workgroups_per_cu is what the compiler found
	 * its resources allow on one CU (0: not given) */
	bool co_resident;
	int64_t workgroups_per_cu;
	Loc co_resident_loc, workgroups_per_cu_loc;
	Loc loc; /* the document */
	/* where the keys checked against the code object at run time are */
	Loc code_object_loc, kernel_loc, arch_loc, workgroup_size_loc, lds_bytes_loc, static_lds_loc;
} LaunchDesc;

/* ---- launch.c ---- */
/* Parse a descriptor held in memory; `path` names it in messages and is the
 * base for code_object. On failure the desc is still safe to free. */
int launch_parse(const char *text, size_t len, const char *path, LaunchDesc *d, Diag *diag);
int launch_parse_file(const char *path, LaunchDesc *d, Diag *diag);
void launch_free(LaunchDesc *d);
/* Bind -D NAME=VALUE pairs (`defs[i]` is "NAME=VALUE"), then evaluate grid,
 * shapes and scalar values. A scalar's value comes from -D, else "value";
 * an integer scalar also binds the symbol of its name. */
int launch_resolve(LaunchDesc *d, int ndefs, const char *const *defs, Diag *diag);
/* The same for the grid alone (the buffers' shapes and the scalars' values
 * are not needed): d->grid[i].value. */
int launch_resolve_grid(LaunchDesc *d, int ndefs, const char *const *defs, Diag *diag);
const LaunchArg *launch_arg(const LaunchDesc *d, const char *name);

/* ---- run.c ---- */
typedef enum { BACKEND_EMU, BACKEND_HIP } Backend;
/* How the emulator treats d16 loads (loader/emu/emu.h): as the code object's
 * target ID says (sramecc off: preserve the other half; on, any or absent:
 * clobber it), or forced either way (`wavecc run --d16 clobber|preserve`). */
typedef enum { RUN_D16_AUTO, RUN_D16_CLOBBER, RUN_D16_PRESERVE } RunD16;
/* "auto", "clobber", "preserve" -> mode; -1 for anything else. */
int launch_d16_parse(const char *s);

typedef struct RunOptions {
	Backend backend;
	int nin, nout;
	const char *const *in;  /* "NAME=FILE.npy" */
	const char *const *out; /* "NAME=FILE.npy" */
	bool random;
	uint64_t seed;
	uint64_t max_instructions; /* emulator; 0: its default */
	RunD16 d16;                /* emulator */
	EmuPolicy policy;          /* emulator: wave and workgroup order, initial fill, memory and race modes
	                              (zero: the defaults) */
	bool races_fail;           /* emulator, policy.races: a race fails the run (else a warning) */
	bool trace, verbose;
	const struct EmuHook *emu_hook; /* emulator: record each instruction (loader/emu/emu.h), NULL: off */
} RunOptions;

/* The dynamic LDS of a launch of d's kernel whose code object gives it
 * kd_static bytes of static LDS (group_segment_fixed_size): dynamic_lds_bytes
 * when the descriptor gives it, else lds_bytes - the static LDS; -1 with a
 * located message in msg when the descriptor disagrees with the kernel. */
int64_t launch_dynamic_lds(const LaunchDesc *d, uint32_t kd_static, Buf *msg);
/* The co-residency check of a launch (docs/launch-format.md, "Co-resident
 * kernels"): nothing for a descriptor without co_resident; else the
 * workgroups one CU holds (the smaller of the descriptor's
 * workgroups_per_cu and what the kernel descriptor's registers, LDS and
 * workgroup size allow) times the CUs of the arch's default GPU
 * (loader/timing: MI300X 304, MI250X's GCD 110, MI355X 256) must cover the
 * grid. Returns 0, or -1 with a message located at the grid. *capacity (may be
 * NULL) gets the resident workgroups. */
struct KernelDescriptor;
int launch_check_co_resident(const LaunchDesc *d, const struct KernelDescriptor *kd, uint64_t *capacity, Buf *msg);
/* Run a resolved descriptor: load the code object, allocate and fill the
 * buffers, build the kernarg segment, launch, write the outputs. Messages
 * go to `msg` (one line each). Returns 0 or -1. */
int launch_run(LaunchDesc *d, const RunOptions *o, Buf *msg);

/* One buffer argument's memory, owned by the caller: `bytes` must be the
 * argument's size after launch_resolve (LaunchArg.nbytes). */
typedef struct HostBuffer {
	const char *name;
	void *data;
	uint64_t bytes;
} HostBuffer;
/* The same in memory: the code object's bytes, and one HostBuffer per
 * buffer argument (by name), which the kernel reads and writes in place.
 * RunOptions' file fields (in, out, random) are not used. Returns 0; -1
 * with messages in msg when the descriptor, code object or buffers do not
 * fit together; -2 when they did and the run failed (an emulator fault, no
 * GPU for HIP). */
int launch_run_memory(const LaunchDesc *d, const void *code, size_t code_len, const RunOptions *o, HostBuffer *bufs,
	size_t nbufs, Buf *msg);
/* Append "FILE:LINE:COL: error: PATH: message\n" (buf_diag: the
 * frontend's form) to msg. */
void launch_msg(Buf *msg, Loc at, const char *path, const char *fmt, ...) PRINTF_LIKE(4, 5);

/* The kernarg segment and buffers of a launch, shared by the backends. */
typedef struct RunBuffer {
	const LaunchArg *arg;
	uint8_t *host; /* nbytes (at least 1 byte allocated) */
	uint64_t device; /* device address, set by the backend */
} RunBuffer;

typedef struct RunPlan {
	const LaunchDesc *d;
	const uint8_t *code_object; /* file bytes */
	size_t code_object_len;
	const void *co; /* CodeObject * */
	const void *kernel; /* CodeKernel * */
	uint8_t *kernarg;
	uint32_t kernarg_len;
	RunBuffer *bufs;
	size_t nbufs;
	uint32_t grid[3];
	uint32_t dynamic_lds;
} RunPlan;

/* Write each buffer's device address into the kernarg segment (both
 * backends, after they placed the buffers). */
static inline void run_patch_pointers(RunPlan *p)
{
	for (size_t i = 0; i < p->nbufs; i++)
		memcpy(p->kernarg + p->bufs[i].arg->offset, &p->bufs[i].device, 8);
}

/* ---- hip.c ---- */
/* Launch on a GPU through the HIP runtime, loaded with dlopen. Returns 0, or
 * -1 with a message (library missing, no AMD GPU, HIP errors). */
int hip_run(RunPlan *p, bool verbose, Buf *msg);

#endif
