/* isa.c — the instruction table's rows (insts.h), defined once, and the
 * facts the compiler derives from a row (contract in isa.h). */
#include <string.h>

#include "../../util/util.h"
#include "isa.h"

const IsaInfo isa_info[I_COUNT] = {
	[I_UNKNOWN] = {"<unknown>", FMT_COUNT, T_NONE, 0, {0, 0, 0}, NA, NA, 0},
#define X(id, nm, f, op, op90, ty, d, s0, s1, s2, fl) [I_##id] = {nm, f, ty, d, {s0, s1, s2}, op, op90, fl},
	ISA_INSTS(X)
#undef X
};

const char *const isa_class_name[MC_COUNT] = {
#define X(e, name, lat) [e] = name,
	ISA_CLASSES(X)
#undef X
};

static MClass class_of_row(int op)
{
	const IsaInfo *r = &isa_info[op];
	switch (r->fmt) {
	case FMT_SOP1:
	case FMT_SOP2:
	case FMT_SOPK:
	case FMT_SOPC:
		return (r->flags & IF_BRANCH) ? MC_BRANCH : MC_SALU;
	case FMT_SOPP:
		return strncmp(r->name, "s_cbranch", 9) == 0 || strcmp(r->name, "s_branch") == 0 ? MC_BRANCH
											     : MC_CONTROL;
	case FMT_SMEM:
		return MC_SMEM;
	case FMT_DS:
		return MC_LDS;
	case FMT_MUBUF:
	case FMT_FLAT:
		return (r->flags & IF_STORE) ? MC_VMEM_STORE : MC_VMEM_LOAD;
	default:
		if (r->flags & IF_MFMA)
			return MC_MFMA;
		return (r->flags & IF_TRANS) ? MC_TRANS : MC_VALU;
	}
}

/* Rows are const: classify each once (the SOPP rows compare names). */
MClass isa_class(int op)
{
	static uint8_t cache[I_COUNT]; /* class + 1; 0 = not yet */
	check_that(op >= 0 && op < I_COUNT);
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
	const IsaInfo *r = &isa_info[op];
	if (!(r->flags & IF_MFMA))
		return 0;
	return gfx90a ? IF_PASSES_90A(r->flags) : IF_PASSES_942(r->flags);
}

bool isa_mfma_xdl(int op, bool gfx90a)
{
	const IsaInfo *r = &isa_info[op];
	if (!(r->flags & IF_MFMA) || r->type == T_F64)
		return false;
	return gfx90a || (r->flags & IF_XDL);
}
