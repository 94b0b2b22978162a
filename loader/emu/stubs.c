/* stubs.c — temporary: executors not yet written stop with the name. */
#include "emu_int.h"
#define STUB(fn) void fn(Emu *e, Wave *w, const Inst *in) { emu_fail(e, w, in, "unimplemented instruction %s", emu_inst_name(in)); }
STUB(emu_exec_salu)
STUB(emu_exec_valu)
STUB(emu_exec_smem)
STUB(emu_exec_ds)
STUB(emu_exec_vmem)
STUB(emu_exec_mfma)
