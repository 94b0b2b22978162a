/* isa.c — the instruction table's rows (insts.h), defined once, and the
 * facts the compiler derives from a row (contract in isa.h). */
#include <string.h>

#include "../../util/util.h"
#include "isa.h"

const EmuInstInfo emu_inst_info[EI_COUNT] = {
	[EI_UNKNOWN] = {"<unknown>", EF_COUNT, T_NONE, 0, {0, 0, 0}, NA, NA, 0},
#define X(id, nm, f, op, op90, ty, d, s0, s1, s2, fl) [EI_##id] = {nm, f, ty, d, {s0, s1, s2}, op, op90, fl},
	EMU_INSTS(X)
#undef X
};

const char *const isa_class_name[MC_COUNT] = {
#define X(e, name, lat) [e] = name,
	ISA_CLASSES(X)
#undef X
};

static MClass class_of_row(int op)
{
	const EmuInstInfo *r = &emu_inst_info[op];
	switch (r->fmt) {
	case EF_SOP1:
	case EF_SOP2:
	case EF_SOPK:
	case EF_SOPC:
		return (r->flags & EIF_BRANCH) ? MC_BRANCH : MC_SALU;
	case EF_SOPP:
		return strncmp(r->name, "s_cbranch", 9) == 0 || strcmp(r->name, "s_branch") == 0 ? MC_BRANCH
											     : MC_CONTROL;
	case EF_SMEM:
		return MC_SMEM;
	case EF_DS:
		return MC_LDS;
	case EF_MUBUF:
	case EF_FLAT:
		return (r->flags & EIF_STORE) ? MC_VMEM_STORE : MC_VMEM_LOAD;
	default:
		if (r->flags & EIF_MFMA)
			return MC_MFMA;
		return (r->flags & EIF_TRANS) ? MC_TRANS : MC_VALU;
	}
}

/* Rows are const: classify each once (the SOPP rows compare names). */
MClass isa_class(int op)
{
	static uint8_t cache[EI_COUNT]; /* class + 1; 0 = not yet */
	check_that(op >= 0 && op < EI_COUNT);
	if (!cache[op])
		cache[op] = (uint8_t)(class_of_row(op) + 1);
	return (MClass)(cache[op] - 1);
}

int isa_latency(int op)
{
	static const int latency[MC_COUNT] = {
#define X(e, name, lat) [e] = lat,
		ISA_CLASSES(X)
#undef X
	};
	return latency[isa_class(op)];
}

int isa_mfma_passes(int op, bool gfx90a)
{
	const EmuInstInfo *r = &emu_inst_info[op];
	if (!(r->flags & EIF_MFMA))
		return 0;
	return gfx90a ? EIF_PASSES_90A(r->flags) : EIF_PASSES_942(r->flags);
}

bool isa_mfma_xdl(int op, bool gfx90a)
{
	const EmuInstInfo *r = &emu_inst_info[op];
	if (!(r->flags & EIF_MFMA) || r->type == T_F64)
		return false;
	return gfx90a || (r->flags & EIF_XDL);
}
