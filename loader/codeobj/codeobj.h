/* codeobj.h — reading AMDHSA code objects (ET_DYN, code object v4–v6), the
 * way the ROCr loader does (LLVM AMDGPUUsage, "Loaded Code Object"): kernels are the non-local
 * symbols of .symtab whose names end in ".kd"; the image is all PT_LOAD
 * segments copied into one allocation spanning [lowest vaddr, highest
 * vaddr + memsz), zero-filled elsewhere; kernel descriptors are read from
 * that image and decoded with kd.h; the NT_AMDGPU_METADATA note is decoded
 * from MessagePack with msgpack-c.
 *
 * Ownership: everything a CodeObject points to lives in its arena and is
 * released by codeobj_free. Errors: -1 with a message (naming the file) in
 * `msg`; a malformed file never crashes the reader. */
#ifndef WAVECC_CODEOBJ_H
#define WAVECC_CODEOBJ_H

#include <stdbool.h>
#include <stdint.h>

#include "../../util/util.h"
#include "kd.h"

typedef struct KernelArgMeta {
	const char *name;          /* NULL when absent */
	const char *type_name;     /* NULL when absent */
	const char *value_kind;    /* "global_buffer", "by_value", "hidden_..." */
	const char *address_space; /* NULL when absent */
	const char *access;        /* .actual_access or .access, NULL when absent */
	uint64_t offset, size;
} KernelArgMeta;

/* One kernel's metadata map; numeric fields are -1 when the key is absent. */
typedef struct KernelMeta {
	const char *name, *symbol;
	int64_t kernarg_segment_size, kernarg_segment_align;
	int64_t group_segment_fixed_size, private_segment_fixed_size;
	int64_t wavefront_size, sgpr_count, vgpr_count, agpr_count;
	int64_t sgpr_spill_count, vgpr_spill_count, max_flat_workgroup_size;
	int64_t reqd_workgroup_size[3];
	int uses_dynamic_stack; /* -1 absent */
	KernelArgMeta *args;
	size_t nargs;
} KernelMeta;

typedef struct CodeMetadata {
	bool present;
	int version[2]; /* amdhsa.version, -1 if absent */
	const char *target; /* amdhsa.target */
	KernelMeta *kernels;
	size_t nkernels;
} CodeMetadata;

typedef struct CodeKernel {
	const char *name;   /* symbol name without ".kd" */
	const char *kd_symbol;
	uint64_t kd_vaddr;
	uint8_t kd_bytes[KD_SIZE];
	KernelDescriptor kd;
	uint64_t entry_vaddr; /* kd_vaddr + entry offset */
	uint64_t code_size;   /* size of the function symbol at the entry, 0 if none */
	const KernelMeta *meta; /* the metadata entry with .symbol == kd_symbol, or NULL */
} CodeKernel;

typedef struct CodeObject {
	Arena arena;
	const char *name;
	uint32_t e_flags;
	int abi_version;        /* e_ident[EI_ABIVERSION] */
	int code_object_version; /* 4, 5, 6 from the ABI version, 0 if unknown */
	const char *mcpu;        /* from e_flags: "gfx942", ... or "unknown" */
	const char *xnack, *sramecc; /* "unsupported", "any", "off", "on" */
	uint64_t base;           /* lowest PT_LOAD vaddr */
	uint64_t image_size;
	uint8_t *image;          /* one allocation, image_size bytes (freed by codeobj_free) */
	int nload;               /* PT_LOAD segments */
	uint64_t exec_lo, exec_hi; /* the executable PT_LOAD segments' file bytes, [lo, hi) (0, 0: none) */
	CodeKernel *kernels;
	size_t nkernels;
	CodeMetadata meta;
} CodeObject;

/* ---- codeobj.c ---- */
int codeobj_read(const void *bytes, size_t len, const char *name, CodeObject *co, Buf *msg);
int codeobj_read_file(const char *path, CodeObject *co, Buf *msg);
void codeobj_free(CodeObject *co);

/* ---- link.c ---- */
/* Link one relocatable AMDGPU object into an ET_DYN code object laid out like
 * `ld.lld -shared` does (see link.c), appended to `out`. `name` is used in
 * messages. Returns 0, or -1 with a message appended to msg. */
int codeobj_link(const void *obj, size_t len, const char *name, Buf *out, Buf *msg);
/* Link one variant of a batch object (several kernels assembled in one
 * llvm-mc run, driver/batch.c): only the sections named "NAME.TAG", under
 * the name NAME; only the index-th note of each note section (the
 * variant's metadata); symbol names with "__TAG" removed. The result is the
 * code object codeobj_link makes from the variant assembled alone. */
int codeobj_link_variant(const void *obj, size_t len, const char *tag, size_t index, const char *name, Buf *out,
	Buf *msg);
/* Find a kernel by name ("vadd") or descriptor symbol ("vadd.kd"). */
const CodeKernel *codeobj_kernel(const CodeObject *co, const char *name);
/* Print the readable description `wavecc info` shows. */
void codeobj_print(const CodeObject *co, FILE *out);

/* ---- input.c ---- */
/* NULL if `path` is a regular file (symbolic links followed) of at most
 * max_bytes; else why not ("cannot read: not a regular file (a FIFO)"),
 * written to `why`. Checked before code objects, launch descriptors and
 * --in files are read whole. */
const char *input_file_problem(const char *path, uint64_t max_bytes, char *why, size_t len);

/* ---- metadata.c ---- */
/* Decode the MessagePack desc of an NT_AMDGPU_METADATA note into md (strings
 * and arrays in `a`). Returns 0, or -1 with a message in msg. */
int metadata_decode(const void *desc, size_t len, Arena *a, CodeMetadata *md, Buf *msg);

#endif
